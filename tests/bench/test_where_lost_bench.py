"""bench/where_lost.py, the diagnostic that says where a level loses to gnubg 0-ply: its kinds
of position are what their names say, and a small real run (gnubg-nn is a test dependency)
judges every position once under "all"."""
import os
import subprocess
import sys

from conftest import bench_module
from game.model.position import Position
from repo import REPO

_ROOT = str(REPO)
_PATH = os.path.join(_ROOT, "bench", "where_lost.py")
where_lost = bench_module("where_lost")


def board(mine: dict, theirs: dict) -> list[int]:
    return list(Position.from_points(mine, theirs).board)


def test_a_position_where_the_sides_have_passed_is_a_race_and_nothing_else():
    assert where_lost.kinds(board({1: 8, 2: 7}, {3: 15})) == ["race"]


def test_the_starting_position_is_plain_contact():
    assert where_lost.kinds(list(Position.start().board)) == ["contact"]


def test_contact_kinds_name_the_pips_the_men_back_the_men_off_and_the_bar():
    # the mover: 3 men on the opponent's home board and one on the bar, 160+ pips; the
    # opponent has borne 5 men off and is far ahead
    kinds = where_lost.kinds(board({24: 2, 22: 1, "bar": 1, 13: 5, 8: 3, 6: 3},
                                   {6: 4, 5: 3, 4: 2, 11: 1}))
    assert kinds[0] == "contact"
    assert set(kinds[1:]) == {"contact, mover 40+ pips behind", "contact, mover 3+ men back",
                              "contact, opponent has borne off", "contact, a man on the bar"}


def test_a_small_real_run_judges_every_position_once():
    out = subprocess.run([sys.executable, _PATH, "--positions", "12", "--seed", "3"],
                         capture_output=True, text=True, check=True, cwd=_ROOT).stdout
    assert "positions: 12 (gnubg0 self-play, seed 3)" in out
    assert "lost_per_decision[all]:" in out and ", 12 decisions," in out
