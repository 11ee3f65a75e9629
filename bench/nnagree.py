"""Agreement of this checkout's engine with the engine of an older git revision (not a test):
positions from seeded self-play (level 3, one move in five by level 1 for variety) with a
random roll each; both engines evaluate every position at 0-ply and choose a play at level 3
with the shipped weights. Prints, one figure a line, the largest difference of each output
and the share of positions where the level-3 plays are the same. The old engine is built
from `git archive REV native` in a temporary folder and run in its own process.
Run: python3 bench/nnagree.py --rev 09f2522 --positions 100000"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD_LEN = 50
N_PROBS = 5
OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def best_play(ffi, lib, board, d1: int, d2: int, level: int, out) -> None:
    """The level's play of the roll into out (BOARD_LEN bytes), through whichever bg_rank_plays
    the engine has: since ABI 3 with its settings and a bg_ranking, before it with out-arrays
    (an older revision's engine runs this file's worker too)."""
    if hasattr(lib, "bg_check_search"):
        plays = ffi.new("bg_play[]", 1)
        ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": 1})
        lib.bg_rank_plays(board, d1, d2, level, ffi.NULL, ffi.NULL, ranking)
        ffi.memmove(out, plays[0].board, BOARD_LEN)
    else:
        lib.bg_rank_plays(board, d1, d2, level, ffi.NULL, out, ffi.NULL, ffi.NULL, ffi.NULL, 1)


def sample(n: int, seed: int):
    """(boards bytes, dice bytes) of n positions of seeded self-play with this checkout."""
    import random

    from native import ffi, lib
    rng = random.Random(seed)
    board, out = ffi.new("int8_t[]", BOARD_LEN), ffi.new("int8_t[]", BOARD_LEN)
    boards, dice = bytearray(), bytearray()
    lib.bg_start(board)
    while len(dice) < 2 * n:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        boards += bytes(ffi.buffer(board))
        dice += bytes((d1, d2))
        best_play(ffi, lib, board, d1, d2, 3 if rng.random() < 0.8 else 1, out)
        if lib.bg_game_result(out):
            lib.bg_start(board)
        else:
            lib.bg_swap(out, board)
    return bytes(boards), bytes(dice)


def work(data_path: str, out_path: str) -> None:
    """Worker: the engine on sys.path evaluates and plays every position of data_path."""
    from native import ffi, lib  # first, so PYTHONPATH picks which engine
    sys.path.append(ROOT)
    from game.model.evaluator import load_weights
    load_weights(None)
    with open(data_path, "rb") as fh:
        raw = fh.read()
    n = len(raw) // (BOARD_LEN + 2)
    boards, dice = raw[:n * BOARD_LEN], raw[n * BOARD_LEN:]
    c_boards = ffi.from_buffer("int8_t[]", boards)
    probs = ffi.new("float[]", n * N_PROBS)
    assert lib.bg_evaluate_many(c_boards, n, probs) == n
    played = bytearray()
    out = ffi.new("int8_t[]", BOARD_LEN)
    for i in range(n):
        best_play(ffi, lib, c_boards + i * BOARD_LEN, dice[2 * i], dice[2 * i + 1], 3, out)
        played += bytes(ffi.buffer(out))
    with open(out_path, "wb") as fh:
        fh.write(bytes(ffi.buffer(probs)) + bytes(played))


def run_worker(engine_dir: str, data_path: str, out_path: str) -> bytes:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([engine_dir, ROOT]))
    subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", data_path, out_path],
                   check=True, env=env)
    with open(out_path, "rb") as fh:
        return fh.read()


def build_old(rev: str, where: str) -> str:
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "native"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", where], input=archive, check=True)
    subprocess.run([sys.executable, os.path.join(where, "native", "build.py")], check=True,
                   cwd=where, capture_output=True)
    return where


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="09f2522", help="the older revision (default: before the "
                    "blocked forward pass)")
    ap.add_argument("--positions", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--worker", nargs=2, metavar=("DATA", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        work(*args.worker)
        return
    import struct
    sys.path.insert(0, ROOT)
    from game.model.evaluator import load_weights
    load_weights(None)
    boards, dice = sample(args.positions, args.seed)
    n = len(dice) // 2
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "positions.bin")
        with open(data, "wb") as fh:
            fh.write(boards + dice)
        old = run_worker(build_old(args.rev, tmp), data, os.path.join(tmp, "old.bin"))
        new = run_worker(ROOT, data, os.path.join(tmp, "new.bin"))
    p_old = struct.unpack(f"<{n * N_PROBS}f", old[:n * N_PROBS * 4])
    p_new = struct.unpack(f"<{n * N_PROBS}f", new[:n * N_PROBS * 4])
    play_old, play_new = old[n * N_PROBS * 4:], new[n * N_PROBS * 4:]
    print(f"positions: {n}")
    for k, name in enumerate(OUTPUTS):
        diff = max(abs(p_old[i * N_PROBS + k] - p_new[i * N_PROBS + k]) for i in range(n))
        print(f"max_diff_{name}: {diff:.3g}")
    same_probs = sum(old[i * 20:i * 20 + 20] == new[i * 20:i * 20 + 20] for i in range(n))
    print(f"evaluations_bit_identical: {100.0 * same_probs / n:.2f} %")
    same = sum(play_old[at:at + BOARD_LEN] == play_new[at:at + BOARD_LEN]
               for at in range(0, n * BOARD_LEN, BOARD_LEN))
    print(f"level3_same_play: {100.0 * same / n:.3f} % ({n - same} of {n} differ)")


if __name__ == "__main__":
    main()
