"""The block compiler's passes, each alone, on records decoded from small programs assembled here
from bytes (spectrum/z80_passes.py, z80_timing.py): tracing, loops and nested sides, placing, dead
flags and MEMPTR, guards on writes into the block's code, exits, registers, room, and the contention
pass."""
from spectrum.z80_bus import CONTENTION_48K, Contention
from spectrum.z80_compile import BlockCompiler
from spectrum.z80_decode import Decoder
from spectrum.z80_operands import Expr, Template
from spectrum.z80_passes import (
    FOLLOW,
    LAST,
    NESTED,
    ON,
    RETURN,
    SIDE_EXIT,
    Exit,
    LoopBack,
    code_ranges,
    dead_values,
    place,
    registers,
    trace,
    walk,
)
from spectrum.z80_tables import FLAG_C
from spectrum.z80_timing import Flag, Mark, PortWait, Wait, Within, timing

ORG = 0x8000


def memory_with(code, org=ORG, more=()):
    mem = bytearray(65536)
    mem[org:org + len(code)] = bytes(code)
    for at, extra in more:
        mem[at:at + len(extra)] = bytes(extra)
    return mem


def plan(code, org=ORG, rom_top=0, contention=None, more=(), traps=(), volatile=()):
    mem = memory_with(code, org, more)
    return BlockCompiler(mem, rom_top, contention).plan(org, dict.fromkeys(traps), set(volatile))


def path_of(code, **kw):
    mem = memory_with(code, **{k: v for k, v in kw.items() if k in ("org", "more")})
    stops, volatile = kw.get("stops", {}), set(kw.get("volatile", ()))
    return trace(Decoder(mem).decode, ORG, ORG, 40, stops, volatile)


def mnemonics(steps):
    return [s.ins.mn for s in steps]


# ---------------------------------------------------------------- tracing
def test_a_path_follows_jumps_calls_and_the_predicted_return():
    # 8000: CALL 9000h; INC A; JP 8100h   9000: INC B; RET   8100: HALT
    path = path_of([0xCD, 0x00, 0x90, 0x3C, 0xC3, 0x00, 0x81],
                   more=[(0x9000, [0x04, 0xC9]), (0x8100, [0x76])])
    assert [i.mn for i in path] == ["CALL 0x9000", "INC B", "RET", "INC A", "JP 0x8100", "HALT"]


def test_a_path_stops_at_a_trap_at_a_volatile_byte_and_at_a_jump_back_to_its_start():
    code = [0x3C, 0x04, 0x0C, 0x18, 0xFB]                   # INC A; INC B; INC C; JR 8000h
    assert len(path_of(code)) == 4
    assert len(path_of(code, stops={0x8002: None})) == 2
    assert len(path_of(code, volatile={0x8001})) == 1


def test_a_conditional_jump_goes_on_with_its_fall_through_side():
    path = path_of([0x28, 0x10, 0x3C, 0x76])                # JR Z,+16; INC A; HALT
    assert [i.mn for i in path] == ["JR Z,0x8012", "INC A", "HALT"]


def test_a_block_loops_only_when_its_last_instruction_jumps_back_and_q_does_not_leak_in():
    assert plan([0x3C, 0x10, 0xFD]).loop                    # INC A; DJNZ 8000h
    assert not plan([0x3C, 0x10, 0xFD], traps=[ORG]).loop
    assert not plan([0x37, 0x10, 0xFD]).loop                # SCF first: its Q, from the loop


def test_a_loop_with_an_if_else_compiles_the_taken_side_inline():
    # loop: AND 1; JR Z,else; INC C; JR next; else: DEC C; next: DJNZ loop
    b = plan([0xE6, 0x01, 0x28, 0x03, 0x0C, 0x18, 0x01, 0x0D, 0x10, 0xF6])
    branch = b.steps[1]
    assert branch.then == NESTED and mnemonics(branch.side) == ["DEC C", "DJNZ 0x8000"]
    assert mnemonics(b.steps) == ["AND 0x01", "JR Z,0x8007", "INC C", "JR 0x8008", "DJNZ 0x8000"]


def test_code_ranges_merge_touching_spans():
    dec = Decoder(memory_with([0x00] * 8, more=[(0x9000, [0x00])])).decode
    spans = code_ranges([[dec(ORG), dec(ORG + 1)], [dec(ORG + 2), dec(0x9000)]])
    assert spans == [[ORG, ORG + 3], [0x9000, 0x9001]]


# ---------------------------------------------------------------- placing
def test_each_step_starts_at_the_t_states_before_it_and_counts_m1_cycles():
    # NOP (4); LD A,5 (7); JP 8010h (10, followed); 8010: LD IX,0 (14, 2 M1); HALT
    b = plan([0x00, 0x3E, 0x05, 0xC3, 0x10, 0x80], more=[(0x8010, [0xDD, 0x21, 0, 0, 0x76])])
    assert [(s.at, s.m1, s.then) for s in b.steps] == [(0, 1, ON), (4, 2, ON), (11, 3, FOLLOW),
                                                          (21, 5, ON), (35, 6, LAST)]


def test_q_mask_comes_from_the_instruction_before():
    # XOR A; NOP; SCF; HALT
    steps = place(path_of([0xAF, 0x00, 0x37, 0x76]), lambda ins: timing(ins, None))
    assert [s.qmask for s in steps] == ["~S.q", "0", "255", "0"]


def test_a_predicted_return_and_a_side_exit_are_told_apart():
    b = plan([0xCD, 0x00, 0x90, 0x28, 0x02, 0x76], more=[(0x9000, [0xC9])])  # CALL; RET; JR Z; HALT
    assert [s.then for s in b.steps] == [FOLLOW, RETURN, SIDE_EXIT, LAST]


# ---------------------------------------------------------------- dead flags and MEMPTR
def kept(b):
    return [(s.ins.mn, s.keep_flags, s.keep_memptr) for s in b.steps]


def test_flags_overwritten_before_any_read_are_dead_bit_by_bit():
    # AND 7; RLCA (keeps S Z P/V of the AND); CP 20h (writes all); RET
    b = plan([0xE6, 0x07, 0x07, 0xFE, 0x20, 0xC9])
    assert [k[1] for k in kept(b)] == [False, False, True, True]


def test_flags_another_instruction_keeps_are_live():
    # INC A (S Z 5 H 3 P/V N); RLA (reads C, writes 5 H 3 N C): S, Z, P/V of INC reach the exit
    assert [k[1] for k in kept(plan([0x3C, 0x17, 0xC9]))] == [True, True, True]


def test_flags_a_branch_reads_or_an_exit_may_need_are_live():
    assert kept(plan([0xB7, 0x28, 0x02, 0xAF, 0xC9]))[0][1]          # OR A; JR Z: read
    b = plan([0x3C, 0x28, 0x02, 0xAF, 0xC9])                          # INC A; JR Z; XOR A; RET
    assert [k[1] for k in kept(b)] == [True, True, True, True]        # JR Z's taken side leaves


def test_memptr_written_again_before_any_read_is_dead():
    # LD (5C48h),A; RET: the RET sets MEMPTR
    assert kept(plan([0x32, 0x48, 0x5C, 0xC9]))[0] == ("LD (0x5c48),A", True, False)


def test_a_conditional_memptr_write_counts_as_a_read():
    # LD A,(nn) sets MEMPTR; DJNZ sets it only when it jumps, so the first one stays
    assert kept(plan([0x3A, 0x00, 0x90, 0x10, 0xFB, 0xC9]))[0][2]


def test_dead_values_returns_what_is_live_before_the_first_step():
    steps = place(path_of([0xE6, 0x07, 0xC9]), lambda ins: timing(ins, None))     # AND 7; RET
    assert dead_values(steps) == 0                        # AND writes every flag, RET sets MEMPTR
    steps = place(path_of([0x17, 0xC9]), lambda ins: timing(ins, None))            # RLA; RET
    assert dead_values(steps) == FLAG_C | 0xC4            # RLA reads C; S Z P/V reach the exit


# ------------------------------------------------------------ writes into the block's code, exits
def test_a_write_into_the_block_leaves_it_a_static_one_decided_now():
    b = plan([0x32, 0x05, 0x80, 0x00, 0x00, 0x00, 0xC9])  # LD (8005h),A over its own NOP
    assert b.steps[0].guard == ["True"] and b.steps[0].after_exit.target == 0x8003
    assert plan([0x32, 0x00, 0x90, 0xC9]).steps[0].guard == []     # elsewhere: no test
    assert plan([0x32, 0x00, 0x10, 0xC9], org=0x0000 + 0x2000, rom_top=0x4000).steps[0].guard == []


def test_a_write_through_a_register_is_tested_against_the_block_s_code():
    b = plan([0x77, 0x23, 0xC9])                          # LD (HL),A; INC HL; RET
    assert b.steps[0].guard == [f"{ORG} <= wa < {ORG + 3}"]
    e = b.steps[0].after_exit
    assert (e.target, e.tstates, e.m1, e.when) == (ORG + 1, 7, 1, f"{ORG} <= wa < {ORG + 3}")


def test_an_ldir_that_falls_through_checks_its_writes_before_going_on():
    # LDIR mid-block, then NOP: LDIR's write may hit the NOP
    b = plan([0x21, 0, 0x90, 0xED, 0xB0, 0x00, 0xC9])
    ldir = b.steps[1]
    assert ldir.then == SIDE_EXIT and ldir.after_exit.target == ORG + 5


def test_side_exit_return_and_end_exits_carry_t_states_m1_and_q():
    b = plan([0xB7, 0x28, 0x10, 0xCD, 0x00, 0x90, 0x00, 0x76], more=[(0x9000, [0xC9])])
    _, jrz, call, ret, nop, halt = b.steps
    assert jrz.taken_exit == Exit(ORG + 0x13, 4 + 12, 2, "0")
    assert ret.after_exit == Exit("v", 4 + 7 + 17 + 10, 4, "0", f"v != {ORG + 6}")
    assert halt.then == LAST and halt.end == []


def test_a_loop_goes_back_unless_its_writes_hit_its_code():
    b = plan([0x12, 0x13, 0x10, 0xFC])                    # LD (DE),A; INC DE; DJNZ
    taken, on = b.steps[-1].end
    assert isinstance(taken, LoopBack) and (taken.tstates, taken.m1) == (7 + 6 + 13, 3)
    assert on == Exit(ORG + 4, 7 + 6 + 8, 3, "0")


# ---------------------------------------------------------------- registers, room
def test_registers_loaded_are_all_used_and_stored_those_written():
    loads, stores = registers(plan([0x78, 0x32, 0x00, 0x90, 0xC9]).steps)   # LD A,B; LD (nn),A; RET
    assert loads == ["a", "b", "sp", "wz"] and stores == ["a", "sp", "wz"]


def test_room_is_the_last_start_plus_the_longest_wait_for_each_possible_wait():
    b = plan([0x7E, 0x23, 0xC9], contention=CONTENTION_48K)        # LD A,(HL); INC HL; RET
    waits = sum(s.timing.waits() for s in walk(b.steps))
    assert waits == 3 and b.room == 7 + 6 + 3 * CONTENTION_48K.longest
    assert plan([0x7E, 0x23, 0xC9]).room == 13


# ---------------------------------------------------------------- the contention pass
def timing_of(code, org=ORG, cont=CONTENTION_48K, **kw):
    return timing(Decoder(memory_with(code, org)).decode(org), cont, **kw)


def test_a_register_address_is_tested_by_its_high_byte():
    assert timing_of([0x7E]).before == [Wait("64 <= h < 128", (4,))]       # LD A,(HL)


def test_known_addresses_wait_always_or_never():
    assert timing_of([0x3A, 0x00, 0x40]).before == [Wait(True, (10,))]     # LD A,(4000h)
    assert timing_of([0x3A, 0x00, 0x90]).before == []
    assert timing_of([0x00], org=0x4000).before == [Wait(True, (0,))]     # its own fetch


def test_stack_neighbours_shift_the_range_and_a_screen_write_keeps_its_t_state():
    t = timing_of([0xE5])                                                  # PUSH HL
    assert t.before == [Wait("16385 <= sp < 32769", (5,)), Mark("twa", 8),
                        Wait("16386 <= sp < 32770", (8,))]
    assert t.when == {"twa": "twa", "twb": 11}


def test_an_io_cycle_applies_the_port_rule_at_run_time():
    t = timing_of([0xDB, 0xFE])                                            # IN A,(FEh)
    assert t.before == [PortWait("(a << 8 | 254)", 7)] and t.when["tio"] == "tio"
    assert timing_of([0xDB, 0xFE], cont=None).when == {"tio": 8}


def test_a_taken_wait_on_registers_the_instruction_changes_is_tested_as_it_starts():
    t = timing_of([0xED, 0xB0])                                            # LDIR: DE moves on
    assert Flag("ck0", "64 <= d < 128") in t.before
    assert t.taken == [Wait("ck0", (16, 17, 18, 19, 20))]


def test_an_interpreted_instruction_tests_its_own_bytes_together():
    ins = Decoder(Template({0: 0x3E})).decode(Expr("pc", 0))             # LD A,n as a template
    t = timing(ins, CONTENTION_48K, "S._ic")
    assert t.before == [Within("16383 <= pc < 32768", [Wait("16384 <= pc < 32768", (0,)),
                                                       Wait("16383 <= pc < 32767", (4,))])]
    assert timing(ins, CONTENTION_48K, "S._ic", own_bytes=False).before == []


def test_every_address_contended_makes_every_register_access_wait():
    everywhere = Contention(bytes(100), 0, 0x10000)
    assert timing_of([0x7E], cont=everywhere).before == [Wait(True, (0,)), Wait(True, (4,))]
