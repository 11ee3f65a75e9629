"""Patrik Rak's z80test 1.2 (z80full, z80memptr, z80ccf) loaded from its tape and run on our
Spectrum48: each program folds every tested instruction's results into CRCs measured on a real 48K
with a Zilog Z80 and prints "Result: all tests passed." when all match. Tapes read from
../shared/z80-tests/z80test (MIT, not copied). z80doc is left out: it runs z80full's instructions
and checks only the documented flags of what z80full checks whole, so it can find nothing z80full
misses (and took 32 s of CI's 15 minutes). The tests read what the program prints through RST 10h
and skip our ROM's printing of it (its scrolling cost a seventh of each run); bench/z80_tapes.py
lets the ROM print and reads the screen."""
import pytest

import roms
from conftest import shared_path
from spectrum.loader import load_headless
from spectrum.machine import Spectrum48
from spectrum.tape import read_tape

CHAN_OPEN = 0x1601          # the Sinclair ROM's CHAN-OPEN (the programs select the screen with it)
PRINT_RST = 0x0010          # RST 10h: our ROM prints there too
PASSED = "Result: all tests passed."


def run_tape(name: str, rom_prints: bool = True):
    """LOAD "" the tape on a fresh machine, RANDOMIZE USR as its BASIC loader says; returns
    (machine, text printed through RST 10h). Our ROM has no channels: CHAN-OPEN is a trap that
    returns (RST 10h prints on the upper screen, where the program wants it). rom_prints=False:
    RST 10h returns at once, the character only taken down (the screen stays blank)."""
    machine = Spectrum48(roms.ROM_PATH)
    tape = read_tape(shared_path("z80-tests", "z80test", f"{name}.tap").read_bytes(), f"{name}.tap")
    loader = load_headless(machine, "instant", tape, roms.rom_symbols())
    assert loader.state == "done" and loader.usr_address == 0x8000
    printed = []

    def ret(cpu):
        sp = cpu.sp
        cpu.pc = machine.memory[sp] | machine.memory[(sp + 1) & 0xFFFF] << 8
        cpu.sp = (sp + 2) & 0xFFFF

    def print_rst(cpu):
        printed.append(cpu.a)
        if not rom_prints:
            ret(cpu)

    machine.cpu.traps[CHAN_OPEN] = ret
    machine.cpu.traps[PRINT_RST] = print_rst
    machine.usr(loader.usr_address, max_frames=200_000)
    text = bytes(c if c in (13, 32) or 32 < c < 127 else 46 for c in printed).decode("ascii")
    return machine, text


@pytest.mark.parametrize("name", ["z80full", "z80memptr", "z80ccf"])
def test_z80test_tape_prints_all_tests_passed(name):
    _, text = run_tape(name, rom_prints=False)
    failed = [line for line in text.split("\r") if "FAILED" in line or "CRC" in line]
    assert PASSED in text.split("\r"), f"{name}: {failed or text[-300:]}"
