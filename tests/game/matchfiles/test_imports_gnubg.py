"""GNU Backgammon's own files read and reviewed: `gnubg -t` plays a 7-point match against
itself here (tests/gnubg_selfplay.py: both sides the computer at 0-ply, seed 14, players
Alice and Bob) and exports it as .mat and .sgf. Both files read to the same games, with the
results gnubg announced, its Crawford game, its resignations, doubles, takes, drops and
gammons and both names; a game of each is reviewed, and the analysed .sgf that X writes
loads back into gnubg with the same moves."""
import pytest

from game.analysis.judge import Reviewer
from game.matchfiles import sgf
from game.matchfiles.imports import SIDES, read_match_file
from game.matchfiles.matfile import parse_mat
from gnubg_selfplay import self_play
from gnubg_tools import comparable, gnubg_binary, run_gnubg_commands
from import_checks import match_keys

QUICK = 3                 # the files are under test here, not the judge


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    gnubg_binary()
    return self_play(tmp_path_factory.mktemp("gnubg"), length=7, seed=14)


@pytest.fixture(scope="module")
def both(match):
    return read_match_file(match.mat), read_match_file(match.sgf)


def test_gnubgs_mat_and_sgf_read_to_the_same_games_without_a_fault(both):
    mat, sgf_file = both
    assert mat.problem is None and sgf_file.problem is None
    assert (mat.kind, sgf_file.kind) == ("mat", "sgf")
    assert mat.record.length == sgf_file.record.length == 7
    assert len(mat.games) >= 3
    assert match_keys(mat.record) == match_keys(sgf_file.record)


def test_the_results_are_those_gnubg_announced_and_the_match_is_won(match, both):
    for imported in both:
        record = imported.record
        got = [(record.names[g.winner], g.points) for g in imported.games]
        assert got == match.results()
        last = imported.games[-1]
        assert last.scores[last.winner] + last.points >= 7


def test_both_names_and_every_feature_of_the_match_are_read(both):
    for imported in both:
        assert [imported.record.names[s] for s in SIDES] == ["Alice", "Bob"]
        kinds = {a.kind for g in imported.games for a in g.actions}
        hows = {g.how for g in imported.games}
        assert {"double", "take", "drop"} <= kinds
        assert {"resign", "drop", "gammon", "single"} <= hows


def test_the_crawford_game_read_from_the_mat_scores_is_the_one_the_sgf_names(match, both):
    mat, sgf_file = both
    crawford = [g.number for g in sgf_file.games if g.crawford]
    assert len(crawford) == 1                          # RU[Crawford:CrawfordGame]
    assert [g.number for g in mat.games if g.crawford] == crawford
    assert "Crawford game" in match.said
    after = [g for g in mat.games if g.number > crawford[0]]
    assert any(a.kind == "double" for g in after for a in g.actions)   # post-Crawford


def test_a_resigned_game_keeps_its_resignation_in_our_sgf(both):
    mat, _ = both
    resigned = next(g for g in mat.games if g.how == "resign")
    text = sgf.format_sgf(mat.record, games=[resigned.number])
    colour = "W" if resigned.winner == "white" else "B"
    assert f"RE[{colour}+{resigned.points}R]" in text


@pytest.mark.parametrize("which", ["mat", "sgf"])
def test_a_game_of_gnubgs_file_is_reviewed_and_x_writes_what_gnubg_loads(both, which,
                                                                         tmp_path, match):
    imported = both[0] if which == "mat" else both[1]
    game = min(imported.games, key=lambda g: len(g.actions))   # the shortest: quick
    review = Reviewer(imported.record, game.number, level=QUICK, workers=1).run()
    assert review.complete
    moves = [i for i in review.items if i.kind == "move"]
    assert {i.side for i in moves} == set(SIDES)
    assert len(moves) == sum(a.kind == "move" for a in game.actions)
    written = sgf.export_review(imported.record, review, tmp_path)
    code, said = run_gnubg_commands(tmp_path, [f"load match {written}",
                                               f"export match mat {tmp_path / 'back.mat'}"])
    assert code == 0 and "rror" not in said, said
    back = parse_mat((tmp_path / "back.mat").read_text())
    original = parse_mat(open(match.mat).read())
    theirs = comparable(original)[game.number - 1]
    assert comparable(back)[0][2] == theirs[2]                 # the same entries
    assert back.games[0].names == original.games[0].names == ("Alice", "Bob")


def test_a_money_session_gnubg_played_is_read_from_both_files(tmp_path):
    """`new session` and two `new game`s: three money games, the scores running on."""
    gnubg_binary()
    session = self_play(tmp_path, length=0, seed=3, games=3)
    mat, sgf_file = read_match_file(session.mat), read_match_file(session.sgf)
    assert mat.problem is None and sgf_file.problem is None
    assert mat.record.length == sgf_file.record.length == 0 and len(mat.games) == 3
    assert match_keys(mat.record) == match_keys(sgf_file.record)
    assert [(mat.record.names[g.winner], g.points) for g in mat.games] == session.results()
    assert mat.record.names == sgf_file.record.names
