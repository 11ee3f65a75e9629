"""What the review finds (game/analysis/judge.py judges): each play and cube decision with the
error it made and its mark, and a side's totals with GNU Backgammon's rating band. Errors are
in points of a money game per unit of cube in money play and in EMG (the equivalent money
game, game/model/match_equity.py) at a match score, the match chance they cost beside them.
Pure data: no judging, no screen."""
from __future__ import annotations

from dataclasses import dataclass, field

from game.analysis.cube_judgement import close_cube, in_emg
from game.model import evaluator, rules
from game.model.match_equity import Emg
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.record import GameRecord

DOUBTFUL = 0.04                  # error above this (money points, or EMG): "?"
BAD = 0.08                       # ... above this: "??"

# GNU Backgammon's rating of a normalized error rate per decision (its manual, "Threshold
# for ratings", version 1.07): below each bound, that name; at or above 0.035 "Awful!".
RATINGS = ((0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"),
           (0.012, "Advanced"), (0.018, "Intermediate"), (0.026, "Casual player"),
           (0.035, "Beginner"), (float("inf"), "Awful!"))


def mark_for(loss: float) -> str:
    """"??" above BAD, "?" above DOUBTFUL, else ""."""
    if loss > BAD:
        return "??"
    if loss > DOUBTFUL:
        return "?"
    return ""


def rating_for(error_per_decision: float) -> str:
    """GNU Backgammon's name for an average error per decision (RATINGS)."""
    for bound, name in RATINGS:
        if error_per_decision < bound:
            return name
    return RATINGS[-1][1]


@dataclass(frozen=True)
class Choice:
    """One play as level 5 judged it: its words ("24/18 13/11*"), the rules' Play (for the
    board and the letter notation), the mover's equity after it and how many plies deep, and
    the mover's chances after it from that judgement (evaluator.Probabilities or None)."""
    words: str
    play: rules.Play
    equity: float
    ply: int
    chances: evaluator.Probabilities | None = None


@dataclass(frozen=True)
class Check:
    """How a charged error was checked (game/analysis/checking.py): judged again at `ply`
    plies; `error` the action's equity less the best's as checked (0 or below, money points
    per unit of cube or EMG, as the item's loss), `quick` the loss charged before it. Rolled
    out: `games` the games played (0: no rollout), `interval` the 95% interval of the
    rollout's difference, `searched` the 3-ply check's error when one came first (None: the
    rollout checked the quick judgement, `ply` its depth, or an answer its double's). A
    play's rollout whose difference lies within its own interval cannot tell the two plays
    apart: it charges nothing (`unproven`), though `error` keeps what it measured."""
    ply: int
    error: float
    quick: float
    games: int = 0
    interval: float = 0.0
    searched: float | None = None
    unproven: bool = False          # a play's rollout within its own interval: no error proven

    @property
    def charged(self) -> float:
        """The error the check charges (0 or more): none when unproven."""
        return 0.0 if self.unproven else -self.error

    @property
    def cleared(self) -> bool:
        """The check finds no error worth a mark where the quick judgement did."""
        return self.charged <= DOUBTFUL < self.quick

    def words(self) -> str:
        """The page's row above its message line (at most 28 columns, beside the panel): the
        checked error and the quick one, e.g. "checked -0.082 (was -0.121)", or a rollout's
        games and interval, "324 games -0.082 +/-0.011"; the depth is said by the review's
        progress page and the .sgf."""
        if self.games:
            return f"{self.games} games {self.error:+.3f} +/-{self.interval:.3f}"
        return f"checked {self.error:+.3f} (was {-self.quick:+.3f})"

    def account(self) -> str:
        """The whole story, for the .sgf: "checked: 324 games, -0.082 +/- 0.011 (3-ply
        -0.074, quick -0.121)", or "checked 3-ply -0.074 (was -0.121)"; an unproven
        rollout's ends "..., no error proven"."""
        proof = ", no error proven" if self.unproven else ""
        if self.games and self.searched is None:   # no 3-ply step before the rollout
            return (f"checked: {self.games} games, {self.error:+.3f} +/- {self.interval:.3f} "
                    f"(quick {-self.quick:+.3f}){proof}")
        if self.games:
            return (f"checked: {self.games} games, {self.error:+.3f} +/- {self.interval:.3f} "
                    f"({self.ply}-ply {self.searched:+.3f}, quick {-self.quick:+.3f}){proof}")
        return f"checked {self.ply}-ply {self.error:+.3f} (was {-self.quick:+.3f})"


def unproven(item: MoveReview | CubeReview) -> bool:
    """A play whose rollout check could not tell it from the best (Check.unproven): no error
    charged, the rolled-out best still named."""
    return item.check is not None and item.check.unproven


@dataclass(frozen=True)
class MoveReview:
    """A turn: the position before it (mover on roll), the roll, the play made, level 5's best
    and the next few, the equity given away and its mark, the luck of the roll. R on its
    page rolls the plays out at the same terms (rollout_pages.review_job)."""
    number: int                      # the turn's place in the game, from 1
    side: str
    dice: tuple
    before: Position
    played: Choice
    best: Choice
    candidates: tuple                # Choice, best first (CANDIDATES_SHOWN)
    loss: float
    luck: float
    forced: bool                     # one legal result (or none): not counted as a decision
    kind: str = "move"
    cube_value: int = 1              # the cube as it stood (for drawing the board)
    cube_owner: str | None = None
    terms: MatchTerms = MONEY        # the mover's cube and score (judged: terms.judged)
    emg: Emg | None = None           # the mover's EMG at `terms` (None: money play)
    check: Check | None = None       # how the error charged was checked (None: not checked)
    cubeful: bool = False            # the cube in play: plays valued cubefully (equity too)

    @property
    def mark(self) -> str:
        return "" if self.forced else mark_for(self.loss)

    @property
    def past_table(self) -> bool:
        """A match the table cannot take, judged as money play."""
        return self.terms.past_table

    @property
    def mwc_loss(self) -> float | None:
        """The match winning chance the error gave away, in percent (None: money play)."""
        return None if self.emg is None else self.emg.mwc_percent(self.loss)


@dataclass(frozen=True)
class CubeReview:
    """A cube decision: "double" / "no double" by the side on roll, "take" / "drop" by its
    opponent; `side` made it. `decision` is level 5's view for the doubler at `terms` (its
    MatchTerms, as judged; equities normalized to a cube of 1 in money play, 2 x mwc - 1 at a
    match score); `loss` what the choice gave away (money points per unit of cube, or EMG).
    R on its page rolls it out at the same terms (rollout_pages.review_job)."""
    number: int
    side: str
    kind: str
    before: Position                 # the doubler on roll
    decision: evaluator.CubeDecision
    proper: str                      # what level 5 would have done, in words
    loss: float
    terms: MatchTerms
    cube_value: int                  # the cube before the double
    cube_owner: str | None = None
    check: Check | None = None       # how the error charged was checked (None: not checked)

    @property
    def mark(self) -> str:
        return mark_for(self.loss)

    @property
    def mwc_loss(self) -> float | None:
        """The match winning chance the error gave away, in percent (None: money play)."""
        emg = Emg.at(self.terms)
        return None if emg is None else emg.mwc_percent(self.loss)

    @property
    def counted(self) -> bool:
        """A decision as GNU Backgammon counts them ("close or actual"): an actual double,
        take or drop, a no double that was wrong, or one close in EMG (close_cube)."""
        return (self.kind != "no double" or self.loss > 0.0
                or close_cube(in_emg(self.decision, self.terms)))


@dataclass
class SideSummary:
    """One side's totals: unforced moves, cube decisions judged, errors and luck."""
    moves: int = 0
    move_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    luck: float = 0.0
    rolls: int = 0
    doubtful: int = 0
    bad: int = 0
    mwc_error: float = 0.0           # the match chance the errors gave away, percent

    @property
    def decisions(self) -> int:
        return self.moves + self.cube_decisions

    @property
    def total_error(self) -> float:
        return self.move_error + self.cube_error

    @property
    def error_per_move(self) -> float:
        return self.move_error / self.moves if self.moves else 0.0

    @property
    def error_per_decision(self) -> float:
        return self.total_error / self.decisions if self.decisions else 0.0

    @property
    def rating(self) -> str:
        return rating_for(self.error_per_decision) if self.decisions else "N/A"


@dataclass
class Review:
    """The items analysed so far, in game order, and whether the whole game was done."""
    game: GameRecord
    sides: tuple
    names: dict
    items: list = field(default_factory=list)
    complete: bool = False
    match_play: bool = False

    def summary(self) -> dict:
        """{side: SideSummary} over the items analysed."""
        out = {side: SideSummary() for side in self.sides}
        for item in self.items:
            s = out[item.side]
            if item.kind == "move":
                s.luck += item.luck
                s.rolls += 1
                if item.forced:
                    continue
                s.moves += 1
                s.move_error += item.loss
            else:
                if not item.counted:
                    continue                 # a plain no double is not a decision (gnubg)
                s.cube_decisions += 1
                s.cube_error += item.loss
            s.mwc_error += item.mwc_loss or 0.0
            s.doubtful += item.mark == "?"
            s.bad += item.mark == "??"
        return out


