"""The equivalent money game (EMG) the review and the tutor state match errors in, as GNU
Backgammon's analysis does: a match equity at the score turned into points of a money game
whose win and loss are the match chances after winning or losing one game at the cube. Our
own match table (native/src/met.c) underneath; not the cube decisions (game/model/evaluator.py)."""
from __future__ import annotations

from dataclasses import dataclass

from game.errors import MatchError
from game.model.evaluator import Probabilities
from game.model.match_terms import MatchTerms
from native import ffi, lib


def match_equity(away_me: int, away_opp: int, crawford: int = 0) -> float:
    """The chance to win the match needing `away_me` against `away_opp` (0 or less: won),
    `crawford` as MatchTerms' (0 before the Crawford game)."""
    out = ffi.new("float[1]")
    if lib.bg_match_equity(int(away_me), int(away_opp), int(crawford), out) != 0:
        raise MatchError(f"crawford is 0, 1 or 2, not {crawford!r}")
    return float(out[0])


def match_value(chances: Probabilities, terms: MatchTerms) -> float:
    """2 x match winning chance - 1 of the side holding `chances` (evaluator.Probabilities)
    when the game ends at its terms' cube with no more doubling: the score the play search
    ranks a play by at `terms` (a match the table takes; MatchError for money play)."""
    probs = ffi.new("float[]", [chances.win, chances.win_gammon, chances.win_backgammon,
                                chances.lose_gammon, chances.lose_backgammon])
    out = ffi.new("float[1]")
    if lib.bg_match_value(probs, terms.as_c(), out) != 0:
        raise MatchError(f"a match value needs a match the table takes, not {terms}")
    return float(out[0])


@dataclass(frozen=True)
class Emg:
    """One side's EMG at a match score and cube: `win_mwc` and `lose_mwc` are its match
    winning chances after it wins or loses a single game at the cube. An equity in our match
    units (2 x mwc - 1) in EMG is 2 (mwc - lose_mwc) / (win_mwc - lose_mwc) - 1, so a
    difference of them is divided by win_mwc - lose_mwc."""
    win_mwc: float
    lose_mwc: float

    @classmethod
    def at(cls, terms: MatchTerms) -> Emg | None:
        """The EMG of the side at its terms as judged (MatchTerms.judged); None: money play
        (or a match past the table, judged as money)."""
        terms = terms.judged
        if terms.money:
            return None
        me, opp, cube = terms.away_me, terms.away_opp, terms.cube_value
        return cls(match_equity(me - cube, opp, terms.crawford),
                   match_equity(me, opp - cube, terms.crawford))

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
