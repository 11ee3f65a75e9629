"""Z80 core speed: effective emulated MHz (T-states / wall seconds / 1e6) on three mixes, each run
by our core the way the machine runs it (frames of 69,888 T, ROM below 0x4000 write-protected) and
by SkoolKit's pure-Python Simulator on the same code in the same process, reported as a ratio (ours
/ SkoolKit's).
  loop:     bench/z80_speed.asm, a CPU-bound mix of loops (code that runs many times)
  smc:      bench/z80_speed_smc.asm, operands and an opcode patched in a running loop, and 96
            bytes of straight-line code regenerated and called once per pass
  straight: ~20 KB of straight-line code (made here, seeded) run once, like a ROM start-up
Contention: ours runs contended, as the machine does (Z80(contended=True): every access that may
touch 0x4000-0x7FFF is checked, every I/O by the port rule); SkoolKit's Simulator does not model it.
The code runs at 8000h and touches no contended memory, so both sides count the same T-states; the
ratio is of wall time for the same work (SkoolKit's seconds / ours), which is the MHz ratio when the
T-states agree."""
import gc
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from spectrum import z80_compile  # noqa: E402
from spectrum.hw import CPU_HZ, TSTATES_PER_FRAME  # noqa: E402
from spectrum.z80 import Z80  # noqa: E402

STRAIGHT_BYTES = 20_000
ORG = 0x8000
CONTENDED = os.environ.get("Z80_SPEED_CONTENDED", "1") == "1"


def assemble(name):
    """(code, symbols) of bench/<name>.asm assembled at its ORG by pasmo."""
    with tempfile.TemporaryDirectory() as d:
        out, sym = os.path.join(d, "out.bin"), os.path.join(d, "out.sym")
        subprocess.run(["pasmo", "--bin", str(HERE / name), out, sym], check=True)
        code = pathlib.Path(out).read_bytes()
        syms = {}
        for line in pathlib.Path(sym).read_text().splitlines():
            parts = line.replace("\t", " ").split()
            if len(parts) >= 3 and parts[1].upper() == "EQU":
                syms[parts[0].upper()] = int(parts[2].rstrip("Hh"), 16)
    return code, syms


def straight_line_code(n_bytes=STRAIGHT_BYTES, seed=1983):
    """n_bytes of straight-line code at ORG with no jumps (loads, ALU, 16-bit, (HL), CB, IX, stack),
    then HALT; its writes go to E000h-F07Fh, clear of the code."""
    rnd = random.Random(seed)
    pieces = [
        lambda: [0x3E, rnd.randrange(256)],                           # LD A,n
        lambda: [0x06 + 8 * rnd.randrange(6), rnd.randrange(256)],    # LD B/C/D/E/H/L,n
        lambda: [0x80 + rnd.randrange(64) & 0xBF | 0x80],              # ALU A,r (r != (HL))
        lambda: [0xC6 + 8 * rnd.randrange(8), rnd.randrange(256)],    # ALU A,n
        lambda: [0x03 + 16 * rnd.randrange(3)],                       # INC BC/DE/HL
        lambda: [0x09 + 16 * rnd.randrange(3)],                       # ADD HL,rr
        lambda: [0x21, rnd.randrange(256), 0xE0 + rnd.randrange(16), 0x77], # LD HL,Exxxh; LD (HL),A
        lambda: [0x7E],                                               # LD A,(HL)
        lambda: [0xCB, rnd.randrange(0x40)],                          # CB rotates, shifts on r
        lambda: [0xDD, 0x21, 0x00, 0xF0, 0xDD, 0x77, rnd.randrange(128)],  # LD IX,F000h; (IX+d),A
        lambda: [0xC5, 0xE1],                                         # PUSH BC; POP HL
        lambda: [0xEB, 0xD9, 0x08],                                   # EX DE,HL; EXX; EX AF,AF'
    ]
    code = bytearray()
    while len(code) < n_bytes:
        ins = pieces[rnd.randrange(len(pieces))]()
        if ins[0] & 0xC7 == 0x06 and ins[0] == 0x36:                  # never LD (HL),n here
            continue
        code += bytes(b & 0xFF for b in ins)
    code.append(0x76)
    return bytes(code)


def run_ours(code, done):
    """Run a fresh core from ORG until pc reaches done; (T-states, wall s)."""
    mem = bytearray(65536)
    mem[ORG:ORG + len(code)] = code
    cpu = Z80(mem, rom_top=0x4000, contended=CONTENDED)
    cpu.pc, cpu.sp = ORG, 0xFF00
    finished = {}

    def stop(c):
        finished["t"] = total + c.tstates
        c.halted = 1
    cpu.traps[done] = stop
    total = 0
    t0 = time.perf_counter()
    while "t" not in finished:
        cpu.run(TSTATES_PER_FRAME)
        if "t" in finished:
            break
        cpu.tstates -= TSTATES_PER_FRAME
        total += TSTATES_PER_FRAME
        cpu.interrupt()                 # refused (DI), as the machine would try each frame
    return finished["t"], time.perf_counter() - t0


def run_skoolkit(code, done):
    from skoolkit.simulator import Simulator
    mem = bytearray(65536)
    mem[ORG:ORG + len(code)] = code
    sim = Simulator(mem, {"PC": ORG, "SP": 0xFF00})
    t0 = time.perf_counter()
    sim.run(ORG, done)
    return sim.registers[25], time.perf_counter() - t0


def measure(label, code, done, runs):
    """Best of `runs` fresh runs each side, taken in turns (a busy machine slows both alike); prints
    MHz and the ratio. Every run of ours pays for its own block compilation. SkoolKit's Simulator is
    built before its clock starts (its opcode tables), as our op functions are built once per
    process."""
    ours, theirs = [], []
    for _ in range(runs):
        z80_compile._CODE_CACHE.clear()
        gc.collect()                    # neither side pays for the other's garbage
        ours.append(run_ours(code, done))
        gc.collect()
        theirs.append(run_skoolkit(code, done))
    t_ours, wall_ours = min(ours, key=lambda r: r[1])
    t_sk, wall_sk = min(theirs, key=lambda r: r[1])
    mhz, mhz_sk = t_ours / wall_ours / 1e6, t_sk / wall_sk / 1e6
    print(f"{label}: T-states executed: {t_ours} T (SkoolKit: {t_sk} T)")
    print(f"{label}: ours (best of {runs}): {mhz:.2f} MHz ({wall_ours * 1000:.1f} ms)")
    print(f"{label}: SkoolKit Simulator (best of {runs}): {mhz_sk:.2f} MHz "
          f"({wall_sk * 1000:.1f} ms)")
    print(f"{label}: ratio ours / SkoolKit: {wall_sk / wall_ours:.2f}")
    return wall_sk / wall_ours


def main(runs=5):
    loop_code, loop_syms = assemble("z80_speed.asm")
    smc_code, smc_syms = assemble("z80_speed_smc.asm")
    straight = straight_line_code()
    t0 = time.perf_counter()            # the op functions: compiled once a process
    run_ours(straight, ORG + len(straight) - 1)
    first_ms = (time.perf_counter() - t0) * 1000
    print(f"first run in this process, op functions compiled: {first_ms:.0f} ms")
    ratios = {
        "loop": measure("loop", loop_code, loop_syms["DONE"], runs),
        "smc": measure("smc", smc_code, smc_syms["DONE"], runs),
        "straight": measure("straight", straight, ORG + len(straight) - 1, 4 * runs),
    }
    print(f"straight-line code: {len(straight)} bytes")
    print(f"real 48K: {CPU_HZ / 1e6:.2f} MHz")
    print("contention: ours on (Z80(contended=True)); SkoolKit's Simulator has none")
    print("targets: every ratio >= 1.0, loop >= 2.0: " +
          ("met" if min(ratios.values()) >= 1.0 and ratios["loop"] >= 2.0 else "NOT met"))


if __name__ == "__main__":
    main()
