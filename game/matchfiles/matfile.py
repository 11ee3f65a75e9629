"""Jellyfish .mat text match files: writing a MatchRecord so that GNU Backgammon and other
analysers can import it, and reading one back (ours or gnubg's export) for checking.
Not a general importer of every .mat dialect (no beavers, no illegal-play lines)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from game.errors import BackgammonError
from game.matchfiles.writing import writable_name, write_text
from game.model.record import Action, GameRecord, MatchRecord, parse_play
from spectrum.safe_write import PathLike

LEFT_WIDTH = 28          # the left column's width after the "NNN) " move number
NAME_WIDTH = 32          # where the second player's name starts on a score line
SITE = "Spectrum Backgammon"


def mat_name(name: str) -> str:
    """A player name as the format allows: writable (writing.py), no colons, no spaces
    (gnubg uses "_"), not starting with the ";" or "#" of a comment line."""
    cleaned = "_".join(writable_name(name).replace(":", "").split()).lstrip(";#")
    return cleaned or "Player"


def _cell(action: Action) -> str:
    if action.kind in ("move", "roll"):         # a roll never played: its dice alone, as
        # gnubg writes a resigned turn; the type: ignore as a move's or roll's dice are
        # never None (Action.from_dict, MatchRecord.move and .roll see to it)
        hi, lo = max(action.dice), min(action.dice)  # type: ignore[arg-type]
        return f"{hi}{lo}: {action.play}".rstrip() if action.play else f"{hi}{lo}:"
    if action.kind == "double":
        return f" Doubles => {action.value}"
    if action.kind == "take":
        return " Takes"
    if action.kind == "drop":
        return " Drops"
    if action.kind == "win":
        unit = "point" if action.value == 1 else "points"
        return f" Wins {action.value} {unit}"
    raise ValueError(f"unknown action {action.kind!r}")


def _join(number: int | None, left: str, right: str) -> str:
    prefix = f"{number:3d}) " if number is not None else " " * 5
    if not right:
        return (prefix + left).rstrip()
    pad = max(LEFT_WIDTH, len(left) + 2)
    return prefix + left.ljust(pad) + right


def format_game(record: MatchRecord, game: GameRecord) -> list[str]:
    """The lines of one game: its heading, the score line, numbered move lines."""
    s0, s1 = record.sides
    left_head = f" {mat_name(record.names[s0])} : {game.scores[s0]}"
    lines = [f" Game {game.number}",                        # a space at least between them
             left_head.ljust(NAME_WIDTH - 1) + f" {mat_name(record.names[s1])} : "
                                               f"{game.scores[s1]}"]
    number = 0
    row: list[str | None] = [None, None]     # the cells of the line being built

    def flush() -> None:
        nonlocal row, number
        if row == [None, None]:
            return
        numbered = any(c is not None and not c.lstrip().startswith("Wins") for c in row)
        if numbered:
            number += 1
        lines.append(_join(number if numbered else None, row[0] or "", row[1] or ""))
        row = [None, None]

    for action in game.actions:
        col = record.sides.index(action.side)
        if row[col] is not None or (col == 0 and row[1] is not None):
            flush()
        row[col] = _cell(action)
    flush()
    return lines


def format_mat(record: MatchRecord, games: Iterable[int] | None = None) -> str:
    """The match as .mat text (length 0 = a money session, "0 point match"): every game,
    or only the game numbers listed in `games` (e.g. [3] to export the game just won).
    A game still in progress is written as far as it has gone, without a result."""
    out = [f'; [Site "{SITE}"]', "", f" {record.length} point match", ""]
    chosen = [g for g in record.games if games is None or g.number in set(games)]
    for game in chosen:
        out += format_game(record, game)
        out.append("")
    return "\n".join(out) + "\n"


def write_mat(record: MatchRecord, path: PathLike, games: Iterable[int] | None = None) -> str:
    """Write the .mat file (a temporary file, then a rename; none left on a failure);
    returns path. OSError when the disk refuses it."""
    return write_text(path, format_mat(record, games))


# ---- reading ------------------------------------------------------------------------

@dataclass
class MatGame:
    number: int
    names: tuple
    scores: tuple
    actions: list = field(default_factory=list)   # (player 0/1, kind, detail)


@dataclass
class MatMatch:
    length: int
    games: list = field(default_factory=list)


class MatFormatError(BackgammonError, ValueError):
    """Text that is not a .mat match file; the message says where."""


_HEADER = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.I)
_GAME = re.compile(r"^ Game (\d+)\s*$")
_SCORES = re.compile(r"^\s*(\S+)\s*:\s*(\d+)\s+(\S+)\s*:\s*(\d+)\s*$")
_NUMBER = re.compile(r"^\s*\d+\)")
_MOVE = re.compile(r"^([1-6])([1-6]):\s*(.*)$")


# (kind, detail): the detail by kind, ((dice), (steps)), a cube value, points or None: Any
def _parse_cell(text: str, where: str) -> tuple[str, Any]:
    text = text.strip()
    m = _MOVE.match(text)
    if m:
        dice = (int(m.group(1)), int(m.group(2)))
        return "move", (dice, tuple(parse_play(m.group(3))))
    m = re.match(r"^Doubles\s*=>\s*(\d+)$", text, re.I)
    if m:
        return "double", int(m.group(1))
    if re.match(r"^Takes$", text, re.I):
        return "take", None
    if re.match(r"^Drops$", text, re.I):
        return "drop", None
    m = re.match(r"^Wins\s+(\d+)\s+points?$", text, re.I)
    if m:
        return "win", int(m.group(1))
    raise MatFormatError(f"{where}: cannot read {text!r}")


_CELL_START = re.compile(r"(?<!\S)(?:[1-6][1-6]:|Doubles\b|Takes\b|Drops\b|Wins\b|"
                         r"Beavers\b|Resigns\b)", re.I)


_ROLL_ALONE = re.compile(r"[1-6][1-6]:")


def split_cells(line: str) -> list[tuple[int, str]]:
    """A move line's cells as (player 0/1, text). A cell begins with a roll "NN:" or a
    cube or result word; the first cell is the right player's only if it starts far
    right (gnubg leaves a single space after a long left cell, so no fixed column). A roll
    alone with "Wins" soon after it ("  1) 21:       Wins 1 point", which gnubg writes when
    the right player resigns holding the opening roll) is the right player's roll and the
    left player's win."""
    body = _NUMBER.sub(lambda mm: " " * len(mm.group(0)), line, count=1)
    starts = [m.start() for m in _CELL_START.finditer(body)]
    out = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(body)
        player = 1 if i > 0 or start >= 20 else 0
        out.append((player, body[start:end].strip()))
    if (len(out) == 2 and starts[1] < 20 and _ROLL_ALONE.fullmatch(out[0][1])
            and out[1][1].lower().startswith("wins")):
        out = [(1, out[0][1]), (0, out[1][1])]      # gnubg 1.07's own line for the right
                                                    # player resigning at the opening roll
    if body[:starts[0] if starts else len(body)].strip():
        raise MatFormatError(f"cannot read {line.strip()!r}")
    return out


def parse_mat(text: str) -> MatMatch:
    """Read .mat text into games of (player, kind, detail) actions, player 0 being the
    left column. Raises MatFormatError naming the line it could not read."""
    match = None
    game = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        where = f"line {lineno}"
        if not line.strip() or line.lstrip().startswith((";", "#")):
            continue
        if match is None:
            m = _HEADER.match(line)
            if not m:
                raise MatFormatError(f"{where}: expected 'N point match', got {line!r}")
            match = MatMatch(int(m.group(1)))
            continue
        m = _GAME.match(line)
        if m:
            game = None
            pending = int(m.group(1))
            continue
        if game is None:
            m = _SCORES.match(line)
            if not m:
                raise MatFormatError(f"{where}: expected the players' scores, got {line!r}")
            game = MatGame(pending, (m.group(1), m.group(3)),
                           (int(m.group(2)), int(m.group(4))))
            match.games.append(game)
            continue
        for player, cell in split_cells(line):
            kind, detail = _parse_cell(cell, where)
            game.actions.append((player, kind, detail))
    if match is None:
        raise MatFormatError("no 'N point match' line: not a .mat file")
    return match
