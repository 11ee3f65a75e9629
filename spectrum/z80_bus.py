"""The bus cycles of every Z80 instruction: which address each machine cycle puts on the bus, of
what kind and for how long, as data (pattern rows per instruction group), and the 48K's contention
rule (which addresses wait, and how long). It is not the decoder (z80_decode.py says what an
instruction does) and runs nothing: the contention pass (z80_timing.py) turns these cycles into
waits, and the FUSE event lists (MC/MR/MW/PC/PR/PW) check them instruction by instruction.

A pattern is a string of cycles `KIND.where`, optionally `*n` for n identical cycles:
  F  opcode fetch, 4 T (M1)         R  memory read, 3 T          W  memory write, 3 T
  N  1 T with the address still on the bus (no memory request; contended like an access)
  IO an I/O cycle, 4 T, contended by the port's own rule (io_steps)
`where` is `op` (the opcode byte's address: pc, or pc+1 after a DD/FD prefix) or `pc` plus an
offset, a register pair (`hl`, `bc`, `de`, `sp`, `sp+1`, `sp-1`, `sp-2`), `ir` (I and R on the
address bus), `nn` / `nn+1` (the instruction's 16-bit operand), `xy` (IX+d or IY+d), `an` (A and the
operand: IN A,(n)) or `bc-` (B-1 and C: OUTI's port). A second pattern lists the cycles added when a
conditional instruction is taken (or a block instruction repeats). Sources: the comp.sys.sinclair
FAQ's contention tables and Fuse's z80 core comments (facts only), checked against FUSE's
tests.expected by tests/spectrum/test_z80_bus.py."""
from dataclasses import dataclass

from . import hw

TLEN = {"F": 4, "R": 3, "W": 3, "N": 1, "IO": 4}

# ------------------------------------------------------------ unprefixed opcodes, by x/z (and y, q)
# (the opcode fields: x = op >> 6, y = (op >> 3) & 7, z = op & 7, p = y >> 1, q = y & 1)
_LD_IND = ("F.op W.bc", "F.op R.bc", "F.op W.de", "F.op R.de",  # 02 0A 12 1A: LD (BC),A..LD A,(DE)
           "F.op R.op+1 R.op+2 W.nn W.nn+1",                           # 22: LD (nn),HL
           "F.op R.op+1 R.op+2 R.nn R.nn+1",                           # 2A: LD HL,(nn)
           "F.op R.op+1 R.op+2 W.nn",                                  # 32: LD (nn),A
           "F.op R.op+1 R.op+2 R.nn")                                  # 3A: LD A,(nn)


def _base(op):
    """(pattern, taken) of an unprefixed opcode."""
    x, y, z = op >> 6, (op >> 3) & 7, op & 7
    p, q = y >> 1, y & 1
    if x == 0:
        if z == 0:
            if y == 2:
                return "F.op N.ir R.op+1", "N.op+1*5"                  # 10: DJNZ
            if y == 3:
                return "F.op R.op+1 N.op+1*5", ""                      # 18: JR e
            if y >= 4:
                return "F.op R.op+1", "N.op+1*5"                       # 20 28 30 38: JR cc,e
            return "F.op", ""                                          # 00 08: NOP, EX AF,AF'
        if z == 1:
            return ("F.op N.ir*7" if q else "F.op R.op+1 R.op+2"), ""  # ADD HL,rr / LD rr,nn
        if z == 2:
            return _LD_IND[y], ""
        if z == 3:
            return "F.op N.ir*2", ""                                   # INC rr, DEC rr
        if z in (4, 5):
            return ("F.op R.hl N.hl W.hl" if y == 6 else "F.op"), ""   # INC/DEC r, (HL)
        if z == 6:
            return ("F.op R.op+1 W.hl" if y == 6 else "F.op R.op+1"), ""   # LD r,n / LD (HL),n
        return "F.op", ""                                              # RLCA ... CCF
    if x == 1:
        if op == 0x76:
            return "F.op", ""                                          # HALT
        if z == 6:
            return "F.op R.hl", ""                                     # LD r,(HL)
        return ("F.op W.hl" if y == 6 else "F.op"), ""                 # LD (HL),r / LD r,r'
    if x == 2:
        return ("F.op R.hl" if z == 6 else "F.op"), ""                 # ALU A,r / (HL)
    if z == 0:
        return "F.op N.ir", "R.sp R.sp+1"                              # RET cc
    if z == 1:
        if q == 0 or p == 0:
            return "F.op R.sp R.sp+1", ""                              # POP rr, RET
        return ("F.op N.ir*2" if p == 3 else "F.op"), ""               # LD SP,HL / EXX, JP (HL)
    if z == 2:
        return "F.op R.op+1 R.op+2", ""                                # JP cc,nn
    if z == 3:
        return {0: "F.op R.op+1 R.op+2",                               # C3: JP nn
                2: "F.op R.op+1 IO.an", 3: "F.op R.op+1 IO.an",        # D3 DB: OUT (n),A / IN A,(n)
                4: "F.op R.sp R.sp+1 N.sp+1 W.sp+1 W.sp N.sp*2",       # E3: EX (SP),HL
                }.get(y, "F.op"), ""                                   # EB F3 FB: EX DE,HL, DI, EI
    if z == 4:
        return "F.op R.op+1 R.op+2", "N.op+2 W.sp-1 W.sp-2"            # CALL cc,nn
    if z == 5:
        if q == 0:
            return "F.op N.ir W.sp-1 W.sp-2", ""                       # PUSH rr
        return "F.op R.op+1 R.op+2 N.op+2 W.sp-1 W.sp-2", ""           # CD: CALL nn
    if z == 6:
        return "F.op R.op+1", ""                                       # ALU A,n
    return "F.op N.ir W.sp-1 W.sp-2", ""                               # RST


def _indexed(op):
    """The (IX+d) / (IY+d) forms after a DD/FD prefix (op: the opcode after the prefix), or None."""
    x, y, z = op >> 6, (op >> 3) & 7, op & 7
    if op == 0x36:
        return "F.pc F.op R.op+1 R.op+2 N.op+2*2 W.xy"                # LD (IX+d),n
    if op in (0x34, 0x35):
        return "F.pc F.op R.op+1 N.op+1*5 R.xy N.xy W.xy"             # INC/DEC (IX+d)
    if (x == 1 and z == 6 and op != 0x76) or (x == 2 and z == 6):
        return "F.pc F.op R.op+1 N.op+1*5 R.xy"                       # LD r,(IX+d) / ALU A,(IX+d)
    if x == 1 and y == 6 and op != 0x76:
        return "F.pc F.op R.op+1 N.op+1*5 W.xy"                       # LD (IX+d),r
    return None


def _cb(op):
    if op & 7 != 6:
        return "F.pc F.pc+1"                                           # rotates, BIT/RES/SET on r
    if op >> 6 == 1:
        return "F.pc F.pc+1 R.hl N.hl"                                 # BIT b,(HL)
    return "F.pc F.pc+1 R.hl N.hl W.hl"                                # rotate / RES / SET (HL)


def _xycb(op):
    head = "F.pc F.pc+1 R.pc+2 R.pc+3 N.pc+3*2 R.xy N.xy"        # DD CB d op (op read, not fetched)
    return head if op >> 6 == 1 else head + " W.xy"


def _ed(op):
    """(pattern, taken) of ED op."""
    x, y, z = op >> 6, (op >> 3) & 7, op & 7
    head = "F.pc F.pc+1"
    if x == 1:
        rest = {0: "IO.bc", 1: "IO.bc", 2: "N.ir*7",      # IN r,(C) / OUT (C),r / ADC,SBC HL,rr
                3: ("R.pc+2 R.pc+3 R.nn R.nn+1" if y & 1    # LD rr,(nn)
                    else "R.pc+2 R.pc+3 W.nn W.nn+1"),      # LD (nn),rr
                4: "", 5: "R.sp R.sp+1", 6: ""}.get(z)    # NEG / RETN, RETI / IM
        if z == 7:                                          # LD I,A ... / RRD, RLD / ED 77, 7F
            rest = "N.ir" if y < 4 else ("R.hl N.hl*4 W.hl" if y < 6 else "")
        return (head + " " + rest).strip(), ""
    if x == 2 and z <= 3 and y >= 4:
        body, again = (("R.hl W.de N.de*2", "N.de*5"),                # LDI LDD LDIR LDDR
                       ("R.hl N.hl*5", "N.hl*5"),                     # CPI CPD CPIR CPDR
                       ("N.ir IO.bc W.hl", "N.hl*5"),                 # INI IND INIR INDR
                       ("N.ir R.hl IO.bc-", "N.bc-*5"))[z]            # OUTI OUTD OTIR OTDR
        return head + " " + body, (again if y >= 6 else "")
    return head, ""                                                    # the ED no-ops


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

    def __str__(self):
        return self.expr


@dataclass(frozen=True, slots=True)
class Cycle:
    kind: str          # F R W N IO
    addr: object       # an int (known when decoding) or a Where


def _expand(pattern):
    """[(kind, where)] of a pattern string (cached: the patterns are a few dozen constants)."""
    out = _EXPANDED.get(pattern)
    if out is None:
        out = []
        for tok in pattern.split():
            kind, where = tok.split(".", 1)
            n = 1
            if "*" in where:
                where, n = where.split("*")
                n = int(n)
            out += [(kind, where)] * n
        out = _EXPANDED[pattern] = tuple(out)
    return out


_EXPANDED: dict[tuple, tuple] = {}
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


def prefix_changes(op):
    """True when a DD/FD prefix changes the meaning of this unprefixed opcode (it has HL, H, L or
    (HL) in it)."""
    if op in (0x09, 0x19, 0x29, 0x39, 0x21, 0x22, 0x2A, 0x23, 0x2B, 0x24, 0x25, 0x26, 0x2C, 0x2D,
              0x2E, 0x34, 0x35, 0x36, 0xE1, 0xE3, 0xE5, 0xE9, 0xF9):
        return True
    if 0x40 <= op <= 0x7F and op != 0x76:
        return (op >> 3) & 7 in (4, 5, 6) or op & 7 in (4, 5, 6)
    if 0x80 <= op <= 0xBF:
        return op & 7 in (4, 5, 6)
    return False


def patterns(mem, pc):
    """(pattern, taken pattern, px, op) of the instruction at pc: px is 'ix'/'iy' after a DD/FD
    prefix that changes it, op the offset of its opcode byte from pc (1 after a prefix, else 0)."""
    b0 = mem[pc]
    if b0 == 0xCB:
        return _cb(mem[(pc + 1) & 65535]), "", None, 0
    if b0 == 0xED:
        return (*_ed(mem[(pc + 1) & 65535]), None, 0)
    if b0 in (0xDD, 0xFD):
        px = "ix" if b0 == 0xDD else "iy"
        op = mem[(pc + 1) & 65535]
        if op == 0xCB:
            return _xycb(mem[(pc + 3) & 65535]), "", px, 1
        if not prefix_changes(op):
            return "F.pc", "", None, 0                      # a lone prefix: 4 T, then the next
        ind = _indexed(op)
        if ind:
            return ind, "", px, 1
        pat, taken = _base(op)
        return "F.pc " + pat, taken, px, 1
    pat, taken = _base(b0)
    return pat, taken, None, 0


def cycles(mem, pc):
    """(cycles, taken cycles) of the instruction at pc, each a Cycle with its address resolved: an
    int when mem holds real bytes and pc is an int (the block compiler), a Where when they are
    expressions (the interpreter's templates: pc is `pc`, operands `o1`...). Register addresses are
    those of the registers as the instruction starts."""
    pat, taken, px, op = patterns(mem, pc)
    nn_off = 2 if mem[pc] == 0xED else op + 1

    def byte(k):
        return mem[(pc + k) & 65535]

    def resolve(where):
        if where.startswith(("op", "pc")):
            k = (op if where.startswith("op") else 0) + (int(where[3:]) if len(where) > 2 else 0)
            at = (pc + k) & 65535 if k else pc
            return at if isinstance(at, int) else Where("pc", str(at), k)
        if where in ("nn", "nn+1"):
            nn = byte(nn_off) | byte(nn_off + 1) << 8
            at = (nn + 1) & 65535 if where == "nn+1" else nn
            return at if isinstance(at, int) else Where("other", str(at))
        if where == "xy":
            d = byte(2)
            d = (d - 256 if d & 128 else d) if isinstance(d, int) else f"(({d} ^ 128) - 128)"
            return Where("xy", f"(({px} + {d}) & 65535)", high=f"({px} + {d})", regs=(px,))
        if where == "an":
            return Where("other", f"(a << 8 | {byte(1)})", regs=("a",))
        return _REG_ADDR[where]

    def build(pattern):
        return [Cycle(kind, resolve(where)) for kind, where in _expand(pattern)]
    return build(pat), build(taken)


def at_offsets(cycle_list, start=0):
    """[(T-state offset at which each cycle starts, cycle)] from start."""
    out = []
    for c in cycle_list:
        out.append((start, c))
        start += TLEN[c.kind]
    return out


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
    def longest(self):
        """The longest single wait (blocks keep room for it before their limit)."""
        if self.delays not in _LONGEST:
            _LONGEST[self.delays] = max(self.delays)
        return _LONGEST[self.delays]


_LONGEST: dict[bytes, int] = {}


def delays_48k():
    """The 48K's delay for an access starting at each T-state of a frame (plus room for overrun)."""
    out = bytearray(hw.TSTATES_PER_FRAME + 256)
    for line in range(hw.SCREEN_H):
        start = hw.CONTENTION_FIRST_TSTATES + line * hw.TSTATES_PER_LINE
        for k in range(hw.CONTENTION_LINE_TSTATES):
            out[start + k] = hw.CONTENTION_DELAYS[k % 8]
    return bytes(out)


CONTENTION_48K = Contention(delays_48k())


def io_steps(port_contended, ula_port):
    """The 48K's I/O cycle as (contended?, T-states) steps: the access comes after the first."""
    if ula_port:
        return ((port_contended, 1), (True, 3))        # C:1,C:3 or N:1,C:3
    if port_contended:
        return ((True, 1), (True, 1), (True, 1), (True, 1))
    return ((False, 1), (False, 3))
