"""Z80 core speed: effective emulated MHz (T-states / wall seconds / 1e6) on bench/z80_speed.asm, run the
way the machine runs it (frames of 69,888 T, ROM below 0x4000 write-protected). Also times a plain Python
reference loop in the same process, so figures from a busy shared machine can be compared by ratio."""
import os
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from spectrum.hw import CPU_HZ, TSTATES_PER_FRAME  # noqa: E402
from spectrum import z80 as z80mod  # noqa: E402
from spectrum.z80 import Z80  # noqa: E402


def assemble():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "z80_speed.bin")
        sym = os.path.join(d, "z80_speed.sym")
        subprocess.run(["pasmo", "--bin", str(HERE / "z80_speed.asm"), out, sym], check=True)
        code = pathlib.Path(out).read_bytes()
        syms = {}
        for line in pathlib.Path(sym).read_text().splitlines():
            parts = line.replace("\t", " ").split()
            if len(parts) >= 3 and parts[1].upper() == "EQU":
                syms[parts[0].upper()] = int(parts[2].rstrip("Hh"), 16)
    return code, syms


def reference_loop(n=3_000_000):
    t0 = time.perf_counter()
    x = 0
    for k in range(n):
        x = (x + k) & 0xFFFF
    return n / (time.perf_counter() - t0) / 1e6


def run_once(code, syms):
    z80mod._CODE_CACHE.clear()         # every run pays for its own block compilation
    mem = bytearray(65536)
    org = syms["START"]
    mem[org:org + len(code)] = code
    cpu = Z80(mem, rom_top=0x4000)
    cpu.pc = org
    done = {}

    def stop(c):
        done["t"] = total + c.tstates
        c.halted = 1
        c.pc = syms["DONE"]

    cpu.traps[syms["DONE"]] = stop
    total = 0
    c0 = time.process_time()
    t0 = time.perf_counter()
    while "t" not in done:
        cpu.run(TSTATES_PER_FRAME)
        if "t" in done:
            break
        cpu.tstates -= TSTATES_PER_FRAME
        total += TSTATES_PER_FRAME
        cpu.interrupt()                 # refused (DI), as the machine would try each frame
    wall = time.perf_counter() - t0
    cpu_s = time.process_time() - c0
    return done["t"], wall, cpu_s


def main(runs=3):
    """Best of `runs` runs (a fresh core each time, so block compilation is included in every run)."""
    code, syms = assemble()
    ref = max(reference_loop() for _ in range(runs))
    results = [run_once(code, syms) for _ in range(runs)]
    ts, wall, cpu_s = min(results, key=lambda r: r[1])
    mhz = ts / wall / 1e6
    print(f"T-states executed: {ts} T")
    print(f"wall time (best of {runs}): {wall:.3f} s")
    print(f"emulated speed: {mhz:.2f} MHz")
    print(f"ratio to a real 48K: {mhz / (CPU_HZ / 1e6):.2f} x 3.5 MHz")
    print(f"emulated speed by process CPU time: {ts / min(r[2] for r in results) / 1e6:.2f} MHz")
    print(f"reference Python loop (best of {runs}): {ref:.2f} M iterations/s")
    print(f"speed per reference: {mhz / ref:.3f} MHz per M iterations/s")


if __name__ == "__main__":
    main()
