"""Rough edges a player met while play-testing the program (QA), each pinned by a test:
messages that must fit the 32-column line, keys that must do what the help says."""
from gamedriver import GameDriver

from game.dice import Dice

HUMAN_STARTS = [1, 3]             # the human wins the opening throw with 3-1


def test_take_back_with_nothing_moved_fits_the_message_line():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    driver.type("T\n")
    driver.until("Press", row=23)
    assert driver.message().endswith("Press ENTER")
