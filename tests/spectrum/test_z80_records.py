"""What the decoder's records say about each instruction is true when it runs: the flag bits it
keeps are kept, the flag bits and registers it does not read make no difference, its memory writes
are its bus cycles' write cycles. Every encoding (256 opcodes after each prefix), from random
states, run one step."""
import random

import pytest

from spectrum.z80 import Z80
from spectrum.z80_decode import Decoder
from spectrum.z80_operands import Expr, Template, s8
from spectrum.z80_records import REGS, cpu_name

PREFIXES = [(), (0xCB,), (0xED,), (0xDD,), (0xFD,), (0xDD, 0xCB, 0x05), (0xFD, 0xCB, 0xFB)]
ORG = 0x8000
_CPU = {}


def prefix_id(prefix):
    return " ".join(f"{b:02X}" for b in prefix) or "none"


def encodings(prefix):
    for op in range(256):
        yield list(prefix) + [op, 0x34, 0x12, 0x00, 0x00]


def run_one(code, state, memory):
    """Registers, memory, T-states and pc after one step of code from state (register: value)."""
    mem = bytearray(memory)
    mem[ORG:ORG + len(code)] = bytes(code)
    cpu = Z80(mem, compile_after=10**9)
    for name, value in state.items():
        setattr(cpu, cpu_name(name), value)
    cpu.pc, cpu.q, cpu.iff2 = ORG, 0, 1
    cpu.port_in = lambda port, tstates: (port * 7) & 0xFF
    cpu.step()
    out = {r: getattr(cpu, cpu_name(r)) for r in REGS}
    out.update(pc=cpu.pc, tstates=cpu.tstates, q=cpu.q, memory=bytes(mem))
    return out


def random_state(rnd):
    state = {r: rnd.randrange(256) for r in REGS if r not in ("ix", "iy", "sp", "wz")}
    state.update(ix=rnd.randrange(65536), iy=rnd.randrange(65536), sp=rnd.randrange(0x9000, 0xF000),
                 wz=rnd.randrange(65536))
    return state


@pytest.mark.parametrize("prefix", PREFIXES, ids=prefix_id)
def test_flag_bits_not_written_are_kept_and_bits_not_read_change_nothing_else(prefix):
    rnd = random.Random(sum(prefix) + 1)
    memory = bytes(rnd.randrange(256) for _ in range(65536))
    for code in encodings(prefix):
        mem = bytearray(memory)
        mem[ORG:ORG + len(code)] = bytes(code)
        ins = Decoder(mem).decode(ORG)
        for _ in range(3):
            state = random_state(rnd)
            flip = rnd.randrange(256) & ~ins.flags_read     # bits the record says are not read
            one = run_one(code, state, memory)
            two = run_one(code, dict(state, f=state["f"] ^ flip), memory)
            kept = ~ins.flags_written & 0xFF
            assert one["f"] & kept == state["f"] & kept, (ins.mn, "changed a flag it says it keeps")
            assert one["f"] ^ two["f"] == flip & kept, (ins.mn, "a flag it does not read mattered")
            assert one["q"] ^ two["q"] == (flip & kept if ins.flags_computed else 0), ins.mn
            assert {k: v for k, v in one.items() if k not in ("f", "q")} == \
                {k: v for k, v in two.items() if k not in ("f", "q")}, (ins.mn, "a flag not read")


@pytest.mark.parametrize("prefix", PREFIXES, ids=prefix_id)
def test_registers_an_instruction_does_not_read_make_no_difference(prefix):
    rnd = random.Random(sum(prefix) + 2)
    memory = bytes(rnd.randrange(256) for _ in range(65536))
    for code in encodings(prefix):
        mem = bytearray(memory)
        mem[ORG:ORG + len(code)] = bytes(code)
        ins = Decoder(mem).decode(ORG)
        state = random_state(rnd)
        one = run_one(code, state, memory)
        for reg in REGS:
            if reg in ins.reads or reg == "f":
                continue
            other = dict(state)
            other[reg] ^= 0x5A if reg not in ("sp",) else 0x0100
            two = run_one(code, other, memory)
            passes = reg not in ins.writes          # unread and unwritten: its new value just stays
            want = dict(one, **{reg: other[reg]}) if passes else one
            assert two == want, (ins.mn, reg)


@pytest.mark.parametrize("prefix", PREFIXES, ids=prefix_id)
def test_an_instruction_s_memory_writes_are_its_write_cycles(prefix):
    for code in encodings(prefix):
        mem = bytearray(65536)
        mem[ORG:ORG + len(code)] = bytes(code)
        ins = Decoder(mem).decode(ORG)
        writes = [c for c in ins.cycles + ins.taken_cycles if c.kind == "W"]
        assert [s.name for s in ins.stores] == ["wa", "wb"][:len(writes)], ins.mn
        static = [c.addr for c in writes if isinstance(c.addr, int)]
        assert static == [s.addr for s in ins.stores if isinstance(s.addr, int)], ins.mn


def test_a_displacement_read_at_run_time_shows_as_d_and_cannot_be_compared():
    """The interpreter's template for DD 34 d (INC (IX+d)) reads d when it runs: its record says
    (IX+d), not a sign it cannot know, and asking an operand expression whether it is >= 0 is an
    error, not a silent yes."""
    ins = Decoder(Template({0: 0xDD, 1: 0x34})).decode(Expr("pc", 0))
    assert ins.mn == "INC (IX+d)" and ins.tstates == 23
    assert Decoder(Template({0: 0xFD, 1: 0xCB, 3: 0x46})).decode(Expr("pc", 0)).mn == "BIT 0,(IY+d)"
    d = s8(Expr("o2"))
    with pytest.raises(TypeError):
        d >= 0      # noqa: B015 -- the comparison itself must raise
