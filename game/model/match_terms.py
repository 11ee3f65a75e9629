"""MatchTerms: the cube and the score as ONE side sees them (like gnubg's cubeinfo), the one
shape the match travels in to the evaluator, the rollouts, the USR door and the review; C's
bg_match (native/bg.h). Checked once when made; built from a Match by Match.terms(side). Not
the match itself (game/model/match.py) nor the match equity table (match_equity.py)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from functools import cached_property

from game.errors import MatchError
from native import CData, ffi, lib

# the game's highest cube face: a cube at it cannot be turned (bg.h, the one source; the
# engine's evaluator takes faces up to BG_CUBE_MAX)
MAX_CUBE: int = lib.BG_CUBE_FACE_MAX


@dataclass(frozen=True)
class MatchTerms:
    """cube_value 1, 2, 4 .. BG_CUBE_MAX; cube_owner 0 centred, 1 this side, 2 its opponent;
    length 0 money play (then the aways and crawford are 0), else the match length with
    away_me / away_opp the points this side / its opponent still need (1..length) and
    crawford 0 before the Crawford game, 1 in it (cube 1), 2 after it (1 and 2 need a side
    1-away). A match longer than the match table (past_table) is a possible match the
    evaluator judges as money play (judged)."""
    cube_value: int = 1
    cube_owner: int = 0
    length: int = 0
    away_me: int = 0
    away_opp: int = 0
    crawford: int = 0

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool):
                raise MatchError(f"the match terms' {name} is a whole number, not {value!r}")
        self._check_cube()
        if self.length < 0:
            raise MatchError(f"the match length is 0 (money play) or more, not {self.length}")
        if self.length == 0:
            if self.away_me or self.away_opp or self.crawford:
                raise MatchError(f"money play has no score: {self}")
            return
        for name, away in (("away_me", self.away_me), ("away_opp", self.away_opp)):
            if not 1 <= away <= self.length:
                raise MatchError(f"{name} is 1 to {self.length} in a {self.length}-point "
                                 f"match, not {away}")
        self._check_crawford()

    def _check_cube(self) -> None:
        value = self.cube_value
        if not 1 <= value <= lib.BG_CUBE_MAX or value & (value - 1):
            raise MatchError(f"the cube value is a power of two from 1 to {lib.BG_CUBE_MAX}, "
                             f"not {value}")
        if self.cube_owner not in (0, 1, 2):
            raise MatchError(f"the cube owner is 0 (centred), 1 (this side) or 2 (the "
                             f"opponent), not {self.cube_owner}")

    def _check_crawford(self) -> None:
        if self.crawford not in (0, 1, 2):
            raise MatchError(f"crawford is 0 (before the Crawford game), 1 (in it) or 2 "
                             f"(after it), not {self.crawford}")
        if self.crawford and 1 not in (self.away_me, self.away_opp):
            raise MatchError(f"crawford {self.crawford} needs a side 1-away, not "
                             f"{self.away_me}-away {self.away_opp}-away")
        if self.crawford == 1 and self.cube_value != 1:
            raise MatchError(f"the Crawford game is played at a cube of 1, not "
                             f"{self.cube_value}")
        if self.crawford == 1 and self.cube_owner != 0:
            raise MatchError(f"the Crawford game's cube is centred (owner 0), not owned by "
                             f"{self.cube_owner}")

    @property
    def money(self) -> bool:
        return self.length == 0

    def double_refused(self) -> str:
        """Why the side of these terms cannot turn the cube before its throw, in words for
        the player, or "" when it can: THE rule of where a cube decision exists, which the
        cube stop, "D doubles", D itself, the computer's double, the tutor and the review's
        counts all ask (Match.can_double adds the moment: the side on roll, not yet rolled).
        Not the Crawford game; the cube centred or its own; under MAX_CUBE; and not dead: in
        a match, a win at the cube's present value must not already win it (2-away holding
        a cube of 2, the leader 1-away after the Crawford game), as GNU Backgammon rules."""
        if self.crawford == 1:
            return "No doubling in the Crawford game"
        if self.cube_owner == 2:
            return "Only the owner of the cube may double"
        if self.cube_value >= MAX_CUBE:
            return f"The cube is already at {MAX_CUBE}"
        if self.length and self.away_me <= self.cube_value:
            return f"The cube is dead: a win at {self.cube_value} wins the match"
        return ""

    @staticmethod
    def table_takes(length: int | None) -> bool:
        """Whether the match table covers a match of `length` points (money play: False)."""
        return length is not None and 0 < length <= lib.BG_MET_MAX

    @property
    def past_table(self) -> bool:
        """A match longer than the match table takes (BG_MET_MAX points)."""
        return self.length > lib.BG_MET_MAX

    @property
    def judged(self) -> MatchTerms:
        """The terms the evaluator judges at: these, or money play at the same cube for a
        match past the table (the one fallback; the pages say so by past_table)."""
        return MatchTerms(self.cube_value, self.cube_owner) if self.past_table else self

    @property
    def scale(self) -> int:
        """What money equities (as judged) are divided by to be per unit of cube (1 when
        judged as a match)."""
        return 1 if self.judged.length else self.cube_value

    def per_unit(self) -> MatchTerms:
        """These terms with a cube judged as money counted as 1 (the page's figures' terms:
        the decision at them is the decision at these normalized by scale)."""
        return self if self.judged.length else replace(self, cube_value=1)

    def for_opponent(self) -> MatchTerms:
        """The same cube and score as the other side sees them."""
        return replace(self, cube_owner=(0, 2, 1)[self.cube_owner], away_me=self.away_opp,
                       away_opp=self.away_me)

    def as_c(self) -> CData:
        """The C struct (a cffi `bg_match *`) every bg.h call that needs the terms takes: the
        one place it is filled, with the terms judged (money play for a match past the
        table, as everywhere). Made once for these terms (they never change; C only reads
        it), as every ranking of a review or a luck figure passes it again."""
        return self._c

    @cached_property
    def _c(self) -> CData:
        terms = self.judged
        return ffi.new("bg_match *", {
            "cube_value": terms.cube_value, "cube_owner": terms.cube_owner,
            "match_to": terms.length, "away_me": terms.away_me, "away_opp": terms.away_opp,
            "crawford": terms.crawford})


MONEY = MatchTerms()
