"""The 48K's contention on a bare contended Z80 (no ULA): known waits at known T-states (the
6,5,4,3,2,1,0,0 pattern from T-state 14,335, 128 T of each 224-T line, 192 lines), the I/O port
rule, and the screen-write log's T-states. Programs are assembled here from bytes; both tiers
are run."""
import pytest

from spectrum import hw
from spectrum.z80 import Z80
from spectrum.z80_bus import CONTENTION_48K, delays_48k

CODE = 0x8000                       # uncontended


def run_one(code, at=CODE, tstates=0, tier="interpreted", **regs):
    """Run the instruction(s) in code placed at `at`, starting at frame T-state `tstates`, until
    the CPU reaches the byte after them; returns (T-states taken, cpu)."""
    mem = bytearray(65536)
    mem[at:at + len(code)] = code
    cpu = Z80(mem, rom_top=hw.ROM_BYTES, contended=True,
              **({"compile_after": 1} if tier == "compiled" else {}))
    for k, v in regs.items():
        setattr(cpu, k, v)
    cpu.pc, cpu.tstates = at, tstates
    end = at + len(code)
    while cpu.pc != end:
        if tier == "compiled":
            cpu.run(cpu.tstates + 1)
        else:
            cpu.step()
    return cpu.tstates - tstates, cpu


TIERS = ["interpreted", "compiled"]
LD_A_HL, NOP, OUT_N_A = b"\x7e", b"\x00", b"\xd3"
OUT_C_A, PUSH_HL, LD_HL_A = b"\xed\x79", b"\xe5", b"\x77"


def test_the_delay_table_is_the_48k_pattern():
    d = delays_48k()
    first = hw.CONTENTION_FIRST_TSTATES
    assert d[first:first + 16] == bytes([6, 5, 4, 3, 2, 1, 0, 0] * 2)
    assert d[first - 1] == 0 and d[first + 128] == 0 and d[first + 224] == 6
    assert d[first + 191 * 224 + 127] == 0 and d[first + 191 * 224 + 120] == 6
    assert not any(d[first + 192 * 224:])
    assert sum(d) == 192 * 16 * 21


@pytest.mark.parametrize("tier", TIERS)
def test_read_of_contended_memory_starting_at_14335_waits_6(tier):
    # LD A,(HL) from uncontended code: fetch 14,331-14,335, the read of 0x4000 starts at 14,335
    took, cpu = run_one(LD_A_HL, tstates=14_331, tier=tier, h=0x40, l=0x00)
    assert took == 7 + 6


@pytest.mark.parametrize("start, wait",
                         [(14_331 + k, [6, 5, 4, 3, 2, 1, 0, 0][k]) for k in range(8)])
def test_read_waits_by_the_pattern(start, wait):
    assert run_one(LD_A_HL, tstates=start, h=0x40)[0] == 7 + wait


@pytest.mark.parametrize("start", [14_331 - 1, 14_331 + 128, 14_331 + 192 * 224, 100])
def test_no_wait_outside_the_screen_fetch(start):
    assert run_one(LD_A_HL, tstates=start, h=0x40)[0] == 7


@pytest.mark.parametrize("tier", TIERS)
def test_uncontended_read_never_waits(tier):
    assert run_one(LD_A_HL, tstates=14_331, tier=tier, h=0x80)[0] == 7


@pytest.mark.parametrize("tier", TIERS)
def test_code_in_contended_memory_waits_for_its_fetch(tier):
    assert run_one(NOP, at=0x6000, tstates=14_335, tier=tier)[0] == 4 + 6


@pytest.mark.parametrize("tier", TIERS)
def test_out_to_the_ula_from_uncontended_code_waits_after_one_t_state(tier):
    # OUT (0xFE),A with A = 0: port 0x00FE (high byte uncontended, even): N:1 then C:3 at T 14,335
    took, _ = run_one(OUT_N_A + b"\xfe", tstates=14_335 - 8, tier=tier, a=0)
    assert took == 11 + 6


@pytest.mark.parametrize("tier", TIERS)
def test_odd_port_with_contended_high_byte_waits_four_times(tier):
    # OUT (C),A with BC = 0x40FF: C:1, C:1, C:1, C:1 from T 14,335 (the I/O cycle starts 8 T in)
    took, _ = run_one(OUT_C_A, tstates=14_335 - 8, tier=tier, b=0x40, c=0xFF)
    # waits at 14,335 (6), then 14,342 (0), 14,343 (6), 14,350 (0)
    assert took == 12 + 6 + 0 + 0 + 6


@pytest.mark.parametrize("tier", TIERS)
def test_even_port_with_contended_high_byte_waits_twice(tier):
    # OUT (C),A with BC = 0x40FE: C:1, C:3 -> waits at 14,335 (6) and 14,342 (0)
    assert run_one(OUT_C_A, tstates=14_335 - 8, tier=tier, b=0x40, c=0xFE)[0] == 12 + 6


@pytest.mark.parametrize("tier", TIERS)
def test_port_gets_the_tstate_of_its_access(tier):
    seen = []
    mem = bytearray(65536)
    mem[CODE:CODE + 2] = OUT_N_A + b"\xfe"
    cpu = Z80(mem, rom_top=hw.ROM_BYTES, contended=True, port_out=lambda p, v, t: seen.append(t),
              **({"compile_after": 1} if tier == "compiled" else {}))
    cpu.pc, cpu.tstates = CODE, 14_335 - 8
    cpu.step() if tier == "interpreted" else cpu.run(cpu.tstates + 1)
    # fetch 4 + operand 3 + the first (uncontended) T of the I/O cycle
    assert seen == [14_335]


@pytest.mark.parametrize("tier", TIERS)
def test_screen_write_is_logged_with_its_tstate_and_old_byte(tier):
    took, cpu = run_one(LD_HL_A, tstates=1000, tier=tier, h=0x58, l=0x00, a=0x47)
    assert cpu.memory[0x5800] == 0x47
    assert cpu.screen_writes == [(1000 + 4 + 3, 0x5800, 0)]


@pytest.mark.parametrize("tier", TIERS)
def test_push_into_the_attributes_logs_each_byte_at_its_own_tstate(tier):
    took, cpu = run_one(PUSH_HL, tstates=2000, tier=tier, sp=0x5A02, h=0x12, l=0x34)
    assert cpu.screen_writes == [(2000 + 5 + 3, 0x5A01, 0), (2000 + 5 + 6, 0x5A00, 0)]
    assert cpu.memory[0x5A00:0x5A02] == b"\x34\x12"


@pytest.mark.parametrize("tier", TIERS)
def test_writes_above_the_screen_are_not_logged_and_rom_stays(tier):
    took, cpu = run_one(LD_HL_A + b"\x12", tstates=0, tier=tier, h=0x5B, l=0x00, d=0x10, e=0, a=9)
    assert cpu.memory[0x5B00] == 9 and cpu.memory[0x1000] == 0 and cpu.screen_writes == []


def test_a_contended_cpu_runs_a_frame_at_a_time():
    cpu = Z80(bytearray(65536), contended=True)
    with pytest.raises(ValueError, match="a frame at a time"):
        cpu.run(10 * hw.TSTATES_PER_FRAME)


def test_contention_is_off_unless_asked():
    assert not Z80(bytearray(65536)).contended and Z80(bytearray(65536), contended=True).contended
    assert CONTENTION_48K.lo == hw.CONTENDED_LO and CONTENTION_48K.hi == hw.CONTENDED_HI


@pytest.mark.parametrize("compile_after", [10**9, 1], ids=["interpreted", "compiled"])
def test_code_running_on_into_contended_memory_waits_from_its_first_fetch_there(compile_after):
    """Sixteen NOPs at 3FF0h run on into 4000h: the interpreter's tables for code outside
    contended memory must give way there (and blocks must see it), so the NOP at 4000h, fetched at
    14,335, waits 6."""
    mem = bytearray(65536)                      # all NOPs
    cpu = Z80(mem, contended=True, compile_after=compile_after)
    start = 14_335 - 16 * 4
    cpu.pc, cpu.tstates = 0x3FF0, start
    cpu.run(14_335 + 1)
    assert cpu.pc == 0x4001 and cpu.tstates == 14_335 + 6 + 4


def test_a_halt_in_contended_memory_waits_at_each_of_its_fetches():
    mem = bytearray(65536)
    mem[0x6000] = 0x76                          # HALT
    cpu = Z80(mem, contended=True)
    cpu.pc, cpu.tstates = 0x6000, 14_335 - 4    # the HALT's own fetch ends at 14,335
    cpu.run(14_335 + 1)                         # then one idle fetch, at 14,335: waits 6
    assert cpu.halted and cpu.pc == 0x6000 and cpu.tstates == 14_335 + 6 + 4
    assert cpu.step() == 4 + 4                  # the next at 14,345 (pattern index 2: waits 4)


def test_a_contention_that_is_not_one_is_refused_clearly():
    with pytest.raises(TypeError, match="contended must be True, False or a z80_bus.Contention"):
        Z80(bytearray(65536), contended="yes")
