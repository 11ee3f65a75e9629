"""Win chances as the advice page and the review's pages print them: for a play, each side's
chance of winning, of winning a gammon and a backgammon, in percent, in one 32-column line
under a header naming the two sides. Text only: the chances come from the evaluator (each
ranked Candidate carries the Probabilities that ranked it); no judging, no drawing."""
from __future__ import annotations

import re
from typing import Protocol

from game.board import screen as S
from game.board.lines import fit

CELL = 5                              # characters a percentage takes: " 52.3", "  100"
GAP = "  "                            # between the mover's three and the other side's
TENTHS = 1000                         # a chance in tenths of a percent
INK = S.attr(S.BLUE, S.WHITE)         # the chances and their header, apart from the plays
_LINE = re.compile(r"^(\s*(\d{1,2}\.\d|100)){6}$")


class Chances(Protocol):
    """What a line of chances is printed from: an evaluator.Probabilities, or a rollout's
    figures as fractions (game/pages/rollout_pages.py chances_text); read only."""
    @property
    def win(self) -> float: ...

    @property
    def win_gammon(self) -> float: ...

    @property
    def win_backgammon(self) -> float: ...

    @property
    def lose_gammon(self) -> float: ...

    @property
    def lose_backgammon(self) -> float: ...


def tenths(chance: float) -> int:
    """A chance (0..1) in tenths of a percent, rounded, kept within 0..1000."""
    return max(0, min(TENTHS, round(TENTHS * float(chance))))


def percents(chances: Chances) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """((win, gammon, backgammon) of the mover, the same of the other side), in tenths of a
    percent. The two wins are made to add up to 100.0 as printed."""
    win = tenths(chances.win)
    return ((win, tenths(chances.win_gammon), tenths(chances.win_backgammon)),
            (TENTHS - win, tenths(chances.lose_gammon), tenths(chances.lose_backgammon)))


def cell(value_tenths: int) -> str:
    """One percentage, CELL wide: " 52.3", "  0.6", and "  100" for a certainty."""
    if value_tenths >= TENTHS:
        return "100".rjust(CELL)
    return f"{value_tenths / 10:.1f}".rjust(CELL)


def chances_header(names: tuple[str, str]) -> str:
    """The columns: each side's name over its wins, then gammons (Gam) and backgammons (Bg):
    "  You  Gam   Bg     Me  Gam   Bg". Names are cut to CELL characters."""
    parts = [f"{name[:CELL]:>{CELL}}{'Gam':>{CELL}}{'Bg':>{CELL}}" for name in names]
    return fit(GAP.join(parts))


def chances_line(chances: Chances) -> str:
    """A play's chances under chances_header: "  55.9 16.3  0.8  44.1 10.9  0.5"."""
    mine, theirs = percents(chances)
    return fit(GAP.join("".join(cell(v) for v in side) for side in (mine, theirs)))


def chances_note() -> list[str]:
    """The words under a list with chances: what the columns are."""
    return ["Chances, in %: each side's wins,", "gammons (Gam), backgammons (Bg)."]


def is_chances_line(text: str) -> bool:
    """A line chances_line or chances_header wrote (a page draws them in INK)."""
    return bool(_LINE.match(text)) or (text.split()[1:3] == ["Gam", "Bg"]
                                       and text.split()[4:6] == ["Gam", "Bg"])


def ink_of(text: str) -> int | None:
    """The colour a page prints a line in: INK for the chances, else None (the page's)."""
    return INK if is_chances_line(text) else None
