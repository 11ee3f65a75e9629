"""The net's inputs after gnubg's published contact set (native/src/eval.h enum ev_input,
EV_IN_DOUBLE_SHOTS to EV_IN_MOBILITY of each side): double shots, staying out on the bar, the
forward anchor, containment, the spread of the men, anchors for a back game and the outside
men's way home, with the hit and escape rolls, checked on boards built here through the
encoder the training tools use (sldata encode)."""
import os
import re
import shutil
import struct
import subprocess

import cffi
import numpy as np
import pytest

from conftest import REPO, build_tools, missing_tool


def input_offsets() -> dict:
    """eval.h's enum ev_input, the inputs of one side by name, read from the header."""
    header = (REPO / "native" / "src" / "eval.h").read_text(encoding="utf-8")
    ffi = cffi.FFI()
    ffi.cdef(re.search(r"enum ev_input \{.*?\};", header, re.S).group(0))
    return ffi.typeof("enum ev_input").relements


_IN = input_offsets()
PER_SIDE = _IN["EV_PER_SIDE"]
DOUBLE_SHOTS, STAY_OUT, FORWARD_ANCHOR = (_IN["EV_IN_DOUBLE_SHOTS"], _IN["EV_IN_STAY_OUT"],
                                          _IN["EV_IN_FORWARD_ANCHOR"])
CONTAIN, CONTAIN2, CONTAIN_MEN = (_IN["EV_IN_CONTAIN"], _IN["EV_IN_CONTAIN2"],
                                  _IN["EV_IN_CONTAIN_MEN"])
SPREAD, BACK_ANCHORS, MOBILITY = (_IN["EV_IN_SPREAD"], _IN["EV_IN_BACK_ANCHORS"],
                                  _IN["EV_IN_MOBILITY"])
HIT_ROLLS, ESCAPE, HELD_IN_FRONT = (_IN["EV_IN_HIT_ROLLS"], _IN["EV_IN_ESCAPE"],
                                    _IN["EV_IN_HELD_IN_FRONT"])


@pytest.fixture(scope="module")
def encode(tmp_path_factory):
    work = tmp_path_factory.mktemp("enc")
    sldata = build_tools(work) / "sldata"

    def run(me: dict, opp: dict):
        """Inputs of the side on roll (row 0) and of the other side for a board given as
        {index: men} per row (index 24 = the bar), each row made up to 15 men off."""
        rows = []
        for spec in (me, opp):
            row = [0] * 25
            for i, n in spec.items():
                row[i] = n
            assert sum(row) <= 15
            rows += row
        (work / "b.rec").write_bytes(struct.pack("<50b5f", *rows, 0.5, 0, 0, 0, 0))
        subprocess.run([str(sldata), "encode", "--out", str(work / "b"),
                        str(work / "b.rec")], check=True, capture_output=True)
        x = np.fromfile(work / "b.x", dtype=np.float32)
        assert x.size == 2 * PER_SIDE, "the encoding has another width"
        return x[:PER_SIDE], x[PER_SIDE:]
    return run


def test_a_full_prime_contains_the_man_behind_it_completely(encode):
    me = {i: 2 for i in range(1, 7)} | {12: 3}          # our 2- to 7-points made
    opp = {23: 2, 5: 13}                                   # two men behind the prime
    mine, _ = encode(me, opp)
    assert mine[CONTAIN] == mine[CONTAIN_MEN] == 1.0
    assert mine[CONTAIN2] == 1.0


def test_one_point_in_front_lets_all_but_double_ones_past(encode):
    me = {1: 2, 22: 13}             # only our 2-point made (the rest deep in his board,
    opp = {23: 2, 5: 13}            # behind every place his men could stand); his on our ace
    mine, _ = encode(me, opp)
    assert mine[CONTAIN] == pytest.approx(1 / 36)          # 1-1 is the one roll that fails
    assert mine[CONTAIN2] == pytest.approx(1 / 36 ** 2)


def test_the_forward_anchor_and_the_anchors_in_the_opponents_board(encode):
    mine, _ = encode({20: 2, 5: 13}, {5: 15})
    assert mine[FORWARD_ANCHOR] == pytest.approx(4 / 6)   # the opponent's 4-point
    assert mine[BACK_ANCHORS] == pytest.approx(0.5)
    mine, _ = encode({18: 2, 20: 2, 5: 11}, {4: 15})
    assert mine[FORWARD_ANCHOR] == pytest.approx(1.0)     # his 6-point, the most advanced
    assert mine[BACK_ANCHORS] == pytest.approx(1.0)


def test_a_man_on_the_bar_against_three_home_points_stays_out_a_quarter_of_the_time(encode):
    mine, theirs = encode({24: 1, 5: 14}, {0: 2, 1: 2, 2: 2, 12: 9})
    assert mine[STAY_OUT] == pytest.approx(9 / 36)
    assert theirs[STAY_OUT] == 0.0                         # nothing of theirs on the bar


def test_double_shots_need_two_blots_in_reach(encode):
    opp = {23: 2, 12: 13}                                  # his back men on our ace point
    one, _ = encode({6: 1, 5: 14}, opp)
    two, _ = encode({6: 1, 8: 1, 5: 13}, opp)
    assert one[DOUBLE_SHOTS] == 0.0 and one[HIT_ROLLS] > 0
    assert 0 < two[DOUBLE_SHOTS] <= two[HIT_ROLLS]


def test_men_all_home_on_one_point_have_no_spread_and_no_way_home_to_go(encode):
    mine, _ = encode({3: 15}, {23: 2, 12: 13})
    assert mine[SPREAD] == 0.0
    assert mine[MOBILITY] == 0.0


def test_outside_men_behind_a_wall_come_home_less_freely(encode):
    free, _ = encode({12: 2, 5: 13}, {23: 2, 0: 13})
    walled, _ = encode({12: 2, 5: 13}, {23: 2, 17: 3, 16: 3, 15: 3, 14: 2, 13: 2})
    assert walled[MOBILITY] < free[MOBILITY]


@pytest.mark.parametrize("distance, rolls", [(1, 11), (2, 12), (3, 14), (4, 15), (5, 15),
                                             (6, 17), (7, 6), (8, 6), (9, 5), (10, 3), (11, 2),
                                             (12, 3)])
def test_a_lone_blot_is_hit_by_the_rolls_of_the_distance_table(encode, distance, rolls):
    # the one attacking man stands on row 0's index 2 (his 21), nothing held in between
    mine, _ = encode({2 + distance: 1, 0: 5}, {21: 1, 0: 5})
    assert mine[HIT_ROLLS] == pytest.approx(rolls / 36)


def test_a_blot_behind_a_point_held_in_between_is_hit_less(encode):
    # 6 away, with our point 3 pips from the attacker: 3-3 has to land on it
    free, _ = encode({8: 1, 0: 5}, {21: 1, 0: 5})
    blocked, _ = encode({8: 1, 5: 2, 0: 5}, {21: 1, 0: 5})
    assert free[HIT_ROLLS] == pytest.approx(17 / 36)
    assert blocked[HIT_ROLLS] == pytest.approx(16 / 36)


def test_the_rearmost_man_escapes_one_point_on_all_rolls_but_double_ones(encode):
    alone, _ = encode({20: 1, 0: 5}, {0: 5})               # their men behind ours
    mine, _ = encode({20: 1, 0: 5}, {4: 2, 0: 5})          # they hold our 19, right in front
    assert alone[ESCAPE] == 1.0 and alone[HELD_IN_FRONT] == 0.0
    assert mine[ESCAPE] == pytest.approx(35 / 36) and mine[HELD_IN_FRONT] == pytest.approx(1 / 6)


ESCAPE_TABLE_CHECK = r"""
#include "eval.c"   /* its static functions: the table, and the count it was made from */
#include <stdio.h>
int main(void) {
    tables_init();
    uint64_t s = 0x2545F4914F6CDD1DULL;   /* xorshift: the points the table does not read */
    long checked = 0, wrong = 0;
    for (int from = ESC_FAR_FROM; from <= 24; from++) {
        const int ahead[13] = {12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 15};
        for (int k = 0; k < (1 << 13); k++)
            for (int fill = 0; fill < 4; fill++) {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                uint32_t blocked = (uint32_t)s & 0x1FFFFFFu;
                int reachable = 1;
                for (int j = 0; j < 13; j++) {
                    int index = from - ahead[j], on = (k >> j) & 1;
                    if (index < 0) { reachable &= on; continue; }   /* off the board: stops */
                    blocked = (blocked & ~(2u << index)) | (uint32_t)on << (index + 1);
                }
                if (!reachable) continue;
                int h1 = -1, h2 = -2;
                int by_table = escape_rolls(blocked, from, &h1);
                int by_rolls = escape_rolls_bits(blocked, from, &h2);
                checked++;
                if (by_table != by_rolls || h1 != h2) {
                    if (wrong++ < 5) printf("from %d blocked %07x: %d/%d held %d/%d\n", from,
                                            (unsigned)blocked, by_table, by_rolls, h1, h2);
                }
            }
    }
    printf("checked %ld wrong %ld\n", checked, wrong);
    return wrong != 0;
}
"""


def test_the_escape_table_gives_the_roll_by_roll_count_for_every_window_it_reads(tmp_path):
    """eval.c's esc_far table stands in for the 21-roll count for every man 12 or more pips
    from home: for each such place and each of the 2^13 patterns of the points it reads (the
    12 in front and the one 15 pips ahead), with the points it does not read filled at random
    four times, the two agree."""
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is None:
        missing_tool(f"no C compiler ({cc})")
    src = REPO / "native" / "src"
    (tmp_path / "check.c").write_text(ESCAPE_TABLE_CHECK, encoding="utf-8")
    others = [str(src / f) for f in ("movegen.c", "nn.c", "eval_heur.c", "evalwts.c",
                                     "bearoff.c")]
    exe = tmp_path / "check"
    subprocess.run([cc, "-O2", "-std=gnu11", "-pthread", f"-I{src}", f"-I{REPO / 'native'}",
                    "-o", str(exe), str(tmp_path / "check.c"), *others, "-lm"], check=True,
                   capture_output=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout
    checked = int(re.search(r"checked (\d+) wrong 0", out.stdout).group(1))
    assert checked > 13 * 4 * 4096   # every place from 12 to the bar, most patterns reachable
