"""The last step of the Z80 compiler: a Block plan (z80_passes.py), or one instruction record for
the interpreter, written as Python source from templates. Waits come from the record's Timing
(z80_timing.py), memory writes from its Store lines and the machine's memory map, exits from the
plan. It decides nothing and reads no code back."""
from .hw import SCREEN_ADDR, SCREEN_BYTES
from .z80_passes import LAST, NESTED, SIDE_EXIT, LoopBack
from .z80_records import BRANCH, HALT, JUMP, NEXT, REGS, FlagLine, MemptrLine, Store, cpu_name
from .z80_timing import Flag, Mark, PortWait, Wait, Within

SCREEN_END = SCREEN_ADDR + SCREEN_BYTES
TRANSFER = 0x10000      # added to an op function's next pc when the instruction may have jumped


def at(t, offset=0):
    """The code for the T-state `t + offset` T-states into the block (t has every wait so far)."""
    return f"t + {t + offset}" if t + offset else "t"


def indent(lines):
    return ["    " + x for x in lines]


class Emitter:
    """Writes code for one machine: where ROM ends (writes below are dropped) and its contention
    (None, or a z80_bus.Contention: waits, and writes to the screen logged with their T-state)."""

    def __init__(self, rom_top, contention):
        self.rom_top = rom_top
        self.cont = contention

    # ---- one instruction's parts
    def waits(self, steps, t):
        """Lines of a Timing's steps, for an instruction starting t T-states into the block."""
        out = []
        for s in steps:
            if isinstance(s, Wait):
                waits = [f"t += D[{at(t, o)}]" for o in s.offsets]
                out += waits if s.cond is True else [f"if {s.cond}: " + "; ".join(waits)]
            elif isinstance(s, Mark):
                out.append(f"{s.name} = {at(t, s.offset)}")
            elif isinstance(s, Flag):
                out.append(f"{s.name} = {s.cond}")
            elif isinstance(s, Within):
                out += [f"if {s.cond}:"] + indent(self.waits(s.steps, t))
            elif isinstance(s, PortWait):
                out += self.port_wait(s, t)
        return out

    def port_wait(self, s, t):
        """An I/O cycle to a port known at run time, by the 48K's port rule (z80_bus.io_steps): its
        first T waits when the port's high byte is contended; then the ULA (even ports) holds 3 T
        at once, other contended ports wait at each of 3 single T."""
        hc, o = f"{self.cont.lo} <= pt < {self.cont.hi}", s.offset
        wait = [f"t += D[{at(t, o + k)}]" for k in range(4)]
        return [f"pt = {s.port}", f"if {hc}: {wait[0]}", f"tio = {at(t, o + 1)}",
                f"if not pt & 1: {wait[1]}", f"elif {hc}: " + "; ".join(wait[1:])]

    def store(self, st, when, t):
        """A memory write: dropped below ROM's top; with contention, screen writes are logged with
        their T-state (when: the Timing's)."""
        wt = when.get("t" + st.name)
        wt = at(t, wt) if isinstance(wt, int) else wt
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

    def lines(self, lines, timing, t, fields, keep_flags=True, keep_memptr=True):
        """Body (or taken) lines with their template fields filled in; dead ones left out."""
        out = []
        for ln in lines:
            if isinstance(ln, Store):
                out += self.store(ln, timing.when, t)
            elif not (isinstance(ln, FlagLine) and not keep_flags
                      or isinstance(ln, MemptrLine) and not keep_memptr):
                out.append(ln.format_map(fields))
        return out

    @staticmethod
    def fields(timing, t, m1, qmask):
        """The template fields: {io_t} the I/O access's T-state, {m1} the M1 cycles so far (R),
        {qmask} what the Q latch lets through of F."""
        io = timing.when.get("tio")
        return {"io_t": at(t, io) if isinstance(io, int) else io, "m1": m1, "qmask": qmask}

    # ---- an op function for the interpreter
    def op_function(self, ins, timing, operands):
        """Source of `op(S, M, pc) -> next pc` (+ TRANSFER when it may have jumped; -3 for HALT)
        running one instruction template; operands: the byte offsets read as o1, o2 ..."""
        fields = self.fields(timing, 0, str(ins.m1), "~S.q")
        body = self.waits(timing.before, 0) + self.lines(ins.body, timing, 0, fields)
        end_t = ins.taken_tstates if ins.flow == JUMP else ins.tstates
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
        ret = "-3" if ins.flow == HALT else "npc" if ins.flow == NEXT else f"npc + {TRANSFER}"
        out.append(f"    return {ret}")
        return "\n".join(out) + "\n"

    # ---- a compiled block
    def block(self, b, memory):
        """Source of `blk(limit) -> next pc`, or -1 (too close to limit: nothing run), -2 (its code
        changed: nothing run), -3 (HALT), for Block plan b compiled from memory."""
        scaffold = b.loop or _leaves_early(b.steps)
        out = ["def blk(limit):", "    t = S.tstates",
               f"    if t + {b.room} >= limit: S.pc = {b.start}; return -1"]
        out += self.code_checks(b, memory)
        out += [f"    {r} = S.{cpu_name(r)}" for r in b.loads]
        if b.bulk_copy:
            out += self.bulk_copy(b)
        if b.loop:
            out.append("    rc = 0")
        body = [ln for step in b.steps for ln in self.step(step, b, scaffold)]
        if not scaffold:
            return "\n".join(out + indent(body)) + "\n"
        out += ["    while True:"] + indent(indent(body))
        out.append("    S.tstates = t + tx; S._rc += kx")      # every exit breaks to here
        out += [f"    S.{cpu_name(r)} = {r}" for r in b.stores]
        return "\n".join(out + ["    S.pc = npc", "    return npc"]) + "\n"

    def code_checks(self, b, m):
        """Lines that leave (-2) when memory no longer holds the bytes the block was compiled from
        (code below ROM's top cannot change)."""
        out, leave = [], f"S.pc = {b.start}; return -2"
        for lo, hi in b.ranges:
            if hi <= self.rom_top:
                continue
            if hi > 0x10000:                                # an instruction wrapping past FFFF
                out += [f"    if M[{k & 0xFFFF}] != {m[k & 0xFFFF]}: {leave}"
                        for k in range(lo, hi)]
            elif hi - lo == 1:
                out.append(f"    if M[{lo}] != {m[lo]}: {leave}")
            else:
                out.append(f"    if M[{lo}:{hi}] != {bytes(m[lo:hi])!r}: {leave}")
        return out

    def step(self, step, b, scaffold):
        """The lines of one step: its waits, its lines, and its exits (a nested side's inside)."""
        ins, t = step.ins, step.at
        m1 = f"(rc + {step.m1})" if b.loop else str(step.m1)
        fields = self.fields(step.timing, t, m1, step.qmask)
        out = [f"# {ins.addr:04x}: {ins.mn}"] + self.waits(step.timing.before, t)
        out += self.lines(ins.body, step.timing, t, fields, step.keep_flags, step.keep_memptr)
        if step.then == LAST:
            return out + self.end(step, b, fields, scaffold)
        if step.then in (SIDE_EXIT, NESTED):
            taken = self.taken(step, fields)
            if step.taken_exit is not None:
                taken += self.exit(step.taken_exit, b)
            for side in step.side:
                taken += self.step(side, b, True)
            out += [f"if {ins.cond}:"] + indent(taken)
        if step.after_exit is not None:
            out += self.exit(step.after_exit, b)
        return out

    def taken(self, step, fields):
        """A branch's taken side: its waits, then its lines."""
        t = step.at
        return self.waits(step.timing.taken, t) + self.lines(step.ins.taken, step.timing, t, fields)

    def end(self, step, b, fields, scaffold):
        """The last instruction's ways out: loop back, leave, or (the only way) return directly."""
        ins, m1 = step.ins, step.m1
        if ins.flow == HALT:
            return ([f"S.tstates = {at(step.at, ins.tstates)}; S._rc += {m1}; S.q = 0"]
                    + [f"S.{cpu_name(r)} = {r}" for r in b.stores]
                    + [f"S.pc = {ins.addr}; return -3"])
        if ins.flow == BRANCH:
            taken, on = step.end
            return ([f"if {ins.cond}:"] + indent(self.taken(step, fields) + self.leave(taken, b))
                    + self.leave(on, b))
        way, = step.end
        if scaffold:
            return ([f"S.{ins.post} = S._rc + {m1}"] if ins.post else []) + self.leave(way, b)
        return ([f"S.tstates = {at(way.tstates)}; S._rc += {m1}; S.q = {way.q}"]
                + [f"S.{cpu_name(r)} = {r}" for r in b.stores] + [f"S.pc = {way.target}"]
                + ([f"S.{ins.post} = S._rc"] if ins.post else []) + [f"return {way.target}"])

    def leave(self, way, b):
        return self.loop_back(way, b) if isinstance(way, LoopBack) else self.exit(way, b)

    @staticmethod
    def exit(e, b):
        """Lines that leave the block by Exit e (under its condition, if any)."""
        kx = f"rc + {e.m1}" if b.loop else e.m1
        line = f"S.q = {e.q}; npc = {e.target}; tx = {e.tstates}; kx = {kx}; break"
        return [f"if {e.when}:", "    " + line] if e.when else [line]

    @staticmethod
    def loop_back(lb, b):
        """Lines that go back to the block's start by LoopBack lb, or leave when the limit is near
        (or its writes hit the block's code)."""
        stay = f"t + {b.room} < limit" + (f" and not ({lb.unless})" if lb.unless else "")
        return [f"t += {lb.tstates}", f"rc += {lb.m1}", f"if {stay}: continue",
                f"S.q = {lb.q}; npc = {b.start}; tx = 0; kx = rc; break"]

    def bulk_copy(self, b):
        """LDIR's fast path: copy as many bytes as fit before limit with one slice move, when that
        is exactly what the byte loop would do (no wrap, no forward overlap, no ROM, not over the
        block's own code; with contention, only where nothing waits)."""
        s, cont = b.start, self.cont
        code_ok = " and ".join(f"(de + n <= {lo} or de >= {hi})" for lo, hi in b.ranges)
        if cont is not None:
            if any(lo < cont.hi and hi > cont.lo for lo, hi in b.ranges):
                return []
            code_ok += "".join(f" and ({r} + n <= {cont.lo} or {r} >= {cont.hi})"
                               for r in ("hl", "de"))
        return [
            "    hl = h << 8 | l; de = d << 8 | e; bc = (b << 8 | c) or 65536",
            "    n = (limit - t + 20) // 21",
            "    if n > bc: n = bc",
            f"    if n > 1 and hl + n <= 65536 and de + n <= 65536 and de >= {self.rom_top} "
            f"and not (hl < de < hl + n) and {code_ok}:",
            "        M[de:de + n] = M[hl:hl + n]",
            "        v = M[de + n - 1]",
            "        hl += n; de += n; bc -= n",
            "        t += 21 * n",
            "        if not bc: t -= 5",
            f"        if bc or n > 1: wz = {(s + 1) & 0xFFFF}",
            "        x = v + a",
            f"        f = (f & 193) | 4 | {(s >> 8) & 40} if bc else "
            "(f & 193) | (x & 8) | ((x << 4) & 32)",
            f"        npc = {s} if bc else {(s + 2) & 0xFFFF}",
            "        S.tstates = t; S._rc += 2 * n",
            "        S.h = hl >> 8; S.l = hl & 255; S.d = de >> 8; S.e = de & 255",
            "        S.b = bc >> 8; S.c = bc & 255",
            "        S.f = f; S.q = f; S.memptr = wz; S.pc = npc",
            "        return npc",
        ]


def _leaves_early(steps):
    """Whether a block that does not loop can leave before its last instruction, or two ways."""
    return len(steps[-1].end) > 1 or any(s.taken_exit or s.after_exit for s in steps[:-1])
