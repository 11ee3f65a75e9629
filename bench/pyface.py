"""The Python face's speed against gnubg-nn's corresponding calls (not a test), end to end on
the same seeded positions and rolls, position IDs in: our legal_results / legal_plays /
best_play (level 3, 0-ply) / ranked_plays (level 3) against gnubg-nn's moves / moves with
steps / best_move (0-ply) / best_move(list=1). Each figure has its own positions, each asked
once of each side (so no evaluation cache sees a repeat), from games of level 3 with one
move in five random. Prints one figure a line: each side's calls per second and the ratio
(ours / gnubg's speed; above 1.0 = ours faster), all from the median of 20-call chunks
taken in turn (the median leaves out chunks the scheduler of a shared machine interrupted).
"_all" lines also touch every returned candidate's position ID and steps, on both sides.
Needs gnubg-nn (an optional bench dependency). Run: python3 bench/pyface.py"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.model import evaluator, rules  # noqa: E402
from game.model.position import Position  # noqa: E402


def sample(n: int, seed: int) -> list[tuple[str, int, int]]:
    """(position ID, die1, die2) from seeded games of level 3 with one move in five random,
    restarted when over."""
    rng = random.Random(seed)
    pos, out = Position.start(), []
    while len(out) < n:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((pos.position_id, *dice))
        if rng.random() < 0.2:
            after = rng.choice(rules.legal_plays(pos, dice)).after
        else:
            after = Position.from_id(evaluator.best_play(pos.position_id, dice, 3))
        pos = Position.start() if rules.game_result(after) else after.swapped()
    return out


def rates(ours, theirs, cases, chunk: int = 20) -> tuple[float, float, float]:
    """Each case is called once by each function, the two taking turns (who goes first
    alternating) every `chunk` cases. Returns each side's calls per second and the ratio
    from the median chunk: on a shared machine a chunk the scheduler interrupts is an
    outlier, and the median leaves it out."""
    times = ([], [])
    for at in range(0, len(cases) - chunk + 1, chunk):
        part = cases[at:at + chunk]
        order = ((0, ours), (1, theirs)) if at // chunk % 2 else ((1, theirs), (0, ours))
        for side, fn in order:
            began = time.perf_counter()
            for case in part:
                fn(*case)
            times[side].append(time.perf_counter() - began)
    ratios = sorted(t / o for o, t in zip(*times, strict=True))
    ours_s, theirs_s = (statistics.median(t) for t in times)
    return chunk / ours_s, chunk / theirs_s, ratios[len(ratios) // 2]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=3000, help="positions per figure")
    ap.add_argument("--seed", type=int, default=19)
    args = ap.parse_args()
    try:
        import gnubg_nn as g
    except ImportError:
        raise SystemExit("bench/pyface.py compares with gnubg-nn: pip install gnubg-nn") from None
    evaluator.ensure_loaded()
    cases = sample(args.positions * 6, args.seed)
    board_of = g.board_from_position_id

    def g_best_all(pid, d1, d2):
        _moves, listed = g.best_move(board_of(pid), d1, d2, list=1)
        for _key, _steps, _probs, _eq in listed:
            pass

    def our_plays_all(pid, d1, d2):
        for play in rules.legal_plays(pid, (d1, d2)):
            _ = play.after.position_id, play.steps       # what a caller reads of each

    def g_plays_all(pid, d1, d2):
        for _key, _steps in g.moves(board_of(pid), d1, d2, 1):
            pass

    def our_ranked_all(pid, d1, d2):
        for cand in evaluator.ranked_plays(pid, (d1, d2), 3):
            _ = cand.position_id, cand.play.steps, cand.equity

    pairs = [
        ("legal_results", lambda pid, d1, d2: rules.legal_results(pid, (d1, d2)),
         lambda pid, d1, d2: set(g.moves(board_of(pid), d1, d2))),
        ("legal_plays", lambda pid, d1, d2: rules.legal_plays(pid, (d1, d2)),
         lambda pid, d1, d2: g.moves(board_of(pid), d1, d2, 1)),
        ("legal_plays_all", our_plays_all, g_plays_all),
        ("best_play", lambda pid, d1, d2: evaluator.best_play(pid, (d1, d2), 3),
         lambda pid, d1, d2: g.best_move(board_of(pid), d1, d2)),
        ("ranked_plays", lambda pid, d1, d2: evaluator.ranked_plays(pid, (d1, d2), 3),
         lambda pid, d1, d2: g.best_move(board_of(pid), d1, d2, list=1)),
        ("ranked_plays_all", our_ranked_all, g_best_all),
    ]
    warm = sample(200, args.seed + 1)          # first calls (buffers, caches) not timed
    for _name, ours, theirs in pairs:
        rates(ours, theirs, warm)
    print(f"positions: {args.positions} per figure (seed {args.seed})")
    for k, (name, ours, theirs) in enumerate(pairs):
        part = cases[k * args.positions:(k + 1) * args.positions]
        ours_rate, theirs_rate, ratio = rates(ours, theirs, part)
        print(f"{name}_ours: {ours_rate:,.0f} calls/s")
        print(f"{name}_gnubg: {theirs_rate:,.0f} calls/s")
        print(f"{name}_ratio: {ratio:.2f} x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
