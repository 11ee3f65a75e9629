"""The review of a recorded game: every play and cube action replayed from game/record.py,
judged by level 5 (the equity given away, marked ? and ??), the luck of each roll, and a
summary per side with GNU Backgammon's rating bands. Pure logic: no screen, no keys, no files.

Units: every equity is the mover's, in points a game for one unit of cube (money play), or
2 x match winning chance - 1 at a match score the match table takes. Luck is cubeless money
equity at 0-ply (each roll's best play judged by the net alone; the average of the 36 rolls
is the evaluator's 1-ply value), which keeps it to about a millisecond a roll. A play the
search looked at less deeply than its best is judged again as deeply in money play; at a
match score it keeps the search's own value."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from game import evaluator, rules
from game.commands import cube_verdict
from game.errors import BackgammonError
from game.position import BAR, Position
from game.record import GameRecord, MatchRecord, format_play

REVIEW_LEVEL = 5                 # the strongest level judges
LUCK_LEVEL = 3                   # net 0-ply: the best play of each roll, for the luck
LUCK_PLY = 1                     # evaluate(ply=1): the 0-ply best plays averaged over 36 rolls
DOUBTFUL = 0.04                  # equity given away above this: "?"
BAD = 0.08                       # ... above this: "??"
CUBE_SCREEN_LEVEL = 4            # a cube left alone is looked at by 1-ply first ...
CLOSE_CUBE = 0.16                # ... and by level 5 when the equities are this close
                                 # (GNU Backgammon's "close" cube decision) or it says double
MAX_CUBE = 64
CANDIDATES_SHOWN = 3             # best plays kept per move for the screen and the export

# GNU Backgammon's rating of a normalized error rate per decision (its manual, "Threshold
# for ratings", version 1.07): below each bound, that name; at or above 0.035 "Awful!".
RATINGS = ((0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"),
           (0.012, "Advanced"), (0.018, "Intermediate"), (0.026, "Casual player"),
           (0.035, "Beginner"), (float("inf"), "Awful!"))


class ReviewError(BackgammonError, ValueError):
    """A game that cannot be reviewed (no moves, or a record that cannot be replayed); the
    message says which game and move, in words for the player."""


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
    board and the letter notation), the mover's equity after it and how many plies deep."""
    words: str
    play: rules.Play
    equity: float
    ply: int


@dataclass(frozen=True)
class MoveReview:
    """A turn: the position before it (mover on roll), the roll, the play made, level 5's best
    and the next few, the equity given away and its mark, the luck of the roll."""
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
    cube_owner: Optional[str] = None

    @property
    def mark(self) -> str:
        return "" if self.forced else mark_for(self.loss)


@dataclass(frozen=True)
class CubeReview:
    """A cube decision: "double" / "no double" by the side on roll, "take" / "drop" by its
    opponent; `side` made it. `decision` is level 5's view for the doubler (equities
    normalized to a cube of 1 in money play); `loss` what the choice gave away."""
    number: int
    side: str
    kind: str
    before: Position                 # the doubler on roll
    decision: evaluator.CubeDecision
    proper: str                      # what level 5 would have done, in words
    loss: float
    cube_value: int                  # the cube before the double
    cube_owner: Optional[str] = None

    @property
    def mark(self) -> str:
        return mark_for(self.loss)


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
                if item.kind == "no double" and item.loss == 0.0 and not _close(item.decision):
                    continue                 # a plain no double is not a decision (gnubg)
                s.cube_decisions += 1
                s.cube_error += item.loss
            s.doubtful += item.mark == "?"
            s.bad += item.mark == "??"
        return out


def _close(decision) -> bool:
    take_side = min(decision.double_take_equity, decision.double_pass_equity)
    return decision.double or abs(decision.no_double_equity - take_side) < CLOSE_CUBE


# ---- replaying the record --------------------------------------------------------------

def _point_index(word: str) -> int:
    """A record point ("bar", "off", "1".."24") as a mover's row index (bar 24, off -1)."""
    if word == "bar":
        return BAR
    if word == "off":
        return -1
    return int(word) - 1


def apply_play(before: Position, words: str) -> Position:
    """The position after a recorded play ("24/18 13/11*", standard numbers from the mover's
    side), the mover still on roll. Checks the men are there (not the rules: see replay)."""
    board = list(before.board)
    for step in words.split():
        frm, to = step.rstrip("*").split("/")
        a, b = _point_index(frm), _point_index(to)
        if board[a] <= 0:
            raise ValueError(f"no man on {frm} for {step}")
        board[a] -= 1
        if b >= 0:
            board[b] += 1
            theirs = 25 + 23 - b             # the opponent's row index of that point
            if board[theirs] == 1:
                board[theirs] = 0
                board[25 + BAR] += 1
            elif board[theirs] > 1:
                raise ValueError(f"{step} lands on a point the opponent holds")
    return Position(tuple(board))


@dataclass
class _Turn:
    """What the replay found at one action: the position for the side acting, the cube."""
    index: int
    action: object
    before: Position                 # the acting side on roll (for take/drop: the doubler)
    cube_value: int
    cube_owner: Optional[str]
    doubler: Optional[str] = None
    legal: tuple = ()                # the legal plays of a move


def _describe(game: GameRecord, index: int, action) -> str:
    what = f"{action.dice[0]}{action.dice[1]}: {action.play or 'no move'}" \
        if action.kind == "move" else action.kind
    return f"game {game.number}, entry {index + 1} ({action.side} {what})"


def replay(record: MatchRecord, game: GameRecord) -> list:
    """Every action of `game` with the position and cube before it; ReviewError when an entry
    cannot have happened (a play the rules refuse, a take with no double, ...)."""
    sides = record.sides
    try:
        position = Position.from_id(game.start) if game.start else Position.start()
    except BackgammonError as exc:
        raise ReviewError(f"Game {game.number} cannot be reviewed: its start position is "
                          f"damaged ({exc})") from None
    on_roll = None
    cube_value, cube_owner, offered = 1, None, None
    turns = []
    for index, action in enumerate(game.actions):
        where = _describe(game, index, action)
        if action.side not in sides:
            raise ReviewError(f"The record is damaged at {where}: no such side")
        if action.kind == "win":
            break
        if on_roll is None:
            on_roll = action.side if action.kind in ("move", "double") else None
            if on_roll is None:
                raise ReviewError(f"The record is damaged at {where}: the game does not "
                                  f"start with a roll or a double")
        if action.kind == "move":
            if offered or action.side != on_roll:
                raise ReviewError(f"The record is damaged at {where}: not that side's turn")
            try:
                legal = tuple(rules.legal_plays(position, action.dice))
                after = apply_play(position, action.play)
            except (BackgammonError, ValueError) as exc:
                raise ReviewError(f"The record is damaged at {where}: {exc}") from None
            if after not in {p.after for p in legal}:
                raise ReviewError(f"The record is damaged at {where}: that is not a legal "
                                  f"play of the roll")
            turns.append(_Turn(index, action, position, cube_value, cube_owner, legal=legal))
            if rules.game_result(after):
                break
            position, on_roll = after.swapped(), _other(sides, action.side)
        elif action.kind == "double":
            if action.side != on_roll or offered or cube_owner not in (None, action.side):
                raise ReviewError(f"The record is damaged at {where}: that side may not "
                                  f"double now")
            offered = action.side
            turns.append(_Turn(index, action, position, cube_value, cube_owner, action.side))
        else:                                     # take / drop
            if offered is None or action.side == offered:
                raise ReviewError(f"The record is damaged at {where}: no double to answer")
            turns.append(_Turn(index, action, position, cube_value, cube_owner, offered))
            if action.kind == "drop":
                break
            cube_value, cube_owner, offered = cube_value * 2, action.side, None
    if not turns:
        raise ReviewError(f"Game {game.number} has no moves to review yet")
    return turns


def _other(sides, side):
    return sides[1] if side == sides[0] else sides[0]


# ---- judging ---------------------------------------------------------------------------

class Reviewer:
    """Reviews one game of a record step by step: `steps()` is a generator that analyses one
    turn per next() and yields (done, total), so a 50 Hz caller can show progress and stop
    between two turns (stop(), or simply stop iterating). `review` holds what is done so far
    (review.complete once every turn is). The record is replayed and checked first, in the
    constructor: a damaged or empty game raises ReviewError before any analysis.
    `cube`: whether the cube was in play (a turn without a double is then judged too)."""

    def __init__(self, record: MatchRecord, game_number: int | None = None,
                 level: int = REVIEW_LEVEL, cube: bool = True):
        if not record.games:
            raise ReviewError("There is no game to review yet")
        if game_number is None:
            game = record.games[-1]
        else:
            found = [g for g in record.games if g.number == game_number]
            if not found:
                raise ReviewError(f"There is no game {game_number} in this record")
            game = found[0]
        self.record, self.game = record, game
        self.level = evaluator.check_level(level)
        self.cube = cube
        self.turns = replay(record, game)
        self.review = Review(game, record.sides, dict(record.names),
                             match_play=bool(record.length))
        self.stopped = False
        self.done = 0
        self._decisions = {}              # index of a double -> its CubeReview's decision

    @property
    def total(self) -> int:
        return len(self.turns)

    def stop(self) -> None:
        self.stopped = True

    def steps(self):
        """Analyse the turns in order, yielding (done, total) after each; after a stop(), a
        new steps() carries on from the next turn."""
        self.stopped = False
        for turn in self.turns[self.done:]:
            if self.stopped:
                return
            self.review.items.extend(self._judge(turn))
            self.done += 1
            yield self.done, self.total
        self.review.complete = True

    def run(self) -> Review:
        """The whole review at once (tests, the export)."""
        for _ in self.steps():
            pass
        return self.review

    # ---- the match context ----
    def _away(self, side: str) -> int:
        return self.record.length - self.game.scores[side]

    def _crawford(self) -> int:
        if self.game.crawford:
            return 1
        return 2 if any(self._away(s) == 1 for s in self.record.sides) else 0

    def _play_match(self, side: str, cube_value: int):
        if not self.record.length:
            return None
        return evaluator.playable_match((self.record.length, self._away(side),
                                         self._away(_other(self.record.sides, side)),
                                         self._crawford(), cube_value))

    def _cube_terms(self, doubler: str, cube_value: int, owner: Optional[str]) -> dict:
        terms = {"cube_value": cube_value,
                 "cube_owner": 0 if owner is None else (1 if owner == doubler else 2)}
        match = self._play_match(doubler, cube_value)
        if match is not None:
            terms.update(match_to=match[0], away_me=match[1], away_opp=match[2],
                         crawford=match[3])
        return terms

    def _may_double(self, turn: _Turn) -> bool:
        side = turn.action.side
        return (self.cube and not self.game.crawford and turn.cube_owner in (None, side)
                and turn.cube_value < MAX_CUBE
                and turn is not self.turns[0]             # the opening roll: no cube
                and not (self.record.length and self._away(side) == 1))   # no use at 1-away

    def _decision(self, turn: _Turn, level: int):
        doubler = turn.doubler or turn.action.side
        return evaluator.cube_decision(turn.before, level,
                                       **self._cube_terms(doubler, turn.cube_value,
                                                          turn.cube_owner))

    def _scale(self, turn: _Turn) -> int:
        """Money equities come per cube: divide by its value to compare like with like."""
        return 1 if self.record.length and self._play_match(
            turn.doubler or turn.action.side, turn.cube_value) else turn.cube_value

    def _judge(self, turn: _Turn) -> list:
        kind = turn.action.kind
        if kind == "move":
            out = []
            prior = self.turns.index(turn) - 1
            doubled = prior >= 0 and self.turns[prior].action.kind in ("take", "double")
            if not doubled and self._may_double(turn):
                cube = self._no_double(turn)
                if cube is not None:
                    out.append(cube)
            out.append(self._move(turn))
            return out
        return [self._cube_action(turn)]

    def _normalized(self, decision, scale: int):
        if scale == 1:
            return decision
        return evaluator.CubeDecision(
            decision.double, decision.take, decision.too_good,
            decision.no_double_equity / scale, decision.double_take_equity / scale,
            decision.double_pass_equity / scale, decision.win, decision.win_gammon,
            decision.lose_gammon)

    def _no_double(self, turn: _Turn) -> Optional[CubeReview]:
        scale = self._scale(turn)
        try:
            quick = self._decision(turn, CUBE_SCREEN_LEVEL)
            if not _close(quick):
                return CubeReview(turn.index + 1, turn.action.side, "no double", turn.before,
                                  self._normalized(quick, scale), cube_verdict(quick), 0.0,
                                  turn.cube_value, turn.cube_owner)
            decision = self._normalized(self._decision(turn, self.level), scale)
        except (BackgammonError, ValueError):
            return None
        nd, dt, dp = (decision.no_double_equity, decision.double_take_equity,
                      decision.double_pass_equity)
        best = max(nd, min(dt, dp))
        return CubeReview(turn.index + 1, turn.action.side, "no double", turn.before, decision,
                          cube_verdict(decision), max(0.0, best - nd), turn.cube_value,
                          turn.cube_owner)

    def _cube_action(self, turn: _Turn) -> CubeReview:
        kind = turn.action.kind
        if kind == "double" or turn.index not in self._decisions:
            decision = self._normalized(self._decision(turn, self.level), self._scale(turn))
            self._decisions[turn.index + 1] = decision      # the answer's, next entry
        else:
            decision = self._decisions[turn.index]
        nd, dt, dp = (decision.no_double_equity, decision.double_take_equity,
                      decision.double_pass_equity)
        if kind == "double":
            loss = max(nd, min(dt, dp)) - min(dt, dp)
        elif kind == "take":
            loss = dt - min(dt, dp)             # the taker's equity is -dt, at best -min
        else:
            loss = dp - min(dt, dp)
        return CubeReview(turn.index + 1, turn.action.side, kind, turn.before, decision,
                          cube_verdict(decision), max(0.0, loss), turn.cube_value, turn.cube_owner)

    def _move(self, turn: _Turn) -> MoveReview:
        action, before = turn.action, turn.before
        match = self._play_match(action.side, turn.cube_value)
        ranked = evaluator.ranked_plays(before, action.dice, self.level, match=match)
        after = apply_play(before, action.play)
        mine = next(c for c in ranked if c.play.after == after)
        best = ranked[0]
        played_equity, played_ply = mine.equity, mine.ply
        if (mine is not best and mine.ply < best.ply and match is None
                and not rules.game_result(after)):
            # judge the play made as deeply as the best (the search looked at it less)
            played_equity = -evaluator.evaluate(after.swapped(), best.ply).equity
            played_ply = best.ply
        loss = max(0.0, best.equity - played_equity) if mine is not best else 0.0
        choices = tuple(_choice(c) for c in ranked[:CANDIDATES_SHOWN])
        played = Choice(action.play, mine.play, played_equity, played_ply)
        forced = len({p.after for p in turn.legal}) <= 1
        return MoveReview(turn.index + 1, action.side, tuple(action.dice), before, played,
                          choices[0], choices, loss, luck_of(before, action.dice), forced,
                          cube_value=turn.cube_value, cube_owner=turn.cube_owner)


def _choice(candidate) -> Choice:
    return Choice(format_play(candidate.play.steps), candidate.play, candidate.equity,
                  candidate.ply)


def luck_of(before: Position, dice) -> float:
    """How much the roll gave its roller: the equity after the roll's best 0-ply play less
    the average over all 36 rolls (cubeless money, the roller's side)."""
    average = evaluator.evaluate(before, LUCK_PLY).equity
    best = evaluator.ranked_plays(before, tuple(dice), LUCK_LEVEL, limit=1)[0].equity
    return best - average


def review_game(record: MatchRecord, game_number: int | None = None,
                level: int = REVIEW_LEVEL, cube: bool = True) -> Review:
    """The whole review of one game (the last one by default)."""
    return Reviewer(record, game_number, level, cube).run()
