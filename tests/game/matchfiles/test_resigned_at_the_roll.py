"""A game resigned with the roll in hand (issue 59 item 9): the record keeps the roll, our
.mat writes it as gnubg 1.07 writes a resigned turn ("32:" in the roller's column, "Wins"
in the winner's) and our .sgf as gnubg saves it (PL[B]DI[21] after the root's RE[W+1R]); our
reader and `gnubg -t` read both with the point kept. Games resigned or dropped before any roll
too, and gnubg's own files of each case, made on the spot with `gnubg -t`."""
import json
import re

import pytest

from game.analysis.replay import ReviewError, replay
from game.files.settings import Settings
from game.matchfiles.imports import SIDES, import_text, read_match_file
from game.matchfiles.matfile import format_mat, write_mat
from game.matchfiles.sgf import format_sgf, write_sgf
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, RESIGN, Match
from game.model.record import MatchRecord
from gamedriver import GameDriver
from gnubg_tools import run_gnubg_commands
from shared_cases import HUMAN_STARTS

SCORE = re.compile(r"The score \(after (\d+) games?\) is: (\S+) (\d+), (\S+) (\d+)")


def gnubg_score(tmp_path, path, verb):
    """What gnubg -t makes of the file: (games, {name: score}) after `import mat` or `load
    match`."""
    code, said = run_gnubg_commands(tmp_path, [f"{verb} {path}", "show score"])
    assert code == 0, said
    found = SCORE.findall(said)
    assert found, said
    games, a, sa, b, sb = found[-1]
    return int(games), {a: int(sa), b: int(sb)}


def resigned_record(roller: str, winner: str, dice=(2, 1), before=()) -> MatchRecord:
    """A 3-point match of one game: the entries `before` (side, dice, play), then `roller`
    throws `dice` and the game ends there, `winner` scoring a single."""
    record = MatchRecord(3, names={HUMAN: "You", COMPUTER: "Me"})
    record.start_game({HUMAN: 0, COMPUTER: 0})
    for side, thrown, play in before:
        record.move(side, thrown, play)
    record.roll(roller, dice)
    record.win(winner, 1, RESIGN)
    return record


def test_match_resign_with_the_dice_records_the_roll_before_the_win():
    match = Match(3)
    match.start_game()
    match.start_turn(HUMAN)
    match.dice_rolled()
    match.resign(HUMAN, 1, (3, 1))
    actions = match.record.games[0].actions
    assert [(a.kind, a.side, a.dice) for a in actions] == [("roll", HUMAN, (3, 1)),
                                                           ("win", COMPUTER, None)]


def test_a_resignation_before_the_throw_records_no_roll():
    match = Match(3)
    match.start_game()
    match.start_turn(HUMAN)
    match.resign(HUMAN, 1, (3, 1))        # dice given, yet none thrown this turn
    assert [a.kind for a in match.record.games[0].actions] == ["win"]


def test_quit_at_the_first_your_move_keeps_the_opening_roll_in_the_record():
    match = Match(3)
    match.start_game()
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), match=match)
    driver.until("Your move?")
    driver.type("QUIT\n")
    driver.until("1 single, 2 gammon, 3 backgammon")
    driver.type("1")
    driver.until("I accept")
    driver.until("you resign (1 point")
    game = match.record.games[0]
    assert [(a.kind, a.side, sorted(a.dice or ())) for a in game.actions] == [
        ("roll", HUMAN, [1, 3]), ("win", COMPUTER, [])]
    text = format_mat(match.record)
    assert re.search(r"^  1\) 31: +Wins 1 point$", text, re.M), text
    imported = import_text(text, "x.mat")
    assert imported.problem is None
    assert [(g.winner, g.points, g.how) for g in imported.games] == [("black", 1, RESIGN)]


def test_the_left_players_resigned_roll_shares_the_line_with_the_win_as_gnubg_writes_it():
    text = format_mat(resigned_record(HUMAN, COMPUTER, (3, 2)))
    assert "\n  1) 32:                          Wins 1 point\n" in text


def test_the_right_players_resigned_roll_stands_in_its_column_and_the_win_below():
    text = format_mat(resigned_record(COMPUTER, HUMAN))
    assert "\n  1)                             21:\n      Wins 1 point\n" in text


def test_the_sgf_writes_the_roll_as_gnubg_saves_it():
    text = format_sgf(resigned_record(COMPUTER, HUMAN))
    assert "RE[W+1R]" in text and text.rstrip().endswith(";PL[B]DI[21])")


OPENED = ((HUMAN, (3, 2), "13/10 24/22"),)     # the human's opening 3-2 played


@pytest.mark.parametrize("roller, winner, before", [
    (HUMAN, COMPUTER, ()), (COMPUTER, HUMAN, ()), (COMPUTER, COMPUTER, ()),
    (COMPUTER, HUMAN, OPENED), (COMPUTER, COMPUTER, OPENED)])
def test_our_files_of_a_resigned_roll_read_back_with_the_point_and_the_roll(
        roller, winner, before):
    record = resigned_record(roller, winner, before=before)
    for text, name in ((format_mat(record), "x.mat"), (format_sgf(record), "x.sgf")):
        imported = import_text(text, name)
        assert imported.problem is None, imported.problem
        game = imported.games[0]
        side = SIDES[record.sides.index(roller)]
        assert (game.winner, game.points, game.how) == (
            SIDES[record.sides.index(winner)], 1, RESIGN)
        assert [(a.kind, a.side, sorted(a.dice)) for a in game.actions[-2:-1]] == [
            ("roll", side, [1, 2])]


def test_a_roll_with_no_legal_play_before_a_resignation_is_the_turn_it_was():
    """"21:" is both a roll not played and a turn that could not move: the rules decide."""
    text = (" 3 point match\n\n Game 1\n You : 0                        Me : 0\n"
            "  1) 66: 24/18 24/18 13/7 13/7    21:\n      Wins 1 point\n")
    imported = import_text(text, "x.mat")
    assert imported.problem is None, imported.problem
    assert [a.kind for a in imported.games[0].actions] == ["move", "roll", "win"]


@pytest.mark.parametrize("roller, winner", [(HUMAN, COMPUTER), (COMPUTER, HUMAN),
                                            (HUMAN, HUMAN), (COMPUTER, COMPUTER)])
def test_gnubg_reads_our_resigned_roll_from_the_mat_and_the_sgf_with_the_point(
        tmp_path, roller, winner):
    record = resigned_record(roller, winner)
    write_mat(record, tmp_path / "ours.mat")
    write_sgf(record, tmp_path / "ours.sgf")
    expected = {"You": int(winner == HUMAN), "Me": int(winner == COMPUTER)}
    assert gnubg_score(tmp_path, tmp_path / "ours.mat", "import mat") == (1, expected)
    assert gnubg_score(tmp_path, tmp_path / "ours.sgf", "load match") == (1, expected)


def test_a_game_resigned_before_any_roll_is_the_result_alone_read_back_by_us():
    """gnubg throws the opening roll as the game starts, so it has no such game; its .mat of
    one is the "Wins" line alone (which its own import skips), its .sgf the root alone (which
    it reads): ours are the same, and we read both."""
    record = MatchRecord(3, names={HUMAN: "You", COMPUTER: "Me"})
    record.start_game({HUMAN: 0, COMPUTER: 0})
    record.win(COMPUTER, 1, RESIGN)
    mat, sgf = format_mat(record), format_sgf(record)
    assert mat.endswith(" Game 1\n You : 0                        Me : 0\n      "
                        "                            Wins 1 point\n\n"), mat
    assert re.fullmatch(r"\(;FF\[4\][^;]*RE\[B\+1R\]\)\n", sgf), sgf
    for text, name in ((mat, "x.mat"), (sgf, "x.sgf")):
        imported = import_text(text, name)
        assert imported.problem is None
        assert [(g.winner, g.points, g.how, len(g.actions)) for g in imported.games] == [
            ("black", 1, RESIGN, 1)]


def test_gnubg_keeps_the_point_of_a_game_resigned_before_any_roll_from_our_sgf(tmp_path):
    record = MatchRecord(3, names={HUMAN: "You", COMPUTER: "Me"})
    record.start_game({HUMAN: 0, COMPUTER: 0})
    record.win(COMPUTER, 1, RESIGN)
    write_sgf(record, tmp_path / "ours.sgf")
    assert gnubg_score(tmp_path, tmp_path / "ours.sgf", "load match") == (
        1, {"You": 0, "Me": 1})


def test_a_double_dropped_before_any_roll_is_read_by_gnubg_and_by_us(tmp_path):
    match = Match(3)
    match.start_game()
    match.start_turn(COMPUTER)
    match.double(COMPUTER)
    match.drop()
    write_mat(match.record, tmp_path / "ours.mat")
    assert gnubg_score(tmp_path, tmp_path / "ours.mat", "import mat")[1] == {
        "Human": 0, "Computer": 1}
    game = read_match_file(tmp_path / "ours.mat").games[0]
    assert (game.winner, game.points, game.how) == ("black", 1, "drop")


# ---- gnubg's own files of each case, made with gnubg -t -----------------------------------

CASES = {   # seed 2: gnubg (player 0, the left column, White) opens with 3-2;
            # seed 1: root (player 1, Black) opens with 6-3
    "left-resigns-its-opening-roll": (2, ["resign normal"], ("black", 1)),
    "right-resigns-its-opening-roll": (1, ["resign normal"], ("white", 1)),
    "right-resigns-a-gammon-holding-its-first-roll":
        (2, ["move 13/10 24/22", "roll", "resign gammon"], ("white", 2)),
    "right-resigns-before-its-first-throw": (2, ["move 13/10 24/22", "resign normal"],
                                             ("white", 1)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_gnubgs_own_files_of_a_resigned_turn_read_with_gnubgs_result(tmp_path, case):
    seed, commands, (winner, points) = CASES[case]
    code, said = run_gnubg_commands(tmp_path, [
        "set player 0 human", "set player 1 human", f"set seed {seed}", "new match 3",
        "roll", *commands, "accept", f"export match mat {tmp_path / 'g.mat'}",
        f"save match {tmp_path / 'g.sgf'}"])
    assert code == 0 and "accepts and wins" in said, said
    for name in ("g.mat", "g.sgf"):
        imported = read_match_file(tmp_path / name)
        assert imported.problem is None, imported.problem
        game = imported.games[0]
        assert (game.winner, game.points, game.how) == (winner, points, RESIGN), name


def test_the_roll_in_hand_survives_the_match_state_a_save_holds():
    match = Match(3)
    match.start_game()
    match.start_turn(HUMAN)
    match.dice_rolled()
    match.resign(HUMAN, 2, (6, 5))
    again = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert [a.to_dict() for a in again.record.games[0].actions] == [
        a.to_dict() for a in match.record.games[0].actions]
    assert again.record.games[0].actions[0].kind == "roll"


SGF_ROOT = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[A]PB[B]RE[W+1R]"


@pytest.mark.parametrize("nodes, fault", [
    (";W[32mjxv];W[61]", "line 1: A rolls 61 out of turn"),
    (";W[32mjxv];PL[W]DI[61]", "line 1: A rolls 61 out of turn"),
    (";PL[W]DI[61];B[31hemi]", "line 1: dice thrown and not played, and the game goes on"),
    (";W[32mjxv];B[double];PL[W]DI[61]", "line 1: a roll while a double waits for its answer"),
    (";W[32mjxv];DI[6]", "line 1: cannot read the dice '6'"),
])
def test_a_roll_not_played_where_none_can_be_is_refused_at_its_line(nodes, fault):
    imported = import_text(SGF_ROOT + nodes + ")\n", "x.sgf")
    assert imported.games == [] and imported.problem.startswith(f"x.sgf, {fault}"), \
        imported.problem


def test_the_review_of_a_game_resigned_before_a_play_says_it_ended_so():
    record = resigned_record(HUMAN, COMPUTER)
    with pytest.raises(ReviewError, match="Game 1 has no moves to review: it ended before "
                                          "any play"):
        replay(record, record.games[0])


def test_quit_before_the_first_throw_when_the_person_starts_records_the_result_alone():
    """Who starts: You. The cube stop comes before any roll, and QUIT there resigns a game
    in which nothing was thrown: the record holds the result alone, as written above."""
    match = Match(3)
    match.start_game()
    driver = GameDriver(dice=Dice.scripted([3, 1]), match=match,
                        settings=Settings(match_length=3, who_starts=HUMAN))
    driver.until("You: ENTER rolls, D doubles")
    driver.type("QUIT\n")
    driver.until("1 single, 2 gammon, 3 backgammon")
    driver.type("1")
    driver.until("you resign (1 point")
    assert [(a.kind, a.side) for a in match.record.games[0].actions] == [("win", COMPUTER)]
    imported = import_text(format_sgf(match.record), "x.sgf")
    assert [(g.winner, g.points, g.how) for g in imported.games] == [("black", 1, RESIGN)]
