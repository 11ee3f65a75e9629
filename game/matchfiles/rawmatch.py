"""A match file's games as read, before any check: the raw entries and results with the line
each came from, the fault that stopped the reading (FileProblem), and the checks the readers
share (binary junk, the match length). What matread.py and sgfread.py produce and imports.py
checks; no parsing and no replaying here."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from game.errors import BackgammonError
from game.model.position import Position

MAX_LENGTH = 99                  # the longest match a file may name (0 = money play)
_JUNK = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")    # not in a text file (tabs, breaks are)


class FileProblem(BackgammonError, ValueError):
    """What is wrong at a line of a match file (a parser or the checks raise it)."""

    def __init__(self, line: int, what: str):
        super().__init__(f"line {line}: {what}")
        self.line, self.what = line, what


@dataclass
class RawAction:
    """One entry as the file gives it: `player` 0 (White, the left column) or 1; kind move,
    roll (dice thrown and never played, as an .sgf's DI says), double, take or drop; a
    move's dice and play in standard numbers from the mover's side ("24/18 13/11*", bar and
    off as words or as 25 and 0; "" no play); a double's value (0: not given)."""
    line: int
    player: int
    kind: str
    dice: tuple | None = None
    play: str = ""
    value: int = 0


@dataclass
class RawResult:
    """Who won, how many points (None: the file does not say, as in an .sgf's RE[W+R] or a
    .mat's "Resigns" with no "Wins" after it), and whether the file says the loser resigned
    (None: it cannot say, as a .mat without "Resigns")."""
    line: int
    player: int
    points: int | None
    resigned: bool | None = None


@dataclass
class RawGame:
    """One game as read: where it starts, its number in the file, the names and scores at
    its start (White's first), whether it is the Crawford game (None: work it out), a start
    position other than the usual (White on roll), its entries and its result."""
    line: int
    number: int | None
    names: tuple
    scores: tuple
    crawford: bool | None = None
    setup: Position | None = None
    actions: list = field(default_factory=list)
    result: RawResult | None = None
    last_line: int = 0


@dataclass
class RawMatch:
    """A file's games as read, and the fault that stopped the reading (None: read to the end)."""
    length: int = 0
    crawford_rule: bool = True
    games: list = field(default_factory=list)
    problem: FileProblem | None = None


def junk_at(text: str) -> int | None:
    """Where the first control character (not a tab, a line or page break) is, or None."""
    junk = _JUNK.search(text)
    return None if junk is None else junk.start()


def junk_problem(text: str) -> FileProblem | None:
    """The FileProblem of the text's first control character (its line counted in `text`);
    None when there is none."""
    at = junk_at(text)
    if at is None:
        return None
    return FileProblem(text.count("\n", 0, at) + 1,
                       f"binary data (character {ord(text[at]):#04x}), not text")


def check_length(length: int, line: int) -> int:
    if not 0 <= length <= MAX_LENGTH:
        raise FileProblem(line, f"a match to {length} points: the length is 1 to "
                                f"{MAX_LENGTH} (0 for money play)")
    return length
