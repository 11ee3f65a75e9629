"""Checked errors: before the review (game/analysis/judge.py) or the tutor charges an error, it
judges again more deeply. A play error charged at or over ROLL_LINE is rolled out: the play
made and the best, ROLL_GAMES games on the same dice, the luck taken out, each cut after
ROLL_TRUNCATE half-moves (RollChecks); a difference within the rollout's own noise is not
charged. A smaller one charged over CHECK_LINE (the small errors that add up to a player's
rating) is judged again by level 5 at 3 plies, with the best and every play listed between
them, and rolled out after all when that check charges it ROLL_LINE or more. A cube action
over the ? line is checked by a 3-ply cubeful search and its position rolled out when the
check still charges it. The mark and error charged are the checked ones; the tutor answers
at 3 plies. Not the quick judgement itself (judge.py)."""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

import numpy

from game.analysis.cube_judgement import cube_loss, cube_verdict, in_emg, normalized
from game.analysis.verdicts import DOUBTFUL, Check, Choice, CubeReview, MoveReview
from game.model import evaluator
from game.model.match_equity import Emg, match_value
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.rollout import CUBE_ACTIONS, Rollout, RolloutError, RolloutProgress
from game.model.search_settings import SearchSettings

CHECK_PLY = 3                    # level 5 at 3 plies (bg.h's BG_JUDGE_MAX_PLY)
# every play error charged over this (EMG, or money points per unit of cube) is checked, not only
# the marked ones over DOUBTFUL: unchecked errors of 0.01-0.04 that gnubg calls none made most of
# a clean player's excess (issue 58; chosen on the working seeds 48 and 501 only, where it took
# seed 501's clean total from 0.235 to 0.174 EMG against gnubg's 0.188; the figures of every
# seed are in bench/results/issue58_s30_review.txt)
CHECK_LINE = 0.01
# a play error charged at or over this (EMG, or money points per unit of cube), by the quick
# judgement or by the 3-ply check of a smaller one, is rolled out before it is charged; under it
# the 3-ply check's figure is charged. A 3-ply step before the rollout, as until session 37,
# judged plays no nearer gnubg's rollouts than level 5's quick 2-ply did: 0.027 against 0.026
# EMG on 15 plays of 0.01-0.10, 0.050 against 0.036 on 15 of 0.10-0.30
# (bench/results/issue58_s36_review.txt). Until session 41 only errors up to 0.30 were rolled
# out, those over 0.10 cut after 8 half-moves, for time: on the 20 plays of sessions 34-35's
# fresh seeds where our 3-ply check and gnubg 2-ply differed most, the 3-ply error was 0.100
# EMG from gnubg's own rollout on average (+0.098 signed), our rollouts 0.041 cut after 20
# half-moves and 0.067 after 8. With the engine of session 40, every error rolled out cut
# after 20 reviews 8123's 200-play match in 169.0 s (144.4 s before), and the noisy players'
# totals of the 15 kept bench matches come nearer gnubg's: mean |ours - gnubg| 6.5% -> 5.4%,
# the largest +20.2% -> -14.6% (bench/results/issue58_s41_review.txt).
ROLL_LINE = 0.02
ROLL_GAMES = 324                 # the least: games a rollout check plays
ROLL_TRUNCATE = 20               # half-moves, then the net's 0-ply judgement (30 and played
                                 # out: the same verdicts within 0.02 on the working seeds,
                                 # and 15% and 40% slower)
ROLL_LEVEL = 3                   # both sides play the net's 0-ply best play
ROLL_SEED = 1                    # the same dice for every review of the same play
# plies of the search that finds the cube formula's miss (the formula at one efficiency is
# blind to a cube's timing): for a play's value with the cube in play, the opponent's cube
# after it (play_values), and for a rolled-out cube decision, the position's (roll_cube_check);
# 2, level 5's cube search. The formula alone (0) missed where one roll decides: in seed
# 90790's match of bench/review_vs_gnubg.py (a working seed), 23YDQAim7wEAAA with 63, 6/off
# 5/2 leaves the opponent one shot; the formula valued it 0.574 EMG, the 2-ply search 0.389,
# gnubg 2-ply 0.389, and gnubg's cubeful rollout charges the play 0.611 +/- 0.002 where we
# charged 0.41-0.49.
CUBE_MISS_PLY = 2
CHECKED, QUICK = "checked", "quick"   # the review option (game/files/settings.py)
# what listed_to_played takes: a review's listed plays, or a ranking's
Listed = TypeVar("Listed", Choice, evaluator.Candidate)


def judge_afters(afters: Sequence[Position], terms: MatchTerms = MONEY,
                 ply: int = CHECK_PLY, threads: int = 1) -> list[tuple]:
    """(equity, chances) of each play, named by the position after it (the mover still on
    roll), judged at `ply` by the mover at its `terms` (as judged: a match past the table is
    money play), as a ranking would judge it there; `threads` share each judgement's root
    rolls (the same answer either way)."""
    return evaluator.judge_plays(afters, ply, terms.judged, SearchSettings(threads=threads))


class CubeMisses:
    """The cube formula's miss after each play, searched once (CUBE_MISS_PLY deep) and kept:
    the quick judgement, the 3-ply check and the rollout check value the same positions after
    plays at the same terms with different chances, and the miss depends on the play and the
    terms alone (evaluator.cube_misses). A review carries one, and so does a tutor's turn,
    which finds the listed plays' misses while the player types. Threads may share one (a
    miss two threads search at once is the same figure, kept once)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[tuple[Position, MatchTerms], float] = {}
        self.searched = 0                       # plays searched so far (each once)

    def of(self, afters: Sequence[Position], terms: MatchTerms) -> list[float]:
        """The miss of each play reaching `afters` at the mover's `terms` (as judged)."""
        judged = terms.judged
        with self._lock:
            todo = [a for a in dict.fromkeys(afters) if (a, judged) not in self._known]
        if todo:
            found = evaluator.cube_misses(todo, judged, CUBE_MISS_PLY)
            with self._lock:
                self._known.update(((a, judged), m) for a, m in zip(todo, found, strict=True))
                self.searched += len(todo)
        with self._lock:
            return [self._known[a, judged] for a in afters]


def play_values(afters: Sequence[Position], judged: Sequence[tuple], terms: MatchTerms = MONEY,
                cubeful: bool = False, cube_ply: int | None = None,
                misses: CubeMisses | None = None) -> list[float]:
    """What the plays reaching `afters` are compared by, from their judgements `judged`
    ((equity, chances) each, judge_afters' or a ranking's): the equity as judged; with the
    cube in play (`cubeful`), the cubeful value of the chances at the mover's `terms` as
    judged (evaluator.cubeful_plays: the opponent's cube weighed after the play, searched
    `cube_ply` deep, CUBE_MISS_PLY unless given, as GNU Backgammon analyses a play), per unit
    of cube in money play; at CUBE_MISS_PLY with `misses` given, its kept misses are added to
    the formula's values in float32 as the engine adds them (the same bits, one search a
    play). A judgement without chances (level 1's heuristic) keeps its equity."""
    if not cubeful or any(chances is None for _, chances in judged):
        return [equity for equity, _ in judged]
    ply = CUBE_MISS_PLY if cube_ply is None else cube_ply
    chances = [chances for _, chances in judged]
    if misses is not None and ply == CUBE_MISS_PLY:
        formula = evaluator.cubeful_plays(afters, chances, terms.judged, 0)
        values = [float(numpy.float32(f) + numpy.float32(m))
                  for f, m in zip(formula, misses.of(afters, terms), strict=True)]
    else:
        values = evaluator.cubeful_plays(afters, chances, terms.judged, ply)
    return [value / terms.scale for value in values]


def _win_shifted(chances: evaluator.Probabilities, shift: float) -> evaluator.Probabilities:
    """`chances` with the win moved by `shift` (kept within 0..1), the gammons and backgammons
    of each side the same share of its wins or losses as before."""
    win = min(1.0, max(0.0, chances.win + shift))
    wins = win / chances.win if chances.win > 0 else 0.0
    losses = (1.0 - win) / (1.0 - chances.win) if chances.win < 1 else 0.0
    return evaluator.Probabilities(win, chances.win_gammon * wins, chances.win_backgammon * wins,
                                   chances.lose_gammon * losses,
                                   chances.lose_backgammon * losses)


def _cubeless_value(chances: evaluator.Probabilities, terms: MatchTerms) -> float:
    """The chances' cubeless equity in a rollout's units: money points per unit of cube, or in
    a match 2*mwc-1 with the game ending at the cube (match_value)."""
    return chances.equity if terms.judged.length == 0 else match_value(chances, terms.judged)


def cubeful_interval(afters: Sequence[Position], chances: Sequence[evaluator.Probabilities],
                     terms: MatchTerms, cubeful: bool, interval: float) -> float:
    """The 95% interval of a difference of play_values (cubeful with the cube in play) from
    `interval`, that of the same plays' cubeless difference as a rollout measures it: each
    play's cubeful value moves with its chances' noise by the slope of play_values over that
    noise (a secant across the interval, by moving the win), so the steeper play's slope
    scales it. Cubeless (no cube in play, or no chances): `interval` itself. Near a take or
    cash point the cube makes a value move up to twice as fast as the chances do."""
    if not cubeful or interval <= 0 or any(c is None for c in chances):
        return interval
    shift = min(0.05, max(0.002, interval / 2))
    slope = 0.0
    for after, c in zip(afters, chances, strict=True):
        up, down = _win_shifted(c, shift), _win_shifted(c, -shift)
        moved = _cubeless_value(up, terms) - _cubeless_value(down, terms)
        if moved <= 0:
            continue
        high, low = play_values([after, after], [(0.0, up), (0.0, down)], terms, True,
                                cube_ply=0)     # the search's correction moves neither
        slope = max(slope, abs(high - low) / moved)
    return interval * slope if slope > 0 else interval


class PlayChecks:
    """One turn's plays, each named by the position after it, judged at `ply` (judge_afters)
    one at a time in a thread of their own, ahead of time: ahead(afters) queues plays to
    judge while the player thinks; judged(afters) moves the ones asked for to the front and
    waits for them alone. Each judgement's rolls are shared by `threads` threads (the
    cores), or searched by one while `beside()` says another search has a core (the tutor's
    ranking), so the play a player waits for is judged on every idle core: one at a time
    on both cores, a play asked for is done about twice as soon as two side by side, the
    same work in all. The tutor's 3-ply checks. Not a cache across turns: one a turn."""

    def __init__(self, terms: MatchTerms = MONEY, threads: int = 2, ply: int = CHECK_PLY,
                 beside: Callable[[], bool] | None = None):
        self.terms, self.ply, self.threads = terms, ply, max(1, threads)
        self.beside = beside or (lambda: False)
        self._changed = threading.Condition()
        self._queue: list[Position] = []            # waiting to be judged, the next first
        self._busy: set[Position] = set()           # being judged
        self._done: dict[Position, tuple | Exception] = {}
        self._running = 0                           # 1 while the worker thread runs
        self.dropped = False                        # drop(): nothing more ahead of time

    def ahead(self, afters: Sequence[Position]) -> None:
        """Queue the plays reaching `afters` (those not judged, being judged or queued)
        behind the others (none once dropped)."""
        with self._changed:
            if self.dropped:
                return
            self._queue.extend(self._new(afters))
            self._start()

    def judged(self, afters: Sequence[Position]) -> list[tuple]:
        """(equity, chances) of the play reaching each of `afters`, as judge_afters gives
        them, those not judged yet judged first (what a judgement raised is raised here)."""
        with self._changed:
            first = self._new(afters)
            self._queue = [*first, *(a for a in self._queue if a not in first)]
            self._start()
            self._changed.wait_for(lambda: all(a in self._done for a in afters))
            answers = [self._done[a] for a in afters]
        failed = next((a for a in answers if isinstance(a, Exception)), None)
        if failed is not None:
            raise failed
        return [a for a in answers if not isinstance(a, Exception)]

    def drop(self) -> None:
        """Judge no more of the plays queued, nor queue more ahead (the turn is over): those
        being judged finish, the rest are never started. A play asked for later (judged) is
        still judged."""
        with self._changed:
            self.dropped = True
            self._queue.clear()
            self._changed.notify_all()

    def settled(self) -> None:
        """Wait until every play queued is judged (a benchmark's player who types slowly)."""
        with self._changed:
            self._changed.wait_for(lambda: not self._queue and not self._busy)

    def _new(self, afters: Sequence[Position]) -> list[Position]:
        """Of `afters`, once each, those neither judged nor being judged (queued or not)."""
        return [a for a in dict.fromkeys(afters) if a not in self._done and a not in self._busy]

    def _start(self) -> None:                       # (the lock held)
        if self._queue and not self._running:
            self._running = 1
            threading.Thread(target=self._work, daemon=True, name="check").start()

    def _work(self) -> None:
        while True:
            with self._changed:
                if not self._queue:
                    self._running -= 1
                    self._changed.notify_all()
                    return
                after = self._queue.pop(0)
                self._busy.add(after)
            threads = 1 if self.beside() else self.threads
            try:
                answer: tuple | Exception = judge_afters([after], self.terms, self.ply,
                                                         threads)[0]
            except Exception as error:       # raised again in judged(), never lost
                answer = error
            with self._changed:
                self._done[after] = answer
                self._busy.discard(after)
                self._changed.notify_all()


def listed_to_played(listed: list[Listed], after: Position) -> list[Listed]:
    """Of the listed plays (best first), those a check judges with the play reaching `after`:
    the ones above it, or all of them when it is not listed."""
    at = next((i for i, c in enumerate(listed) if c.play.after == after), None)
    return listed if at is None else listed[:at]


def checked_plays(item: MoveReview) -> list[Choice]:
    """What a move's check judges: the best, every play listed between it and the play made,
    and the play made (the listed ones above it, or all listed when it is not among them)."""
    return [*listed_to_played(list(item.candidates), item.played.play.after), item.played]


def check_move(item: MoveReview, ply: int = CHECK_PLY,
               misses: CubeMisses | None = None) -> MoveReview:
    """The MoveReview `item` checked: its listed plays from the best to the one made judged
    again at `ply`; the best of them by that judgement is the best, the loss and mark are the
    play made's against it (none when it is the best), and item.check says how. The listed
    plays carry their checked equities, deeper ones first, as the search lists them."""
    plays = checked_plays(item)
    afters = [c.play.after for c in plays]
    judged = judge_afters(afters, item.terms, ply)
    values = play_values(afters, judged, item.terms, item.cubeful, misses=misses)
    deeper = [Choice(c.words, c.play, value, ply, chances)
              for c, value, (_, chances) in zip(plays, values, judged, strict=True)]
    deeper.sort(key=lambda c: -c.equity)
    best, played = deeper[0], next(c for c in deeper if c.play.after == item.played.play.after)
    loss = max(0.0, best.equity - played.equity)
    if item.emg is not None:                     # match play: the error in EMG
        loss = item.emg.error(loss)
    checked_after = {c.play.after for c in deeper}
    candidates = (*deeper, *(c for c in item.candidates if c.play.after not in checked_after))
    return replace(item, played=played, best=best,
                   candidates=candidates[:max(len(item.candidates), len(deeper))], loss=loss,
                   check=Check(ply, 0.0 - loss, item.loss))


class RollChecks:
    """The rollout checks a review has running (one at a time on each thread judging turns),
    so that a stop ends them at once: stop() cuts those running short and refuses new ones
    until go() (the review carrying on), and a check cut short gives no answer. `games`: how
    many games each rollout plays (ROLL_GAMES; fewer where only the path is wanted, as tests
    of the pages want it)."""

    def __init__(self, games: int = ROLL_GAMES) -> None:
        if not isinstance(games, int) or isinstance(games, bool) or games < 1:
            raise ValueError(f"a rollout check plays 1 or more games, not {games!r}")
        self.games = games
        self._lock = threading.Lock()
        self._running: set[Rollout] = set()
        self.stopped = False

    def go(self) -> None:
        with self._lock:
            self.stopped = False

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            for rollout in self._running:
                try:
                    rollout.stop()
                except RolloutError:           # it ended meanwhile
                    pass

    def roll(self, before: Position, plays: Sequence[Choice], terms: MatchTerms,
             truncate: int = ROLL_TRUNCATE) -> RolloutProgress | None:
        """`plays` from `before` rolled out as a check rolls them out at the mover's `terms`,
        each game cut after `truncate` half-moves: the answer, or None when a stop cut it
        short (or came first)."""
        return self._rolled(before, [c.play for c in plays], terms, truncate)

    def roll_cube(self, before: Position, terms: MatchTerms) -> RolloutProgress | None:
        """The position `before` rolled out for its cube decision at the doubler's `terms`
        (its chances, cubeless, as a play's): the answer, or None as roll's."""
        return self._rolled(before, CUBE_ACTIONS, terms, ROLL_TRUNCATE)

    def _rolled(self, before: Position, candidates: object, terms: MatchTerms,
                truncate: int) -> RolloutProgress | None:
        rollout = Rollout()
        with self._lock:
            if self.stopped:
                return None
            rollout.start(before, candidates, self.games, ROLL_LEVEL, truncate,
                          ROLL_SEED, terms=terms)
            self._running.add(rollout)
        try:
            answer = rollout.result()
        finally:
            with self._lock:
                self._running.discard(rollout)
            rollout.close()
        return answer if answer.finished else None


def wants_roll(item: MoveReview) -> bool:
    """A play error charged at or over ROLL_LINE (by the quick judgement, or by the 3-ply check
    of one charged under it), judged by the net (a forced move never)."""
    return not item.forced and item.best.ply >= 0 and item.loss >= ROLL_LINE


def roll_check(quick: MoveReview, checked: MoveReview, rolls: RollChecks,
               misses: CubeMisses | None = None) -> MoveReview | None:
    """The MoveReview `quick`, or `checked` (check_move of `quick`: its 3-ply check), checked
    again by a rollout of the play made and the best (rolling out the plays listed between
    them too would take half as long again), each valued by the rollout's mean chances as the
    review values a play (play_values: cubefully with the cube in play): the better is the
    best, the loss and mark are the play made's against it (none when the difference lies
    within the rollout's own 95% interval: no error is proven), check says how many games,
    the difference measured and its 95% interval (of the values compared, cubeful_interval;
    money points per unit of cube, or 2*mwc-1 turned into EMG), and
    the 3-ply check's error when there was one. None when a stop cut the rollout short."""
    plays = [checked.played, checked.best]          # the play made first: the best's
                                                    # figures are its difference from it
    answer = rolls.roll(quick.before, plays, quick.terms)
    if answer is None:
        return None
    figures = answer.candidates
    values = play_values([c.play.after for c in plays],
                         [(f.equity.mean, f.chances) for f in figures], quick.terms,
                         quick.cubeful, misses=misses)
    played, other = (Choice(c.words, c.play, value, evaluator.ROLLED_OUT_PLY, f.chances)
                     for c, value, f in zip(plays, values, figures, strict=True))
    best = other if other.equity > played.equity else played
    measured = max(0.0, other.equity - played.equity)
    # the noise of the two's difference, in the units of the values compared
    interval = cubeful_interval([c.play.after for c in plays], [f.chances for f in figures],
                                quick.terms, quick.cubeful, figures[1].versus_first.interval)
    if quick.emg is not None:
        measured, interval = quick.emg.error(measured), quick.emg.error(interval)
    if checked.check is None:             # rolled out at once: the quick judgement's depth
        ply, searched = checked.best.ply, None
    else:                                  # after its 3-ply check, whose error is kept beside
        ply, searched = CHECK_PLY, 0.0 - checked.loss
    # a difference within the rollout's own noise proves no error: nothing is charged (for a
    # clean player most rollout checks end so, and charging each its noise added up: session
    # 49, the working seeds 4781 and 5241 of bench/review_vs_gnubg.py, 2 and 15 such checks)
    check = Check(ply, 0.0 - measured, quick.loss, games=answer.trials_done, interval=interval,
                  searched=searched, unproven=0.0 < measured <= interval)
    listed = [best, other if best is played else played]
    after_rolled = {c.play.after for c in listed}
    candidates = (*listed, *(c for c in checked.candidates if c.play.after not in after_rolled))
    return replace(checked, played=played, best=best, loss=check.charged,
                   candidates=candidates[:max(len(checked.candidates), len(listed))],
                   check=check)


def deeper_cube_decision(position: Position, terms: MatchTerms, ply: int = CHECK_PLY,
                         threads: int = 1) -> evaluator.CubeDecision:
    """The decision of the doubler on roll in `position` at its `terms` by the cubeful
    search at `ply` plies (native/src/cubeful.c: 3 is level 5 with search settings of plies
    3; 0, 1 and 2 are levels 3, 4 and 5's own), normalized per unit of cube as the review's.
    `threads`: how many share the search's root rolls (the tutor's 2, on cores a review's
    workers are not using; the same answer either way)."""
    level = 3 + min(ply, 2)
    search = SearchSettings(plies=max(ply, 2), threads=threads)
    return normalized(evaluator.cube_decision(position, level, terms, search), terms.scale)


def check_cube(item: CubeReview, decision: evaluator.CubeDecision | None = None,
               ply: int = CHECK_PLY) -> CubeReview:
    """The CubeReview `item` checked: its action's loss against the deeper decision (given,
    when the double before an answer was checked already, or deeper_cube_decision)."""
    if decision is None:
        decision = deeper_cube_decision(item.before, item.terms, ply)
    loss = cube_loss(item.kind, in_emg(decision, item.terms))
    return replace(item, decision=decision, proper=cube_verdict(decision), loss=loss,
                   check=Check(ply, 0.0 - loss, item.loss))


def wants_cube_roll(checked: CubeReview) -> bool:
    """A cube action the 3-ply check still charges over CHECK_LINE: its position is rolled
    out (cube actions are few, so every one the check keeps is; the net's chances are where
    a cube verdict goes wrong, e.g. a gammon rate 0.12 over a rollout's in a position it
    calls too good)."""
    return checked.loss > CHECK_LINE


def roll_cube_check(checked: CubeReview, rolls: RollChecks) -> CubeReview | None:
    """The CubeReview `checked` (check_cube's) checked again by a rollout of its position:
    the decision is the cube theory on the rollout's mean chances at the position's cube
    efficiency (evaluator.cube_decision_for, as levels 1-3 take their own chances) with the
    formula's miss found by a CUBE_MISS_PLY search added, per unit of cube as the review's;
    the loss and verdict are the action's against it; check says the games and the wider
    95% interval of the decision's two rolled-out equities (no double, double/take; the
    double/pass has none), so the answer judged by the same decision says the same. None
    when a stop cut the rollout short."""
    terms = checked.terms
    answer = rolls.roll_cube(checked.before, terms)
    if answer is None:
        return None
    decision = normalized(evaluator.cube_decision_for(answer.candidates[0].chances, terms,
                                                      checked.before, CUBE_MISS_PLY),
                          terms.scale)
    loss = cube_loss(checked.kind, in_emg(decision, terms))
    interval = 0.0
    if answer.cube is not None:
        interval = max(answer.cube.no_double.interval, answer.cube.double_take.interval)
    emg = Emg.at(terms)
    interval = emg.error(interval) if emg is not None else interval / terms.scale
    return replace(checked, decision=decision, proper=cube_verdict(decision), loss=loss,
                   check=Check(CHECK_PLY, 0.0 - loss, checked.check.quick if checked.check
                               else checked.loss, games=answer.trials_done,
                               interval=interval, searched=0.0 - checked.loss))


def wants_check(item: MoveReview | CubeReview) -> bool:
    """A play the quick judgement charges with an error over CHECK_LINE, judged by the net (a
    forced move never; level 1's heuristic has no deeper judgement), or a cube action it
    charges over the ? line (the 3-ply cubeful search agrees with gnubg no better than the
    quick 2-ply one on smaller cube errors: issue 57's note, bench/cube_vs_gnubg.py)."""
    if isinstance(item, MoveReview):            # kind "move"
        return item.loss > CHECK_LINE and not item.forced and item.best.ply >= 0
    return item.loss > DOUBTFUL
