"""Words that need more than the message line are shown at once and stay still (issue 59
item 3): the resignation question and the keys under the game-over banner took turns on one
line every 2-3 s, so half of them was easy to miss. game/board/message_rows.py shows them on
the message line and the board's rows just above it, and puts those rows back after."""
import pytest

from game.board import message_rows
from game.board import screen as S
from game.model.dice import Dice
from game.model.match import HUMAN, Match
from gamedriver import GameDriver
from shared_cases import HUMAN_STARTS

QUESTION = ["Resign: 1 single, 2 gammon,", "3 backgammon; N plays on"]


def rows_bytes(driver, first: int, last: int) -> bytes:
    return message_rows.keep(driver.game.table.screen, S.MESSAGE_ROW - first + 1)[
        :9 * S.COLS * (last - first + 1)]


def test_the_resignation_question_shows_both_rows_at_once_and_they_stay_still():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until(QUESTION[0], row=S.MESSAGE_ROW - 1)
    for _ in range(5):                          # 5 s: the old lines took turns every 2 s
        assert driver.text()[S.MESSAGE_ROW - 1].rstrip() == QUESTION[0]
        assert driver.message() == QUESTION[1]
        driver.run(50)


def test_the_question_at_a_turned_cube_adds_its_points_as_a_third_row():
    match = Match(None)
    match.start_game()
    match.cube_value, match.cube_owner = 4, HUMAN
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), match=match)
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until(QUESTION[0], row=S.MESSAGE_ROW - 2)
    assert driver.text()[S.MESSAGE_ROW - 1].rstrip() == QUESTION[1]
    assert driver.message() == "Cube 4: 4, 8 or 12 points"


def test_the_board_rows_the_question_covered_are_put_back_after_n():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    before = rows_bytes(driver, S.MESSAGE_ROW - 1, S.MESSAGE_ROW - 1)
    driver.type("QUIT\n")
    driver.until(QUESTION[0], row=S.MESSAGE_ROW - 1)
    assert rows_bytes(driver, S.MESSAGE_ROW - 1, S.MESSAGE_ROW - 1) != before
    driver.type("n")
    driver.until("Your move?")
    assert rows_bytes(driver, S.MESSAGE_ROW - 1, S.MESSAGE_ROW - 1) == before  # pixels, colours


@pytest.mark.parametrize("lines", [
    ["x" * 29, "fits"],                         # a row over the board: 28 columns, the panel
    ["fits", "x" * 33],                         # the message line: 32
    ["a", "b", "c", "d", "e"],                  # more rows than the message rows hold
    [],
])
def test_lines_shown_together_that_break_the_rule_are_refused_by_name(lines):
    with pytest.raises(message_rows.TooManyRows):
        message_rows.check(lines)
