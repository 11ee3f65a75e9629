"""The import edges of issue 48 item 7 (game/matchfiles/matread.py, sgfread.py, imports.py): each
comes back as one line naming the file and the line, or is read as GNU Backgammon reads it
(checked with `gnubg -t` where it can be). A .mat holding only its header; "????", a roll
with no legal play; a quoted move from a line of 300 KB; an .sgf cut inside a value; a
stray '(' before the first game. The files are our own exports of seeded matches."""
import os
import re
import subprocess
import sys

import pytest

from game.matchfiles.imports import import_text
from game.matchfiles.matfile import format_mat, parse_mat
from game.matchfiles.sgf import format_sgf
from gnubg_tools import comparable, run_gnubg_commands
from import_checks import fault, match_keys
from scripted_matches import scripted_match
from spectrum.quoting import SHOWN_CHARS

NO_PLAY_SEED = 0                 # a seeded match in which rolls cannot be played (checked)
EMPTY_PLAY = re.compile(r"([1-6][1-6]):(?= {3,}\S| *$)")


@pytest.fixture(scope="module")
def three_games():
    return scripted_match(7, 5, double_rate=0.2, max_games=3).record


def test_a_mat_holding_only_its_header_names_its_last_line():
    line, what = fault(import_text(" 7 point match\n", "header.mat"), "header.mat")
    assert line == 2 and what == "no game in the file: it ends after the '7 point match' line"
    with_notes = "; [Site \"x\"]\n\n 7 point match\n\n\n"
    line, what = fault(import_text(with_notes, "notes.mat"), "notes.mat")
    assert line == 6 and what.startswith("no game in the file")


def test_the_console_says_the_line_of_a_header_only_mat_and_exits_2(tmp_path):
    path = tmp_path / "header.mat"
    path.write_text(" 7 point match\n")
    proc = subprocess.run([sys.executable, "-m", "game.main", "--review", str(path),
                           "--frames", "1"], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"))
    said = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(said) == 1, proc.stderr
    assert said[0] == f"Spectrum Backgammon: {path}, line 2: no game in the file: it ends " \
                      f"after the '7 point match' line"


def no_play_mat():
    """Our .mat of a match with unplayable rolls, and the same with each written "????"."""
    record = scripted_match(7, NO_PLAY_SEED, double_rate=0.0, max_games=3).record
    text = format_mat(record)
    marked = "\n".join(EMPTY_PLAY.sub(r"\1: ????", line) for line in text.splitlines())
    assert marked.count("????") >= 2
    return record, text, marked


def test_four_question_marks_are_a_roll_with_no_play():
    record, _, marked = no_play_mat()
    imported = import_text(marked, "q.mat")
    assert imported.problem is None and match_keys(imported.record) == match_keys(record)


def test_gnubg_reads_four_question_marks_as_we_do(tmp_path):
    record, text, marked = no_play_mat()
    (tmp_path / "q.mat").write_text(marked)
    code, said = run_gnubg_commands(tmp_path, [f"import mat {tmp_path / 'q.mat'}",
                                               f"export match mat {tmp_path / 'back.mat'}"])
    assert code == 0 and (tmp_path / "back.mat").exists(), said
    back = (tmp_path / "back.mat").read_text()
    assert comparable(parse_mat(back)) == comparable(parse_mat(text))   # "????": no play


def test_a_move_quoted_from_a_line_of_300_kb_is_cut_to_40_characters(three_games):
    lines = format_mat(three_games).splitlines()
    at = next(k for k, line in enumerate(lines) if re.search(r"\d\) \d\d: \S", line))
    lines[at] = re.sub(r"(\d\d): .*", r"\1: " + "24/23 " * 50_000, lines[at])   # 300 KB
    imported = import_text("\n".join(lines), "long.mat")
    line, what = fault(imported, "long.mat")
    assert line == at + 1 and len(what) < 200, what[:300]
    quoted = re.findall(r"'[^']*'?", what)
    assert quoted and all(len(q) <= SHOWN_CHARS for q in quoted), what


def test_an_sgf_cut_inside_any_value_says_it_ends_inside_that_value(three_games):
    text = format_sgf(three_games)
    first_game_end = text.index("\n(;FF[4]")
    cuts = [k for k in range(first_game_end) if text[k] == "[" and text[k + 1] != "]"]
    for start in cuts[:40]:                  # the root's values and the first moves
        cut = text[:start + 2]               # a '[' and one character of its value
        imported = import_text(cut, "cut.sgf")
        line, what = fault(imported, "cut.sgf")
        assert line == cut.count("\n") + 1
        assert what.startswith("the file ends inside a value of "), (cut[-30:], what)


def test_a_stray_paren_before_the_first_game_loads_every_game(three_games):
    text = format_sgf(three_games)
    for stray in ("(\n" + text, "(" + text + ")\n", text.replace("\n(;FF", "\n(\n(;FF", 1)):
        imported = import_text(stray, "stray.sgf")
        assert imported.problem is None, imported.problem
        assert match_keys(imported.record) == match_keys(import_text(text, "m.sgf").record)


def test_gnubg_loads_every_game_of_a_file_with_a_stray_paren(tmp_path, three_games):
    (tmp_path / "stray.sgf").write_text("(\n" + format_sgf(three_games))
    code, said = run_gnubg_commands(tmp_path, [f"load match {tmp_path / 'stray.sgf'}",
                                               f"export match mat {tmp_path / 'back.mat'}"])
    assert code == 0 and (tmp_path / "back.mat").exists(), said
    back = import_text((tmp_path / "back.mat").read_text(), "back.mat")
    ours = import_text("(\n" + format_sgf(three_games), "stray.sgf")
    assert len(back.games) == len(ours.games) == 3
