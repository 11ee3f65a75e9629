"""spectrum.z80 behaviour the FUSE suite does not reach: interrupts in IM 0/1/2, HALT then /INT, the
EI delay, NMI, R wrap, traps, ROM write protection, run() idling through HALT, self-modifying code,
and the block compiler against single steps."""
from spectrum.z80 import Z80


def cpu_with(code, org=0x8000, rom_top=0, **kw):
    mem = bytearray(65536)
    mem[org:org + len(code)] = bytes(code)
    cpu = Z80(mem, rom_top=rom_top, **kw)
    cpu.pc = org
    cpu.sp = 0xFF00
    return cpu, mem


def test_im1_interrupt_pushes_pc_and_jumps_to_38():
    cpu, mem = cpu_with([0x00])
    cpu.iff1 = cpu.iff2 = 1
    cpu.im = 1
    assert cpu.interrupt()
    assert cpu.pc == 0x0038 and cpu.tstates == 13
    assert cpu.sp == 0xFEFE and mem[0xFEFE] == 0x00 and mem[0xFEFF] == 0x80
    assert cpu.iff1 == 0 and cpu.iff2 == 0 and cpu.memptr == 0x38


def test_interrupt_refused_when_iff1_clear():
    cpu, _ = cpu_with([0x00])
    cpu.im = 1
    assert not cpu.interrupt()
    assert cpu.pc == 0x8000 and cpu.tstates == 0 and cpu.sp == 0xFF00


def test_im0_with_ff_on_bus_is_rst38_and_im0_rst_data():
    cpu, _ = cpu_with([0x00])
    cpu.iff1 = 1
    cpu.im = 0
    assert cpu.interrupt(0xFF)
    assert cpu.pc == 0x38 and cpu.tstates == 13
    cpu2, _ = cpu_with([0x00])
    cpu2.iff1 = 1
    assert cpu2.interrupt(0xD7)          # RST 10h on the bus
    assert cpu2.pc == 0x10


def test_im2_vector_from_i_and_data():
    cpu, mem = cpu_with([0x00])
    cpu.iff1 = 1
    cpu.im = 2
    cpu.i = 0x90
    mem[0x90FE] = 0x34
    mem[0x90FF] = 0x12
    assert cpu.interrupt(0xFE)
    assert cpu.pc == 0x1234 and cpu.tstates == 19


def test_halt_then_interrupt_resumes_after_halt():
    cpu, mem = cpu_with([0xFB, 0x76, 0x00])       # EI; HALT; NOP
    cpu.im = 1
    cpu.run(100)
    assert cpu.halted and cpu.pc == 0x8001          # PC stays on the HALT (FUSE convention)
    assert cpu.tstates >= 100
    assert cpu.interrupt()
    assert not cpu.halted and cpu.pc == 0x38
    assert mem[cpu.sp] | mem[cpu.sp + 1] << 8 == 0x8002   # returns past the HALT


def test_halt_fast_forward_counts_r_and_4t_steps():
    cpu, _ = cpu_with([0x76])
    cpu.run(1)                                      # HALT runs once: 4 T, R+1
    assert cpu.halted and cpu.tstates == 4 and cpu.r == 1
    cpu.run(4 + 4 * 10 + 1)                         # 11 more NOP-like cycles reach >= limit
    assert cpu.tstates == 4 + 4 * 11 and cpu.r == 12


def test_ei_delays_acceptance_by_one_instruction():
    cpu, _ = cpu_with([0xFB, 0x00, 0x00])           # EI; NOP; NOP
    cpu.im = 1
    cpu.run(1)                                      # just the EI
    assert cpu.iff1 == 1 and cpu.pc == 0x8001
    assert not cpu.interrupt()                      # right after EI: refused
    cpu.run(cpu.tstates + 1)                        # the NOP
    assert cpu.interrupt()
    assert cpu.pc == 0x38


def test_ei_ei_still_delays():
    cpu, _ = cpu_with([0xFB, 0xFB, 0x00])
    cpu.im = 1
    cpu.run(5)                                      # EI; EI
    assert cpu.pc == 0x8002
    assert not cpu.interrupt()


def test_nmi_keeps_iff2_and_jumps_to_66():
    cpu, mem = cpu_with([0x00])
    cpu.iff1 = cpu.iff2 = 1
    cpu.nmi()
    assert cpu.pc == 0x66 and cpu.iff1 == 0 and cpu.iff2 == 1 and cpu.tstates == 11
    assert mem[0xFEFE] | mem[0xFEFF] << 8 == 0x8000


def test_nmi_leaves_halt():
    cpu, mem = cpu_with([0x76])
    cpu.run(1)
    cpu.nmi()
    assert not cpu.halted and mem[0xFEFE] | mem[0xFEFF] << 8 == 0x8001


def test_retn_restores_iff1_from_iff2():
    cpu, mem = cpu_with([0xED, 0x45])
    mem[0xFF00], mem[0xFF01] = 0x00, 0x90
    cpu.iff1, cpu.iff2 = 0, 1
    cpu.run(1)
    assert cpu.pc == 0x9000 and cpu.iff1 == 1


def test_r_counts_low_7_bits_and_keeps_bit_7():
    cpu, _ = cpu_with([0x00] * 300)
    cpu.r = 0xFE
    cpu.run(4 * 3)                                  # 3 NOPs
    assert cpu.r == 0x81                            # 0x7E+3 wraps in 7 bits, bit 7 kept
    cpu2, _ = cpu_with([0xED, 0x5F])                # LD A,R counts its own two M1 cycles
    cpu2.r = 0x7F
    cpu2.run(1)
    assert cpu2.a == 0x01 and cpu2.r == 0x01


def test_ld_r_a_inside_a_block():
    cpu, _ = cpu_with([0x3E, 0x85, 0xED, 0x4F, 0x00, 0x00, 0xED, 0x5F, 0x76])
    cpu.run(100)                                    # LD A,85h; LD R,A; NOP; NOP; LD A,R; HALT
    assert cpu.a == 0x89


def test_trap_runs_before_instruction_and_may_redirect():
    cpu, mem = cpu_with([0xCD, 0x00, 0x90, 0x76])   # CALL 9000h; HALT
    mem[0x9000] = 0x76                              # would halt there if not trapped
    seen = []

    def emulate_ret(c):
        seen.append(c.pc)
        c.a = 42
        sp = c.sp
        c.pc = mem[sp] | mem[sp + 1] << 8
        c.sp = sp + 2

    cpu.traps[0x9000] = emulate_ret
    cpu.run(1000)
    assert seen == [0x9000] and cpu.a == 42 and cpu.pc == 0x8003 and cpu.halted


def test_trap_leaving_pc_runs_the_instruction_once():
    cpu, _ = cpu_with([0x3C, 0x3C, 0x3C, 0x76])     # INC A x3; HALT
    calls = []
    cpu.traps[0x8001] = lambda c: calls.append(c.a)
    cpu.run(100)
    assert calls == [1] and cpu.a == 3


def test_trap_added_after_block_compiled_is_honoured():
    cpu, _ = cpu_with([0x3C, 0x3C, 0x3C, 0xC3, 0x00, 0x80])   # loop: INC A x3; JP 8000h
    cpu.run(100)                                    # the block is compiled and cached now
    calls = []
    cpu.traps[0x8002] = lambda c: calls.append(c.pc)
    cpu.run(200)
    assert calls and all(p == 0x8002 for p in calls)
    del cpu.traps[0x8002]
    n = len(calls)
    cpu.run(400)
    assert len(calls) == n


def test_rom_top_protects_rom():
    mem = bytearray(65536)
    mem[0x0000:0x0003] = bytes([0x32, 0x00, 0x10])  # LD (1000h),A
    mem[0x0003:0x0006] = bytes([0x32, 0x00, 0x50])  # LD (5000h),A
    mem[0x1000] = 0x11
    cpu = Z80(mem, rom_top=0x4000)
    cpu.a = 0x99
    cpu.run(26)
    assert mem[0x1000] == 0x11 and mem[0x5000] == 0x99


def test_ports_get_running_tstates():
    log = []
    cpu, _ = cpu_with([0x00, 0xD3, 0xFE, 0xDB, 0xFE],
                      port_out=lambda p, v, t: log.append(("out", p, v, t)),
                      port_in=lambda p, t: (log.append(("in", p, t)), 0x1F)[1])
    cpu.a = 0x07
    cpu.tstates = 1000
    cpu.run(1000 + 4 + 11 + 11)
    assert log == [("out", 0x07FE, 0x07, 1000 + 4 + 8), ("in", 0x07FE, 1000 + 15 + 8)]
    assert cpu.a == 0x1F


def test_run_stops_on_whole_instructions():
    cpu, _ = cpu_with([0x00, 0x01, 0x00, 0x00, 0x00])  # NOP; LD BC,0; NOP
    cpu.run(5)                                      # NOP ends at 4 < 5, LD BC runs to 14
    assert cpu.tstates == 14 and cpu.pc == 0x8004


def test_step_returns_tstates():
    cpu, _ = cpu_with([0x00, 0x01, 0x00, 0x00, 0x76])
    assert cpu.step() == 4
    assert cpu.step() == 10
    assert cpu.step() == 4 and cpu.halted
    assert cpu.step() == 4 and cpu.pc == 0x8004


def test_self_modifying_code_in_same_block():
    # LD A,3Ch; LD (8007h),A; NOP; (8007:) NOP -> becomes INC A; HALT
    cpu, _ = cpu_with([0x3E, 0x3C, 0x32, 0x07, 0x80, 0x00, 0x00, 0x00, 0x76])
    cpu.run(100)
    assert cpu.a == 0x3D


def test_code_rewritten_from_outside_is_seen():
    cpu, mem = cpu_with([0x3C, 0xC3, 0x00, 0x80])   # INC A; JP 8000h
    cpu.run(100)
    a = cpu.a
    mem[0x8000] = 0x3D                              # DEC A, poked by someone else
    cpu.run(200)
    assert cpu.a < a


def test_ldir_over_own_code_stops_copying_into_it():
    # LDIR's first copy overwrites its own ED byte: the CPU then runs NOP; OR B (the B0 left); HALT
    code = [0x21, 0x00, 0x90, 0x11, 0x09, 0x80, 0x01, 0x10, 0x00, 0xED, 0xB0, 0x76]
    cpu, mem = cpu_with(code)
    mem[0x9000:0x9010] = bytes(16)
    cpu.run(2000)
    assert mem[0x8009] == 0 and mem[0x800A] == 0xB0
    assert cpu.halted and cpu.bc == 0x000F and cpu.de == 0x800A and cpu.pc == 0x800B


def test_pairs_and_alternates_by_name():
    cpu, _ = cpu_with([0x00])
    cpu.hl = 0x1234
    cpu.af_ = 0xABCD
    assert (cpu.h, cpu.l) == (0x12, 0x34) and (cpu.a_, cpu.f_) == (0xAB, 0xCD)
    cpu.b, cpu.c = 1, 2
    assert cpu.bc == 0x0102


def test_call_cc_not_taken_then_code_and_predicted_return():
    # 8000: CALL NZ,9000h (Z set: not taken); INC A; CALL 9000h; INC A; HALT.  9000: INC B; RET
    cpu, mem = cpu_with([0xC4, 0x00, 0x90, 0x3C, 0xCD, 0x00, 0x90, 0x3C, 0x76])
    mem[0x9000:0x9002] = bytes([0x04, 0xC9])
    cpu.f = 0x40
    cpu.run(10_000)
    assert (cpu.a, cpu.b, cpu.pc, cpu.sp) == (2, 1, 0x8008, 0xFF00)
    assert cpu.tstates >= 10 + 4 + 17 + 4 + 10 + 4 + 4


def test_return_address_changed_by_callee_is_followed():
    # 9000: POP HL; LD HL,8100h; PUSH HL; RET   -> returns to 8100h, not after the CALL
    cpu, mem = cpu_with([0xCD, 0x00, 0x90, 0x76])
    mem[0x9000:0x9006] = bytes([0xE1, 0x21, 0x00, 0x81, 0xE5, 0xC9])
    mem[0x8100:0x8102] = bytes([0x3C, 0x76])
    cpu.run(1000)
    # 66 T to the HALT's end, then 4-T idle cycles
    assert cpu.a == 1 and cpu.pc == 0x8101 and cpu.tstates == 1002


def _state(cpu, mem):
    names = ("af", "bc", "de", "hl", "af_", "bc_", "de_", "hl_", "ix", "iy", "sp", "pc", "memptr",
             "i", "r",
             "iff1", "iff2", "im", "halted", "tstates", "q")
    return {n: getattr(cpu, n) for n in names}, bytes(mem)


def _random_machine(seed, rom_top, compile_after=None):
    import random
    rnd = random.Random(seed)
    mem = bytearray(rnd.randbytes(65536))
    cpu = Z80(mem, rom_top=rom_top) if compile_after is None else Z80(mem, rom_top=rom_top,
                                                                       compile_after=compile_after)
    for n in ("af", "bc", "de", "hl", "af_", "bc_", "de_", "hl_", "ix", "iy", "sp", "pc"):
        setattr(cpu, n, rnd.randrange(65536))
    return cpu, mem


def test_compiled_blocks_match_single_steps_on_random_code():
    """Differential check of the block translator (superblocks, side exits, loops, dead-flag
    removal, self-modifying code): random memory run by run() must end exactly as one step() at a
    time."""
    for seed in range(40):
        for rom_top in (0, 0x4000):
            a, ma = _random_machine(seed, rom_top, compile_after=1 + seed % 3)
            b, mb = _random_machine(seed, rom_top)
            limit = 3000
            a.run(limit)
            while b.tstates < limit:
                b.step()
            assert _state(a, ma) == _state(b, mb), (seed, rom_top)


def _ldir_case(hl, de, bc, limit, rom_top=0, seed=1):
    import random
    rnd = random.Random(seed)
    out = []
    for mode in ("run", "step"):
        mem = bytearray(rnd.randbytes(65536)) if not out else bytearray(out[0][2])
        mem[0x8000:0x8002] = b"\xed\xb0"
        cpu = Z80(mem, rom_top=rom_top, compile_after=1 if mode == "run" else 10**9)
        cpu.pc, cpu.hl, cpu.de, cpu.bc, cpu.a, cpu.f = 0x8000, hl, de, bc, 0x5A, 0xFF
        if mode == "run":
            init = bytes(mem)
            cpu.run(limit)
        else:
            while cpu.tstates < limit:
                cpu.step()
        out.append((_state(cpu, mem), mode, init))
    return out[0][0], out[1][0]


def test_ldir_bulk_copy_matches_byte_loop():
    cases = [(0x9000, 0xA000, 100, 10_000), (0x9000, 0xA000, 100, 1000),
             (0xA000, 0x9000, 300, 3000),
             (0x9000, 0x9001, 50, 5000), (0x9001, 0x9000, 50, 5000), (0x9000, 0x9000, 10, 500),
             (0xFFF0, 0x9000, 40, 2000), (0x9000, 0xFFF8, 40, 2000), (0x3FF0, 0x3FF8, 40, 2000),
             (0x9000, 0x7FF0, 40, 2000), (0x9000, 0xA000, 0, 3000), (0x9000, 0xA000, 1, 3000),
             (0x9000, 0xA000, 2, 3000), (0x9000, 0xA000, 100, 21 * 99 + 1)]
    for hl, de, bc, limit in cases:
        for rom_top in (0, 0x4000):
            a, b = _ldir_case(hl, de, bc, limit, rom_top)
            assert a == b, (hex(hl), hex(de), bc, limit, rom_top)


def test_loop_with_if_else_inside_matches_single_steps():
    """A DJNZ loop with an if/else in its body (compiled with both sides inline) against single
    steps, run in uneven slices so that the limit falls everywhere in the loop."""
    code = [0x06, 0x40, 0x21, 0x00, 0x90,       # LD B,40h; LD HL,9000h
            0x7E, 0xE6, 0x01, 0x28, 0x05,       # loop: LD A,(HL); AND 1; JR Z,else
            0x0C, 0xCB, 0xC6, 0x18, 0x03,       # INC C; SET 0,(HL); JR next
            0x0D, 0xCB, 0x86,                   # else: DEC C; RES 0,(HL)
            0x23, 0x10, 0xF0, 0x76]             # next: INC HL; DJNZ loop; HALT
    import random
    rnd = random.Random(7)
    data = bytes(rnd.randrange(256) for _ in range(64))
    results = []
    for mode in ("run", "step"):
        cpu, mem = cpu_with(code, compile_after=1)
        mem[0x9000:0x9040] = data
        if mode == "run":
            t = 0
            while t < 6000:
                t += rnd.randrange(1, 200)
                cpu.run(t)
        else:
            while cpu.tstates < 6000:
                cpu.step()
        results.append((cpu.c, cpu.b, cpu.hl, bytes(mem[0x9000:0x9040]), cpu.halted, cpu.r))
    assert results[0][:5] == results[1][:5]
    odd = sum(1 for x in data if x & 1)
    assert results[0][0] == (odd - (len(data) - odd)) & 255


def test_loop_with_call_cc_inside_matches_single_steps():
    """CALL NZ inside a DJNZ loop: the taken side (the subroutine and its RET) is inline."""
    code = [0x06, 0x20, 0x21, 0x00, 0x90,       # LD B,20h; LD HL,9000h
            0x7E, 0xB7, 0xC4, 0x00, 0xA0,       # loop: LD A,(HL); OR A; CALL NZ,A000h
            0x23, 0x10, 0xF8, 0x76]             # INC HL; DJNZ loop; HALT
    sub = [0x0C, 0x36, 0x00, 0xC9]              # A000: INC C; LD (HL),0; RET
    results = []
    for mode in ("run", "step"):
        cpu, mem = cpu_with(code, compile_after=1)
        mem[0xA000:0xA004] = bytes(sub)
        mem[0x9000:0x9020] = bytes((k * 37) & 0xFF if k % 3 else 0 for k in range(32))
        if mode == "run":
            for t in range(50, 5000, 97):
                cpu.run(t)
        else:
            while cpu.tstates < list(range(50, 5000, 97))[-1]:
                cpu.step()
        results.append((cpu.c, cpu.b, cpu.hl, cpu.sp, bytes(mem[0x9000:0x9020]), cpu.tstates))
    assert results[0] == results[1]
    assert results[0][0] == sum(1 for k in range(32) if k % 3 and (k * 37) & 0xFF)


def test_every_opcode_decodes_compiles_and_runs():
    """All 256 x (none, CB, ED, DD, FD, DDCB, FDCB) encodings: each is one instruction with a
    mnemonic, and a core runs it as one step with the right length and at least 4 T."""
    from spectrum.z80_decode import Decoder
    for prefix in ((), (0xCB,), (0xED,), (0xDD,), (0xFD,), (0xDD, 0xCB, 0x05), (0xFD, 0xCB, 0xFB)):
        for op in range(256):
            code = list(prefix) + [op, 0x34, 0x12, 0x00]
            mem = bytearray(65536)
            mem[0x8000:0x8000 + len(code)] = bytes(code)
            ins = Decoder(mem).decode(0x8000)
            assert ins.mn and 1 <= ins.length <= 4
            cpu = Z80(mem)
            cpu.pc, cpu.sp = 0x8000, 0xF000
            t = cpu.step()
            assert t >= 4, (prefix, op)


def _run_and_step(code, limit=2000, setup=lambda cpu, mem: None):
    """(compiled at once, one step at a time) end states of the same code."""
    ends = []
    for compile_after in (1, 10**9):
        cpu, mem = cpu_with(code, compile_after=compile_after)
        setup(cpu, mem)
        if compile_after == 1:
            cpu.run(limit)
        else:
            while cpu.tstates < limit:
                cpu.step()
        ends.append(_state(cpu, mem))
    return ends


def test_ld_r_a_inside_a_compiled_loop_sets_r_for_the_iterations_after_it():
    # LD B,10; loop: LD A,B; LD R,A; DJNZ loop; LD A,R; HALT (R counted from the last LD R,A)
    compiled, stepped = _run_and_step([0x06, 0x0A, 0x78, 0xED, 0x4F, 0x10, 0xFB, 0xED, 0x5F, 0x76])
    assert compiled == stepped and stepped[0]["af"] >> 8 == 4


def test_a_write_into_the_next_instruction_by_one_that_falls_through_is_seen():
    # LD HL,9000h; LD DE,800Ch; LD BC,1; LDIR (copies DEC A over the INC A after it); NOP; INC A;
    # HALT
    code = [0x21, 0x00, 0x90, 0x11, 0x0C, 0x80, 0x01, 0x01, 0x00, 0xED, 0xB0, 0x00, 0x3C, 0x76]
    compiled, stepped = _run_and_step(code, setup=lambda cpu, mem: mem.__setitem__(0x9000, 0x3D))
    assert compiled == stepped and stepped[0]["af"] >> 8 == 0xFF


def test_dump_blocks_writes_the_account_of_a_block_compiled_at_that_address(tmp_path):
    out = tmp_path / "block.txt"
    cpu, _ = cpu_with([0x3C, 0x10, 0xFD, 0x76], compile_after=1, dump_blocks={0x8000: out})
    cpu.b = 3
    cpu.run(200)
    text = out.read_text()
    assert text.startswith("block 8000: 2 instructions from 8000-8002; loops back to its start")
    assert "INC A: reads a f, writes a f; flags read -, written SZ5H3PN" in text
    assert "DJNZ 0x8000" in text and "def blk(limit):" in text
    assert text == cpu.explain_block(0x8000) + "\n"


def test_explain_block_shows_records_passes_and_code_without_compiling():
    cpu, _ = cpu_with([0xE6, 0x07, 0xFE, 0x20, 0xC9])   # AND 7; CP 20h; RET
    text = cpu.explain_block(0x8000)
    assert "AND 0x07: reads a, writes a f" in text and "dead, left out: 8000 flags\n" in text
    assert "def blk(limit):" in text and not cpu.blocks.by_addr
