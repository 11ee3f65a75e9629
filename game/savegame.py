"""Save and resume a match in progress: the match (scores, cube, Crawford, record so far),
the gnubg position ID, whose turn, the dice if rolled and a snapshot of the settings, as
one JSON file beside the settings. A damaged file is set aside, never a traceback."""
from __future__ import annotations

import json
import os
import pathlib
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Optional

from game.match import Match, MatchError
from game.record import RecordError
from game.settings import Settings, SettingsError, config_dir, read_json_file

from game.errors import BackgammonError

SAVE_FILE = "savegame.json"
FORMAT = "spectrum-backgammon-save"
VERSION = 1
_POSITION_ID = re.compile(r"^[A-Za-z0-9+/]{14}$")


class SaveError(BackgammonError, ValueError):
    """A save file whose contents cannot be a match in progress; the message says why."""


@dataclass
class SavedGame:
    """Everything needed to carry on: `turn` is the side on roll, `dice` its roll or None
    if it has not rolled, `extra` free room for the game flow (e.g. steps typed so far)."""
    match: Match
    position_id: str
    turn: Optional[str]
    dice: Optional[tuple] = None
    settings: Settings = field(default_factory=Settings)
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "saved_at": time.strftime("%Y-%m-%d %H:%M:%S"),
                "match": self.match.to_dict(), "position_id": self.position_id,
                "turn": self.turn, "dice": list(self.dice) if self.dice else None,
                "settings": self.settings.to_dict(), "extra": self.extra}

    @classmethod
    def from_dict(cls, data) -> "SavedGame":
        """Rebuild and check a save; any inconsistency raises SaveError with the reason."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveError("not a Spectrum Backgammon save file")
        if data.get("version") != VERSION:
            raise SaveError(f"save file version {data.get('version')!r} is not {VERSION}")
        try:
            match = Match.from_dict(data["match"])
            settings = Settings.from_dict(data["settings"])
            position_id = data["position_id"]
            turn = data["turn"]
            dice = data["dice"]
            extra = data.get("extra") or {}
        except (MatchError, SettingsError, RecordError) as exc:
            raise SaveError(str(exc)) from None
        except (KeyError, TypeError) as exc:
            raise SaveError(f"missing or wrong entry {exc}") from None
        if not isinstance(position_id, str) or not _POSITION_ID.match(position_id):
            raise SaveError(f"position ID {position_id!r} is not 14 Base64 characters")
        _check_position(position_id)
        if turn is not None and turn not in match.sides:
            raise SaveError(f"whose turn? {turn!r} is not a side of this match")
        if dice is not None:
            if (not isinstance(dice, list) or len(dice) != 2
                    or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice)):
                raise SaveError(f"dice {dice!r} are not two numbers from 1 to 6")
            dice = tuple(dice)
        if not isinstance(extra, dict):
            raise SaveError("extra data is not a table")
        return cls(match, position_id, turn, dice, settings, extra)


def _check_position(position_id: str) -> None:
    """A position ID must also decode to a possible board (game/position.py says why not)."""
    try:
        from game.position import Position
        from game.errors import PositionError
    except ImportError:          # the engine is not built: the format check above must do
        return
    try:
        Position.from_id(position_id)
    except PositionError as exc:
        raise SaveError(f"position ID {position_id}: {exc}") from None


def save_path() -> pathlib.Path:
    return config_dir() / SAVE_FILE


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def save_game(saved: SavedGame, path=None) -> pathlib.Path:
    """Write the save (a temporary file, then a rename, so a crash never leaves half)."""
    path = pathlib.Path(path) if path else save_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(saved.to_dict(), indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def has_save(path=None) -> bool:
    return (pathlib.Path(path) if path else save_path()).is_file()


def discard_save(path=None) -> None:
    """Remove the save once its match is finished or the player starts afresh."""
    path = pathlib.Path(path) if path else save_path()
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def set_aside(path) -> pathlib.Path:
    """Rename a damaged file to NAME.damaged-YYYYmmdd-HHMMSS (numbered if that exists)."""
    path = pathlib.Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    os.replace(path, target)
    return target


def load_game(path=None, warn=_stderr) -> tuple[Optional[SavedGame], Optional[str]]:
    """(saved game, None); (None, None) when there is no save; or, for a damaged save,
    (None, warning) after renaming the file aside (kept, never deleted) so the program
    starts fresh. The one-line warning also goes to `warn` (stderr; None for silence)."""
    path = pathlib.Path(path) if path else save_path()
    saved, problem = read_json_file(
        path, SavedGame.from_dict, SaveError,
        (ValueError, TypeError, KeyError, AttributeError, RecursionError))
    if problem is None:
        return saved, None
    try:
        kept = set_aside(path)
        where = f"kept as {kept.name}"
    except OSError as exc:
        where = f"could not be renamed ({exc.__class__.__name__})"
    warning = f"Saved game {path} {problem}; {where}; starting a new game."
    if warn:
        warn(warning)
    return None, warning
