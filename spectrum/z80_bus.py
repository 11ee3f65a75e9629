"""The bus-cycle language of the opcode tables, and the 48K's contention rule. Each opcode's row
(BASE in z80_decode.py, ED and CB in z80_decode_ed.py) gives its machine cycles as a pattern; its
T-states and M1 count are the pattern's sum, so the interpreter, the block compiler and the
contention pass (z80_timing.py) all read one number from one place. Here: the kinds of cycle and
their lengths, a row, and a pattern resolved to the addresses of one instruction. It is not the
decoder and runs nothing; FUSE's event lists (MC/MR/MW/PC/PR/PW) check the rows instruction by
instruction (tests/spectrum/test_z80_bus.py).

A pattern is a string of cycles `KIND.where`, optionally `*n` for n identical cycles:
  F  opcode fetch, 4 T (M1)         R  memory read, 3 T          W  memory write, 3 T
  N  1 T with the address still on the bus (no memory request; contended like an access)
  IO an I/O cycle, 4 T, contended by the port's own rule (io_steps)
`where` is `pc` (the instruction's first byte), `op` (the byte after a prefix, else pc), either
plus an offset (`op+1`), a register pair (`hl`, `bc`, `de`, `sp`, `sp+1`, `sp-1`, `sp-2`), `ir` (I
and R on the address bus), `nn` / `nn+1` (the 16-bit operand after op), `xy` (IX+d or IY+d, d after
op), `an` (A and the operand: IN A,(n)) or `bc-` (B-1 and C: OUTI's port). Sources: the
comp.sys.sinclair FAQ's contention tables and Fuse's z80 core comments (facts only)."""
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import hw

TLEN = {"F": 4, "R": 3, "W": 3, "N": 1, "IO": 4}
_TOKEN = re.compile(r"(F|R|W|N|IO)\.(pc|op|pc\+\d|op\+\d|hl|bc|de|sp|sp\+1|sp-1|sp-2|ir|nn|nn\+1"
                    r"|xy|an|bc-)(?:\*(\d))?")


@dataclass(frozen=True, slots=True)
class Pattern:
    """Machine cycles as a row writes them (`text`), each as (kind, where), and their sums: the
    T-states they take and the opcode fetches among them (M1 cycles, which R counts)."""
    text: str
    steps: tuple[tuple[str, str], ...]
    tstates: int
    m1: int


def pattern(text: str) -> Pattern:
    """The Pattern of a string of cycles; ValueError naming the token that is not one."""
    steps: list[tuple[str, str]] = []
    for tok in text.split():
        m = _TOKEN.fullmatch(tok)
        if m is None:
            raise ValueError(f"{tok!r} in the cycle pattern {text!r} is not KIND.where[*n]")
        steps += [(m[1], m[2])] * int(m[3] or 1)
    return Pattern(text, tuple(steps), sum(TLEN[k] for k, _ in steps),
                   sum(k == "F" for k, _ in steps))


@dataclass(frozen=True, slots=True)
class Row:
    """One opcode of a table: its mnemonic, the decoder's handler that makes its record, its bus
    cycles, the cycles it adds when its branch is taken (or a block instruction repeats), and its
    cycles after a DD/FD prefix (`xy`: the (IX+d) form's own, or the prefix's fetch then its
    own)."""
    mn: str
    handler: str
    cycles: Pattern
    taken: Pattern
    xy: Pattern


def row(ops: int | Iterable[int], mn: str, handler: str, cycles: str, taken: str = "",
        xy: str = "") -> tuple[int | Iterable[int], "Row"]:
    """(opcodes, Row) for a table: ops is one opcode or several sharing mnemonic, handler and
    cycles; xy, when given, is the (IX+d) form's pattern."""
    return ops, Row(mn, handler, pattern(cycles), pattern(taken), pattern(xy or "F.pc " + cycles))


def table(*rows: tuple[int | Iterable[int], "Row"], fill: "Row | None" = None) -> list["Row"]:
    """A 256-slot list of Rows from (opcodes, Row) pairs, the slots no pair names holding `fill`;
    ValueError for a slot named twice, or left empty without a fill."""
    out: list[Row | None] = [None] * 256
    for ops, r in rows:
        for op in ([ops] if isinstance(ops, int) else ops):
            prev = out[op]
            if prev is not None:
                raise ValueError(f"opcode {op:02X} has two rows: {prev.mn!r}, {r.mn!r}")
            out[op] = r
    full = [r or fill for r in out]
    empty = [f"{op:02X}" for op, r in enumerate(full) if r is None]
    if empty:
        raise ValueError(f"opcodes without a row: {' '.join(empty)}")
    return [r for r in full if r is not None]


@dataclass(frozen=True, slots=True)
class Where:
    """An address known only when the instruction runs, as the Python expression that computes it
    from the registers as the instruction starts, with what the contention rule needs to test it
    cheaply: `kind` is 'pc' (the instruction's own bytes, pc + k), 'pair' (a register pair, `high`
    its high byte's register), 'sp' (sp + k), 'xy' (IX+d / IY+d, `high` the sum before the 16-bit
    wrap), 'ir' (I and R on the bus) or 'other'."""
    kind: str
    expr: str
    k: int = 0
    high: str = ""
    regs: tuple = ()       # the registers it is computed from

    def __str__(self) -> str:
        return self.expr


@dataclass(frozen=True, slots=True)
class Cycle:
    kind: str          # F R W N IO
    addr: int | Where  # an int (known when decoding) or a Where


_REG_ADDR = {
    "hl": Where("pair", "(h << 8 | l)", high="h", regs=("h", "l")),
    "bc": Where("pair", "(b << 8 | c)", high="b", regs=("b", "c")),
    "de": Where("pair", "(d << 8 | e)", high="d", regs=("d", "e")),
    "sp": Where("sp", "sp", regs=("sp",)),
    "sp+1": Where("sp", "((sp + 1) & 65535)", 1, regs=("sp",)),
    "sp-1": Where("sp", "((sp - 1) & 65535)", -1, regs=("sp",)),
    "sp-2": Where("sp", "((sp - 2) & 65535)", -2, regs=("sp",)),
    "bc-": Where("other", "(((b - 1) & 255) << 8 | c)", regs=("b", "c")),
    "ir": Where("ir", "IR"),
}


def resolve(pat: Pattern, mem: Any, pc: Any, op: int = 0, px: str | None = None) -> list[Cycle]:
    """[Cycle] of pattern pat for the instruction at pc, each address resolved: an int when mem
    holds real bytes and pc is an int (the block compiler), a Where when they are expressions (the
    interpreter's templates: pc is `pc`, operands `o1`...). op: the offset of the byte after a
    prefix (0 without one); px: 'ix' or 'iy' for `xy`. Register addresses are those of the
    registers as the instruction starts."""
    seen: dict[str, int | Where] = {}
    out = []
    for kind, where in pat.steps:
        addr = seen.get(where)
        if addr is None:
            addr = seen[where] = _address(where, mem, pc, op, px)
        out.append(Cycle(kind, addr))
    return out


def _address(where: str, mem: Any, pc: Any, op: int, px: str | None) -> int | Where:
    """The address `where` names for the instruction at pc (see resolve)."""
    def byte(k: int) -> Any:              # an int, or an operand read at run time
        return mem[(pc + k) & 65535]

    if where.startswith(("op", "pc")):
        k = (op if where.startswith("op") else 0) + (int(where[3:]) if len(where) > 2 else 0)
        at = (pc + k) & 65535 if k else pc
        return at if isinstance(at, int) else Where("pc", str(at), k)
    if where in ("nn", "nn+1"):
        nn = byte(op + 1) | byte(op + 2) << 8
        at = (nn + 1) & 65535 if where == "nn+1" else nn
        return at if isinstance(at, int) else Where("other", str(at))
    if where == "xy":
        d = byte(op + 1)
        d = (d - 256 if d & 128 else d) if isinstance(d, int) else f"(({d} ^ 128) - 128)"
        return Where("xy", f"(({px} + {d}) & 65535)", high=f"({px} + {d})", regs=(px,))
    if where == "an":
        return Where("other", f"(a << 8 | {byte(op + 1)})", regs=("a",))
    return _REG_ADDR[where]


# ---------------------------------------------------------------- the 48K's contention
@dataclass(frozen=True)
class Contention:
    """Who is held up and by how much: an access to lo <= address < hi (or an I/O cycle by the port
    rule) starting at T-state t waits delays[t] T-states. A CPU with contention runs one frame at a
    time (t is the frame's T-state; the table covers a frame plus the longest instruction)."""
    delays: bytes
    lo: int = hw.CONTENDED_LO
    hi: int = hw.CONTENDED_HI

    @property
    def longest(self) -> int:
        """The longest single wait (blocks keep room for it before their limit)."""
        if self.delays not in _LONGEST:
            _LONGEST[self.delays] = max(self.delays)
        return _LONGEST[self.delays]


_LONGEST: dict[bytes, int] = {}


def delays_48k() -> bytes:
    """The 48K's delay for an access starting at each T-state of a frame (plus room for overrun)."""
    out = bytearray(hw.TSTATES_PER_FRAME + 256)
    for line in range(hw.SCREEN_H):
        start = hw.CONTENTION_FIRST_TSTATES + line * hw.TSTATES_PER_LINE
        for k in range(hw.CONTENTION_LINE_TSTATES):
            out[start + k] = hw.CONTENTION_DELAYS[k % 8]
    return bytes(out)


CONTENTION_48K = Contention(delays_48k())


def io_steps(port_contended: bool, ula_port: bool) -> tuple[tuple[bool, int], ...]:
    """The 48K's I/O cycle as (contended?, T-states) steps: the access comes after the first."""
    if ula_port:
        return ((port_contended, 1), (True, 3))        # C:1,C:3 or N:1,C:3
    if port_contended:
        return ((True, 1), (True, 1), (True, 1), (True, 1))
    return ((False, 1), (False, 3))
