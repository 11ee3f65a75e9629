"""Reading a Jellyfish .mat match file (GNU Backgammon's export, the files online servers such
as FIBS write, and our own matfile.py's) into the raw games imports.py checks: the "N point
match" line, then per game "Game N", the players' names and scores, and numbered lines of two
columns (the left player's entry, then the right's; "Resigns" in the loser's column, as some
programs write it, comes before the winner's "Wins"). Reading only: whether the plays are legal
is imports.py's business, writing is matfile.py's."""
from __future__ import annotations

import re
from itertools import pairwise

from game.errors import BackgammonError
from game.matchfiles.matfile import MatFormatError, split_cells
from game.matchfiles.rawmatch import (
    FileProblem,
    RawAction,
    RawGame,
    RawMatch,
    RawResult,
    check_length,
    junk_problem,
)
from game.model.record import format_step
from spectrum.quoting import quoted

_HEADER = re.compile(r"^\s*(\d{1,6})\s+point\s+match\s*$", re.I)
_CRAWFORD = re.compile(r'^\s*;\s*\[\s*Crawford\s+"(\w+)"\s*\]', re.I)
_GAME = re.compile(r"^\s*Game\s+(\d{1,6})\s*$", re.I)
_SCORES = re.compile(r"^\s*(\S.*?)\s*:\s*(\d{1,6})\s+(\S.*?)\s*:\s*(\d{1,6})\s*$")
_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_DOUBLE = re.compile(r"^Doubles\s*=>\s*(\d{1,6})$", re.I)
_WINS = re.compile(r"^Wins\s+(\d{1,6})\s+points?(?:\s+and\s+the\s+match)?$", re.I)
NO_PLAY = "????"                         # a roll that could not be played, as some servers write it
_ANSWER = {"takes": "take", "drops": "drop", "passes": "drop"}
_RESIGNS = re.compile(r"Resigns", re.I)  # the loser's column, as some programs write it
_STEP = re.compile(r"((?:bar|\d{1,2})\*?(?:/(?:off|bar|\d{1,2})\*?)+)(?:\(([1-4])\))?", re.I)


def read_mat(text: str) -> RawMatch:
    """The games of .mat text, as far as they can be read (RawMatch.problem: where not)."""
    reader = _Reader()
    try:
        for number, line in enumerate(text.splitlines(), 1):
            reader.line(number, line.rstrip())
        reader.end(text.count("\n") + 1)
    except FileProblem as exc:
        reader.match.problem = exc
    return reader.match


class _Reader:
    """The state of the reading: the match so far, the game being read and what comes next."""

    def __init__(self) -> None:
        self.match = RawMatch()
        self.length: int | None = None   # not yet read
        self.game: RawGame | None = None     # the game being read, once its scores are in
        self.heading: tuple[int, int] | None = None  # (line, number): "Game N" awaiting scores

    def line(self, number: int, line: str) -> None:
        junk = junk_problem(line)
        if junk is not None:
            raise FileProblem(number, junk.what)
        if not line.strip():
            return
        if line.lstrip().startswith(";"):
            crawford = _CRAWFORD.match(line)
            if crawford:
                self.match.crawford_rule = crawford.group(1).lower() != "off"
            return
        if self.length is None:
            self._header(number, line)
        elif game := _GAME.match(line):
            if self.heading is not None:
                raise FileProblem(number, f"game {self.heading[1]} has no line of names "
                                          f"and scores")
            self._close()
            self.heading = (number, int(game.group(1)))
        elif self.heading is not None:
            self._scores(number, line, self.heading[1])
        elif self.game is None:
            raise FileProblem(number, f"expected 'Game 1', found {quoted(line.strip())}")
        else:
            self.game.last_line = number
            self._cells(self.game, number, line)

    def _header(self, number: int, line: str) -> None:
        header = _HEADER.match(line)
        if not header:
            raise FileProblem(number, f"not a .mat match file: expected 'N point match', "
                                      f"found {quoted(line.strip())}")
        self.length = self.match.length = check_length(int(header.group(1)), number)

    def _scores(self, number: int, line: str, game_number: int) -> None:
        scores = _SCORES.match(line)
        if not scores:
            raise FileProblem(number, f"expected the players' names and scores, found "
                                      f"{quoted(line.strip())}")
        self.heading = None
        self.game = RawGame(number, game_number, (scores.group(1), scores.group(3)),
                            (int(scores.group(2)), int(scores.group(4))), last_line=number)

    def _close(self) -> None:
        if self.game is not None:
            self.match.games.append(self.game)
            self.game = None

    def end(self, last_line: int) -> None:
        if self.length is None:
            raise FileProblem(last_line, "no 'N point match' line: not a .mat match file")
        if self.heading is not None:
            raise FileProblem(last_line, f"the file ends before game {self.heading[1]}'s "
                                         f"scores")
        self._close()
        if not self.match.games:
            raise FileProblem(last_line, f"no game in the file: it ends after the "
                                         f"'{self.length} point match' line")

    def _cells(self, game: RawGame, number: int, line: str) -> None:
        try:
            cells = split_cells(line)
        except MatFormatError:
            raise FileProblem(number, f"cannot read {quoted(line.strip())}") from None
        entries = [(player, cell) for player, cell in cells if not _RESIGNS.fullmatch(cell)]
        if len(entries) > 2 or (len(entries) == 2 and entries[0][0] == entries[1][0]):
            raise FileProblem(number, f"more than one entry a column in "
                                      f"{quoted(line.strip())}")
        for player, cell in cells:
            if game.result is not None and game.result.points is not None:
                raise FileProblem(number, f"{quoted(cell)} after the game's result")
            if _RESIGNS.fullmatch(cell):
                if game.result is not None:
                    raise FileProblem(number, "'Resigns' twice")
                game.result = RawResult(number, 1 - player, None, resigned=True)
                continue
            entry = read_cell(cell, player, number)
            if isinstance(entry, RawResult):
                _won(game, entry)
            elif game.result is not None:
                raise FileProblem(number, f"{quoted(cell)} after the resignation")
            else:
                game.actions.append(entry)


def _won(game: RawGame, result: RawResult) -> None:
    """"Wins N points": the result, or the points of a resignation said before it ("Resigns"
    in the loser's column, as other programs write it; gnubg reads the "Wins" alone)."""
    said = game.result
    if said is not None and said.player != result.player:
        raise FileProblem(result.line, "'Wins' in the column of the side that resigned")
    game.result = RawResult(result.line, result.player, result.points,
                            resigned=True if said is not None else None)


def read_cell(cell: str, player: int, number: int) -> RawAction | RawResult:
    """One column's entry: a RawAction (roll and play, double, take, drop) or a RawResult."""
    text = cell.strip()
    roll = _ROLL.match(text)
    if roll:
        dice = (int(roll.group(1)), int(roll.group(2)))
        return RawAction(number, player, "move", dice, play_text(roll.group(3), number))
    double = _DOUBLE.match(text)
    if double:
        return RawAction(number, player, "double", value=int(double.group(1)))
    if text.lower() in _ANSWER:
        return RawAction(number, player, _ANSWER[text.lower()])
    wins = _WINS.match(text)
    if wins:
        return RawResult(number, player, int(wins.group(1)))
    if text.lower().startswith("beavers"):
        raise FileProblem(number, "a beaver: the review follows doubles, takes and drops only")
    raise FileProblem(number, f"cannot read {quoted(text)}")


def play_text(text: str, number: int) -> str:
    """A play as the record writes it ("bar/21 6/off"). Takes gnubg's 25 and 0 for the bar
    and off, "24/18(2)" for a step made twice and "24/18*/13" for one man moving on; "????"
    (a roll with no legal play, as gnubg's `import mat` reads it) is no play."""
    if text.strip() == NO_PLAY:
        return ""
    steps = []
    for token in text.split():
        step = _STEP.fullmatch(token)
        if not step:
            raise FileProblem(number, f"cannot read the step {quoted(token)}")
        points = step.group(1).split("/")
        chain = [f"{a.rstrip('*')}/{b}" for a, b in pairwise(points)]
        steps += chain * int(step.group(2) or 1)
    try:
        return " ".join(format_step(step) for step in steps)
    except BackgammonError as exc:
        raise FileProblem(number, str(exc)) from None
