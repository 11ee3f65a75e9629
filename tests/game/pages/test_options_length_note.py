"""A match length set while a game is in progress says from when it applies (issue 59 item
4): during a money game the options showed "Match length 7" at once, yet the game played on
as money play and the match began only with the next game, and nothing said so."""
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import Match
from game.pages import options_page
from game.pages.options_page import HINT_ROW, length_note
from gamedriver import GameDriver, RoutineDriver, board

HINT = "Match length (5) is typed."


def test_a_length_set_during_a_money_game_says_it_applies_from_the_next_game(config):
    match = Match(None)
    match.start_game()
    driver = GameDriver(dice=Dice.scripted([1, 3, 1, 3]), match=match, settings=Settings(),
                        start=board({0: 1}, {5: 10}))
    driver.until("Your move?")
    driver.type("O\n")
    driver.until("OPTIONS")
    assert driver.text()[HINT_ROW + 1].strip() == HINT
    driver.type("5")
    driver.until("Match length (1-25, U)?")
    driver.type("7\n")
    driver.until("A new match to 7 from next game", row=HINT_ROW + 1)
    driver.type("\n")
    driver.until("Your move?")
    assert driver.game.state.match is match and match.length is None     # as it said
    driver.type("a3\n")
    driver.until("Press any key for a new game")
    driver.type(" ")
    driver.until("Your move?")
    assert driver.game.state.match.length == 7


def test_money_play_set_during_a_match_says_it_applies_from_the_next_game(config):
    match = Match(5)
    settings = Settings(match_length=5)
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings, match=match))
    assert driver.text()[HINT_ROW + 1].strip() == HINT
    driver.type("5")
    driver.type("u\n")
    assert driver.text()[HINT_ROW + 1].strip() == "Money play from the next game"
    driver.type("5")
    driver.type("5\n")                          # back to the match's own length: no note
    assert driver.text()[HINT_ROW + 1].strip() == HINT


def test_the_note_fits_its_row_at_every_length():
    for length in (None, *range(1, 26)):
        for playing in (None, 1, 25):
            note = length_note(Settings(match_length=length), Match(playing))
            assert len(note) <= 32 and (note == "") == (length == playing)
    assert length_note(Settings(match_length=3), None) == ""     # no match in progress


def test_other_players_set_during_a_match_say_a_new_match_begins_with_the_next_game(config):
    match = Match(5)
    settings = Settings(match_length=5)
    driver = RoutineDriver(lambda b: options_page.options_menu(b, settings, match=match))
    driver.type("c")                            # Players: human v human
    assert driver.text()[HINT_ROW + 1].strip() == "A new match from the next game"
    driver.type("cc")                           # the demo, then back to human v computer
    assert driver.text()[HINT_ROW + 1].strip() == HINT
