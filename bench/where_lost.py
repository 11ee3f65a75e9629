"""Where a level loses to GNU Backgammon's 0-ply net (not a test, not a match): positions
come from gnubg0 self-play (so they are the positions a game against it reaches); our level
and gnubg0 each choose; where the choices differ, gnubg-nn at 2-ply judges both results. The
equity lost is reported by kind of position, one figure a line. gnubg only judges here; its
outputs are never training targets. With --noise S the positions come from gnubg0 self-play
whose every 0-ply equity is off by N(0, S) (gnubg's own "evaluation noise": a club player's
games, the teacher's work), and --vs-gnubg2 also charges our level and gnubg0 each with what
its choice loses against gnubg 2-ply's own choice (the issue 58 goal: level 5 losing no more
than gnubg0 there). Run: python3 bench/where_lost.py --level 3 [--noise 0.06 --vs-gnubg2]"""
from __future__ import annotations

import argparse
import functools
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


def noisy_choice(board: list[int], d1: int, d2: int, gnubg0: Gnubg0, noise: float,
                 rng: random.Random) -> list[int]:
    """gnubg0's play when each legal play's 0-ply equity is off by N(0, noise)."""
    afters = gnubg0.legal_afters(board, d1, d2)
    if len(afters) <= 1:
        return gnubg0.choose(board, d1, d2)
    return max(afters, key=lambda a: gnubg_equity(gnubg0.gnubg, a, 0) + rng.gauss(0.0, noise))


def equity_at_2ply(gnubg: object, judged: dict[tuple[int, ...], float], after: list[int]
                   ) -> float:
    """gnubg 2-ply's equity of the play reaching `after`, kept in `judged` once asked."""
    key = tuple(after)
    if key not in judged:
        judged[key] = gnubg_equity(gnubg, after, 2)
    return judged[key]


def sample(n: int, seed: int, gnubg0: Gnubg0, noise: float = 0.0):
    """(board, die1, die2) of n positions from gnubg0 self-play, a game at a time (with
    noise > 0, a noisy gnubg0's)."""
    rng = random.Random(seed)
    noise_rng = random.Random(seed + 1)
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
            after = (noisy_choice(board, d1, d2, gnubg0, noise, noise_rng) if noise > 0
                     else gnubg0.choose(board, d1, d2))
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
    ap.add_argument("--noise", type=float, default=0.0,
                    help="the position source's evaluation noise (gnubg0 self-play; 0: none)")
    ap.add_argument("--vs-gnubg2", action="store_true",
                    help="also each choice's loss against gnubg 2-ply's own choice")
    args = ap.parse_args()
    gnubg0 = Gnubg0()
    gnubg2 = Gnubg0(2) if args.vs_gnubg2 else None
    load_weights(args.weights)
    ours = OurLevel(args.level)
    lost: dict[str, list[float]] = {}
    vs2: dict[str, list[float]] = {"ours": [], "gnubg0": []}
    for board, d1, d2 in sample(args.positions, args.seed, gnubg0, args.noise):
        mine, theirs = ours.choose(board, d1, d2), gnubg0.choose(board, d1, d2)
        eq2 = functools.partial(equity_at_2ply, gnubg0.gnubg, {})   # each play once a position
        loss = 0.0
        if mine != theirs:
            loss = eq2(theirs) - eq2(mine)
        for kind in ["all"] + kinds(board):
            lost.setdefault(kind, []).append(loss)
        if gnubg2 is not None:
            best = gnubg2.choose(board, d1, d2)
            vs2["ours"].append(eq2(best) - eq2(mine) if best != mine else 0.0)
            vs2["gnubg0"].append(eq2(best) - eq2(theirs) if best != theirs else 0.0)
    total = sum(lost["all"])
    source = f"noisy gnubg0 self-play, noise {args.noise}" if args.noise else "gnubg0 self-play"
    print(f"positions: {len(lost['all'])} ({source}, seed {args.seed})")
    print(f"level: {args.level}")
    for who, losses in vs2.items():
        if losses:
            mean = statistics.fmean(losses)
            half = 1.96 * statistics.stdev(losses) / math.sqrt(len(losses))
            print(f"lost_vs_gnubg2_choice[{who}]: {mean:.4f} points a decision "
                  f"[{mean - half:.4f}, {mean + half:.4f}]")
    for kind, losses in sorted(lost.items(), key=lambda kv: -sum(kv[1])):
        mean = statistics.fmean(losses)
        half = 1.96 * statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 else 0
        differ = sum(x != 0 for x in losses)
        print(f"lost_per_decision[{kind}]: {mean:+.4f} points [{mean - half:+.4f}, "
              f"{mean + half:+.4f}], {len(losses)} decisions, {differ} differ, "
              f"{sum(losses) / total if total else 0:.0%} of the total")


if __name__ == "__main__":
    main()
