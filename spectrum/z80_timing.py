"""The contention pass: from one instruction record's bus cycles (z80_bus.py) and the machine's
contention rule, where its cycles wait -- always, never, or after a test at run time -- and the
T-states its I/O access and screen writes happen at. The result is data (Timing: a list of steps);
z80_emit.py writes it as code. Offsets count T-states from the instruction's start; `t` in the code
has every earlier wait in it."""
from dataclasses import dataclass, field
from typing import Any

from .hw import SCREEN_ADDR, SCREEN_BYTES
from .z80_bus import TLEN, Contention, Cycle, Where
from .z80_records import Instr


@dataclass(slots=True)
class Wait:
    """Each cycle starting at these offsets waits delays[its T-state] when cond holds (True:
    always)."""
    cond: object
    offsets: tuple


@dataclass(slots=True)
class Mark:
    """The local `name` takes the T-state at `offset` (with the waits so far): a screen write's or
    an I/O access's T-state, kept because a later cycle of the instruction may still wait."""
    name: str
    offset: int


@dataclass(slots=True)
class PortWait:
    """An I/O cycle at `offset` to a port computed at run time (`port`): the 48K's port rule, tested
    then."""
    port: str
    offset: int


@dataclass(slots=True)
class Within:
    """Steps that apply only when cond holds (an interpreted instruction's own bytes in contended
    memory)."""
    cond: str
    steps: list


@dataclass(slots=True)
class Flag:
    """The local `name` holds cond as the instruction starts: a taken cycle's test on registers the
    instruction's own lines change before the taken side runs."""
    name: str
    cond: str


@dataclass(slots=True)
class Timing:
    """Where one instruction waits: `before` its lines and at the start of its `taken` side; `when`
    gives the T-state of the I/O access (tio) and of each write (twa, twb): a local set by a Mark,
    or an offset from the instruction's start (nothing waits between)."""
    before: list = field(default_factory=list)
    taken: list = field(default_factory=list)
    when: dict = field(default_factory=dict)

    def waits(self) -> int:
        """How many of its cycles may wait on one run (room a block keeps before its limit)."""
        return _count(self.before) + _count(self.taken)


def _count(steps: list[Any]) -> int:
    n = 0
    for s in steps:
        if isinstance(s, Wait):
            n += len(s.offsets)
        elif isinstance(s, PortWait):
            n += 4
        elif isinstance(s, Within):
            n += _count(s.steps)
    return n


def wait_condition(addr: int | Where, cont: Contention, ir: bool | str,
                   own_bytes: bool = True) -> bool | str:
    """True / False when known while decoding, else the condition as a cheap expression (a register
    pair by its high byte, SP's neighbours and pc+k by shifting the range: lo and hi are multiples
    of 256). own_bytes=False: the instruction's own bytes are known to lie outside contention."""
    if isinstance(addr, int):
        return cont.lo <= addr < cont.hi
    kind = addr.kind
    if kind == "ir":
        return ir
    if kind == "pc" and not own_bytes:
        return False
    if cont.lo == 0 and cont.hi == 0x10000:
        return True
    if kind == "pair":
        return f"{cont.lo >> 8} <= {addr.high} < {cont.hi >> 8}"
    if kind in ("sp", "pc"):        # sp+k / pc+k leave lo..hi just as sp / pc leaves lo-k..hi-k
        return f"{cont.lo - addr.k} <= {kind} < {cont.hi - addr.k}"
    if kind == "xy" and cont.lo >= 128 and cont.hi <= 0x10000 - 128:   # IX+d wraps outside lo..hi
        return f"{cont.lo} <= {addr.high} < {cont.hi}"
    return f"{cont.lo} <= {addr.expr} < {cont.hi}"


def _may_hit_screen(addr: int | Where) -> bool:
    return not isinstance(addr, int) or SCREEN_ADDR <= addr < SCREEN_ADDR + SCREEN_BYTES


class _Pass:
    """One instruction's timing, built cycle by cycle."""

    def __init__(self, cont: Contention, ir: bool | str, own_bytes: bool,
                 changed: frozenset[str]) -> None:
        self.cont, self.ir, self.own_bytes = cont, ir, own_bytes
        self.changed = changed          # registers the instruction writes (taken tests see them)
        self.when: dict[str, int | str] = {}     # tio / twa / twb -> a Mark's local or an offset
        self.flags: list[Flag] = []     # Flags the taken side's tests need
        self.writes = 0                 # write cycles named so far (twa, twb)

    def cond(self, addr: int | Where, taken: bool) -> bool | str:
        cond = wait_condition(addr, self.cont, self.ir, self.own_bytes)
        if taken and isinstance(cond, str) and isinstance(addr, Where) \
                and set(addr.regs) & self.changed:
            self.flags.append(Flag(f"ck{len(self.flags)}", cond))
            return self.flags[-1].name
        return cond

    def cycles(self, cycles: list[Cycle], offset: int,
               taken: bool = False) -> tuple[list[Any], int]:
        """The steps of a run of cycles starting at offset; returns (steps, offset after them)."""
        steps: list[Any] = []
        k = 0
        while k < len(cycles):
            c = cycles[k]
            if c.kind == "IO":
                steps += self.io(c.addr, offset)
                offset += TLEN["IO"]
                k += 1
                continue
            run = [c]                   # consecutive cycles on one address share one test
            while k + len(run) < len(cycles) and cycles[k + len(run)].addr == c.addr \
                    and cycles[k + len(run)].kind != "IO" and run[-1].kind != "W":
                run.append(cycles[k + len(run)])
            cond = self.cond(c.addr, taken)
            offsets: list[int] = []
            for cy in run:
                offsets.append(offset)
                offset += TLEN[cy.kind]
            if cond:
                steps.append(Wait(cond, tuple(offsets)))
            k += len(run)
            if run[-1].kind == "W":
                steps += self.write(c.addr, offset, cycles[k:])
        return steps, offset

    def write(self, addr: int | Where, offset: int, rest: list[Cycle]) -> list[Mark]:
        """The T-state of a write ending at offset: a Mark if a later cycle may still wait."""
        name = ("twa", "twb")[self.writes]
        self.writes += 1
        later = [wait_condition(x.addr, self.cont, self.ir, self.own_bytes) for x in rest]
        if _may_hit_screen(addr) and any(w is not False for w in later):
            self.when[name] = name
            return [Mark(name, offset)]
        self.when[name] = offset
        return []

    def io(self, port: int | Where, offset: int) -> list[PortWait]:
        """An I/O cycle (its port is always known only at run time): the port rule; access: tio."""
        self.when["tio"] = "tio"
        return [PortWait(port.expr if isinstance(port, Where) else str(port), offset)]


def io_offset(ins: Instr) -> int | None:
    """The T-state offset of an instruction's I/O access (after the first T of its I/O cycle), or
    None."""
    offset = 0
    for c in ins.cycles:
        if c.kind == "IO":
            return offset + 1
        offset += TLEN[c.kind]
    return None


def timing(ins: Instr, cont: Contention | None, ir: bool | str = False,
           own_bytes: bool = True) -> Timing:
    """The Timing of instruction record ins under contention cont (None: no contention). ir says
    whether I is contended (True/False, or the expression that tells at run time). When ins.addr is
    not a number (an interpreter template), the cycles on its own bytes are tested together first,
    so code outside contended memory pays one test; own_bytes=False leaves them out (code known to
    lie outside)."""
    if cont is None:
        io = io_offset(ins)
        return Timing(when={} if io is None else {"tio": io})
    p = _Pass(cont, ir, own_bytes, ins.writes)
    main = ins.cycles
    lead = 0
    if not isinstance(ins.addr, int):
        while lead < len(main) and not isinstance(main[lead].addr, int) \
                and main[lead].addr.kind == "pc":
            lead += 1
    head, offset = p.cycles(main[:lead], 0)
    if len(head) > 1:
        head = [Within(f"{cont.lo - ins.length + 1} <= pc < {cont.hi}", head)]
    body, offset = p.cycles(main[lead:], offset)
    taken, _ = p.cycles(ins.taken_cycles, offset, taken=True)
    return Timing(head + body + p.flags, taken, p.when)
