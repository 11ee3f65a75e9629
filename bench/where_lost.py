"""Where a level loses to GNU Backgammon's 0-ply net (not a test, not a match): positions
come from gnubg0 self-play (so they are the positions a game against it reaches); our level
and gnubg0 each choose; where the choices differ, gnubg-nn at 2-ply judges both results. The
equity lost is reported by kind of position, one figure a line. gnubg only judges here; its
outputs are never training targets. Run: python3 bench/where_lost.py --level 3"""
from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from game.model.evaluator import load_weights  # noqa: E402
from native import ffi, lib  # noqa: E402
from referee import gnubg_equity  # noqa: E402
from strength import BOARD_LEN, Gnubg0, OurLevel, swap  # noqa: E402


def kinds(board: list[int]) -> list[str]:
    """The kinds a position (mover on roll, row 0) belongs to; a position counts in each."""
    me, op = board[:25], board[25:]
    rear_me = max((i for i in range(25) if me[i]), default=-1)
    rear_op = max((i for i in range(25) if op[i]), default=-1)
    if rear_me <= 23 - rear_op:
        return ["race"]
    out = ["contact"]
    pips_me = sum(n * (i + 1) for i, n in enumerate(me))
    pips_op = sum(n * (i + 1) for i, n in enumerate(op))
    if pips_me - pips_op >= 40:
        out.append("contact, mover 40+ pips behind")
    elif pips_op - pips_me >= 40:
        out.append("contact, mover 40+ pips ahead")
    if sum(me[18:25]) >= 3:
        out.append("contact, mover 3+ men back")
    if sum(op) < 15:
        out.append("contact, opponent has borne off")
    if sum(me) < 15:
        out.append("contact, mover has borne off")
    if me[24] or op[24]:
        out.append("contact, a man on the bar")
    return out


def sample(n: int, seed: int, gnubg0: Gnubg0):
    """(board, die1, die2) of n positions from gnubg0 self-play, a game at a time."""
    rng = random.Random(seed)
    start = ffi.new("int8_t[]", BOARD_LEN)
    found = []
    while len(found) < n:
        lib.bg_start(start)
        board = list(start[0:BOARD_LEN])
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while d1 == d2:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        for _ in range(400):
            found.append((board, d1, d2))
            after = gnubg0.choose(board, d1, d2)
            if lib.bg_game_result(ffi.new("int8_t[]", after)) or len(found) >= n:
                break
            board = swap(after)
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", type=int, default=3, help="our level (1..5)")
    ap.add_argument("--positions", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--weights", default=None, help="weights file (default: the shipped one)")
    args = ap.parse_args()
    gnubg0 = Gnubg0()
    load_weights(args.weights)
    ours = OurLevel(args.level)
    lost: dict[str, list[float]] = {}
    for board, d1, d2 in sample(args.positions, args.seed, gnubg0):
        mine, theirs = ours.choose(board, d1, d2), gnubg0.choose(board, d1, d2)
        loss = 0.0
        if mine != theirs:
            loss = gnubg_equity(gnubg0.gnubg, theirs, 2) - gnubg_equity(gnubg0.gnubg, mine, 2)
        for kind in ["all"] + kinds(board):
            lost.setdefault(kind, []).append(loss)
    total = sum(lost["all"])
    print(f"positions: {len(lost['all'])} (gnubg0 self-play, seed {args.seed})")
    print(f"level: {args.level}")
    for kind, losses in sorted(lost.items(), key=lambda kv: -sum(kv[1])):
        mean = statistics.fmean(losses)
        half = 1.96 * statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 else 0
        differ = sum(x != 0 for x in losses)
        print(f"lost_per_decision[{kind}]: {mean:+.4f} points [{mean - half:+.4f}, "
              f"{mean + half:+.4f}], {len(losses)} decisions, {differ} differ, "
              f"{sum(losses) / total if total else 0:.0%} of the total")


if __name__ == "__main__":
    main()
