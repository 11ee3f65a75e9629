"""Cube advice (A at a cube question): the page's words from a decision, and in the running
program at "Take? (Y/N)" and at "ENTER rolls, D doubles": the page, then the same question
again with nothing changed."""
from types import SimpleNamespace

import pytest

from game import commands
from game.analysis.cube_judgement import cube_verdict
from game.board import screen as S
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import BLACK, COMPUTER, HUMAN
from game.model.match_equity import Emg
from game.model.match_terms import MONEY, MatchTerms
from gamedriver import GameDriver
from shared_cases import HUMAN_STARTS, Policy, open_with_31

SEVEN_AWAY = MatchTerms(length=7, away_me=7, away_opp=7)


def decision(double, take, too_good=False):
    return SimpleNamespace(double=double, take=take, too_good=too_good, win=0.6423,
                           win_gammon=0.1812, lose_gammon=0.0521, no_double_equity=0.412,
                           double_take_equity=0.38, double_pass_equity=1.0)


@pytest.mark.parametrize("double,take,too_good,verdict", [
    (False, True, False, "No double, take"), (True, True, False, "Double, take"),
    (True, False, False, "Double, pass"), (False, False, True, "Too good to double"),
])
def test_the_verdict_names_the_proper_action(double, take, too_good, verdict):
    assert cube_verdict(decision(double, take, too_good)) == verdict


def test_the_page_shows_chances_three_equities_and_fits_the_screen():
    for doubler in ("You", "I", "White", "Black"):
        for offered in (False, True):
            for terms in (MONEY, SEVEN_AWAY):
                for asked in (decision(False, True), decision(False, False, too_good=True)):
                    lines = commands.cube_advice_lines(asked, doubler, offered, terms)
                    assert all(len(line) <= S.COLS for line in lines), lines
                    assert len(lines) <= S.ROWS - 3
    lines = commands.cube_advice_lines(decision(False, True), "I", offered=True)
    page = "\n".join(lines)
    assert "Chances for me:" in page and "win 64.2%, gammons 18.1%" in page
    assert "No double     +0.412" in page and "Double, take  +0.380" in page
    assert "Double, pass  +1.000" in page
    assert "Proper: No double, take." in page
    assert "The double is too early;" in page and "still, it is a take." in page
    assert "points a game" in page
    lines = commands.cube_advice_lines(decision(True, False), offered=True, terms=SEVEN_AWAY)
    assert "Right to double; it is a pass." in lines and "your match winning chance." in lines
    lines = commands.cube_advice_lines(decision(False, False, too_good=True), offered=True)
    assert "Too good to double: too late;" in lines and "still, it is a pass." in lines


def test_cube_advice_in_a_match_shows_emg_with_the_mwc_beside():
    """At 3-away/2-away holding 2 the page's equities are EMG at the cube (double, pass is
    +1.000), each with the doubler's match winning chance (2 x MWC - 1 turned back)."""
    terms = MatchTerms(2, 1, 5, 3, 2)
    emg = Emg.at(terms)
    dp = 2 * emg.win_mwc - 1                        # the doubler's cash: +1 EMG
    d = SimpleNamespace(double=True, take=False, too_good=False, win=0.8, win_gammon=0.1,
                        lose_gammon=0.02, no_double_equity=0.1, double_take_equity=0.5,
                        double_pass_equity=dp)
    page = commands.cube_advice_lines(d, "I", terms=terms)
    assert page[4] == "                 EMG     MWC"
    assert page[5] == f"No double     {emg.of(0.1):+.3f}   55.0%"
    assert page[6] == f"Double, take  {emg.of(0.5):+.3f}   75.0%"
    assert page[7] == f"Double, pass  +1.000  {100 * emg.win_mwc:5.1f}%"
    assert page[-3:] == ["EMG: GNU Backgammon's units, the", "equivalent money game; MWC:",
                         "my match winning chance."]
    money = commands.cube_advice_lines(d, "I")
    assert "No double     +0.100" in money and not any("MWC" in line for line in money)


def test_a_at_take_shows_the_cube_page_then_asks_again():
    # the human opens with 3-1; the computer doubles before its first throw; A at the
    # question shows the evaluator's view of that double, ENTER goes back, Y takes
    policy = Policy(double=lambda m: m.cube_owner is None, take=True)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4]), cube_policy=policy)
    open_with_31(driver)
    driver.until("I double to 2. Take? (Y/N)")
    driver.type("a")
    driver.until("CUBE ADVICE", max_frames=3000)
    page = "\n".join(driver.text())
    assert "Chances for me:" in page and "Proper:" in page
    # the opening position after one play is nowhere near a double
    assert "Proper: No double, take." in page and "too early" in page, page
    assert driver.game.state.match.offered_by == COMPUTER       # still waiting for the answer
    driver.type("\n")
    driver.until("I double to 2. Take? (Y/N)")
    driver.type("y")
    driver.run(2)
    assert (driver.game.state.match.cube_value, driver.game.state.match.cube_owner) == (2, HUMAN)


def test_a_before_a_throw_shows_the_cube_page_for_the_side_to_roll():
    driver = GameDriver(dice=Dice.scripted([1, 3, 3, 1]), settings=Settings(players="human-human"))
    driver.until("White's move?")
    driver.type("h3\n")
    driver.until("White's move?")
    driver.type("f1\n")
    driver.until("Black: ENTER rolls, D doubles")
    driver.type("a")
    driver.until("CUBE ADVICE", max_frames=3000)
    page = "\n".join(driver.text())
    assert "Chances for Black:" in page and "Proper: No double, take." in page
    assert "still, it is" not in page                      # no double has been made
    driver.type("\n")
    driver.until("Black: ENTER rolls, D doubles")
    assert driver.game.state.match.offered_by is None and driver.game.state.match.cube_value == 1
    driver.type("\n")
    driver.until("Black's move?")
    assert driver.game.state.match.sides[1] == BLACK


def test_a_while_my_play_is_shown_gives_the_cube_advice_before_your_throw():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4]), cube_policy=Policy())
    open_with_31(driver)
    driver.until("I play")
    driver.until("D doubles")
    driver.type("a")
    driver.until("CUBE ADVICE", max_frames=3000)
    page = "\n".join(driver.text())
    assert "Chances for you:" in page and "Proper: No double, take." in page
    driver.type("\n")
    driver.until("You: ENTER rolls, D doubles")     # then the choice is yours
    assert driver.game.state.match.cube_value == 1
    driver.type("\n")
    driver.until("Your move?")
    assert driver.game.state.turn.dice == (5, 4)


def test_a_while_my_play_is_shown_says_why_there_is_no_advice_when_you_cannot_double():
    # I own the cube at 2: the human may not double, so A says so instead of doing nothing
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4]), cube_policy=Policy())
    driver.until("Your move?")
    driver.game.state.match.cube_value, driver.game.state.match.cube_owner = 2, COMPUTER
    driver.game.draw_cube()
    open_with_31(driver)
    driver.until("I play")
    driver.run(5)
    driver.type("a")
    driver.until("No cube advice", max_frames=3000)
    page = "\n".join(driver.text())
    assert "only the owner of the cube may double" in " ".join(page.lower().split())
    assert "CUBE ADVICE" not in page
    driver.type("\n")
    driver.until("Your move?")                           # no double offered, the throw follows
    assert driver.game.state.turn.dice == (5, 4)
    assert (driver.game.state.match.cube_value, driver.game.state.match.cube_owner) == (2, COMPUTER)
