"""The .sgf export (game/matchfiles/sgf.py): GNU Backgammon's SGF letters and analysis properties,
and `gnubg -t` loading our file with the same moves (exported back as .mat and compared) and the
same analysis (its text export lists our equities and losses). Matches are played in code."""
import re

import pytest

from game.analysis.judge import review_game
from game.matchfiles import sgf
from game.matchfiles.matfile import parse_mat, write_mat
from game.model.match import COMPUTER, HUMAN
from game.model.position import Position
from game.model.record import MatchRecord
from game.model.rules import Step
from gnubg_tools import comparable, run_gnubg, run_gnubg_commands
from review_records import FEW_GAMES
from scripted_matches import scripted_match

REVIEW_LEVEL = 3          # the round trip tests the file, not the judge: the fast level
# and, but for one match, the QUICK review: the CHECKED one costs about 60 s of CPU a match
# here (its 3-ply checks of a scripted player's many errors) and writes the same properties;
# tests/game/analysis/test_checked_errors.py holds what the check writes
CHECK_GAMES = 6           # a checked review's rollouts: what it writes is under test, not
                          # their precision (at 36 and 324 games: 10 s more of CPU here)
STARRED = re.compile(r"^\*\s+\d+\. Cubeless (\d)-ply\s+(.*?)\s+Eq\.: ([+-]\d\.\d{3})"
                     r"(?: \(([+-]\d\.\d{3})\))?")


def test_letters_are_the_board_from_whites_side_with_y_the_bar_and_z_off():
    assert sgf.point_letter(23, white=True) == "x"           # White's 24-point
    assert sgf.point_letter(0, white=True) == "a"
    assert sgf.point_letter(23, white=False) == "a"          # Black's 24-point is White's 1
    assert sgf.point_letter(5, white=False) == "s"           # Black's 6-point
    assert sgf.point_letter(24, True) == sgf.point_letter(24, False) == "y"
    assert sgf.point_letter(-1, True) == sgf.point_letter(-1, False) == "z"
    steps = (Step(23, 20, 3, False), Step(12, 10, 2, False))  # 24/21 13/11
    assert sgf.play_letters(steps, white=True) == "xumk"


def test_each_move_node_carries_the_roll_the_play_and_its_analysis():
    record = MatchRecord(0, names={HUMAN: "Ann", COMPUTER: "Spectrum"})
    record.start_game({HUMAN: 0, COMPUTER: 0})
    record.move(HUMAN, (3, 1), "8/5 6/5")
    record.move(COMPUTER, (3, 1), "8/5 8/7")
    review = review_game(record, roll_games=FEW_GAMES)    # the nodes, not the check's games
    text = sgf.format_sgf(record, {1: review})
    assert text.startswith("(;FF[4]GM[6]CA[UTF-8]")
    assert "MI[length:0][game:0][ws:0][bs:0]PW[Ann]PB[Spectrum]" in text
    nodes = text.strip().rstrip(")").split("\n;")[1:]
    assert nodes[0].startswith("W[31hefe]A[0][hefe E ver 3 ")      # made the best: index 0
    blunder = review.items[-1]
    assert nodes[1].startswith("B[31qtqr]DA[E ver 3 ")            # the cube before the roll
    assert "A[" in nodes[1]
    assert f" {blunder.played.equity:.6f} " in nodes[1]
    assert "BM[1]" in nodes[1] or "BM[2]" in nodes[1]             # our ?? is gnubg's bad
    assert f"LU[{blunder.luck:.5f}]" in nodes[1]


def gnubg_text_games(tmp_path, count):
    """gnubg writes one text file per game: gnubg.txt, gnubg_002.txt, ..."""
    names = ["gnubg.txt"] + [f"gnubg_{n:03d}.txt" for n in range(2, count + 1)]
    return [(tmp_path / name).read_text() for name in names]


@pytest.fixture(scope="module")
def three_point():
    """A 3-point match of three games (a double taken and a redouble dropped, the Crawford
    game, a post-Crawford double dropped) and its quick review: the match of both gnubg round
    trips below, reviewed once (the review is their cost)."""
    m = scripted_match(3, 4, double_rate=0.5, max_games=3)
    return m, sgf.analyse(m.record, level=REVIEW_LEVEL, checked=False)


def scripted_and_reviewed(request, length, seed, double_rate, games, checked=False):
    """A scripted match and its review: the 3-point one of three games is three_point's."""
    if (length, seed, double_rate, games, checked) == (3, 4, 0.5, 3, False):
        return request.getfixturevalue("three_point")
    m = scripted_match(length, seed, double_rate=double_rate, max_games=games)
    return m, sgf.analyse(m.record, level=REVIEW_LEVEL, checked=checked, roll_games=CHECK_GAMES)


# the money session: two games of 11 and 17 moves, in each doubles taken and the last one
# dropped (seed 3's two games had 87 moves to review: three quarters of this case's time)
@pytest.mark.parametrize("length,seed,double_rate,games", [
    pytest.param(3, 4, 0.5, 3, id="3-point-doubles-crawford"),
    pytest.param(None, 82, 0.1, 2, id="money-drops")])
def test_gnubg_loads_the_sgf_with_the_same_moves_and_our_analysis(request, tmp_path, length,
                                                                  seed, double_rate, games):
    m, reviews = scripted_and_reviewed(request, length, seed, double_rate, games)
    ours = sgf.write_sgf(m.record, tmp_path / "ours.sgf", reviews)
    code, output = run_gnubg(tmp_path, ours)
    assert code == 0, output
    for bad in ("WARNING", "Unrecognised", "not a valid", "Invalid", "illegal", "rror"):
        assert bad not in output, output
    mine = parse_mat(open(write_mat(m.record, tmp_path / "ours.mat")).read())
    theirs = parse_mat((tmp_path / "gnubg.mat").read_text())
    assert len(theirs.games) == len(m.record.games)
    for k, (a, b) in enumerate(zip(comparable(mine), comparable(theirs), strict=True), 1):
        assert a[2] == b[2], f"game {k}: gnubg read other moves"
    texts = gnubg_text_games(tmp_path, len(m.record.games))
    for game, text in zip(m.record.games, texts, strict=True):
        starred = [STARRED.match(line) for line in text.splitlines()]
        seen = [(int(s.group(1)), float(s.group(3)), s.group(4)) for s in starred if s]
        made = [i for i in reviews[game.number].items if i.kind == "move"]
        assert len(seen) == len(made), f"game {game.number}: gnubg shows other analysis"
        for item, (ply, equity, behind) in zip(made, seen, strict=True):
            assert ply == item.played.ply
            written = item.played.equity if item.emg is None else item.emg.of(item.played.equity)
            assert equity == pytest.approx(written, abs=0.0011)     # EMG in a match
            if item.loss:
                assert float(behind) == pytest.approx(-item.loss, abs=0.0011)


def test_gnubg_sets_up_a_game_from_our_own_start_position(tmp_path):
    start = Position.from_points({8: 2, 6: 3, 5: 3, 4: 3, 3: 2, 2: 1, "bar": 1},
                                 {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 24: 1})
    record = MatchRecord(0)
    record.start_game({HUMAN: 0, COMPUTER: 0}, start=start.position_id)
    record.move(COMPUTER, (2, 1), "bar/24 8/6")              # the computer on roll first
    record.move(HUMAN, (6, 5), "24/18 18/13")
    ours = sgf.write_sgf(record, tmp_path / "ours.sgf",
                         sgf.analyse(record, level=REVIEW_LEVEL, roll_games=CHECK_GAMES))
    code, output = run_gnubg(tmp_path, ours)
    assert code == 0 and "rror" not in output, output
    text = (tmp_path / "gnubg.txt").read_text()
    ids = re.findall(r"Position ID: (\S+)", text)
    assert Position.from_id(ids[0]) in (start, start.swapped())
    assert "* Computer moves bar/24 8/6" in text
    assert "* Human moves 24/13" in text or "* Human moves 24/18 18/13" in text


def test_a_game_without_its_review_is_written_with_its_moves_only():
    m = scripted_match(None, 3, double_rate=0.1, max_games=1)
    text = sgf.format_sgf(m.record)
    moves = [a for a in m.record.games[0].actions if a.kind == "move"]
    nodes = [n for n in text.split("\n;") if n[:2] in ("W[", "B[") and n[2].isdigit()]
    assert len(nodes) == len(moves)
    assert "]A[" not in text and "DA[" not in text and "LU[" not in text


def test_a_damaged_record_is_refused_and_no_file_is_written(tmp_path):
    from game.analysis.judge import ReviewError
    record = MatchRecord(0)
    record.start_game({HUMAN: 0, COMPUTER: 0})
    record.move(HUMAN, (3, 1), "8/5 6/5")
    record.move(COMPUTER, (2, 1), "13/7")                 # a 6 with 21
    with pytest.raises(ReviewError, match="damaged at game 1, entry 2"):
        sgf.write_sgf(record, tmp_path / "x.sgf", sgf.analyse(record))
    with pytest.raises(ReviewError, match="damaged at game 1, entry 2"):
        sgf.write_sgf(record, tmp_path / "x.sgf")
    assert list(tmp_path.iterdir()) == []


def gnubg_cube_row(said: str, label: str) -> list[float]:
    """The two players' figures of a row of gnubg's "Cube statistics" (the EMG ones, not the
    MWC in brackets)."""
    section = said[said.index("Cube statistics"):]
    line = next(row for row in section.splitlines() if row.startswith(label))
    numbers = [float(v) for v in re.findall(r"[-+]?\d+\.?\d*", line[len(label):])]
    return numbers[::2] if "(" in line[len(label):] else numbers


# the checked review's match is one game (of 9 turns, 6 of them cube actions, 4 checked and
# rolled out): three games of another took a minute of CI for no more cases
@pytest.mark.parametrize("length,seed,checked,games", [(3, 4, False, 3), (7, 1, True, 1)])
def test_gnubg_reads_our_match_cube_analysis_as_our_emg_errors_and_counts(
        request, tmp_path, length, seed, checked, games):
    """Read back by gnubg, the .sgf's cube analysis gives each player the cube error total in
    EMG and the "close or actual" decisions our summary gives (gnubg turns the written match
    chances into EMG with its own table: within 3%), the checked review's as the quick one's."""
    m, reviews = scripted_and_reviewed(request, length, seed, 0.5, games, checked)
    ours = sgf.write_sgf(m.record, tmp_path / "ours.sgf", reviews)
    code, said = run_gnubg_commands(tmp_path, [f"load match {ours}", "show statistics match"])
    assert code == 0, said
    errors = {side: 0.0 for side in m.record.sides}
    counted = {side: 0 for side in m.record.sides}
    for review in reviews.values():
        for side, s in review.summary().items():
            errors[side] += s.cube_error
            counted[side] += s.cube_decisions
    theirs = gnubg_cube_row(said, "Error total EMG")
    close = gnubg_cube_row(said, "Close or actual cube decisions")
    for k, side in enumerate(m.record.sides):                   # player 0 is White
        assert -theirs[k] == pytest.approx(errors[side], rel=0.03, abs=0.002)
        assert close[k] == counted[side]
