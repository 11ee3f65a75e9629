"""spectrum/quoting.py, the one way an error line quotes what it was given: whatever the
input (a raw newline, a control, a character that does not print, 15 MB of it, any object),
the quoted part is one printable line of at most 40 characters, as repr escapes it; and
every line to the terminal (issue 59) is one printable line, a path in it short."""
import pytest

from game.errors import EntryError, PositionIdError
from game.files.validate import show
from game.model.position import Position, parse_entry
from spectrum.quoting import (
    LINE_CHARS,
    PATH_CHARS,
    SHOWN_CHARS,
    escaped,
    os_words,
    quoted,
    say,
    short_path,
    terminal_line,
)

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


# ---------------------------------------------------------------- issue 59: every terminal line
HOSTILE = {"clear screen": "\x1b[2J", "retitle": "\x1b]0;owned\x07", "right-to-left": "\u202e",
           "lone surrogate": "\ud800", "line break": "\r\n", "C1 CSI": "\x9b2J"}


@pytest.mark.parametrize("what", HOSTILE, ids=list(HOSTILE))
def test_a_terminal_line_never_holds_a_character_that_does_not_print(what, capsys):
    line = terminal_line(f"game saved: Bad{HOSTILE[what]}Name to play")
    assert line.isprintable() and line.startswith("game saved: Bad\\")
    say(f"x{HOSTILE[what]}y")
    err = capsys.readouterr().err
    assert err.endswith("\n") and err[:-1].isprintable() and err.count("\n") == 1


def test_a_terminal_line_is_cut_to_its_limit_however_long_its_parts():
    assert len(terminal_line("x" * 100_000)) == LINE_CHARS


def test_a_long_path_keeps_its_start_and_its_own_name_and_an_escape_in_it_is_shown():
    path = "/home/" + "deep/" * 1000 + "savegame.json"
    short = short_path(path)
    assert len(short) == PATH_CHARS and short.startswith("/home/deep/")
    assert short.endswith("/deep/savegame.json") and "..." in short
    assert short_path("/tmp/a\x1b[2Jb/settings.json") == "/tmp/a\\x1b[2Jb/settings.json"
    assert short_path("/ordinary/path") == "/ordinary/path"


def test_an_os_error_is_said_without_its_errno_and_with_its_file_short():
    error = FileExistsError(17, "File exists", "/tmp/" + "x" * 5000)
    words = os_words(error)
    assert words.startswith("/tmp/xx") and words.endswith(": File exists")
    assert "Errno" not in words and len(words) <= PATH_CHARS + len(": File exists")
    assert os_words(OSError(28, "No space left on device")) == "No space left on device"
