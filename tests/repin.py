"""After a new net goes into native/evaluator.wts: the net-dependent tests' pins taken again and
their found cases checked, or searched for in GNU Backgammon self-play, as lines to paste. Not
a test nor a judge of the net: it writes no file, and every verdict is the tests' own functions'.

Run from the repo root: python tests/repin.py [--budget SECONDS] [--only STEP ...]"""
from __future__ import annotations

import argparse
import importlib.util
import pathlib
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
for folder in ("bench", "tests", ""):                  # tests/ first: its conftest, its helpers
    sys.path.insert(0, str(REPO / folder))

import cube_vs_gnubg as CV  # noqa: E402
import disputed_plays as DP  # noqa: E402
import review_records  # noqa: E402
import review_vs_gnubg as RV  # noqa: E402
from game.analysis import checking  # noqa: E402
from game.analysis import judge as review  # noqa: E402
from game.analysis.cube_judgement import judge_no_double  # noqa: E402
from game.analysis.judge import Reviewer  # noqa: E402
from game.analysis.replay import apply_play, replay, terms_at  # noqa: E402
from game.analysis.verdicts import BAD, DOUBTFUL, CubeReview  # noqa: E402
from game.matchfiles.imports import read_match_file  # noqa: E402
from game.model import evaluator, rollout  # noqa: E402
from game.model.match_terms import MatchTerms  # noqa: E402
from game.model.position import Position  # noqa: E402
from game.model.record import format_play  # noqa: E402
from gnubg_tools import run_gnubg_commands  # noqa: E402

MOVE_SEEDS = (48, 1150, 8803, 501, 1357, 8425)   # bench/review_vs_gnubg.py seeds, the cases' first
VOLATILE_SEEDS = (5701, 5702, 5703)                # bench/cube_vs_gnubg.py's working seeds
TOO_GOOD_TERMS = MatchTerms(1, 0, 7, 5, 4, 0)      # review_records.too_good_double's score


def load(relative: str):
    """A test module by its path (so two folders' names cannot clash)."""
    path = REPO / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Taken:
    """Stands in for a pinned value while its test runs: equal to whatever the test compares it
    with, and keeps each (a test that compares twice must get the same value twice)."""
    __hash__ = None

    def __init__(self) -> None:
        self.seen: list = []

    def __eq__(self, other) -> bool:
        self.seen.append(other)
        return True

    def value(self):
        if not self.seen or any(v != self.seen[0] for v in self.seen):
            raise LookupError("the test compared nothing, or two different values")
        return self.seen[0]


def holds(test, *args, patches=()) -> bool:
    """Whether `test(*args)` passes with (module, name, value) `patches` in place."""
    with pytest.MonkeyPatch.context() as mp:
        for module, name, value in patches:
            mp.setattr(module, name, value)
        try:
            test(*args)
        except (AssertionError, StopIteration, LookupError):
            return False
    return True


def scratch() -> pathlib.Path:
    return pathlib.Path(tempfile.mkdtemp(prefix="repin-"))


# ---- the pins ------------------------------------------------------------------------------

EVAL_BITS = ("PINNED_WEIGHTS", "PINNED_SHA256", "PINNED_CUBE", "PINNED_CUBE_FROM_PROBS",
             "PINNED_CUBE_LEVEL5", "PINNED_ROLLOUT", "PINNED_ROLLOUT_REPEATS", "PINNED_USR")


def eval_bits_pins(out: list, missing: list) -> None:
    """tests/native/test_eval_bits.py: every test run with its pins set to stand-ins."""
    B = load("tests/native/test_eval_bits.py")
    # the pins by their names, read before stand-ins take their place
    old = {name: getattr(B, name) for name in (*EVAL_BITS, "PINNED_RANK")}
    taken = {name: Taken() for name in EVAL_BITS}
    ranks = {key: Taken() for key in B.PINNED_RANK}
    for name, stand_in in taken.items():
        setattr(B, name, stand_in)
    B.PINNED_RANK = ranks
    tests = [B.test_the_shipped_net_judges_a_fixed_set_of_positions_to_the_pinned_bits,
             B.test_cube_decisions_at_money_and_match_scores_are_the_pinned_bits,
             B.test_level5_cubeful_search_decisions_are_the_pinned_bits,
             B.test_the_cube_theory_on_fixed_chances_is_the_pinned_bits,
             B.test_seeded_rollouts_at_money_and_match_scores_are_the_pinned_bits,
             B.test_rollouts_meeting_each_first_roll_many_times_are_the_bits_pinned_before_sharing,
             B.test_the_usr_doors_best_rank_and_cube_answers_are_the_pinned_bits]
    for test in tests:
        say(f"  {test.__name__}")
        test()
    for level, terms in ranks:
        B.test_rankings_at_money_and_match_scores_are_the_pinned_bits(level, terms)
    out.append("# tests/native/test_eval_bits.py")
    for name, stand_in in taken.items():
        try:
            value = stand_in.value()
        except LookupError:
            missing.append(name)
            continue
        text = f"0x{value:08X}" if isinstance(value, int) else f'"{value}"'
        same = "  # unchanged: the net does not enter" if value == old[name] else ""
        out.append(f"{name} = {text}{same}")
    scores = {terms: f"SCORES[{k}]" for k, terms in enumerate(B.SCORES)} | {B.MONEY: "MONEY"}
    out.append("PINNED_RANK = {")
    for (level, terms), stand_in in ranks.items():
        try:
            out.append(f'    ({level}, {scores[terms]}): "{stand_in.value()}",')
        except LookupError:
            missing.append(f"PINNED_RANK[{level}, {scores[terms]}]")
    out.append("}")


def money_pins(out: list, missing: list) -> None:
    """tests/game/pages/test_rollout_match.py's MONEY_PINS, its test run with stand-ins."""
    R = load("tests/game/pages/test_rollout_match.py")
    out += ["", "# tests/game/pages/test_rollout_match.py", "MONEY_PINS = ["]
    for options, trials, *_ in R.MONEY_PINS:
        equity, win, se = Taken(), Taken(), Taken()
        try:
            R.test_money_rollouts_are_the_same_bits_as_before_the_match_mode(
                options, trials, equity, win, se)
            figures = [stand_in.value() for stand_in in (equity, win, se)]
        except (AssertionError, LookupError):
            missing.append(f"MONEY_PINS {options}")
            continue
        finally:
            rollout.stop_all()
        words = ", ".join(f"{k}={v!r}" for k, v in options.items())
        out.append(f"    (dict({words}), {trials},")
        out += [f"     {[*column]!r}{',' if k < 2 else '),'}" for k, column in enumerate(figures)]
    out.append("]")


def money_summary(out: list, missing: list) -> None:
    """tests/game/analysis/test_review_emg.py's MONEY_SUMMARY."""
    M = load("tests/game/analysis/test_review_emg.py")
    M.MONEY_SUMMARY = Taken()
    M.test_money_play_reviews_exactly_as_before_issue_48()
    try:
        text = M.MONEY_SUMMARY.value()
    except LookupError:
        missing.append("MONEY_SUMMARY")
        return
    out += ["", "# tests/game/analysis/test_review_emg.py", f'MONEY_SUMMARY = """\\\n{text}"""']


# ---- GNU Backgammon's self-play decisions ----------------------------------------------------

@dataclass
class Decision:
    position_id: str
    dice: tuple
    words: str                   # our words of the play made (format_play, as the tests name it)
    terms: MatchTerms
    source: str                  # where it came from, for the comment


def selfplay_decisions(bench_seed: int, matches: int = 3):
    """Every unforced play of the 7-point matches bench/review_vs_gnubg.py --seed plays (its
    gnubg script up to the saved match: no analysis), with the terms the mover had."""
    rng = random.Random(bench_seed)
    for k in range(matches):
        noise, seed = rng.uniform(*RV.NOISE), rng.randrange(1, 10 ** 6)
        folder = str(scratch())
        lines = RV.gnubg_script(7, seed, noise, 2, folder, 0)
        lines = lines[:lines.index(f"save match {folder}/played.sgf") + 1]
        CV.run_gnubg(lines, folder)
        imported = read_match_file(f"{folder}/played.sgf")
        source = f"bench/review_vs_gnubg.py seed {bench_seed}'s match {k + 1}"
        say(f"  searching {source}")
        for game in imported.games:
            for turn in replay(imported.record, game):
                if turn.action.kind != "move" or len({p.after for p in turn.legal}) < 2:
                    continue
                after = apply_play(turn.before, turn.action.play)
                play = next(p for p in turn.legal if p.after == after)
                yield Decision(turn.before.position_id, tuple(turn.action.dice),
                               format_play(play.steps),
                               terms_at(imported.record, game, turn, turn.action.side), source)


def terms_code(t: MatchTerms) -> str:
    return (f"MatchTerms({t.cube_value}, {t.cube_owner}, {t.length}, {t.away_me}, {t.away_opp}, "
            f"{t.crawford})")


def terms_words(t: MatchTerms) -> str:
    cube = ("the cube centred" if t.cube_owner == 0 else
            f"the cube on {t.cube_value} and the {'mover' if t.cube_owner == 1 else 'opponent'}'s")
    if not t.length:
        return f"money, {cube}"
    return f"{t.length}-point match, {t.away_me}-away against {t.away_opp}-away, {cube}"


def gnubg_play_lines(d: Decision, hint: int = 20) -> list:
    """gnubg's commands for a 2-ply hint of the decision, as the tests' GNUBG_ lists write them."""
    t = d.terms
    lines = ["set player 0 human", "set player 1 human", f"new match {t.length}"]
    if (t.away_me, t.away_opp) != (t.length, t.length):
        lines.append(f"set score {t.length - t.away_opp} {t.length - t.away_me}")
    lines.append("set turn 1")
    if t.cube_value > 1:
        lines += [f"set cube value {t.cube_value}", f"set cube owner {t.cube_owner % 2}"]
    return lines + [f"set board {d.position_id}", f"set dice {d.dice[0]}{d.dice[1]}",
                    "set output mwc off", "set evaluation chequerplay evaluation plies 2",
                    "set evaluation movefilter 2 0 20 0 2.0",
                    "set evaluation movefilter 2 1 -1 0 0.0", f"hint {hint}"]


def gnubg_words(d: Decision, lines: list) -> str | None:
    """How gnubg writes the decision's play in its hint (None: not among the plays it lists);
    plays matched by their net movement (bench/disputed_plays.signature)."""
    _, said = run_gnubg_commands(scratch(), lines)
    ours = DP.signature(d.words)
    for words in re.findall(r"^\s*\d+\. Cubeful 2-ply\s+(.+?)\s+Eq\.:", said, re.M):
        if DP.signature(words) == ours:
            return words
    return None


# ---- the found cases of test_checked_errors.py ----------------------------------------------

class MoveCases:
    """The checked-errors cases, each looked for among the decisions while it is wanted."""

    def __init__(self, T) -> None:
        self.T, self.found, self.lines, self.said = T, {}, [], set()
        self.pages = load("tests/game/pages/test_lines_fit.py")    # TOO_GOOD_ON_THE_PAGE

    def wanted(self) -> set:
        return {"CLEARED", "ROLLED", "LATE_ROLLED", "CUBE_CLEARED", "TOO_GOOD_BY_THE_NET"} - set(
            self.found)

    def pinned(self) -> None:
        """Keep each pinned case whose tests still pass with the net in place."""
        T = self.T
        if holds(T.test_a_play_the_check_clears_is_not_marked, T.quick_item(*T.CLEARED)) and \
                holds(T.test_the_tutor_says_nothing_of_a_warning_the_check_clears):
            self.found["CLEARED"] = None
        if holds(T.test_a_3_ply_error_near_the_lines_is_rolled_out_and_the_rollout_clears_it_as_gnubg_does,  # noqa: E501
                 scratch()):
            self.found["ROLLED"] = None
            if self._late_holds({}):
                self.found["LATE_ROLLED"] = None
        if holds(T.test_a_cube_action_the_check_clears_is_not_marked):
            self.found["CUBE_CLEARED"] = None
        if holds(T.test_a_cube_action_the_3_ply_check_still_charges_is_rolled_out_nearer_gnubg,
                 scratch()):
            self.found["TOO_GOOD_BY_THE_NET"] = None
        for name in self.found:
            say(f"  {name}: the pinned case still holds")

    def _late_holds(self, patches: dict) -> bool:
        with pytest.MonkeyPatch.context() as mp:
            return holds(self.T.test_a_play_charged_the_roll_line_or_more_is_rolled_out_with_no_3_ply_step_first,  # noqa: E501
                         mp, patches=[(self.T, k, v) for k, v in patches.items()])

    def look(self, d: Decision) -> None:
        T, want = self.T, self.wanted()
        for name in set(self.found) - self.said:
            say(f"  found {name}")
            self.said.add(name)
        case = (d.position_id, d.dice, d.words, d.terms)
        if want & {"CLEARED", "ROLLED", "LATE_ROLLED"}:
            quick = T.quick_item(*case, cubeful=True)
            if "CLEARED" in want:
                self.cleared(case, d)
            if "ROLLED" in want and quick.loss >= checking.ROLL_LINE and not d.terms.crawford:
                self.rolled(case, d, quick)
            elif "LATE_ROLLED" in want and "ROLLED" not in want and \
                    checking.CHECK_LINE < quick.loss < checking.ROLL_LINE:
                self.late(case, d, quick)
        if "CUBE_CLEARED" in want:
            self.cube_cleared(d)
        if "TOO_GOOD_BY_THE_NET" in want:
            self.too_good(d)

    def cleared(self, case, d: Decision) -> None:
        T, quick = self.T, self.T.quick_item(*case)
        if quick.mark != "?" or not checking.wants_check(quick):
            return
        checked = checking.check_move(quick)
        if checked.mark or not holds(T.test_a_play_the_check_clears_is_not_marked, quick) or \
                not holds(T.test_the_tutor_says_nothing_of_a_warning_the_check_clears,
                          patches=[(T, "CLEARED", case)]):
            return
        self.found["CLEARED"] = case
        self.lines += [
            f"# {terms_words(d.terms)}: {d.words} with {d.dice[0]}{d.dice[1]} is charged "
            f"{quick.loss:.3f} EMG by level 5 and {checked.loss:.3f} at 3 plies (the best: "
            f"{checked.best.words}); {d.source}",
            f'CLEARED = ("{d.position_id}", {d.dice}, "{d.words}", {terms_code(d.terms)})']

    def rolled(self, case, d: Decision, quick) -> None:
        T = self.T
        checked = checking.check_move(quick)
        if checked.mark != "?" or not checking.wants_roll(checked):
            return
        lines = gnubg_play_lines(d)
        words = gnubg_words(d, lines)
        if words is None:
            return
        gnubg = T.gnubg_2_ply_error(scratch(), lines, words)
        if gnubg >= checking.ROLL_LINE:
            return
        patches = [(T, "ROLLED", case), (T, "GNUBG_ROLLED", lines),
                   (T, "GNUBG_ROLLED_WORDS", words)]
        if not holds(T.test_a_3_ply_error_near_the_lines_is_rolled_out_and_the_rollout_clears_it_as_gnubg_does,  # noqa: E501
                     scratch(), patches=patches):
            return
        self.found["ROLLED"] = (case, lines, words)
        listed = ",\n                ".join(f'"{line}"' for line in lines)
        self.lines += [
            f"# {terms_words(d.terms)}: {d.words} with {d.dice[0]}{d.dice[1]} is charged "
            f"{quick.loss:.3f} EMG by level 5 and {checked.loss:.3f} by the cubeful 3-ply check "
            f"(a ?; the best by the check: {checked.best.words}); GNU Backgammon 1.07 at 2 plies "
            f"charges it {gnubg:.3f} ({words}). {d.source}",
            f'ROLLED = ("{d.position_id}", {d.dice}, "{d.words}", {terms_code(d.terms)})',
            f"GNUBG_ROLLED = [{listed}]",
            f'GNUBG_ROLLED_WORDS = "{words}"          # our {d.words} as GNU Backgammon writes it']

    def late(self, case, d: Decision, quick) -> None:
        checked = checking.check_move(quick)
        if not checking.wants_roll(checked):
            return
        patches = {"LATE_ROLLED": case}
        if self.found.get("ROLLED"):
            rolled, lines, words = self.found["ROLLED"]
            patches |= {"ROLLED": rolled, "GNUBG_ROLLED": lines, "GNUBG_ROLLED_WORDS": words}
        if not self._late_holds(patches):
            return
        self.found["LATE_ROLLED"] = case
        self.lines += [
            f"# {terms_words(d.terms)}: {d.words} with {d.dice[0]}{d.dice[1]} is charged "
            f"{quick.loss:.3f} EMG by level 5, under ROLL_LINE, and {checked.loss:.3f} by the "
            f"cubeful 3-ply check, over it; {d.source}",
            f'LATE_ROLLED = ("{d.position_id}", {d.dice}, "{d.words}", {terms_code(d.terms)})']

    def cube_cleared(self, d: Decision) -> None:
        T, terms = self.T, replace_cube(d.terms)
        if terms is None:
            return
        decision, loss = judge_no_double(
            lambda level: evaluator.cube_decision(d.position_id, level, terms), terms,
            review.REVIEW_LEVEL)
        item = CubeReview(1, "human", "no double", Position.from_id(d.position_id), decision,
                          "", loss, terms, 1)
        if item.mark != "?":
            return
        checked = checking.check_cube(item)
        if not holds(T.test_a_cube_action_the_check_clears_is_not_marked,
                     patches=[(T, "CUBE_CLEARED", (d.position_id, terms))]):
            return
        self.found["CUBE_CLEARED"] = d
        self.lines += [
            f"# {terms_words(terms)}: not doubling is charged {loss:.3f} EMG by level 5 (its "
            f"2-ply cubeful search), {checked.loss:.3f} by the check (the 3-ply cubeful search); "
            f"{d.source}",
            f'CUBE_CLEARED = ("{d.position_id}", {terms_code(terms)})']

    def too_good(self, d: Decision) -> None:
        T, pid = self.T, d.position_id
        if not evaluator.cube_decision(pid, 3, TOO_GOOD_TERMS).too_good:
            return
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(review_records, "TOO_GOOD_BY_THE_NET", pid)
            quick = Reviewer(review_records.too_good_double(), checked=False).run()
            if quick.items[0].loss <= DOUBTFUL:
                return
            searched = checking.check_cube(quick.items[0])
            if searched.loss <= BAD or not searched.proper.startswith("Too good"):
                return
            lines = [f"set board {pid}" if line.startswith("set board") else line
                     for line in T.GNUBG_TOO_GOOD]
            mp.setattr(T, "GNUBG_TOO_GOOD", lines)
            gnubg = T.gnubg_cube_equities(scratch())
            if not gnubg["No double"] < gnubg["Double, pass"] < gnubg["Double, take"]:
                return
            if not holds(T.test_a_cube_action_the_3_ply_check_still_charges_is_rolled_out_nearer_gnubg,  # noqa: E501
                         scratch(), patches=[(T, "TOO_GOOD_BY_THE_NET", pid)]):
                return
        self.found["TOO_GOOD_BY_THE_NET"] = d
        figures = ", ".join(f"{k.lower()} {v:+.3f}" for k, v in gnubg.items())
        self.lines += [
            "# (tests/review_records.py) a 7-point match, the roller 5-away and its opponent "
            f"4-away, the cube centred: our 3-ply check calls it {searched.proper.lower()} "
            f"(the double charged {searched.loss:.3f} EMG); GNU Backgammon 1.07 at 2 plies: "
            f"{figures}; {d.source}",
            f'TOO_GOOD_BY_THE_NET = "{pid}"']


def replace_cube(t: MatchTerms) -> MatchTerms | None:
    """The decision's terms, cube centred, where the mover may double (None where not)."""
    if t.crawford == 1 or t.cube_value != 1:
        return None
    return MatchTerms(1, 0, t.length, t.away_me, t.away_opp, t.crawford)


def checked_errors(out: list, missing: list, budget: float) -> None:
    T = load("tests/game/analysis/test_checked_errors.py")
    cases = MoveCases(T)
    say("checked errors: the pinned cases")
    cases.pinned()
    deadline = time.monotonic() + budget
    for bench_seed in MOVE_SEEDS:
        for d in selfplay_decisions(bench_seed):
            if not cases.wanted() or time.monotonic() > deadline:
                break
            cases.look(d)
        if not cases.wanted() or time.monotonic() > deadline:
            break
    for name, test in (("CONFIRMED", T.test_the_checked_error_is_the_3_ply_judgement_of_the_best_and_the_play_made),  # noqa: E501
                       ("WIDE, HUGE", T.test_a_large_error_is_rolled_out_cut_as_any_other_and_comes_nearer_gnubg)):  # noqa: E501
        args = ((T.quick_item(*T.CONFIRMED),) if name == "CONFIRMED" else None)
        params = [args] if args else [(scratch(), *p) for p in ((T.WIDE, T.GNUBG_WIDE, "24/16"),
                                                                (T.HUGE, T.GNUBG_HUGE, "8/6 8/3"))]
        if not all(holds(test, *a) for a in params):
            missing.append(f"{name} (no search for it here)")
    # the review page's too-good record (a plain list for its `cuts` fixture)
    if not holds(cases.pages.test_a_cube_page_whose_proper_action_is_too_good_fits, []):
        missing.append("TOO_GOOD_ON_THE_PAGE (no search for it here)")
    out += ["", "# tests/game/analysis/test_checked_errors.py (tests/review_records.py for "
            "TOO_GOOD_BY_THE_NET)"]
    for name in sorted(cases.found):
        if cases.found[name] is None:
            out.append(f"# {name}: the pinned case still holds")
    out += cases.lines
    missing += sorted(cases.wanted())


# ---- the tutor's opening and test_cubeful's VOLATILE -----------------------------------------

def tutor_roll(out: list, missing: list) -> None:
    """The human's opening roll with plays of every mark (the pinned one first)."""
    U = load("tests/game/scenes/test_tutor.py")
    rolls = [U.HUMAN_ROLL] + [(a, b) for a in range(6, 1, -1) for b in range(a - 1, 0, -1)
                              if (a, b) != U.HUMAN_ROLL]
    for roll in rolls:
        say(f"  tutor: opening {roll}")
        marked = U.opening_by_mark(roll)
        if len(marked[""]) < 2 or not marked["?"] or not marked["??"]:
            continue
        if holds(U.test_the_tutors_loss_is_the_3_ply_check_the_review_makes_of_the_same_play,
                 marked, patches=[(U, "HUMAN_ROLL", roll)]):
            losses = "; ".join(f"{mark or 'unmarked'} {', '.join(f'{x:.3f}' for _, x in plays)}"
                               for mark, plays in marked.items())
            out += ["", "# tests/game/scenes/test_tutor.py" + (
                " (the pinned roll holds)" if roll == U.HUMAN_ROLL else ""),
                f"# the opening {roll[0]}-{roll[1]}'s losses by mark: {losses}",
                f"HUMAN_ROLL = {roll}"]
            return
    missing.append("test_tutor HUMAN_ROLL")


def gnubg_money_cube(pid: str) -> dict:
    """GNU Backgammon's (no double, double/take) at money, centred cube, at 2 and 3 plies."""
    lines = ["set jacoby off", "set beavers 0", "set output mwc off", "set player 0 human",
             "set player 1 human"]
    for plies in (2, 3):
        lines += [f"set evaluation cubedecision evaluation plies {plies}",
                  f"set matchid {CV.match_id(MatchTerms())}", f"set board {pid}", "hint"]
    said, _ = CV.run_gnubg(lines, str(scratch()))
    return {plies: (j.nd, j.dt) for plies, j in zip((2, 3), CV.parse_hints(said), strict=True)}


def volatile(out: list, missing: list, budget: float) -> None:
    C = load("tests/game/model/test_cubeful.py")
    test = C.test_the_3ply_cubeful_search_comes_nearer_gnubg_than_2ply_on_a_volatile_position
    if holds(test):
        out += ["", "# tests/game/model/test_cubeful.py: VOLATILE still holds"]
        return
    deadline = time.monotonic() + budget
    for seed in VOLATILE_SEEDS:
        say(f"  VOLATILE: gnubg self-play seed {seed}")
        for pid in dict.fromkeys(CV.self_play_positions(seed, str(scratch()))):
            if time.monotonic() > deadline:
                break
            if not CV.WIN_BAND[0] <= evaluator.evaluate(pid, 0).win <= CV.WIN_BAND[1]:
                continue
            two = evaluator.cube_decision(pid, 5)
            if two.double:
                continue
            three = evaluator.cube_decision(pid, 5, search=C.THREE_PLY)
            if abs(three.no_double_equity - two.no_double_equity) <= 0.02 or \
                    abs(three.double_take_equity - two.double_take_equity) <= 0.02:
                continue
            gnubg = gnubg_money_cube(pid)
            if holds(test, patches=[(C, "VOLATILE", pid), (C, "GNUBG_VOLATILE", gnubg)]):
                out += ["", "# tests/game/model/test_cubeful.py",
                        f"# (gnubg self-play seed {seed}): GNU Backgammon 1.07's `hint` at "
                        f"money, centred cube, says no double, its (no double, double/take) "
                        f"{gnubg[2][0]:+.3f} {gnubg[2][1]:+.3f} at 2 plies and {gnubg[3][0]:+.3f} "
                        f"{gnubg[3][1]:+.3f} at 3 plies; ours {two.no_double_equity:+.3f} "
                        f"{two.double_take_equity:+.3f} (2-ply), {three.no_double_equity:+.3f} "
                        f"{three.double_take_equity:+.3f} (3-ply)",
                        f'VOLATILE = "{pid}"', f"GNUBG_VOLATILE = {gnubg}"]
                return
    missing.append("VOLATILE")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=300,
                    help="seconds the checked-errors search may take (default 300); "
                    "VOLATILE's a third of it")
    steps = {"eval_bits": eval_bits_pins, "money_pins": money_pins,
             "money_summary": money_summary, "tutor": tutor_roll,
             "volatile": lambda out, missing: volatile(out, missing, args.budget / 3),
             "checked_errors": lambda out, missing: checked_errors(out, missing, args.budget)}
    ap.add_argument("--only", nargs="+", choices=sorted(steps), default=sorted(steps),
                    help="these steps alone (default: all)")
    args = ap.parse_args(argv)
    started = time.monotonic()
    evaluator.ensure_loaded()
    out: list[str] = [f"# repin: {evaluator.WEIGHTS_PATH}"]
    missing: list[str] = []
    for name, step in steps.items():
        if name in args.only:
            say(f"{name} ({time.monotonic() - started:.0f} s)")
            step(out, missing)
    print("\n".join(out))
    say(f"repin: {time.monotonic() - started:.0f} s")
    if missing:
        print(f"repin: could not find: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
