"""Where the player's files (options, saves) live, by each platform's convention: %APPDATA% on
Windows, ~/Library/Application Support on macOS, XDG on Linux and other Unixes, and
$SPECTRUM_BACKGAMMON_CONFIG_DIR everywhere. Files left in the old place (~/.config, used on
every system before) are moved once. Not what the files hold (settings.py, savegame.py)."""
from __future__ import annotations

import os
import pathlib
import shutil
import sys

CONFIG_ENV = "SPECTRUM_BACKGAMMON_CONFIG_DIR"   # overrides the directory (tests, portable use)
APP_DIR = "spectrum-backgammon"
_said: set[str] = set()      # each move's failure is said once a run, not at every save


def _home() -> pathlib.Path:
    return pathlib.Path(os.path.expanduser("~"))


def platform_base() -> pathlib.Path:
    """The folder this platform keeps applications' settings in (read at each call, so a
    test may set sys.platform and the environment)."""
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        return pathlib.Path(appdata) if appdata else _home().joinpath("AppData", "Roaming")
    if sys.platform == "darwin":
        return _home().joinpath("Library", "Application Support")
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    # the XDG rule: a relative $XDG_CONFIG_HOME is invalid and ignored
    return pathlib.Path(xdg) if os.path.isabs(xdg) else _home() / ".config"


def old_place() -> pathlib.Path:
    """Where every version before issue 51 kept the files, whatever the platform."""
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    return (pathlib.Path(xdg) if os.path.isabs(xdg) else _home() / ".config") / APP_DIR


def config_dir(say=None) -> pathlib.Path:
    """$SPECTRUM_BACKGAMMON_CONFIG_DIR, else the platform's folder for spectrum-backgammon.
    Files found in the old place are moved there first (once: the old folder goes); when
    they cannot be moved, the old place is used, so a save is never lost from view."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return pathlib.Path(override)
    folder = platform_base() / APP_DIR
    old = old_place()
    if old == folder or not old.is_dir():
        return folder
    return folder if move_old_files(old, folder, say) else old


def move_old_files(old: pathlib.Path, folder: pathlib.Path, say=None) -> bool:
    """Move each file of `old` that `folder` does not have yet (one already there wins), then
    remove `old` if it is empty; one line to `say` (stderr) when anything moved or could not.
    True when `folder` is to be used, False when files stay behind in `old` after an error."""
    say = say or (lambda text: print(text, file=sys.stderr))
    moved = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for entry in sorted(old.iterdir()):
            target = folder / entry.name
            if not target.exists():
                shutil.move(str(entry), str(target))
                moved.append(entry.name)
        if not any(old.iterdir()):
            old.rmdir()
    except OSError as exc:
        if str(old) not in _said:
            _said.add(str(old))
            say(f"Your options and saves in {old} could not be moved to {folder} ({exc}); "
                f"they are used where they are.")
        return not any(p.is_file() for p in old.iterdir()) if old.is_dir() else True
    if moved:
        say(f"Moved {', '.join(moved)} from {old} to {folder}, this system's place for them.")
    return True
