"""Set up your own board (game/scenes/setup_board.py): point by point or by gnubg position ID, on
the real 48K with typed keys, and the refusals of impossible set-ups with their reasons.
The entry rules are also checked directly on apply_entry."""
import pytest

from game.board import screen as S
from game.model.position import Position
from game.scenes import setup_board as SB
from gamedriver import RomRoutineDriver as RoutineDriver

START_ID = "4HPwATDgc/ABMA"


def driver_for(start=None, explain=False):
    def routine(basic):
        screen = S.Screen(basic.memory, basic.print_at)
        return SB.setup_board(basic, screen, start=start, explain=explain)
    driver = RoutineDriver(routine)
    driver.until(SB.PROMPT, max_frames=20, row=S.MESSAGE_ROW)
    return driver


def empty():
    return (0,) * 50


# ---------------------------------------------------------------------------------------
# the entries, directly

def test_setup_white_k3_puts_three_white_men_on_the_humans_11_point():
    action, board = SB.apply_entry(empty(), "W K3")
    assert action == "changed" and board[10] == 3 and sum(board) == 3


def test_setup_black_letters_count_from_the_humans_side_and_z_is_the_bar():
    _, board = SB.apply_entry(empty(), "b x2")          # x = the computer's 1-point
    assert board[25 + 0] == 2
    _, board = SB.apply_entry(board, "B Z1")
    assert board[25 + 24] == 1
    _, board = SB.apply_entry(board, "w3a")              # 3A and A3 both read
    assert board[0] == 3


def test_setup_a_count_replaces_what_was_there_and_zero_clears_it():
    _, board = SB.apply_entry(Position.start().board, "W F0")
    assert board[5] == 0 and SB.men_on_board(board) == (10, 15)


def test_setup_refuses_sixteen_white_men():
    with pytest.raises(SB.SetupError, match="White would have 16 men"):
        SB.apply_entry(Position.start().board, "W K1")
    with pytest.raises(SB.SetupError, match="only 15 men"):
        SB.apply_entry(empty(), "W K16")


def test_setup_refuses_both_colours_on_one_point():
    _, board = SB.apply_entry(empty(), "W K3")
    with pytest.raises(SB.SetupError, match="cannot share a point"):
        SB.apply_entry(board, "B K2")


def test_setup_both_bars_may_hold_men():
    _, board = SB.apply_entry(empty(), "W Z2")
    _, board = SB.apply_entry(board, "B Z2")
    assert board[24] == 2 and board[49] == 2


def test_setup_refuses_a_malformed_position_id_with_the_reason():
    with pytest.raises(SB.SetupError, match="not a position ID"):
        SB.apply_entry(empty(), "4HPwATDgc/AB")            # 12 characters
    with pytest.raises(SB.SetupError, match="not a position ID"):
        SB.apply_entry(empty(), "4HPwATDgc/AB!A")
    with pytest.raises(SB.SetupError):
        SB.apply_entry(empty(), "//////////////")         # more men than two sides have


def test_setup_position_id_gives_that_position_with_the_human_on_roll():
    action, board = SB.apply_entry(empty(), START_ID)
    assert board == Position.start().board
    racing = Position.from_points({1: 2, 2: 3, 6: 4}, {3: 5, 20: 1})
    _, board = SB.apply_entry(empty(), racing.position_id)
    assert board == racing.board


def test_setup_go_refuses_an_empty_side():
    _, board = SB.apply_entry(empty(), "W K3")
    with pytest.raises(SB.SetupError, match="Each side needs"):
        SB.apply_entry(board, "GO")


def test_setup_words_clear_start_help_quit():
    assert SB.apply_entry(Position.start().board, "c") == ("changed", empty())
    assert SB.apply_entry(empty(), "S")[1] == Position.start().board
    assert SB.apply_entry(empty(), "?")[0] == "help"
    assert SB.apply_entry(empty(), "quit")[0] == "quit"
    with pytest.raises(SB.SetupError, match="Type e.g. W K3"):
        SB.apply_entry(empty(), "K3")


# ---------------------------------------------------------------------------------------
# on the machine

def test_setup_point_by_point_on_the_board_then_go_returns_the_position():
    driver = driver_for()
    assert "W 15" in driver.text()[SB.WHITE_COUNT_ROW]
    driver.type("c\n")
    driver.run(2)
    assert "W  0" in driver.text()[SB.WHITE_COUNT_ROW]
    for line in ("W F5", "w e4", "W Z1", "B X2", "B s3", "b k2"):
        driver.type(line + "\n")
        driver.run(2)
    assert "W 10" in driver.text()[SB.WHITE_COUNT_ROW]
    assert "B  7" in driver.text()[SB.BLACK_COUNT_ROW]
    driver.type("GO\n")
    position = driver.finish()
    expected = Position.from_points({6: 5, 5: 4, "bar": 1}, {1: 2, 6: 3, 14: 2})
    assert position == expected


def test_setup_typed_position_id_then_enter_plays_from_it():
    racing = Position.from_points({1: 2, 2: 3, 6: 4}, {3: 5, 20: 1})
    driver = driver_for()
    driver.type(racing.position_id + "\n")       # capitals, '/' and '+' through the matrix
    driver.run(2)
    driver.type("\n")
    assert driver.finish() == racing


def test_setup_refuses_sixteen_white_men_on_screen_and_keeps_the_board():
    driver = driver_for()
    driver.type("W K1\n")
    driver.run(2)
    assert "White would have 16 men" in driver.words()
    assert "Press ENTER" in driver.text()[S.MESSAGE_ROW]
    driver.type("\n")
    driver.until(SB.PROMPT, max_frames=20, row=S.MESSAGE_ROW)
    assert "White would" not in driver.words()
    assert "W 15" in driver.text()[SB.WHITE_COUNT_ROW]
    driver.type("\n")
    assert driver.finish() == Position.start()


def test_setup_refuses_a_malformed_id_on_screen_with_the_reason():
    driver = driver_for()
    driver.type("4HPwATDgc/AB\n")
    driver.run(2)
    assert "is not a position ID: it must be exactly 14 characters" in driver.words()
    driver.type("\n")
    driver.until(SB.PROMPT, max_frames=20, row=S.MESSAGE_ROW)
    driver.type("quit\n")
    assert driver.finish() is None


def test_setup_explains_its_entries_first():
    def routine(basic):
        return SB.setup_board(basic, S.Screen(basic.memory, basic.print_at))
    driver = RoutineDriver(routine)
    driver.run(3)
    words = driver.words()
    assert "SET UP A BOARD" in words and "W K3 three white men on K" in words
    driver.type("\n")
    driver.until(SB.PROMPT, max_frames=30, row=S.MESSAGE_ROW)
