"""Rollouts on the Spectrum screen: R on the advice page (A at "Your move?"), on the cube
advice page and on a review move page. A page to choose the play in the games (0-ply, the
quickest, 1- or 2-ply) and whether each game is cut short; the progress (games done, each
candidate's equity with its 95% interval, redrawn five times a second; any key stops it);
then the result (equity and interval, the chances or the cube actions). In a match the plays
roll out at the score they were ranked at (their games played and scored for the match, the
equities 2 x match winning chance - 1) and the cube actions at their match terms: on a review
page, the terms the review judged the decision at; the pages say the score and the units.
Generators (one yield = one frame). The rollout itself is game/model/rollout.py; the pages
before and after are the caller's."""
from __future__ import annotations

import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game import chances, commands
from game.analysis.cube_judgement import cube_verdict
from game.board import screen as S
from game.board.lines import fit, wrap
from game.commands import play_text
from game.errors import BackgammonError
from game.interfaces import Frames
from game.model import evaluator
from game.model.match_equity import Emg
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.rollout import (
    CUBE_ACTIONS,
    DEFAULT_TRIALS,
    LEVEL_PLIES,
    MAX_CANDIDATES,
    CandidateFigures,
    Estimate,
    Rollout,
    RolloutProgress,
    default_threads,
)
from game.model.rules import Play
from game.pages.menus import BAD_KEY, CLICK, PAGE, advice_screen, footer, text_screen, title_bar
from game.words import DEFAULT_NAMES
from game.zx.basic import CODE_ENTER, Basic

ROLL_KEYS = (ord("r"), ord("R"))
REDRAW_FRAMES = 10                    # the progress is read and drawn five times a second
CUT_PLIES = 10                        # T: each game cut after this many half-moves
DEPTH_KEYS = {ord("0"): 3, CODE_ENTER: 3, ord("1"): 4, ord("2"): 5}   # key: level
CUT_KEYS = (ord("t"), ord("T"))
BACK_KEYS = (ord("q"), ord("Q"))
NOTATION_WIDTH = commands.NOTATION_WIDTH
BAR_ROW, BAR_CELLS = 3, 30
FIRST_LINE_ROW = 6
BAR_FULL = S.attr(S.WHITE, S.BLUE, bright=True)
BAR_EMPTY = S.attr(S.BLACK, S.CYAN)
CUBE_LABELS = ("No double", "Double, take", "Double, pass")
CUBE_HEADER = f"{'Action':<13}Equity +-95%"
CUBE_MATCH_HEADER = f"{'Action':<13}{'EMG':>6}{'+-95%':>6}{'MWC':>7}"   # at a match score
MATCH_UNITS = "2 x match winning chance - 1."   # a match's equities, as the advice says them
NO_GAMES = "no games yet"             # in place of a figure before the first game ends
HELP_LINES = ("R on the advice page (A) or on",
              "the cube advice page rolls out",
              "the plays shown, or the cube:",
              f"{DEFAULT_TRIALS:,} games each with the same",
              "dice, the luck of each roll",
              "taken out. R on a review move",
              "page does the same for it.",
              "",
              "First: ENTER (or 0) plays the",
              "games at 0-ply, 1 or 2 deeper",
              "and slower; T cuts each game",
              f"at {CUT_PLIES} plies, the net judging.",
              "Any key stops it early.",
              "",
              "Result: each equity +- its 95%",
              "interval, each side's chances",
              "in %, and how far each play is",
              "from the first (vs 1st) on the",
              "same dice.")


@dataclass(frozen=True)
class RolloutJob:
    """What to roll out: plays from a position (their labels as the screen writes them), or
    CUBE_ACTIONS, at `terms` (the plays' mover's, or the side on roll's for the cube; a
    match score the match table cannot take is rolled out as money play, past_table);
    `names`: the two sides over the chances, the one on roll in `position` first."""
    position: Position
    candidates: tuple[Any, ...] | str        # the plays, or CUBE_ACTIONS
    labels: tuple[str, ...] = ()
    terms: MatchTerms = MONEY
    trials: int = DEFAULT_TRIALS
    names: tuple[str, str] = DEFAULT_NAMES

    @property
    def past_table(self) -> bool:
        return self.terms.past_table

    @property
    def match(self) -> MatchTerms | None:
        """The terms as rolled out when they are a match's (None: money play)."""
        judged = self.terms.judged
        return None if judged.money else judged

    @property
    def cube(self) -> bool:
        return isinstance(self.candidates, str) and self.candidates == CUBE_ACTIONS

    @property
    def emg(self) -> Emg | None:
        """The EMG the cube actions are shown in at a match score (None: money play)."""
        return Emg.at(self.terms)

    @property
    def seed(self) -> int:
        """The same decision rolls out on the same dice each time."""
        return zlib.crc32(self.position.position_id.encode("ascii"))


def plays_job(position: Position, plays: Sequence[Play], mover_is_human: bool = True,
              trials: int = DEFAULT_TRIALS,
              names: tuple[str, str] = DEFAULT_NAMES, terms: MatchTerms = MONEY) -> RolloutJob:
    """Plays from `position` (their mover on roll, first of `names`), rolled out at the
    mover's `terms`, the terms the page ranked them at."""
    labels = []
    for play in plays:
        words = play_text(play, mover_is_human)
        labels.append(words if len(words) <= NOTATION_WIDTH
                      else words[:NOTATION_WIDTH - 1] + "+")
    return RolloutJob(position, tuple(plays), tuple(labels), terms=terms, trials=trials,
                      names=names)


def cube_job(position: Position, terms: MatchTerms = MONEY, trials: int = DEFAULT_TRIALS,
             names: tuple[str, str] = DEFAULT_NAMES) -> RolloutJob:
    """The cube actions of the side on roll in `position` at its `terms` (Match.terms); a
    match score the match table cannot take is rolled out as money play, and the result
    page says so."""
    return RolloutJob(position, CUBE_ACTIONS, terms=terms, trials=trials, names=names)


# item: a verdicts.MoveReview or CubeReview, told apart by its kind (a str): Any
def review_job(item: Any, bottom: str, names: tuple[str, str] = DEFAULT_NAMES,
               trials: int = DEFAULT_TRIALS) -> RolloutJob | None:
    """A review page's decision: level 5's best plays of the roll with the play made among
    them (MAX_CANDIDATES at most), or the cube actions of the doubler at the terms the
    review judged them (item.terms: the match score, or money play for a cube of 1, the
    page's units); None for a forced move. `names`: the side on roll in item.before first."""
    if item.kind != "move":   # double or no double by item.side; take or drop by its opponent
        return cube_job(item.before, item.terms.per_unit(), trials=trials, names=names)
    if item.forced:
        return None
    # the plays A lists on the page, and the play made (listed under them if not among them)
    plays = [c.play for c in item.candidates][:MAX_CANDIDATES] or \
        [c.play for c in evaluator.ranked_plays(item.before, item.dice, commands.ADVICE_LEVEL,
                                                limit=MAX_CANDIDATES, terms=item.terms)]
    made = item.played.play
    if all(p.after != made.after for p in plays):
        plays = [*plays[:MAX_CANDIDATES - 1], made]   # the play made is always rolled out
    return plays_job(item.before, plays, item.side == bottom, trials, names, item.terms)


def depth_words(level: int, truncate: int) -> str:
    words = f"{LEVEL_PLIES[level]}-ply"
    return words + (f", cut at {truncate}" if truncate else "")


# ---- choosing ---------------------------------------------------------------------------

def choose(basic: Basic, job: RolloutJob) -> Frames:
    """The choice page: returns (level, truncate), or None for Q."""
    what = "the cube actions" if job.cube else f"the {len(job.candidates)} plays shown"
    truncate = 0
    basic.cls(PAGE)
    title_bar(basic, "ROLLOUT")
    lines = [f"Rolls out {what}:", f"{job.trials:,} games each, the same",
             "dice for every one, the luck of", "each roll taken out.", "",
             "Play in the games:", " 0  0-ply, the quickest", " 1  1-ply",
             " 2  2-ply, slow", ""]
    below = score_lines(job) + ([""] if job.past_table or job.match else [])
    below += [] if job.cube else choice_units(job)
    for row, line in [*enumerate(lines, start=2), *enumerate(below, start=15)]:
        basic.print_at(row, 0, line, PAGE)
    footer(basic, "ENTER/0 1 2 start T cut Q back")
    while True:
        basic.print_at(12, 0, f" T  cut each game at {CUT_PLIES} plies:".ljust(S.COLS), PAGE)
        basic.print_at(13, 0, f"    {'ON' if truncate else 'OFF'}".ljust(S.COLS), PAGE)
        key = yield from basic.inkey()
        if key in DEPTH_KEYS:
            basic.beep(*CLICK)
            return DEPTH_KEYS[key], truncate
        if key in CUT_KEYS:
            basic.beep(*CLICK)
            truncate = 0 if truncate else CUT_PLIES
        elif key in BACK_KEYS:
            basic.beep(*CLICK)
            return None
        else:
            basic.beep(*BAD_KEY)


# ---- the words of the pages -------------------------------------------------------------

def estimate_text(estimate: Estimate, width: int = 6) -> str:
    """"+0.182 +-0.021" (an interval under 0.01 with four places: "+-0.0012"); the interval
    left out until it is known, and "no games yet" in place of a mean not known (nan)."""
    if estimate.mean != estimate.mean:                  # nan: no game has ended
        return NO_GAMES.rjust(width)
    text = f"{estimate.mean:+.3f}".rjust(width)
    if estimate.interval == estimate.interval:          # not nan
        text += f" +-{estimate.interval:.{3 if estimate.interval >= 0.00995 else 4}f}"
    return text


def interval_text(interval: float) -> str:
    """A 95% interval in a narrow column: ".021", under 0.01 with four places ".0012";
    nothing when it is not known (nan)."""
    if interval != interval:
        return ""
    text = f"{interval:.{3 if interval >= 0.00995 else 4}f}"
    return text[1:] if text.startswith("0") else text


def cube_row(label: str, estimate: Estimate, emg: Emg | None) -> str:
    """A cube action's line under its header: money play its equity +- its interval
    (estimate_text); at a match score (`emg`: the side on roll's) its EMG, the interval in
    EMG and the match winning chance beside, as CUBE_MATCH_HEADER heads them (the rolled-out
    equities are 2 x MWC - 1)."""
    if emg is None:
        return f"{label:<13}{estimate_text(estimate)}"
    if estimate.mean != estimate.mean:                  # nan: no game has ended
        return f"{label:<13}{NO_GAMES:>12}"
    mwc = 50.0 * (estimate.mean + 1.0)
    return (f"{label:<13}{emg.of(estimate.mean):+6.3f}"
            f"{interval_text(emg.error(estimate.interval)):>6}{mwc:6.1f}%")


def chances_text(figures: CandidateFigures) -> str:
    """The rolled-out chances as game/chances.py prints a play's, under chances_header."""
    return chances.chances_line(figures.chances)


def progress_lines(job: RolloutJob, answer: RolloutProgress) -> list[str]:
    """Each candidate's equity so far (or, for the cube, each action's)."""
    if job.cube:
        if answer.cube is None:
            return [f"{label:<13}" for label in CUBE_LABELS]
        actions = (answer.cube.no_double, answer.cube.double_take, answer.cube.double_pass)
        return [cube_row(label, e, job.emg)
                for label, e in zip(CUBE_LABELS, actions, strict=True)]
    lines = []
    for rank, (label, figures) in enumerate(zip(job.labels, answer.candidates, strict=True),
                                            start=1):
        equity = estimate_text(figures.equity) if answer.has_games else ""
        lines.append(fit(f"{rank}. {label:<{NOTATION_WIDTH}} {equity}"))
    return lines


def games_line(answer: RolloutProgress) -> str:
    if answer.finished:
        return f"{answer.trials:,} games each"
    return f"Games {answer.trials_done:,} of {answer.trials:,} each"


def result_lines(job: RolloutJob, answer: RolloutProgress, level: int,
                 truncate: int) -> list[str]:
    """The result page's lines (under its title)."""
    head = [f"{games_line(answer)}, {depth_words(level, truncate)}"]
    if len(head[0]) > S.COLS:                # the games, then how they were played
        head = [f"{games_line(answer)},", depth_words(level, truncate).capitalize()]
    if not answer.has_games:             # stopped before the first game: no figure at all
        return [*head, "Stopped before the first game", f"ended: {NO_GAMES}."]
    if not answer.finished:
        head.append("Stopped early: the games done.")
    if job.cube:
        return head + cube_result_lines(job, answer, S.PAGE_LINES - len(head))
    lines = head + [chances.chances_header(job.names)]
    for rank, (line, figures) in enumerate(zip(progress_lines(job, answer),
                                               answer.candidates, strict=True), start=1):
        lines += [line, chances_text(figures)]
        if rank > 1:
            lines.append(fit(f"   vs 1st {estimate_text(figures.versus_first)}"))
    lines += plays_units(job)
    note = chances.chances_note()        # what the columns are: left out when it cannot fit
    return lines + note if len(lines) + len(note) <= S.PAGE_LINES else lines


def header(job: RolloutJob) -> str:
    """The columns' heads over progress_lines."""
    if job.cube:
        return CUBE_HEADER if job.emg is None else CUBE_MATCH_HEADER
    return f"   {'Play':<{NOTATION_WIDTH}} Equity +-95%"


def score_lines(job: RolloutJob) -> list[str]:
    """A cube rollout's match score, the side on roll (first of `names`) first, or why a
    match's was rolled out as money play; nothing in money play."""
    if job.past_table:
        return ["The score is past the match", "table: money play instead."]
    if job.match is None:
        return []
    terms = job.match
    return [f"Match to {terms.length}{', post-Crawford' if terms.crawford == 2 else ''}:",
            aways_line(job.names, terms.away_me, terms.away_opp)]


def aways_line(names: tuple[str, str], away_me: int, away_opp: int) -> str:
    """Each side's points to go at a match score, the side on roll (first of names) first."""
    first, second = (name[:7] for name in names)
    return f"{first} {away_me}-away, {second} {away_opp}-away"


def choice_units(job: RolloutJob) -> list[str]:
    """A plays rollout's units on its choice page."""
    if job.match is None:
        return ["Equity: points a game, no cube."]
    return ["Equity at the match score:", MATCH_UNITS]


def plays_units(job: RolloutJob) -> list[str]:
    """Under a plays rollout's result: its units, and at a match its score (three lines, as
    many as the money page's, so five plays still fit the page)."""
    if job.past_table:
        return [*score_lines(job), "Equity: points a game, no cube."]
    if job.match is None:
        return ["", "Equity +- its 95% interval, in", "points a game, no cube."]
    terms = job.match
    return [f"Equity +-95%{', post-Crawford,' if terms.crawford == 2 else ''} at",
            f"{aways_line(job.names, terms.away_me, terms.away_opp)}:", MATCH_UNITS]


def units_lines(job: RolloutJob) -> list[str]:
    """What a cube rollout's equities are: money points (cube included), or at the match
    score EMG with the match winning chance beside, as the cube advice and the review say
    them."""
    if job.emg is None:
        return ["Cube theory on the rolled-out", "chances (games played with no",
                "cube); equity in points a game."]
    return ["Cube theory on the rolled-out", "chances, no cube in the games.",
            "EMG: GNU Backgammon's units;", "MWC: the match winning chance."]


def cube_result_lines(job: RolloutJob, answer: RolloutProgress,
                      room: int = S.PAGE_LINES) -> list[str]:
    """A cube rollout's result under its head: the score, the chances, each action's equity
    (cube_row), the proper action and the units, in `room` lines (the chances' column note
    gives way first, as on a plays page)."""
    figures = answer.candidates[0]
    note = chances.chances_note()
    lines = [*score_lines(job), "", chances.chances_header(job.names), chances_text(figures),
             *note, "", header(job)]
    cube = answer.cube
    if cube is None:
        return lines + [NO_GAMES.capitalize()]
    lines += [cube_row(label, e, job.emg) for label, e in
              zip(CUBE_LABELS, (cube.no_double, cube.double_take, cube.double_pass),
                  strict=True)]
    lines += ["", f"Proper: {cube_verdict(cube)}.", "", *units_lines(job)]
    if len(lines) > room:
        at = lines.index(note[0])
        del lines[at:at + len(note)]
    return lines


# ---- running ----------------------------------------------------------------------------

def draw_progress(basic: Basic, job: RolloutJob, answer: RolloutProgress, rate: str) -> None:
    filled = -(-BAR_CELLS * answer.trials_done // max(1, answer.trials))   # a game: a cell
    basic.print_at(2, 0, games_line(answer).ljust(S.COLS), PAGE)
    basic.print_at(BAR_ROW, 1, " " * filled, BAR_FULL)
    basic.print_at(BAR_ROW, 1 + filled, " " * (BAR_CELLS - filled), BAR_EMPTY)
    for row, line in enumerate(progress_lines(job, answer), start=FIRST_LINE_ROW):
        basic.print_at(row, 0, line.ljust(S.COLS), PAGE)
    basic.print_at(FIRST_LINE_ROW + 7, 0, rate.ljust(S.COLS), PAGE)


def progress_page(basic: Basic, job: RolloutJob, level: int, truncate: int) -> None:
    basic.cls(PAGE)
    title_bar(basic, f"ROLLOUT {depth_words(level, truncate).upper()}")
    basic.print_at(FIRST_LINE_ROW - 1, 0, header(job), PAGE)
    for row, line in enumerate(("Same dice for every one; the",
                                "luck of each roll taken out."), start=FIRST_LINE_ROW + 9):
        basic.print_at(row, 0, line, PAGE)
    footer(basic, "Any key stops")


def run(basic: Basic, job: RolloutJob, level: int, truncate: int,
        threads: int | None = None) -> Frames:
    """The rollout with its progress page; any key stops it. Returns the answer (all the
    games, or those done when stopped); the rollout's threads have ended when it returns,
    also when the generator is closed midway (the window shut)."""
    rollout = Rollout()
    threads = threads or default_threads()
    progress_page(basic, job, level, truncate)
    basic.take_key()                                    # a key from before does not stop it
    try:
        rollout.start(job.position, job.candidates, job.trials, level, truncate, job.seed,
                      threads, terms=job.terms)
        frames, started = 0, time.monotonic()
        while True:
            if frames % REDRAW_FRAMES == 0:
                answer = rollout.progress()
                games = answer.trials_done * len(answer.candidates)
                rate = games / max(time.monotonic() - started, 1e-3)
                draw_progress(basic, job, answer, f"{threads} cores, {rate:.0f} games a second")
                if not answer.running:
                    return answer
            yield
            frames += 1
            if basic.take_key() is not None:
                basic.beep(*CLICK)
                return rollout.stop()
    finally:
        rollout.close()


def roll_out(basic: Basic, job: RolloutJob, threads: int | None = None) -> Frames:
    """R: the choice page, the rollout, the result page (ENTER leaves). The caller redraws.
    Returns the answer, or None (Q on the choice page, or the engine refused)."""
    chosen = yield from choose(basic, job)
    if chosen is None:
        return None
    level, truncate = chosen
    try:
        answer = yield from run(basic, job, level, truncate, threads)
    except BackgammonError as exc:
        basic.beep(*BAD_KEY)
        yield from text_screen(basic, "ROLLOUT", ["No rollout this time:", *wrap(str(exc))])
        return None
    yield from text_screen(basic, "ROLLOUT RESULT", result_lines(job, answer, level, truncate),
                           ink=chances.ink_of)
    return answer


# ---- the advice page with R --------------------------------------------------------------

def advice_with_rollout(basic: Basic, position: Position, dice: Sequence[int],
                        mover_is_human: bool = True, terms: MatchTerms = MONEY,
                        names: tuple[str, str] = DEFAULT_NAMES) -> Frames:
    """A at "Your move?": the ranked plays and the chances on the advice page (game/pages/menus.py
    advice_screen, `names` the mover's first), where R rolls the shown plays out (when there
    are two or more). The caller redraws."""
    basic.print_at(S.MESSAGE_ROW, 0, "Thinking...".ljust(S.COLS), S.MESSAGE)
    yield
    try:
        ranked = commands.ranked_candidates(position, dice, terms=terms)
    except BackgammonError:
        ranked = None                              # the page words the refusal
    more = ranked is not None and len(ranked) > 1
    key = yield from advice_screen(basic, position, dice, ranked, mover_is_human, terms, names,
                                   "ENTER back  R roll them out" if more else "Press ENTER",
                                   ROLL_KEYS if more else ())
    if key in ROLL_KEYS:   # at the score the plays were ranked at (past the table: money)
        # (the type: ignore: `more` holds only when ranked is not None)
        yield from roll_out(basic, plays_job(position, [c.play for c in ranked],  # type: ignore[union-attr]
                                             mover_is_human, names=names, terms=terms))

