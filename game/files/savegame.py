"""Save and resume a match in progress: the match (scores, cube, Crawford, record so far),
the gnubg position ID, whose turn, the dice if rolled and a snapshot of the settings, as
one JSON file beside the settings, written atomically with the previous good save kept as
NAME.bak. Every entry is checked (game/files/validate.py); a damaged file is kept aside, never a
traceback. Not when to save (the game flow calls Autosave)."""
from __future__ import annotations

import json
import os
import pathlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from game.errors import BackgammonError, PositionError
from game.files import packed_games
from game.files.settings import Settings, SettingsError, config_dir
from game.files.validate import (
    MAX_FILE_BYTES,
    Invalid,
    Json,
    flag,
    keyed_by,
    list_of,
    maybe,
    one_of,
    parse_json,
    plain,
    read_json_file,
    table,
    text,
    whole,
)
from game.model.match import (
    ENDINGS,
    MAX_CUBE,
    MAX_GAMES,
    MAX_LENGTH,
    MAX_SCORE,
    Match,
    MatchError,
    sides_for,
)
from game.model.names import MAX_NAME_CHARS, clean_name, name_note, name_problem
from game.model.position import ID_FORM, MEN_PER_SIDE, Position
from game.model.record import ACTIONS, RecordError
from spectrum import safe_write
from spectrum.quoting import escaped, say, short_path
from spectrum.safe_write import PathLike

SAVE_FILE = "savegame.json"
BACKUP_SUFFIX = ".bak"              # the previous good save, beside the save
FORMAT = "spectrum-backgammon-save"
VERSION = 2                         # 2: the finished games packed (game/files/packed_games.py)
READS = (1, 2)                      # 1: every game as JSON tables, still read
MAX_POINTS = 3 * MAX_CUBE           # a backgammon at the highest cube


class SaveError(BackgammonError, ValueError):
    """A save file whose contents cannot be a match in progress; the message (one line)
    names the entry and the value."""


# ---------------------------------------------------------------- the checks
def _cube(value: Json, field: str) -> None:
    whole(1, MAX_CUBE)(value, field)
    if value & (value - 1):
        raise Invalid(field, value, "is not a power of two")
    return value


def _sides(value: Json, field: str) -> None:
    list_of(text(20), 2, 2)(value, field)
    if value[0] == value[1]:
        raise Invalid(field, value, "names the same side twice")
    return value


def _dice(value: Json, field: str) -> list:
    return list_of(whole(1, 6), 2, 2)(value, field)


def _names(value: Json, field: str) -> Json:
    if type(value) is not dict:
        raise Invalid(field, value, "is not a table")
    for key, name in value.items():
        text(MAX_NAME_CHARS)(name, f"{field}.{key}")
    return value


def _record(value: Json, field: str) -> Json:
    table({"length": whole(0, MAX_LENGTH), "sides": _sides, "names": _names,
           "games": list_of(lambda v, f: v, 0, MAX_GAMES)})(value, field)
    sides = value["sides"]
    for side in sides:
        if side not in value["names"]:
            raise Invalid(f"{field}.names", value["names"], f"has no name for {escaped(side)}")
    action = table({"kind": one_of(*ACTIONS), "side": one_of(*sides), "dice": maybe(_dice),
                    "play": text(200), "value": whole(0, MAX_POINTS)},
                   optional=("dice", "play", "value"))
    game = table({"number": whole(1, MAX_GAMES), "scores": keyed_by(sides, whole(0, MAX_SCORE)),
                  "crawford": flag, "actions": list_of(action, 0, MAX_GAMES),
                  "winner": maybe(one_of(*sides)), "points": whole(0, MAX_POINTS),
                  "how": one_of("", *ENDINGS)},
                 optional=("crawford", "winner", "points", "how"))
    list_of(game, 0, MAX_GAMES)(value["games"], f"{field}.games")
    return value


def _match(value: Json, field: str) -> dict:
    table({"sides": _sides})(value, field)
    sides = value["sides"]
    side = one_of(*sides)
    result = table({"winner": side, "kind": one_of(*ENDINGS), "cube": _cube,
                    "points": whole(0, MAX_POINTS)}, others=False)
    return table({
        "length": maybe(whole(1, MAX_LENGTH)), "cube_enabled": flag,
        "score": keyed_by(sides, whole(0, MAX_SCORE)), "cube_value": _cube,
        "cube_owner": maybe(side), "offered_by": maybe(side), "on_roll": maybe(side),
        "rolled": flag, "game_number": whole(0, MAX_GAMES), "in_game": flag,
        "crawford_game": flag, "crawford_done": flag,
        "results": list_of(result, 0, MAX_GAMES), "record": _record})(value, field)


def _position_id(value: Json, field: str) -> str:
    if type(value) is not str or not ID_FORM.fullmatch(value):
        raise Invalid(field, value, "is not 14 Base64 characters")
    return value


def _settings(value: Json, field: str) -> Json:
    Settings.from_dict(value, field)
    return value


def check_save(data: Json) -> None:
    """Every entry of a save's JSON value for its exact type and range (SaveError naming
    the entry and the value); the turn must be a side of the match, never null."""
    if type(data) is not dict or data.get("format") != FORMAT:
        raise SaveError("format: not a Spectrum Backgammon save file")
    try:
        table({"version": whole(READS[0], READS[-1]), "match": _match})(data, "")
        maybe(list_of(text(packed_games.MAX_CHUNK_BYTES), 0, MAX_GAMES))(
            data["match"]["record"].get("played"), "match.record.played")
        table({"position_id": _position_id, "turn": one_of(*data["match"]["sides"]),
               "dice": maybe(_dice), "settings": _settings, "extra": plain,
               "saved_at": text(40)}, optional=("extra", "saved_at"))(data, "")
        if type(data.get("extra", {})) is not dict:
            raise Invalid("extra", data["extra"], "is not a table")
    except Invalid as exc:
        raise SaveError(str(exc)) from None
    except SettingsError as exc:
        raise SaveError(str(exc)) from None


@dataclass
class SavedGame:
    """Everything needed to carry on: `turn` is the side on roll, `dice` its roll or None
    if it has not rolled, `extra` free room for the game flow (e.g. steps typed so far)."""
    match: Match
    position_id: str
    turn: str | None
    dice: tuple | None = None
    settings: Settings = field(default_factory=Settings)
    extra: dict = field(default_factory=dict)
    notes: list = field(default_factory=list, compare=False)   # what reading it cleaned

    def to_dict(self, packer: packed_games.Packer | None = None) -> dict:
        """The save's JSON value, its finished games packed (`packer`: what the last save
        packed, remembered; None: nothing)."""
        match = packed_games.packed_match(self.match, packer or packed_games.Packer())
        return {"format": FORMAT, "version": VERSION,
                "saved_at": time.strftime("%Y-%m-%d %H:%M:%S"),
                "match": match, "position_id": self.position_id,
                "turn": self.turn, "dice": list(self.dice) if self.dice else None,
                "settings": self.settings.to_dict(), "extra": self.extra}

    @classmethod
    def from_dict(cls, data: Json, packer: packed_games.Packer | None = None) -> SavedGame:
        """Rebuild and check a save; anything wrong raises SaveError (one line naming the
        entry and the value), never another exception. `packer`: what the last save read
        back, remembered (None: nothing)."""
        check_save(data)
        try:
            match = Match.from_dict(data["match"])
            settings = Settings.from_dict(data["settings"], "settings")
        except (MatchError, SettingsError, RecordError, ValueError, TypeError, KeyError,
                AttributeError) as exc:
            raise SaveError(f"match: {exc}") from None
        try:
            packed_games.unpack_into(match, data["match"]["record"].get("played") or [],
                                     packer or packed_games.Packer())
        except packed_games.PackError as exc:
            raise SaveError(f"match.record.played: {exc}") from None
        _check_position(data["position_id"])
        dice = tuple(data["dice"]) if data["dice"] is not None else None
        saved = cls(match, data["position_id"], data["turn"], dice, settings,
                    data.get("extra", {}), clean_names(match))
        _check_playable(saved)
        return saved


def clean_names(match: Match) -> list[str]:
    """The players' names of a save held to the one rule for names (game/model/names.py):
    a name with a character that does not print (ESC, a right-to-left override, a lone
    surrogate) is cleaned in `match`, never refused; one line for each name cleaned."""
    names, notes = match.record.names, []
    for side in match.sides:
        if name_problem(names[side]) is not None:
            cleaned = clean_name(names[side], side.capitalize())
            notes.append(name_note(f"match.record.names.{side}", names[side], cleaned))
            names[side] = cleaned
    return notes


def _check_playable(saved: SavedGame) -> None:
    """A save that reads but could not be played on as it says is refused by name: sides
    that are not the ones its players option makes (the keys would move the other side's
    men), a match already won, a turn that is not the side on roll, a game in which a side
    has no men left."""
    m, players = saved.match, saved.settings.players
    if m.sides != sides_for(players):
        raise SaveError(f"match.sides: {list(m.sides)} are not the sides of {players} play "
                        f"({list(sides_for(players))})")
    if m.series_full:
        raise SaveError(f"match.game_number: the series is over at game {m.game_number} "
                        f"({m.record.entries:,} entries): it holds as much as a save can")
    if m.is_over:
        a, b = (m.score[side] for side in m.sides)
        raise SaveError(f"match.score: {a}-{b} has already won the match to {m.length}")
    if saved.extra.get("between_games"):
        return
    if m.on_roll is not None and saved.turn != m.on_roll:
        raise SaveError(f"turn: {saved.turn} is not the side on roll ({m.on_roll})")
    if MEN_PER_SIDE in Position.from_id(saved.position_id).borne_off():
        raise SaveError(f"position_id: {saved.position_id}: a side has no men left, so that "
                        "game is over")


def _check_position(position_id: str) -> None:
    """A position ID must also decode to a possible board (game/model/position.py says why not)."""
    try:
        Position.from_id(position_id)
    except (PositionError, ValueError) as exc:
        raise SaveError(f"position_id: {position_id!r}: {exc}") from None


def save_path() -> pathlib.Path:
    return config_dir() / SAVE_FILE


def backup_path(path: PathLike | None = None) -> pathlib.Path:
    """Where the previous good save is kept: NAME.bak beside it."""
    path = pathlib.Path(path) if path else save_path()
    return path.with_name(path.name + BACKUP_SUFFIX)


def _stderr(message: str) -> None:
    say(message)


def encode_save(saved: SavedGame) -> bytes:
    """The file's bytes for a save, checked by the reader's own rules first: a save that
    could not be read back is a SaveError here, before anything is written."""
    return read_back(saved)[0]


def read_back(saved: SavedGame,
              packer: packed_games.Packer | None = None) -> tuple[bytes, SavedGame]:
    """encode_save's bytes and the save read back from them: what the file will hold, apart
    from the live match that goes on changing (SaveError as encode_save). `packer` remembers
    the finished games packed and read back by the last call (the Autosave's)."""
    try:
        raw = (json.dumps(saved.to_dict(packer), separators=(",", ":")) + "\n").encode("utf-8")
    except packed_games.PackError as exc:
        raise SaveError(f"match.record.played: {exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise SaveError(f"the save would be {len(raw):,} bytes, more than the "
                        f"{MAX_FILE_BYTES:,} a save may hold; the last save is kept")
    return raw, SavedGame.from_dict(parse_json(raw, SaveError), packer)


def write_save(path: PathLike | None, saved: SavedGame) -> pathlib.Path:
    """Write a save atomically (spectrum/safe_write.py write_atomic: a temporary file in the same
    folder, flushed, fsynced, renamed over). If the save already there reads back whole,
    it becomes the backup (NAME.bak) as the new one goes in; a damaged one is not kept
    over a good backup. SaveError (nothing written) if `saved` is not a valid save."""
    return _write_raw(pathlib.Path(path) if path else save_path(), encode_save(saved))


def _write_raw(path: pathlib.Path, raw: bytes) -> pathlib.Path:
    try:
        keep = read_save(path) is not None
    except SaveError:
        keep = False
    return safe_write.write_atomic(path, raw, backup=backup_path(path) if keep else None)


def save_game(saved: SavedGame, path: PathLike | None = None) -> pathlib.Path:
    """write_save with the default path (the console's save on closing the window)."""
    return write_save(path, saved)


class Autosave:
    """The game flow's save slot. write(saved) at the start of every turn and after every
    typed step: the save is encoded and checked at once (SaveError, nothing written, if it
    could not be read back), then written atomically with the previous good save kept as
    the backup. write_again() writes the last one once more: the stop-signal handler's save
    (game/files/shutdown.py), which must not serialise a match caught half-way through a change,
    and which repairs a write the signal itself cut short."""

    def __init__(self, path: str | pathlib.Path | None = None) -> None:
        self.path = pathlib.Path(path) if path else save_path()
        self.last: bytes | None = None
        self.last_saved: SavedGame | None = None     # what `last` holds (a save refused by
        # encode_save leaves both as they were: they never claim the state it could not hold)
        self.packer = packed_games.Packer()          # the finished games of the last write

    def write(self, saved: SavedGame) -> pathlib.Path:
        self.last, self.last_saved = read_back(saved, self.packer)
        return _write_raw(self.path, self.last)

    def write_again(self) -> pathlib.Path | None:
        """The last save written again (None if there has been none)."""
        return None if self.last is None else _write_raw(self.path, self.last)

    def forget(self) -> None:
        """The match is over or abandoned: nothing to write again, save and backup gone."""
        self.last = self.last_saved = None
        discard_save(self.path)


def read_save(path: PathLike | None = None) -> SavedGame | None:
    """The save in this one file, or None when there is no file; SaveError (one line) when
    it is damaged, unreadable, too big or not a regular file. Nothing is renamed."""
    path = pathlib.Path(path) if path else save_path()
    data = read_json_file(path, SaveError)
    return None if data is None else SavedGame.from_dict(data)


def has_save(path: PathLike | None = None) -> bool:
    """A save, or the backup of one, is there to be offered."""
    path = pathlib.Path(path) if path else save_path()
    return os.path.lexists(path) or os.path.lexists(backup_path(path))


def discard_save(path: PathLike | None = None) -> None:
    """Remove the save and its backup once its match is finished or the player starts
    afresh."""
    path = pathlib.Path(path) if path else save_path()
    for each in (path, backup_path(path)):
        try:
            each.unlink()
        except FileNotFoundError:
            pass


def _aside(path: pathlib.Path) -> str:
    """A damaged save kept aside (safe_write.keep_aside: renamed, never deleted), in words."""
    try:
        return f"kept as {safe_write.keep_aside(path).name}"
    except OSError as exc:
        return f"could not be renamed ({exc.__class__.__name__})"


def _say_notes(path: pathlib.Path, saved: SavedGame,
               warn: Callable[[str], None] | None) -> None:
    """What reading the save cleaned (a name), one line each to `warn`."""
    for note in saved.notes if warn else ():
        warn(f"Saved game {short_path(path)}: {note}")  # type: ignore[misc]  # warn set: see the loop


def load_game(path: PathLike | None = None, warn: Callable[[str], None] | None = _stderr
              ) -> tuple[SavedGame | None, str | None]:
    """The save to offer at start-up, never an exception:
    (saved, None) from the save, or from its backup when the save itself is missing (a
    crash between the two renames of write_save); (None, None) when there is neither;
    (backup's saved, warning) when the save is damaged but the backup is whole;
    (None, warning) when both are damaged. A damaged file is renamed aside (kept, never
    deleted) so the next start is clean. The one-line warning (naming the entry and the
    value) also goes to `warn` (stderr; None for silence). Temporary files a killed
    writer left are removed first (one program at a time writes the save)."""
    path = pathlib.Path(path) if path else save_path()
    backup = backup_path(path)
    safe_write.sweep_temporary(path)
    try:
        saved = read_save(path)
        problem = None
    except SaveError as exc:
        saved, problem = None, str(exc)
    if saved is not None:
        _say_notes(path, saved, warn)
        return saved, None
    if problem is None and not os.path.lexists(backup):
        return None, None
    notes = [] if problem is None else [f"Saved game {short_path(path)} is damaged "
                                        f"({problem}); {_aside(path)}"]
    try:
        saved = read_save(backup)
    except SaveError as exc:
        notes.append(f"{'its' if notes else 'Saved game'} backup {short_path(backup)} is damaged "
                     f"{'too ' if notes else ''}({exc}); {_aside(backup)}")
        saved = None
    if saved is not None:
        _say_notes(backup, saved, warn)
    if not notes:
        return saved, None
    warning = "; ".join(notes) + ("; resuming the previous save." if saved else
                                  "; starting a new game.")
    if warn:
        warn(warning)
    return saved, warning
