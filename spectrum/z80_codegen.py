"""Z80 decoder: turns the instruction bytes at an address into an Instr whose effect is a few lines of Python
(on locals named after the registers), with real operands for compiled blocks or operand expressions
(Expr, Template) for the interpreter's per-opcode functions; plus the precomputed flag tables. It is not
the CPU: spectrum/z80.py traces, compiles, caches and runs blocks, spectrum/z80_interp.py the op functions."""
import re

import numpy as np

from . import z80_bus
from .hw import SCREEN_ADDR, SCREEN_BYTES

# ---------------------------------------------------------------- flag tables (bit: S Z 5 H 3 P/V N C)
_v = np.arange(256)
_par = np.array([bin(x).count("1") % 2 == 0 for x in range(256)], dtype=np.int64) * 4
_SZ53 = (_v & 0xA8) | np.where(_v == 0, 0x40, 0)
SZ53 = bytes(_SZ53.astype(np.uint8))                      # S, Z, 5, 3 of a value
SZ53P = bytes((_SZ53 | _par).astype(np.uint8))            # ... plus parity (logic ops, IN, rotates)
ANDF = bytes((_SZ53 | _par | 0x10).astype(np.uint8))      # AND sets H


def _addsub_tables():
    c = np.arange(2)[:, None, None]
    a = np.arange(256)[None, :, None]
    v = np.arange(256)[None, None, :]
    r = a + v + c                                          # ADD/ADC: index carry<<16 | a<<8 | v
    add = _SZ53[r & 255] | (((a & 15) + (v & 15) + c) & 16) | ((((a ^ ~v) & (a ^ r)) & 0x80) >> 5) | (r >> 8)
    r = a - v - c                                          # SUB/SBC: same index
    sub = (_SZ53[r & 255] | (((a & 15) - (v & 15) - c) & 16) | ((((a ^ v) & (a ^ r)) & 0x80) >> 5)
           | ((r >> 8) & 1) | 2)
    cp = (sub[0] & 0xD7) | (v[0] & 0x28)                   # CP: bits 5 and 3 come from the operand
    return (bytes(add.astype(np.uint8).ravel()), bytes(sub.astype(np.uint8).ravel()),
            bytes(cp.astype(np.uint8).ravel()))


ADDF, SUBF, CPF = _addsub_tables()
INCF = bytes(SZ53[(x + 1) & 255] | (0x10 if x & 15 == 15 else 0) | (4 if x == 0x7F else 0) for x in range(256))
DECF = bytes(SZ53[(x - 1) & 255] | 2 | (0x10 if x & 15 == 0 else 0) | (4 if x == 0x80 else 0) for x in range(256))


def _rot(kind):
    """CB rotate/shift table: index carry_in<<8 | value -> result<<8 | flags."""
    out = []
    for ci in range(2):
        for x in range(256):
            r, c = {
                "RLC": (((x << 1) | (x >> 7)) & 255, x >> 7),
                "RRC": ((x >> 1) | ((x & 1) << 7), x & 1),
                "RL": (((x << 1) | ci) & 255, x >> 7),
                "RR": ((x >> 1) | (ci << 7), x & 1),
                "SLA": ((x << 1) & 255, x >> 7),
                "SRA": ((x >> 1) | (x & 0x80), x & 1),
                "SLL": (((x << 1) | 1) & 255, x >> 7),     # undocumented: shifts a 1 in
                "SRL": (x >> 1, x & 1),
            }[kind]
            out.append(r << 8 | SZ53P[r] | c)
    return out


ROT_NAMES = ("RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SRL")
ROT = {k: _rot(k) for k in ROT_NAMES}
# BIT b,r: H set, Z and P/V when the bit is clear, S for bit 7 set, 5 and 3 from the tested value
BITF = [bytes(0x10 | (x & 0x28) | (0 if x & (1 << b) else 0x44) | (x & 0x80 if b == 7 else 0)
              for x in range(256)) for b in range(8)]


def _daa():
    out = []
    for fi in range(8):          # index (C | N | H>>2) << 8 | a
        cf, nf, hf = fi & 1, fi & 2, fi & 4
        for a in range(256):
            d, c = 0, cf
            if hf or (a & 15) > 9:
                d = 6
            if cf or a > 0x99:
                d |= 0x60
                c = 1
            if nf:
                h = 0x10 if hf and (a & 15) < 6 else 0
                r = (a - d) & 255
            else:
                h = 0x10 if (a & 15) > 9 else 0
                r = (a + d) & 255
            out.append(r << 8 | SZ53P[r] | nf | c | h)
    return out


DAAT = _daa()

TABLES = dict(SZ53=SZ53, SZ53P=SZ53P, ANDF=ANDF, ADDF=ADDF, SUBF=SUBF, CPF=CPF, INCF=INCF, DECF=DECF,
              DAAT=DAAT, **{"R_" + k: v for k, v in ROT.items()}, **{"BIT%d" % b: BITF[b] for b in range(8)})

# ---------------------------------------------------------------- the registers generated code keeps in locals
REGS = ("a", "f", "b", "c", "d", "e", "h", "l", "ix", "iy", "sp", "wz",
        "a_", "f_", "b_", "c_", "d_", "e_", "h_", "l_")
_REG_RE = re.compile(r"\b(" + "|".join(REGS) + r")\b")
_ASSIGN_RE = re.compile(r"\b(" + "|".join(REGS) + r")\s*(?:<<|>>|[-+&|^])?=(?!=)")
_SWAP_RE = re.compile(r"^\s*([a-z_, ]+?) = [a-z_, ]+$", re.M)     # EXX / EX AF,AF': a, f, a_, f_ = ...


def registers_in(text):
    """(registers the code mentions, registers it assigns), in REGS order: what to load and store."""
    used = sorted(set(_REG_RE.findall(text)), key=REGS.index)
    written = set(_ASSIGN_RE.findall(text))
    for names in _SWAP_RE.findall(text):
        written.update(n.strip() for n in names.split(",") if n.strip() in REGS)
    written = sorted(written, key=REGS.index)
    return used, written


def cpu_name(reg):
    """The CPU attribute behind a local (wz is MEMPTR)."""
    return "memptr" if reg == "wz" else reg


# ---------------------------------------------------------------- decode tables
R8 = ("b", "c", "d", "e", "h", "l", None, "a")           # r field; 6 is (HL)
R8N = ("B", "C", "D", "E", "H", "L", "(HL)", "A")
RP = ("bc", "de", "hl", "sp")
RPN = ("BC", "DE", "HL", "SP")
RP2N = ("BC", "DE", "HL", "AF")
CC = ("not f & 64", "f & 64", "not f & 1", "f & 1", "not f & 4", "f & 4", "not f & 128", "f & 128")
CCN = ("NZ", "Z", "NC", "C", "PO", "PE", "P", "M")
ALUN = ("ADD A,", "ADC A,", "SUB ", "SBC A,", "AND ", "XOR ", "OR ", "CP ")

# ALU A,v: code for each operation (v is an expression 0..255)
ALU = (
    ("f = ADDF[a << 8 | {v}]", "a = (a + {v}) & 255"),                                     # ADD A,v
    ("x = f & 1", "f = ADDF[x << 16 | a << 8 | {v}]", "a = (a + {v} + x) & 255"),          # ADC A,v
    ("f = SUBF[a << 8 | {v}]", "a = (a - {v}) & 255"),                                     # SUB v
    ("x = f & 1", "f = SUBF[x << 16 | a << 8 | {v}]", "a = (a - {v} - x) & 255"),          # SBC A,v
    ("a &= {v}", "f = ANDF[a]"),                                                           # AND v
    ("a ^= {v}", "f = SZ53P[a]"),                                                          # XOR v
    ("a |= {v}", "f = SZ53P[a]"),                                                          # OR v
    ("f = CPF[a << 8 | {v}]",),                                                            # CP v
)

# Accumulator rotates and flag ops of the x=0,z=7 column: (opcode, mnemonic, code)
ACC_OPS = (
    (0x07, "RLCA", ("a = ((a << 1) | (a >> 7)) & 255", "f = (f & 196) | (a & 41)")),
    (0x0F, "RRCA", ("f = (f & 196) | (a & 1)", "a = (a >> 1) | ((a & 1) << 7)", "f |= a & 40")),
    (0x17, "RLA", ("x = (a << 1) | (f & 1)", "f = (f & 196) | (a >> 7) | (x & 40)", "a = x & 255")),
    (0x1F, "RRA", ("x = (a >> 1) | ((f & 1) << 7)", "f = (f & 196) | (a & 1) | (x & 40)", "a = x")),
    (0x27, "DAA", ("x = DAAT[((f & 3) | ((f >> 2) & 4)) << 8 | a]", "a = x >> 8", "f = x & 255")),
    (0x2F, "CPL", ("a ^= 255", "f = (f & 197) | (a & 40) | 18")),
    # SCF/CCF: bits 5,3 = (A | (F & ~Q)) & 0x28, Q = the flags if the previous instruction set them, else 0
    # (genuine Zilog parts; D. Banks's Z80Decoder wiki, M. Sainz de Baranda). QMASK is filled in per use.
    (0x37, "SCF", ("f = (f & 196) | ((a | (f & QMASK)) & 40) | 1",)),
    (0x3F, "CCF", ("f = (f & 196) | ((f & 1) << 4) | ((f & 1) ^ 1) | ((a | (f & QMASK)) & 40)",)),
)
ACC = {op: (mn, code) for op, mn, code in ACC_OPS}

IM_MODE = (0, 0, 1, 2, 0, 0, 1, 2)                         # ED 46/4E/56/5E/66/6E/76/7E: IM 0 0 1 2 0 0 1 2

_FOLD_RE = re.compile(r"\bt \+ (\d+) \+ (\d+)\b")


def fold(line):
    """`t + 23 + 4` -> `t + 27` (the T offsets the emitters fill in; Python does not fold them)."""
    return _FOLD_RE.sub(lambda m: f"t + {int(m.group(1)) + int(m.group(2))}", line).replace("t + 0]", "t]")


_PORT_T_RE = re.compile(r"t \+ \{T\} \+ \d+")      # a port access's T-state in PIN(...) / POUT(...)

SEQ, JUMP, HALT, EI = 0, 1, 2, 3                            # instruction kinds
# EI kind: ends its block and runs Instr.post there (EI, a lone DD/FD prefix: no interrupt right after;
# LD A,I / LD A,R: an interrupt right after it resets P/V)
_SETS_F = re.compile(r"^\s*(?:if [^:]*:\s*|else:\s*)?f\s*(?:=|\|=|&=|\^=)(?!=)", re.M)


class Instr:
    __slots__ = ("addr", "length", "mn", "t", "m1", "lines", "kind", "writes", "target", "tk", "tn", "callret",
                 "ret", "branch", "sets_f", "post")

    def __init__(self, addr, length, mn, t, m1, lines, kind=SEQ, writes=(), target=None, tk=None, tn=None,
                 callret=None, ret=False):
        self.addr, self.length, self.mn, self.t, self.m1 = addr, length, mn, t, m1
        self.lines, self.kind, self.writes = lines, kind, writes
        self.target = target         # static jump target, when there is one
        self.tk = tk                 # T-states when the jump is taken (jumps)
        self.tn = tn                 # T-states when a conditional jump falls through (None: unconditional)
        self.callret = callret       # CALL/RST: the return address it pushes
        self.ret = ret               # RET: returns to the address on the stack
        self.branch = None           # conditional jumps: (lines before the test, condition, taken lines, target)
        # computes the flags (Q latch := F); EX AF,AF' and POP AF only move them (Q := 0)
        self.sets_f = bool(_SETS_F.search("\n".join(lines))) and not mn.startswith(("EX AF", "POP AF"))
        self.post = "S._eir = S._rc" if kind == EI else None

    def br(self, pre, cond, taken, target):
        self.branch = (list(pre), cond, list(taken), str(target))
        return self


def _s8(x):
    if isinstance(x, Expr):
        return Expr(f"(({x} ^ 128) - 128)")
    return x - 256 if x & 128 else x


class Expr(str):
    """A value known only when the code runs (an operand byte read from memory, or the instruction's own
    address `pc`), written as the Python expression that computes it. The decoder's arithmetic on operands
    (nn + 1, ret >> 8, ...) builds bigger expressions, so one decoder serves both back ends: constants for
    compiled blocks, expressions for the interpreter's per-opcode functions. `off` is the byte offset from
    the instruction's address while the expression is still `pc + off` (how Template knows what is read)."""
    __slots__ = ("off",)

    def __new__(cls, text, off=None):
        e = super().__new__(cls, text)
        e.off = off
        return e

    def _op(self, sym, other, off=None):
        return Expr(f"({self} {sym} {other})", off)

    def __add__(self, k):
        return self._op("+", k, self.off + k if self.off is not None and isinstance(k, int) else None)

    def __sub__(self, k):
        return self._op("-", k)

    def __and__(self, k):
        return self._op("&", k, self.off if k == 65535 else None)

    def __or__(self, k):
        return self._op("|", k)

    def __xor__(self, k):
        return self._op("^", k)

    def __lshift__(self, k):
        return self._op("<<", k)

    def __rshift__(self, k):
        return self._op(">>", k)

    __radd__, __rand__, __ror__ = __add__, __and__, __or__

    def __ge__(self, k):              # only the mnemonic asks (IX+d or IX-d)
        return True

    def __abs__(self):
        return self

    def __format__(self, spec):
        return str(self)


class Template:
    """Memory as the interpreter's decoder sees one instruction: the opcode bytes (prefixes, opcode, the
    DDCB opcode after its displacement) are real, every other byte is the expression that reads it at run
    time. Index with Expr values at known offsets from `pc`."""

    def __init__(self, opcode_bytes):
        self.bytes = opcode_bytes           # {offset: byte value}
        self.operands = set()               # offsets read as operands: o1, o2, o3 in the code

    def __getitem__(self, where):
        off = where.off
        if off in self.bytes:
            return self.bytes[off]
        self.operands.add(off)
        return Expr(f"o{off}")


POP = ["v = M[sp] | M[(sp + 1) & 65535] << 8", "sp = (sp + 2) & 65535"]


class _Op:
    """The fields of one unprefixed (or DD/FD-prefixed) opcode at q (the opcode byte; addr is the prefix)."""
    __slots__ = ("addr", "op", "px", "x", "y", "z", "p", "qq", "b1", "b2", "nn", "pre", "m1", "hl", "PX",
                 "iaddr", "mref", "imm1")

    def __init__(self, mem, addr, q, op, px):
        self.addr, self.op, self.px = addr, op, px
        self.b1 = b1 = mem[(q + 1) & 65535]
        self.b2 = b2 = mem[(q + 2) & 65535]
        self.pre = 1 if px else 0
        self.m1 = 1 + self.pre
        self.x, self.y, self.z = op >> 6, (op >> 3) & 7, op & 7
        self.p, self.qq = self.y >> 1, self.y & 1
        self.nn = b1 | b2 << 8
        self.hl = px if px else "(h << 8 | l)"
        self.PX = px.upper() if px else "HL"
        if px:                                       # (IX+d): displacement, then any immediate
            d = _s8(b1)
            self.iaddr = f"({px} + {d}) & 65535" if d else px
            self.mref = f"({self.PX}{'+' if d >= 0 else '-'}{abs(d)})"
            self.imm1 = b2
        else:
            self.iaddr = "(h << 8 | l)"
            self.mref = "(HL)"
            self.imm1 = b1

    def length(self, n):
        return self.pre + n

    def target(self, n):
        return (self.addr + self.length(n)) & 65535

    def rel(self):
        """JR/DJNZ destination."""
        return (self.addr + self.length(2) + _s8(self.b1)) & 65535

    def tx(self, base_t, mem_form=False, extra=12):
        """T-states: DD/FD add 4, or `extra` for the (IX+d) forms."""
        if not self.px:
            return base_t
        return base_t + (extra if mem_form else 4)

    def rpn(self, p):
        return RPN[p] if p != 2 else self.PX


class Decoder:
    """Decodes one instruction at an address into an Instr (code lines using the block's locals)."""

    def __init__(self, mem, rom_top, contention=None, own_bytes=True):
        self.mem = mem
        self.rom_top = rom_top
        self.contention = contention        # a z80_bus.Contention: the 48K's waits and screen-write log
        # whether I is contended: True/False when compiling blocks (the CPU recompiles when it changes),
        # or the test read at run time by the interpreter's op functions (shared by every CPU)
        self.ir_contended = "S._ic" if isinstance(mem, Template) else False
        self.own_bytes = own_bytes          # False: the code is known to lie outside contended memory

    # ---- helpers producing code lines
    def wmem(self, var, addr, val):
        """Write val to memory at addr (assigned to var first); the write is dropped below rom_top. With
        contention, a write to the screen goes through S._screen_write with its T-state (twa / twb, set by
        the contention prologue for the first / second write of the instruction)."""
        out = [] if addr == var else [f"{var} = {addr}"]
        if self.contention is not None:
            out.append(f"if {var} >= {SCREEN_ADDR + SCREEN_BYTES}: M[{var}] = {val}")
            out.append(f"elif {var} >= {SCREEN_ADDR}: S._screen_write({var}, {val}, t{var})")
            if self.rom_top < SCREEN_ADDR:
                out.append(f"elif {var} >= {self.rom_top}: M[{var}] = {val}")
        elif self.rom_top:
            out.append(f"if {var} >= {self.rom_top}: M[{var}] = {val}")
        else:
            out.append(f"M[{var}] = {val}")
        return out

    @staticmethod
    def rd16(rp, px):
        if rp == "hl" and px:
            return px
        if rp == "sp":
            return "sp"
        return f"({rp[0]} << 8 | {rp[1]})"

    @staticmethod
    def wr16(rp, px, expr):
        if rp == "hl" and px:
            return [f"{px} = {expr}"]
        if rp == "sp":
            return [f"sp = {expr}"]
        return [f"x = {expr}", f"{rp[0]} = x >> 8", f"{rp[1]} = x & 255"]

    @staticmethod
    def rd8(i, px):
        if px and i == 4:
            return f"({px} >> 8)"
        if px and i == 5:
            return f"({px} & 255)"
        return R8[i]

    @staticmethod
    def wr8(i, px, expr):
        if px and i == 4:
            return [f"{px} = ({px} & 255) | (({expr}) << 8)"]
        if px and i == 5:
            return [f"{px} = ({px} & 65280) | ({expr})"]
        return [f"{R8[i]} = {expr}"]

    @staticmethod
    def rn(i, px):
        if px and i in (4, 5):
            return px.upper() + "HL"[i - 4]
        return R8N[i]

    def push(self, hi, lo):
        return (["sp = (sp - 1) & 65535"] + self.wmem("wa", "sp", hi)
                + ["sp = (sp - 1) & 65535"] + self.wmem("wb", "sp", lo))

    def decode(self, addr):
        """The Instr at addr; with contention, its lines first wait as the 48K's ULA makes them wait."""
        ins = self._decode(addr)
        if self.contention is not None:
            self._contend(ins, addr)
        return ins

    def _contend(self, ins, addr):
        main, taken = z80_bus.cycles(self.mem, addr)
        pro, extra, write_t = z80_bus.contention_code(main, taken, self.contention, self.ir_contended,
                                                      pc_dynamic=not isinstance(addr, int), length=ins.length,
                                                      own_bytes=self.own_bytes)
        io = any(c.kind == "IO" for c in main)

        def timed(lines):           # the port functions get the T-state of the I/O access itself, screen
            out = []                # writes theirs (twa / twb, or the expression when nothing waits after)
            for ln in lines:
                if io and ("PIN(" in ln or "POUT(" in ln):
                    ln = _PORT_T_RE.sub("tio", ln)
                for name, expr in write_t.items():
                    ln = ln.replace(f", {name})", f", {expr})")
                out.append(ln)
            return out
        tail = [f"if tt > {ins.tn}:"] + ["    " + x for x in extra] if extra else []
        ins.lines = pro + timed(ins.lines) + tail
        if ins.branch:
            pre, cond, taken_lines, target = ins.branch
            ins.branch = (pro + timed(pre), cond, taken_lines + extra, target)

    def _decode(self, addr):
        m = self.mem
        op = m[addr]
        if op == 0xCB:
            return self.cb(addr)
        if op == 0xED:
            return self.ed(addr)
        if op in (0xDD, 0xFD):
            px = "ix" if op == 0xDD else "iy"
            op2 = m[(addr + 1) & 65535]
            if op2 == 0xCB:
                return self.xycb(addr, px)
            if z80_bus.prefix_changes(op2):
                return self.base(addr, (addr + 1) & 65535, op2, px)
            return Instr(addr, 1, px.upper() + " prefix (no-op)", 4, 1, [f"npc = {(addr + 1) & 65535}", "tt = 4"], EI)
        return self.base(addr, addr, op, None)

    # ---- unprefixed and DD/FD-prefixed instructions: BASE_TABLE (below the class) maps each opcode to one
    # of these handlers; c is an _Op holding the decoded fields, operands and the DD/FD index register
    def base(self, addr, q, op, px):
        c = _Op(self.mem, addr, q, op, px)
        return getattr(self, BASE[op])(c)

    def _nop(self, c):
        return Instr(c.addr, c.length(1), "NOP", c.tx(4), c.m1, [])

    def _ex_af(self, c):
        return Instr(c.addr, c.length(1), "EX AF,AF'", c.tx(4), c.m1,
                     ["a, f, a_, f_ = a_, f_, a, f"])

    def _djnz(self, c):
        dst, nx, tx = c.rel(), c.target(2), c.tx
        return Instr(c.addr, c.length(2), f"DJNZ {dst:#06x}", 0, c.m1,
                     ["b = (b - 1) & 255",
                      f"if b: npc = {dst}; wz = {dst}; tt = {tx(13)}",
                      f"else: npc = {nx}; tt = {tx(8)}"], JUMP, target=dst, tk=13, tn=8
                     ).br(["b = (b - 1) & 255"], "b", [f"wz = {dst}"], dst)

    def _jr(self, c):
        dst = c.rel()
        return Instr(c.addr, c.length(2), f"JR {dst:#06x}", 0, c.m1,
                     [f"npc = {dst}", f"wz = {dst}", f"tt = {c.tx(12)}"], JUMP, target=dst, tk=12)

    def _jr_cc(self, c):
        dst, nx, cc = c.rel(), c.target(2), c.y - 4
        return Instr(c.addr, c.length(2), f"JR {CCN[cc]},{dst:#06x}", 0, c.m1,
                     [f"if {CC[cc]}: npc = {dst}; wz = {dst}; tt = {c.tx(12)}",
                      f"else: npc = {nx}; tt = {c.tx(7)}"], JUMP, target=dst, tk=12, tn=7
                     ).br([], CC[cc], [f"wz = {dst}"], dst)

    def _ld_rr_nn(self, c):
        rp, px, nn = RP[c.p], c.px, c.nn
        if rp == "hl" and px:
            L = [f"{px} = {nn}"]
        elif rp == "sp":
            L = [f"sp = {nn}"]
        else:
            L = [f"{rp[0]} = {c.b2}", f"{rp[1]} = {c.b1}"]
        return Instr(c.addr, c.length(3), f"LD {c.rpn(c.p)},{nn:#06x}", c.tx(10), c.m1, L)

    def _add_hl_rr(self, c):
        src = self.rd16(RP[c.p], c.px)
        L = [f"v = {c.hl}", f"w = {src}", "r = v + w", "wz = (v + 1) & 65535",
             "f = (f & 196) | ((r >> 16) & 1) | ((r >> 8) & 40) | (((v ^ w ^ r) >> 8) & 16)"]
        L += self.wr16("hl", c.px, "r & 65535")
        return Instr(c.addr, c.length(1), f"ADD {c.PX},{c.rpn(c.p)}", c.tx(11), c.m1, L)

    def _ld_ind_a(self, c):          # LD (BC),A / LD (DE),A
        rp = "bc" if c.y == 0 else "de"
        L = [f"v = {self.rd16(rp, None)}"] + self.wmem("wa", "v", "a") + ["wz = ((v + 1) & 255) | (a << 8)"]
        return Instr(c.addr, c.length(1), f"LD ({rp.upper()}),A", c.tx(7), c.m1, L, writes=[("wa", 1)])

    def _ld_a_ind(self, c):          # LD A,(BC) / LD A,(DE)
        rp = "bc" if c.y == 1 else "de"
        L = [f"v = {self.rd16(rp, None)}", "a = M[v]", "wz = (v + 1) & 65535"]
        return Instr(c.addr, c.length(1), f"LD A,({rp.upper()})", c.tx(7), c.m1, L)

    def _ld_nn_hl(self, c):
        nn, px = c.nn, c.px
        L = self.wmem("wa", str(nn), self.rd8(5, px) if px else "l") + \
            self.wmem("wb", str((nn + 1) & 65535), self.rd8(4, px) if px else "h") + [f"wz = {(nn + 1) & 65535}"]
        return Instr(c.addr, c.length(3), f"LD ({nn:#06x}),{c.PX}", c.tx(16), c.m1, L,
                     writes=[(nn, 1), ((nn + 1) & 65535, 1)])

    def _ld_hl_nn(self, c):
        nn = c.nn
        L = self.wr16("hl", c.px, f"M[{nn}] | M[{(nn + 1) & 65535}] << 8") + [f"wz = {(nn + 1) & 65535}"]
        return Instr(c.addr, c.length(3), f"LD {c.PX},({nn:#06x})", c.tx(16), c.m1, L)

    def _ld_nn_a(self, c):
        nn = c.nn
        L = self.wmem("wa", str(nn), "a") + [f"wz = {(nn + 1) & 255} | (a << 8)"]
        return Instr(c.addr, c.length(3), f"LD ({nn:#06x}),A", c.tx(13), c.m1, L, writes=[(nn, 1)])

    def _ld_a_nn(self, c):
        nn = c.nn
        L = [f"a = M[{nn}]", f"wz = {(nn + 1) & 65535}"]
        return Instr(c.addr, c.length(3), f"LD A,({nn:#06x})", c.tx(13), c.m1, L)

    def _inc_dec_rr(self, c):
        rp, px, qq = RP[c.p], c.px, c.qq
        delta = "+ 1" if qq == 0 else "- 1"
        if rp == "hl" and px:
            L = [f"{px} = ({px} {delta}) & 65535"]
        elif rp == "sp":
            L = [f"sp = (sp {delta}) & 65535"]
        elif qq == 0:
            L = [f"{rp[1]} = ({rp[1]} + 1) & 255", f"if not {rp[1]}: {rp[0]} = ({rp[0]} + 1) & 255"]
        else:
            L = [f"if not {rp[1]}: {rp[0]} = ({rp[0]} - 1) & 255", f"{rp[1]} = ({rp[1]} - 1) & 255"]
        return Instr(c.addr, c.length(1), f"{'INC' if qq == 0 else 'DEC'} {c.rpn(c.p)}", c.tx(6), c.m1, L)

    def _inc_dec_r(self, c):
        y, px = c.y, c.px
        tab, mn, sign = ("INCF", "INC", "+") if c.z == 4 else ("DECF", "DEC", "-")
        if y == 6:
            L = [f"wa = {c.iaddr}", "v = M[wa]", f"f = (f & 1) | {tab}[v]"]
            L += self.wmem("wa", "wa", f"(v {sign} 1) & 255")
            if px:
                L.append("wz = wa")
            return Instr(c.addr, c.length(2 if px else 1), f"{mn} {c.mref}", c.tx(11, True), c.m1, L,
                         writes=[("wa", 1)])
        r = self.rd8(y, px)
        L = [f"f = (f & 1) | {tab}[{r}]"] + self.wr8(y, px, f"({r} {sign} 1) & 255")
        return Instr(c.addr, c.length(1), f"{mn} {self.rn(y, px)}", c.tx(4), c.m1, L)

    def _ld_r_n(self, c):
        y, px = c.y, c.px
        if y == 6:
            L = self.wmem("wa", c.iaddr, str(c.imm1))
            if px:
                L.append("wz = wa")
            return Instr(c.addr, c.length(3 if px else 2), f"LD {c.mref},{c.imm1:#04x}", c.tx(10, True, 9), c.m1, L,
                         writes=[("wa", 1)])
        return Instr(c.addr, c.length(2), f"LD {self.rn(y, px)},{c.b1:#04x}", c.tx(7), c.m1,
                     self.wr8(y, px, str(c.b1)))

    def _acc(self, c):               # RLCA RRCA RLA RRA DAA CPL SCF CCF
        mn, code = ACC[c.op]
        return Instr(c.addr, c.length(1), mn, c.tx(4), c.m1, list(code))

    def _halt(self, c):
        return Instr(c.addr, c.length(1), "HALT", c.tx(4), c.m1,
                     ["S.halted = 1", f"npc = {c.addr}", f"tt = {c.tx(4)}"], HALT)

    def _ld_r_r(self, c):
        y, z, px = c.y, c.z, c.px
        if z == 6:       # LD r,(HL) / LD r,(IX+d): H and L stay H and L
            L = [f"wa = {c.iaddr}", f"{R8[y]} = M[wa]", "wz = wa"] if px else [f"{R8[y]} = M[{c.iaddr}]"]
            return Instr(c.addr, c.length(2 if px else 1), f"LD {R8N[y]},{c.mref}", c.tx(7, True), c.m1, L)
        if y == 6:
            L = self.wmem("wa", c.iaddr, R8[z]) + (["wz = wa"] if px else [])
            return Instr(c.addr, c.length(2 if px else 1), f"LD {c.mref},{R8N[z]}", c.tx(7, True), c.m1, L,
                         writes=[("wa", 1)])
        return Instr(c.addr, c.length(1), f"LD {self.rn(y, px)},{self.rn(z, px)}", c.tx(4), c.m1,
                     self.wr8(y, px, self.rd8(z, px)) if y != z else [])

    def _alu_r(self, c):
        y, z, px = c.y, c.z, c.px
        if z == 6:
            L = [f"wa = {c.iaddr}", "v = M[wa]", "wz = wa"] if px else [f"v = M[{c.iaddr}]"]
            L += [s.format(v="v") for s in ALU[y]]
            return Instr(c.addr, c.length(2 if px else 1), f"{ALUN[y]}{c.mref}", c.tx(7, True), c.m1, L)
        return Instr(c.addr, c.length(1), f"{ALUN[y]}{self.rn(z, px)}", c.tx(4), c.m1,
                     [s.format(v=self.rd8(z, px)) for s in ALU[y]])

    def _ret_cc(self, c):
        y = c.y
        return Instr(c.addr, c.length(1), f"RET {CCN[y]}", 0, c.m1,
                     [f"if {CC[y]}:"] + ["    " + s for s in POP] +
                     ["    npc = v; wz = v; tt = 11", f"else: npc = {c.target(1)}; tt = 5"], JUMP, tk=11, tn=5
                     ).br([], CC[y], POP + ["wz = v"], "v")

    def _pop(self, c):
        p = c.p
        if p == 3:
            L = ["f = M[sp]", "a = M[(sp + 1) & 65535]", "sp = (sp + 2) & 65535"]
        else:
            L = POP + self.wr16(RP[p], c.px, "v")
        return Instr(c.addr, c.length(1), f"POP {RP2N[p] if p != 2 else c.PX}", c.tx(10), c.m1, L)

    def _ret(self, c):
        return Instr(c.addr, c.length(1), "RET", 10, c.m1, POP + ["npc = v", "wz = v", "tt = 10"], JUMP, tk=10,
                     ret=True)

    def _exx(self, c):
        L = ["b, c, d, e, h, l, b_, c_, d_, e_, h_, l_ = b_, c_, d_, e_, h_, l_, b, c, d, e, h, l"]
        return Instr(c.addr, c.length(1), "EXX", 4, c.m1, L)

    def _jp_hl(self, c):
        return Instr(c.addr, c.length(1), f"JP ({c.PX})", c.tx(4), c.m1, [f"npc = {c.hl}", f"tt = {c.tx(4)}"],
                     JUMP, tk=c.tx(4))

    def _ld_sp_hl(self, c):
        return Instr(c.addr, c.length(1), f"LD SP,{c.PX}", c.tx(6), c.m1, [f"sp = {c.hl}"])

    def _jp_cc(self, c):
        y, nn = c.y, c.nn
        return Instr(c.addr, c.length(3), f"JP {CCN[y]},{nn:#06x}", 0, c.m1,
                     [f"wz = {nn}", "tt = 10", f"npc = {nn} if {CC[y]} else {c.target(3)}"], JUMP, target=nn,
                     tk=10, tn=10).br([f"wz = {nn}"], CC[y], [], nn)

    def _jp(self, c):
        nn = c.nn
        return Instr(c.addr, c.length(3), f"JP {nn:#06x}", 10, c.m1, [f"npc = {nn}", f"wz = {nn}", "tt = 10"], JUMP,
                     target=nn, tk=10)

    def _out_n_a(self, c):
        b1 = c.b1
        L = [f"POUT(a << 8 | {b1}, a, t + {{T}} + 8)", f"wz = (a << 8) | {(b1 + 1) & 255}"]
        return Instr(c.addr, c.length(2), f"OUT ({b1:#04x}),A", 11, c.m1, L)

    def _in_a_n(self, c):
        b1 = c.b1
        L = [f"v = a << 8 | {b1}", "a = PIN(v, t + {T} + 8) & 255", "wz = (v + 1) & 65535"]
        return Instr(c.addr, c.length(2), f"IN A,({b1:#04x})", 11, c.m1, L)

    def _ex_sp_hl(self, c):
        px = c.px
        L = ["v = M[sp] | M[(sp + 1) & 65535] << 8"]
        L += self.wmem("wa", "(sp + 1) & 65535", self.rd8(4, px) if px else "h")
        L += self.wmem("wb", "sp", self.rd8(5, px) if px else "l")
        L += self.wr16("hl", px, "v") + ["wz = v"]
        return Instr(c.addr, c.length(1), f"EX (SP),{c.PX}", c.tx(19), c.m1, L, writes=[("wa", 1), ("wb", 1)])

    def _ex_de_hl(self, c):
        return Instr(c.addr, c.length(1), "EX DE,HL", 4, c.m1, ["x = d", "d = h", "h = x", "x = e", "e = l", "l = x"])

    def _di(self, c):
        return Instr(c.addr, c.length(1), "DI", 4, c.m1, ["S.iff1 = 0", "S.iff2 = 0"])

    def _ei(self, c):
        return Instr(c.addr, c.length(1), "EI", 4, c.m1, ["S.iff1 = 1", "S.iff2 = 1", f"npc = {c.target(1)}", "tt = 4"],
                     EI)

    def _call_cc(self, c):
        y, nn, ret = c.y, c.nn, c.target(3)
        push = self.push(ret >> 8, ret & 255)
        return Instr(c.addr, c.length(3), f"CALL {CCN[y]},{nn:#06x}", 0, c.m1,
                     [f"wz = {nn}", f"if {CC[y]}:"] + ["    " + s for s in push]
                     + [f"    npc = {nn}; tt = 17", f"else: npc = {ret}; tt = 10"], JUMP,
                     writes=[("wa", 1), ("wb", 1)], target=nn, tk=17, tn=10, callret=ret
                     ).br([f"wz = {nn}"], CC[y], push, nn)

    def _push(self, c):
        p, px = c.p, c.px
        if p == 3:
            hi, lo = "a", "f"
        elif p == 2 and px:
            hi, lo = f"{px} >> 8", f"{px} & 255"
        else:
            hi, lo = RP[p][0], RP[p][1]
        return Instr(c.addr, c.length(1), f"PUSH {RP2N[p] if p != 2 else c.PX}", c.tx(11), c.m1, self.push(hi, lo),
                     writes=[("wa", 1), ("wb", 1)])

    def _call(self, c):
        nn, ret = c.nn, c.target(3)
        return Instr(c.addr, c.length(3), f"CALL {nn:#06x}", 17, c.m1,
                     self.push(ret >> 8, ret & 255) + [f"npc = {nn}", f"wz = {nn}", "tt = 17"], JUMP,
                     writes=[("wa", 1), ("wb", 1)], target=nn, tk=17, callret=ret)

    def _alu_n(self, c):
        return Instr(c.addr, c.length(2), f"{ALUN[c.y]}{c.b1:#04x}", 7, c.m1, [s.format(v=c.b1) for s in ALU[c.y]])

    def _rst(self, c):
        dst, ret = c.y * 8, c.target(1)
        return Instr(c.addr, c.length(1), f"RST {dst:#04x}", 11, c.m1,
                     self.push(ret >> 8, ret & 255) + [f"npc = {dst}", f"wz = {dst}", "tt = 11"], JUMP,
                     writes=[("wa", 1), ("wb", 1)], target=dst, tk=11, callret=ret)

    # ---- CB prefix: four groups by the top two bits of the second byte (y = kind or bit, z = register)
    #   00-3F  RLC RRC RL RR SLA SRA SLL SRL r  8 T, (HL) 15 T, DDCB (IX+d) 23 T (result also to r if z != 6)
    #   40-7F  BIT y,r                          8 T, (HL) 12 T, DDCB 20 T (flags 5/3: MEMPTR / (IX+d) high byte)
    #   80-BF  RES y,r                          8 T, (HL) 15 T, DDCB 23 T
    #   C0-FF  SET y,r                          8 T, (HL) 15 T, DDCB 23 T
    def cb(self, addr):
        op = self.mem[(addr + 1) & 65535]
        x, y, z = op >> 6, (op >> 3) & 7, op & 7
        if z == 6:
            L = ["wa = h << 8 | l", "v = M[wa]"]
            L += self._cb_op(x, y, "v")
            if x == 1:
                L = L[:2] + [f"f = (f & 1) | (BIT{y}[v] & 215) | ((wz >> 8) & 40)"]
                t = 12
            else:
                L += self.wmem("wa", "wa", "v")
                t = 15
            return Instr(addr, 2, self._cb_mn(x, y, "(HL)"), t, 2, L, writes=[("wa", 1)] if x != 1 else [])
        r = R8[z]
        return Instr(addr, 2, self._cb_mn(x, y, R8N[z]), 8, 2, self._cb_op(x, y, r))

    @staticmethod
    def _cb_mn(x, y, opnd):
        if x == 0:
            return f"{ROT_NAMES[y]} {opnd}"
        return f"{('BIT', 'RES', 'SET')[x - 1]} {y},{opnd}"

    @staticmethod
    def _cb_op(x, y, r):
        if x == 0:
            idx = f"(f & 1) << 8 | {r}" if y in (2, 3) else r
            return [f"x = R_{ROT_NAMES[y]}[{idx}]", f"{r} = x >> 8", "f = x & 255"]
        if x == 1:
            return [f"f = (f & 1) | BIT{y}[{r}]"]
        if x == 2:
            return [f"{r} &= {255 ^ (1 << y)}"]
        return [f"{r} |= {1 << y}"]

    # ---- DD CB d op / FD CB d op
    def xycb(self, addr, px):
        m = self.mem
        d = _s8(m[(addr + 2) & 65535])
        op = m[(addr + 3) & 65535]
        x, y, z = op >> 6, (op >> 3) & 7, op & 7
        mref = f"({px.upper()}{'+' if d >= 0 else '-'}{abs(d)})"
        L = [f"wa = ({px} + {d}) & 65535" if d else f"wa = {px}", "wz = wa", "v = M[wa]"]
        if x == 1:
            L += [f"f = (f & 1) | (BIT{y}[v] & 215) | ((wa >> 8) & 40)"]
            return Instr(addr, 4, f"BIT {y},{mref}", 20, 2, L)
        L += self._cb_op(x, y, "v") + self.wmem("wa", "wa", "v")
        mn = self._cb_mn(x, y, mref)
        if z != 6:
            L.append(f"{R8[z]} = v")
            mn += f" (and LD {R8N[z]})"
        return Instr(addr, 4, mn, 23, 2, L, writes=[("wa", 1)])

    # ---- ED prefix
    def ed(self, addr):
        """ED-prefixed opcodes: ED_TABLE maps the second byte to a handler (undefined ones are 8-T NOPs)."""
        m = self.mem
        op = m[(addr + 1) & 65535]
        nn = m[(addr + 2) & 65535] | m[(addr + 3) & 65535] << 8
        return getattr(self, ED[op])(addr, op, (op >> 3) & 7, nn)

    def _ed_in(self, addr, op, y, nn):
        L = ["v = b << 8 | c", "x = PIN(v, t + {T} + 9) & 255", "f = (f & 1) | SZ53P[x]", "wz = (v + 1) & 65535"]
        if y != 6:
            L.append(f"{R8[y]} = x")
        return Instr(addr, 2, f"IN {R8N[y] if y != 6 else 'F'},(C)", 12, 2, L)

    def _ed_out(self, addr, op, y, nn):
        L = [f"POUT(b << 8 | c, {R8[y] if y != 6 else 0}, t + {{T}} + 9)", "wz = ((b << 8 | c) + 1) & 65535"]
        return Instr(addr, 2, f"OUT (C),{R8N[y] if y != 6 else '0'}", 12, 2, L)

    def _ed_sbc_adc(self, addr, op, y, nn):
        p, qq = y >> 1, y & 1
        L = ["v = h << 8 | l", f"w = {self.rd16(RP[p], None)}"]
        if qq == 0:
            L += ["r = v - w - (f & 1)",
                  "f = 2 | ((r >> 16) & 1) | ((r >> 8) & 168) | (((v ^ w ^ r) >> 8) & 16) | "
                  "(((v ^ w) & (v ^ r) & 32768) >> 13)"]
        else:
            L += ["r = v + w + (f & 1)",
                  "f = ((r >> 16) & 1) | ((r >> 8) & 168) | (((v ^ w ^ r) >> 8) & 16) | "
                  "(((v ^ w ^ 32768) & (v ^ r) & 32768) >> 13)"]
        L += ["r &= 65535", "if not r: f |= 64", "wz = (v + 1) & 65535", "h = r >> 8", "l = r & 255"]
        return Instr(addr, 2, f"{'SBC' if qq == 0 else 'ADC'} HL,{RPN[p]}", 15, 2, L)

    def _ed_ld_nn_rr(self, addr, op, y, nn):
        p = y >> 1
        rp, n1 = RP[p], (nn + 1) & 65535
        if rp == "sp":
            lo, hi = "sp & 255", "sp >> 8"
        else:
            hi, lo = rp[0], rp[1]
        L = self.wmem("wa", str(nn), lo) + self.wmem("wb", str(n1), hi) + [f"wz = {n1}"]
        return Instr(addr, 4, f"LD ({nn:#06x}),{RPN[p]}", 20, 2, L, writes=[(nn, 1), (n1, 1)])

    def _ed_ld_rr_nn(self, addr, op, y, nn):
        p = y >> 1
        n1 = (nn + 1) & 65535
        L = self.wr16(RP[p], None, f"M[{nn}] | M[{n1}] << 8") + [f"wz = {n1}"]
        return Instr(addr, 4, f"LD {RPN[p]},({nn:#06x})", 20, 2, L)

    def _ed_neg(self, addr, op, y, nn):
        return Instr(addr, 2, "NEG", 8, 2, ["f = SUBF[a]", "a = (-a) & 255"])

    def _ed_retn(self, addr, op, y, nn):     # RETN and RETI both copy IFF2 to IFF1
        L = POP + ["S.iff1 = S.iff2", "npc = v", "wz = v", "tt = 14"]
        return Instr(addr, 2, "RETI" if y == 1 else "RETN", 14, 2, L, JUMP)

    def _ed_im(self, addr, op, y, nn):
        return Instr(addr, 2, f"IM {IM_MODE[y]}", 8, 2, [f"S.im = {IM_MODE[y]}"])

    def _ed_ld_i_a(self, addr, op, y, nn):
        return Instr(addr, 2, "LD I,A", 9, 2, ["S.i = a"])

    def _ed_ld_r_a(self, addr, op, y, nn):
        return Instr(addr, 2, "LD R,A", 9, 2, ["S._r7 = a & 128", "S._rc = (a & 127) - {K}", "S._eir = -1"])

    def _ed_ld_a_i(self, addr, op, y, nn):
        ins = Instr(addr, 2, "LD A,I", 9, 2, ["a = S.i", "f = (f & 1) | SZ53[a] | (4 if S.iff2 else 0)",
                                             f"npc = {(addr + 2) & 65535}", "tt = 9"], EI)
        ins.post = "S._pvr = S._rc"      # an interrupt accepted right after it resets P/V
        return ins

    def _ed_ld_a_r(self, addr, op, y, nn):
        ins = Instr(addr, 2, "LD A,R", 9, 2,
                    ["a = S._r7 | ((S._rc + {K}) & 127)", "f = (f & 1) | SZ53[a] | (4 if S.iff2 else 0)",
                     f"npc = {(addr + 2) & 65535}", "tt = 9"], EI)
        ins.post = "S._pvr = S._rc"
        return ins

    def _ed_rrd(self, addr, op, y, nn):
        L = ["wa = h << 8 | l", "v = M[wa]"] + self.wmem("wa", "wa", "((a << 4) | (v >> 4)) & 255") + \
            ["a = (a & 240) | (v & 15)", "f = (f & 1) | SZ53P[a]", "wz = (wa + 1) & 65535"]
        return Instr(addr, 2, "RRD", 18, 2, L, writes=[("wa", 1)])

    def _ed_rld(self, addr, op, y, nn):
        L = ["wa = h << 8 | l", "v = M[wa]"] + self.wmem("wa", "wa", "((v << 4) | (a & 15)) & 255") + \
            ["a = (a & 240) | (v >> 4)", "f = (f & 1) | SZ53P[a]", "wz = (wa + 1) & 65535"]
        return Instr(addr, 2, "RLD", 18, 2, L, writes=[("wa", 1)])

    def _ed_nop(self, addr, op, y, nn):
        return Instr(addr, 2, f"NOP (ED {op:02X})", 8, 2, [])

    def _ed_block(self, addr, op, y, nn):
        return self.block_op(addr, y, op & 7, (addr + 2) & 65535)

    def block_op(self, addr, y, z, nx):
        inc = y & 1 == 0                 # LDI/CPI/INI/OUTI (y=4,6) vs LDD/CPD/IND/OUTD (y=5,7)
        rep = y >= 6
        sgn = "+" if inc else "-"
        name = (("LDI", "CPI", "INI", "OUTI"), ("LDD", "CPD", "IND", "OUTD"))[0 if inc else 1][z]
        if rep:
            name = {"LDI": "LDIR", "LDD": "LDDR", "CPI": "CPIR", "CPD": "CPDR", "INI": "INIR", "IND": "INDR",
                    "OUTI": "OTIR", "OUTD": "OTDR"}[name]
        hl_step = [f"l = (l {sgn} 1) & 255", f"if l == {0 if inc else 255}: h = (h {sgn} 1) & 255"]
        bc_dec = ["if not c: b = (b - 1) & 255", "c = (c - 1) & 255"]
        writes = []
        if z == 0:
            L = ["v = M[h << 8 | l]"] + self.wmem("wa", "d << 8 | e", "v") + hl_step + \
                [f"e = (e {sgn} 1) & 255", f"if e == {0 if inc else 255}: d = (d {sgn} 1) & 255"] + bc_dec + \
                ["n = v + a", "f = (f & 193) | (4 if b or c else 0) | (n & 8) | ((n << 4) & 32)"]
            writes = [("wa", 1)]
            cont = "b or c"
        elif z == 1:
            L = ["v = M[h << 8 | l]", "r = (a - v) & 255", "hc = ((a & 15) - (v & 15)) & 16"] + hl_step + bc_dec + \
                [f"wz = (wz {sgn} 1) & 65535", "n = r - (hc >> 4)",
                 "f = (f & 1) | 2 | (4 if b or c else 0) | hc | (r & 128) | (0 if r else 64) | (n & 8) | ((n << 4) & 32)"]
            cont = "(b or c) and r"
        elif z == 2:
            L = ["v = PIN(b << 8 | c, t + {T} + 10) & 255", f"wz = ((b << 8 | c) {sgn} 1) & 65535"] + \
                self.wmem("wa", "h << 8 | l", "v") + ["b = (b - 1) & 255"] + hl_step + \
                [f"n = v + ((c {sgn} 1) & 255)",
                 "f = ((v >> 6) & 2) | (17 if n > 255 else 0) | (SZ53P[(n & 7) ^ b] & 4) | SZ53[b]"]
            writes = [("wa", 1)]
            cont = "b"
        else:
            L = ["v = M[h << 8 | l]", "b = (b - 1) & 255", f"wz = ((b << 8 | c) {sgn} 1) & 65535",
                 "POUT(b << 8 | c, v, t + {T} + 13)"] + hl_step + \
                ["n = v + l", "f = ((v >> 6) & 2) | (17 if n > 255 else 0) | (SZ53P[(n & 7) ^ b] & 4) | SZ53[b]"]
            cont = "b"
        if not rep:
            return Instr(addr, 2, name, 16, 2, L, writes=writes)
        # Repeating (the extra 5 T that move PC back): MEMPTR = PC + 1 and bits 5,3 = bits 13,11 of PC; the I/O
        # ones also change P/V and H from B and the carry (D. Banks's Z80Decoder wiki, "interrupted block
        # instructions"; MEMPTR of INIR..OTDR: M. Sainz de Baranda, z80test 1.2)
        again = [f"wz = {(addr + 1) & 65535}"]
        if z >= 2:
            again += ["if f & 1:",
                      "    x = (b - 1) & 7 if f & 2 else (b + 1) & 7",
                      "    f = (f & 235) | ((f ^ SZ53P[x] ^ 4) & 4) | (16 if (b & 15) == (0 if f & 2 else 15) else 0)",
                      "else: f = (f & 251) | ((f ^ SZ53P[b & 7] ^ 4) & 4)"]
        again.append(f"f = (f & 215) | {(addr >> 8) & 40}")
        pre = list(L)
        L += [f"if {cont}:"] + ["    " + x for x in again] + [f"    npc = {addr}; tt = 21",
                                                             f"else: npc = {nx}; tt = 16"]
        return Instr(addr, 2, name, 0, 2, L, JUMP, writes=writes, target=addr, tk=21, tn=16).br(
            pre, cont, again, addr)


def _rows(*spec):
    """Expand (opcodes, mnemonic, handler) rows into a 256-entry dispatch list of handler names."""
    out = [None] * 256
    for ops, _mnemonic, handler in spec:
        for op in ([ops] if isinstance(ops, int) else ops):
            assert out[op] is None, hex(op)
            out[op] = handler
    return out


_R = range
# Unprefixed opcodes (DD/FD use the same rows with HL -> IX/IY). CB, DD, ED, FD are prefixes (see decode).
BASE = _rows(
    (0x00, "NOP", "_nop"),
    (0x08, "EX AF,AF'", "_ex_af"),
    (0x10, "DJNZ e", "_djnz"),
    (0x18, "JR e", "_jr"),
    (_R(0x20, 0x40, 8), "JR NZ/Z/NC/C,e", "_jr_cc"),
    (_R(0x01, 0x40, 16), "LD BC/DE/HL/SP,nn", "_ld_rr_nn"),
    (_R(0x09, 0x40, 16), "ADD HL,BC/DE/HL/SP", "_add_hl_rr"),
    ((0x02, 0x12), "LD (BC),A / LD (DE),A", "_ld_ind_a"),
    ((0x0A, 0x1A), "LD A,(BC) / LD A,(DE)", "_ld_a_ind"),
    (0x22, "LD (nn),HL", "_ld_nn_hl"),
    (0x2A, "LD HL,(nn)", "_ld_hl_nn"),
    (0x32, "LD (nn),A", "_ld_nn_a"),
    (0x3A, "LD A,(nn)", "_ld_a_nn"),
    (_R(0x03, 0x40, 8), "INC BC/DE/HL/SP (03 13 23 33), DEC (0B 1B 2B 3B)", "_inc_dec_rr"),
    (_R(0x04, 0x40, 8), "INC B/C/D/E/H/L/(HL)/A", "_inc_dec_r"),
    (_R(0x05, 0x40, 8), "DEC B/C/D/E/H/L/(HL)/A", "_inc_dec_r"),
    (_R(0x06, 0x40, 8), "LD B/C/D/E/H/L/(HL)/A,n", "_ld_r_n"),
    (_R(0x07, 0x40, 8), "RLCA RRCA RLA RRA DAA CPL SCF CCF", "_acc"),
    ([op for op in _R(0x40, 0x80) if op != 0x76], "LD r,r' (r = B C D E H L (HL) A)", "_ld_r_r"),
    (0x76, "HALT", "_halt"),
    (_R(0x80, 0xC0), "ADD/ADC/SUB/SBC/AND/XOR/OR/CP A,r", "_alu_r"),
    (_R(0xC0, 0x100, 8), "RET NZ/Z/NC/C/PO/PE/P/M", "_ret_cc"),
    (_R(0xC1, 0x100, 16), "POP BC/DE/HL/AF", "_pop"),
    (0xC9, "RET", "_ret"),
    (0xD9, "EXX", "_exx"),
    (0xE9, "JP (HL)", "_jp_hl"),
    (0xF9, "LD SP,HL", "_ld_sp_hl"),
    (_R(0xC2, 0x100, 8), "JP cc,nn", "_jp_cc"),
    (0xC3, "JP nn", "_jp"),
    (0xD3, "OUT (n),A", "_out_n_a"),
    (0xDB, "IN A,(n)", "_in_a_n"),
    (0xE3, "EX (SP),HL", "_ex_sp_hl"),
    (0xEB, "EX DE,HL", "_ex_de_hl"),
    (0xF3, "DI", "_di"),
    (0xFB, "EI", "_ei"),
    (_R(0xC4, 0x100, 8), "CALL cc,nn", "_call_cc"),
    (_R(0xC5, 0x100, 16), "PUSH BC/DE/HL/AF", "_push"),
    (0xCD, "CALL nn", "_call"),
    (_R(0xC6, 0x100, 8), "ADD/ADC/SUB/SBC/AND/XOR/OR/CP A,n", "_alu_n"),
    (_R(0xC7, 0x100, 8), "RST 00h..38h", "_rst"),
)
assert [op for op in range(256) if BASE[op] is None] == [0xCB, 0xDD, 0xED, 0xFD]


# ED-prefixed opcodes (second byte); everything not listed is an 8-T NOP
ED = _rows(
    (_R(0x40, 0x80, 8), "IN B/C/D/E/H/L/F/A,(C)", "_ed_in"),
    (_R(0x41, 0x80, 8), "OUT (C),B/C/D/E/H/L/0/A", "_ed_out"),
    (_R(0x42, 0x80, 8), "SBC HL,BC/DE/HL/SP (42 52 62 72), ADC HL,rr (4A 5A 6A 7A)", "_ed_sbc_adc"),
    (_R(0x43, 0x80, 16), "LD (nn),BC/DE/HL/SP", "_ed_ld_nn_rr"),
    (_R(0x4B, 0x80, 16), "LD BC/DE/HL/SP,(nn)", "_ed_ld_rr_nn"),
    (_R(0x44, 0x80, 8), "NEG (and its undocumented copies)", "_ed_neg"),
    (_R(0x45, 0x80, 8), "RETN (45 55 5D 65 6D 75 7D), RETI (4D)", "_ed_retn"),
    (_R(0x46, 0x80, 8), "IM 0/0/1/2/0/0/1/2", "_ed_im"),
    (0x47, "LD I,A", "_ed_ld_i_a"),
    (0x4F, "LD R,A", "_ed_ld_r_a"),
    (0x57, "LD A,I", "_ed_ld_a_i"),
    (0x5F, "LD A,R", "_ed_ld_a_r"),
    (0x67, "RRD", "_ed_rrd"),
    (0x6F, "RLD", "_ed_rld"),
    ((0x77, 0x7F), "NOP (undocumented)", "_ed_nop"),
    (_R(0xA0, 0xA4), "LDI CPI INI OUTI", "_ed_block"),
    (_R(0xA8, 0xAC), "LDD CPD IND OUTD", "_ed_block"),
    (_R(0xB0, 0xB4), "LDIR CPIR INIR OTIR", "_ed_block"),
    (_R(0xB8, 0xBC), "LDDR CPDR INDR OTDR", "_ed_block"),
)
ED = [h or "_ed_nop" for h in ED]
