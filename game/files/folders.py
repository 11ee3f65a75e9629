"""Where the player's files (options, saves) live, by each platform's convention: %APPDATA% on
Windows, ~/Library/Application Support on macOS, XDG on Linux and other Unixes, and
$SPECTRUM_BACKGAMMON_CONFIG_DIR everywhere. Files left in the old place (~/.config, used on
every system before) are moved once. Not what the files hold (settings.py, savegame.py)."""
from __future__ import annotations

import errno
import os
import pathlib
import shutil
import sys
from collections.abc import Callable

from spectrum.quoting import os_words, short_path
from spectrum.quoting import say as quoting_say
from spectrum.safe_write import keep_aside, make_folder

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


def config_dir(say: Callable[[str], None] | None = None) -> pathlib.Path:
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


def move_old_files(old: pathlib.Path, folder: pathlib.Path,
                   say: Callable[[str], None] | None = None) -> bool:
    """Move each file of `old` to `folder`, where a file of the same name already there wins
    unless the old one is newer (then the new place's is kept aside as NAME.older-DATE), and
    remove `old` once it is empty; one line to `say` (stderr) when anything moved or could
    not. True when `folder` is to be used: everything moved, or `old` cannot even be read
    (its files cannot be used either: the defaults). False when files stay behind in `old`
    after an error: then it is used, and what moved this time is moved back, so the newest
    save is never hidden in one place while the other is used. Tried once a run."""
    say = say or quoting_say
    if str(old) in _said:                        # it failed earlier in this run
        return not _holds_files(old)
    try:
        names = sorted(entry.name for entry in old.iterdir())
    except OSError as exc:
        _said.add(str(old))
        say(f"Your old options and saves in {short_path(old)} could not be read "
            f"({_why(exc, old)}), so nothing was moved from there to {short_path(folder)}; "
            f"this run uses that folder, with the default options if it has none.")
        return True
    moved: list[str] = []
    notes: list[str] = []
    try:
        make_folder(folder)
        for name in names:
            if _move_newer(old / name, folder / name, notes):
                moved.append(name)
        if not any(old.iterdir()):
            old.rmdir()
    except OSError as exc:
        _said.add(str(old))
        back = [name for name in moved if _moved_back(folder / name, old / name)]
        say(f"Your options and saves in {short_path(old)} could not be moved to "
            f"{short_path(folder)} ({_why(exc, old)}); they are used where they are"
            f"{' (' + ', '.join(back) + ' moved back)' if back else ''}.")
        return not _holds_files(old)
    if moved:
        say(f"Moved {', '.join(moved)} from {short_path(old)} to {short_path(folder)}, this "
            f"system's place for them{''.join(notes)}.")
    return True


def _move_newer(entry: pathlib.Path, target: pathlib.Path, notes: list) -> bool:
    """Move one entry of the old place unless the new place has one as new (False: left).
    A newer old file replaces the new place's, which is kept aside first (said in notes)."""
    if os.path.lexists(target):
        if entry.lstat().st_mtime_ns <= target.lstat().st_mtime_ns:
            return False
        aside = keep_aside(target, label="older")
        notes.append(f"; {entry.name} was newer than the one there, kept as {aside.name}")
    _move(entry, target)
    return True


def _move(entry: pathlib.Path, target: pathlib.Path) -> None:
    """Rename; across drives, copy and delete the original, and if it cannot be deleted,
    delete the copy (OSError either way), so a file is never in both places at once."""
    try:
        os.rename(entry, target)
        return
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
    if entry.is_dir():
        shutil.copytree(entry, target, symlinks=True)
    else:
        shutil.copy2(entry, target, follow_symlinks=False)
    try:
        shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
    except OSError:
        shutil.rmtree(target, ignore_errors=True) if target.is_dir() else target.unlink()
        raise


def _moved_back(entry: pathlib.Path, target: pathlib.Path) -> bool:
    try:
        _move(entry, target)
        return True
    except OSError:
        return False


def _why(exc: OSError, old: pathlib.Path) -> str:
    """An OSError in words, its file named unless it is `old` itself (named already)."""
    if exc.strerror and exc.filename in (None, str(old), old):
        return exc.strerror
    return os_words(exc)


def _holds_files(folder: pathlib.Path) -> bool:
    """Any regular file in `folder` (False when it cannot be read)."""
    try:
        return any(p.is_file() for p in folder.iterdir())
    except OSError:
        return False
