"""Benchmark (not a test): what a 3-ply cubeful cube decision (level 5 with search settings of
plies 3, the review's check: game/analysis/checking.deeper_cube_decision) costs against level
5's own 2-ply one, on the positions and terms of bench/cube_vs_gnubg.py (gnubg 0-ply
self-play, the roller winning 60-90%, six kinds of terms each). Each decision is timed in
this thread's CPU time, 2-ply and 3-ply side by side in one run, with the 0-ply cache off
(so neither borrows the other's evaluations; the answers are the same bits either way) and
then the 3-ply once more with the cache on, as the review runs it. One figure a line.
Not a judgement of the answers (bench/cube_vs_gnubg.py --our-plies 3 does that).
Measured at issue 57's last items (seeds 5701-5703, loaded machine, load 11-14): 144
decisions, 2-ply median 19.3 ms, max 84.1 ms; 3-ply median 742.5 ms, max 2297.5 ms (cache
off), median 350.5 ms, max 1864.0 ms (cache on); 32 x. --positions 6 (36 decisions): 2-ply
50.3 / 88.8 ms; 3-ply 610.5 / 1992.1 ms (off), 319.6 / 1139.3 ms (on); 13.4 x; the check
before (3-ply cubeless chances) 178.1 / 853.7 ms a position.
Run from the repo root: python bench/cube_plies.py --seeds 5701 5702 5703"""

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from cube_vs_gnubg import KINDS, WORKING_SEEDS, draw_positions  # noqa: E402
from game.model import evaluator  # noqa: E402
from game.model.search_settings import SearchSettings  # noqa: E402

REVIEW_BUDGET_S = 2.0            # CPU a review's check of one cube decision may take


def cpu_ms(pid: str, terms, search: SearchSettings) -> float:
    start = time.thread_time()
    evaluator.cube_decision(pid, 5, terms, search)
    return 1000 * (time.thread_time() - start)


def line(label: str, ms: list[float]) -> str:
    return (f"{label}: median {statistics.median(ms):.1f} ms CPU, mean "
            f"{statistics.mean(ms):.1f} ms CPU, max {max(ms):.1f} ms CPU over {len(ms)} "
            f"decisions")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(WORKING_SEEDS))
    ap.add_argument("--positions", type=int, default=24)
    args = ap.parse_args(argv)
    evaluator.ensure_loaded()
    with tempfile.TemporaryDirectory() as folder:
        ids = draw_positions(args.seeds, folder, args.positions)
    two = SearchSettings(plies=2, cache=False)
    three = SearchSettings(plies=3, cache=False)
    three_cached = SearchSettings(plies=3)
    t2: list[float] = []
    t3: list[float] = []
    t3c: list[float] = []
    for pid in ids:
        for _, terms in KINDS:
            t2.append(cpu_ms(pid, terms, two))
            t3.append(cpu_ms(pid, terms, three))
    for pid in ids:
        for _, terms in KINDS:
            t3c.append(cpu_ms(pid, terms, three_cached))
    before: list[float] = []      # the check before: 3-ply cubeless chances, then the formula
    for pid in ids:
        start = time.thread_time()
        evaluator.evaluate(pid, 3, three)
        before.append(1000 * (time.thread_time() - start))
    ratios = [b / a for a, b in zip(t2, t3, strict=True) if a > 0.5]
    print(f"== seeds {' '.join(map(str, args.seeds))}: {len(ids)} positions x {len(KINDS)} "
          f"kinds of terms, load {os.getloadavg()[0]:.1f}")
    print(line("2-ply cube decision, cache off", t2))
    print(line("3-ply cube decision, cache off", t3))
    print(line("3-ply cube decision, cache on", t3c))
    print(line("3-ply cubeless chances of a position (the check before), cache off", before))
    print(f"3-ply / 2-ply, cache off: median {statistics.median(ratios):.1f} x over "
          f"{len(ratios)} decisions of 0.5 ms or more at 2-ply")
    over = sum(ms > 1000 * REVIEW_BUDGET_S for ms in t3c)
    print(f"3-ply decisions over {REVIEW_BUDGET_S:.0f} s CPU (cache on): {over} of {len(t3c)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
