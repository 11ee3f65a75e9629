"""Reading match files played elsewhere (game/matchfiles/imports.py, matread.py, sgfread.py): our
own .mat and .sgf exports read back to the same games (seeded matches of random legal plays
with doubles, takes, drops, gammons and the Crawford game), and the ways other programs write the
formats: gnubg's 25 and 0, repeated and chained steps, names with spaces, resignations, the
Crawford rule off, set-up boards, variations and escapes. Files are written in code."""
import pytest

from game.analysis.judge import Reviewer
from game.matchfiles.imports import SIDES, import_text
from game.matchfiles.matfile import format_mat
from game.matchfiles.sgf import format_sgf
from game.model.position import Position
from game.model.record import MatchRecord
from import_checks import match_keys
from scripted_matches import scripted_match

MATCHES = [pytest.param(3, 4, 0.5, id="3-point-crawford-then-post-crawford-doubles"),
           pytest.param(7, 5, 0.2, id="7-point-cube-to-16"),
           pytest.param(5, 11, 0.15, id="5-point-drops"),
           pytest.param(1, 8, 0.3, id="1-point"),
           pytest.param(None, 6, 0.03, id="money-gammons"),
           pytest.param(None, 4, 0.03, id="money-backgammon"),
           pytest.param(None, 3, 0.1, id="money-drops")]


@pytest.mark.parametrize("length,seed,double_rate", MATCHES)
@pytest.mark.parametrize("fmt", ["mat", "sgf"])
def test_our_own_exports_read_back_to_the_same_games(fmt, length, seed, double_rate):
    m = scripted_match(length, seed, double_rate=double_rate, max_games=6)
    text = format_mat(m.record) if fmt == "mat" else format_sgf(m.record)
    imported = import_text(text, f"ours.{fmt}")
    assert imported.problem is None
    assert imported.record.length == (length or 0)
    assert [imported.record.names[s] for s in SIDES] == [m.record.names[s]
                                                         for s in m.record.sides]
    assert match_keys(imported.record) == match_keys(m.record)


def test_the_round_trip_matches_hold_doubles_takes_drops_and_crawford_games():
    """The matches above are worth the round trip: every cube action and ending is there."""
    seen = set()
    for length, seed, rate in (p.values for p in MATCHES):
        for game in scripted_match(length, seed, double_rate=rate, max_games=6).record.games:
            seen |= {a.kind for a in game.actions} | {game.how}
            seen |= {"crawford"} if game.crawford else set()
    assert {"double", "take", "drop", "crawford", "gammon", "backgammon", "single"} <= seen


def test_an_imported_game_exports_again_as_the_same_game():
    m = scripted_match(5, 7, double_rate=0.2, max_games=4)
    once = import_text(format_sgf(m.record), "a.sgf").record
    twice = import_text(format_mat(once), "b.mat").record
    assert match_keys(twice) == match_keys(m.record)


def test_our_analysed_sgf_reads_back_to_the_same_game():
    """X's .sgf carries the review's analysis (A, DA, LU, DO, BM): it is skipped, the game kept."""
    m = scripted_match(None, 3, double_rate=0.1, max_games=1)
    # the checked review (its C and DC too), its rollouts of 6 games: the file is under test
    reviews = {1: Reviewer(m.record, 1, level=1, workers=1, roll_games=6).run()}
    text = format_sgf(m.record, reviews)
    assert "A[" in text and "DA[" in text and "LU[" in text
    imported = import_text(text, "analysed.sgf")
    assert imported.problem is None
    assert match_keys(imported.record) == match_keys(m.record)


# ---- .mat as others write it ---------------------------------------------------------------

def mat(body: str, length: int = 5, names=("Alice", "Bob")) -> str:
    return (f"; [Site \"somewhere\"]\n\n {length} point match\n\n Game 1\n"
            f" {names[0]} : 0                      {names[1]} : 0\n{body}")


GNUBG_STYLE = """\
  1)                             21: 13/11 24/23
  2) 52: 13/8 24/22              63: 8/5 11/5
  3) 43: 8/4 4/1*                61: 25/24 13/7
  4)  Doubles => 2                Drops
      Wins 1 point
"""


def test_gnubg_writes_the_bar_as_25_and_off_as_0_and_a_drop_ends_the_game():
    imported = import_text(mat(GNUBG_STYLE), "g.mat")
    assert imported.problem is None
    game = imported.games[0]
    plays = [a.play for a in game.actions if a.kind == "move"]
    assert plays[3:] == ["8/4 4/1*", "bar/24 13/7"]
    assert game.actions[0].side == "black"                 # the right column opened
    assert (game.winner, game.points, game.how) == ("white", 1, "drop")


def test_a_step_made_twice_and_a_man_moving_on_are_read_as_single_steps():
    body = "  1) 31: 8/5 6/5                 33: 24/21(2) 13/10*/7\n"
    game = import_text(mat(body), "x.mat").games[0]
    assert game.actions[1].play == "24/21 24/21 13/10* 10/7"


def test_names_with_spaces_and_the_words_and_the_match():
    body = ("  1) 31: 8/5 6/5                 41: 24/23 13/9\n"
            "  2)  Doubles => 2                Drops\n"
            "      Wins 1 point and the match\n")
    imported = import_text(mat(body, length=1, names=("XG Roller+", "Ann Lee")), "x.mat")
    assert imported.problem is None
    assert imported.record.names == {"white": "XG Roller+", "black": "Ann Lee"}


def test_the_crawford_game_is_the_first_at_one_away_unless_the_file_turns_the_rule_off():
    m = scripted_match(3, 4, double_rate=0.5, max_games=6)
    text = format_mat(m.record)
    on = import_text(text, "on.mat").record
    assert [g.crawford for g in on.games] == [g.crawford for g in m.record.games]
    assert any(g.crawford for g in on.games)
    first = next(g for g in on.games if g.crawford)
    later = [g for g in on.games if g.number > first.number]
    assert later and not any(g.crawford for g in later)            # post-Crawford
    off = import_text('; [Crawford "Off"]\n' + text, "off.mat").record
    assert not any(g.crawford for g in off.games)


def test_a_file_starting_at_one_away_with_a_double_starts_after_the_crawford_game():
    body = ("  1) 31: 8/5 6/5                 41: 24/23 13/9\n"
            "  2)  Doubles => 2                Drops\n      Wins 1 point\n")
    text = mat(body).replace(" Alice : 0 ", " Alice : 4 ")
    imported = import_text(text, "x.mat")
    assert imported.problem is None and imported.games[0].crawford is False
    plain = import_text(text.replace("  2)  Doubles => 2                Drops\n",
                                     "").replace("Wins 1 point", ""), "y.mat")
    assert plain.games[0].crawford is True


def test_a_resignation_is_a_result_before_the_end_of_the_game():
    body = GNUBG_STYLE.replace(" Doubles => 2                Drops\n      Wins 1 point",
                               "42: 25/21 6/4\n                                 Wins 2 points")
    imported = import_text(mat(body), "r.mat")
    assert imported.problem is None
    game = imported.games[0]
    assert (game.winner, game.points, game.how) == ("black", 2, "resign")
    assert "RE[B+2R]" in format_sgf(imported.record)


def test_a_game_cut_off_before_its_result_is_offered_and_said_to_be_unfinished():
    text = mat(GNUBG_STYLE.split("  4)")[0])
    imported = import_text(text, "cut.mat")
    assert len(imported.games) == 1 and not imported.games[0].finished
    assert imported.problem == "cut.mat, line 9: the file ends before game 1 is over"


# ---- .sgf as others write it -----------------------------------------------------------------

def sgf(nodes: str, root: str = "") -> str:
    return ("(;FF[4]GM[6]CA[UTF-8]AP[Someone:1]MI[length:5][game:0][ws:0][bs:0]"
            f"PW[Al\\]ice]PB[Bob]RU[Crawford]{root}\n{nodes})\n")


def test_only_the_main_line_of_variations_is_read_and_escapes_are_undone():
    text = sgf(";B[21lnab](;W[52mhxv];B[63lrlo](;W[double])(;W[11aaaa]))(;W[66])",
               root="C[a comment\\\n on two lines]")
    imported = import_text(text, "v.sgf")
    assert imported.problem == "v.sgf, line 3: the file ends before game 1 is over"
    game = imported.games[0]
    assert [a.kind for a in game.actions] == ["move", "move", "move", "double"]
    assert game.actions[1].play == "13/8 24/22"
    assert imported.record.names["white"] == "Al]ice"


def test_a_set_up_board_starts_the_game_from_that_position():
    record = MatchRecord(0, sides=SIDES)
    start = Position.from_points({6: 3, 5: 3, 2: 1, "bar": 1}, {6: 4, 5: 2, 24: 1})
    record.start_game({"white": 0, "black": 0}, start=start.position_id)
    record.move("white", (2, 1), "bar/24 6/4")
    record.move("black", (6, 5), "24/18 18/13")
    imported = import_text(format_sgf(record), "setup.sgf")
    assert imported.games[0].start == start.position_id
    assert match_keys(imported.record) == match_keys(record)


def test_the_crawford_game_and_a_resignation_from_the_root_properties():
    nodes = ";W[31hefe];B[42qusu]"
    text = sgf(nodes).replace("[ws:0]", "[ws:4]").replace("RU[Crawford]",
                                                           "RU[Crawford:CrawfordGame]RE[W+2R]")
    game = import_text(text, "c.sgf").games[0]
    assert game.crawford and (game.winner, game.points, game.how) == ("white", 2, "resign")
