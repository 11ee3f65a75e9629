"""Benchmark of legal-play generation: a fixed seeded set of 2,000 positions from random play,
each with a random roll, generated inside C (bg_bench_generate) so Python overhead is out of
the figure. Prints one figure a line with its unit. Not a test: it never passes or fails."""
import random
import sys
import time

from native import ffi, lib

POSITIONS = 2_000
SEED = 1983
TARGET_S = 2.0                # aim for about this much timed work per figure


def random_positions(count: int, seed: int):
    """(boards, dice) C arrays of `count` positions from seeded random play, with a fresh
    random roll for each (the roll that was played from it)."""
    rng = random.Random(seed)
    out_boards = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_BOARD_LEN)
    out_steps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_MAX_STEPS * lib.BG_STEP_FIELDS)
    out_nsteps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS)
    start = ffi.new("int8_t[]", lib.BG_BOARD_LEN)
    lib.bg_start(start)
    board = list(ffi.unpack(start, lib.BG_BOARD_LEN))
    boards, dice = [], []
    while len(dice) < 2 * count:
        die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
        boards += board
        dice += [die1, die2]
        n = lib.bg_legal_plays(ffi.new("int8_t[]", board), die1, die2, out_boards, out_steps,
                               out_nsteps, lib.BG_MAX_PLAYS)
        pick = rng.randrange(n)
        after = ffi.unpack(out_boards + pick * lib.BG_BOARD_LEN, lib.BG_BOARD_LEN)
        board = after[25:] + after[:25]                     # the other side to roll
        if lib.bg_game_result(ffi.new("int8_t[]", board)) != 0:
            board = list(ffi.unpack(start, lib.BG_BOARD_LEN))
    return ffi.new("int8_t[]", boards), ffi.new("int8_t[]", dice)


def main() -> int:
    boards, dice = random_positions(POSITIONS, SEED)
    lib.bg_bench_generate(boards, dice, POSITIONS, 1)      # warm caches
    began = time.perf_counter()
    plays = lib.bg_bench_generate(boards, dice, POSITIONS, 1)
    once_s = time.perf_counter() - began
    repeats = max(1, int(TARGET_S / max(once_s, 1e-6)))
    began = time.perf_counter()
    plays = lib.bg_bench_generate(boards, dice, POSITIONS, repeats)
    elapsed_s = time.perf_counter() - began
    calls = POSITIONS * repeats
    print(f"movegen_calls_per_s {calls / elapsed_s:.0f} calls/s")
    print(f"movegen_plays_per_s {plays / elapsed_s:.0f} plays/s")
    print(f"movegen_plays_per_call {plays / calls:.1f} plays/call")
    print(f"movegen_positions {POSITIONS} positions")
    print(f"movegen_timed_s {elapsed_s:.2f} s")
    # the same work through the Python face (game.model.rules), for comparison
    from game.model.position import Position
    from game.model.rules import legal_plays
    flat, rolls = ffi.unpack(boards, POSITIONS * 50), ffi.unpack(dice, POSITIONS * 2)
    positions = [Position(tuple(flat[i * 50:(i + 1) * 50])) for i in range(POSITIONS)]
    began = time.perf_counter()
    for i, position in enumerate(positions):
        legal_plays(position, (rolls[2 * i], rolls[2 * i + 1]))
    python_s = time.perf_counter() - began
    print(f"python_legal_plays_calls_per_s {POSITIONS / python_s:.0f} calls/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
