"""Benchmark (not a test): where level 5's cube equities part from GNU Backgammon's, split in
three. On bench/cube_vs_gnubg.py's positions and six kinds of terms, one figure a line, mean
signed / mean absolute, EMG:
- the formula: our 0-ply cube formula (evaluator.cube_decision_for, at the position's cube
  efficiency) fed gnubg's own 0-ply chances, less gnubg's 0-ply cubeful equities. What is left
  is the cube theory and the match equity table, the chances taken out;
- the search: what the 2-ply cubeful search adds to the formula at the root's 2-ply chances,
  ours (our search, our chances) beside gnubg's (gnubg 2-ply less our formula on gnubg's 2-ply
  chances, so that it carries the formula's difference too);
- the chances: our 2-ply cubeless money equity less gnubg 2-ply's, points.
Not a judgement of verdicts (bench/cube_vs_gnubg.py does that). gnubg prints its chances to 3
decimals, so the formula's row cannot come nearer than about 0.001. In a small money bear-off
gnubg's 0-ply reads the cube from its two-sided database, not the formula, so such a position
parts here (0.03-0.10 EMG); level 5 reads the same exactly (native/src/bearoff2.c).
Measured in session 42 (net41, seeds 6313 5458 4116, 24 positions): the formula 0.001 at money
and 0.011-0.045 at match terms, where our match equity table (met.c's model) and gnubg's
(Kazaross-XG2) part; with gnubg's table put in met.c for the run, 0.001-0.002 at every kind,
and both searches add the same to 0.005. The rest is the chances: ours +0.017 points above
gnubg 2-ply's on the mean (the side on roll, a 60-90% favourite).
Run from the repo root: python bench/cube_parts.py --seeds 6313 5458 4116"""

import argparse
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import cube_vs_gnubg as ref  # noqa: E402
from game.model import evaluator  # noqa: E402


def parts(pid: str, terms, two, zero, ours2) -> tuple[float, ...]:
    """One decision's figures: the formula's ND and DT less gnubg 0-ply's; gnubg's and our
    search's additions to ND and DT."""
    emg = ref.emg
    f0 = emg(evaluator.cube_decision_for(zero.chances, terms, position=pid), terms)
    f2 = emg(evaluator.cube_decision_for(two.chances, terms, position=pid), terms)
    o2 = emg(evaluator.cube_decision(pid, 5, terms), terms)
    fo = emg(evaluator.cube_decision_for(ours2, terms, position=pid), terms)
    return (f0.no_double_equity - zero.nd, f0.double_take_equity - zero.dt,
            two.nd - f2.no_double_equity, o2.no_double_equity - fo.no_double_equity,
            two.dt - f2.double_take_equity, o2.double_take_equity - fo.double_take_equity,
            fo.no_double_equity - f2.no_double_equity,
            fo.double_take_equity - f2.double_take_equity)


NAMES = ("formula ND less gnubg 0-ply", "formula DT less gnubg 0-ply",
         "gnubg's search adds to ND", "our search adds to ND",
         "gnubg's search adds to DT", "our search adds to DT",
         "the chances' part of the ND gap (formula at our 2-ply chances less at gnubg 2-ply's)",
         "the chances' part of the DT gap (formula at our 2-ply chances less at gnubg 2-ply's)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(ref.WORKING_SEEDS))
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--ids", help="these position IDs (a cube_vs_gnubg.py --save-ids file) "
                    "instead of drawing them")
    args = ap.parse_args(argv)
    evaluator.ensure_loaded()
    with tempfile.TemporaryDirectory() as folder:
        ids = (ref.read_ids(args.ids) if args.ids
               else ref.draw_positions(args.seeds, folder, args.positions))
        said2, _ = ref.run_gnubg(ref.hint_lines(ids, 2), folder)
        said0, _ = ref.run_gnubg(ref.hint_lines(ids, 0), folder)
    two, zero = ref.parse_hints(said2), ref.parse_hints(said0)
    if not len(two) == len(zero) == len(ids) * len(ref.KINDS):
        raise SystemExit(f"gnubg gave {len(two)} and {len(zero)} cube analyses for "
                         f"{len(ids) * len(ref.KINDS)} decisions")
    rows: dict[str, list[tuple[float, ...]]] = {kind: [] for kind, _ in ref.KINDS}
    chance_gaps = []
    j = 0
    for pid in ids:
        ours2 = evaluator.evaluate(pid, 2)
        cubeless = 2 * ours2.win - 1 + ours2.win_gammon - ours2.lose_gammon
        chance_gaps.append(cubeless - two[j].cubeless)
        for kind, terms in ref.KINDS:
            rows[kind].append(parts(pid, terms, two[j], zero[j], ours2))
            j += 1
    source = f"ids {args.ids}" if args.ids else f"seeds {' '.join(map(str, args.seeds))}"
    print(f"== {source}: {len(ids)} positions")
    for kind, found in rows.items():
        for k, name in enumerate(NAMES):
            values = [r[k] for r in found]
            print(f"{kind} {name}: mean {statistics.mean(values):+.3f} EMG, mean |.| "
                  f"{statistics.mean(abs(v) for v in values):.3f} EMG")
    print(f"chances: our 2-ply cubeless money equity less gnubg 2-ply's: mean "
          f"{statistics.mean(chance_gaps):+.3f} points, mean |.| "
          f"{statistics.mean(abs(g) for g in chance_gaps):.3f} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
