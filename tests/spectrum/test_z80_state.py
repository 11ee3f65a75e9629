"""The Z80's state apart from its runner (spectrum/z80_state.py): a snapshot holds every slot, puts
the CPU back bit for bit (hidden latches too), and round-trips; and a compiled block says how it
left by a named BlockExit."""
import dataclasses
import random

import pytest

from spectrum.z80 import Z80
from spectrum.z80_state import STATE_SLOTS, BlockExit, Z80Snapshot, Z80State


def _random_cpu(seed, **options):
    rnd = random.Random(seed)
    mem = bytearray(rnd.randbytes(65536))
    cpu = Z80(mem, rom_top=0x4000, **options)
    for n in ("af", "bc", "de", "hl", "af_", "bc_", "de_", "hl_", "ix", "iy", "sp", "pc"):
        setattr(cpu, n, rnd.randrange(65536))
    cpu.im, cpu.iff1, cpu.iff2 = 1, 1, 1
    return cpu, mem


def _run_frames(cpu, frames, limit=3000):
    """A few short 'frames': run to limit, offer an interrupt, start the count again."""
    for _ in range(frames):
        cpu.run(limit)
        cpu.tstates -= limit
        cpu.interrupt()


@pytest.mark.parametrize("contended", [False, True], ids=["plain", "contended"])
def test_restoring_a_snapshot_and_running_again_gives_the_same_bits(contended):
    """Run from a snapshot (compiling blocks on the way), put the snapshot and the memory back,
    run again (now through the blocks compiled the first time): the same registers, latches,
    T-states and memory."""
    for seed in range(12):
        cpu, mem = _random_cpu(seed, compile_after=1 + seed % 3, contended=contended)
        start, start_mem = cpu.snapshot(), bytes(mem)
        _run_frames(cpu, 4)
        first, first_mem = cpu.snapshot(), bytes(mem)
        cpu.restore(start)
        mem[:] = start_mem
        assert cpu.snapshot() == start
        _run_frames(cpu, 4)
        assert (cpu.snapshot(), bytes(mem)) == (first, first_mem), seed


def test_a_snapshot_round_trips_through_a_dict_and_into_a_fresh_cpu():
    cpu, mem = _random_cpu(5)
    _run_frames(cpu, 2)
    snap = cpu.snapshot()
    assert Z80Snapshot(**snap.as_dict()) == snap
    other = Z80(bytearray(mem), rom_top=0x4000)
    other.restore(Z80Snapshot(**snap.as_dict()))
    assert other.snapshot() == snap
    assert [f.name for f in dataclasses.fields(Z80Snapshot)] == [s.lstrip("_") for s in STATE_SLOTS]


def test_a_snapshot_taken_just_after_ei_keeps_the_interrupt_refused_after_restore():
    """The EI latch is state: restored into a fresh CPU, the interrupt after EI is still refused
    for one instruction, then taken."""
    mem = bytearray(65536)
    mem[0x8000:0x8002] = bytes([0xFB, 0x00])        # EI; NOP
    cpu = Z80(mem)
    cpu.pc, cpu.sp, cpu.im = 0x8000, 0xFF00, 1
    cpu.step()
    other = Z80(bytearray(mem))
    other.restore(cpu.snapshot())
    assert not other.interrupt()
    other.step()
    assert other.interrupt() and other.pc == 0x38


def test_restoring_i_into_contended_memory_drops_the_compiled_blocks():
    """Blocks take I's contention as known: a restore that moves I into 40h-7Fh drops them."""
    mem = bytearray(65536)
    mem[0x8000:0x8003] = bytes([0x00, 0x18, 0xFD])  # NOP; JR -3
    cpu = Z80(mem, contended=True, compile_after=1)
    cpu.pc = 0x8000
    cpu.run(2000)
    assert cpu.blocks.by_addr
    snap = dataclasses.replace(cpu.snapshot(), i=0x40)
    cpu.restore(snap)
    assert cpu.i == 0x40 and not cpu.blocks.by_addr


def test_the_state_has_no_slot_of_the_runner():
    """The registers live in Z80State; the runner adds only its wiring and its block cache."""
    assert set(Z80State.__slots__) == set(STATE_SLOTS)
    assert not set(Z80.__slots__) & set(STATE_SLOTS)
    assert "blocks" in Z80.__slots__ and len(STATE_SLOTS) == 32


def test_a_compiled_block_leaves_by_a_named_exit():
    """LIMIT when it cannot finish before the limit, CHANGED when its bytes were rewritten, HALT
    when it runs into a HALT; none of them runs an instruction but the HALT one."""
    mem = bytearray(65536)
    mem[0x8000:0x8003] = bytes([0x3C, 0x3C, 0x76])  # INC A; INC A; HALT
    cpu = Z80(mem)
    cpu.pc = 0x8000
    block = cpu.blocks.compile(0x8000, cpu.traps)
    assert block(5) == BlockExit.LIMIT and cpu.a == 0 and cpu.pc == 0x8000
    assert block(1000) == BlockExit.HALT and cpu.a == 2 and cpu.pc == 0x8002
    mem[0x8001] = 0x3D                              # DEC A
    assert block(1000) == BlockExit.CHANGED and cpu.a == 2
    assert [int(e) for e in BlockExit] == [-1, -2, -3]
