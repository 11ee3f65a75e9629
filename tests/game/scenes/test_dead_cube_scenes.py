"""A dead cube in the game (issue 57 item 3): at 2-away/2-away with the cube at 2 owned by its
side, the owner gets no cube stop, no "D doubles" on the computer's play, D refused with the
reason, no tutor warning of a missed double, and the computer neither doubles nor is asked
whether to: all by the one rule (MatchTerms.double_refused through Match.can_double)."""
import time

from cube_scenes import (
    StopDriver,
    Thrown,
    match_at,
    missed_double,
    screens_until_your_move,
    until_move_or_stop,
)
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN
from game.model.match_terms import MONEY
from game.scenes import tutor
from gamedriver import GameDriver

DEAD_FOR_HUMAN = dict(length=3, human=1, computer=1, value=2, owner=HUMAN)
DEAD_FOR_COMPUTER = dict(length=3, human=1, computer=1, value=2, owner=COMPUTER)


def test_dead_cube_at_two_away_two_away_owner_gets_no_cube_stop():
    driver = StopDriver(dice=Dice.scripted([3, 1, 5, 2]), match=match_at(**DEAD_FOR_HUMAN),
                        settings=Settings(who_starts="human", match_length=3))
    assert until_move_or_stop(driver) == "move"
    live = StopDriver(dice=Dice.scripted([3, 1, 5, 2]),
                      match=match_at(3, human=1, computer=1),        # centred: a decision
                      settings=Settings(who_starts="human", match_length=3))
    assert until_move_or_stop(live) == "stop"


def test_dead_cube_owner_is_not_offered_d_doubles_on_the_computers_play():
    seen = []
    driver = StopDriver(dice=Dice(5), match=match_at(**DEAD_FOR_HUMAN),
                        settings=Settings(who_starts="computer", match_length=3))
    for _ in range(3000):
        seen.append(driver.message())
        if "Your move?" in seen[-1]:
            break
        driver.frame()
    assert any("I play" in line for line in seen)
    assert not any("D doubles" in line for line in seen)
    assert driver.game.prompt.board_clicks == {}


def test_d_typed_at_a_dead_cube_is_refused_with_the_reason():
    """D pressed while the computer's play shows (no "D doubles" there) asks for a double
    before the human's throw: refused in words, the cube unturned."""
    driver = StopDriver(dice=Dice(5), match=match_at(**DEAD_FOR_HUMAN),
                        settings=Settings(who_starts="computer", match_length=3))
    driver.until("I play", row=23)
    driver.type("d")
    driver.until("The cube is dead: a win at 2")
    assert driver.game.state.match.cube_value == 2 and driver.game.state.match.offered_by is None


def test_dead_cube_gets_no_tutor_warning_of_a_missed_double():
    """A race the human leads by a ?? missed double in money play; at 2-away/2-away holding 2
    nothing is said, and the judgement is not even started."""
    start, _, _ = missed_double(MONEY)
    driver = GameDriver(dice=Thrown([2, 1]), start=start, match=match_at(**DEAD_FOR_HUMAN),
                        settings=Settings(tutor="?", who_starts="human", match_length=3))
    assert tutor.no_double_judge(driver.game, HUMAN) is None
    shown = screens_until_your_move(driver)
    assert not any("better" in line for screen in shown for line in screen)


def test_the_computer_never_doubles_a_dead_cube_nor_is_asked_to():
    asked = []

    def policy(position, match, doubler):
        asked.append((doubler, match.offered_by))
        return None
    driver = StopDriver(dice=Dice(5), match=match_at(**DEAD_FOR_COMPUTER), cube_policy=policy,
                        settings=Settings(who_starts="computer", match_length=3))
    deadline = time.monotonic() + 60
    while "Your move?" not in driver.message() and time.monotonic() < deadline:
        driver.frame()
    assert "Your move?" in driver.message()
    assert [a for a in asked if a[1] is None] == []      # never asked whether to double
