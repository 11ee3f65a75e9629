"""Checked errors (game/analysis/checking.py, issue 58): the CHECKED review judges every error
over the ? line again at 3 plies before it charges it, the QUICK review charges as before, the
page says how each was checked, the .sgf carries the checked values, and the tutor checks its
warning the same way. Positions are gnubg position IDs from a match GNU Backgammon played
against itself (bench/review_vs_gnubg.py seed 48; ROLLED and LATE_ROLLED seed 1150's), with
the play and the terms they had."""

import re
import threading
import time

import pytest

from game.analysis import checking
from game.analysis import judge as review
from game.analysis.cube_judgement import judge_no_double
from game.analysis.judge import Reviewer, judged_play, judged_turn
from game.analysis.verdicts import BAD, DOUBTFUL, Check, CubeReview, MoveReview
from game.errors import BackgammonError
from game.files.settings import Settings, load_settings
from game.matchfiles import sgf
from game.model import evaluator, rules
from game.model.match import COMPUTER, HUMAN
from game.model.match_equity import Emg
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.record import MatchRecord, format_play
from game.model.search_settings import SearchSettings
from game.pages.review_pages import figures_lines, headline, message_lines
from game.scenes import tutor
from gnubg_tools import run_gnubg_commands
from review_records import FEW_GAMES, TOO_GOOD_BY_THE_NET, first_turns, played_out, too_good_double

# 7-point match, 3-away against 7-away, the cube on 2 and the opponent's: 9/4 20/18 with 52 is
# charged 0.054 EMG by level 5 and nothing at 3 plies (the best by the check: this play);
# bench/review_vs_gnubg.py seed 48's match 1, found for net48 by tests/repin.py (net44's
# case, tykAgDvc2w0AQA bar/21 6/4 with 42, no longer holds)
CLEARED = ("NmYhADds2xYABQ", (5, 2), "9/4 20/18", MatchTerms(2, 2, 7, 3, 7, 0))
# 7-away against 3-away, the cube on 2 and the mover's: 6/2 2/1 with 41, 0.276 EMG, kept
CONFIRMED = ("vLcdAAB3YwAEOg", (4, 1), "6/2 2/1", MatchTerms(2, 1, 7, 7, 3, 0))


def play_named(position_id, dice, words):
    return next(p for p in rules.legal_plays(Position.from_id(position_id), dice)
                if format_play(p.steps) == words)


# 7-point match, 5-away against 7-away, the cube on 2 and the opponent's: 13/9 9/6 with 43 is
# charged 0.034 EMG by level 5 and 0.049 by the cubeful 3-ply check (a ?; the best by the check:
# 9/5 8/5); GNU Backgammon 1.07 at 2 plies charges it 0.018 (13/6). bench/review_vs_gnubg.py
# seed 1150's match 3, found for net52 by tests/repin.py (net48's, f28AAChsW1sAAQ 8/4 8/7 with
# 41, no longer holds)
ROLLED = ("C/cSASiYZxsHAA", (4, 3), "13/9 9/6", MatchTerms(2, 2, 7, 5, 7, 0))
GNUBG_ROLLED = ["set player 0 human",
                "set player 1 human",
                "new match 7",
                "set score 0 2",
                "set turn 1",
                "set cube value 2",
                "set cube owner 0",
                "set board C/cSASiYZxsHAA",
                "set dice 43",
                "set output mwc off",
                "set evaluation chequerplay evaluation plies 2",
                "set evaluation movefilter 2 0 20 0 2.0",
                "set evaluation movefilter 2 1 -1 0 0.0",
                "hint 20"]
GNUBG_ROLLED_WORDS = "13/6"          # our 13/9 9/6 as GNU Backgammon writes it


# 7-point match, 5-away against 7-away, the cube on 2 and the mover's: 6/3 4/2 with 32 is charged
# 0.019 EMG by level 5, under ROLL_LINE, and 0.028 by the cubeful 3-ply check, over it;
# bench/review_vs_gnubg.py seed 8803's match 1 (net52; repin.py)
LATE_ROLLED = ("s9tBCgC3OwcAEA", (3, 2), "6/3 4/2", MatchTerms(2, 1, 7, 5, 7, 0))


def quick_item(position_id, dice, words, terms, cubeful=False) -> MoveReview:
    """The MoveReview the QUICK review makes of the play (judge.Reviewer._move's way; the
    cube in play: `cubeful`)."""
    before = Position.from_id(position_id)
    ranked = evaluator.ranked_plays(before, dice, review.REVIEW_LEVEL, terms=terms)
    play = play_named(position_id, dice, words)
    choices, played, loss = judged_turn(ranked, play.after, terms, words, cubeful=cubeful)
    return MoveReview(1, "human", dice, before, played, choices[0], choices, loss, 0.0, False,
                      terms=terms, emg=Emg.at(terms), cubeful=cubeful)


@pytest.fixture(scope="module")
def cleared():
    return quick_item(*CLEARED)


@pytest.fixture(scope="module")
def confirmed():
    return quick_item(*CONFIRMED)


def test_a_play_the_check_clears_is_not_marked(cleared):
    assert cleared.mark == "?" and checking.wants_check(cleared)
    checked = checking.check_move(cleared)
    assert checked.mark == "" and checked.loss <= DOUBTFUL
    assert checked.check == Check(3, -checked.loss, cleared.loss) and checked.check.cleared


def test_the_checked_error_is_the_3_ply_judgement_of_the_best_and_the_play_made(confirmed):
    checked = checking.check_move(confirmed)
    plays = [c.play for c in checking.checked_plays(confirmed)]
    assert plays[0].after == confirmed.best.play.after
    assert plays[-1].after == confirmed.played.play.after
    judged = evaluator.judge_plays([p.after for p in plays], 3, confirmed.terms)
    best = max(e for e, _ in judged)
    assert checked.loss == pytest.approx(Emg.at(confirmed.terms).error(best - judged[-1][0]))
    assert checked.mark == "??" and checked.best.ply == 3 and checked.played.ply == 3
    assert checked.best.equity == pytest.approx(best)


def test_judge_plays_at_2_plies_is_the_rankings_own_judgement():
    position_id, dice, _, terms = CONFIRMED
    ranked = evaluator.ranked_plays(position_id, dice, review.REVIEW_LEVEL, terms=terms)
    deep = [c for c in ranked if c.ply == 2]
    assert len(deep) >= 2
    judged = evaluator.judge_plays([c.play.after for c in deep], 2, terms)
    assert [e for e, _ in judged] == pytest.approx([c.equity for c in deep], abs=1e-6)


def test_the_move_page_says_how_each_was_checked(cleared, confirmed):
    for item in (checking.check_move(cleared), checking.check_move(confirmed)):
        lines = message_lines(item, "human")
        assert len(lines) == 2 and len(lines[0]) <= 28 and len(lines[1]) <= 32
        # 0.0 - loss: a play the check clears entirely shows +0.000, never -0.000
        assert lines[0] == f"checked {0.0 - item.loss:+.3f} (was {-item.check.quick:+.3f})"
    assert len(message_lines(cleared, "human")) == 1          # not checked: the detail alone


def test_a_rollout_whose_difference_is_within_its_own_noise_charges_nothing():
    """A rollout check that cannot tell the play made from the best (their difference within
    its own 95% interval) proves no error: nothing is charged and nothing marked, the page
    says "no error" with the rolled-out best and the figures it measured; one outside its
    interval charges what it measured."""
    noise = Check(3, -0.046, 0.05, games=324, interval=0.052, unproven=True)
    assert noise.charged == 0.0 and noise.cleared
    proven = Check(3, -0.046, 0.05, games=324, interval=0.019)
    assert proven.charged == pytest.approx(0.046) and not proven.cleared   # over the ? line
    quick = quick_item(*ROLLED, cubeful=True)
    best = next(c for c in quick.candidates if c.play.after != quick.played.play.after)
    item = MoveReview(1, "human", quick.dice, quick.before, quick.played, best,
                      quick.candidates, 0.0, 0.0, False, terms=quick.terms, emg=quick.emg,
                      check=noise, cubeful=True)
    row, message = message_lines(item, "human")
    assert item.mark == "" and row == "324 games -0.046 +/-0.052"
    assert message.startswith("Best ")
    assert headline(item, "human").rstrip().endswith("no error")
    assert noise.account().endswith(", no error proven")
    assert not proven.account().endswith("proven")


def test_a_cubeful_rollout_charge_carries_the_noise_of_the_cube_not_of_the_chances_alone():
    """A rollout measures the cubeless difference of two plays with its 95% interval; the
    review compares their cubeful values, which near a take point move about twice as fast as
    the chances. At 3-away/7-away (a session 52 case: 2LaRCBExtxkDEA, 32, the hit against 6/1)
    the interval of the cubeful difference is 1.9-2.0 times the cubeless one; money play
    with the cube centred about 1.4; with no cube in play it is the cubeless interval."""
    hit, quiet = Position.from_id("2LaRCEixXRkDEA"), Position.from_id("2LaRCBFjthkDEA")
    chances = [evaluator.Probabilities(0.3567, 0.1624, 0.0131, 0.2228, 0.0168),
               evaluator.Probabilities(0.3452, 0.1061, 0.0037, 0.1487, 0.0060)]
    match = MatchTerms(cube_value=1, cube_owner=0, length=7, away_me=3, away_opp=7)
    cubeless = 0.0052                      # 2*mwc-1: 0.041 EMG at this score
    wide = checking.cubeful_interval([hit, quiet], chances, match, True, cubeless)
    assert 1.8 * cubeless < wide < 2.1 * cubeless
    money = checking.cubeful_interval([hit, quiet], chances, MONEY, True, 0.03)
    assert 1.3 * 0.03 < money < 1.6 * 0.03
    assert checking.cubeful_interval([hit, quiet], chances, match, False, cubeless) == cubeless
    # both plays far past the opponent's take point: the cube holds their values still
    crushed = [evaluator.Probabilities(0.97, 0.6, 0.05, 0.0, 0.0)] * 2
    assert checking.cubeful_interval([hit, quiet], crushed, MONEY, True, 0.03) < 0.03


@pytest.fixture(scope="module")
def game_of_errors():
    """The first 15 turns of a game of errors (of its 57; they hold every case the whole game
    does: plays equal to the best, an error under CHECK_LINE, a small one between it and the ?
    line, errors rolled out and charged and others cleared within the rollout's noise, a
    missed double rolled out: seven checks), reviewed QUICK and CHECKED:
    (record, quick, checked)."""
    record = first_turns(played_out(5, error_rate=0.4), 15)
    return (record, Reviewer(record, checked=False).run(),
            Reviewer(record, roll_games=FEW_GAMES).run())


def test_quick_review_charges_as_before(game_of_errors):
    """A game's turns: QUICK checks nothing; CHECKED checks exactly the items QUICK charges
    over the ? line, and charges each its check's error (none for a rollout that cannot
    tell the plays apart)."""
    _, quick, checked = game_of_errors
    assert all(i.check is None for i in quick.items)
    assert len(quick.items) == len(checked.items)
    charged = 0
    for q, c in zip(quick.items, checked.items, strict=True):
        assert (q.number, q.kind) == (c.number, c.kind)
        if checking.wants_check(q):
            charged += 1
            assert c.check is not None and c.check.quick == q.loss
            assert c.loss == pytest.approx(c.check.charged)
            if c.kind == "move" and c.check.games:      # a play rolled out
                assert c.check.unproven == (0.0 < -c.check.error <= c.check.interval)
        else:
            assert c == q
    assert charged > 0


def test_an_error_under_the_question_mark_line_is_checked_too(game_of_errors):
    """Every error charged over CHECK_LINE is checked, not only the marked ones: small errors
    add up to a player's rating, and the quick judgement finds many that a deeper look clears."""
    assert checking.CHECK_LINE < DOUBTFUL
    _, quick, checked = game_of_errors
    small = [(q, c) for q, c in zip(quick.items, checked.items, strict=True)
             if q.kind == "move" and not q.forced and checking.CHECK_LINE < q.loss <= DOUBTFUL]
    assert small
    for q, c in small:
        assert c.check is not None and c.check.quick == q.loss
    under = [c for q, c in zip(quick.items, checked.items, strict=True)
             if q.kind == "move" and 0 < q.loss <= checking.CHECK_LINE]
    assert all(c.check is None for c in under)
    # a cube action is checked over the ? line only (issue 57: the 3-ply cubeful search is
    # no nearer gnubg than the quick 2-ply one on small cube errors)
    assert all(c.check is None for q, c in zip(quick.items, checked.items, strict=True)
               if q.kind != "move" and q.loss <= DOUBTFUL)


def test_checked_values_travel_in_the_sgf(confirmed, cleared):
    checked = checking.check_move(confirmed)
    text = sgf.move_analysis(checked, True)
    assert text.startswith("A[")
    entries = text.split("][")                        # A[index of the play made], plays
    assert " 3 0 1 0.000000 1" in entries[1]           # the checked best first, at 3 plies
    assert f"{checked.emg.of(checked.best.equity):.6f}" in entries[1]
    made = entries[1 + int(entries[0][2:])]
    assert f"{checked.emg.of(checked.played.equity):.6f} 3 0 1" in made
    assert sgf.check_comment([checked]) == f"C[{checked.check.account()}]"
    assert sgf.check_comment([cleared]) == ""


def gnubg_2_ply_error(tmp_path, commands: list, words: str) -> float:
    """GNU Backgammon 2-ply's error (EMG) of the play it writes `words`, in the hint that
    `commands` end with."""
    code, said = run_gnubg_commands(tmp_path, commands)
    assert code == 0, said
    line = next(x for x in said.splitlines()
                if re.match(rf"\s*\d+\. Cubeful 2-ply\s+{re.escape(words)}\s", x))
    found = re.search(r"Eq\.: [-+][0-9.]+(?: \(([-+][0-9.]+)\))?", line)
    return -float(found.group(1) or 0.0)


def test_a_3_ply_error_near_the_lines_is_rolled_out_and_the_rollout_clears_it_as_gnubg_does(
        tmp_path):
    """An error the 3-ply check still charges ROLL_LINE or more is rolled out (324 games, the
    luck out); the rollout's verdict is charged, nearer GNU Backgammon's, and the page and
    the .sgf say how it was checked."""
    quick = quick_item(*ROLLED, cubeful=True)
    checked = checking.check_move(quick)
    assert checking.wants_roll(checked) and checked.mark == "?"
    rolled = checking.roll_check(quick, checked, checking.RollChecks())
    gnubg = gnubg_2_ply_error(tmp_path, GNUBG_ROLLED, GNUBG_ROLLED_WORDS)
    assert gnubg < checking.ROLL_LINE                          # gnubg: (about) the best play
    assert abs(rolled.loss - gnubg) < abs(checked.loss - gnubg)
    assert rolled.mark == ""
    check = rolled.check
    assert check.games == checking.ROLL_GAMES and check.searched == pytest.approx(-checked.loss)
    assert check.charged == pytest.approx(rolled.loss) and check.quick == quick.loss
    assert rolled.played.ply == rolled.best.ply == evaluator.ROLLED_OUT_PLY
    assert rolled.played.play.after == checked.played.play.after
    assert {c.play.after for c in rolled.candidates} >= {c.play.after
                                                         for c in checking.checked_plays(quick)}
    row = message_lines(rolled, "human")[0]
    assert row == f"324 games {check.error:+.3f} +/-{check.interval:.3f}" and len(row) <= 28
    assert "ply" not in message_lines(rolled, "human")[1]   # no depth of 4 plies: a rollout
    assert sgf.check_comment([rolled]).startswith("C[checked: 324 games, ")


# a 7-point match at 0-0, the cube on 2 and the opponent's: 24/22 22/16 with 62 (not hitting
# with 24/18*) is charged 0.276 EMG by the cubeful 3-ply check; GNU Backgammon 1.07 charges it
# 0.036 at 2 plies and 0.064 by its own cubeful rollout (bench/review_vs_gnubg.py seed 1357)
WIDE = ("5k4EADds20QDIA", (6, 2), "24/22 22/16", MatchTerms(2, 2, 7, 7, 7, 0))
GNUBG_WIDE = ["set player 0 human", "set player 1 human", "new match 7", "set turn 1",
              "set cube value 2", "set cube owner 0", "set board 5k4EADds20QDIA", "set dice 62",
              "set output mwc off", "set evaluation chequerplay evaluation plies 2",
              "set evaluation movefilter 2 0 20 0 2.0", "set evaluation movefilter 2 1 -1 0 0.0",
              "hint 20"]
# a 7-point match, the mover 7-away and the opponent 3-away, the cube centred: 8/3 8/6 with 52
# (not 8/3 22/20) is charged 0.364 EMG by level 5 and 0.424 by the cubeful 3-ply check; GNU
# Backgammon 1.07 charges it 0.329 at 2 plies (bench/review_vs_gnubg.py seed 8425)
HUGE = ("mNvBGQByZnBAGg", (5, 2), "8/3 8/6", MatchTerms(1, 0, 7, 7, 3, 0))
GNUBG_HUGE = ["set player 0 human", "set player 1 human", "new match 7", "set score 4 0",
              "set turn 1", "set board mNvBGQByZnBAGg", "set dice 52", "set output mwc off",
              "set evaluation chequerplay evaluation plies 2",
              "set evaluation movefilter 2 0 20 0 2.0", "set evaluation movefilter 2 1 -1 0 0.0",
              "hint 20"]


def checked_best(rolled: MoveReview, checked: MoveReview):
    """The rolled-out figures of the play the 3-ply check found best."""
    return next(c for c in rolled.candidates if c.play.after == checked.best.play.after)


def test_a_play_charged_the_roll_line_or_more_is_rolled_out_with_no_3_ply_step_first(
        monkeypatch):
    """The review rolls out a play whose quick error is ROLL_LINE or more at once (the 3-ply
    step judged such plays no nearer gnubg's rollouts than level 5's 2-ply), however large;
    one charged under it is checked at 3 plies first, and rolled out when that check charges
    it ROLL_LINE or more."""
    asked = []
    real_check = review.check_move
    monkeypatch.setattr(review, "check_move",
                        lambda item, *more, **kw: asked.append(item) or real_check(item, *more,
                                                                                   **kw))
    record = MatchRecord(0)
    record.start_game({HUMAN: 0, COMPUTER: 0})
    record.move(HUMAN, (3, 1), "8/5 6/5")
    reviewer = Reviewer(record, roll_games=FEW_GAMES)
    within = quick_item(*ROLLED, cubeful=True)
    assert within.loss >= checking.ROLL_LINE
    rolled = reviewer._checked(within)
    assert asked == [] and rolled.check.games == FEW_GAMES and rolled.check.searched is None
    assert rolled.check.ply == within.best.ply == 2 and rolled.check.quick == within.loss
    assert rolled.best.ply == evaluator.ROLLED_OUT_PLY
    assert f"(quick {-within.loss:+.3f})" in rolled.check.account()
    under = quick_item(*LATE_ROLLED, cubeful=True)
    assert checking.CHECK_LINE < under.loss < checking.ROLL_LINE
    late = reviewer._checked(under)
    checked = real_check(under)
    assert asked == [under] and checking.wants_roll(checked)
    assert late.check.games == FEW_GAMES and late.check.ply == checking.CHECK_PLY
    assert late.check.searched == pytest.approx(-checked.loss)
    over = quick_item(*CONFIRMED, cubeful=True)     # a ?? by far
    assert over.loss > 0.30                          # rolled out since session 41
    big = reviewer._checked(over)
    assert asked == [under] and big.check.games == FEW_GAMES and big.check.searched is None
    assert big.best.ply == evaluator.ROLLED_OUT_PLY and big.mark == "??"


@pytest.mark.parametrize("case, commands, gnubg_words", [
    (WIDE, GNUBG_WIDE, "24/16"),             # our 24/22 22/16
    (HUGE, GNUBG_HUGE, "8/6 8/3")])           # our 8/3 8/6
def test_a_large_error_is_rolled_out_cut_as_any_other_and_comes_nearer_gnubg(
        tmp_path, case, commands, gnubg_words):
    """An error of 0.10 or more, where the mark is sure and its size is in doubt, is rolled
    out as any other (cut after ROLL_TRUNCATE half-moves: until session 41 those over 0.10 were
    cut after 8, those over 0.30 not rolled out), and the rollout's error is nearer GNU
    Backgammon's than the 3-ply check's."""
    quick = quick_item(*case, cubeful=True)
    checked = checking.check_move(quick)
    assert checked.loss > 0.10 and checking.wants_roll(checked)
    rolled = checking.roll_check(quick, checked, checking.RollChecks())
    assert rolled.check.games == checking.ROLL_GAMES
    # the same check of FEW_GAMES games (the cut is each game's, whatever their number) and
    # its rollout asked for directly, cut after ROLL_TRUNCATE half-moves: the same chances
    # (the dice are the check's own), and not those of one cut after 8
    rolls = checking.RollChecks(FEW_GAMES)
    few = checking.roll_check(quick, checked, rolls)
    plays = [checked.played, checked.best]
    cut = {t: [f.chances for f in rolls.roll(quick.before, plays, quick.terms, t).candidates]
           for t in (8, checking.ROLL_TRUNCATE)}
    assert few.check.games == FEW_GAMES
    assert [few.played.chances, checked_best(few, checked).chances] == \
        cut[checking.ROLL_TRUNCATE]
    assert cut[8] != cut[checking.ROLL_TRUNCATE]
    gnubg = gnubg_2_ply_error(tmp_path, commands, gnubg_words)
    assert abs(rolled.loss - gnubg) < abs(checked.loss - gnubg)


def test_a_stop_cuts_a_rollout_check_short_and_gives_no_answer():
    quick = quick_item(*ROLLED, cubeful=True)
    rolls, answers = checking.RollChecks(FEW_GAMES), []
    worker = threading.Thread(target=lambda: answers.append(
        rolls.roll(quick.before, checking.checked_plays(quick), quick.terms)))
    worker.start()
    while not rolls._running and worker.is_alive():
        time.sleep(0.001)
    rolls.stop()
    worker.join()
    assert answers == [None]
    assert rolls.roll(quick.before, checking.checked_plays(quick), quick.terms) is None
    rolls.go()
    answer = rolls.roll(quick.before, checking.checked_plays(quick)[:2], quick.terms)
    assert answer is not None and answer.trials_done == FEW_GAMES


@pytest.mark.parametrize("games", [0, -36, True, 36.0, "36", None])
def test_a_rollout_check_of_no_games_or_not_a_whole_number_is_refused(games):
    with pytest.raises(ValueError, match="a rollout check plays 1 or more games"):
        checking.RollChecks(games)


def test_a_review_stopped_in_a_rollout_check_carries_on_and_rolls_that_turn_out_whole():
    """A stop while a turn's rollout check runs ends the review at once without that turn;
    carrying on judges it again, its rollout played whole (that a review carried on is the
    review made without a stop: tests/game/analysis/test_review.py). The game's first 8 turns:
    its first rollout check is the 7th turn's, another follows."""
    record = first_turns(played_out(5, error_rate=0.4), 8)
    reviewer = Reviewer(record, workers=1, roll_games=FEW_GAMES)
    stopped_at = []

    def stop_in_a_rollout():
        while not reviewer.rolls._running:
            time.sleep(0.001)
        stopped_at.append(reviewer.done)
        reviewer.stop()
    watcher = threading.Thread(target=stop_in_a_rollout)
    watcher.start()
    for _ in reviewer.steps():
        pass
    watcher.join()
    assert not reviewer.review.complete and reviewer.done == stopped_at[0] < reviewer.total
    for _ in reviewer.steps():
        pass
    assert reviewer.review.complete and reviewer.done == reviewer.total
    rolled = [i for i in reviewer.review.items if i.check is not None and i.check.games]
    assert rolled and all(i.check.games == FEW_GAMES for i in rolled)
    numbers = [i.number for i in reviewer.review.items]
    assert numbers == sorted(numbers)                  # every turn once, in order


def test_the_review_option_is_checked_by_default_and_saved(tmp_path):
    settings = Settings()
    assert settings.review == "checked" and settings.checked_review
    assert settings.cycle("review") == "quick" and not settings.checked_review
    settings.save(tmp_path / "settings.json")
    again, warning = load_settings(tmp_path / "settings.json", warn=None)
    assert warning is None and again.review == "quick"
    assert ("H", "review", "H Review       QUICK") in again.menu_lines()


# review_records.TOO_GOOD_BY_THE_NET: the double is charged 0.105 EMG by the 3-ply check (a ??)
GNUBG_TOO_GOOD = ["set player 0 human", "set player 1 human", "new match 7", "set score 3 2",
                  "set turn 1", f"set board {TOO_GOOD_BY_THE_NET}", "set output mwc off",
                  "set evaluation cubedecision evaluation plies 2", "hint"]


def gnubg_cube_equities(tmp_path) -> dict:
    """GNU Backgammon 2-ply's cubeful equities of TOO_GOOD_BY_THE_NET, EMG."""
    code, said = run_gnubg_commands(tmp_path, GNUBG_TOO_GOOD)
    assert code == 0, said
    found = dict(re.findall(r"\d\. (Double, pass|Double, take|No double)\s+([-+]\d+\.\d+)",
                            said))
    return {name: float(value) for name, value in found.items()}


def test_a_cube_action_the_3_ply_check_still_charges_is_rolled_out_nearer_gnubg(tmp_path):
    """A double (and its answer) the 3-ply check still charges is rolled out (ROLL_GAMES
    games, the luck out): the decision is the cube theory on the rollout's chances, and its
    charges are nearer GNU Backgammon's than the 3-ply check's; both items say how."""
    record = too_good_double()
    quick = Reviewer(record, checked=False).run()
    double, take = Reviewer(record).run().items
    searched = checking.check_cube(quick.items[0])
    assert searched.loss > BAD and searched.proper.startswith("Too good")   # the net says ??
    gnubg = gnubg_cube_equities(tmp_path)
    gnubg_double, gnubg_take = 0.0, gnubg["Double, take"] - gnubg["Double, pass"]
    assert gnubg["No double"] < gnubg["Double, pass"] < gnubg["Double, take"]
    assert (double.kind, take.kind) == ("double", "take")
    assert double.check.games == take.check.games == checking.ROLL_GAMES
    assert abs(double.loss - gnubg_double) < abs(searched.loss - gnubg_double)
    searched_take = checking.check_cube(quick.items[1], searched.decision)
    assert abs(take.loss - gnubg_take) < abs(searched_take.loss - gnubg_take)
    assert double.check.searched == pytest.approx(-searched.loss)
    assert double.check.quick == quick.items[0].loss and double.check.interval > 0
    assert double.decision == take.decision
    for item in (double, take):                      # the A page says whose figures
        assert "Rolled out: 324 games." in figures_lines(item, record.sides[0], record.sides)
    assert sgf.check_comment([take]) == (f"C[checked: {checking.ROLL_GAMES} games, "
                                         f"{-take.loss:+.3f} +/- {take.check.interval:.3f} "
                                         f"(quick {-quick.items[1].loss:+.3f})]")


def test_a_cube_decision_from_a_positions_own_chances_is_level_3s_decision():
    """The cube theory on given chances at a position's cube efficiency (how a rollout's
    chances are judged) is level 3's decision when given level 3's own chances."""
    for position_id, terms in ((TOO_GOOD_BY_THE_NET, MatchTerms(1, 0, 7, 5, 4, 0)),
                               ("trsbAAC2uwMAAA", MONEY), ("7u4OAADu7g4AAA", MONEY)):
        own = evaluator.evaluate(position_id, 0)
        assert evaluator.cube_decision_for(own, terms, position_id) == \
            evaluator.cube_decision(position_id, 3, terms)
    with pytest.raises(BackgammonError):
        evaluator.cube_decision_for(own, MONEY, "not a position id")


def test_the_tutor_says_nothing_of_a_warning_the_check_clears():
    position_id, dice, words, terms = CLEARED
    coach = tutor.PlayCoach(Position.from_id(position_id), dice, terms, True, "?")
    after = play_named(position_id, dice, words).after
    _, quick = judged_play(coach.ranking.result(), after, terms)
    assert tutor.warning_mark("?", quick) == "?"
    assert coach.verdict(after) is None


def test_the_tutor_warns_by_the_checked_error():
    position_id, dice, words, terms = CONFIRMED
    coach = tutor.PlayCoach(Position.from_id(position_id), dice, terms, False, "?")
    verdict = coach.verdict(play_named(position_id, dice, words).after)
    checked = checking.check_move(quick_item(*CONFIRMED, cubeful=True))
    assert verdict is not None and verdict.mark == "??"
    assert verdict.loss == pytest.approx(checked.loss)


# 7-point match, 7-away against 3-away, the cube centred: not doubling is charged 0.049 EMG by
# level 5 (its 2-ply cubeful search), 0.004 by the check (the 3-ply cubeful search);
# bench/review_vs_gnubg.py seed 8803's match 2, found for net48 by tests/repin.py
# (net44's, 3h8AYCH+LoQQIA at 0-0, no longer holds)
CUBE_CLEARED = ("GZ/BAQzYthGAHA", MatchTerms(1, 0, 7, 7, 3, 0))


def test_a_cube_action_the_check_clears_is_not_marked():
    """Not doubling CUBE_CLEARED is marked ? by level 5 and cleared by the 3-ply check."""
    position_id, terms = CUBE_CLEARED
    decision, loss = judge_no_double(
        lambda level: evaluator.cube_decision(position_id, level, terms), terms,
        review.REVIEW_LEVEL)
    item = CubeReview(1, "human", "no double", Position.from_id(position_id), decision, "",
                      loss, terms, 1)
    assert item.mark == "?"
    checked = checking.check_cube(item)
    assert checked.mark == "" and checked.check.cleared and checked.check.ply == 3




def test_a_cube_action_is_checked_by_the_3ply_cubeful_search_per_unit_of_cube():
    """checking.deeper_cube_decision is level 5's cubeful search at 3 plies (search settings
    of plies 3), money equities per unit of cube, and no longer the cube formula fed the
    position's 3-ply chances (a volatile contact position, centred cube: the two differ by
    over 0.01)."""
    position_id, terms = "wneDAQPEd4MjAA", MatchTerms(2, 1)      # money, the doubler's 2
    checked = checking.deeper_cube_decision(position_id, terms)
    searched = evaluator.cube_decision(position_id, 5, terms, SearchSettings(plies=3))
    assert checked.no_double_equity == pytest.approx(searched.no_double_equity / 2)
    assert checked.double_take_equity == pytest.approx(searched.double_take_equity / 2)
    assert (checked.double, checked.take) == (searched.double, searched.take)
    formula = evaluator.cube_decision_for(evaluator.evaluate(position_id, 3))
    centred = checking.deeper_cube_decision(position_id, MatchTerms())
    assert abs(centred.no_double_equity - formula.no_double_equity) > 0.01


# ---- the tutor's checks, one at a time on both cores (checking.PlayChecks) -------------------

def listed_afters(position_id, dice, terms, count=3):
    ranked = evaluator.ranked_plays(Position.from_id(position_id), dice, review.REVIEW_LEVEL,
                                    terms=terms)
    return [c.play.after for c in list(ranked)[:count]]


def test_plays_checked_on_two_threads_are_judged_as_on_one():
    position_id, dice, _, terms = CONFIRMED
    afters = listed_afters(position_id, dice, terms)
    checks = checking.PlayChecks(terms, threads=2)
    checks.ahead(afters[:2])
    together = checks.judged(afters)
    alone = evaluator.judge_plays(afters, checking.CHECK_PLY, terms)
    assert [e for e, _ in together] == [e for e, _ in alone]        # the very bits
    assert [c for _, c in together] == [c for _, c in alone]


def first_check_held(monkeypatch):
    """The 3-ply judgement faked: it records each play judged, and the first waits until
    released; (started, release, the plays judged in order, three plays)."""
    first_started, go_on, order = threading.Event(), threading.Event(), []

    def judge_plays(afters, ply, terms, search=None):
        order.append(afters[0])
        if len(order) == 1:
            first_started.set()
            go_on.wait(10)
        return [(0.0, None)]

    monkeypatch.setattr(evaluator, "judge_plays", judge_plays)
    plays = tuple(Position.from_id(i) for i in ("4HPwATDgc/ABMA", "tykAgDvc2w0AQA",
                                                "vLcdAAB3YwAEOg"))
    return first_started, go_on, order, plays


def test_a_check_asked_for_goes_before_the_checks_queued_ahead(monkeypatch):
    """One worker: while it judges the first play queued, the play asked for jumps the queue,
    so the player waits for it, not for the listed plays behind."""
    first_started, go_on, order, (a, b, c) = first_check_held(monkeypatch)
    checks = checking.PlayChecks(threads=1)
    checks.ahead([a, b])
    assert first_started.wait(10)
    asker = threading.Thread(target=checks.judged, args=([c],))
    asker.start()
    while c not in checks._queue:       # the asker has put it in the queue
        time.sleep(0.001)
    go_on.set()
    asker.join(10)
    checks.settled()
    assert order == [a, c, b]


def test_a_turn_over_starts_none_of_its_checks_still_queued(monkeypatch):
    """PlayCoach.close at the turn's end (drop): the check being judged finishes, the plays
    queued behind it and any queued ahead later are never judged; a play asked for is."""
    first_started, go_on, order, (a, b, c) = first_check_held(monkeypatch)
    checks = checking.PlayChecks(threads=1)
    checks.ahead([a, b])
    assert first_started.wait(10)
    checks.drop()
    checks.ahead([c])
    go_on.set()
    checks.settled()
    assert order == [a]
    assert checks.judged([c]) == [(0.0, None)] and order == [a, c]


def test_a_tutor_check_uses_both_cores_unless_the_ranking_has_one(monkeypatch):
    """The tutor's checks are judged one at a time, each on both threads (the same bits:
    tests/native/test_search_determinism.py), but on one while `beside` says the ranking
    still searches; never two judgements at once."""
    seen, running, most = [], [0], [0]
    ranking = threading.Event()

    def judge_plays(afters, ply, terms, search=None):
        running[0] += 1
        most[0] = max(most[0], running[0])
        seen.append((afters[0], ply, search.threads))
        time.sleep(0.01)
        running[0] -= 1
        return [(0.0, None)]

    monkeypatch.setattr(evaluator, "judge_plays", judge_plays)
    a, b, c = (Position.from_id(i) for i in ("4HPwATDgc/ABMA", "tykAgDvc2w0AQA",
                                              "vLcdAAB3YwAEOg"))
    checks = checking.PlayChecks(threads=2, beside=lambda: not ranking.is_set())
    checks.judged([a])
    ranking.set()
    checks.ahead([b, c])
    checks.settled()
    assert seen == [(a, checking.CHECK_PLY, 1), (b, checking.CHECK_PLY, 2),
                    (c, checking.CHECK_PLY, 2)]
    assert most[0] == 1
    checking.PlayChecks(threads=1).judged([a])
    assert seen[-1] == (a, checking.CHECK_PLY, 1)


def test_a_check_that_fails_raises_in_the_player_asking_and_the_others_stand(monkeypatch):
    bad = Position.from_id("tykAgDvc2w0AQA")

    def judge_plays(afters, ply, terms, search=None):
        if afters[0] == bad:
            raise BackgammonError("no weights")
        return [(0.5, None)]

    monkeypatch.setattr(evaluator, "judge_plays", judge_plays)
    good = Position.from_id("4HPwATDgc/ABMA")
    checks = checking.PlayChecks(threads=2)
    checks.ahead([bad, good])
    with pytest.raises(BackgammonError, match="no weights"):
        checks.judged([good, bad])
    assert checks.judged([good]) == [(0.5, None)]


def test_a_play_finished_before_the_ranking_is_checked_beside_it():
    """The instant case: the play's own check starts on the other core while level 5 still
    ranks, and the verdict is the one a player who typed slowly gets."""
    position_id, dice, words, terms = CONFIRMED
    after = play_named(position_id, dice, words).after
    instant = tutor.PlayCoach(Position.from_id(position_id), dice, terms, False, "?")
    quick = instant.verdict(after)
    slow = tutor.PlayCoach(Position.from_id(position_id), dice, terms, False, "?")
    slow.ranking.result()
    slow.checks.settled()
    assert after not in slow.checks._done          # not listed: checked only when finished
    assert quick == slow.verdict(after)
    assert after in instant.checks._done
