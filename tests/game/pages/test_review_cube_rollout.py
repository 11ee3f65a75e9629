"""R on a review page of a cube decision (game/pages/review_pages.py roll_out,
rollout_pages.review_job) rolls the cube actions out at the terms the review judged the decision
with (MatchTerms, kept on the CubeReview): the match length, each side's away score, the
Crawford flag, the cube and its owner; money play per unit of cube, as before; a match longer
than the match table as money play, said on the page (and in the summary and the .sgf). The same
for a match read from a .mat file. Records are built in code; rollouts are short (0-ply, few
games) and seeded, so their answers are the same each run."""
import pytest

from game.analysis.cube_judgement import cube_verdict
from game.analysis.judge import REVIEW_LEVEL, Reviewer
from game.analysis.replay import other_side
from game.model import evaluator as ev
from game.model import rollout
from game.model.match import COMPUTER, HUMAN
from game.model.match_equity import Emg
from game.model.match_terms import MONEY, MatchTerms
from game.model.record import MatchRecord
from game.pages import rollout_pages as RS
from game.pages.review_pages import side_word
from gamedriver import RoutineDriver as Driver
from page_drivers import (
    IMPORT_LEVEL,
    SCREEN_LEVEL,
    ImportDriver,
    ReviewDriver,
    wait_for,
    wait_for_games,
)
from review_records import FEW_GAMES, RACE_EVEN, with_a_double
from scripted_matches import imported_match

TRIALS = 36                       # games a test rollout plays: seconds, not minutes
QUICK = 3                         # the review's level where the judging is not under test
LENGTH, SCORE = 5, 3              # 2-away each: a match score where doubling comes early
MATCH_TERMS = MatchTerms(length=LENGTH, away_me=LENGTH - SCORE, away_opp=LENGTH - SCORE)


@pytest.fixture(autouse=True)
def weights():
    ev.ensure_loaded()
    yield
    rollout.stop_all()


def doubled_race(length=LENGTH, score=SCORE):
    """A game from a race of 60 pips each: you double at once and I take."""
    record = MatchRecord(length)
    record.start_game({HUMAN: score, COMPUTER: score}, start=RACE_EVEN)
    record.double(HUMAN, 2)
    record.take(COMPUTER)
    return record


def cube_items(review):
    return [item for item in review.items if item.kind != "move"]


@pytest.fixture(scope="module")
def money_double():
    """A money game of level 3's plays with a double taken at turn 6 (a cube of 1, then one
    owned at 2), and its review's cube items (level 3; rollout checks of FEW_GAMES): read by
    two tests, reviewed once."""
    ev.ensure_loaded()
    record = with_a_double(21, 30)
    return record, cube_items(Reviewer(record, level=QUICK, roll_games=FEW_GAMES).run())


def rolled_out(job):
    """The job's rollout through its pages (ENTER: 0-ply); the answer and the result page."""
    driver = Driver(lambda basic: RS.roll_out(basic, job, threads=2))
    wait_for(driver, "Rolls out the cube actions:", row=2)
    choice = "\n".join(driver.text())
    driver.type("\n")
    wait_for(driver, "ROLLOUT RESULT", row=0)
    page = "\n".join(driver.text())
    driver.type("\n")
    driver.run(2)
    return driver.result, choice, page


def chances_of(answer):
    figures = answer.candidates[0]
    return tuple(getattr(figures, f"{name}_pct").mean / 100     # the fields by their names
                 for name in ("win", "win_gammon", "win_backgammon", "lose_gammon",
                              "lose_backgammon"))


def test_review_cube_rollout_uses_the_match_score_the_review_judged():
    money = ev.cube_decision(RACE_EVEN, REVIEW_LEVEL)
    match = ev.cube_decision(RACE_EVEN, REVIEW_LEVEL, MATCH_TERMS)
    assert cube_verdict(money) != cube_verdict(match)      # the score changes the action
    double, take = cube_items(Reviewer(doubled_race()).run())
    assert double.proper == take.proper == cube_verdict(match)
    for item in (double, take):
        job = RS.review_job(item, HUMAN, ("You", "Me"), trials=TRIALS)
        assert job.cube and job.terms == MATCH_TERMS and not job.past_table
    answer, choice, page = rolled_out(RS.review_job(double, HUMAN, trials=TRIALS))
    chances = chances_of(answer)
    at_match = ev.cube_decision_for(chances, MATCH_TERMS)
    at_money = ev.cube_decision_for(chances)
    assert cube_verdict(answer.cube) == cube_verdict(at_match) != cube_verdict(at_money)
    assert answer.cube.no_double.mean == pytest.approx(at_match.no_double_equity, abs=1e-5)
    assert cube_verdict(answer.cube) == double.proper       # the rollout agrees with the page
    assert f"Proper: {double.proper}." in page
    for words in ("Match to 5:", "You 2-away, Me 2-away"):
        assert words in choice and words in page
    assert "MWC: the match winning chance." in page and "points a game" not in page
    emg, nd = Emg.at(MATCH_TERMS), answer.cube.no_double     # EMG, the MWC beside
    assert "Action          EMG +-95%    MWC" in page
    assert (f"No double    {emg.of(nd.mean):+6.3f}{RS.interval_text(emg.error(nd.interval)):>6}"
            f"{50 * (nd.mean + 1):6.1f}%") in page


def test_r_on_a_match_review_cube_page_rolls_out_at_the_match_score():
    record = doubled_race()
    double = cube_items(Reviewer(record, level=SCREEN_LEVEL).run())[0]
    driver = ReviewDriver(record)
    driver.until("REVIEW OF GAME 1", row=0)
    driver.type("\n")
    driver.until("You: double", row=11)
    driver.type("r")
    wait_for(driver, "Rolls out the cube actions:", row=2)
    assert "You 2-away, Me 2-away" in driver.text()[16]
    driver.type("\n")
    wait_for(driver, "ROLLOUT RESULT", row=0)
    page = "\n".join(driver.text())
    assert f"Proper: {double.proper}." in page and "MWC: the match winning chance." in page
    driver.type("\n")
    wait_for(driver, "You: double", row=11)              # back on the same page


def test_review_cube_rollout_in_money_play_is_unchanged(money_double):
    record, items = money_double
    assert any(item.cube_value == 2 for item in items)      # a cube owned, at 2
    for item in items:
        # as review_job rolled a cube out before: a cube of 1, the owner as the doubler sees it
        doubler = item.side if item.kind in ("double", "no double") else \
            other_side(record.sides, item.side)
        owner = 0 if item.cube_owner is None else (1 if item.cube_owner == doubler else 2)
        job = RS.review_job(item, HUMAN, trials=TRIALS)
        assert job.terms == MatchTerms(1, owner) and not job.past_table
    owned = next(item for item in items if item.cube_value == 2)
    answer, choice, page = rolled_out(RS.review_job(owned, HUMAN, trials=TRIALS))
    assert answer.cube.double_pass.mean == 1.0               # points for a cube of 1
    assert cube_verdict(answer.cube) == cube_verdict(ev.cube_decision_for(
        chances_of(answer), MatchTerms(1, 1)))
    assert "Match to" not in choice + page and "points a game." in page


def test_an_imported_match_review_cube_rollout_uses_its_score():
    imported = imported_match(7, 5, 0.2, 3)
    record = imported.record
    game = record.games[2]
    assert game.scores == {"white": 4, "black": 2}
    # judged as the --review program judges it (IMPORT_LEVEL): the terms, not the level, are
    # under test
    items = cube_items(Reviewer(record, game.number, level=IMPORT_LEVEL, checked=False).run())
    assert any(item.kind == "double" for item in items)
    away = {side: 7 - game.scores[side] for side in record.sides}
    for item in items:
        doubler = item.side if item.kind in ("double", "no double") else \
            other_side(record.sides, item.side)
        job = RS.review_job(item, "white", trials=TRIALS)
        terms = job.terms
        assert (terms.length, terms.away_me, terms.away_opp, terms.crawford,
                terms.cube_value) == (7, away[doubler], away[other_side(record.sides, doubler)],
                                      0, item.cube_value)
        if item.kind == "double":
            decision = ev.cube_decision(item.before, IMPORT_LEVEL, terms)
            assert cube_verdict(decision) == item.proper
    double = next(item for item in items if item.kind == "double")
    taker = other_side(record.sides, double.side)
    score = (f"{side_word(double.side, record.names)[:7]} {away[double.side]}-away, "
             f"{side_word(taker, record.names)[:7]} {away[taker]}-away")
    d = ImportDriver(imported, checked=False)      # QUICK: the rollout's terms are under test
    d.until("Game (1-")
    d.type(f"{game.number}\n")
    d.until("ENTER: moves", row=23, max_frames=20000)
    d.type("\n")
    for _ in range(60):
        d.run(4)
        if d.text()[11].startswith(f"{double.number} ") and ": double" in d.text()[11]:
            break
        d.type("\n")
    else:
        raise AssertionError("the double's page never came")
    d.type("r")
    wait_for(d, "Rolls out the cube actions:", row=2)
    assert d.text()[15].strip() == "Match to 7:"
    assert d.text()[16].strip() == score
    d.type("\n")
    wait_for_games(d)
    d.type("x")
    wait_for(d, "ROLLOUT RESULT", row=0)
    assert "MWC: the match winning chance." in "\n".join(d.text())


def test_a_match_past_the_match_table_rolls_its_cube_out_as_money_and_says_so():
    record = doubled_race(length=31, score=29)
    double = cube_items(Reviewer(record, level=QUICK).run())[0]
    assert double.terms.past_table and double.terms.judged.money
    job = RS.review_job(double, HUMAN, trials=TRIALS)
    assert (job.match, job.past_table) == (None, True)
    answer, choice, page = rolled_out(job)
    for words in ("The score is past the match", "table: money play instead."):
        assert words in choice and words in page
    assert "points a game." in page and cube_verdict(answer.cube) == cube_verdict(
        ev.cube_decision_for(chances_of(answer)))
    # the in-play path (cube_job with a match's terms) falls back the same way
    fallback = RS.cube_job(job.position, MatchTerms(length=31, away_me=2, away_opp=2))
    assert (fallback.match, fallback.past_table) == (None, True)
    assert MONEY.judged is MONEY


def test_a_match_past_the_match_table_is_labelled_and_exported_as_the_money_play_it_was_judged():
    """Past the table every decision is judged as money play: the summary says so and does not
    call its errors EMG, and the .sgf writes no cube analysis a reader would take for match
    winning chances (the marks stay). Inside the table both are as before."""
    from game.matchfiles.sgf import format_sgf
    from game.pages.review_pages import summary_lines
    for length, score, in_match_units in ((31, 29, False), (LENGTH, SCORE, True)):
        record = doubled_race(length=length, score=score)
        review = Reviewer(record, level=QUICK).run()
        assert review.match_play == in_match_units
        lines = summary_lines(review)
        assert ("Errors and luck in EMG (GNU" in lines) == in_match_units
        assert ("table: judged as money play." in lines) != in_match_units
        text = format_sgf(record, {record.games[-1].number: review})
        assert ("DA[" in text) == in_match_units
        assert "[double]" in text and "[take]" in text       # the actions themselves stay


def test_a_money_cube_page_above_a_cube_of_1_says_its_equities_are_per_unit_of_cube(
        money_double):
    """The review divides money equities by the cube (MatchTerms.scale) so that they compare
    with the plays'; A on a cube page at a cube of 2 says so, at a cube of 1 it need not."""
    from game.pages.review_pages import figures_lines
    record, items = money_double
    for item in items:
        page = "\n".join(figures_lines(item, HUMAN, record.sides))
        assert ("per unit of cube" in page) == (item.terms.scale > 1), page
    assert {item.terms.scale for item in items} == {1, 2}      # both kinds were looked at
