"""bench/mixed_players.py's scoring and pairing (no games against gnubg here: it needs the
gnubg-nn package and minutes): a finished game scores the points the rules give, for the
side that moved last; a game not over scores nothing; paired differences and their SE are
taken game by game."""
import itertools
import math

import pytest

from conftest import bench_module
from game.model import rules
from game.model.position import Position

bench = bench_module("mixed_players")


def board_of(mover: dict, other: dict) -> list[list[int]]:
    """A gnubg-nn board (row 1 the mover's) from 0-based index maps (24: the bar)."""
    rows = [[0] * 25, [0] * 25]
    for row, spec in ((1, mover), (0, other)):
        for index, count in spec.items():
            rows[row][index] = count
    return rows


@pytest.mark.parametrize("other", [
    {5: 10},                    # five of the loser's men off: a single game
    {5: 15},                    # none off, all home: a gammon
    {12: 15},                   # none off, none in the winner's home board: a gammon
    {5: 14, 20: 1},             # one left in the winner's home board: a backgammon
    {5: 14, 24: 1},             # one on the bar: a backgammon
    {5: 13, 20: 1},             # one off, one in the winner's home: a single game
])
def test_a_finished_game_scores_what_the_rules_give_the_side_that_moved_last(other):
    board = board_of({}, other)
    position = Position.from_points({}, {i + 1 if i < 24 else "bar": n
                                         for i, n in other.items()})
    assert bench.points_won(board) == rules.game_result(position)


def test_a_game_not_over_scores_nothing():
    assert bench.points_won(board_of({0: 1}, {5: 15})) == 0
    assert bench.points_won(board_of({24: 1}, {})) == 0


def test_paired_differences_are_taken_game_by_game():
    base = [1, -1, 2, 1, -1, 1]
    same_luck = [2, 0, 3, 2, 0, 2]          # one point better in every game: no spread
    assert bench.paired(same_luck, base) == (1.0, 0.0)
    other = [1, 1, 2, -1, -1, 1]
    mean, se = bench.paired(other, base)
    diffs = [a - b for a, b in zip(other, base, strict=True)]
    assert mean == pytest.approx(sum(diffs) / 6)
    var = sum((d - mean) ** 2 for d in diffs) / 5
    assert se == pytest.approx(math.sqrt(var / 6))


def test_the_pairings_name_each_mixed_side_and_both_ours():
    every = {"/".join(p) for p in itertools.product(("ours", "gnubg"), repeat=2)}
    assert set(bench.PAIRINGS) == every - {"gnubg/gnubg"}
