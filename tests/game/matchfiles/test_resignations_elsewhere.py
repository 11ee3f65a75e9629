"""Resignations as other programs write them (issue 59 item 12), each in the middle game of a
three-game 7-point file built here: an .sgf's RE[] in every form the SGF standard and gnubg's
writer use (W+R, W+Resign, W+2Resign, W+T, W+F, Void, ?, 0, nothing, words), a .mat's
"Resigns" in the loser's column (with "Wins" after it, alone, beside a roll, after a take), a
drop at a side's first roll, and "Doubles => 2 / Takes" ending a game. Each file reads to
every game, the games after the odd one still offered, and `gnubg -t` ends each file at the
score we end it at."""
import re

import pytest

from game.matchfiles.imports import import_text
from gnubg_tools import run_gnubg_commands

SCORE = re.compile(r"The score \(after (\d+) games?\) is: Alice (\d+), Bob (\d+)")
ROOT = "(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:7][game:{n}][ws:{w}][bs:{b}]PW[Alice]PB[Bob]" \
       "RU[Crawford]{result}"
OPENING = ";W[32mjxv]"          # Alice opens 3-2: 13/10 24/22


def sgf_file(middle: str, gained: tuple) -> str:
    """Game 1: Bob resigns a single; game 2: RE[middle] after Alice's opening; game 3 starts
    `gained` (Alice, Bob) points after game 2's start, and Bob resigns a single."""
    w, b = 1 + gained[0], gained[1]
    return "\n".join([ROOT.format(n=0, w=0, b=0, result="RE[W+1R]") + OPENING + ")",
                      ROOT.format(n=1, w=1, b=0, result=f"RE[{middle}]") + OPENING + ")",
                      ROOT.format(n=2, w=w, b=b, result="RE[W+1R]") + OPENING + ")"]) + "\n"


def gnubg_final(tmp_path, text: str, name: str) -> tuple:
    """The score gnubg -t gives after reading the file: (games, Alice, Bob)."""
    path = tmp_path / name
    path.write_text(text)
    verb = "load match" if name.endswith(".sgf") else "import mat"
    code, said = run_gnubg_commands(tmp_path, [f"{verb} {path}", "show score"])
    found = SCORE.findall(said)
    assert code == 0 and found, said
    return tuple(int(v) for v in found[-1])


def our_final(imported) -> tuple:
    games = imported.games
    last = games[-1]
    alice = last.scores["white"] + (last.points if last.winner == "white" else 0)
    bob = last.scores["black"] + (last.points if last.winner == "black" else 0)
    return len(games), alice, bob


def result_of(game) -> tuple:
    return game.winner, game.points, game.how


SGF_RESULTS = [   # RE[...] of game 2, the points game 3's score gives, game 2 as we read it
    ("W+R", (1, 0), ("white", 1, "resign")),           # the points from the next score
    ("W+Resign", (2, 0), ("white", 2, "resign")),
    ("B+R", (0, 3), ("black", 3, "resign")),
    ("W+2Resign", (2, 0), ("white", 2, "resign")),
    ("w+2r", (2, 0), ("white", 2, "resign")),
    ("W+T", (1, 0), ("white", 1, "resign")),           # time: scored as the file scores it
    ("B+Forfeit", (0, 1), ("black", 1, "resign")),
    ("W+2", (2, 0), ("white", 2, "resign")),           # the next score agrees with it
    ("W+R", (0, 0), (None, 0, "")),                    # the next score gives nothing
    ("Void", (0, 0), (None, 0, "")),                   # no result: not over, as gnubg
    ("?", (0, 0), (None, 0, "")),
    ("0", (0, 0), (None, 0, "")),
    ("", (0, 0), (None, 0, "")),
    ("Draw", (0, 0), (None, 0, "")),
    ("B+2Drop", (0, 2), (None, 0, "")),                 # words: no result, the score read
]


@pytest.mark.parametrize("result, gained, expected", SGF_RESULTS,
                         ids=[f"RE[{r}]+{g[0]}-{g[1]}" for r, g, _ in SGF_RESULTS])
def test_an_sgf_result_without_points_or_in_other_words_keeps_the_games_after_it(
        result, gained, expected):
    imported = import_text(sgf_file(result, gained), "x.sgf")
    assert imported.problem is None, imported.problem
    assert [result_of(g) for g in imported.games] == [
        ("white", 1, "resign"), expected, ("white", 1, "resign")]
    assert our_final(imported) == (3, 2 + gained[0], gained[1])


@pytest.mark.parametrize("result, gained", [("W+R", (1, 0)), ("W+2Resign", (2, 0)),
                                            ("Void", (0, 0)), ("", (0, 0)), ("W+T", (1, 0))])
def test_gnubg_ends_each_sgf_at_the_score_we_end_it_at(tmp_path, result, gained):
    text = sgf_file(result, gained)
    assert gnubg_final(tmp_path, text, "x.sgf") == our_final(import_text(text, "x.sgf"))


def test_the_last_games_result_without_points_leaves_it_unfinished_and_says_so():
    text = sgf_file("W+2Resign", (2, 0)).replace("RE[W+1R];W[32mjxv])\n", "RE[W+R]"
                                                  ";W[32mjxv])\n")
    imported = import_text(text, "x.sgf")
    assert [result_of(g) for g in imported.games][-1] == (None, 0, "")
    assert "ends before game 3 is over" in imported.problem


def test_a_result_that_gives_more_points_than_the_next_score_is_refused_at_that_line():
    imported = import_text(sgf_file("W+2Resign", (1, 0)), "x.sgf")
    assert len(imported.games) == 2
    assert "line 3: the score 2-0 does not follow game 2 (it left 3-0)" in imported.problem


def test_a_score_lower_than_at_the_start_of_an_unfinished_game_is_refused_there():
    imported = import_text(sgf_file("Void", (-1, 0)), "x.sgf")
    assert len(imported.games) == 2
    assert imported.problem == ("x.sgf, line 3: the score 0-0 is lower than at the start of "
                                "game 2")


# ---- .mat ------------------------------------------------------------------------------------

HEAD = " 7 point match\n"


def mat_game(number: int, scores: tuple, lines: list) -> str:
    return (f"\n Game {number}\n" + f" Alice : {scores[0]}".ljust(31) + f" Bob : {scores[1]}\n"
            + "".join(line + "\n" for line in lines))


BOB_RESIGNS = ["  1) 32: 13/10 24/22", "      Wins 1 point"]

MAT_MIDDLES = {   # game 2's lines, the points it gives (Alice, Bob), game 2 as we read it
    "resigns-then-wins": (["  1) 32: 13/10 24/22              Resigns", "      Wins 1 point"],
                          (1, 0), ("white", 1, "resign")),
    "resigns-alone": (["  1) 32: 13/10 24/22              Resigns"], (2, 0),
                      ("white", 2, "resign")),
    "resigns-beside-a-roll": (["  1) 32: 13/10 24/22              61: Resigns",
                               "      Wins 2 points"], (2, 0), ("white", 2, "resign")),
    "takes-then-resigns": (["  1) 32: 13/10 24/22              Doubles => 2",
                            "  2)  Takes                       Resigns",
                            "      Wins 4 points"], (4, 0), ("white", 4, "resign")),
    "doubles-takes-then-the-result": (["  1) 32: 13/10 24/22              Doubles => 2",
                                       "  2)  Takes", "      Wins 2 points"], (2, 0),
                                      ("white", 2, "resign")),
    "dropped-at-bobs-first-roll": (["  1) 32: 13/10 24/22              Doubles => 2",
                                    "  2)  Drops                       Wins 1 point"], (0, 1),
                                   ("black", 1, "drop")),
    "dropped-before-any-roll": (["  1)  Doubles => 2                Drops",
                                 "      Wins 1 point"], (1, 0), ("white", 1, "drop")),
    "the-left-player-resigns": (["  1) 32: 13/10 24/22              61: 13/7 8/7",
                                 "  2)  Resigns",
                                 "                                  Wins 1 point"], (0, 1),
                                ("black", 1, "resign")),
    "resigns-at-the-opening-roll": (["  1) 32:                         Wins 1 point"], (0, 1),
                                    ("black", 1, "resign")),
}


def mat_file(lines: list, gained: tuple) -> str:
    return (HEAD + mat_game(1, (0, 0), BOB_RESIGNS) + mat_game(2, (1, 0), lines)
            + mat_game(3, (1 + gained[0], gained[1]), BOB_RESIGNS))


@pytest.mark.parametrize("case", list(MAT_MIDDLES))
def test_a_mat_resignation_as_other_programs_write_it_reads_with_the_games_after(case):
    lines, gained, expected = MAT_MIDDLES[case]
    imported = import_text(mat_file(lines, gained), "x.mat")
    assert imported.problem is None, imported.problem
    assert [result_of(g) for g in imported.games] == [
        ("white", 1, "resign"), expected, ("white", 1, "resign")]
    assert our_final(imported) == (3, 2 + gained[0], gained[1])


@pytest.mark.parametrize("case", list(MAT_MIDDLES))
def test_gnubg_ends_each_mat_at_the_score_we_end_it_at(tmp_path, case):
    lines, gained, _ = MAT_MIDDLES[case]
    text = mat_file(lines, gained)
    assert gnubg_final(tmp_path, text, "x.mat") == our_final(import_text(text, "x.mat"))


def test_wins_in_the_column_of_the_side_that_resigned_is_refused_at_its_line():
    lines = ["  1) 32: 13/10 24/22              Resigns", "                              "
             "    Wins 1 point"]
    imported = import_text(mat_file(lines, (0, 1)), "x.mat")
    assert len(imported.games) == 1
    assert "line 11: 'Wins' in the column of the side that resigned" in imported.problem


def test_a_name_that_does_not_print_in_a_file_meets_the_one_rule_for_names():
    # a right-to-left override (U+202E) passes the readers' control-byte check, as gnubg writes
    # any UTF-8; the record keeps the name as the rule for names from outside allows it
    text = ("(; FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07]MI[length:3][game:0][ws:0][bs:0]"
            "PW[Al\u202eice]PB[Bob]RE[W+1R];PL[W]DI[31])")
    imported = import_text(text, "odd.sgf")
    assert imported.record.names["white"] == "Alice"
    assert all(name.isprintable() for name in imported.record.names.values())
