"""Tutor mode (the Tutor option): a typed play, double, take or drop, and a roll without the
double level 5 would make, judged at once with the review's own judgement and marks
(game/analysis/judge.py: ? over DOUBTFUL, ?? over BAD, in EMG at a match score). An error of
the size the option names is said on the message line before the turn goes on, with the better
play or action and the error made: T or U takes it back (D doubles instead of a missed
double), ENTER keeps it. A warning is checked at 3 plies before it is said, as the CHECKED
review charges (game/analysis/checking.py): one the check clears is not said. The judging
runs in a thread from the turn's start, the listed plays' 3-ply checks in one more, one at a
time with each search's rolls shared between two threads (checking.PlayChecks; one while the
ranking searches), a cube action's 3-ply search as well, and the frames go on while a
verdict is awaited. Not the review
after the game, not the turn's keys (game/scenes/), and silent when the option is OFF: the
1983 game is then unchanged."""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from game.analysis import checking
from game.analysis import judge as review
from game.analysis.cube_judgement import cube_loss, in_emg, judge_no_double, normalized
from game.analysis.verdicts import mark_for
from game.board import screen as S
from game.board.lines import fit
from game.commands import play_text
from game.errors import BackgammonError
from game.interfaces import Frames
from game.model import evaluator, rules
from game.model.match_equity import Emg
from game.model.match_terms import MatchTerms
from game.model.position import Position
from game.model.search_settings import SearchSettings
from game.pages.menus import BAD_KEY, CLICK, key_char
from game.scenes.state import Game
from game.zx.basic import CODE_ENTER

WARNED = {"off": (), "?": ("?", "??"), "??": ("??",)}   # the marks each option warns of
TAKE_BACK_KEYS = ("T", "U")
OFFER = "T/U: take it back  ENTER: keep"
DOUBLE_INSTEAD_KEYS = ("D",)                       # a missed double: double after all
DOUBLE_OFFER = "D: double  ENTER: roll"
CHECK_THREADS = 2                                  # the threads a check's search shares its
                                                   # rolls among (the cores)
OFFER_ROW = S.BOTTOM_FIRST_ROW - 1                 # across the board between its halves
OFFER_ATTR = S.attr(S.BLACK, S.YELLOW, bright=True)  # as the game-over banner there
MARK_ATTR = {"?": S.attr(S.BLACK, S.YELLOW, bright=True),   # as the review's marks
             "??": S.attr(S.WHITE, S.RED, bright=True)}
BETTER_ACTION = {"double": "No double", "no double": "Doubling", "take": "Dropping",
                 "drop": "Taking"}


def check_threads() -> int:
    """Threads the tutor's checks run on: CHECK_THREADS, or fewer on fewer cores."""
    return min(CHECK_THREADS, review.review_workers())


def shared() -> SearchSettings:
    """The search settings of the tutor's own cube searches: the defaults, each search's
    rolls shared among check_threads() threads (the same answers, sooner)."""
    return SearchSettings(threads=check_threads())


def warning_mark(option: str, loss: float) -> str:
    """The review's mark of an error giving away `loss` ("?", "??" or "") when the Tutor
    option `option` ("off", "?", "??") warns of it, else ""."""
    mark = mark_for(loss)
    return mark if mark in WARNED[option] else ""


@dataclass(frozen=True)
class Verdict:
    """An error worth a warning: its mark, the equity given away (the review's units) and the
    better play or action in the player's words."""
    mark: str
    loss: float
    better: str

    def words(self) -> str:
        """The message line: "?? h3 f1 is better by 0.123" (shorter when it must be)."""
        for text in (f"{self.mark} {self.better} is better by {self.loss:.3f}",
                     f"{self.mark} {self.better}: better by {self.loss:.3f}",
                     f"{self.mark} Better: {self.better}"):
            if len(text) <= S.COLS:
                return text
        return fit(text)


class Job:
    """`work()` run in a thread of its own (the C search lets go of Python's lock, so the
    machine's frames run on meanwhile); `done` once it has finished, `result()` its answer
    or None when it raised a BackgammonError or ValueError (the tutor then says nothing)."""

    def __init__(self, work: Callable):
        self._answer = None
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True,
                                        name="tutor")
        self._thread.start()

    def _run(self, work: Callable) -> None:
        try:
            self._answer = work()
        except (BackgammonError, ValueError, StopIteration):
            self._answer = None

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def result(self) -> Any:      # what `work` gave (its type the caller's), or None
        self._thread.join()
        return self._answer


def finished(job: Job) -> Frames:
    """Frames (one yield each) until `job` is done (none when it is); returns its result."""
    while not job.done:
        yield
    return job.result()


# ---- plays -------------------------------------------------------------------------------

class PlayCoach:
    """One typed turn under the tutor: level 5 ranks every play of the roll in a thread from
    the turn's start (at the mover's `terms`), and the plays the review lists are judged at
    3 plies after it (`deeper`); verdict(after) finds the play made among them as the review
    would (review.judged_play) and checks an error at 3 plies before it warns. `cubeful`:
    the cube in play, so plays are valued cubefully as the review values them."""

    def __init__(self, position: Position, dice: Sequence[int], terms: MatchTerms,
                 mover_is_human: bool, option: str, cubeful: bool = True) -> None:
        self.position, self.dice, self.option = position, tuple(dice), option
        self.terms, self.cubeful = terms.judged, cubeful
        self.mover_is_human = mover_is_human
        self.warned: set = set()            # plays already warned of this turn
        self.searching = True               # the ranking (and its misses) has a core
        self.checks = checking.PlayChecks(self.terms, check_threads(),
                                          beside=lambda: self.searching)
        self.misses = checking.CubeMisses()  # the plays' cube misses, searched once each
        self.ranking = Job(self._rank)

    def _rank(self) -> evaluator.Candidates:
        """Level 5's ranking of the roll's plays; the cube misses of the plays the review
        lists are then searched (with the cube in play), and those plays queued for their
        3-ply check, while the player types (the checks share both cores once this search
        has let its core go: `searching`)."""
        listed: list[Position] = []
        try:
            ranked = evaluator.ranked_plays(self.position, self.dice, review.REVIEW_LEVEL,
                                            terms=self.terms)
            if len(ranked) >= 2 and not self.checks.dropped:   # (the turn may be over)
                listed = [c.play.after for c in list(ranked)[:review.CANDIDATES_SHOWN]]
                if self.cubeful and ranked[0].ply >= 0:
                    try:
                        self.misses.of(listed, self.terms)
                    except (BackgammonError, ValueError):   # searched again, and said, at
                        pass                                # the verdict
        finally:
            self.searching = False
        self.checks.ahead(listed)
        return ranked

    def checked(self, ranked: Sequence[evaluator.Candidate], after: Position) -> tuple:
        """(the best play by the check, the error of the play reaching `after` against it)
        at 3 plies: the listed plays above it (or all listed) and it (checking.py)."""
        listed = list(ranked)[:review.CANDIDATES_SHOWN]
        mine = next(c for c in ranked if c.play.after == after)
        plays = [c.play for c in (*checking.listed_to_played(listed, after), mine)]
        afters = [p.after for p in plays]
        values = checking.play_values(afters, self.checks.judged(afters), self.terms,
                                      self.cubeful, misses=self.misses)
        best = max(range(len(plays)), key=lambda i: values[i])
        loss = max(0.0, values[best] - values[-1])
        emg = Emg.at(self.terms)
        return plays[best], (loss if emg is None else emg.error(loss))

    def close(self) -> None:
        """The turn is over: the listed plays' checks not yet started are dropped, so no
        core works on for a turn that has ended (the ranking and the checks running finish
        on their own)."""
        self.checks.drop()

    def verdict(self, after: Position) -> Verdict | None:
        """The warning a finished play reaching `after` (the mover still on roll) earns, or
        None: a good play, a forced one, one warned of already, or no judgement."""
        if not self.ranking.done and after not in self.warned:
            self.checks.ahead([after])      # finished at once: its check on the idle core
        ranked = self.ranking.result()
        if not ranked or after in self.warned or len({c.play.after for c in ranked}) < 2:
            return None
        try:
            _, loss = review.judged_play(ranked, after, self.terms, cubeful=self.cubeful,
                                         misses=self.misses)
        except (BackgammonError, ValueError, StopIteration):   # no judgement: say nothing
            return None
        if not warning_mark(self.option, loss):
            return None
        try:
            best, loss = self.checked(ranked, after)
        except (BackgammonError, ValueError):   # no deeper judgement: say nothing
            return None
        mark = warning_mark(self.option, loss)
        if not mark:
            return None                        # the check cleared it
        self.warned.add(after)
        return Verdict(mark, loss, play_text(best, self.mover_is_human))


def start_play(board_game: Game, turn: rules.Turn, side: str) -> PlayCoach | None:
    """The coach of a typed turn, its ranking started; None when the tutor is off."""
    option = board_game.table.settings.tutor
    if option == "off" or not board_game.state.typed[side]:
        return None
    match = board_game.state.match
    return PlayCoach(turn.start, turn.dice, match.terms(side), turn.mover_is_human, option,
                     cubeful=match.cube_enabled)


def check_play(board_game: Game, turn: rules.Turn, coach: PlayCoach | None) -> Frames:
    """After the last step of a typed play: the warning, if the play earns one, and the
    offer; T takes the last man back, U the whole play (the keys of "Your move?"). Returns
    True when the play was taken back (the turn goes on), False to end the turn."""
    if coach is None or board_game.table.settings.tutor == "off":     # (turned off meanwhile: O)
        return False
    coach.option = board_game.table.settings.tutor
    # frames go on while the ranking and the check are awaited (none once they are done)
    verdict = yield from finished(Job(lambda: coach.verdict(turn.position)))
    if verdict is None:
        return False
    key = yield from offer(board_game, verdict)
    if key == "T":
        turn.undo()
        board_game.show_turn(turn)
    elif key == "U":
        turn.undo_all()
        board_game.show_turn(turn)
    return key is not None


# ---- the cube ----------------------------------------------------------------------------

class CubeCoach:
    """One cube question under the tutor: level 5's decision for the doubler on roll in
    `position` at `terms` (the doubler's), in a thread from the moment it is asked, in the
    review's units (money equities per unit of cube; EMG at a match score, in_emg), and the
    answers already warned of."""

    def __init__(self, position: Position, terms: MatchTerms, option: str) -> None:
        self.option = option
        self.warned: set = set()
        self.decision = Job(lambda: in_emg(normalized(
            evaluator.cube_decision(position, review.REVIEW_LEVEL, terms, shared()),
            terms.scale), terms))
        self.deeper = Job(lambda: in_emg(checking.deeper_cube_decision(
            position, terms, threads=check_threads()), terms))     # the check, ahead of time

    def verdict(self, kind: str) -> Verdict | None:
        """The warning the action `kind` ("double", "take", "drop") earns, checked at 3
        plies (a warning the check clears is not said), or None."""
        decision = self.decision.result()
        if decision is None or kind in self.warned:
            return None
        if not warning_mark(self.option, cube_loss(kind, decision)):
            return None
        decision = self.deeper.result()
        if decision is None:
            return None
        loss = cube_loss(kind, decision)
        mark = warning_mark(self.option, loss)
        if not mark:
            return None
        self.warned.add(kind)
        better = "Playing on" if kind == "double" and decision.too_good else \
            BETTER_ACTION[kind]
        return Verdict(mark, loss, better)


def cube_judge(board_game: Game, doubler: str) -> CubeCoach | None:
    """The coach of a typed cube action by or against `doubler`; None when the tutor is off."""
    option, state = board_game.table.settings.tutor, board_game.state
    if option == "off":
        return None
    return CubeCoach(state.held_for(doubler), state.match.terms(doubler), option)


def check_cube(board_game: Game, coach: CubeCoach | None, kind: str) -> Frames:
    """A typed cube action ("double", "take" or "drop"): the warning and the offer when it
    earns one. Returns True when it was taken back (T or U: the question stands again),
    False to keep it."""
    if coach is None:
        return False
    # frames go on while the decision and its 3-ply check are awaited
    verdict = yield from finished(Job(lambda: coach.verdict(kind)))
    if verdict is None:
        return False
    return (yield from offer(board_game, verdict)) is not None


def check_double(board_game: Game, doubler: str) -> Frames:
    """D typed for `doubler`: True when the tutor's warning had it taken back."""
    return (yield from check_cube(board_game, cube_judge(board_game, doubler), "double"))


class NoDoubleCoach:
    """A typed side about to roll when it may double: its not doubling judged as the
    review judges it (judge_no_double: the cheap screen, level 5 only when close), in a
    thread from the moment the roll is near (`terms` as CubeCoach's)."""

    def __init__(self, position: Position, terms: MatchTerms, option: str) -> None:
        self.option = option
        self.judgement = Job(lambda: self._judged(position, terms))

    def _judged(self, position: Position, terms: MatchTerms) -> tuple:
        """judge_no_double's (decision, loss), a loss the review would mark checked at 3
        plies (checking.deeper_cube_decision) at once, in the same thread, as the review
        charges it (so a quick ? that checks to ?? is warned of at the ?? option)."""
        decision, loss = judge_no_double(
            lambda level: evaluator.cube_decision(position, level, terms, shared()),
            terms, review.REVIEW_LEVEL)
        if not mark_for(loss):
            return decision, loss
        decision = checking.deeper_cube_decision(position, terms, threads=check_threads())
        return decision, cube_loss("no double", in_emg(decision, terms))

    def verdict(self) -> Verdict | None:
        """The warning rolling without a double earns, checked at 3 plies, or None: not
        doubling is right (too good to double included: "Playing on" is never the better
        action here)."""
        judged = self.judgement.result()
        if judged is None:
            return None
        loss = judged[1]
        mark = warning_mark(self.option, loss)
        return Verdict(mark, loss, BETTER_ACTION["no double"]) if mark else None


def no_double_judge(board_game: Game, side: str) -> NoDoubleCoach | None:
    """The coach of `side`'s roll, its judgement started, when the tutor is on, the side is
    typed and may double (Match.can_double: the one rule the review counts by too, so a
    dead cube is never judged); else None."""
    option, state = board_game.table.settings.tutor, board_game.state
    m = state.match
    if option == "off" or not state.typed[side] or not m.can_double(side):
        return None
    return NoDoubleCoach(state.held_for(side), m.terms(side), option)


def check_no_double(board_game: Game, coach: NoDoubleCoach | None) -> Frames:
    """A typed side rolls without doubling: the warning and the offer, before the dice are
    thrown, when level 5 would have doubled and the option warns of the loss. Returns True
    when D asks for the double after all, False to roll."""
    if coach is None or board_game.table.settings.tutor == "off":     # (turned off meanwhile)
        return False
    coach.option = board_game.table.settings.tutor
    yield from finished(coach.judgement)
    verdict = coach.verdict()
    if verdict is None:
        return False
    prompt = board_game.prompt
    prompt.board_clicks = {"cube": "d"}            # a click on the cube: D, as at the stop
    try:
        key = yield from offer(board_game, verdict, DOUBLE_OFFER, DOUBLE_INSTEAD_KEYS)
        return key is not None
    finally:
        prompt.board_clicks = {}


# ---- the warning on the screen -----------------------------------------------------------

def offer(board_game: Game, verdict: Verdict, words: str = OFFER,
          keys: tuple = TAKE_BACK_KEYS) -> Frames:
    """The warning on the message line, the offer (`words`) across the board; returns the
    key of `keys` pressed to take the choice back ("T" or "U"; "D" for a missed double), None
    when ENTER keeps it. The board is drawn again either way."""
    screen = board_game.table.screen
    if screen.cube and S.CUBE_ROW.get(S.cube_side(screen.cube[1])) in (
            OFFER_ROW, OFFER_ROW - S.CUBE_ROWS + 1):
        screen.clear_cube()                         # a centred cube would be cut in half
    screen.text(OFFER_ROW, 0, words.center(S.COLS), OFFER_ATTR)
    screen.text(S.MESSAGE_ROW, 0, verdict.words().ljust(S.COLS), MARK_ATTR[verdict.mark])
    board_game.table.basic.beep(*BAD_KEY)
    while True:
        key = yield from board_game.table.basic.inkey()
        char = key_char(key)
        if key == CODE_ENTER or char in keys:
            break
        board_game.table.basic.beep(*BAD_KEY)
    board_game.table.basic.beep(*CLICK)
    board_game.redraw()
    return None if key == CODE_ENTER else char
