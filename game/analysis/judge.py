"""The review of a recorded game: every play and cube action replayed from game/model/record.py,
judged by level 5 (the error made, marked ? and ??), the luck of each roll; what it finds is
game/analysis/verdicts.py's. Pure logic: no screen, no keys, no files.

Units: every equity is the mover's, in points a game for one unit of cube (money play), or
2 x match winning chance - 1 at a match score the match table takes; every error is in money
points per unit of cube, or in EMG at a match score (game/model/match_equity.py), as GNU
Backgammon states them. Luck is cubeless money equity at 0-ply (each roll's best play judged
by the net alone; the average of the 36 rolls is the evaluator's 1-ply value), which keeps it
to about a millisecond a roll. A play the search looked at less deeply than its best is
judged again as deeply, in money and match play alike (judged_play). A CHECKED review (the
default) judges every error over checking.CHECK_LINE again at 3 plies before it charges it
(game/analysis/checking.py); a QUICK one charges the first judgement."""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import overload

from game.analysis.checking import (
    ROLL_GAMES,
    CubeMisses,
    RollChecks,
    check_cube,
    check_move,
    play_values,
    roll_check,
    roll_cube_check,
    wants_check,
    wants_cube_roll,
    wants_roll,
)
from game.analysis.cube_judgement import (
    cube_loss,
    cube_verdict,
    in_emg,
    judge_no_double,
    normalized,
)
from game.analysis.replay import ReplayedTurn, ReviewError, apply_play, replay, terms_at
from game.analysis.verdicts import Choice, CubeReview, MoveReview, Review
from game.errors import BackgammonError
from game.model import evaluator, rules
from game.model.match_equity import Emg, match_value
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.record import MatchRecord, format_play

REVIEW_LEVEL = 5                 # the strongest level judges
LUCK_LEVEL = 3                   # net 0-ply: the best play of each roll, for the luck
LUCK_PLY = 1                     # evaluate(ply=1): the 0-ply best plays averaged over 36 rolls
CANDIDATES_SHOWN = 3             # best plays kept per move for the screen and the export
MAX_WORKERS = 4                  # threads judging turns side by side, at most

# ---- judging ---------------------------------------------------------------------------

class ReviewStopped(Exception):
    """A turn's judgement cut short by Reviewer.stop() (a rollout check it was waiting for):
    the turn is not kept, and is judged again when the review carries on."""


def review_workers() -> int:
    """Threads a review judges turns with: the cores this process may run on, at most
    MAX_WORKERS (the search runs in C with Python's lock let go, so they run at once)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:                              # not on every system
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


class Reviewer:
    """Reviews one game of a record step by step: `steps()` is a generator that yields
    (done, total) after each turn, in order, so a 50 Hz caller can show progress and stop
    between two turns (stop(), or simply stop iterating). `review` holds what is done so far
    (review.complete once every turn is). The record is replayed and checked first, in the
    constructor: a damaged or empty game raises ReviewError before any analysis.
    `cube`: whether the cube was in play (a turn without a double is then judged too).
    `workers`: threads judging turns side by side (None: review_workers()); the turns are
    independent, so the review is the same whatever the number, only sooner. `checked`:
    each error over checking.CHECK_LINE judged again at 3 plies before it is charged (checking.py);
    False: the QUICK review, the first judgement charged. `roll_games`: the games of each
    rollout check (checking.RollChecks)."""

    def __init__(self, record: MatchRecord, game_number: int | None = None,
                 level: int = REVIEW_LEVEL, cube: bool = True, workers: int | None = None,
                 checked: bool = True, roll_games: int = ROLL_GAMES):
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
        self.checked = checked
        self.workers = review_workers() if workers is None else max(1, int(workers))
        self.turns = replay(record, game)
        self.review = Review(game, record.sides, dict(record.names),
                             match_play=MatchTerms.table_takes(record.length))
        self.stopped = False
        self.rolls = RollChecks(roll_games)  # the rollout checks running, for stop()
        self.misses = CubeMisses()           # each play's cube miss, searched once
        self.done = 0
        self._decisions: dict = {}        # index of a double's answer -> (decision, terms,
                                          # the double's check, None: not checked, and
                                          # the double's quick decision)
        self._ahead: dict[int, list] = {}  # turn number -> its items, judged before a stop

    @property
    def total(self) -> int:
        return len(self.turns)

    def stop(self) -> None:
        """Stop between two turns; a rollout check running is cut short (its turn is judged
        again when the review carries on)."""
        self.stopped = True
        self.rolls.stop()

    def _units(self, start: int) -> list:
        """The turns from `start` in units judged by one thread each: a turn alone, or a
        double with its answer (the answer reads the double's decision)."""
        units, at = [], start
        while at < len(self.turns):
            size = 2 if (self.turns[at].action.kind == "double" and at + 1 < len(self.turns)
                         and self.turns[at + 1].action.kind in ("take", "drop")) else 1
            units.append(list(range(at, at + size)))
            at += size
        return units

    def _judge_unit(self, unit: list) -> list:
        """The items of each turn of the unit (those judged before a stop kept as they were)."""
        out = []
        for n in unit:
            items = self._ahead.pop(n, None)
            out.append(items if items is not None else self._judge(self.turns[n]))
        return out

    def steps(self) -> Generator[tuple[int, int], None, None]:
        """Analyse the turns, yielding (done, total) after each in order; after a stop(), a
        new steps() carries on from the next turn (keeping what was judged ahead)."""
        self.stopped = False
        self.rolls.go()
        units = self._units(self.done)
        if self.workers == 1:
            for unit in units:
                if self.stopped:
                    return
                try:
                    judged = self._judge_unit(unit)
                except ReviewStopped:
                    return
                for n, items in zip(unit, judged, strict=True):
                    if self.stopped:
                        self._ahead[n] = items
                        return
                    yield from self._record(items)
            self.review.complete = True
            return
        # a few units in flight at a time, so that a stop leaves little running
        pool = ThreadPoolExecutor(self.workers, thread_name_prefix="review")
        window = 2 * self.workers
        flight = deque((unit, pool.submit(self._judge_unit, unit)) for unit in units[:window])
        queued = deque(units[window:])
        try:
            while flight:
                unit, job = flight.popleft()
                try:
                    results = job.result()
                except ReviewStopped:               # its rollout cut short by stop()
                    return
                if queued:
                    more = queued.popleft()
                    flight.append((more, pool.submit(self._judge_unit, more)))
                for n, items in zip(unit, results, strict=True):
                    if self.stopped:
                        self._ahead[n] = items
                    else:
                        yield from self._record(items)
                if self.stopped:
                    return
            self.review.complete = True
        finally:
            for _, job in flight:
                job.cancel()
            pool.shutdown(wait=True)        # a unit already running finishes (under a second)
            for unit, job in flight:
                if job.done() and not job.cancelled() and job.exception() is None:
                    self._ahead.update(zip(unit, job.result(), strict=True))

    def _record(self, items: list) -> Iterator[tuple[int, int]]:
        self.review.items.extend(items)
        self.done += 1
        yield self.done, self.total

    def run(self) -> Review:
        """The whole review at once (tests, the export)."""
        for _ in self.steps():
            pass
        return self.review

    # ---- the match context ----
    def _terms(self, turn: ReplayedTurn, side: str) -> MatchTerms:
        """The cube and score as `side` saw them at `turn` (replay.terms_at; the item keeps
        them for its page and its rollout; MatchTerms.judged decides whether the table takes
        the match)."""
        return terms_at(self.record, self.game, turn, side)

    def _cube_terms(self, turn: ReplayedTurn) -> MatchTerms:
        """The terms `turn`'s cube decision is judged at, its doubler's."""
        return self._terms(turn, turn.doubler or turn.action.side)

    def _may_double(self, turn: ReplayedTurn) -> bool:
        """A cube decision before `turn`'s throw: the cube in play, not the opening roll, and
        the one rule of the cube and the score (MatchTerms.double_refused: no Crawford game,
        the cube its own or centred, under 64, not dead)."""
        return (self.cube and turn is not self.turns[0]
                and not self._terms(turn, turn.action.side).double_refused())

    def _decision(self, turn: ReplayedTurn, level: int,
                  terms: MatchTerms) -> evaluator.CubeDecision:
        return evaluator.cube_decision(turn.before, level, terms)

    def _judge(self, turn: ReplayedTurn) -> list:
        kind = turn.action.kind
        if kind == "move":
            out: list[CubeReview | MoveReview] = []
            prior = self.turns.index(turn) - 1
            doubled = prior >= 0 and self.turns[prior].action.kind in ("take", "double")
            if not doubled and self._may_double(turn):
                cube = self._no_double(turn)
                if cube is not None:
                    out.append(cube)
            out.append(self._move(turn))
            return out
        return [self._cube_action(turn)]

    def _no_double(self, turn: ReplayedTurn) -> CubeReview | None:
        terms = self._cube_terms(turn)
        try:
            decision, loss = judge_no_double(lambda level: self._decision(turn, level, terms),
                                             terms, self.level)
        except (BackgammonError, ValueError):
            return None
        return self._checked(CubeReview(turn.index + 1, turn.action.side, "no double",
                                        turn.before, decision, cube_verdict(decision), loss,
                                        terms, turn.cube_value, turn.cube_owner))

    @overload
    def _checked(self, item: MoveReview,
                 decision: evaluator.CubeDecision | None = None) -> MoveReview: ...

    @overload
    def _checked(self, item: CubeReview,
                 decision: evaluator.CubeDecision | None = None) -> CubeReview: ...

    def _checked(self, item: MoveReview | CubeReview,
                 decision: evaluator.CubeDecision | None = None) -> MoveReview | CubeReview:
        """The item as charged when it is charged over CHECK_LINE and the review is CHECKED:
        a play rolled out when its error is ROLL_LINE or more, else checked at 3 plies and
        rolled out when that check charges it that much; a cube action checked at 3 plies (by
        `decision`, a checked one already made: not rolled out again), then rolled out where
        checking.py says."""
        if not (self.checked and wants_check(item)):
            return item
        rolled: MoveReview | CubeReview | None
        if isinstance(item, MoveReview):            # kind "move"
            checked = item if wants_roll(item) else check_move(item, misses=self.misses)
            if not wants_roll(checked):
                return checked
            rolled = roll_check(item, checked, self.rolls, self.misses)
        else:
            checked_cube = check_cube(item, decision)
            if decision is not None or not wants_cube_roll(checked_cube):
                return checked_cube
            rolled = roll_cube_check(checked_cube, self.rolls)
        if rolled is None:                          # a stop cut the rollout short
            raise ReviewStopped
        return rolled

    def _cube_action(self, turn: ReplayedTurn) -> CubeReview:
        """A double, or its answer judged by the double's decision (the checked one when the
        double was checked: the answer's check then says the double's games and interval,
        and its quick loss by the double's quick decision)."""
        kind, deeper, known = turn.action.kind, None, None
        if kind == "double" or turn.index not in self._decisions:
            terms = self._cube_terms(turn)
            decision = quick = normalized(self._decision(turn, self.level, terms), terms.scale)
        else:
            decision, terms, known, quick = self._decisions[turn.index]
            deeper = decision if known is not None else None
        item = self._checked(CubeReview(
            turn.index + 1, turn.action.side, kind, turn.before, decision,
            cube_verdict(decision), cube_loss(kind, in_emg(decision, terms)), terms,
            turn.cube_value, turn.cube_owner), deeper)
        if known is not None and item.check is not None:
            item = replace(item, check=replace(
                item.check, quick=cube_loss(kind, in_emg(quick, terms)), games=known.games,
                interval=known.interval))
        if kind == "double":                                     # the answer's, next entry
            self._decisions[turn.index + 1] = item.decision, terms, item.check, quick
        return item

    def _move(self, turn: ReplayedTurn) -> MoveReview:
        action, before = turn.action, turn.before
        if action.dice is None:                     # replay() checked every move has its dice
            raise ReviewError(f"move {turn.index + 1} has no dice")
        terms = self._terms(turn, action.side)
        ranked = evaluator.ranked_plays(before, action.dice, self.level, terms=terms)
        choices, played, loss = judged_turn(ranked, apply_play(before, action.play), terms,
                                            action.play, cubeful=self.cube,
                                            misses=self.misses)
        forced = len({p.after for p in turn.legal}) <= 1
        return self._checked(MoveReview(
            turn.index + 1, action.side, tuple(action.dice), before, played, choices[0],
            choices, loss, luck_of(before, action.dice, terms), forced,
            cube_value=turn.cube_value, cube_owner=turn.cube_owner, terms=terms,
            emg=Emg.at(terms) if ranked[0].ply >= 0 else None,
            cubeful=self.cube and ranked[0].ply >= 0))


def as_deep(candidate: evaluator.Candidate, best: evaluator.Candidate,
            terms: MatchTerms) -> tuple:
    """(equity, ply, chances) of a ranked play judged as deeply as the best: the search's
    own when it looked as deeply (or the game is over), else its position after judged again
    at the best's ply (money equity, or the match value of its chances at `terms`, as
    judged)."""
    if candidate.ply >= best.ply or rules.game_result(candidate.play.after):
        return candidate.equity, candidate.ply, candidate.chances
    theirs = evaluator.evaluate(candidate.play.after.swapped(), best.ply)
    chances = theirs.flipped()
    judged = terms.judged
    equity = -theirs.equity if judged.money else match_value(chances, judged)
    return equity, best.ply, chances


def judged_turn(ranked: Sequence[evaluator.Candidate], after: Position,
                terms: MatchTerms = MONEY, words: str | None = None,
                cubeful: bool = False,
                misses: CubeMisses | None = None) -> tuple[tuple[Choice, ...], Choice, float]:
    """The play reaching `after` as level 5 judges it, among `ranked` (evaluator.ranked_plays
    of the roll at REVIEW_LEVEL at the mover's `terms`, all of them, best first): (the
    listed plays, best first; its Choice; the error against the best: money points, or EMG
    at `terms` as judged). The listed plays are the best CANDIDATES_SHOWN; a play the search
    looked at less deeply than its best is judged again as deeply (in match play by the
    match value of its chances, as the search scores a play). With the cube in play
    (`cubeful`) each is valued by its cubeful value (checking.play_values), the best is the
    best of them and of the play made, and the list is in that order. `words`: the play as
    recorded (default: its steps written out); `misses`: the cube misses kept for the turn
    (checking.CubeMisses). The tutor (game/scenes/tutor.py) judges a play just made with
    this, so its marks are the review's."""
    mine = next(c for c in ranked if c.play.after == after)
    best = ranked[0]
    listed = list(ranked[:CANDIDATES_SHOWN])
    shown = [*listed, *([] if mine in listed else [mine])]
    deep = [as_deep(c, best, terms) for c in shown]
    by_cube = cubeful and best.ply >= 0                 # level 1's heuristic: no chances
    if by_cube:
        afters = [c.play.after for c in shown]
        values = play_values(afters, [(e, ch) for e, _, ch in deep], terms, cubeful=True,
                             misses=misses)
        deep = [(v, ply, ch) for v, (_, ply, ch) in zip(values, deep, strict=True)]
    choices = [Choice(format_play(c.play.steps), c.play, *d)
               for c, d in zip(shown, deep, strict=True)]
    played = choices[shown.index(mine)]
    if words is not None:
        played = replace(played, words=words)
    listed_choices = choices[:len(listed)]
    if by_cube:
        listed_choices.sort(key=lambda c: -c.equity)       # stable: ties keep the ranking
        top = max(listed_choices[0].equity, played.equity)
    else:
        top = best.equity
    loss = max(0.0, top - played.equity) if mine is not best or by_cube else 0.0
    emg = Emg.at(terms) if best.ply >= 0 else None       # level 1's heuristic: its own units
    if emg is not None:
        loss = emg.error(loss)
    return tuple(listed_choices), played, loss


def judged_play(ranked: Sequence[evaluator.Candidate], after: Position,
                terms: MatchTerms = MONEY, words: str | None = None,
                cubeful: bool = False, misses: CubeMisses | None = None) -> tuple[Choice, float]:
    """(the Choice of the play reaching `after`, its error) as judged_turn judges them."""
    _, played, loss = judged_turn(ranked, after, terms, words, cubeful, misses)
    return played, loss


def luck_of(before: Position, dice: Sequence[int], terms: MatchTerms = MONEY) -> float:
    """How much the roll gave its roller: the equity after the roll's best 0-ply play less
    the average over all 36 rolls, the roller's side. Money play: cubeless money points. At
    a match score (the roller's `terms`, as judged): each roll's best play ranked and valued
    by the match table at the score, the difference in EMG, as GNU Backgammon counts luck."""
    emg = Emg.at(terms)
    if emg is None:
        average = evaluator.evaluate(before, LUCK_PLY).equity
        return _best_value(before, dice, MONEY) - average
    values = {(d1, d2): _best_value(before, (d1, d2), terms)
              for d1 in range(1, 7) for d2 in range(d1, 7)}      # the 21 rolls, each once
    average = sum((1 if d1 == d2 else 2) * v for (d1, d2), v in values.items()) / 36.0
    return emg.error(values[min(dice), max(dice)] - average)


def _best_value(before: Position, dice: Sequence[int], terms: MatchTerms) -> float:
    """The value of the roll's best play at LUCK_LEVEL (cubeless money, or 2 x mwc - 1)."""
    return evaluator.ranked_plays(before, tuple(dice), LUCK_LEVEL, limit=1, terms=terms)[0].equity


def review_game(record: MatchRecord, game_number: int | None = None,
                level: int = REVIEW_LEVEL, cube: bool = True, checked: bool = True,
                roll_games: int = ROLL_GAMES) -> Review:
    """The whole review of one game (the last one by default)."""
    return Reviewer(record, game_number, level, cube, checked=checked,
                    roll_games=roll_games).run()
