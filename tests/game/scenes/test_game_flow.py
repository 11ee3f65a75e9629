"""The game as the inlay card describes it, driven frame by frame with scripted keys and
seeded dice: the opening throw and ties, K4/4K, z, illegal-move recovery, forfeits, bearing
off, QUIT, a whole game to its end. Reads the screen back as text."""
import pytest

from game import words
from game.model import rules
from game.model.dice import Dice
from game.model.match import HUMAN
from game.model.position import Position
from game.scenes import timing
from gamedriver import GameDriver
from human_player import play_to_end
from shared_cases import CLOSED_BOARD

MESSAGE = 23


def test_complete_game_human_against_computer_reaches_a_winner():
    driver = GameDriver(seed=11)
    verdict = play_to_end(driver)
    assert verdict.startswith(("YOU WIN", "I WIN"))
    assert "point" in verdict
    assert "Press any key for a new game" in driver.message()
    result = rules.game_result(driver.game.state.position)
    assert result != 0
    driver.type("x")
    driver.until("The opening throw")
    assert len(driver.games) == 2


def test_rule1_opening_throw_tie_asks_enter_then_throws_again():
    driver = GameDriver(dice=Dice.scripted([3, 3, 2, 5]))
    driver.until("Tie: press ENTER to throw again")
    driver.type("\n")
    driver.until("You start with 5 and 2")
    assert driver.log[:2] == ["opening 3 3", "opening 2 5"]


def test_rule1_higher_top_die_means_computer_starts_with_both_numbers():
    driver = GameDriver(dice=Dice.scripted([6, 1]))
    driver.until("I start with 6 and 1")
    driver.until("I play")
    driver.until("Your move?")
    assert driver.log[1].startswith("computer 61 ")


def test_to_play_k4_and_4k_both_move_a_man_either_case():
    # human starts with 4 (bottom) against 1 (top): plays 4 and 1
    driver = GameDriver(dice=Dice.scripted([1, 4]))
    driver.until("Your move?")
    before = driver.game.state.position
    driver.type("4M\n")                      # m = the human's 13-point
    driver.run(2)
    after = driver.game.state.position
    assert after != before and after.board[12] == 4 and after.board[8] == 1
    driver.type("f1\n")
    driver.until("I play")


def test_the_bar_z_enters_a_man():
    start = Position.from_points({"bar": 1, 6: 5, 8: 3, 13: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    driver = GameDriver(dice=Dice.scripted([1, 3]), start=start)
    driver.until("Your move?")
    driver.type("k3\n")                       # a man on the bar must enter first
    driver.until("Bar man goes first. Press ENTER")
    driver.type("\n")
    driver.type("z3\n")
    driver.run(2)
    assert driver.game.state.position.board[24] == 0
    assert driver.game.state.position.board[21] == 1     # entered on v, the human's 22-point


def test_illegal_entry_says_why_asks_enter_then_takes_a_legal_move():
    driver = GameDriver(dice=Dice.scripted([1, 4]))
    driver.until("Your move?")
    before = driver.game.state.position
    driver.type("k4\n")
    driver.until("No man on k. Press ENTER")
    assert driver.game.state.position == before
    driver.type("\n")
    driver.until("Your move?")
    driver.type("m4\n")
    driver.run(2)
    assert driver.game.state.position != before


def test_quit_at_your_move_resigns_and_the_next_game_starts():
    driver = GameDriver(dice=Dice.scripted([1, 4]))
    driver.until("Your move?")
    driver.resign_single()
    driver.until("The opening throw")
    assert len(driver.games) == 2 and driver.games[0].state.match.results[-1].kind == "resign"


def test_the_bar_blocked_entry_forfeits_the_turn_with_a_message():
    driver = GameDriver(dice=Dice.scripted([1, 5]), start=CLOSED_BOARD)
    driver.until("You start with 5 and 1")
    driver.until("You can't enter. Press ENTER")
    before = driver.game.state.position
    driver.type("\n")
    driver.until("My throw")
    assert driver.game.state.position == before
    assert driver.log[-1] == "human 51 forfeit"


def test_game_against_a_closed_board_plays_to_its_end():
    driver = GameDriver(seed=4, start=CLOSED_BOARD)
    verdict = play_to_end(driver)
    assert "WIN" in verdict
    assert any(entry.endswith("forfeit") for entry in driver.log)


def test_rule8_bearing_off_takes_a_man_off_and_counts_it_beside_the_board():
    home = Position.from_points({1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3}, {1: 5, 2: 5, 3: 5})
    driver = GameDriver(dice=Dice.scripted([1, 6]), start=home)
    driver.until("Your move?")
    driver.type("f6\n")                   # a 6 bears a man off the f (6) point
    driver.run(2)
    assert driver.game.state.position.borne_off()[0] == 1
    assert driver.game.table.screen.shown.off_white == 1
    driver.type("a1\n")
    driver.run(2)
    assert driver.game.state.position.borne_off()[0] == 2


def test_rule8_a_die_that_carries_a_man_past_a_bears_it_off():
    home = Position.from_points({1: 1, 2: 1, 3: 1}, {1: 5, 2: 5, 3: 5})
    driver = GameDriver(dice=Dice.scripted([1, 6]), start=home)
    driver.until("Your move?")
    driver.type("c6\n")                   # the highest man, c, goes off with a 6
    driver.run(2)
    assert driver.game.state.position.board[2] == 0
    assert driver.game.state.position.borne_off()[0] == 13


def test_the_end_of_a_game_names_the_winner_and_a_gammon():
    last = Position.from_points({1: 1}, {1: 5, 2: 5, 3: 5})
    driver = GameDriver(dice=Dice.scripted([1, 6]), start=last)
    driver.until("Your move?")
    driver.type("a6\n")
    driver.until("YOU WIN a gammon (2 points)")
    driver.until("Press any key for a new game")
    result = driver.game.state.match.results[-1]
    assert (result.winner, result.kind, result.points) == (HUMAN, "gammon", 2)


def test_the_end_of_a_game_backgammon_counts_three():
    last = Position.from_points({1: 1}, {1: 5, 2: 5, 20: 5})
    driver = GameDriver(dice=Dice.scripted([1, 6]), start=last)
    driver.until("Your move?")
    driver.type("a6\n")
    driver.until("YOU WIN a backgammon (3 points)")
    result = driver.game.state.match.results[-1]
    assert (result.winner, result.kind, result.points) == (HUMAN, "backgammon", 3)


def test_no_possible_play_forfeits_the_turn_with_a_message():
    primed = Position.from_points({8: 15}, {18: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 1: 3})
    driver = GameDriver(dice=Dice.scripted([1, 6]), start=primed)
    driver.until("You cannot move. Press ENTER")
    driver.type("\n")
    driver.until("My throw")
    assert driver.game.state.position == primed
    assert driver.log[-1] == "human 61 forfeit"


def test_computer_play_is_written_in_letter_notation_and_shown_man_by_man():
    driver = GameDriver(dice=Dice.scripted([6, 1]))
    driver.until("I play")
    words = driver.message().split()[2:]
    assert len(words) == 2
    assert all(w[0] in "abcdefghijklmnopqrstuvwxz" and w[1] in "16" for w in words)
    start = Position.start()
    driver.run(timing.STEP_PAUSE_FRAMES + 1)      # the first man has moved, not the second
    assert driver.game.state.position != start
    after_first = driver.game.state.position
    driver.run(timing.STEP_PAUSE_FRAMES)
    assert driver.game.state.position != after_first


@pytest.mark.parametrize("entries", [("h2", "f4"), ("4F", "2H")])
def test_rule4_either_number_may_be_played_first(entries):
    driver = GameDriver(dice=Dice.scripted([2, 4]))
    driver.until("You start with 4 and 2")
    driver.until("Your move?")
    for entry in entries:
        driver.type(entry + "\n")
        driver.run(2)
    driver.until("My throw")
    board = driver.game.state.position.board          # 8/6 and 6/2: h has 2, f still 5, b 1
    assert (board[7], board[5], board[1]) == (2, 5, 1)


def test_rule4_when_only_one_die_can_be_played_it_must_be_the_higher():
    one_only = Position.from_points({13: 1, 1: 14}, {23: 2, 1: 13})
    driver = GameDriver(dice=Dice.scripted([5, 6]), start=one_only)
    driver.until("Your move?")
    driver.type("m5\n")
    driver.until("Play the higher die. Press ENTER")
    driver.type("\n")
    driver.type("m6\n")
    driver.until("My throw")
    assert driver.game.state.position.board[6] == 1


def test_rule6_a_hit_blot_goes_to_the_green_bar_on_screen():
    blot = Position.from_points({9: 2, 6: 5, 13: 5, 24: 3}, {20: 1, 6: 5, 8: 3, 13: 6})
    driver = GameDriver(dice=Dice.scripted([1, 4]), start=blot)
    driver.until("Your move?")
    driver.type("i4\n")                        # 9/5 lands on the black blot on e
    driver.run(2)
    assert driver.game.state.position.board[25 + 24] == 1
    assert driver.game.table.screen.shown.bar_black == 1
    assert driver.game.table.screen.shown.points[5] == 1


def test_every_reason_the_rules_give_has_a_few_words_that_fit_the_message_line():
    from native import lib
    for code in range(lib.BG_STEP_NO_SUCH_DIE, lib.BG_STEP_TURN_OVER + 1):
        for from_index, die in ((10, 6), (24, 3), (2, 5)):
            said = words.step_words(code, from_index, die)
            assert said != "Not allowed", code
            assert len(said + words.PRESS_ENTER) <= 32


def test_seeded_dice_replay_the_same_game():
    logs = []
    for _ in range(2):
        driver = GameDriver(seed=99)
        play_to_end(driver)
        logs.append(list(driver.log))
    assert logs[0] == logs[1] and len(logs[0]) > 10


def test_a_play_the_rules_refuse_is_never_shown_for_the_computer():
    def bogus(position, dice, terms=None):
        return rules.Play(position, ())            # "no move" although moves exist
    driver = GameDriver(dice=Dice.scripted([6, 1]), chooser=bogus)
    driver.until("I play")
    driver.until("Your move?")
    assert driver.game.state.position != Position.start()
