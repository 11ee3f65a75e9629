"""Benchmark, not a test: milliseconds to render one frame, and for a whole idle frame
(CPU with its interrupt, render, beeper). One figure a line with its unit.
Usage: python bench/frame.py [--frames N] [--rom PATH]"""
import argparse
import os
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from roms import ROM_PATH  # noqa: E402
from spectrum import hw, ula  # noqa: E402
from spectrum.audio import Beeper  # noqa: E402
from spectrum.machine import RomImageError, Spectrum48  # noqa: E402

# An idle machine when roms/rom.bin is not there yet: IM 1 handler counts FRAMES, main loop HALTs.
#   di / im 1 / ld sp,0 / ei / idle: halt / jr idle
#   org 38h: push hl / ld hl,23672 / inc (hl) / pop hl / ei / ret
IDLE_ROM = (bytes.fromhex("f3ed56310000fb7618fd").ljust(0x38, b"\0")
            + bytes.fromhex("e521785c34e1fbc9")).ljust(hw.ROM_BYTES, b"\0")


def best_ms(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * min(times), 1000 * float(np.median(times))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--rom", default=None,
                        help="ROM image (default our roms/rom.bin, else a built-in idle loop)")
    args = parser.parse_args(argv)

    try:
        rom = args.rom or ROM_PATH
        machine = Spectrum48(rom)
    except RomImageError:
        if args.rom:
            raise
        machine, rom = Spectrum48(IDLE_ROM), "built-in idle loop"
    print(f"# ROM: {rom}")

    mem = machine.mem
    rng = np.random.default_rng(0)
    mem[0x4000:0x5B00] = rng.integers(0, 256, 6912, dtype=np.uint8)
    out = np.empty((hw.FRAME_H, hw.FRAME_W, 3), np.uint8)
    best, median = best_ms(lambda: ula.render(mem, 0, 7, [], out), args.frames)
    print(f"render {median:.3f} ms (median; best {best:.3f} ms)")
    stripes = [(t, t // 2000 & 7) for t in range(0, hw.TSTATES_PER_FRAME, 2000)]
    best, median = best_ms(lambda: ula.render(mem, 0, 7, stripes, out), args.frames)
    print(f"render_with_border_stripes {median:.3f} ms (median; best {best:.3f} ms)")

    beeper = Beeper()
    for _ in range(100):                      # boot the ROM to its idle loop
        machine.run_frame()

    def idle_frame():
        machine.run_frame()
        machine.render(out=out)
        beeper.push(machine.ula.frame_ear)
    best, median = best_ms(idle_frame, args.frames)
    print(f"idle_frame {median:.3f} ms (median; best {best:.3f} ms; "
          "CPU + interrupt + render + beeper)")
    best, median = best_ms(machine.run_frame, args.frames)
    print(f"idle_frame_cpu_only {median:.3f} ms (median; best {best:.3f} ms)")
    try:
        import pygame

        from spectrum.display import DisplayLoop
        from spectrum.window_options import WindowOptions
        loop = DisplayLoop(machine, options=WindowOptions(scale=3, audio=False))
        pygame.display.init()
        loop._set_mode(pygame)
        loop.step()
        best, median = best_ms(lambda: loop._show(pygame), args.frames)
        print(f"window_show_3x {median:.3f} ms (median; best {best:.3f} ms; SDL driver "
              f"{pygame.display.get_driver()})")
        pygame.display.quit()
    except Exception as exc:  # no display: the figure is simply absent
        print(f"# window_show_3x not measured: {exc}")
    print(f"frame_budget {hw.FRAME_MS:.3f} ms")


if __name__ == "__main__":
    main()
