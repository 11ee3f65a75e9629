"""Any player's name exports (issue 59 item 10): X on a match whose name holds a lone surrogate
writes the .mat (it raised UnicodeEncodeError and left an empty .mat.tmp); names with control
characters, terminal escapes, bidi overrides, comment marks, colons, SGF's brackets and
backslashes, other scripts, or 100 letters write as writing.writable_name makes them, and our
reader and `gnubg -t` read back those names. A write that fails leaves no temporary file."""
import os
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from game.files.settings import Settings
from game.matchfiles import writing
from game.matchfiles.imports import import_text, read_match_file
from game.matchfiles.matfile import format_mat, mat_name, write_mat
from game.matchfiles.sgf import format_sgf, write_sgf
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, RESIGN, Match
from game.model.record import MatchRecord
from gamedriver import GameDriver
from gnubg_tools import run_gnubg_commands
from shared_cases import HUMAN_STARTS

NAMES = [   # (the name given, as the .mat holds it, as the .sgf holds it)
    ("Bad\ud800Name", "Bad?Name", "Bad?Name"),
    ("\udfff", "?", "?"),
    ("Esc\x1b[2Jclear", "Esc_[2Jclear", "Esc [2Jclear"),
    ("Osc\x1b]0;title\x07", "Osc_]0;title", "Osc ]0;title"),
    ("Rlo\u202eevil", "Rlo?evil", "Rlo?evil"),
    ("Tab\tand\nbreak\r", "Tab_and_break", "Tab and break"),
    (";Semi", "Semi", ";Semi"),
    ("#hash", "hash", "#hash"),
    ("a:b", "ab", "a:b"),
    ("Zoë Ångström", "Zoë_Ångström", "Zoë Ångström"),
    ("名前", "名前", "名前"),
    ("Sq]ua\\re[", "Sq]ua\\re[", "Sq]ua\\re["),
    ("L" * 100, "L" * 31, "L" * 31),                    # gnubg keeps 31 letters
    ("Two  words " + "W" * 30, "Two_words_" + "W" * 21, "Two words " + "W" * 21),
    ("", "Player", "Player"),
    ("\x00\x01", "Player", "Player"),
]
IDS = [repr(given)[:20] for given, _, _ in NAMES]


def one_game(name: str) -> MatchRecord:
    """A 3-point match of one game: `name` (the left column, White) resigns holding 3-2."""
    record = MatchRecord(3, names={HUMAN: name, COMPUTER: "Me"})
    record.start_game({HUMAN: 0, COMPUTER: 0})
    record.roll(HUMAN, (3, 2))
    record.win(COMPUTER, 1, RESIGN)
    return record


@pytest.mark.parametrize("given, in_mat, in_sgf", NAMES, ids=IDS)
def test_every_name_writes_and_reads_back_as_the_writer_made_it(given, in_mat, in_sgf):
    record = one_game(given)
    assert mat_name(given) == in_mat
    for text, name, expected in ((format_mat(record), "x.mat", in_mat),
                                 (format_sgf(record), "x.sgf", in_sgf)):
        text.encode("utf-8")                          # no lone surrogate left
        imported = import_text(text, name)
        assert imported.problem is None, imported.problem
        assert imported.record.names["white"] == expected
        assert (imported.games[0].winner, imported.games[0].points) == ("black", 1)


SCORE = re.compile(r"The score \(after 1 game\) is: (.*) (\d+), Me (\d+) \(match")
APART = "set jacoby - "       # what `help set jacoby` prints: one file's reading ends there


def gnubg_reads_names(folder, verb: str, paths: list) -> list[list]:
    """gnubg -t reads each file of `paths` in turn, in one run: per file, the names and points
    of the score line it shows (a new session before each file, so that one it cannot read
    shows no match's score, not the file's before)."""
    lines = ["set player 0 human", "set confirm new off"]
    for path in paths:
        lines += ["new session", f"{verb} {path}", "show score", "help set jacoby"]
    code, said = run_gnubg_commands(folder, lines)
    assert code == 0, said
    parts = said.split(APART)
    assert len(parts) == len(paths) + 1, said
    return [SCORE.findall(part) for part in parts[:-1]]


@pytest.fixture(scope="module")
def gnubg_reads(tmp_path_factory) -> dict:
    """What gnubg -t reads from our .mat and our .sgf of each name, one run a format (a run
    a file was most of this file's time): {("mat" or "sgf", the name given): its reading}."""
    folder = tmp_path_factory.mktemp("names")
    read = {}
    for fmt, verb, write in (("mat", "import mat", write_mat), ("sgf", "load match", write_sgf)):
        names = [given for given, _, _ in NAMES if fmt == "mat" or "\\" not in given]
        paths = [write(one_game(given), folder / f"{k}.{fmt}") for k, given in enumerate(names)]
        read.update({(fmt, given): found for given, found in
                     zip(names, gnubg_reads_names(folder, verb, paths), strict=True)})
    return read


@pytest.mark.parametrize("given, in_mat, in_sgf", NAMES, ids=IDS)
def test_gnubg_reads_our_mat_with_the_names_our_reader_reads_and_the_point(
        gnubg_reads, given, in_mat, in_sgf):
    assert gnubg_reads["mat", given] == [(in_mat, "0", "1")]


@pytest.mark.parametrize("given, in_mat, in_sgf",
                         [n for n in NAMES if "\\" not in n[0]],
                         ids=[i for i, n in zip(IDS, NAMES, strict=True) if "\\" not in n[0]])
def test_gnubg_reads_our_sgf_with_the_names_our_reader_reads_and_the_point(
        gnubg_reads, given, in_mat, in_sgf):
    """(A backslash is left out: gnubg 1.07 writes it as the SGF standard asks, "\\\\", and
    reads that back as two, its own files too; ours and our reader keep to the standard.)"""
    assert gnubg_reads["sgf", given] == [(in_sgf, "0", "1")]


def test_x_exports_a_match_whose_name_holds_a_lone_surrogate(tmp_path):
    match = Match(3)
    match.record.names[HUMAN] = "Bad\ud800Name"
    match.start_game()
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + HUMAN_STARTS), match=match,
                        export_dir=str(tmp_path), settings=Settings(match_length=3))
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until("1 single, 2 gammon, 3 backgammon")
    driver.type("1")
    driver.until("Press any key for a new game")
    driver.type(" ")
    driver.until("Your move?")
    driver.type("x\n")
    driver.until("Saved match-")
    files = os.listdir(tmp_path)
    assert len(files) == 1 and files[0].endswith(".mat")
    imported = read_match_file(tmp_path / files[0])
    assert imported.problem is None and imported.record.names["white"] == "Bad?Name"
    assert [(g.winner, g.points) for g in imported.games] == [("black", 1)]


def test_a_write_that_fails_leaves_no_temporary_file_and_the_old_file_whole(
        tmp_path, monkeypatch):
    target = tmp_path / "match.mat"
    target.write_text("the old file\n")

    def refused(source, destination):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(writing.os, "replace", refused)
    for write in (write_mat, write_sgf):
        with pytest.raises(OSError):
            write(one_game("You"), target)
        assert sorted(os.listdir(tmp_path)) == ["match.mat"]
        assert target.read_text() == "the old file\n"


def test_a_write_where_a_file_stands_for_the_folder_is_an_oserror_and_leaves_nothing(tmp_path):
    (tmp_path / "gone").write_text("a file, not a folder\n")
    with pytest.raises(OSError, match="not a folder"):
        write_mat(one_game("You"), tmp_path / "gone" / "match.mat")
    assert os.listdir(tmp_path) == ["gone"]


def test_an_export_into_a_folder_not_there_yet_makes_it(tmp_path):
    write_mat(one_game("You"), tmp_path / "new" / "match.mat")
    assert os.listdir(tmp_path / "new") == ["match.mat"]


def test_text_that_cannot_be_encoded_leaves_no_temporary_file(tmp_path):
    with pytest.raises(UnicodeError):
        writing.write_text(tmp_path / "x.mat", "\ud800")
    assert os.listdir(tmp_path) == []


@settings(deadline=None)
@given(st.text(st.characters(blacklist_categories=())))
@example("Bad\ud800Name")
@example("Line\u2028break\u2029para\x85next\x1cfile")
def test_any_name_at_all_writes_and_reads_back_as_the_writer_made_it(name):
    record = one_game(name)
    mat = import_text(format_mat(record), "x.mat")
    sgf = import_text(format_sgf(record), "x.sgf")
    assert mat.problem is None and sgf.problem is None
    assert mat.record.names["white"] == mat_name(name)
    assert sgf.record.names["white"] == (writing.writable_name(name) or "Player")
