"""Where our chances part from GNU Backgammon's, signed, by kind of position (not a test, not a
training set): positions from gnubg0 self-play (bench/where_lost.sample; with --noise, a noisy
gnubg0's: the positions a club player's games reach), the side on roll before its roll. Our
net at 0 and 2 plies, and gnubg's own 0-ply beside them, each less gnubg-nn at 2 plies: the mean
signed difference of the win, win-gammon and lose-gammon chances and of the cubeless equity,
and the mean |equity difference|. gnubg only judges here; its outputs are never training
targets. The kinds are where_lost's (race; contact, a man on the bar, 3+ men back, 40+ pips
ahead or behind, a side with men borne off), bench/hard_positions' four classes, and contact
where the side on roll wins 70-90% by gnubg 2-ply (a cube's positions) or 10-30%.
One judge of one kind a line, with units. Run: python3 bench/chance_bias.py [--noise 0.06]"""
from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from game.model import evaluator  # noqa: E402
from game.model.evaluator import Probabilities  # noqa: E402
from game.model.position import Position  # noqa: E402
from hard_positions import CLASSES, in_class  # noqa: E402
from native import ffi, lib  # noqa: E402
from strength import Gnubg0  # noqa: E402
from where_lost import kinds, sample  # noqa: E402

JUDGES = ("ours 0-ply", "ours 2-ply", "gnubg 0-ply")


def figures(chances: Probabilities) -> tuple[float, float, float, float]:
    """(win, win gammon, lose gammon, cubeless equity) of a side's chances."""
    return chances.win, chances.win_gammon, chances.lose_gammon, chances.equity


# Bands of the side on roll's win chance by the referee (gnubg 2-ply, so that no judge picks
# the positions it is measured on): where a cube is turned, and their mirror.
WIN_BANDS = (("the side on roll wins 70-90% (gnubg 2-ply)", 0.70, 0.90),
             ("the side on roll wins 10-30% (gnubg 2-ply)", 0.10, 0.30))


def position_kinds(board: list[int], position: Position, win: float) -> list[str]:
    found = kinds(board)
    if found != ["race"]:
        found += [k for k in CLASSES if in_class(k, position)]
        found += [f"contact, {name}" for name, low, high in WIN_BANDS if low <= win < high]
    return ["all", *found]


def differences(count: int, seed: int, noise: float) -> dict[str, list[dict]]:
    """{kind: [{judge: (win, win gammon, lose gammon, equity) less gnubg 2-ply's}, ...]}"""
    evaluator.ensure_loaded()
    gnubg0 = Gnubg0()
    gnubg = gnubg0.gnubg
    rows: dict[str, list[dict]] = collections.defaultdict(list)
    for board, _, _ in sample(count, seed, gnubg0, noise):
        if lib.bg_game_result(ffi.new("int8_t[]", board)):
            continue
        position = Position(tuple(board))
        on_roll = [board[25:], board[:25]]          # gnubg's order: the side on roll second
        reference = figures(Probabilities(*gnubg.probabilities(on_roll, 2)))
        judged = {"ours 0-ply": figures(evaluator.evaluate(position, 0)),
                  "ours 2-ply": figures(evaluator.evaluate(position, 2)),
                  "gnubg 0-ply": figures(Probabilities(*gnubg.probabilities(on_roll, 0)))}
        row = {name: tuple(a - b for a, b in zip(value, reference, strict=True))
               for name, value in judged.items()}
        for kind in position_kinds(board, position, reference[0]):
            rows[kind].append(row)
    return rows


def report(rows: dict[str, list[dict]]) -> list[str]:
    out = []
    for kind, found in sorted(rows.items(), key=lambda item: -len(item[1])):
        out.append(f"{kind}: {len(found)} positions")
        for judge in JUDGES:
            mean = [statistics.fmean(r[judge][i] for r in found) for i in range(4)]
            spread = statistics.fmean(abs(r[judge][3]) for r in found)
            out.append(f"{kind} | {judge} less gnubg 2-ply: win {mean[0]:+.3f}, win gammon "
                       f"{mean[1]:+.3f}, lose gammon {mean[2]:+.3f} (fractions); equity "
                       f"{mean[3]:+.3f}, mean |equity| {spread:.3f} (points)")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=3251)
    ap.add_argument("--noise", type=float, default=0.0,
                    help="gnubg0's evaluation noise in self-play (0.06: a club player)")
    ap.add_argument("--weights", help="judge with this weights file (default: the shipped one)")
    args = ap.parse_args(argv)
    if args.weights:
        evaluator.load_weights(args.weights)
    judge = f", weights {args.weights}" if args.weights else ""
    print(f"positions from gnubg0 self-play: {args.positions}, seed {args.seed}, "
          f"noise {args.noise}{judge}")
    for line in report(differences(args.positions, args.seed, args.noise)):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
