"""Rough edges a player met while play-testing the program (QA), each pinned by a test:
messages that must fit the 32-column line, keys that must do what the help says."""
from gamedriver import GameDriver

from game.dice import Dice
from game.match import BLACK, WHITE
from game.settings import Settings

HUMAN_STARTS = [1, 3]             # the human wins the opening throw with 3-1


def test_take_back_with_nothing_moved_fits_the_message_line():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    driver.type("T\n")
    driver.until("Press", row=23)
    assert driver.message().endswith("Press ENTER")


def test_demo_chosen_mid_game_then_quit_plays_white_against_black():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [4, 2]), settings=Settings())
    driver.until("Your move?")
    driver.type("O\n")
    driver.until("OPTIONS")
    driver.type("CC\n")                       # players: human v human, then the demo
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until("Game abandoned")
    driver.until("plays", row=23)
    assert driver.game.match.sides == (WHITE, BLACK)
    assert driver.message().startswith(("White plays", "Black plays"))


def test_match_length_changed_mid_game_then_quit_starts_the_new_match():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS * 3), settings=Settings())
    driver.until("Your move?")
    driver.type("O\n")
    driver.until("OPTIONS")
    driver.type("5")
    driver.until("Match length")
    driver.type("3\n\n")
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until("Game abandoned")
    driver.until("Your move?")
    assert driver.game.match.length == 3


def test_set_dice_opening_prompt_says_whose_die_is_typed_first():
    driver = GameDriver(settings=Settings(set_dice=True))
    driver.until("Opening", row=23)
    assert driver.message().startswith("Opening: my die, yours?")
    driver.type("1 3\n")                      # mine 1, yours 3: you start with 3-1
    driver.until("You start with 3 and 1")


def test_set_dice_opening_prompt_names_the_sides_for_two_players():
    driver = GameDriver(settings=Settings(set_dice=True, players="human-human"))
    driver.until("Opening", row=23)
    assert driver.message().startswith("Opening: Black's, White's?")
