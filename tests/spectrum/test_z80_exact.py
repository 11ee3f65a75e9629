"""Z80 behaviour measured on Zilog silicon after the FUSE vectors were made: the Q latch of SCF/CCF,
the flags and MEMPTR of a block instruction while it repeats, an interrupt right after LD A,I / LD
A,R or a prefix. Each runs on both tiers: the interpreter (one op function per opcode) and a
compiled block."""
import pytest

from spectrum.z80 import Z80, BlockExit
from spectrum.z80_bus import Contention

TIERS = {"interpreted": 10**9, "compiled": 1}


def cpu_with(code, tier, org=0x8000, **options):
    mem = bytearray(65536)
    mem[org:org + len(code)] = bytes(code)
    cpu = Z80(mem, compile_after=TIERS[tier], **options)
    cpu.pc, cpu.sp = org, 0xFF00
    return cpu, mem


@pytest.mark.parametrize("tier", TIERS)
def test_scf_right_after_a_flag_instruction_takes_bits_5_3_from_a_only(tier):
    cpu, _ = cpu_with([0xAF, 0xFE, 0x28, 0x37, 0x76], tier)  # XOR A; CP 28h (F5,F3 set); SCF; HALT
    cpu.run(100)
    assert cpu.f & 0x29 == 0x01


@pytest.mark.parametrize("tier", TIERS)
def test_scf_after_an_instruction_that_leaves_flags_takes_bits_5_3_from_a_or_f(tier):
    cpu, _ = cpu_with([0xAF, 0xFE, 0x28, 0x00, 0x37, 0x76], tier)   # ... CP 28h; NOP; SCF; HALT
    cpu.run(100)
    assert cpu.f & 0x29 == 0x29


@pytest.mark.parametrize("tier", TIERS)
def test_ccf_q_latch_also_crosses_a_jump_and_a_block_boundary(tier):
    # CP 28h; JP next; next: CCF -- the JP in between leaves the flags alone (Q = 0): A|F gives 5,3
    cpu, _ = cpu_with([0xAF, 0xFE, 0x28, 0xC3, 0x00, 0x90], tier)
    cpu.memory[0x9000:0x9002] = bytes([0x3F, 0x76])
    cpu.run(100)
    assert cpu.f & 0x28 == 0x28


@pytest.mark.parametrize("org, bits",
                         [(0x8000, 0x00), (0xA800, 0x28), (0x2000, 0x20), (0x0800, 0x08)])
@pytest.mark.parametrize("tier", TIERS)
def test_ldir_while_repeating_copies_bits_13_and_11_of_pc_to_f5_f3(tier, org, bits):
    cpu, _ = cpu_with([0xED, 0xB0], tier, org)
    cpu.hl, cpu.de, cpu.bc, cpu.a = 0xC000, 0xD000, 3, 0
    cpu.memory[0xC000] = 0x0A                # would give F5,F3 = 1,1 the LDI way (A + byte = 0Ah)
    cpu.run(21)
    assert cpu.pc == org and cpu.bc == 2
    assert cpu.f & 0x28 == bits and cpu.memptr == org + 1


@pytest.mark.parametrize("tier", TIERS)
def test_inir_while_repeating_sets_memptr_pc_plus_1_and_pv_h_from_b(tier):
    # INIR at 8000 reading 0FFh with C = 1: n = 0FFh + 2 > 255, so C (and H the INI way) set; N =
    # bit 7 of the byte. B 6 -> 5. The INI way P/V = even parity of (n & 7) ^ B = 1 ^ 5 = 4: 0.
    # Repeating, with C and N set, P/V is flipped when (B - 1) & 7 = 4 has odd parity (it has): 1; H
    # = (B & 15 == 0): 0.
    cpu, _ = cpu_with([0xED, 0xB2], tier)
    cpu.port_in = lambda port, tstates: 0xFF
    cpu.bc, cpu.hl = 0x0601, 0xC000
    cpu.run(21)
    assert cpu.pc == 0x8000 and cpu.b == 5 and cpu.memptr == 0x8001
    assert cpu.f & 0x17 == 0x07


@pytest.mark.parametrize("op", [0x57, 0x5F])
@pytest.mark.parametrize("tier", TIERS)
def test_interrupt_right_after_ld_a_i_or_ld_a_r_resets_pv(tier, op):
    cpu, _ = cpu_with([0xED, op, 0x00, 0x00], tier)
    cpu.iff1 = cpu.iff2 = 1
    cpu.im = 1
    cpu.run(9)
    assert cpu.pc == 0x8002 and cpu.f & 0x04
    assert cpu.interrupt()
    assert not cpu.f & 0x04


@pytest.mark.parametrize("tier", TIERS)
def test_interrupt_one_instruction_after_ld_a_i_keeps_pv(tier):
    cpu, _ = cpu_with([0xED, 0x57, 0x00, 0x00], tier)
    cpu.iff1 = cpu.iff2 = 1
    cpu.im = 1
    cpu.run(13)
    assert cpu.pc == 0x8003 and cpu.interrupt() and cpu.f & 0x04


@pytest.mark.parametrize("tier", TIERS)
def test_no_interrupt_between_a_prefix_and_its_opcode(tier):
    cpu, _ = cpu_with([0xDD, 0x00, 0x00], tier)     # DD then NOP: the prefix alone is 4 T
    cpu.iff1 = cpu.iff2 = 1
    cpu.im = 1
    cpu.run(4)
    assert cpu.pc == 0x8001 and not cpu.interrupt()
    cpu.run(8)
    assert cpu.interrupt()


@pytest.mark.parametrize("tier", TIERS)
def test_a_trap_that_raises_stops_run_with_pc_on_the_trapped_instruction(tier):
    cpu, _ = cpu_with([0x3C, 0x3C, 0x3C, 0x76], tier)   # INC A x3; HALT; trap on the second INC
    def boom(c):
        raise RuntimeError("trap failed")
    cpu.traps[0x8001] = boom
    with pytest.raises(RuntimeError, match="trap failed"):
        cpu.run(1000)
    assert cpu.pc == 0x8001 and cpu.a == 1 and cpu.tstates == 4
    del cpu.traps[0x8001]
    cpu.run(1000)                                               # carries on where it stopped
    assert cpu.a == 3 and cpu.halted


ALL_CONTENDED = Contention(bytes((t * 5 + 1) % 7 for t in range(4096)), 0, 0x10000)
# T-states a run gets: room for the block at the code to run compiled (a block too near its limit
# leaves its code to the interpreter), with a wait at every cycle when contended.
RUN_LIMIT = {False: 300, True: 2000}


def run_first_block_compiled(cpu, org, limit):
    """cpu.run(limit) with the block at org compiled first; asserts that it ran compiled (did not
    leave its code to the interpreter for being too near the limit)."""
    block = cpu.blocks.compile(org, cpu.traps)
    exits = []

    def first(limit):
        exits.append(block(limit))
        return exits[-1]
    cpu.blocks.by_addr[org] = first
    cpu.run(limit)
    assert exits and (exits[0] >= 0 or exits[0] == BlockExit.HALT), exits[:1]


@pytest.mark.parametrize("contended", [False, True], ids=["uncontended", "all-contended"])
@pytest.mark.parametrize("prefix", [(), (0xCB,), (0xED,), (0xDD,), (0xFD,), (0xDD, 0xCB, 0x05),
                                    (0xFD, 0xCB, 0xFB)])
def test_every_encoding_runs_the_same_compiled_as_interpreted(prefix, contended):
    """Each of the 256 opcodes after each prefix, with operands 34 12 (then two NOPs and a HALT):
    one compiled run (its block checked to have run compiled) and one interpreted run from the same
    state end in the same registers, memory and T-states (none raises); also with every address
    contended and waits at every T-state."""
    limit = RUN_LIMIT[contended]
    for op in range(256):
        code = list(prefix) + [op, 0x34, 0x12, 0x00, 0x00, 0x76]
        ends = []
        for tier in TIERS:
            cpu, mem = cpu_with(code, tier, contended=ALL_CONTENDED if contended else False)
            cpu.hl, cpu.ix, cpu.iy, cpu.bc = 0x9000, 0x9100, 0x9200, 0x00FE
            if tier == "compiled":
                run_first_block_compiled(cpu, 0x8000, limit)
            else:
                cpu.run(limit)
            ends.append((cpu.pc, cpu.af, cpu.bc, cpu.de, cpu.hl, cpu.ix, cpu.iy, cpu.sp, cpu.memptr,
                         cpu.r,
                         cpu.q, cpu.tstates, cpu.halted, cpu.iff1, cpu.im, bytes(mem)))
        assert ends[0] == ends[1], (prefix, hex(op))


@pytest.mark.parametrize("tier", TIERS)
def test_a_taken_call_cc_logs_its_pushes_at_the_t_states_a_call_does(tier):
    """CALL NZ taken has CALL nn's bus cycles, so with SP in the attributes during the screen's
    contended fetches, its two pushes are logged at the same T-states (after their own waits)."""
    logs = []
    for op in (0xC4, 0xCD):                                     # CALL NZ,9000h / CALL 9000h
        cpu, mem = cpu_with([op, 0x00, 0x90], tier, contended=True)
        mem[0x9000] = 0x76                                      # HALT there
        start = 14_335 + 224 * 10 - 8                           # line 10 of the screen
        cpu.sp, cpu.f, cpu.tstates = 0x5A02, 0x00, start        # Z clear: CALL NZ is taken
        cpu.run(start + 300)
        assert cpu.halted and cpu.pc == 0x9000
        logs.append([(t - start, addr) for t, addr, _ in cpu.screen_writes])
    assert logs[0] == logs[1] and [addr for _, addr in logs[0]] == [0x5A01, 0x5A00]
