"""Benchmark, not a test: how long read_tape takes, and the peak memory it adds, on
pathological tapes (issue 16): 10 MiB of zero bytes as a .TAP (five million empty blocks),
a TZX of a million group-end blocks, and the game's own tape. One figure a line with its
unit. Usage: python bench/tape_read.py [--mib N]"""
import argparse
import os
import sys
import time
import tracemalloc
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from spectrum import tape as T  # noqa: E402
from spectrum.tape_blocks import TapeError, TapeWarning  # noqa: E402
from spectrum.tzx import TZX_SIGNATURE  # noqa: E402


def read(label: str, raw: bytes) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TapeWarning)
        try:
            tape = T.read_tape(raw, label)
            return f"{len(tape.blocks)} blocks, {len(tape.warnings)} warnings"
        except TapeError as exc:
            return f"refused: {exc}"


def measure(label: str, raw: bytes) -> None:
    """Time first, untraced; then the peak of a second, traced read."""
    start = time.perf_counter()
    outcome = read(label, raw)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    read(label, raw)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{label}: read_tape {seconds * 1000:.1f} ms")
    print(f"{label}: peak memory added {peak / 2 ** 20:.2f} MiB ({outcome})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mib", type=int, default=10, help="size of the zero-byte tape")
    args = parser.parse_args()
    measure(f"{args.mib} MiB of zero bytes (.tap)", bytes(args.mib * 2 ** 20))
    measure("1,000,000 TZX 22h blocks", TZX_SIGNATURE + bytes([1, 20]) + b"\x22" * 10 ** 6)
    from game.zx import make_tape
    measure("backgammon.tap", T.write_tap(make_tape.tape_blocks()))


if __name__ == "__main__":
    main()
