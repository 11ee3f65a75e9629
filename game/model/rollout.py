"""Rollouts as the game and the tests see them: up to five candidate plays, or the cube actions
of a position, played to the end many times by the C engine on threads of its own
(native/src/rollout.c), read while they run and stoppable at any moment. Not the screen that
shows them, and not the statistics or the play: those are C's, behind bg.h."""
from __future__ import annotations

import atexit
import math
import os
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from game.errors import BackgammonError
from game.model.evaluator import (
    Candidate,
    LevelError,
    Probabilities,
    c_error,
    ensure_loaded,
)
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.rules import Play, game_result, legal_results
from game.model.search_settings import DEFAULT_SEARCH, SearchSettings
from native import ffi, lib

CUBE_ACTIONS = "cube"              # start(..., candidates=CUBE_ACTIONS): no double, take, pass
DEFAULT_TRIALS = 1296
DEFAULT_LEVEL = 3                  # 0-ply play; 5 is the filtered 2-ply
MAX_CANDIDATES = lib.BG_ROLLOUT_MAX_CANDS
MAX_TRIALS = lib.BG_ROLLOUT_MAX_TRIALS
MAX_TRUNCATE = lib.BG_ROLLOUT_MAX_TRUNCATE
LEVEL_PLIES = {3: 0, 4: 1, 5: 2}   # the game's levels a rollout may play at, and their plies
Z95 = 1.959964                     # a 95% interval is the mean +- Z95 standard errors
_FIGURES = lib.BG_ROLLOUT_FIGURES
_CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


class RolloutError(BackgammonError, ValueError):
    """A rollout the engine cannot start: no or too many candidates, a candidate no roll
    reaches, trials, level, truncation or threads out of range."""


@dataclass(frozen=True)
class Estimate:
    """A rolled-out figure: its mean (nan until the first trial is done: no games yet, see
    RolloutProgress.has_games) and the half-width of its 95% interval (nan until two)."""
    mean: float
    interval: float

    @classmethod
    def of(cls, mean: float, se: float, scale: float = 1.0) -> Estimate:
        return cls(mean * scale, Z95 * se * scale)


@dataclass(frozen=True)
class CandidateFigures:
    """One candidate so far: the equity for its mover (cubeless money points per game, or
    2*mwc-1 at the match score the rollout was given), each
    chance in percent, and its equity less the first candidate's over the same trials."""
    equity: Estimate
    win_pct: Estimate
    win_gammon_pct: Estimate
    win_backgammon_pct: Estimate
    lose_gammon_pct: Estimate
    lose_backgammon_pct: Estimate
    versus_first: Estimate

    @property
    def chances(self) -> Probabilities:
        """The mean chances as the evaluator gives a play's (fractions, not percent). Means
        with the luck taken out can stray a little past what chances can be (a gammon rate
        over the wins, a rate under 0, most in a short rollout); they are held within those
        bounds, so that the cube's formulas take them as they take the evaluator's."""
        win, win_g, win_bg, lose_g, lose_bg = (e.mean / 100.0 for e in (
            self.win_pct, self.win_gammon_pct, self.win_backgammon_pct, self.lose_gammon_pct,
            self.lose_backgammon_pct))
        win = min(max(win, 0.0), 1.0)
        win_g = min(max(win_g, 0.0), win)
        lose_g = min(max(lose_g, 0.0), 1.0 - win)
        return Probabilities(win, win_g, min(max(win_bg, 0.0), win_g), lose_g,
                             min(max(lose_bg, 0.0), lose_g))


@dataclass(frozen=True)
class CubeFigures:
    """The cube actions from the rolled-out chances, for the side on roll, in money points
    with the cube (or 2*mwc-1 in match play), and the proper actions they give."""
    no_double: Estimate
    double_take: Estimate
    double_pass: Estimate
    double: bool
    take: bool
    too_good: bool


@dataclass(frozen=True)
class RolloutProgress:
    """The answer so far: the trials done (the same answer a rollout of that many trials with
    the seed gives), whether threads still work, and each candidate's figures."""
    trials_done: int
    trials: int
    running: bool
    candidates: tuple[CandidateFigures, ...]
    cube: CubeFigures | None = None

    @property
    def finished(self) -> bool:
        return self.trials_done >= self.trials

    @property
    def has_games(self) -> bool:
        """A trial is done: before it (a rollout stopped at once) every figure is nan and
        nothing may be shown as an equity."""
        return self.trials_done > 0


_live: weakref.WeakSet = weakref.WeakSet()   # rollouts whose threads may run (stop_all)


def stop_all() -> None:
    """Stop every rollout and wait for its threads: the program's exit calls this, so no
    thread is left working while the interpreter ends."""
    for rollout in list(_live):
        rollout.close()


atexit.register(stop_all)


def default_threads() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:   # no sched_getaffinity on this system (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def _whole(name: str, value: object, low: int, high: int, words: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RolloutError(f"{name} {words}, not {value!r}")
    return value


def _after_position(candidate: object) -> Position:
    """The position after a candidate play, its mover still on roll."""
    if isinstance(candidate, Candidate):
        candidate = candidate.play
    if isinstance(candidate, Play):
        return candidate.after
    if isinstance(candidate, Position):
        return candidate
    if isinstance(candidate, str):
        return Position.from_id(candidate)
    raise RolloutError(f"a candidate is a play or the position after it, not {candidate!r}")


def _reachable(position: Position) -> set[str]:
    """Every position a legal play of any roll reaches from `position`."""
    found: set[str] = set()
    for die1 in range(1, 7):
        for die2 in range(die1, 7):
            found |= legal_results(position.position_id, (die1, die2))
    return found


def candidate_boards(position: Position | str,
                     candidates: object) -> tuple[int, list[Position]]:
    """(the C kind, the boards to roll out) for start(); RolloutError for what it refuses."""
    position = position if isinstance(position, Position) else Position.from_id(position)
    if isinstance(candidates, str) and candidates == CUBE_ACTIONS:
        if game_result(position) != 0:
            raise RolloutError("the game in that position is already over: no cube to decide")
        return lib.BG_ROLLOUT_CUBE, [position]
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise RolloutError(f"candidates are a list of plays, or {CUBE_ACTIONS!r} for the cube "
                           f"actions, not {candidates!r}")
    if not 1 <= len(candidates) <= MAX_CANDIDATES:
        raise RolloutError(f"a rollout takes 1 to {MAX_CANDIDATES} candidate plays, not "
                           f"{len(candidates)}")
    afters = [_after_position(c) for c in candidates]
    reachable = _reachable(position)
    for number, after in enumerate(afters, 1):
        if after.position_id not in reachable:
            raise RolloutError(f"candidate {number} ({after.position_id}) is not the result of "
                               f"a legal play from {position.position_id}")
    return lib.BG_ROLLOUT_PLAYS, afters


def _start_error(code: int) -> Exception:
    return c_error(code, RolloutError, who="the engine", task="the rollout",
                   level="a rollout plays at level 3 (0-ply), 4 (1-ply) or 5 (2-ply)",
                   game_over="the game in that position is already over: no cube to decide",
                   position=RolloutError)


class Rollout:
    """A rollout on threads of the engine's own. start() returns at once; progress() reads the
    answer so far without waiting; stop() ends it early with that answer; result() waits for
    the end. The answer after n trials is the same bits whatever the threads."""

    def __init__(self) -> None:
        self._handle = None
        self._lock = threading.Lock()
        self._count = 0
        self._trials = 0
        self._cube_terms: MatchTerms | None = None

    def start(self, position: Position | str, candidates: object, trials: int = DEFAULT_TRIALS,
              level: int = DEFAULT_LEVEL, truncate: int = 0, seed: int = 1,
              threads: int | None = None, *, same_dice: bool = True, luck: bool = True,
              terms: MatchTerms = MONEY, search: SearchSettings = DEFAULT_SEARCH) -> Rollout:
        """Start rolling out `candidates` (plays from `position`, or CUBE_ACTIONS) `trials`
        times, both sides playing at `level` (3, 4 or 5), each game cut after `truncate`
        half-moves (0: played out). same_dice=False and luck=False exist to measure what
        the same dice and the luck adjustment gain. A rollout already running is stopped.
        `terms` (MONEY: money play; a match past the table: money, terms.judged): plays
        roll out at that score and cube, each side playing by its match winning chance and
        each equity 2*mwc-1 (the terms the plays' mover's); the cube actions, the side on
        roll's, take them for their cube theory (their games are played as money play).
        `search`: the settings every play of both sides is searched with."""
        kind, boards = candidate_boards(position, candidates)
        trials = _whole("trials", trials, 1, MAX_TRIALS, f"are 1 to {MAX_TRIALS:,}")
        truncate = _whole("truncation", truncate, 0, MAX_TRUNCATE,
                          f"is 0 (none) or 1 to {MAX_TRUNCATE:,} half-moves")
        if not isinstance(level, int) or isinstance(level, bool) or level not in LEVEL_PLIES:
            raise LevelError(f"a rollout plays at level 3 (0-ply), 4 (1-ply) or 5 (2-ply), "
                             f"not {level!r}")
        threads = _whole("threads", default_threads() if threads is None else threads, 1,
                         lib.BG_ROLLOUT_MAX_THREADS, f"are 1 to {lib.BG_ROLLOUT_MAX_THREADS}")
        seed = _whole("the seed", seed, 0, 2 ** 64 - 1, "is a whole number from 0")
        play_terms = MONEY
        if kind == lib.BG_ROLLOUT_CUBE:
            self._cube_terms = terms
        else:
            self._cube_terms, play_terms = None, terms
        if not same_dice:
            kind |= lib.BG_ROLLOUT_APART
        if not luck:
            kind |= lib.BG_ROLLOUT_NO_LUCK
        ensure_loaded()
        self.close()
        c_boards = ffi.new("int8_t[]", [c for board in boards for c in board.board])
        handle = ffi.new("bg_rollout **")
        plan = ffi.new("bg_rollout_plan *", {"kind": kind, "trials": trials, "level": level,
                                             "truncate": truncate, "threads": threads,
                                             "seed": seed})
        code = lib.bg_rollout_start(c_boards, len(boards), plan, play_terms.as_c(),
                                    search.as_c(), handle)
        if code != 0:
            raise _start_error(code)
        with self._lock:
            self._handle = ffi.gc(handle[0], lib.bg_rollout_free)
            self._count, self._trials = len(boards), trials
        _live.add(self)
        return self

    @property
    def running(self) -> bool:
        with self._lock:
            return self._handle is not None and bool(lib.bg_rollout_busy(self._handle))

    def progress(self) -> RolloutProgress:
        """The answer so far, at once (RolloutError before start)."""
        with self._lock:
            if self._handle is None:
                raise RolloutError("no rollout has been started")
            return self._read()

    def _read(self) -> RolloutProgress:
        n = self._count
        mean, se = ffi.new("double[]", n * _FIGURES), ffi.new("double[]", n * _FIGURES)
        done = lib.bg_rollout_poll(self._handle, mean, se)
        diff = ffi.new("double[]", 2)
        figures = []
        for c in range(n):
            lib.bg_rollout_diff(self._handle, c, 0, diff)
            at = c * _FIGURES
            win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (
                Estimate.of(mean[at + k], se[at + k], 100.0) for k in range(len(_CHANCES)))
            eq_at = at + lib.BG_ROLLOUT_EQUITY
            equity = Estimate.of(mean[eq_at], se[eq_at])
            figures.append(CandidateFigures(equity, win, win_gammon, win_backgammon, lose_gammon,
                                            lose_backgammon, Estimate.of(diff[0], diff[1])))
        cube = self._cube(done) if self._cube_terms is not None else None
        return RolloutProgress(done, self._trials, bool(lib.bg_rollout_busy(self._handle)),
                               tuple(figures), cube)

    def _cube(self, done: int) -> CubeFigures | None:
        terms = self._cube_terms
        if done < 1 or terms is None:
            return None
        out, se = ffi.new("float[]", lib.BG_CUBE_OUT_LEN), ffi.new("double[]", 3)
        bits = lib.bg_rollout_cube(self._handle, terms.as_c(), out, se)
        if bits < 0:
            raise _start_error(bits)
        return CubeFigures(Estimate.of(out[0], se[0]), Estimate.of(out[1], se[1]),
                           Estimate.of(out[2], se[2]), bool(bits & lib.BG_CUBE_DOUBLE),
                           bool(bits & lib.BG_CUBE_TAKE), bool(bits & lib.BG_CUBE_TOO_GOOD))

    def stop(self) -> RolloutProgress:
        """Stop now and wait for the threads (each drops the trial it was playing): the
        answer of the trials finished, which is that of a rollout of so many trials."""
        with self._lock:
            if self._handle is None:
                raise RolloutError("no rollout has been started")
            lib.bg_rollout_stop(self._handle)
        while self.running:
            time.sleep(0.005)
        return self.progress()

    def result(self, timeout_s: float | None = None) -> RolloutProgress:
        """Wait until the threads end (all trials done, or stopped), or timeout_s passed;
        then the answer so far."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while self.running and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.01)
        return self.progress()

    def close(self) -> None:
        """Stop it, wait for its threads and free the engine's memory (again: nothing)."""
        with self._lock:
            handle, self._handle = self._handle, None
        if handle is not None:
            ffi.release(handle)   # bg_rollout_free: stops and joins the threads
        _live.discard(self)

    def __enter__(self) -> Rollout:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def is_known(estimate: Estimate) -> bool:
    """False until enough trials are done for the figure's interval."""
    return not math.isnan(estimate.interval)
