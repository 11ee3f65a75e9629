"""spectrum/quoting.py, the one way an error line quotes what it was given: whatever the
input (a raw newline, a control, a character that does not print, 15 MB of it, any object),
the quoted part is one printable line of at most 40 characters, as repr escapes it."""
import pytest

from game.errors import EntryError, PositionIdError
from game.files.validate import show
from game.model.position import Position, parse_entry
from spectrum.quoting import SHOWN_CHARS, escaped, quoted

ODD = ["bs:0\n0", "a\rb", "\x00\x1b[2J", "\u2028x\x85", "\U00018d09", "\t", "é" * 60,
       "x" * (15 << 20), b"\x00\xff" * 100, 12, None, [1, "a\nb"] * 50]


@pytest.mark.parametrize("value", ODD, ids=range(len(ODD)))
def test_a_quoted_part_is_one_printable_line_of_at_most_40_characters(value):
    text = quoted(value)
    assert text.isprintable() and len(text) <= SHOWN_CHARS


def test_a_short_value_is_quoted_whole_as_repr_writes_it_and_a_long_one_ends_in_dots():
    assert quoted("bs:0\n0") == repr("bs:0\n0") == "'bs:0\\n0'"
    assert quoted("x" * 100) == "'" + "x" * 36 + "..."
    assert escaped("Alice") == "Alice" and escaped("a\nb") == "a\\nb"
    assert escaped("y" * 41) == "y" * 37 + "..." and escaped("y" * 40) == "y" * 40


def test_the_files_position_ids_and_typed_moves_quote_through_it():
    assert show("line\nbreak") == quoted("line\nbreak")
    with pytest.raises(PositionIdError) as bad_id:
        Position.from_id("4HPwATDgc/ABMA\n" * 3)
    with pytest.raises(EntryError) as bad_entry:
        parse_entry("k\n4" * 10)
    for error in (bad_id.value, bad_entry.value):
        assert str(error).isprintable() and "\\n" in str(error)
