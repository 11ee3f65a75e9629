"""The Rules option's 1983 mode, driven frame by frame on the stand-in machine: the game the
inlay card describes and nothing more (no cube, no match or score, no command but QUIT, no
READY?, no tutor, no save), whatever the player's other options say. The whole game in the
real window is tests/game/test_game_1983.py; the rules themselves test_inlay_rules.py."""
from types import SimpleNamespace

import pytest

from game.files import savegame
from game.files.session import Session
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.position import Position
from game.scenes import keys
from gamedriver import GameDriver
from human_player import play_human_turn
from shared_cases import CLOSED_BOARD

# every option the card has no word for, set the other way: the 1983 rules must hold them
EVERYTHING_ON = dict(cube=True, match_length=5, who_starts="human", confirm_turn=True,
                     set_dice=True, tutor="?", players="human-human", switch_tokens=True)
BOARD_LETTERS = " m n o p q r z s t u v w x"
HUMAN_STARTS = [1, 4]                  # top die (the computer's) 1, bottom die (yours) 4


def always_doubles(position, match, doubler):
    return SimpleNamespace(double=True, take=True, too_good=False)


def card_driver(**options) -> GameDriver:
    options.setdefault("settings", Settings(rules="1983", **EVERYTHING_ON))
    options.setdefault("cube_policy", always_doubles)
    return GameDriver(**options)


def test_1983_rule1_top_die_the_computers_bottom_yours_a_double_means_enter():
    driver = card_driver(dice=Dice.scripted([3, 3, 2, 5]))
    driver.until("The opening throw")
    driver.until("Tie: press ENTER to throw again")
    driver.type("\n")
    driver.until("You start with 5 and 2")
    assert driver.log[:2] == ["opening 3 3", "opening 2 5"]


def test_1983_rule1_a_higher_top_die_means_the_computer_starts():
    driver = card_driver(dice=Dice.scripted([6, 1]))
    driver.until("I start with 6 and 1")
    driver.until("Your move?")
    assert driver.log[1].startswith("computer 61 ")


def test_1983_to_play_a_point_letter_and_a_die_in_either_order():
    driver = card_driver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    driver.type("4M\n")
    driver.run(2)
    assert driver.game.state.position.board[12] == 4 and driver.game.state.position.board[8] == 1
    driver.type("f1\n")
    driver.until("I play")                   # no READY? although the options ask for it


def test_1983_an_illegal_entry_says_press_enter_then_a_legal_move_is_taken():
    driver = card_driver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    before = driver.game.state.position
    driver.type("k4\n")
    driver.until("Press ENTER")
    assert driver.game.state.position == before
    driver.type("\n")
    driver.until("Your move?")
    driver.type("m4\n")
    driver.run(2)
    assert driver.game.state.position != before


@pytest.mark.parametrize("word", sorted(keys.COMMANDS))
def test_1983_a_later_command_is_an_illegal_entry(word):
    driver = card_driver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    before = driver.game.state.position
    driver.type(f"{word}\n")
    driver.until("Press ENTER")
    assert driver.message() == "Not a move, e.g. k4. Press ENTER"
    assert driver.text()[0].startswith(BOARD_LETTERS)          # no page came up
    assert driver.game.state.position == before and driver.game.state.turn.made == []
    driver.type("\n")
    driver.until("Your move?")


def test_1983_the_bar_blocked_entry_forfeits_the_turn():
    driver = card_driver(dice=Dice.scripted([1, 5]), start=CLOSED_BOARD)
    driver.until("You can't enter. Press ENTER")
    before = driver.game.state.position
    driver.type("\n")
    driver.until("My throw")
    assert driver.game.state.position == before and driver.log[-1] == "human 51 forfeit"


def test_1983_rule8_bearing_off_from_the_die_point_and_the_highest():
    home = Position.from_points({1: 1, 2: 1, 3: 1, 6: 2}, {1: 5, 2: 5, 3: 5})
    driver = card_driver(dice=Dice.scripted([1, 6]), start=home)
    driver.until("Your move?")
    driver.type("f6\n")                       # a 6 bears a man off f
    driver.run(2)
    assert driver.game.state.position.borne_off()[0] == 11
    driver.type("a1\n")
    driver.run(2)
    assert driver.game.state.position.borne_off()[0] == 12


def test_1983_quit_ends_the_game_at_once_and_the_next_keeps_no_score():
    driver = card_driver(dice=Dice.scripted(HUMAN_STARTS + [6, 1]))
    driver.until("Your move?")
    driver.type("quit\n")
    driver.until("Game abandoned")
    driver.until("The opening throw")
    first, second = (g.state.match for g in driver.games)
    assert second is not first and not second.results
    assert set(second.score.values()) == {0} and second.length is None


def test_1983_a_won_game_names_the_winner_only_and_any_key_starts_a_new_one():
    last = Position.from_points({1: 1}, {1: 5, 2: 5, 3: 5})        # a gammon in FULL
    driver = card_driver(dice=Dice.scripted([1, 6, 2, 5]), start=last)
    driver.until("Your move?")
    driver.type("a6\n")
    driver.until("YOU WIN")
    banner = next(line for line in driver.text() if "YOU WIN" in line).strip()
    assert banner == "YOU WIN"                 # no gammon, no points: there is no score
    for _ in range(300):                       # the message line never offers R or O
        driver.frame()
        assert driver.message() == "Press any key for a new game"
    driver.type("r")                           # R is any key here, not the review
    driver.until("The opening throw")
    match = driver.game.state.match
    assert not match.results and set(match.score.values()) == {0}


def test_1983_no_cube_the_computer_never_doubles_and_d_is_not_heard():
    driver = card_driver(seed=5)
    for _ in range(4000):
        text = "\n".join(driver.text()).lower()
        assert "double" not in text and "cube" not in text
        if "Your move?" in driver.message():
            play_human_turn(driver)
        elif "I play" in driver.message():
            driver.type("d")                   # D while my play is shown: dropped
        elif "ENTER" in driver.message():
            driver.type("\n")
        else:
            driver.frame()
    assert not any("double" in entry for entry in driver.log)
    assert driver.game.table.screen.cube is None and not driver.game.state.match.cube_enabled


def test_1983_instructions_at_the_start_without_gammons_or_other_keys():
    driver = card_driver(dice=Dice.scripted(HUMAN_STARTS), ask_instructions=True)
    driver.until("Do you want instructions?")
    driver.type("y")
    seen = []
    for _ in range(10):
        seen += driver.text()
        if "The opening throw" in driver.message():
            break
        driver.type(" ")
        driver.run(2)
    words = "\n".join(seen)
    assert "QUIT" in words and "K4 or 4K" in words and "bar" in words
    assert "gammon" not in words and " H " not in words
    driver.until("The opening throw")


def _config(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    return savegame.save_path()


def test_1983_a_saved_full_match_is_neither_offered_nor_written_over(tmp_path, monkeypatch):
    path = _config(tmp_path, monkeypatch)
    full = GameDriver(dice=Dice.scripted(HUMAN_STARTS),
                      session=Session(Settings(), savegame.Autosave()))
    full.until("Your move?")
    kept = path.read_bytes()
    card = card_driver(dice=Dice.scripted(HUMAN_STARTS),
                       session=Session(Settings(rules="1983"), savegame.Autosave()),
                       resume=True)
    card.until("Your move?")
    assert all("Resume" not in line for line in card.text())
    card.type("m4\n")
    card.type("quit\n")                       # a new game: the FULL save is not forgotten
    card.until("The opening throw")
    assert path.read_bytes() == kept
    again = GameDriver(dice=Dice.scripted([]), session=Session(Settings()), resume=True)
    again.until("Resume saved game? (Y/N)")


def test_rules_turned_to_1983_in_the_options_mid_game_start_a_new_game_under_them(tmp_path,
                                                                                   monkeypatch):
    path = _config(tmp_path, monkeypatch)
    settings = Settings(cube=True, match_length=5)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [3, 1]), settings=settings,
                        session=Session(settings, savegame.Autosave()))
    driver.until("Your move?")
    kept = path.read_bytes()                 # the FULL match at this turn's start
    driver.type("o\n")
    driver.until("OPTIONS")
    driver.type("e\n")                       # Rules 1983, ENTER: back to the board
    driver.until("Game abandoned")
    driver.until("The opening throw")
    board_game = driver.game
    assert len(driver.games) == 2 and board_game.table.settings.rules_1983
    assert not board_game.state.match.cube_enabled and board_game.state.match.length is None
    assert path.read_bytes() == kept         # the FULL match left as it was, for FULL
