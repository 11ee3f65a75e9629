"""Evaluator speed benchmark (not a test): the weights' load (the tables built with them: the
bear-off databases), 0-ply evaluations per second (a batch evaluated inside C) and moves per
second at each level 1..5 on positions from random play, plus the median and worst time per
move; level 5 with the evaluation cache off and on (its hit rate).
One figure a line. Run: python3 bench/evalspeed.py"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.model.evaluator import load_weights  # noqa: E402
from native import ffi, lib  # noqa: E402

BOARD_LEN = 50


def sample_positions(n: int, seed: int) -> list[tuple[list[int], int, int]]:
    """(board, die1, die2) for n positions reached by level-3 self-play, mid-game included."""
    rng = random.Random(seed)
    board, plays = ffi.new("int8_t[]", BOARD_LEN), ffi.new("bg_play[]", 1)
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": 1})
    out = plays[0].board
    found = []
    lib.bg_start(board)
    while len(found) < n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        found.append((list(board[0:BOARD_LEN]), d1, d2))
        lib.bg_rank_plays(board, d1, d2, 3 if rng.random() < 0.8 else 1, ffi.NULL, ffi.NULL,
                          ranking)
        if lib.bg_game_result(out):
            lib.bg_start(board)
        else:
            lib.bg_swap(out, board)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--weights", default=None,
                    help="weights file (default: the shipped native/evaluator.wts)")
    args = ap.parse_args()
    start = time.perf_counter()
    load_weights(args.weights)
    print(f"weights_load: {(time.perf_counter() - start) * 1000:.0f} ms")
    sample = sample_positions(max(args.positions, 50), args.seed)
    boards = ffi.new("int8_t[]", [c for b, _, _ in sample for c in b])
    probs = ffi.new("float[]", len(sample) * lib.BG_N_PROBS)
    evals, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 1.0:
        evals += lib.bg_evaluate_many(boards, len(sample), probs)
    rate = evals / (time.perf_counter() - t0)
    print(f"evals_per_s_0ply: {rate:,.0f} evaluations/s")
    print(f"eval_time_0ply: {1e6 / rate:.2f} us")
    for level in range(1, 5):
        time_moves(f"level{level}", level, sample)
    # level 5 as shipped, then searching 2 and 3 plies deep, on the same positions
    level5 = sample[: max(30, len(sample) // 5)]
    # the cache off: every board through the net
    time_moves("level5_nocache", 5, level5, settings(cache=0))
    # the cache on, in a new thread (whose cache starts empty), with its lookups and hits
    cache_run = threading.Thread(target=time_moves_counted, args=("level5", 5, level5))
    cache_run.start()
    cache_run.join()
    for plies in (2, 3):
        time_moves(f"level5_{plies}ply", 5, level5, settings(plies=plies))


def settings(**fields):
    """A bg_search of the defaults with `fields` changed."""
    search = ffi.new("bg_search *")
    lib.bg_search_defaults(search)
    for name, value in fields.items():
        setattr(search, name, value)
    return search


def time_moves_counted(name: str, level: int, todo) -> None:
    """time_moves with the calling thread's cache hits."""
    looks, hits = ffi.new("double *"), ffi.new("double *")
    lib.bg_eval_cache_counts(looks, hits)
    looks0, hits0 = looks[0], hits[0]
    time_moves(name, level, todo)
    lib.bg_eval_cache_counts(looks, hits)
    print(f"{name}_cache_hits: {100 * (hits[0] - hits0) / max(1.0, looks[0] - looks0):.1f} %")


def time_moves(name: str, level: int, todo, search=ffi.NULL) -> None:
    """Move times and work (positions evaluated) of one level over the sample, searched
    with `search` (a bg_search; NULL: the defaults)."""
    board, plays = ffi.new("int8_t[]", BOARD_LEN), ffi.new("bg_play[]", 1)
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": 1})
    times, works = [], []
    for b, d1, d2 in todo:
        board[0:BOARD_LEN] = b
        t = time.perf_counter()
        lib.bg_rank_plays(board, d1, d2, level, ffi.NULL, search, ranking)
        times.append(time.perf_counter() - t)
        works.append(ranking.work)
    print(f"moves_per_s_{name}: {len(times) / sum(times):,.1f} moves/s")
    print(f"move_time_{name}_median: {statistics.median(times) * 1000:.2f} ms")
    print(f"move_time_{name}_max: {max(times) * 1000:.2f} ms")
    if level >= 4:
        print(f"work_{name}_median: {statistics.median(works):,.0f} positions")
        print(f"work_{name}_max: {max(works):,} positions")


if __name__ == "__main__":
    main()
