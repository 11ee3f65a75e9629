"""The block compiler's passes, each a small function over instruction records (z80_records.py):
trace a path, nest the taken sides of a loop, place each instruction (its T-state and M1 count into
the block, how the block goes on after it), find dead flags and MEMPTR, the writes that may hit the
block's own code, the registers to load and store, and the room a block keeps before its limit. The
result is a Block plan; z80_emit.py writes it as Python. Nothing here makes or reads code."""
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .z80_records import BRANCH, HALT, JUMP, NEXT, REGS, STOP, Instr, Store
from .z80_tables import ALL_FLAGS
from .z80_timing import Timing

MEMPTR_BIT = 0x100      # liveness: the bits of F, and MEMPTR above them
ALL_LIVE = ALL_FLAGS | MEMPTR_BIT

# how a block goes on after a step (Step.then)
ON = "on"               # falls through to the next step
FOLLOW = "follow"       # an unconditional jump, followed: the next step is at its target
SIDE_EXIT = "side exit"     # a branch whose taken side leaves the block; on: its fall-through
NESTED = "nested"       # a branch whose taken side is inline (Step.side), back to the start
RETURN = "return"       # a RET predicted to return after the CALL followed here: leave if not
LAST = "last"           # the block's last instruction


@dataclass(slots=True, eq=False)
class Step:
    """One instruction record placed in a block."""
    ins: Instr
    timing: Timing
    at: int                     # T-states into the iteration when it starts (before its waits)
    m1: int                     # M1 cycles into the iteration, its own included
    qmask: str                  # what the Q latch lets through of F for it: '0', '255' or '~S.q'
    then: str = ON
    side: list = field(default_factory=list)    # NESTED: the taken side's steps
    guard: list = field(default_factory=list)   # when its writes hit the block's code (conditions)
    side_guard: list = field(default_factory=list)   # NESTED: the same for its taken side's writes
    # an Exit ending its taken side (SIDE_EXIT), or guarding it (NESTED)
    taken_exit: "Exit | None" = None
    after_exit: "Exit | None" = None    # an Exit right after it: writes hit the code, RET elsewhere
    end: list = field(default_factory=list)     # LAST: its ways out (Exit/LoopBack; taken first)
    keep_flags: bool = True     # False: the flags it computes are dead (its FlagLines are left out)
    keep_memptr: bool = True    # False: the MEMPTR it sets is dead


@dataclass(slots=True)
class Exit:
    """Leaving the block for `target` (an address, or the local holding it) `tstates` T-states and
    `m1` M1 cycles into this iteration, the Q latch then `q`; when `when` holds ('': always)."""
    target: object
    tstates: int
    m1: int
    q: str
    when: str = ""


@dataclass(slots=True)
class LoopBack:
    """Back to the block's start, `tstates` T-states and `m1` M1 cycles on, unless the limit is too
    near or `unless` holds (its writes hit the block's code): then leave for the start."""
    tstates: int
    m1: int
    q: str
    unless: str = ""


@dataclass(slots=True, eq=False)
class Block:
    """The plan of one compiled block."""
    start: int
    steps: list
    loop: bool                  # its last instruction jumps back to its start: it loops in place
    ranges: list                # [lo, hi) spans of the code it was compiled from
    loads: list                 # registers it keeps in locals
    stores: list                # ... and writes back
    room: int                   # T-states it needs before its limit (so every instruction starts)
    bulk_copy: bool = False     # a lone LDIR: the bulk copy goes first


# ---------------------------------------------------------------- tracing
def trace(decode: Callable[[int], Instr], p: int, start: int, budget: int,
          stops: Collection[int], volatile: Collection[int],
          calls: Iterable[object] = ()) -> list[Instr]:
    """A linear run of instruction records from p: follows unconditional jumps, calls and predicted
    returns, and the fall-through side of branches; stops at a jump back to start, at an address in
    stops (traps), before an instruction holding a volatile byte, at HALT / EI-like instructions, or
    after budget."""
    path: list[Instr] = []
    seen: set[int] = set()
    stack = list(calls)
    while True:
        ins = decode(p)
        if path and p + ins.length > 0x10000:
            break
        if volatile and any((p + k) & 0xFFFF in volatile for k in range(ins.length)):
            break                                   # code seen to change: the interpreter runs it
        path.append(ins)
        seen.add(p)
        nxt = _next_in_path(ins, start, stack)
        if nxt is None or len(path) >= budget or nxt >= 0x10000 or nxt in seen or nxt in stops \
                or nxt == start:
            break
        p = nxt
    return path


def _next_in_path(ins: Instr, start: int, calls: list[object]) -> Any:
    """Where a path goes on after ins, or None (it ends the path)."""
    fall = ins.addr + ins.length
    if ins.flow == NEXT:
        return fall
    if ins.flow in (HALT, STOP) or ins.target == start:
        return None
    if ins.followable:
        if ins.call_return is not None:
            calls.append(ins.call_return)
        return ins.target
    if ins.flow == BRANCH and ins.target != fall & 0xFFFF:
        return fall
    if ins.ret and calls:
        return calls.pop()
    return None


def loops(path: list[Instr], start: int, stops: Collection[int]) -> bool:
    """Whether the path's last instruction jumps back to its start, so the block loops in place (not
    when the start is trapped, nor when its first instruction reads the Q latch, which the loop
    would carry)."""
    last = path[-1]
    return last.flow in (JUMP, BRANCH) and last.target == start and start not in stops \
        and not path[0].reads_q


def nested_sides(path: list[Instr], start: int,
                 trace_from: Callable[[int, list[object]], list[Instr]],
                 stops: Collection[int]) -> dict[int, list[Instr]]:
    """{index: side path} for the branches of a looping path whose taken side also comes back to
    start (an if/else inside a loop then runs without leaving the block). trace_from(p, calls)
    traces a side."""
    sides: dict[int, list[Instr]] = {}
    for n, ins in enumerate(path[:-1]):
        if ins.flow == BRANCH and isinstance(ins.target, int) and ins.target != ins.next_addr \
                and ins.target not in stops:
            side = trace_from(ins.target, [ins.call_return] if ins.call_return is not None else [])
            if side and side[-1].flow in (JUMP, BRANCH) and side[-1].target == start:
                sides[n] = side
    return sides


def code_ranges(paths: list[list[Instr]]) -> list[list[int]]:
    """The [lo, hi) spans of memory the instructions of these paths occupy, merged."""
    ranges: list[list[int]] = []
    for lo, hi in sorted((i.at, i.at + i.length) for p in paths for i in p):
        if ranges and lo <= ranges[-1][1]:
            ranges[-1][1] = max(ranges[-1][1], hi)
        else:
            ranges.append([lo, hi])
    return ranges


# ---------------------------------------------------------------- placing
def place(path: list[Instr], timings: Callable[[Instr], Timing],
          sides: dict[int, list[Instr]] | None = None, at: int = 0, m1: int = 0,
          before: Instr | None = None) -> list["Step"]:
    """Steps for a path starting `at` T-states and `m1` M1 cycles into the iteration, after
    instruction `before` (None: the block's start); sides are the nested taken sides by index."""
    sides = sides or {}
    steps: list[Step] = []
    for n, ins in enumerate(path):
        m1 += ins.m1
        qmask = "~S.q" if before is None else ("0" if before.flags_computed else "255")
        step = Step(ins, timings(ins), at, m1, qmask, _then(ins, n == len(path) - 1, n in sides))
        if step.then == NESTED:
            step.side = place(sides[n], timings, None, at + ins.taken_tstates, m1, ins)
        steps.append(step)
        at += ins.taken_tstates if step.then in (FOLLOW, RETURN) else ins.tstates
        before = ins
    return steps


def _then(ins: Instr, last: bool, nested: bool) -> str:
    if last:
        return LAST
    if ins.flow == NEXT:
        return ON
    if ins.followable:
        return FOLLOW
    if ins.flow == BRANCH:
        return NESTED if nested else SIDE_EXIT
    return RETURN


# ---------------------------------------------------------------- dead flags and MEMPTR
def kills_and_uses(ins: Instr) -> tuple[int, int]:
    """(bits it always overwrites, bits whose value as it starts it uses): flags, and MEMPTR_BIT."""
    kills, uses = ins.flags_written, ins.flags_read
    if "wz" in ins.reads:
        uses |= MEMPTR_BIT
    elif "wz" in ins.writes:
        kills |= MEMPTR_BIT
    return kills, uses


def leaves_after(step: Step) -> bool:
    """Whether the block may be left right after this step (everything is live there)."""
    return step.then == LAST or step.taken_exit is not None or step.after_exit is not None


def dead_values(steps: list[Step], live: int = ALL_LIVE) -> int:
    """Backwards over steps (live: what is read after the last one): marks each step's flags and
    MEMPTR as dead when nothing reads them before they are written again or the block is left;
    returns what is live before the first step."""
    for step in reversed(steps):
        if leaves_after(step):
            live = ALL_LIVE
        if step.then == NESTED:
            live |= dead_values(step.side)
        kills, uses = kills_and_uses(step.ins)
        step.keep_flags = not step.ins.flags_written or bool(step.ins.flags_written & live)
        step.keep_memptr = "wz" not in step.ins.writes or bool(MEMPTR_BIT & live)
        live = (live & ~kills) | uses
    return live


# ---------------------------------------------------------------- writes into the block's own code
def write_guard(stores: list[Store], ranges: list[list[int]], rom_top: int) -> list[str]:
    """Conditions under which these stores write into the block's code (the block must leave then):
    a static address is decided now, a run-time one tested with one cheap range test first."""
    conds: list[str] = []
    for st in stores:
        if isinstance(st.addr, int):
            if st.addr >= rom_top and any(lo <= st.addr < hi for lo, hi in ranges):
                conds.append("True")
        elif len(ranges) == 1:
            conds.append(f"{ranges[0][0]} <= {st.name} < {ranges[0][1]}")
        else:
            exact = " or ".join(f"{lo} <= {st.name} < {hi}" for lo, hi in ranges)
            conds.append(f"({ranges[0][0]} <= {st.name} < {ranges[-1][1]} and ({exact}))")
    return conds


def guard_writes(steps: list[Step], ranges: list[list[int]], rom_top: int) -> None:
    """Sets each step's guards: for the writes of its body, tested where the block goes on after it;
    for a nested side's writes, at the start of the side; for the last instruction of a loop, all
    its writes (tested before it loops)."""
    for step in steps:
        body = [x for x in step.ins.body if isinstance(x, Store)]
        taken = [x for x in step.ins.taken if isinstance(x, Store)]
        step.guard = write_guard(body + taken if step.then == LAST else body, ranges, rom_top)
        if step.then == NESTED:
            step.side_guard = write_guard(taken, ranges, rom_top)
            guard_writes(step.side, ranges, rom_top)


# ---------------------------------------------------------------- how exits are made
def make_exits(steps: list[Step], loop: bool) -> None:
    """Sets each step's exits: a branch's taken side leaving, a guard after writes that may hit the
    code, a predicted RET that went elsewhere, and how the last instruction leaves (or, in a loop,
    goes back to the start)."""
    for n, step in enumerate(steps):
        ins, start_t = step.ins, step.at
        nxt = steps[n + 1].ins.addr if n + 1 < len(steps) else None
        taken = Exit(ins.target, start_t + ins.taken_tstates, step.m1, ins.q_after)
        if step.then == LAST:
            step.end = _leave(step, taken, loop)
            continue
        if step.then == SIDE_EXIT:
            step.taken_exit = taken
        elif step.then == NESTED:
            if step.side_guard:
                step.taken_exit = Exit(ins.target, taken.tstates, step.m1, taken.q,
                                       " or ".join(step.side_guard))
            make_exits(step.side, loop)
        if step.then == RETURN:
            step.after_exit = Exit(ins.target, taken.tstates, step.m1, taken.q,
                                   f"{ins.target} != {nxt}")
        elif step.guard:
            next_t = start_t + (ins.taken_tstates if step.then == FOLLOW else ins.tstates)
            step.after_exit = Exit(nxt, next_t, step.m1, ins.q_after, " or ".join(step.guard))


def _leave(step: Step, taken: Exit, loop: bool) -> list[Exit | LoopBack]:
    """[taken way (BRANCH/JUMP), way on] of a block's last instruction (loops: back to start if it
    jumps)."""
    ins, start_t, m1, q = step.ins, step.at, step.m1, step.ins.q_after
    way: Exit | LoopBack = taken
    if loop:
        way = LoopBack(taken.tstates, m1, q, " or ".join(step.guard))
    on = Exit(ins.next_addr, start_t + ins.tstates, m1, q)
    if ins.flow == HALT:
        return []                                   # (the block returns BlockExit.HALT there)
    if ins.flow == BRANCH:
        return [way, on]
    return [way] if ins.flow == JUMP else [on]


# ---------------------------------------------------------------- registers and room
def registers(steps: list[Step]) -> tuple[list[str], list[str]]:
    """(loads, stores): every register the block's instructions use, and those they may change."""
    used: set[str] = set()
    written: set[str] = set()
    for step in walk(steps):
        used |= step.ins.reads | step.ins.writes
        written |= step.ins.writes
    return [r for r in REGS if r in used], [r for r in REGS if r in written]


def walk(steps: list[Step]) -> Iterator[Step]:
    """Every step, nested sides included."""
    for step in steps:
        yield step
        yield from walk(step.side)


def room(steps: list[Step], longest_wait: int) -> int:
    """T-states a block needs before its limit so that no instruction starts at or after it: the
    latest start of a last instruction over all paths, plus the longest wait for every wait it may
    meet."""
    latest = max(s.at for s in walk(steps) if s.then == LAST)
    return latest + longest_wait * sum(s.timing.waits() for s in walk(steps))
