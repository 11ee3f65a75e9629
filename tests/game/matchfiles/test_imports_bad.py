"""Bad match files (game/matchfiles/imports.py): a file that is not a match, one cut short, an
illegal play, a position that cannot occur, a match length or score out of range, a 50 MB file
and binary junk each come back as one line naming the file, the line and what is wrong, with the
games before the bad one still offered; `spectrum-backgammon --review` says that line and never
a traceback. A fuzz test (hypothesis) mutates valid files: only that named fault, and every game
offered replays. The valid files are our own exports of seeded matches."""
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.analysis.replay import replay
from game.matchfiles.imports import MAX_FILE_BYTES, import_bytes, import_text, read_match_file
from game.matchfiles.matfile import format_mat
from game.matchfiles.sgf import format_sgf
from import_checks import fault
from scripted_matches import scripted_match


@pytest.fixture(scope="module")
def three_games():
    """A 7-point match of at least three games, with doubles."""
    m = scripted_match(7, 5, double_rate=0.2, max_games=3)
    assert len(m.record.games) == 3
    return m.record


def lines_of_game(text, number):
    """The line numbers (from 1) of game `number` in .mat text: its heading to its end."""
    lines = text.splitlines()
    first = lines.index(f" Game {number}") + 1
    last = next((k for k in range(first, len(lines)) if lines[k].startswith(" Game ")),
                len(lines))
    return first, last


def test_a_file_that_is_not_a_match_names_its_first_line():
    imported = import_text("Dear diary,\nToday I played backgammon.\n", "diary.mat")
    line, what = fault(imported, "diary.mat")
    assert line == 1 and "not a .mat match file" in what and not imported.games
    go = import_text("(;FF[4]GM[1]SZ[19];B[dd];W[pp])", "go.sgf")
    line, what = fault(go, "go.sgf")
    assert line == 1 and "not a backgammon game" in what and not go.games
    plain = import_text("hello", "plain.sgf")
    assert fault(plain, "plain.sgf") == (1, "not an SGF file: it does not start with '('")


def test_a_mat_cut_short_in_game_3_offers_games_1_and_2(three_games):
    text = format_mat(three_games)
    first, last = lines_of_game(text, 3)
    lines = text.splitlines()
    cut_at = next(k for k in range(first + 2, last) if "/" in lines[k])
    cut = "\n".join(lines[:cut_at]) + "\n" + lines[cut_at][:lines[cut_at].index("/") + 1]
    imported = import_text(cut, "cut.mat")
    assert [g.number for g in imported.games] == [1, 2]
    line, what = fault(imported, "cut.mat")
    assert line == cut_at + 1 and "cannot read the step" in what


def test_an_sgf_cut_short_in_game_3_offers_games_1_and_2(three_games):
    text = format_sgf(three_games)
    third = text.index("(;FF[4]", text.index("(;FF[4]", 1) + 1)
    cut = text[:third + (len(text) - third) // 2]
    imported = import_text(cut, "cut.sgf")
    assert [g.number for g in imported.games] == [1, 2]
    line, what = fault(imported, "cut.sgf")
    assert line == cut.count("\n") + 1
    assert what.startswith(("the file ends", "the property"))


def test_an_illegal_play_in_game_2_offers_game_1_and_names_its_line(three_games):
    text = format_mat(three_games)
    first, last = lines_of_game(text, 2)
    lines = text.splitlines()
    at = next(k for k in range(first + 2, last) if re.search(r"\d\d: \S", lines[k]))
    lines[at] = re.sub(r"(\d\d): (\S+)", r"\1: 24/1", lines[at], count=1)   # no roll does 23
    imported = import_text("\n".join(lines), "bad.mat")
    assert [g.number for g in imported.games] == [1]
    line, what = fault(imported, "bad.mat")
    assert line == at + 1 and "24/1" in what and "not a legal play" in what


def test_an_illegal_play_in_an_sgf_names_its_node(three_games):
    text = format_sgf(three_games)
    nodes = text.split("\n")
    at = next(k for k, node in enumerate(nodes) if re.match(r";W\[\d\d[a-z]{4}", node))
    nodes[at] = re.sub(r";W\[(\d\d)[a-z]{2}", r";W[\1ab", nodes[at])     # 1/2: backwards
    imported = import_text("\n".join(nodes), "bad.sgf")
    line, what = fault(imported, "bad.sgf")
    assert line == at + 1 and "1/2" in what and not imported.games


def test_a_position_that_cannot_occur_is_refused_with_its_reason():
    root = "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[A]PB[B]\n"
    sixteen = root + ";AE[a:y]" + "AW" + "[f]" * 16 + "AB[s]PL[W]\n;W[31fcfe])"
    line, what = fault(import_text(sixteen, "men.sgf"), "men.sgf")
    assert line == 2 and "cannot occur" in what and "fifteen" in what
    shared = root + ";AE[a:y]AW[f][f]AB[f]PL[W]\n;W[31fcfe])"
    line, what = fault(import_text(shared, "point.sgf"), "point.sgf")
    assert line == 2 and "share a point" in what


def test_play_after_the_end_of_a_game_cannot_occur(three_games):
    text = format_mat(three_games)
    lines = text.splitlines()
    first, last = lines_of_game(text, 1)
    wins = next(k for k in range(first, last) if "Wins" in lines[k])
    lines[wins] = re.sub(r"Wins \d+ points?", "31: 8/5 6/5", lines[wins])   # not a result
    imported = import_text("\n".join(lines), "over.mat")
    line, what = fault(imported, "over.mat")
    assert line == wins + 1 and "was already over" in what and not imported.games


@pytest.mark.parametrize("change,words", [
    ((" 7 point match", " 150 point match"), "a match to 150 points"),
    ((" Human : 0 ", " Human : 9 "), "a score of 9 is out of range"),
])
def test_a_match_length_or_score_out_of_range_in_a_mat(three_games, change, words):
    text = format_mat(three_games).replace(*change, 1)
    imported = import_text(text, "range.mat")
    line, what = fault(imported, "range.mat")
    where = next(k for k, line in enumerate(text.splitlines(), 1) if change[1].strip() in line)
    assert line == where and words in what
    assert not imported.games


def test_scores_that_do_not_follow_the_games_before_are_refused(three_games):
    text = format_mat(three_games)
    lines = text.splitlines()
    first, _ = lines_of_game(text, 3)
    lines[first] = re.sub(r": (\d+)", lambda m: f": {int(m.group(1)) + 1}", lines[first], count=1)
    imported = import_text("\n".join(lines), "score.mat")
    line, what = fault(imported, "score.mat")
    assert line == first + 1 and "does not follow game 2" in what
    assert [g.number for g in imported.games] == [1, 2]


def test_an_sgf_match_length_out_of_range(three_games):
    text = format_sgf(three_games).replace("MI[length:7]", "MI[length:150]", 1)
    line, what = fault(import_text(text, "long.sgf"), "long.sgf")
    assert line == 1 and "a match to 150 points" in what


def test_a_50_mb_file_is_refused_by_its_size_before_it_is_read(tmp_path, monkeypatch):
    big = tmp_path / "huge.mat"
    with open(big, "wb") as out:
        out.truncate(50 << 20)                       # 50 MiB, sparse: nothing to read
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    imported = read_match_file(big)
    assert reads == []                               # not a byte read
    assert imported.problem == (f"{big}: refused: {50 << 20:,} bytes, more than the "
                                f"{MAX_FILE_BYTES:,} allowed")
    assert not imported.games


def game_3_at(text: str) -> int:
    """Where game 3 starts in .mat or .sgf text."""
    if text.startswith("("):
        return [m.start() for m in re.finditer(re.escape("(;FF[4]"), text)][2]
    return text.index(" Game 3\n")


def test_more_games_than_a_file_may_hold_are_not_read(monkeypatch):
    import game.matchfiles.imports
    monkeypatch.setattr(game.matchfiles.imports, "MAX_GAMES", 2)
    record = scripted_match(None, 3, double_rate=0.1, max_games=3).record
    text = format_mat(record)
    imported = import_text(text, "many.mat")
    line, what = fault(imported, "many.mat")
    assert [g.number for g in imported.games] == [1, 2]
    assert what == "more than 2 games: the rest are not read"
    assert text.splitlines()[line - 2] == " Game 3"


def test_binary_junk_names_its_line_and_keeps_the_games_before(three_games):
    junk = bytes(range(256)) * 4
    line, what = fault(import_bytes(junk, "junk.mat"), "junk.mat")
    assert line == 1 and "binary data" in what
    for fmt, text in (("mat", format_mat(three_games)), ("sgf", format_sgf(three_games))):
        at = game_3_at(text) + 40
        imported = import_bytes(text[:at].encode() + junk + text[at:].encode(), f"junk.{fmt}")
        line, what = fault(imported, f"junk.{fmt}")
        assert line == text[:at].count("\n") + 1 and "binary data" in what
        assert [g.number for g in imported.games] == [1, 2]


def test_the_console_says_the_one_line_and_no_traceback(tmp_path):
    junk = tmp_path / "junk.mat"
    junk.write_bytes(b"\x00\x01\x02 not a match\n")
    missing = tmp_path / "missing.sgf"
    for path, words in ((junk, "line 1: binary data"), (missing, "there is no such file")):
        proc = subprocess.run([sys.executable, "-m", "game.main", "--review", str(path),
                               "--frames", "1"], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, SDL_VIDEODRIVER="dummy",
                                       SDL_AUDIODRIVER="dummy"))
        assert proc.returncode == 2
        said = proc.stderr.strip().splitlines()
        assert len(said) == 1 and said[0].startswith(f"Spectrum Backgammon: {path}")
        assert words in said[0] and "Traceback" not in proc.stderr + proc.stdout


# ---- fuzz: mutated valid files -----------------------------------------------------------

def _valid_files():
    out = []
    for length, seed, rate in ((3, 4, 0.5), (None, 3, 0.1)):
        record = scripted_match(length, seed, double_rate=rate, max_games=3).record
        out += [("m.mat", format_mat(record)), ("m.sgf", format_sgf(record))]
    return out


VALID = _valid_files()
MAX_PROBLEM_CHARS = 200          # the longest fault line: words and two quoted parts of 40 at most
PIECES = st.sampled_from(["/", "*", "(", ")", ";", "[", "]", "\\", ":", " ", "\n", "0",
                          "25", "99", "Game 2", "Wins 9 points", "Doubles => 3", "Drops",
                          "W[double]", "B[take]", "AW[a:y]", "MI[length:", "RE[W+1R]",
                          "\x00", "\xff", "é"])


@st.composite
def mutated(draw):
    name, text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["delete", "insert", "cut", "swap", "repeat"]))
        if kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif kind == "insert":
            text = text[:at] + draw(st.one_of(PIECES, st.text(max_size=8))) + text[at:]
        elif kind == "cut":
            text = text[:at]
        else:
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = (lines[j], lines[k]) if kind == "swap" else (lines[k],
                                                                              lines[k])
            text = "\n".join(lines)
    return name, text


def _edited(name, *edits):
    """The last valid file of that name (the money session's) with, for each (old, new) of
    `edits`, its first `old` made `new`: an example the explorer found, rebuilt."""
    text = dict(VALID)[name]
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    return name, text


# the examples `--hypothesis-profile=explore` found, replayed on every run
@example(_edited("m.sgf", ("[bs:0]", "[bs:0\n0]")))        # a raw newline in the error line
@example(_edited("m.sgf", ("PW[Human]", "PW[\U00018d09Human]"),  # a name that does not print,
                 (";W[54mhmi]\n", ";W[54mhmi]\n;W[54mhmi]\n")))   # in "X's 54: ..."
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_file_gives_only_the_named_fault_and_games_that_replay(case):
    name, text = case
    imported = import_bytes(text.encode("utf-8", "surrogatepass"), name)
    if imported.problem is not None:
        assert imported.problem.startswith(name) and imported.problem.isprintable()
        assert len(imported.problem) <= MAX_PROBLEM_CHARS, imported.problem
    for game in imported.games:
        assert replay(imported.record, game)
