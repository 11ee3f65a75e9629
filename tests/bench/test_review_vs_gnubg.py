"""bench/review_vs_gnubg.py end to end on a small run: one 3-point match and a one-game money
session that gnubg plays, analyses at 0-ply (to keep CI cheap: the bench's own figures use
2-ply) and we review at level 3, QUICK (the checked review is the same Reviewer with its
3-ply checks, tested in tests/game/analysis/test_checked_errors.py). It checks the bench's
logic (gnubg's statistics read, our review of the same file, the moves paired), not its
figures. Seed 12: a short run (the match in 2 games, 79 moves; the money game 9 moves and 5
cube decisions), where seed 5's was 3 games and 182 moves, our review of them twice as long."""
import re

import pytest

from conftest import bench_module
from gnubg_tools import gnubg_binary

bench = bench_module("review_vs_gnubg")


@pytest.fixture(scope="module")
def printed():
    gnubg_binary()                          # a skip without gnubg, a failure in CI
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.main(["--matches", "1", "--length", "3", "--money-games", "1", "--plies", "0",
                    "--level", "3", "--seed", "12", "--quick"])
    return out.getvalue().splitlines()


def test_each_player_gets_every_figure_side_by_side_with_its_unit(printed):
    blocks = [line for line in printed if line.startswith("== ")]
    assert len(blocks) == 2 and "3 points" in blocks[0] and "money" in blocks[1]
    for name in bench.NAMES:
        for figure in ("error total", "unforced moves", "marked ?/doubtful",
                       "marked ??/bad+very bad", "cube decisions counted", "rating", "luck"):
            rows = [line for line in printed if line.startswith(f"{name} {figure}:")]
            assert len(rows) == 2, (name, figure)
            assert all(" | gnubg " in row for row in rows)
    assert any(line.endswith("EMG") for line in printed if "error total" in line)


def test_we_review_the_very_moves_gnubg_analysed(printed):
    """The same unforced moves counted by both, every game's moves paired one to one."""
    for line in printed:
        if line.startswith(tuple(f"{name} unforced moves" for name in bench.NAMES)):
            ours, theirs = re.findall(r"(\d+) moves", line)
            assert ours == theirs, line
    assert [line for line in printed if line.startswith("games skipped")] == \
        ["games skipped for unequal move lists: 0 games"] * 2
    for line in printed:
        if line.startswith("per-move"):
            r = float(re.search(r": (\S+) \(Pearson", line).group(1))
            assert -1.0 <= r <= 1.0, line


def test_the_goals_are_judged_for_every_player(printed):
    goals = [line for line in printed if line.startswith("goal ")]
    # per block: each player's rating and cube count, the noisy player's total, the clean's
    assert len(goals) == 2 * (2 * len(bench.NAMES) + 2)
    assert all(line.endswith(("holds", "MISSED")) for line in goals)
    assert printed[-1] in ("all goals: hold", "all goals: MISSED")


def test_gnubgs_statistics_table_is_read_by_column():
    said = """Chequerplay statistics
Unforced moves                            49                      33
Moves marked doubtful                      1                       3
Moves marked bad                           1                       7
Moves marked very bad                      0                       4
Luck statistics
Luck total EMG (MWC)                          +1.602 (+22.1%)       -0.787 (-9.5%)
Cube statistics
Close or actual cube decisions             4                      15
Overall statistics
Error total EMG (MWC)                         -0.291 ( -3.0%)       -2.076 (-25.1%)
Overall rating                           Expert                  Casual player
"""
    alice, bob = (bench.gnubg_players(said)[n] for n in bench.NAMES)
    assert (alice.moves, alice.marked, alice.cube_close, alice.error, alice.luck,
            alice.rating) == (49, (1, 1, 0), 4, 0.291, 1.602, "Expert")
    assert (bob.moves, bob.marked, bob.cube_close, bob.error, bob.luck, bob.rating) == \
        (33, (3, 7, 4), 15, 2.076, -0.787, "Casual player")
