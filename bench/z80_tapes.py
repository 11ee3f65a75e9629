"""How long Patrik Rak's z80test tapes (../shared/z80-tests/z80test) take to run: on our Spectrum48
(loaded from the tape, as tests/spectrum/test_z80_tapes.py runs them; needs SPECTRUM_SHARED or
../shared) and
on SkoolKit's pure-Python Simulator (the code block at 32768, RET at 0010h and 1601h, run until the
program returns). One figure a line, seconds of wall time. Usage: python bench/z80_tapes.py
[--ours-only] [z80doc z80full z80memptr z80ccf] (SkoolKit takes several minutes a tape.)"""
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE.parent / "tests" / "spectrum"))   # test_z80_tapes.run_tape

from conftest import SHARED  # noqa: E402  (../shared, or SPECTRUM_SHARED)
from spectrum.tape import read_tape  # noqa: E402

TAPES = SHARED / "z80-tests" / "z80test"
CODE_ORG = 32768
RETURN_TO = 0x0010          # the program's final RET lands on RST 10h's RET too: told apart by SP


def run_ours(name):
    from test_z80_tapes import PASSED, run_tape

    from screentext import find_text
    t0 = time.perf_counter()
    machine, _ = run_tape(name)
    return time.perf_counter() - t0, find_text(machine, PASSED) is not None


def run_skoolkit(name):
    from skoolkit.simulator import Simulator
    tape = read_tape((TAPES / f"{name}.tap").read_bytes(), name)
    code = [b.data[1:-1] for b in tape.blocks if b.data and b.data[0] == 0xFF][-1]  # the code
    mem = bytearray(65536)
    mem[CODE_ORG:CODE_ORG + len(code)] = code
    mem[0x0010] = mem[0x1601] = 0xC9
    sp = 0xFF00
    mem[sp - 2], mem[sp - 1] = RETURN_TO & 0xFF, RETURN_TO >> 8
    sim = Simulator(mem, {"PC": CODE_ORG, "SP": sp - 2})
    printed = bytearray()
    t0 = time.perf_counter()
    while True:
        sim.run(stop=RETURN_TO)
        if sim.registers[12] == sp:          # SP back where it started: the program returned
            break
        printed.append(sim.registers[0])     # A at RST 10h
        sim.run()                            # one instruction: the RET
    return time.perf_counter() - t0, b"all tests passed" in bytes(printed)


def main(names, skoolkit=True):
    for name in names:
        wall, ok = run_ours(name)
        print(f"{name}: ours: {wall:.1f} s ({'all tests passed' if ok else 'FAILED'})", flush=True)
        if not skoolkit:
            continue
        wall, ok = run_skoolkit(name)
        verdict = "all tests passed" if ok else "not all passed"
        print(f"{name}: SkoolKit Simulator: {wall:.1f} s ({verdict})")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--ours-only"]
    main(args or ["z80doc", "z80full", "z80memptr", "z80ccf"], "--ours-only" not in sys.argv)
