"""The equivalent money game (EMG) the review and the tutor state match errors in, as GNU
Backgammon's analysis does: a match equity at the score turned into points of a money game
whose win and loss are the match chances after winning or losing one game at the cube. Our
own match table (native/src/met.c) underneath; not the cube decisions (game/model/evaluator.py)."""
from __future__ import annotations

from dataclasses import dataclass

from native import ffi, lib


def match_equity(away_me: int, away_opp: int, crawford: int = 0) -> float:
    """The chance to win the match needing `away_me` against `away_opp` (0 or less: won),
    `crawford` as evaluator.ranked_plays' match takes it (0 before the Crawford game)."""
    return float(lib.bg_match_equity(int(away_me), int(away_opp), int(crawford)))


def match_value(chances, match) -> float:
    """2 x match winning chance - 1 of the side holding `chances` (evaluator.Probabilities)
    when the game ends at `match`'s cube with no more doubling: the score the play search
    ranks a play by at `match` ((length, away_me, away_opp, crawford, cube), the side's)."""
    probs = ffi.new("float[]", [chances.win, chances.win_gammon, chances.win_backgammon,
                                chances.lose_gammon, chances.lose_backgammon])
    _, away_me, away_opp, crawford, cube = match
    return float(lib.bg_match_value(probs, cube, away_me, away_opp, crawford))


@dataclass(frozen=True)
class Emg:
    """One side's EMG at a match score and cube: `win_mwc` and `lose_mwc` are its match
    winning chances after it wins or loses a single game at the cube. An equity in our match
    units (2 x mwc - 1) in EMG is 2 (mwc - lose_mwc) / (win_mwc - lose_mwc) - 1, so a
    difference of them is divided by win_mwc - lose_mwc."""
    win_mwc: float
    lose_mwc: float

    @classmethod
    def at(cls, match) -> Emg | None:
        """The EMG of the side at `match` ((length, away_me, away_opp, crawford, cube), as
        evaluator.judged_match gives it); None: money play (None or length 0)."""
        if not match or not match[0]:
            return None
        _, away_me, away_opp, crawford, cube = match
        return cls(match_equity(away_me - cube, away_opp, crawford),
                   match_equity(away_me, away_opp - cube, crawford))

    @property
    def span(self) -> float:
        return max(self.win_mwc - self.lose_mwc, 1e-6)

    def of(self, equity: float) -> float:
        """An equity in match units (2 x mwc - 1) in EMG."""
        return 2.0 * ((equity + 1.0) / 2.0 - self.lose_mwc) / self.span - 1.0

    def error(self, difference: float) -> float:
        """A difference of two equities in match units, in EMG."""
        return difference / self.span

    def mwc_percent(self, error: float) -> float:
        """An EMG error as the match winning chance it gives away, in percent."""
        return 100.0 * error * self.span / 2.0
