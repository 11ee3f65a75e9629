"""Operands for the one decoder (z80_decode.py): real bytes when compiling a block at a real
address, or `Expr` expressions read at run time when making the interpreter's per-opcode functions
(`Template`); and `Fields`, the decoded fields of one unprefixed (or DD/FD-prefixed) opcode. No code
is generated here."""
from typing import Any

from .z80_tables import FLAG_C, FLAG_PV, FLAG_S, FLAG_Z

R8 = ("b", "c", "d", "e", "h", "l", "", "a")             # r field; 6 is (HL), no register
R8N = ("B", "C", "D", "E", "H", "L", "(HL)", "A")
RP = ("bc", "de", "hl", "sp")
RPN = ("BC", "DE", "HL", "SP")
RP2N = ("BC", "DE", "HL", "AF")
CC = ("not f & 64", "f & 64", "not f & 1", "f & 1", "not f & 4", "f & 4", "not f & 128", "f & 128")
CC_FLAG = (FLAG_Z, FLAG_Z, FLAG_C, FLAG_C, FLAG_PV, FLAG_PV, FLAG_S, FLAG_S)   # the bit each tests
CCN = ("NZ", "Z", "NC", "C", "PO", "PE", "P", "M")


def s8(x: "Val") -> "Val":
    """A displacement byte as a signed number (or the expression that makes it one)."""
    if isinstance(x, Expr):
        return Expr(f"(({x} ^ 128) - 128)")
    return x - 256 if x & 128 else x


class Expr(str):
    """A value known only when the code runs (an operand byte read from memory, or the instruction's
    own address `pc`), written as the Python expression that computes it. The decoder's arithmetic
    on operands (nn + 1, ret >> 8, ...) builds bigger expressions, so one decoder serves both back
    ends: constants for compiled blocks, expressions for the interpreter's per-opcode functions.
    `off` is the byte offset from the instruction's address while the expression is still `pc + off`
    (how Template knows what is read)."""
    __slots__ = ("off",)
    off: int | None

    def __new__(cls, text: str, off: int | None = None) -> "Expr":
        e = super().__new__(cls, text)
        e.off = off
        return e

    def _op(self, sym: str, other: object, off: int | None = None) -> "Expr":
        return Expr(f"({self} {sym} {other})", off)

    def __add__(self, k: object) -> "Expr":
        off = self.off + k if self.off is not None and isinstance(k, int) else None
        return self._op("+", k, off)

    def __sub__(self, k: object) -> "Expr":
        return self._op("-", k)

    def __and__(self, k: object) -> "Expr":
        return self._op("&", k, self.off if k == 65535 else None)

    def __or__(self, k: object) -> "Expr":
        return self._op("|", k)

    def __xor__(self, k: object) -> "Expr":
        return self._op("^", k)

    def __lshift__(self, k: object) -> "Expr":
        return self._op("<<", k)

    def __rshift__(self, k: object) -> "Expr":
        return self._op(">>", k)

    __radd__, __rand__, __ror__ = __add__, __and__, __or__

    def __format__(self, spec: str) -> str:
        return str(self)


Val = int | Expr      # a value known while decoding, or the expression that reads it at run time


def index_ref(px: str, d: Val) -> str:
    """(IX+d) as a mnemonic shows it: `(IX+5)`, `(IY-3)`, or `(IX+d)` when d is read at run time
    (an Expr has no sign to show)."""
    if isinstance(d, Expr):
        return f"({px.upper()}+d)"
    return f"({px.upper()}{'+' if d >= 0 else '-'}{abs(d)})"


class Template:
    """Memory as the interpreter's decoder sees one instruction: the opcode bytes (prefixes, opcode,
    the DDCB opcode after its displacement) are real, every other byte is the expression that reads
    it at run time (`o1`, `o2`, ...). Index with Expr values at known offsets from `pc`."""

    def __init__(self, opcode_bytes: dict[int, int]) -> None:
        self.bytes = opcode_bytes           # {offset: byte value}

    def __getitem__(self, where: Expr) -> Val:
        off = where.off
        if off in self.bytes:
            return self.bytes[off]
        return Expr(f"o{off}")


class Fields:
    """The fields of one unprefixed (or DD/FD-prefixed) opcode `op` at op_addr (addr is the
    instruction's, the prefix's when there is one): x y z p of the opcode, its operand bytes, and
    what HL means under the prefix (px: 'ix', 'iy' or None)."""
    __slots__ = ("addr", "op", "px", "x", "y", "z", "p", "b1", "b2", "nn", "pre", "hl", "PX",
                 "iaddr", "mref", "imm1")

    def __init__(self, mem: Any, addr: Val, op_addr: Val, op: int, px: str | None) -> None:
        self.addr, self.op, self.px = addr, op, px
        self.b1 = b1 = mem[(op_addr + 1) & 65535]
        self.b2 = b2 = mem[(op_addr + 2) & 65535]
        self.pre = 1 if px else 0
        self.x, self.y, self.z = op >> 6, (op >> 3) & 7, op & 7
        self.p = self.y >> 1
        self.nn = b1 | b2 << 8
        self.hl = px if px else "(h << 8 | l)"
        self.PX = px.upper() if px else "HL"
        if px:                                       # (IX+d): displacement, then any immediate
            d = s8(b1)
            self.iaddr = f"({px} + {d}) & 65535" if d else px
            self.mref = index_ref(px, d)
            self.imm1 = b2
        else:
            self.iaddr = "(h << 8 | l)"
            self.mref = "(HL)"
            self.imm1 = b1

    def length(self, n: int) -> int:
        return self.pre + n

    def target(self, n: int) -> Val:
        return (self.addr + self.length(n)) & 65535

    def rel(self) -> Val:
        """JR/DJNZ destination."""
        return (self.addr + self.length(2) + s8(self.b1)) & 65535

    def rpn(self, p: int) -> str:
        return RPN[p] if p != 2 else self.PX

    def pair_regs(self, p: int) -> tuple[str, ...]:
        """The locals of register pair p (BC DE HL SP; HL is IX/IY under a prefix)."""
        if p == 2 and self.px:
            return (self.px,)
        return ("sp",) if p == 3 else tuple(RP[p])

    def r8(self, i: int) -> tuple[str, tuple[str, ...]]:
        """(expression, locals read) of 8-bit register field i (H, L: IXH, IXL under a prefix)."""
        if self.px and i in (4, 5):
            return (f"({self.px} >> 8)" if i == 4 else f"({self.px} & 255)"), (self.px,)
        return R8[i], (R8[i],)

    def set8(self, i: int, expr: str) -> tuple[list[str], tuple[str, ...], tuple[str, ...]]:
        """(lines, locals written, locals kept) that set 8-bit register field i to expr."""
        px = self.px
        if px and i == 4:
            return [f"{px} = ({px} & 255) | (({expr}) << 8)"], (px,), (px,)
        if px and i == 5:
            return [f"{px} = ({px} & 65280) | ({expr})"], (px,), (px,)
        return [f"{R8[i]} = {expr}"], (R8[i],), ()

    def rn(self, i: int) -> str:
        if self.px and i in (4, 5):
            return self.px.upper() + "HL"[i - 4]
        return R8N[i]
