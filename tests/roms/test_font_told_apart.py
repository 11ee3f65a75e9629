"""Glyphs a reader could take for one another are told apart at a glance (issue 59 item 5):
in our font the letter l was the digit 1 with one pixel moved, so the computer's "l4 l3"
read "I play 14 13"; O and 0, H and N differed by two pixels. gnubg position and match IDs,
which a player types in, hold every one of them. The measure is the pixels that differ
between two glyphs' 8 x 8 cells (the old pairs: 2 or 3)."""
import pytest

from roms.make_font import GLYPHS, glyph_bytes

AT_A_GLANCE = 4                    # pixels: at least a stroke's worth of shape


def differing_pixels(a: str, b: str) -> int:
    return sum(bin(x ^ y).count("1") for x, y in zip(glyph_bytes(a), glyph_bytes(b),
                                                        strict=True))


@pytest.mark.parametrize("pair", ["l1", "lI", "1I", "l|", "li", "O0", "o0", "HN"])
def test_letters_and_digits_a_reader_could_confuse_differ_in_shape(pair):
    assert differing_pixels(*pair) >= AT_A_GLANCE, pair


def test_the_letter_l_has_a_foot_to_the_right_where_1_has_a_flag_and_a_base():
    l_rows, one_rows = GLYPHS["l"], GLYPHS["1"]
    assert l_rows[5].rstrip(".").endswith("###") and l_rows[5].index("#") > l_rows[4].index("#")
    assert one_rows[2].startswith("##") and one_rows[5] == ".####.."
    assert not any(row[0] == "#" for row in l_rows)        # no flag, no serif to the left


def test_the_digit_0_is_narrower_than_the_letter_o():
    def width(char):
        return max(row.rstrip(".").__len__() - (len(row) - len(row.lstrip("."))) for row in
                   GLYPHS[char])
    assert width("0") < width("O")
