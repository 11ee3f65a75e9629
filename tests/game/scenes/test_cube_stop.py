"""The cube stop (issue 52 item 2): "ENTER rolls, D doubles" before every throw at which a
double of the person's counts (ENTER or SPACE rolls, D doubles), none where it cannot count
(the cube off or the opponent's, at 64, the Crawford game, a dead cube), WHEN CLOSE skipping
the stop where the quick 1-ply judgement finds no double right; "D doubles" never after a
play that ended the game; with the Tutor on, the computer's play read for its whole time
(item 6)."""
from types import SimpleNamespace

import pytest

from cube_scenes import LEADER, TRAILER, StopDriver, match_at, until_move_or_stop
from game.analysis.cube_judgement import CUBE_SCREEN_LEVEL, close_cube
from game.files.settings import Settings
from game.model import evaluator
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, MAX_CUBE, Match
from game.model.position import Position
from game.scenes import cube, tutor
from game.scenes.timing import SPEED_READ

OPENING_21 = [1, 2]            # the computer's die first: it starts with 2-1
GAMMON = Position.from_points({13: 5, 8: 5, 6: 5}, {1: 1})   # the computer one roll from a win


def takes(position, match, doubler):
    return SimpleNamespace(double=False, take=True, too_good=False)


def test_the_stop_comes_before_every_throw_with_a_live_cube_and_enter_or_space_rolls():
    driver = StopDriver(dice=Dice(5), settings=Settings(who_starts="computer", speed="instant"))
    for key in ("\n", " ", "\n"):
        assert until_move_or_stop(driver) == "stop"
        assert driver.game.prompt.board_clicks == {"cube": "d", "dice": " "}
        driver.type(key)
        assert until_move_or_stop(driver) == "move"
        assert driver.game.prompt.board_clicks == {}
        turn = driver.game.state.turn
        while not turn.complete:                       # the first allowed steps
            f, d = turn.allowed_steps()[0]
            driver.type(f"{Position.letter_of_index(f)}{d}\n")
            driver.run(4)


def test_d_at_the_stop_doubles_and_the_cube_goes_across():
    driver = StopDriver(dice=Dice(5), cube_policy=takes,
                        settings=Settings(who_starts="computer", speed="instant"))
    assert until_move_or_stop(driver) == "stop"
    driver.type("d")
    driver.until("I take", row=23)
    match = driver.game.state.match
    assert match.cube_value == 2 and match.cube_owner == COMPUTER


@pytest.mark.parametrize("why, match, cube_on", [
    ("the cube off", Match(None, cube=False), False),
    ("the opponent's cube", match_at(None, value=2, owner=COMPUTER), True),
    ("a cube at 64", match_at(None, value=MAX_CUBE, owner=HUMAN), True),
    ("the Crawford game", match_at(3, human=0, computer=2, crawford=True), True),
    ("a dead cube: 2 away holding 2", match_at(3, human=1, value=2, owner=HUMAN), True),
    ("a dead cube: 1 away after Crawford", match_at(3, human=2, computer=1), True),
])
def test_no_stop_where_no_double_counts(why, match, cube_on):
    driver = StopDriver(dice=Dice.scripted([3, 1, 5, 2]), match=match,
                        settings=Settings(who_starts="human", cube=cube_on,
                                          match_length=match.length))
    assert until_move_or_stop(driver) == "move", why
    assert driver.game.state.match.rolled


def test_a_stop_where_the_double_counts_in_a_match():
    """2 away holding 2 is dead, 3 away holding 2 is not; the leader of 1-away-post-Crawford
    is dead, the trailer is not."""
    for match in (match_at(5, human=2, value=2, owner=HUMAN), match_at(3, human=1, computer=2)):
        driver = StopDriver(dice=Dice.scripted([3, 1]), match=match,
                            settings=Settings(who_starts="human", match_length=match.length))
        assert until_move_or_stop(driver) == "stop"


def test_when_close_skips_the_stop_only_where_no_double_is_clearly_right():
    """The start: no double, not close: no stop. A race the human leads by a roll and more:
    the 1-ply screen calls it close (or a double): the stop."""
    ahead = Position.from_points(LEADER, TRAILER)
    quick = evaluator.cube_decision(ahead, CUBE_SCREEN_LEVEL)
    assert close_cube(quick)
    assert not close_cube(evaluator.cube_decision(Position.start(), CUBE_SCREEN_LEVEL))
    for start, expected in ((Position.start(), "move"), (ahead, "stop")):
        driver = StopDriver(dice=Dice.scripted([3, 1]), start=start,
                            settings=Settings(who_starts="human", cube_stop="close"))
        assert until_move_or_stop(driver) == expected
        always = StopDriver(dice=Dice.scripted([3, 1]), start=start,
                            settings=Settings(who_starts="human"))
        assert until_move_or_stop(always) == "stop"


def test_d_doubles_is_never_shown_after_a_play_that_ends_the_game():
    driver = StopDriver(dice=Dice.scripted([2, 1]), start=GAMMON,
                        settings=Settings(who_starts="computer"))
    seen = []
    for _ in range(600):
        seen.append(driver.message())
        if "Press any key" in seen[-1]:
            break
        driver.frame()
    assert any("I play" in line for line in seen)
    assert not any("D doubles" in line for line in seen)


def test_d_doubles_shows_on_the_computers_play_and_a_click_on_the_cube_means_d_meanwhile():
    driver = StopDriver(dice=Dice(5), settings=Settings(who_starts="computer"))
    driver.until("D doubles", row=23)
    assert driver.game.prompt.board_clicks == {"cube": "d"}


def frames_before_the_double_is_judged(tutor_option: str, monkeypatch) -> int:
    """D pressed at once when the computer's play shows: the frames from "I play" to the
    moment the double goes on to the tutor's check (which may replace the message line)."""
    driver = StopDriver(dice=Dice(5), cube_policy=takes,
                        settings=Settings(who_starts="computer", speed="instant",
                                          tutor=tutor_option))
    judged = []
    check = tutor.check_double

    def heard(game, doubler):
        judged.append(driver.frames)
        return (yield from check(game, doubler))
    monkeypatch.setattr(tutor, "check_double", heard)
    driver.until("I play", row=23)
    shown = driver.frames
    driver.type("d")
    for _ in range(200):
        if judged:
            return judged[0] - shown
        driver.frame()
    raise AssertionError("the double never went on to the tutor's check")


def test_the_tutor_waits_until_the_computers_play_has_been_read(monkeypatch):
    assert frames_before_the_double_is_judged("off", monkeypatch) <= 4   # D cut it short
    assert frames_before_the_double_is_judged("?", monkeypatch) >= SPEED_READ["instant"]


def test_may_double_follows_the_match_rules_a_dead_cube_included():
    match = match_at(7, human=3, value=4, owner=HUMAN)
    board_game = SimpleNamespace(state=SimpleNamespace(match=match))
    assert not cube.may_double(board_game, HUMAN)             # 4 away holding 4: dead
    match.cube_value = 2
    assert cube.may_double(board_game, HUMAN) and not cube.may_double(board_game, COMPUTER)


def test_d_after_the_play_was_read_is_not_typed_into_your_move():
    """No stop (the computer owns the cube): D pressed while the dice tumble is dropped,
    never the first letter at "Your move?"."""
    driver = StopDriver(dice=Dice(5), match=match_at(None, value=2, owner=COMPUTER),
                        settings=Settings(who_starts="computer", speed="instant"))
    driver.until("Your throw", row=23)
    driver.type("d")
    assert until_move_or_stop(driver) == "move"
    driver.run(2)
    assert driver.message().rstrip("L ").rstrip() == "Your move?"
