"""The one rule for a line on the 32-column screen (issue 59): a line holds what its columns
hold; words that do not fit are laid out again (wrapped, moved to another row) and never cut
or dropped unheard. game/board/lines.py lost() tells the tests' listeners of anything a page
had no room for: a refusal longer than its rows, a page longer than the screen; and a
file's name or the reason it was not written, too long for the message line, is shown whole
over the rows above it."""
import pytest

from game.board import lines
from game.board import screen as S
from game.pages import menus
from game.scenes.match_end import said_whole
from gamedriver import RoutineDriver


@pytest.fixture
def heard(monkeypatch):
    words: list[str] = []
    monkeypatch.setattr(lines, "CUT_LISTENERS", [words.append])
    return words


def test_a_refusal_longer_than_its_rows_is_heard_not_dropped_silently(heard):
    words = " ".join(f"word{n}" for n in range(40))
    driver = RoutineDriver(lambda basic: menus.tell(basic, words))
    driver.run(2)
    assert heard and "word39" in heard[0]


def test_a_page_longer_than_the_screen_is_heard(heard):
    page = [f"line {n}" for n in range(S.PAGE_LINES + 2)]
    driver = RoutineDriver(lambda basic: menus.text_screen(basic, "PAGE", page))
    driver.run(2)
    assert heard == [f"line {S.PAGE_LINES}\nline {S.PAGE_LINES + 1}"]


def test_a_page_that_fits_is_heard_of_nothing(heard):
    driver = RoutineDriver(lambda basic: menus.text_screen(basic, "PAGE", ["x" * S.COLS]))
    driver.run(2)
    assert heard == []


def test_words_too_long_for_the_message_line_are_shown_whole_over_the_rows_above(heard):
    reason = "Not saved: No space left on device"          # 34 columns
    driver = RoutineDriver(lambda basic: said_whole(
        basic, S.Screen(basic.memory, basic.print_at), reason))
    driver.run(2)
    shown = " ".join(line.strip() for line in driver.text()[S.MESSAGE_ROW - 2:S.MESSAGE_ROW])
    assert shown == reason and "Press ENTER" in driver.message()
    driver.type("\n")
    assert driver.finished and heard == []


def test_words_that_fit_stay_on_the_message_line(heard):
    name = "Saved match-20261129-013500.mat"
    driver = RoutineDriver(lambda basic: said_whole(
        basic, S.Screen(basic.memory, basic.print_at), name))
    driver.run(2)
    assert driver.message() == name and heard == []
