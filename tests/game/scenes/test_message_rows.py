"""Words that need more than the message line are shown at once and stay still (issue 59
item 3): the resignation question and the keys under the game-over banner took turns on one
line every 2-3 s, so half of them was easy to miss. game/board/message_rows.py shows them on
the message line and the board's rows just above it, and puts those rows back after."""
import pytest

from game.board import message_rows
from game.board import screen as S
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import HUMAN, Match
from game.scenes.resign import question_lines
from gamedriver import GameDriver, board
from shared_cases import HUMAN_STARTS

QUESTION = ["Resign? N plays on", "1 single, 2 gammon, 3 backgammon"]


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


CUBES = [1 << n for n in range(7)]             # 1 to 64


@pytest.mark.parametrize("cube", CUBES)
def test_the_question_fits_the_two_rows_the_board_spares_at_every_cube(cube):
    lines = question_lines(cube)
    assert len(lines) <= message_rows.PLAY_ROWS
    message_rows.check(lines)                   # the columns each row holds


@pytest.mark.parametrize("cube", [2, 64])
def test_the_question_at_a_turned_cube_covers_no_bottom_point_or_man(cube):
    """With the cube at 2 a third row ("Cube 2: 2, 4 or 6 points") was drawn over the
    bottom points' last row, men included, until the question was answered."""
    match = Match(None)
    match.start_game()
    match.cube_value, match.cube_owner = cube, HUMAN
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), match=match)
    driver.until("Your move?")
    points = rows_bytes(driver, S.BOTTOM_FIRST_ROW, S.BOTTOM_LETTER_ROW - 1)
    driver.type("QUIT\n")
    driver.until(f"Resign (cube {cube})? N plays on", row=S.MESSAGE_ROW - 1)
    assert driver.message() == "1 single, 2 gammon, 3 backgammon"
    assert rows_bytes(driver, S.BOTTOM_FIRST_ROW, S.BOTTOM_LETTER_ROW - 1) == points


@pytest.mark.parametrize(("kind", "men", "points"), [
    ("single", {0: 3, 1: 3}, 64), ("gammon", {12: 15}, 128), ("backgammon", {20: 15}, 192)])
def test_the_computers_offer_at_cube_64_is_one_whole_line_on_the_message_line(kind, men, points):
    """The computer's own offer (it can no longer win, its result certain) of each kind at
    the highest cube: one line, the message line, whole with its (Y/N)."""
    match = Match(None)
    match.start_game()
    match.cube_value, match.cube_owner = 64, HUMAN
    driver = GameDriver(dice=Dice.scripted([6, 6]), start=board({0: 1}, men), match=match,
                        settings=Settings(who_starts="computer"))
    driver.until("Accept? (Y/N)")
    assert driver.message() == f"I resign {points} pts. Accept? (Y/N)", kind
    assert "resign" not in " ".join(driver.text()[:S.MESSAGE_ROW])


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
