"""Benchmark (not a test): level 5's match cube in short bear-offs against the exact answer, at
match scores beside 3-away/3-away. The exact answer is the recursion of
tests/game/model/test_cube_exact_bearoff.py (every roll, play and cube action of both sides,
scored by our match table; no gammons, both sides have men off), so this measures the cube
theory alone: the chances are the bear-off table's on both sides. Prints each position's no
double and double/take in EMG, exact and ours, then by score the mean signed and absolute gaps.
Slow: the recursion is Python (seconds for 2-3 men a side, up to a minute a score for 4-5).
Session 58, seed 28059: 2-3 men (6 positions) within 0.006 EMG everywhere; 4-5 men (4
positions) within 0.02 except 3-away/4-away, whose double/take is 0.068 low on average (0.023 to
0.098, all four low): the taker's redouble to 4 decides the match there, as at 3-away/3-away
before session 57's cube.c `theirs_x`, whose ramp on the cash point (0.40 here) leaves it near
the default efficiency, while 2-away/3-away (cash 0.32) is exact with the same ramp. Seed 90620
(the check, three positions before it was stopped): 3-away/4-away double/take -0.117, -0.089 and
-0.016 EMG.
Session 59: native/src/bearoff_match.c makes the match cube exact for 5 men a side or fewer, so
this bench now checks those tables against the Python recursion (the gaps are float noise);
6-men positions (--men 6 6) still measure the formula and its theirs_x ramp.
Run from the repo root: python bench/bearoff_exact.py --seed S [--positions N] [--men LO HI]"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "game", "model"))

import test_cube_exact_bearoff as exact  # noqa: E402  (the recursion, written once)

from bearoff_cube import draw  # noqa: E402  (bench/bearoff_cube.py's short bear-offs)
from game.model import evaluator  # noqa: E402
from game.model.match_terms import MatchTerms  # noqa: E402

SCORES = ((2, 3), (3, 2), (3, 4), (4, 3), (2, 5), (3, 3))   # away_me, away_opp (7 points)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--men", type=int, nargs=2, default=(4, 5), metavar=("LO", "HI"))
    args = ap.parse_args(argv)
    evaluator.ensure_loaded()
    ids = draw(args.positions, args.seed, tuple(args.men))
    print(f"== seed {args.seed}: {len(ids)} positions, {args.men[0]}-{args.men[1]} men a side")
    gaps: dict[tuple[int, int], list[tuple[float, float]]] = {s: [] for s in SCORES}
    for pid in ids:
        for away_me, away_opp in SCORES:
            start = time.perf_counter()
            nd = exact.in_emg(exact.after_cube_action(pid, 1, 0, away_me, away_opp),
                              away_me, away_opp)
            dt = exact.in_emg(exact.after_cube_action(pid, 2, 2, away_me, away_opp),
                              away_me, away_opp)
            ours = evaluator.cube_decision(pid, 5, MatchTerms(length=7, away_me=away_me,
                                                              away_opp=away_opp))
            o_nd = exact.in_emg((ours.no_double_equity + 1) / 2, away_me, away_opp)
            o_dt = exact.in_emg((ours.double_take_equity + 1) / 2, away_me, away_opp)
            gaps[away_me, away_opp].append((o_nd - nd, o_dt - dt))
            print(f"{pid} {away_me}-away/{away_opp}-away: exact ND {nd:+.3f} DT {dt:+.3f} | "
                  f"ours ND {o_nd:+.3f} DT {o_dt:+.3f} EMG ({time.perf_counter() - start:.0f} s)",
                  flush=True)
    for (away_me, away_opp), found in gaps.items():
        nd_gaps, dt_gaps = [g for g, _ in found], [g for _, g in found]
        print(f"{away_me}-away/{away_opp}-away: ND gap mean {statistics.mean(nd_gaps):+.3f} "
              f"(|.| {statistics.mean(map(abs, nd_gaps)):.3f}), DT gap mean "
              f"{statistics.mean(dt_gaps):+.3f} (|.| {statistics.mean(map(abs, dt_gaps)):.3f}) "
              f"EMG over {len(found)} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
