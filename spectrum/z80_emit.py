"""The last step of the Z80 compiler: a Block plan (z80_passes.py), or one instruction record for
the interpreter, written as Python source from templates. Waits come from the record's Timing
(z80_timing.py), memory writes from its Store lines and the machine's memory map, exits from the
plan. It decides nothing and reads no code back."""
from collections.abc import Iterable
from typing import Any

from .hw import SCREEN_ADDR, SCREEN_BYTES
from .z80_bus import Contention
from .z80_passes import LAST, NESTED, SIDE_EXIT, Block, Exit, LoopBack, Step
from .z80_records import (
    BRANCH,
    HALT,
    JUMP,
    NEXT,
    REGS,
    FlagLine,
    Instr,
    MemptrLine,
    Store,
    cpu_name,
)
from .z80_state import BlockExit
from .z80_timing import Flag, Mark, PortWait, Timing, Wait, Within

SCREEN_END = SCREEN_ADDR + SCREEN_BYTES
TRANSFER = 0x10000      # added to an op function's next pc when the instruction may have jumped
# what blocks and op functions return instead of a pc, as written in their code (-1, -2, -3)
LIMIT, CHANGED, HALTED = (f"{code:d}" for code in (BlockExit.LIMIT, BlockExit.CHANGED,
                                                   BlockExit.HALT))


def t_plus(start: int, offset: int = 0) -> str:
    """The code for the T-state `start + offset` T-states into the block (the local t holds the
    block's start plus every wait so far)."""
    return f"t + {start + offset}" if start + offset else "t"


def indent(lines: Iterable[str]) -> list[str]:
    return ["    " + x for x in lines]


class Emitter:
    """Writes code for one machine: where ROM ends (writes below are dropped) and its contention
    (None, or a z80_bus.Contention: waits, and writes to the screen logged with their T-state)."""

    def __init__(self, rom_top: int, contention: Contention | None) -> None:
        self.rom_top = rom_top
        self.cont = contention

    # ---- one instruction's parts
    def waits(self, steps: list[Any], start: int) -> list[str]:
        """Lines of a Timing's steps, for an instruction starting t T-states into the block."""
        out: list[str] = []
        for item in steps:
            if isinstance(item, Wait):
                waits = [f"t += D[{t_plus(start, o)}]" for o in item.offsets]
                out += waits if item.cond is True else [f"if {item.cond}: " + "; ".join(waits)]
            elif isinstance(item, Mark):
                out.append(f"{item.name} = {t_plus(start, item.offset)}")
            elif isinstance(item, Flag):
                out.append(f"{item.name} = {item.cond}")
            elif isinstance(item, Within):
                out += [f"if {item.cond}:"] + indent(self.waits(item.steps, start))
            elif isinstance(item, PortWait):
                out += self.port_wait(item, start)
        return out

    def port_wait(self, item: PortWait, start: int) -> list[str]:
        """An I/O cycle to a port known at run time, by the 48K's port rule (z80_bus.io_steps): its
        first T waits when the port's high byte is contended; then the ULA (even ports) holds 3 T
        at once, other contended ports wait at each of 3 single T."""
        cont = self.cont
        assert cont is not None             # a PortWait comes only from a contention pass
        hc, o = f"{cont.lo} <= pt < {cont.hi}", item.offset
        wait = [f"t += D[{t_plus(start, o + k)}]" for k in range(4)]
        return [f"pt = {item.port}", f"if {hc}: {wait[0]}", f"tio = {t_plus(start, o + 1)}",
                f"if not pt & 1: {wait[1]}", f"elif {hc}: " + "; ".join(wait[1:])]

    def store(self, st: Store, when: dict[str, int | str], start: int) -> list[str]:
        """A memory write: dropped below ROM's top; with contention, screen writes are logged with
        their T-state (when: the Timing's)."""
        wt = when.get("t" + st.name)
        wt = t_plus(start, wt) if isinstance(wt, int) else wt
        if isinstance(st.addr, int):
            if st.addr < self.rom_top:
                return []
            if self.cont is not None and SCREEN_ADDR <= st.addr < SCREEN_END:
                return [f"S._screen_write({st.addr}, {st.value}, {wt})"]
            return [f"M[{st.addr}] = {st.value}"]
        var, val = st.name, st.value
        out = [] if st.addr == var else [f"{var} = {st.addr}"]
        if self.cont is not None:
            out += [f"if {var} >= {SCREEN_END}: M[{var}] = {val}",
                    f"elif {var} >= {SCREEN_ADDR}: S._screen_write({var}, {val}, {wt})"]
            if self.rom_top:
                if self.rom_top < SCREEN_ADDR:
                    out.append(f"elif {var} >= {self.rom_top}: M[{var}] = {val}")
            else:
                out.append(f"else: M[{var}] = {val}")
        elif self.rom_top:
            out.append(f"if {var} >= {self.rom_top}: M[{var}] = {val}")
        else:
            out.append(f"M[{var}] = {val}")
        return out

    def lines(self, lines: list[Any], timing: Timing, start: int, fields: dict[str, object],
              keep_flags: bool = True, keep_memptr: bool = True) -> list[str]:
        """Body (or taken) lines with their template fields filled in; dead ones left out."""
        out: list[str] = []
        for ln in lines:
            if isinstance(ln, Store):
                out += self.store(ln, timing.when, start)
            elif not (isinstance(ln, FlagLine) and not keep_flags
                      or isinstance(ln, MemptrLine) and not keep_memptr):
                out.append(ln.format_map(fields))
        return out

    @staticmethod
    def fields(timing: Timing, start: int, m1: str, qmask: str) -> dict[str, object]:
        """The template fields: {io_t} the I/O access's T-state, {m1} the M1 cycles so far (R),
        {qmask} what the Q latch lets through of F."""
        io = timing.when.get("tio")
        return {"io_t": t_plus(start, io) if isinstance(io, int) else io, "m1": m1, "qmask": qmask}

    # ---- an op function for the interpreter
    def op_function(self, ins: Instr, timing: Timing, operands: list[int]) -> str:
        """Source of `op(S, M, pc) -> next pc` (+ TRANSFER when it may have jumped; BlockExit.HALT)
        running one instruction template; operands: the byte offsets read as o1, o2 ..."""
        fields = self.fields(timing, 0, str(ins.m1), "~S.q")
        body = self.waits(timing.before, 0) + self.lines(ins.body, timing, 0, fields)
        end_t: int | str = ins.taken_tstates if ins.flow == JUMP else ins.tstates
        if ins.flow == BRANCH:
            taken = self.waits(timing.taken, 0) + self.lines(ins.taken, timing, 0, fields)
            body += ([f"if {ins.cond}:"] + indent(taken)
                     + [f"    npc = {ins.target}; tt = {ins.taken_tstates}",
                        f"else: npc = {ins.next_addr}; tt = {ins.tstates}"])
            end_t = "tt"
        elif ins.flow == JUMP:
            body.append(f"npc = {ins.target}")
        elif ins.flow != HALT:
            body.append(f"npc = {ins.next_addr}")
        timed = timing.before or timing.taken or "tio" in timing.when or (self.cont and ins.stores)
        out = ["def op(S, M, pc):"] + (["    t = S.tstates"] if timed else [])
        if "tio" in timing.when:
            out += ["    PIN = S._port_in", "    POUT = S._port_out"]
        out += [f"    o{k} = M[(pc + {k}) & 65535]" for k in operands]
        out += [f"    {r} = S.{cpu_name(r)}" for r in REGS if r in ins.reads]
        out += indent(body)
        out.append(f"    S.tstates {'= t +' if timed else '+='} {end_t}; S._rc += {ins.m1}; "
                   f"S.q = {ins.q_after}")
        out += [f"    S.{cpu_name(r)} = {r}" for r in REGS if r in ins.writes]
        if ins.post:
            out.append(f"    S.{ins.post} = S._rc")
        ret = HALTED if ins.flow == HALT else "npc" if ins.flow == NEXT else f"npc + {TRANSFER}"
        out.append(f"    return {ret}")
        return "\n".join(out) + "\n"

    # ---- a compiled block
    def block(self, block: Block, memory: bytearray) -> str:
        """Source of `blk(limit) -> next pc`, or a BlockExit: LIMIT (too close to limit: nothing
        run), CHANGED (its code changed: nothing run) or HALT, for a Block plan compiled from
        memory."""
        scaffold = block.loop or _leaves_early(block.steps)
        out = ["def blk(limit):", "    t = S.tstates",
               f"    if t + {block.room} >= limit: S.pc = {block.start}; return {LIMIT}"]
        out += self.code_checks(block, memory)
        out += [f"    {r} = S.{cpu_name(r)}" for r in block.loads]
        if block.bulk_copy:
            out += self.bulk_copy(block)
        if block.loop:
            out.append("    m1_done = 0")          # M1 cycles of the iterations done
        body = [ln for step in block.steps for ln in self.step(step, block, scaffold)]
        if not scaffold:
            return "\n".join(out + indent(body)) + "\n"
        out += ["    while True:"] + indent(indent(body))
        out.append("    S.tstates = t + exit_t; S._rc += exit_m1")     # every exit breaks here
        out += [f"    S.{cpu_name(r)} = {r}" for r in block.stores]
        return "\n".join(out + ["    S.pc = npc", "    return npc"]) + "\n"

    def code_checks(self, block: Block, memory: bytearray) -> list[str]:
        """Lines that leave (BlockExit.CHANGED) when memory no longer holds the bytes the block was
        compiled from (code below ROM's top cannot change)."""
        out, leave = [], f"S.pc = {block.start}; return {CHANGED}"
        for lo, hi in block.ranges:
            if hi <= self.rom_top:
                continue
            if hi > 0x10000:                                # an instruction wrapping past FFFF
                out += [f"    if M[{k & 0xFFFF}] != {memory[k & 0xFFFF]}: {leave}"
                        for k in range(lo, hi)]
            elif hi - lo == 1:
                out.append(f"    if M[{lo}] != {memory[lo]}: {leave}")
            else:
                out.append(f"    if M[{lo}:{hi}] != {bytes(memory[lo:hi])!r}: {leave}")
        return out

    def step(self, step: Step, block: Block, scaffold: bool) -> list[str]:
        """The lines of one step: its waits, its lines, and its exits (a nested side's inside)."""
        ins, start = step.ins, step.at
        m1 = f"(m1_done + {step.m1})" if block.loop else str(step.m1)
        fields = self.fields(step.timing, start, m1, step.qmask)
        out = [f"# {ins.addr:04x}: {ins.mn}"] + self.waits(step.timing.before, start)
        out += self.lines(ins.body, step.timing, start, fields, step.keep_flags, step.keep_memptr)
        if step.then == LAST:
            return out + self.end(step, block, fields, scaffold)
        if step.then in (SIDE_EXIT, NESTED):
            taken = self.taken(step, fields)
            if step.taken_exit is not None:
                taken += self.exit(step.taken_exit, block)
            for side in step.side:
                taken += self.step(side, block, True)
            out += [f"if {ins.cond}:"] + indent(taken)
        if step.after_exit is not None:
            out += self.exit(step.after_exit, block)
        return out

    def taken(self, step: Step, fields: dict[str, object]) -> list[str]:
        """A branch's taken side: its waits, then its lines."""
        start = step.at
        return (self.waits(step.timing.taken, start)
                + self.lines(step.ins.taken, step.timing, start, fields))

    def end(self, step: Step, block: Block, fields: dict[str, object],
            scaffold: bool) -> list[str]:
        """The last instruction's ways out: loop back, leave, or (the only way) return directly."""
        ins, m1 = step.ins, step.m1
        if ins.flow == HALT:
            return ([f"S.tstates = {t_plus(step.at, ins.tstates)}; S._rc += {m1}; S.q = 0"]
                    + [f"S.{cpu_name(r)} = {r}" for r in block.stores]
                    + [f"S.pc = {ins.addr}; return {HALTED}"])
        if ins.flow == BRANCH:
            taken, on = step.end
            taken_side = self.taken(step, fields) + self.leave(taken, block)
            return [f"if {ins.cond}:"] + indent(taken_side) + self.leave(on, block)
        way, = step.end
        if scaffold:
            return ([f"S.{ins.post} = S._rc + {m1}"] if ins.post else []) + self.leave(way, block)
        return ([f"S.tstates = {t_plus(way.tstates)}; S._rc += {m1}; S.q = {way.q}"]
                + [f"S.{cpu_name(r)} = {r}" for r in block.stores] + [f"S.pc = {way.target}"]
                + ([f"S.{ins.post} = S._rc"] if ins.post else []) + [f"return {way.target}"])

    def leave(self, way: Exit | LoopBack, block: Block) -> list[str]:
        return self.loop_back(way, block) if isinstance(way, LoopBack) else self.exit(way, block)

    @staticmethod
    def exit(way: Exit, block: Block) -> list[str]:
        """Lines that leave the block by an Exit (under its condition, if any)."""
        m1 = f"m1_done + {way.m1}" if block.loop else way.m1
        line = f"S.q = {way.q}; npc = {way.target}; exit_t = {way.tstates}; exit_m1 = {m1}; break"
        return [f"if {way.when}:", "    " + line] if way.when else [line]

    @staticmethod
    def loop_back(way: LoopBack, block: Block) -> list[str]:
        """Lines that go back to the block's start by a LoopBack, or leave when the limit is near
        (or its writes hit the block's code)."""
        stay = f"t + {block.room} < limit" + (f" and not ({way.unless})" if way.unless else "")
        return [f"t += {way.tstates}", f"m1_done += {way.m1}", f"if {stay}: continue",
                f"S.q = {way.q}; npc = {block.start}; exit_t = 0; exit_m1 = m1_done; break"]

    def bulk_copy(self, block: Block) -> list[str]:
        """LDIR's fast path: copy as many bytes as fit before limit with one slice move, when that
        is exactly what the byte loop would do (no wrap, no forward overlap, no ROM, not over the
        block's own code; with contention, only where nothing waits)."""
        start, cont = block.start, self.cont
        ldir = block.steps[0].ins
        again, last = ldir.taken_tstates, ldir.tstates      # T-states of a pass that repeats / ends
        code_ok = " and ".join(f"(de + n <= {lo} or de >= {hi})" for lo, hi in block.ranges)
        if cont is not None:
            if any(lo < cont.hi and hi > cont.lo for lo, hi in block.ranges):
                return []
            code_ok += "".join(f" and ({r} + n <= {cont.lo} or {r} >= {cont.hi})"
                               for r in ("hl", "de"))
        return [
            "    hl = h << 8 | l; de = d << 8 | e; bc = (b << 8 | c) or 65536",
            f"    n = (limit - t + {again - 1}) // {again}",
            "    if n > bc: n = bc",
            f"    if n > 1 and hl + n <= 65536 and de + n <= 65536 and de >= {self.rom_top} "
            f"and not (hl < de < hl + n) and {code_ok}:",
            "        M[de:de + n] = M[hl:hl + n]",
            "        v = M[de + n - 1]",
            "        hl += n; de += n; bc -= n",
            f"        t += {again} * n",
            f"        if not bc: t -= {again - last}",
            f"        if bc or n > 1: wz = {(start + 1) & 0xFFFF}",
            "        x = v + a",
            f"        f = (f & 193) | 4 | {(start >> 8) & 40} if bc else "
            "(f & 193) | (x & 8) | ((x << 4) & 32)",
            f"        npc = {start} if bc else {(start + 2) & 0xFFFF}",
            "        S.tstates = t; S._rc += 2 * n",
            "        S.h = hl >> 8; S.l = hl & 255; S.d = de >> 8; S.e = de & 255",
            "        S.b = bc >> 8; S.c = bc & 255",
            "        S.f = f; S.q = f; S.memptr = wz; S.pc = npc",
            "        return npc",
        ]


def _leaves_early(steps: list[Step]) -> bool:
    """Whether a block that does not loop can leave before its last instruction, or two ways."""
    return len(steps[-1].end) > 1 or any(step.taken_exit or step.after_exit for step in steps[:-1])
