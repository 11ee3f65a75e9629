"""bench/cube_vs_gnubg.py and bench/cube_play_vs_gnubg.py on tiny inputs: gnubg's match ID
for the six kinds of terms, its cube analysis and statistics read, a verdict's cost, and a
small real run of each (gnubg at 0-ply and our level 3, to keep CI cheap: the benches' own
figures use 2-ply and level 5). They check the benches' logic, not their figures."""
import contextlib
import dataclasses
import io
import re

import pytest

from conftest import bench_module
from game.model.match_terms import MatchTerms
from game.model.position import Position
from gnubg_tools import gnubg_binary

bench = bench_module("cube_vs_gnubg")
play_bench = bench_module("cube_play_vs_gnubg")

# what gnubg 1.07 printed for `hint` before a roll (money, set output mwc off)
HINT = """
Cube analysis
2-ply cubeless equity +0.438
  0.719 0.000 0.000 - 0.281 0.000 0.000
Cubeful equities:
1. Double, take        +0.765
2. Double, pass        +1.000  (+0.235)
3. No double           +0.465  (-0.299)
Proper cube action: Double, take
"""
STATISTICS = """Chequerplay statistics
Unforced moves                            24                      16
Error total EMG (MWC)                         -0.120 ( -1.000%)       -0.030 ( -0.500%)
Luck statistics
Cube statistics
Close or actual cube decisions             2                       3
Error total EMG (MWC)                         -0.050 ( -0.400%)       -0.010 ( -0.100%)
Overall statistics
"""


def test_gnubgs_match_id_for_money_with_the_roller_on_roll_is_the_one_gnubg_writes():
    # gnubg -t after `set jacoby off`, `new session`, player 1 on roll, no dice rolled
    assert bench.match_id(MatchTerms()) == "cAkAAAAAAAAE"


def test_each_kind_of_terms_has_its_own_match_id():
    ids = {bench.match_id(terms) for _, terms in bench.KINDS}
    assert len(ids) == len(bench.KINDS) and all(len(i) == 12 for i in ids)


def test_gnubgs_cube_analysis_is_read_as_equities_and_a_verdict():
    (judged,) = bench.parse_hints(HINT)
    assert (judged.verdict, judged.nd, judged.dt, judged.dp) == ("double/take", 0.465, 0.765, 1.0)
    assert bench.gnubg_verdict("Too good to redouble, pass") == "too good"
    assert bench.gnubg_verdict("No redouble, take (23.1%)") == "no double"


def test_gnubgs_cubeless_money_equity_is_read_without_backgammons_as_ours_is():
    # ours (a CubeDecision) carries no backgammon chances, so the gap compares like with like
    said = HINT.replace("0.719 0.000 0.000 - 0.281 0.000 0.000",
                        "0.700 0.300 0.050 - 0.300 0.100 0.010")
    (judged,) = bench.parse_hints(said)
    assert judged.cubeless == pytest.approx(0.700 - 0.300 + 0.300 - 0.100)
    assert judged.chances == (0.700, 0.300, 0.050, 0.100, 0.010)


def test_a_verdict_costs_what_gnubgs_equities_say_it_loses():
    ref = bench.Judged("double/take", nd=0.465, dt=0.765, dp=1.0)
    assert bench.verdict_cost("double/take", ref) == 0.0
    assert bench.verdict_cost("no double", ref) == pytest.approx(0.3)
    assert bench.verdict_cost("double/pass", ref) == pytest.approx(0.235)   # the wrong pass


def test_the_played_dt_gap_leaves_out_what_gnubg_calls_too_good_and_the_goal_keeps_it():
    def row(verdict, ours_dt, two_dt):
        return bench.Row("money centred", bench.Judged(verdict, 0.5, ours_dt, 1.0),
                         bench.Judged(verdict, 0.5, two_dt, 1.0),
                         bench.Judged(verdict, 0.5, two_dt + 0.01, 1.0), 0.001)
    rows = [row("double/take", 0.80, 0.78), row("too good", 1.90, 1.50)]
    line = bench.played_dt("all", rows, "gnubg 2-ply")
    assert "mean 0.020 EMG over 1 decisions" in line and "gnubg 0-ply mean 0.010" in line
    printed = bench.summary("all", rows, 0.01)
    assert any(x.startswith("all |DT gap|: mean 0.210 EMG") for x in printed)
    assert "no such decision" in bench.played_dt("all", rows[1:], "gnubg 2-ply")


def test_the_deeper_referee_counts_how_near_ours_gnubg_2_ply_and_0_ply_come_to_it():
    """--deeper: each judge's verdicts and gaps measured against gnubg searching deeper, the
    goals (against the reference) left as they are."""
    J = bench.Judged
    rows = [bench.Row("money centred", J("double/take", 0.50, 0.80, 1.0),
                      J("double/take", 0.52, 0.70, 1.0), J("no double", 0.60, 0.60, 1.0), 0.001,
                      J("double/take", 0.54, 0.74, 1.0)),
            bench.Row("money centred", J("no double", 0.40, 0.30, 1.0),
                      J("double/take", 0.46, 0.50, 1.0), J("no double", 0.40, 0.40, 1.0), 0.001,
                      J("double/take", 0.44, 0.50, 1.0))]
    same, nd, dt = bench.deeper_lines("all", rows, 3, "gnubg 2-ply")
    assert same == ("all same verdict as gnubg 3-ply: ours 1 (50.0%) | gnubg 2-ply 2 (100.0%) "
                    "| gnubg 0-ply 0 (0.0%)")
    assert nd == ("all mean |ND gap| to gnubg 3-ply: ours 0.040 | gnubg 2-ply 0.020 | "
                  "gnubg 0-ply 0.050 EMG")
    assert dt == ("all mean |DT gap| to gnubg 3-ply: ours 0.130 | gnubg 2-ply 0.020 | "
                  "gnubg 0-ply 0.120 EMG")
    with pytest.raises(ValueError):              # a deeper judgement every row, or no figures
        bench.deeper_lines("all", [rows[0], dataclasses.replace(rows[1], deep=None)], 3,
                           "gnubg 2-ply")


def _row(kind, ours_verdict, two_verdict, ours_cubeless=0.4, two_cubeless=0.5):
    return bench.Row(kind, bench.Judged(ours_verdict, 0.5, 0.6, 1.0, ours_cubeless),
                     bench.Judged(two_verdict, 0.5, 0.6, 1.0, two_cubeless),
                     bench.Judged(two_verdict, 0.5, 0.6, 1.0), 0.001)


def test_a_disputed_position_differs_at_any_term_and_carries_its_money_row():
    kinds = [kind for kind, _ in bench.KINDS]
    same = [_row(k, "no double", "no double") for k in kinds]
    split = [_row(k, "no double", "double/take" if n == 4 else "no double", 0.3 + n / 100)
             for n, k in enumerate(kinds)]
    found = bench.disputed(["A", "B"], same + split)
    assert [pid for pid, _ in found] == ["B"]
    assert found[0][1].kind == "money centred" and found[0][1].ours.cubeless == 0.3
    assert bench.disputed(["A"], same) == []
    assert bench.rollout_lines([], 36, 1, "gnubg 2-ply") == [
        "disputed positions rolled out: none (every verdict the same)"]


def test_money_points_leave_backgammons_out_as_the_rows_cubeless():
    assert bench.money_points(0.7, 0.2, 0.05) == pytest.approx(0.55)


def test_a_disputed_race_rolled_out_by_both_programs_is_seen_from_the_side_on_roll():
    gnubg_binary()
    # the side on roll home with 15 men, the other 150 pips away: nearly all wins, a gammon
    # often; a side mixed up anywhere would show it losing
    race = Position.from_points({1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}, {12: 5, 10: 5, 8: 5})
    lines = bench.rollout_lines([(race.position_id, _row("money centred", "too good",
                                                          "double/pass", 1.2, 1.3))],
                                36, 1, "gnubg 2-ply")
    assert lines[0].startswith(f"{race.position_id} disputed: ours +1.200, gnubg 2-ply +1.300")
    ours_ro, gnubg_ro = (float(x) for x in re.findall(
        r"ours ([-+]\d\.\d+) \+/-.*gnubg ([-+]\d\.\d+) \(SE", lines[0])[0])
    assert ours_ro > 0.9 and gnubg_ro > 0.9 and abs(ours_ro - gnubg_ro) < 0.1
    assert lines[1] == "disputed positions rolled out: 1 positions, 36 games each, seed 1"
    assert lines[2].startswith("disputed |ours - gnubg rollout|: mean ")
    assert lines[3].startswith("disputed |our rollout - gnubg rollout|: mean ")


def test_gnubgs_statistics_give_both_players_sums():
    s = play_bench.statistics(STATISTICS)
    assert s == pytest.approx({"close": 5, "cube_emg": 0.06, "moves": 40, "chequer_emg": 0.15})


def _printed(main, argv) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue().splitlines()


def test_a_small_real_run_prints_every_figure_by_kind_and_in_all():
    gnubg_binary()                          # a skip without gnubg, a failure in CI
    printed = _printed(bench.main, ["--seeds", "5701", "--positions", "2", "--plies", "0",
                                    "--level", "3", "--deeper", "1"])
    labels = [kind for kind, _ in bench.KINDS] + ["all"]
    for label in labels:
        for figure in ("same verdict", "verdict cost", "|ND gap|", "|DT gap|",
                       "|DT gap| where", "|cubeless gap|", "cubeless gap, signed",
                       "time per decision", "same verdict as gnubg 1-ply: ours",
                       "mean |ND gap| to gnubg 1-ply", "mean |DT gap| to gnubg 1-ply"):
            assert any(line.startswith(f"{label} {figure}") for line in printed), (label, figure)
    assert any(line == "-- all: 12 decisions" for line in printed)
    assert [line for line in printed if line.startswith("all goals:")] in (
        ["all goals: hold"], ["all goals: MISSED"])
    assert printed[-1].startswith("all mean |DT gap| to gnubg 1-ply")   # after the goals


def test_a_small_real_self_play_run_prints_both_error_rates_for_both():
    gnubg_binary()
    printed = _printed(play_bench.main, ["--matches", "1", "--length", "3", "--plies", "0",
                                         "--level", "3"])
    for who in ("level 3", "gnubg 0-ply"):
        assert any(line.startswith(f"{who} cube error rate:") and "mEMG" in line
                   for line in printed)
        assert any(line.startswith(f"{who} chequer error rate:") for line in printed)
    assert printed[-1].startswith("goal ")
