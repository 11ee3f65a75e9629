"""game/board/lines.py's wrap, the one text wrapper of the pages: a paragraph broken at spaces
into lines of at most the width, every word kept in order; an empty paragraph is one blank
line; a word longer than the width stands alone on its line (fit cuts it where it is shown)."""
from hypothesis import given
from hypothesis import strategies as st

from game.board.lines import COLUMNS, wrap


def test_wrap_breaks_at_spaces_within_the_screens_32_columns():
    text = "Each side races its men round the board into its own corner, its inner table."
    assert wrap(text) == ["Each side races its men round",
                          "the board into its own corner,", "its inner table."]
    assert all(len(line) <= COLUMNS for line in wrap(text))


def test_wrap_of_an_empty_paragraph_is_one_blank_line():
    assert wrap("") == [""]


def test_a_word_longer_than_the_width_stands_alone():
    assert wrap("a " + "x" * 40 + " b", 10) == ["a", "x" * 40, "b"]


@given(st.lists(st.text("abcdefghij,.", min_size=1, max_size=12), max_size=30),
       st.integers(12, 40))
def test_wrap_keeps_every_word_in_order_and_no_line_over_the_width(words, width):
    lines = wrap(" ".join(words), width)
    assert " ".join(lines).split() == words
    assert all(len(line) <= width for line in lines)
