"""Game review speed benchmark (not a test): seeded games of 60 moves (level 3 with a slip
now and then, so there are errors to find) reviewed at level 5 by game/analysis/judge.py, cube
decisions and luck included, with the threads the review takes by itself and with one.
One figure a line. Run: python3 bench/review.py [--games N]"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.analysis import judge as review  # noqa: E402
from game.model import evaluator, rules  # noqa: E402
from game.model.position import Position  # noqa: E402
from game.model.record import MatchRecord  # noqa: E402

MOVES = 60


def game_of(moves: int, seed: int) -> MatchRecord | None:
    """A money game of exactly `moves` turns (in progress), or None when it ends sooner."""
    rng = random.Random(seed)
    record = MatchRecord(0)
    record.start_game({"human": 0, "computer": 0})
    position, side = Position.start(), "human"
    for turn in range(moves):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while turn == 0 and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        ranked = evaluator.ranked_plays(position, dice, 3)
        pick = ranked[0] if rng.random() > 0.2 else ranked[min(len(ranked) - 1, 2)]
        record.move(side, dice, pick.play.steps)
        if rules.game_result(pick.play.after):
            return None
        position = pick.play.after.swapped()
        side = "computer" if side == "human" else "human"
    return record


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    evaluator.ensure_loaded()
    records, seed = [], args.seed
    while len(records) < args.games:
        record = game_of(MOVES, seed)
        seed += 1
        if record is not None:
            records.append(record)
    workers = review.review_workers()
    print(f"review_workers {workers} threads")
    all_seconds = []
    for label, count in (("", workers), ("_1thread", 1)):
        seconds, per_turn_ms = [], []
        for record in records:
            reviewer = review.Reviewer(record, workers=count)
            start = last = time.perf_counter()
            for _ in reviewer.steps():
                now = time.perf_counter()
                per_turn_ms.append(1000 * (now - last))
                last = now
            seconds.append(time.perf_counter() - start)
        print(f"review_{MOVES}_moves{label}_median {statistics.median(seconds):.2f} s")
        print(f"review_{MOVES}_moves{label}_max {max(seconds):.2f} s")
        print(f"review_step{label}_median {statistics.median(per_turn_ms):.0f} ms")
        print(f"review_step{label}_max {max(per_turn_ms):.0f} ms")
        all_seconds.append(seconds)
    threads, one = (statistics.median(s) for s in all_seconds)
    print(f"review_thread_speedup {one / threads:.2f} x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
