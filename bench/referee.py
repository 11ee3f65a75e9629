"""Choice referee benchmark (not a test): level 5 searching 2 plies and searching 3 plies deep
choose on the same positions; where they choose differently, GNU Backgammon's net at 2-ply
(gnubg-nn, an optional bench dependency) judges both results. Not a match: it measures the
equity of the choices, not games. One figure a line. Run: python3 bench/referee.py"""
from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.model.evaluator import load_weights  # noqa: E402
from native import ffi, lib  # noqa: E402

BOARD_LEN = 50


def positions(n: int, seed: int):
    """(board, die1, die2) for n positions of level-3 self-play (a slip now and then)."""
    rng = random.Random(seed)
    board, out = ffi.new("int8_t[]", BOARD_LEN), ffi.new("bg_play[]", 3)
    ranking = ffi.new("bg_ranking *", {"plays": out, "max_plays": 3})
    lib.bg_start(board)
    found = []
    while len(found) < n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        found.append((list(board[0:BOARD_LEN]), d1, d2))
        count = lib.bg_rank_plays(board, d1, d2, 3, ffi.NULL, ffi.NULL, ranking)
        pick = 0 if rng.random() < 0.9 else rng.randrange(count)
        after = list(out[pick].board)
        if lib.bg_game_result(ffi.new("int8_t[]", after)):
            lib.bg_start(board)
        else:
            board[0:BOARD_LEN] = after[25:] + after[:25]
    return found


def choice(board, d1, d2, plies: int) -> list[int]:
    """Level 5's play searching `plies` deep (its settings go with the call)."""
    c_board, out = ffi.new("int8_t[]", board), ffi.new("bg_play[]", 1)
    ranking = ffi.new("bg_ranking *", {"plays": out, "max_plays": 1})
    search = ffi.new("bg_search *")
    lib.bg_search_defaults(search)
    search.plies = plies
    lib.bg_rank_plays(c_board, d1, d2, 5, ffi.NULL, search, ranking)
    return list(out[0].board)


def gnubg_equity(gnubg, after: list[int], ply: int) -> float:
    """The mover's cubeless equity after its play (mover still row 0) by gnubg at `ply`."""
    result = lib.bg_game_result(ffi.new("int8_t[]", after))
    if result:
        return float(result)
    w, wg, wb, lg, lb = gnubg.probabilities([after[:25], after[25:]], ply)   # opponent on roll
    return -(2 * w - 1 + wg - lg + wb - lb)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--ply", type=int, default=2, help="gnubg's depth as referee (0..2)")
    args = ap.parse_args()
    try:
        import gnubg_nn as gnubg
    except ImportError:
        raise SystemExit("the referee needs the PyPI package gnubg-nn: "
                         "pip install gnubg-nn") from None
    load_weights(None)
    gains = []
    sample = positions(args.positions, args.seed)
    for board, d1, d2 in sample:
        two, three = choice(board, d1, d2, 2), choice(board, d1, d2, 3)
        if two != three:
            gains.append(gnubg_equity(gnubg, three, args.ply) - gnubg_equity(gnubg, two, args.ply))
    print(f"positions: {len(sample)}")
    print(f"choices_differ: {len(gains)} positions")
    if len(gains) > 1:
        mean = statistics.fmean(gains)
        half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
        print(f"gain_3ply_where_differ: {mean:+.4f} points [{mean - half:+.4f}, {mean + half:+.4f}]"
              f" (gnubg {args.ply}-ply)")
        print(f"gain_3ply_per_move: {mean * len(gains) / len(sample):+.5f} points")
        print(f"3ply_better_by_gnubg: {sum(g > 0 for g in gains)} of {len(gains)}")


if __name__ == "__main__":
    main()
