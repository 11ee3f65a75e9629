"""One Z80 instruction as data, as the decoder (z80_decode.py) gives it: its bytes' length and
mnemonic, what it reads and writes (registers, flag bits, memory), its bus cycles and the T-states
and M1 cycles they add up to (from its opcode's row), how it can leave a block, and its effect as a
few template lines on locals named after the registers. The passes (z80_passes.py) and the emitter
(z80_emit.py) read these records; nothing reads the code they make."""
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .z80_operands import Expr
from .z80_tables import ALL_FLAGS

# how control leaves an instruction (Instr.flow)
NEXT = "next"        # on to the next instruction
JUMP = "jump"        # always to `target` (JP, JR, CALL, RST, RET, JP (HL), RETN)
BRANCH = "branch"    # to `target` when `cond` holds, else on (JR cc, JP cc, CALL cc, RET cc, DJNZ,
#                      LDIR and the other repeating block instructions)
HALT = "halt"        # HALT: stays, and the CPU idles until an interrupt
STOP = "stop"        # on to the next instruction, but a block ends here: the CPU must see the
#                      state after it (EI or a lone DD/FD prefix: no interrupt right after;
#                      LD A,I / LD A,R: an interrupt right after resets P/V) -- `post` names the
#                      CPU attribute that marks it

# the registers generated code keeps in locals (wz is MEMPTR), in the order blocks load and store
REGS = ("a", "f", "b", "c", "d", "e", "h", "l", "ix", "iy", "sp", "wz",
        "a_", "f_", "b_", "c_", "d_", "e_", "h_", "l_")


def cpu_name(reg: str) -> str:
    """The CPU attribute behind a local (wz is MEMPTR)."""
    return "memptr" if reg == "wz" else reg


class FlagLine(str):
    """A line that computes flags only (nothing else the instruction computes depends on it): left
    out when no flag it writes is read before being written again."""
    __slots__ = ()


class MemptrLine(str):
    """A line that sets MEMPTR only (no later line of the instruction reads it): left out when
    MEMPTR is written again before any read."""
    __slots__ = ()


@dataclass(slots=True)
class Store:
    """A memory write: `value` to `addr` (an int when known while decoding, else an expression; the
    write's local `name`, wa or wb in the order of the instruction's write cycles, holds the
    address). How it is done (ROM dropped, screen writes logged) is the emitter's: it knows the
    machine's memory map."""
    addr: object
    value: int | str      # a number, or the expression of it
    name: str = ""


@dataclass(slots=True, eq=False)
class Instr:
    """One decoded instruction. Its lines are templates: `{io_t}` is the T-state of its I/O
    access, `{m1}` the M1 cycles counted so far (R), `{qmask}` what the Q latch lets through of F
    (SCF/CCF)."""
    addr: int | Expr             # its address (an int, or the expression `pc` for the interpreter)
    length: int
    mn: str
    body: list                   # lines run every time: str, FlagLine, MemptrLine, Store
    reads: frozenset = frozenset()     # registers whose value as it starts is used (or kept)
    writes: frozenset = frozenset()    # registers it may change
    flags_read: int = 0          # bits of F whose value as it starts is used
    flags_written: int = 0       # bits of F it may change
    flags_computed: bool = False  # the Q latch then holds F (EX AF,AF', POP AF only move it: Q = 0)
    reads_q: bool = False        # its flags depend on the Q latch (SCF, CCF: {qmask})
    flow: str = NEXT
    target: object = None        # JUMP/BRANCH: an address, or the expression of it (RET: v)
    cond: str = ""               # BRANCH: the condition, over the locals after `body`
    taken: list = field(default_factory=list)   # BRANCH: lines run only when it jumps
    call_return: object = None   # CALL/RST: the return address it pushes
    ret: bool = False            # RET: returns to the address it pops
    post: str = ""               # STOP: the CPU attribute set to the R count right after it
    # set by the decoder from the opcode's row (z80_bus.Row): its bus cycles and their sums
    cycles: list = field(default_factory=list)        # its bus cycles (z80_bus.Cycle)
    taken_cycles: list = field(default_factory=list)  # the cycles a BRANCH adds when it jumps
    m1: int = 0                  # M1 cycles (opcode fetches: R counts them)
    tstates: int = 0             # T-states to its end when it does not jump (a branch not taken)
    taken_tstates: int = 0       # ... and when it jumps (its cycles and its taken cycles)

    @property
    def next_addr(self) -> int | Expr:
        return (self.addr + self.length) & 0xFFFF

    @property
    def at(self) -> int:
        """Its address as a number: a record decoded from real bytes (the block compiler's) has
        one; a template's (the interpreter's) has only the expression `pc`."""
        if not isinstance(self.addr, int):
            raise TypeError(f"a template's record has no address in memory: {self.addr}")
        return self.addr

    @property
    def q_after(self) -> str:
        """What the Q latch holds after it: the flags if it computed them, else 0."""
        return "f" if self.flags_computed else "0"

    @property
    def stores(self) -> list[Store]:
        """Its memory writes, body then taken side."""
        return [x for x in self.body + self.taken if isinstance(x, Store)]

    @property
    def followable(self) -> bool:
        """An unconditional jump to a known address (a block can go on there)."""
        return self.flow == JUMP and isinstance(self.target, int)


def _regs(spec: str | Iterable[str]) -> frozenset[str]:
    return frozenset(spec.split()) if isinstance(spec, str) else frozenset(spec)


def make(addr: int | Expr, length: int, mn: str, body: Iterable[Any],
         reads: str | Iterable[str] = (), writes: str | Iterable[str] = (), fr: int = 0,
         fw: int = 0, computed: bool | None = None, **flow: Any) -> Instr:
    """An Instr, untimed (the decoder times it from its row: Decoder.decode); reads/writes as 'a b'
    or an iterable of locals; F counts as a register read when bits of it are read or kept, written
    when any is written; by default an instruction that writes flags computes them (the Q latch)."""
    reads, writes = _regs(reads), _regs(writes)
    if fr or 0 < fw < ALL_FLAGS:
        reads |= {"f"}
    if fw:
        writes |= {"f"}
    return Instr(addr, length, mn, list(body), reads, writes, fr, fw,
                 bool(fw) if computed is None else computed, **flow)
