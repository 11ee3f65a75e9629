"""Rollouts on the screen (game/pages/rollout_pages.py), driven frame by frame with keys on the
stand-in machine: the choice page, the progress page redrawn as games finish, any key
stopping it with the answer so far, the result page (plays with their chances, or the cube
actions), R from the advice page, the cube advice page and a review move page, and a
rollout whose page is closed midway (the window shut) leaving no thread behind. The
rollout's threads run in real time, so the drivers wait in real time too."""

import pytest

from game import chances
from game.board import screen as S
from game.model import evaluator as ev
from game.model import rollout
from game.model.dice import Dice
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.pages import rollout_pages as RS
from gamedriver import GameDriver, RoutineDriver
from page_drivers import wait_for, wait_for_games
from rollout_jobs import five_plays_answer, opening_job


@pytest.fixture(autouse=True)
def weights():
    ev.ensure_loaded()
    yield
    rollout.stop_all()


def roll_out_and_stop(driver, asks: str) -> str:
    """R on a page, the choice page asking `asks`, ENTER (0-ply), a game done, a key stops it:
    the result page's text."""
    driver.type("r")
    wait_for(driver, asks, row=2)
    driver.type("\n")
    wait_for_games(driver)
    driver.type("x")
    wait_for(driver, "ROLLOUT RESULT", row=0)
    return "\n".join(driver.text())


Driver = RoutineDriver            # one rollout_pages routine, `make(basic)`, on the stand-in


def test_enter_rolls_the_plays_out_at_0_ply_and_shows_equities_and_chances():
    driver = Driver(lambda basic: RS.roll_out(basic, opening_job(4), threads=2))
    wait_for(driver, "ROLLOUT", row=0)
    assert "Rolls out the 3 plays shown:" in driver.text()[2]
    driver.type("\n")
    wait_for(driver, "ROLLOUT 0-PLY", row=0)
    assert "Any key stops" in driver.text()[S.ROWS - 1]
    wait_for(driver, "ROLLOUT RESULT", row=0)
    page = "\n".join(driver.text())
    assert "4 games each, 0-ply" in page and "1. h3 f1" in page and "vs 1st" in page
    assert page.count("+-") >= 5 and "You  Gam   Bg     Me  Gam   Bg" in page
    assert len([line for line in page.splitlines() if chances.is_chances_line(line)]) == 4
    driver.type("\n")
    driver.run(2)
    assert driver.finished and driver.result.trials_done == 4


def test_any_key_stops_it_with_the_games_done_so_far():
    driver = Driver(lambda basic: RS.roll_out(basic, opening_job(1296), threads=2))
    wait_for(driver, "ROLLOUT", row=0)
    driver.type("1")                                   # 1-ply play
    wait_for(driver, "ROLLOUT 1-PLY", row=0)
    wait_for_games(driver)
    driver.type(" ")
    wait_for(driver, "ROLLOUT RESULT", row=0)
    page = "\n".join(driver.text())
    assert "Stopped early: the games done." in page and "of 1,296 each, 1-ply" in page
    assert not rollout._live                           # its threads have ended


def test_t_cuts_the_games_and_q_goes_back():
    driver = Driver(lambda basic: RS.roll_out(basic, opening_job(2), threads=1))
    wait_for(driver, "OFF", row=13)
    driver.type("t")
    wait_for(driver, "ON", row=13)
    driver.type("q")
    driver.run(2)
    assert driver.finished and driver.result is None
    driver = Driver(lambda basic: RS.roll_out(basic, opening_job(2), threads=1))
    driver.type("t0")
    wait_for(driver, "ROLLOUT RESULT", row=0)
    assert "2 games each, 0-ply, cut at 10" in driver.text()[2]


def test_the_cube_actions_are_rolled_out_for_the_side_on_roll():
    position = Position.from_points({6: 4, 5: 4, 4: 3, 3: 2, 2: 2},
                                    {6: 2, 5: 3, 4: 3, 8: 4, 9: 3})
    job = RS.cube_job(position, MatchTerms(2, 1), trials=6)
    driver = Driver(lambda basic: RS.roll_out(basic, job, threads=2))
    wait_for(driver, "Rolls out the cube actions:", row=2)
    driver.type("\n")
    wait_for(driver, "ROLLOUT RESULT", row=0)
    page = "\n".join(driver.text())
    for words in ("No double", "Double, take", "Double, pass +2.000", "Proper: "):
        assert words in page, page


def test_closing_the_page_midway_stops_the_rollout_and_its_threads():
    driver = Driver(lambda basic: RS.roll_out(basic, opening_job(1296), threads=2))
    driver.type("\n")
    wait_for(driver, "ROLLOUT 0-PLY", row=0)
    assert rollout._live
    driver.program.close()                             # as when the window is shut
    assert not rollout._live


def test_r_on_the_advice_page_rolls_the_shown_plays_out_then_the_board_is_back():
    driver = GameDriver(dice=Dice.scripted([1, 3]))
    driver.until("Your move?")
    driver.type("A\n")
    wait_for(driver, "ADVICE", row=0)
    assert "R roll them out" in driver.text()[S.ROWS - 1]
    assert "1. h3 f1" in roll_out_and_stop(driver, "Rolls out the 5 plays shown:")
    driver.type("\n")
    wait_for(driver, "Your move?")
    assert driver.game.state.turn.made == []


def test_a_review_move_page_rolls_its_decision_out():
    from page_drivers import ReviewDriver
    from review_records import blunder_game
    driver = ReviewDriver(blunder_game(), checked=False)     # QUICK: the rollout is under test
    driver.until("REVIEW OF GAME 1", row=0)
    driver.type("\n")
    driver.until("You 31", row=11)
    page = roll_out_and_stop(driver, "Rolls out the 3 plays shown:")
    assert "h3 f1" in page and page.count("vs 1st") == 2   # the play made and two more
    driver.type("\n")
    wait_for(driver, "You 31", row=11)                # back on the same move page


def test_r_on_the_cube_advice_page_rolls_the_cube_actions_out():
    from shared_cases import HUMAN_STARTS, Policy, open_with_31
    policy = Policy(double=lambda m: m.cube_owner is None, take=True)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4]), cube_policy=policy)
    open_with_31(driver)
    driver.until("I double to 2. Take? (Y/N)")
    driver.type("a")
    wait_for(driver, "CUBE ADVICE", row=0)
    assert "R roll out" in driver.text()[S.ROWS - 1]
    assert "Double, pass +1.000" in roll_out_and_stop(driver, "Rolls out the cube actions:")
    driver.type("\n")
    wait_for(driver, "I double to 2. Take? (Y/N)")


@pytest.mark.parametrize("match", [MONEY, MatchTerms(length=5, away_me=3, away_opp=1,
                                                      crawford=2)])
def test_a_five_play_result_page_keeps_its_units_within_the_page_also_when_stopped(match):
    """Five plays with their chances and differences fill the page: a stopped rollout's extra
    line makes the column note give way, never the units or the last play."""
    start = Position.start()
    plays = [c.play for c in ev.ranked_plays(start, (3, 1), 3, limit=5)]
    assert len(plays) == 5
    for stop in (False, True):
        job = RS.plays_job(start, plays, trials=1296 if stop else 6, terms=match)
        answer = five_plays_answer(job, stop)
        assert answer.finished != stop
        lines = RS.result_lines(job, answer, 3, 0)
        assert len(lines) <= S.PAGE_LINES
        assert lines[-len(RS.plays_units(job)) - (0 if stop else 2):][:3] == \
            RS.plays_units(job)
        assert ("Stopped early: the games done." in lines) == stop
        assert (chances.chances_note()[0] in lines) != stop
