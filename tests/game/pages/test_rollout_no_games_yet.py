"""A rollout stopped before its first game ends shows "no games yet" (game/pages/
rollout_pages.py), never an equity of nan nor a crash on the chances: on the result page of
plays and of the cube, and wherever an estimate is written. The answers are real ones: a 2-ply
rollout stopped at once (a trial takes seconds there)."""
import math

import pytest

from game.model import evaluator as ev
from game.model import rollout
from game.model.position import Position
from game.model.rollout import Estimate, Rollout
from game.pages import rollout_pages as RP
from gamedriver import RoutineDriver
from page_drivers import wait_for
from rollout_jobs import opening_job

LEVEL = 5                        # 2-ply: seconds a trial


@pytest.fixture(autouse=True)
def weights():
    ev.ensure_loaded()
    yield
    rollout.stop_all()


def stopped_at_once(job):
    with Rollout() as running:
        running.start(job.position, job.candidates, job.trials, LEVEL, 0, job.seed, 1,
                      terms=job.terms)
        answer = running.stop()
    assert answer.trials_done == 0
    return answer


@pytest.mark.parametrize("job", [opening_job(1296), RP.cube_job(Position.start(), trials=1296)],
                         ids=["plays", "cube"])
def test_a_rollout_stopped_before_its_first_game_says_no_games_yet(job):
    page = RP.result_lines(job, stopped_at_once(job), LEVEL, 0)
    assert page == ["Games 0 of 1,296 each, 2-ply", "Stopped before the first game",
                    "ended: no games yet."]
    assert not any("nan" in line.lower() for line in page)


def test_an_estimate_not_known_is_written_no_games_yet_never_nan():
    assert RP.estimate_text(Estimate(math.nan, math.nan)).strip() == "no games yet"
    assert RP.estimate_text(Estimate(0.1824, math.nan)) == "+0.182"


def test_on_the_screen_a_key_at_once_stops_it_with_no_games_yet():
    driver = RoutineDriver(lambda basic: RP.roll_out(basic, opening_job(1296), threads=1))
    wait_for(driver, "ROLLOUT", row=0)
    driver.type("2")                                   # 2-ply play: seconds a game
    wait_for(driver, "ROLLOUT 2-PLY", row=0)
    driver.type(" ")
    wait_for(driver, "ROLLOUT RESULT", row=0)
    page = "\n".join(driver.text())
    assert "Stopped before the first game" in page and "ended: no games yet." in page
    assert "nan" not in page.lower()
    driver.type("\n")
    driver.run(2)
    assert driver.finished and driver.result.trials_done == 0
