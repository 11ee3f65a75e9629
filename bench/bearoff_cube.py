"""Benchmark (not a test): the cube theory alone against GNU Backgammon's. Short bear-offs (3 to 6
men a side, all in their home boards, the side on roll winning 60-90%) are judged by both
programs' bear-off tables, so the cubeless chances are the same to the last digit (money play
agrees to 0.000); what is left to differ is how each turns those chances into cubeful equities
at a match score. Each position is judged at bench/cube_vs_gnubg.py's six kinds of terms by our
level 5 (the 2-ply cubeful search) and by gnubg's 2-ply `hint`. Prints, by kind: the mean
signed and absolute no-double and double/take gaps (EMG: ours less gnubg's) and the same
verdict. Seeded: the same --seed draws the same positions.
Session 56 (seed 56, 16 positions): money and post-Crawford within 0.001; 3-away/3-away our
double/take 0.118 EMG under gnubg's in every position; 2-away/4-away our no double 0.039 under.
Run from the repo root: python bench/bearoff_cube.py [--positions N] [--seed S]"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import cube_vs_gnubg as bench  # noqa: E402
from game.model import evaluator  # noqa: E402
from game.model.position import Position  # noqa: E402


def draw(count: int, seed: int, men_a_side: tuple[int, int] = (3, 6)) -> list[str]:
    """Position IDs of short bear-offs (men_a_side[0] to [1] men a side, all home) where the
    side on roll wins 60-90% (our 0-ply)."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        sides = []
        for _ in range(2):
            men: dict[int | str, int] = {}
            for _ in range(rng.randint(*men_a_side)):
                point = rng.randint(1, 6)
                men[point] = men.get(point, 0) + 1
            sides.append(men)
        position = Position.from_points(*sides)
        if 0.6 < evaluator.evaluate(position, 0).win < 0.9 and position.position_id not in found:
            found.append(position.position_id)
    return found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=16)
    ap.add_argument("--seed", type=int, default=56)
    args = ap.parse_args(argv)
    ids = draw(args.positions, args.seed)
    with tempfile.TemporaryDirectory() as folder:
        judged, _ = bench.gnubg_judged(ids, 2, folder)
    gaps: dict[str, list[tuple[float, float, bool]]] = {label: [] for label, _ in bench.KINDS}
    for k, (pid, (label, terms)) in enumerate((p, kind) for p in ids for kind in bench.KINDS):
        ref = judged[k]
        ours = evaluator.cube_decision(pid, 5, terms)
        value = bench.emg(ours, terms)
        gaps[label].append((value.no_double_equity - ref.nd, value.double_take_equity - ref.dt,
                            bench.our_verdict(ours) == ref.verdict))
    print(f"== {len(ids)} short bear-offs, seed {args.seed}: level 5 against gnubg 2-ply")
    for label, rows in gaps.items():
        nd, dt = [r[0] for r in rows], [r[1] for r in rows]
        print(f"{label} ND gap: signed {statistics.mean(nd):+.3f} EMG, mean |.| "
              f"{statistics.mean(map(abs, nd)):.3f} EMG")
        print(f"{label} DT gap: signed {statistics.mean(dt):+.3f} EMG, mean |.| "
              f"{statistics.mean(map(abs, dt)):.3f} EMG")
        print(f"{label} same verdict: {sum(r[2] for r in rows)} of {len(rows)} decisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
