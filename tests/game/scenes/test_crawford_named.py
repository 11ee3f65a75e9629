"""The Crawford game is named where a player meets it (issue 59 item 2): at its start, before
the opening throw, and by D at "Your move?", whose refusal names the Crawford game rather
than the throw ("You may only double before you roll" suggested a double was possible)."""
from game.board import screen as S
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from game.scenes.opening import CRAWFORD_WORDS
from gamedriver import GameDriver


def crawford_match() -> Match:
    match = Match(3)
    match.score[HUMAN] = 2                      # 2-0 to 3: the next game is the Crawford game
    match.start_game()
    assert match.crawford_game
    return match


def test_the_crawford_game_is_named_before_its_opening_throw():
    dice = Dice.scripted([1, 3])
    driver = GameDriver(dice=dice, match=crawford_match())
    driver.until(CRAWFORD_WORDS, row=S.MESSAGE_ROW)
    assert CRAWFORD_WORDS in driver.message() and "Your move?" not in driver.message()
    driver.until("Your move?")


def test_d_after_the_throw_in_the_crawford_game_names_the_crawford_game(tmp_path):
    driver = GameDriver(dice=Dice.scripted([1, 3]), match=crawford_match())
    driver.until("Your move?")
    driver.type("D\n")
    driver.until("No doubling in the Crawford game")
    assert "before you roll" not in "\n".join(driver.text())
    driver.type("\n")
    driver.until("Your move?")
    match = driver.game.state.match
    assert match.cube_value == 1 and match.offered_by is None


def test_a_double_after_the_throw_outside_the_crawford_game_still_says_before_you_roll():
    match = Match(3)
    match.start_game()
    assert match.can_double(HUMAN)
    match.start_turn(HUMAN)
    match.dice_rolled()
    assert match.can_double(HUMAN).reason == "You may only double before you roll"
    assert match.can_double(COMPUTER).reason == "You may only double on your own turn"
