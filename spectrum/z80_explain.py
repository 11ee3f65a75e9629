"""A compiled block's account, for people: its bytes and the decoder's records, what each pass
decided, and the code emitted, as plain text (the CPU's explain_block and dump_blocks; docs/Z80.md
walks one). It reads the plan the passes made; it decides nothing."""
from typing import Any

from .z80_passes import LAST, NESTED, Block, Exit, LoopBack, walk
from .z80_records import BRANCH, HALT, JUMP, NEXT, REGS, Instr
from .z80_state import BlockExit
from .z80_tables import flag_letters
from .z80_timing import Flag, Mark, PortWait, Wait, Within


def where(addr: object) -> str:
    return f"{addr:04x}" if isinstance(addr, int) else str(addr)


def record_text(ins: Instr) -> list[str]:
    """Two lines of what the decoder's record says about one instruction."""
    regs = f"reads {' '.join(r for r in REGS if r in ins.reads) or '-'}, " \
           f"writes {' '.join(r for r in REGS if r in ins.writes) or '-'}"
    flags = f"flags read {flag_letters(ins.flags_read)}, written {flag_letters(ins.flags_written)}"
    cycles = " ".join(f"{c.kind}:{where(c.addr)}" for c in ins.cycles)
    if ins.taken_cycles:
        cycles += " | taken: " + " ".join(f"{c.kind}:{where(c.addr)}" for c in ins.taken_cycles)
    if ins.flow in (NEXT, HALT):
        leave = f"{ins.tstates} T, " + ("on" if ins.flow == NEXT else "halts")
    elif ins.flow == JUMP:
        leave = f"{ins.taken_tstates} T, jumps to {where(ins.target)}"
    elif ins.flow == BRANCH:
        leave = f"{ins.taken_tstates} T to {where(ins.target)} if {ins.cond}, " \
                f"else {ins.tstates} T on"
    else:
        leave = f"{ins.tstates} T, on, and a block ends after it"
    return [f"{ins.mn}: {regs}; {flags}", f"{leave}; cycles {cycles}"]


def timing_text(steps: list[Any]) -> str:
    """A Timing's steps in a few words: 'wait +4 if 64 <= h < 128; twa = +7'."""
    out = []
    for s in steps:
        if isinstance(s, Wait):
            offsets = ",".join(f"+{o}" for o in s.offsets)
            out.append(f"wait {offsets}" + ("" if s.cond is True else f" if {s.cond}"))
        elif isinstance(s, Mark):
            out.append(f"{s.name} = +{s.offset}")
        elif isinstance(s, Flag):
            out.append(f"{s.name} = {s.cond}")
        elif isinstance(s, Within):
            out.append(f"if {s.cond}: ({timing_text(s.steps)})")
        elif isinstance(s, PortWait):
            out.append(f"the port rule for {s.port} at +{s.offset}")
    return "; ".join(out)


def exit_text(way: Exit | LoopBack) -> str:
    if isinstance(way, Exit):
        return f"leaves for {where(way.target)} at +{way.tstates} T, M1 {way.m1}" \
            + (f", if {way.when}" if way.when else "")
    return f"loops back at +{way.tstates} T, M1 {way.m1}" \
        + (f", unless {way.unless}" if way.unless else "")


def _records(block: Block, memory: bytearray) -> list[str]:
    out = ["records (the decoder: address, bytes, what it reads and writes, T-states, cycles):"]
    for step in walk(block.steps):
        ins = step.ins
        code = " ".join(f"{memory[(ins.at + k) & 0xFFFF]:02x}" for k in range(ins.length))
        first, second = record_text(ins)
        out += [f"  {ins.addr:04x}  {code:<11}  {first}", f"  {'':17}  {second}"]
    return out


def _passes(block: Block) -> list[str]:
    steps = list(walk(block.steps))
    out = ["passes:", "  placed (T-states and M1 cycles into the block; how it goes on):"]
    out += [f"    {s.ins.addr:04x} {s.ins.mn:<16} +{s.at} T, M1 {s.m1}, then {s.then}"
            + (" (taken side inline)" if s.then == NESTED else "") for s in steps]
    dead = [f"{s.ins.addr:04x} {what}" for s in steps
            for what, kept in (("flags", s.keep_flags), ("MEMPTR", s.keep_memptr)) if not kept]
    out.append(f"  dead, left out: {', '.join(dead) or 'nothing'}")
    out.append("  contention:")
    for s in steps:
        text = timing_text(s.timing.before)
        if s.timing.taken:
            text += ("; " if text else "") + "taken side: " + timing_text(s.timing.taken)
        out.append(f"    {s.ins.addr:04x} {s.ins.mn:<16} {text or 'no wait'}")
    out.append("  exits:")
    for s in steps:
        ways = ([s.taken_exit] if s.taken_exit else []) + ([s.after_exit] if s.after_exit else [])
        ways += s.end if s.then == LAST else []
        if ways or (s.then == LAST and s.ins.flow == HALT):
            texts = [exit_text(w) for w in ways] or [f"returns {BlockExit.HALT:d} (HALT)"]
            out.append(f"    {s.ins.addr:04x} {s.ins.mn:<16} " + "; ".join(texts))
    out.append(f"  registers kept in locals: {' '.join(block.loads) or '-'}; written back: "
               f"{' '.join(block.stores) or '-'}")
    latest = max(s.at for s in steps if s.then == LAST)
    waits = sum(s.timing.waits() for s in steps)
    out.append(f"  room before the limit: {block.room} T-states (the last instruction starts at "
               f"+{latest} T" + (f"; {waits} waits may come first)" if waits else ")"))
    return out


def explain(block: Block, source: str, memory: bytearray) -> str:
    """The account of one block: its records, the passes' decisions, its code."""
    spans = ", ".join(f"{lo:04x}-{hi - 1:04x}" for lo, hi in block.ranges)
    n = sum(1 for _ in walk(block.steps))
    head = f"block {block.start:04x}: {n} instructions from {spans}; " \
           f"{'loops back to its start' if block.loop else 'runs through once'}"
    return "\n".join([head, ""] + _records(block, memory) + [""] + _passes(block)
                     + ["", "code:", source.rstrip("\n")])
