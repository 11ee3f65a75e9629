"""Benchmark, not a test: milliseconds to render one frame as the beam draws it, with an empty
screen-write log (memory drawn as it is) and with busy ones. One figure a line with its unit.
Usage: python bench/ula_render.py [--frames N]"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import numpy as np  # noqa: E402

from frame import best_ms  # noqa: E402
from spectrum import hw, ula  # noqa: E402


def spread_log(mem, addresses, rng):
    """One write to each address, at T-states spread evenly over the frame, in time order;
    memory is changed as the CPU would (the log keeps the old byte)."""
    tstates = np.linspace(0, hw.TSTATES_PER_FRAME - 1, len(addresses)).astype(int)
    log = []
    for t, addr in zip(tstates.tolist(), addresses, strict=True):
        log.append((t, addr, int(mem[addr])))
        mem[addr] = rng.integers(0, 256)
    return log


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    mem = np.zeros(hw.MEMORY_BYTES, np.uint8)
    mem[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES] = rng.integers(0, 256, hw.SCREEN_BYTES)
    out = np.empty((hw.FRAME_H, hw.FRAME_W, 3), np.uint8)

    best, median = best_ms(lambda: ula.render(mem, 0, 7, [], out), args.frames)
    print(f"render_empty_log {median:.3f} ms (median; best {best:.3f} ms)")
    attrs = spread_log(mem.copy(), list(range(hw.ATTR_ADDR, hw.ATTR_ADDR + hw.ATTR_BYTES)), rng)
    best, median = best_ms(lambda: ula.render(mem, 0, 7, [], out, attrs), args.frames)
    print(f"render_768_attribute_writes {median:.3f} ms (median; best {best:.3f} ms)")
    screen = list(range(hw.SCREEN_ADDR, hw.SCREEN_ADDR + hw.SCREEN_BYTES))
    whole = spread_log(mem.copy(), screen, rng)
    best, median = best_ms(lambda: ula.render(mem, 0, 7, [], out, whole), args.frames)
    print(f"render_6912_screen_writes {median:.3f} ms (median; best {best:.3f} ms; "
          "the whole screen)")
    best, median = best_ms(lambda: ula.render(mem, 0, 7, [], out, attrs, attrs[:64]), args.frames)
    print(f"render_768_attribute_writes_64_later {median:.3f} ms (median; best {best:.3f} ms)")
    print(f"frame_budget {hw.FRAME_MS:.3f} ms")


if __name__ == "__main__":
    main()
