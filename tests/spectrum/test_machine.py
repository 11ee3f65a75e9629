"""Spectrum48: shared memory and ROM protection, the ROM-image errors, frames with their
32-T interrupt, call()/usr() into routines, HALT fast-forward, and the tape hook.
On the real core, spectrum.z80."""

import numpy as np
import pytest

from pasmo_rom import assemble
from spectrum import hw
from spectrum.machine import CallTimeout, RomImageError, Spectrum48
from spectrum.z80 import Z80

# A ROM whose IM 1 handler counts frames at 0x8000 and whose main loop halts.
COUNTING_ROM = """
        di
        im 1
        ld sp, 0
        ei
idle:   halt
        jr idle
        ds 0x38 - $
        ld hl, 0x8000
        inc (hl)
        ei
        ret
"""


def machine_with(source: str) -> Spectrum48:
    return Spectrum48(assemble(source))


def test_memory_is_one_buffer_shared_by_cpu_numpy_and_cffi():
    m = machine_with(COUNTING_ROM)
    m.poke(0x8000, 0x5A)
    assert m.mem[0x8000] == 0x5A
    m.mem[0x8001] = 0x77
    assert m.peek(0x8001) == 0x77
    import cffi  # a dependency of ours: never skipped
    ffi = cffi.FFI()
    view = ffi.from_buffer("unsigned char[]", m.memory)
    view[0x8002] = 0x33
    assert m.peek(0x8002) == 0x33


def test_writes_below_0x4000_are_ignored():
    rom = assemble(COUNTING_ROM)
    m = Spectrum48(rom)
    m.poke(0x0000, 0x12)
    m.poke(0x3FFF, 0x34)
    m.load(0x3FFE, b"\x01\x02\x03\x04")
    assert m.peek(0) == rom[0] and m.peek(0x3FFF) == rom[0x3FFF] == 0
    assert m.peek(0x3FFE) == rom[0x3FFE] and m.peek(0x4000) == 3 and m.peek(0x4001) == 4


def test_cpu_writes_to_rom_are_ignored():
    m = machine_with("""
        ld a, 0x99
        ld (0x0100), a
        ld (0x4000), a
        halt
""")
    m.run_frame()
    assert m.peek(0x0100) == 0 and m.peek(0x4000) == 0x99


def test_missing_rom_file_is_named(tmp_path):
    path = tmp_path / "nothere.bin"
    with pytest.raises(RomImageError, match="nothere.bin.*not found"):
        Spectrum48(path)


@pytest.mark.parametrize("size", [0, 16383, 16385, 49152])
def test_rom_of_wrong_size_is_named(tmp_path, size):
    path = tmp_path / "short.bin"
    path.write_bytes(bytes(size))
    with pytest.raises(RomImageError, match=r"short\.bin.*exactly 16384"):
        Spectrum48(path)


def test_rom_bytes_of_wrong_size_are_refused():
    with pytest.raises(RomImageError, match="exactly 16384"):
        Spectrum48(bytes(100))


def test_rom_loads_from_a_path(tmp_path):
    path = tmp_path / "rom.bin"
    path.write_bytes(assemble(COUNTING_ROM))
    m = Spectrum48(str(path))
    assert m.peek(0) == 0xF3


def test_one_interrupt_per_frame_and_the_frame_is_69888_tstates():
    m = machine_with(COUNTING_ROM)
    for _ in range(10):
        m.run_frame()
    assert m.frame_count == 10
    # EI comes at T=22, inside the first frame's 32-T window, so all 10 are taken
    assert m.peek(0x8000) == 10
    assert 0 <= m.cpu.tstates < 32


def test_halted_cpu_is_fast_forwarded_to_the_frame_end(monkeypatch):
    steps = []

    step = Z80.step

    def counting_step(cpu):
        steps.append(cpu.pc)
        return step(cpu)
    monkeypatch.setattr(Z80, "step", counting_step)   # the test listens; the machine knows nothing
    m = Spectrum48(assemble(COUNTING_ROM))
    m.run_frame()
    steps.clear()
    m.run_frame()
    assert m.peek(0x8000) == 2
    assert m.cpu.halted and len(steps) < 50       # not 69,888 / 4 HALT cycles one by one


def _shadow_machine(nops_before_ei: int) -> Spectrum48:
    """RAM code at 0x8000: NOP x n, EI, NOP, then HALT forever; IM 1 counts at 0x9000."""
    m = machine_with("""
        ds 0x38
        ld hl, 0x9000
        inc (hl)
        ret
""")
    m.load(0x8000, bytes(nops_before_ei) + b"\xfb\x00\x76")
    m.cpu.pc, m.cpu.sp, m.cpu.im, m.cpu.iff1, m.cpu.iff2 = 0x8000, 0xF000, 1, 0, 0
    return m


def test_interrupt_is_taken_when_ei_comes_within_its_32_tstates():
    m = _shadow_machine(4)          # EI at T=16, shadow NOP to T=24: still held
    m.run_frame()
    assert m.peek(0x9000) == 1


def test_interrupt_is_lost_when_ei_comes_after_its_32_tstates():
    m = _shadow_machine(8)          # EI at T=32: /INT already released
    m.run_frame()
    assert m.peek(0x9000) == 0


def test_interrupt_waits_out_the_instruction_after_ei():
    """EI at T=24 ends at 28; the next NOP (the EI shadow) ends at 32: too late."""
    m = _shadow_machine(6)
    m.run_frame()
    assert m.peek(0x9000) == 0
    m = _shadow_machine(5)          # EI at 20..24, NOP 24..28: accepted at 28
    m.run_frame()
    assert m.peek(0x9000) == 1


ROUTINES = COUNTING_ROM + """
        ds 0x100 - $
store:  ld a, 0x42          ; 0x100: stores 0x42 at 0x8100, returns BC = 1234
        ld (0x8100), a
        ld bc, 1234
        ret
        ds 0x120 - $
wait3:  ld a, (0x8000)      ; 0x120: waits until the interrupt has counted 3 more frames
        ld b, 3
again:  halt
        djnz again
        ld a, 0x77
        ld (0x8101), a
        ret
        ds 0x140 - $
justret: ret                ; 0x140
        ds 0x150 - $
forever: jr forever          ; 0x150
"""


def test_call_runs_a_routine_until_it_returns_and_restores_the_context():
    m = machine_with(ROUTINES)
    m.run_frame()
    m.run_frame()
    before = {name: getattr(m.cpu, name) for name in ("pc", "sp", "halted", "iff1", "hl")}
    regs = m.call(0x100)
    assert m.peek(0x8100) == 0x42
    assert regs["bc"] == 1234 and regs["a"] == 0x42
    assert {name: getattr(m.cpu, name) for name in before} == before
    m.run_frame()                    # and the machine carries on
    assert m.peek(0x8000) == 2


def test_call_lets_interrupts_happen_so_routines_can_wait_for_frames():
    m = machine_with(ROUTINES)
    m.run_frame()
    frames = m.frame_count
    m.call(0x120)
    assert m.peek(0x8101) == 0x77
    assert m.frame_count - frames in (2, 3)
    assert m.peek(0x8000) >= 3


def test_call_sets_registers_given_as_keywords():
    m = machine_with(ROUTINES)
    regs = m.call(0x140, de=0xBEEF)
    assert regs["de"] == 0xBEEF


def test_call_that_never_returns_times_out():
    m = machine_with(ROUTINES)
    with pytest.raises(CallTimeout, match="0x0150"):
        m.call(0x150, max_frames=2)


def test_usr_returns_bc_like_basic():
    m = machine_with(ROUTINES)
    m.run_frame()
    assert m.usr(0x100) == 1234
    assert m.usr(0x140) == 0x140          # BC holds the address on entry


class RecordingTape:
    def __init__(self, level_at):
        self.level_at, self.calls, self.frames = level_at, [], 0

    def ear_at(self, tstates):
        self.calls.append(tstates)
        return self.level_at(tstates)

    def end_frame(self, frame_tstates):
        self.frames += 1
        assert frame_tstates == hw.TSTATES_PER_FRAME


def test_tape_feeds_ear_bit_6_and_hears_each_frame_end():
    m = machine_with("""
        ld a, 0x7f
        in a, (0xfe)
        ld (0x8000), a
        ld a, 0x7f
        in a, (0xfe)
        ld (0x8001), a
        halt
""")
    tape = RecordingTape(lambda t: 1 if t < 30 else 0)
    m.tape = tape
    m.run_frame()
    m.run_frame()
    assert m.peek(0x8000) & 0x40 and not m.peek(0x8001) & 0x40
    assert tape.calls == sorted(tape.calls) and len(tape.calls) == 2
    assert tape.frames == 2


def test_beeper_and_border_logs_come_from_the_frame_just_run():
    m = machine_with("""
        ld a, 0x12
        out (0xfe), a
        ld a, 0x05
        out (0xfe), a
        halt
""")
    m.run_frame()
    start, changes = m.ula.frame_border
    assert start == 0 and [c for _t, c in changes] == [2, 5]
    assert m.ula.frame_ear == (0, [(changes[0][0], 1), (changes[1][0], 0)])
    m.run_frame()
    assert m.ula.frame_border == (5, []) and m.ula.frame_ear == (0, [])


def test_reset_puts_pc_at_zero_and_clears_ram():
    m = machine_with(COUNTING_ROM)
    for _ in range(3):
        m.run_frame()
    m.reset()
    assert m.cpu.pc == 0 and not m.cpu.iff1 and m.frame_count == 0 and m.peek(0x8000) == 0
    assert not np.any(m.mem[0x4000:])


def test_frames_passing_inside_a_call_keep_their_beeper_logs():
    m = machine_with(ROUTINES)
    m.run_frame()
    m.ear_frames.clear()
    frames = m.frame_count
    m.call(0x120)
    assert len(m.ear_frames) == m.frame_count - frames >= 2


def test_project_rom_boots_counts_frames_and_scans_a_held_key():
    """Integration with roms/rom.bin (committed): FRAMES (23672) counts one per
    frame and the IM 1 keyboard scan puts a held 'a' in LAST-K (23560), FLAGS bit 5 set."""
    import roms
    m = Spectrum48(roms.ROM_PATH)
    for _ in range(50):
        m.run_frame()
    frames_before = m.peek_word(23672)
    m.keyboard.press("A")
    for _ in range(5):
        m.run_frame()
    assert m.peek_word(23672) - frames_before == 5
    assert m.peek(23560) == ord("a") and m.peek(23611) & 0x20


def test_a_loading_tape_is_heard_through_the_speaker():
    """The ROM polls EAR; the level changes it sees reach the frame's speaker log."""
    m = machine_with("""
        ld b, 200
poll:   ld a, 0x7f
        in a, (0xfe)
        djnz poll
        halt
""")
    m.tape = RecordingTape(lambda t: (t // 500) & 1)
    m.run_frame()
    _start, changes = m.ear_frames[-1]
    assert len(changes) >= 10
    from spectrum.audio import TAPE_WEIGHT
    assert {level for _t, level in changes} == {0.0, TAPE_WEIGHT}     # beeper silent, tape heard
    assert m.ula.frame_tape[1][0][1] == 1
