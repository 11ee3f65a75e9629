"""The bus cycles of every Z80 instruction: which address each machine cycle puts on the bus, of what kind and
for how long, as data (pattern rows per instruction group), plus the 48K contention they meet. It is not the
decoder (z80_codegen.py says what an instruction does) and runs nothing: both back ends turn these cycles into
contention code, and the FUSE event lists (MC/MR/MW/PC/PR/PW) check them instruction by instruction.

A pattern is a string of cycles `KIND.where`, optionally `*n` for n identical cycles:
  F  opcode fetch, 4 T (M1)         R  memory read, 3 T          W  memory write, 3 T
  N  1 T with the address still on the bus (no memory request; contended like an access)
  IO an I/O cycle, 4 T, contended by the port's own rule (io_steps)
`where` is `op` (the opcode byte's address: pc, or pc+1 after a DD/FD prefix) or `pc` plus an offset, a
register pair (`hl`, `bc`, `de`, `sp`, `sp+1`, `sp-1`, `sp-2`), `ir` (I and R on the address bus), `nn` /
`nn+1` (the instruction's 16-bit operand), `xy` (IX+d or IY+d), `an` (A and the operand: IN A,(n)) or `bc-`
(B-1 and C: OUTI's port). A second pattern lists the cycles added when a conditional instruction is taken
(or a block instruction repeats). Sources: the comp.sys.sinclair FAQ's contention tables and Fuse's z80 core
comments (facts only), checked against FUSE's tests.expected by tests/test_z80_bus.py."""
import re
from dataclasses import dataclass

from . import hw

TLEN = {"F": 4, "R": 3, "W": 3, "N": 1, "IO": 4}

# ---------------------------------------------------------------- unprefixed opcodes, by x/z (and y, q)
# (the opcode fields: x = op >> 6, y = (op >> 3) & 7, z = op & 7, p = y >> 1, q = y & 1)
_LD_IND = ("F.op W.bc", "F.op R.bc", "F.op W.de", "F.op R.de",         # 02 0A 12 1A: LD (BC),A ... LD A,(DE)
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
    """The (IX+d) / (IY+d) forms after a DD/FD prefix (op is the opcode after the prefix), or None."""
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
    head = "F.pc F.pc+1 R.pc+2 R.pc+3 N.pc+3*2 R.xy N.xy"              # DD CB d op (op read, not fetched)
    return head if op >> 6 == 1 else head + " W.xy"


def _ed(op):
    """(pattern, taken) of ED op."""
    x, y, z = op >> 6, (op >> 3) & 7, op & 7
    head = "F.pc F.pc+1"
    if x == 1:
        rest = {0: "IO.bc", 1: "IO.bc", 2: "N.ir*7",                  # IN r,(C) / OUT (C),r / ADC,SBC HL,rr
                3: "R.pc+2 R.pc+3 R.nn R.nn+1" if y & 1 else "R.pc+2 R.pc+3 W.nn W.nn+1",   # LD rr,(nn) / (nn),rr
                4: "", 5: "R.sp R.sp+1", 6: ""}.get(z)                # NEG / RETN, RETI / IM
        if z == 7:
            rest = "N.ir" if y < 4 else ("R.hl N.hl*4 W.hl" if y < 6 else "")   # LD I,A ... / RRD, RLD
        return (head + " " + rest).strip(), ""
    if x == 2 and z <= 3 and y >= 4:
        body, again = (("R.hl W.de N.de*2", "N.de*5"),                # LDI LDD LDIR LDDR
                       ("R.hl N.hl*5", "N.hl*5"),                     # CPI CPD CPIR CPDR
                       ("N.ir IO.bc W.hl", "N.hl*5"),                 # INI IND INIR INDR
                       ("N.ir R.hl IO.bc-", "N.bc-*5"))[z]            # OUTI OUTD OTIR OTDR
        return head + " " + body, (again if y >= 6 else "")
    return head, ""                                                    # the ED no-ops


@dataclass(frozen=True)
class Cycle:
    kind: str          # F R W N IO
    addr: object       # an int (known when decoding) or a Python expression over the start registers


def _expand(pattern):
    for tok in pattern.split():
        kind, where = tok.split(".", 1)
        n = 1
        if "*" in where:
            where, n = where.split("*")
            n = int(n)
        for _ in range(n):
            yield kind, where


_REG_ADDR = {"hl": "(h << 8 | l)", "bc": "(b << 8 | c)", "de": "(d << 8 | e)", "sp": "sp",
             "sp+1": "((sp + 1) & 65535)", "sp-1": "((sp - 1) & 65535)", "sp-2": "((sp - 2) & 65535)",
             "bc-": "(((b - 1) & 255) << 8 | c)", "ir": "IR"}


def prefix_changes(op):
    """True when a DD/FD prefix changes the meaning of this unprefixed opcode (HL, H, L or (HL) in it)."""
    if op in (0x09, 0x19, 0x29, 0x39, 0x21, 0x22, 0x2A, 0x23, 0x2B, 0x24, 0x25, 0x26, 0x2C, 0x2D, 0x2E,
              0x34, 0x35, 0x36, 0xE1, 0xE3, 0xE5, 0xE9, 0xF9):
        return True
    if 0x40 <= op <= 0x7F and op != 0x76:
        return (op >> 3) & 7 in (4, 5, 6) or op & 7 in (4, 5, 6)
    if 0x80 <= op <= 0xBF:
        return op & 7 in (4, 5, 6)
    return False


def patterns(mem, pc):
    """(pattern, taken pattern, px, op) of the instruction at pc: px is 'ix'/'iy' after a DD/FD prefix that
    changes it, op the offset of its opcode byte from pc (1 after a prefix, else 0)."""
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
            return "F.pc", "", None, 0                                # a lone prefix: 4 T, then the next
        ind = _indexed(op)
        if ind:
            return ind, "", px, 1
        pat, taken = _base(op)
        return "F.pc " + pat, taken, px, 1
    pat, taken = _base(b0)
    return pat, taken, None, 0


def cycles(mem, pc):
    """(cycles, taken cycles) of the instruction at pc, each a Cycle with its address resolved: an int when
    mem holds real bytes and pc is an int (the block compiler), an expression when they are expressions
    (the interpreter's templates: pc is `pc`, operands `o1`...). Register addresses are expressions over the
    registers as the instruction starts; `IR` stands for I and R (contended when I is)."""
    pat, taken, px, op = patterns(mem, pc)
    nn_off = 2 if mem[pc] == 0xED else op + 1

    def byte(k):
        return mem[(pc + k) & 65535]

    def resolve(where):
        if where.startswith(("op", "pc")):
            k = (op if where.startswith("op") else 0) + (int(where[3:]) if len(where) > 2 else 0)
            return (pc + k) & 65535 if k else pc
        if where in ("nn", "nn+1"):
            return ((byte(nn_off) | byte(nn_off + 1) << 8) + (where == "nn+1")) & 65535
        if where == "xy":
            d = byte(2)
            d = (d - 256 if d & 128 else d) if isinstance(d, int) else f"(({d} ^ 128) - 128)"
            return f"(({px} + {d}) & 65535)"
        if where == "an":
            return f"(a << 8 | {byte(1)})"
        return _REG_ADDR[where]

    def build(pattern):
        return [Cycle(kind, resolve(where)) for kind, where in _expand(pattern)]
    return build(pat), build(taken)


# ---------------------------------------------------------------- the 48K's contention
@dataclass(frozen=True)
class Contention:
    """Who is held up and by how much: an access to lo <= address < hi (or an I/O cycle by the port rule)
    starting at T-state t waits delays[t] T-states. A CPU with contention runs one frame at a time (t is
    the frame's T-state; the table covers a frame plus the longest instruction)."""
    delays: bytes
    lo: int = hw.CONTENDED_LO
    hi: int = hw.CONTENDED_HI

    @property
    def longest(self):
        """The longest single wait (blocks keep room for it before their limit)."""
        if self.delays not in _LONGEST:
            _LONGEST[self.delays] = max(self.delays)
        return _LONGEST[self.delays]


_LONGEST = {}


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
    """The 48K's I/O cycle as (contended?, T-states) steps: the access happens after the first step."""
    if ula_port:
        return ((port_contended, 1), (True, 3))        # C:1,C:3 or N:1,C:3
    if port_contended:
        return ((True, 1), (True, 1), (True, 1), (True, 1))
    return ((False, 1), (False, 3))


# ---------------------------------------------------------------- contention as code lines
_PAIR_HI = {"(h << 8 | l)": "h", "(b << 8 | c)": "b", "(d << 8 | e)": "d"}
_PC_RE = re.compile(r"pc|\(\(pc \+ (\d+)\) & 65535\)")
_XY_RE = re.compile(r"\((\(i[xy] \+ .*\)) & 65535\)")
_SP_OFF = {"sp": 0, "((sp + 1) & 65535)": 1, "((sp - 1) & 65535)": -1, "((sp - 2) & 65535)": -2}


def _contended(addr, cont, ir, own_bytes=True):
    """True / False when known while decoding, else the condition as a cheap expression (a register pair by
    its high byte, SP's neighbours by shifting the range; lo and hi are multiples of 256). own_bytes=False:
    the instruction's own bytes are known to lie outside contended memory."""
    if addr == "IR":
        return ir
    if isinstance(addr, int):
        return cont.lo <= addr < cont.hi
    m = _PC_RE.fullmatch(addr)
    if m and not own_bytes:
        return False
    if cont.lo == 0 and cont.hi == 0x10000:
        return True
    if addr in _PAIR_HI:
        return f"{cont.lo >> 8} <= {_PAIR_HI[addr]} < {cont.hi >> 8}"
    if addr in _SP_OFF:                 # sp+k wraps out of lo..hi exactly when sp leaves the shifted range
        k = _SP_OFF[addr]
        return f"{cont.lo - k} <= sp < {cont.hi - k}"
    if m:                               # the same for the instruction's own bytes at pc+k
        k = int(m.group(1) or 0)
        return f"{cont.lo - k} <= pc < {cont.hi - k}"
    m = _XY_RE.fullmatch(addr)
    if m and cont.lo >= 128 and cont.hi <= 0x10000 - 128:   # IX+d wraps only outside lo..hi
        return f"{cont.lo} <= {m.group(1)} < {cont.hi}"
    return f"{cont.lo} <= {addr} < {cont.hi}"


def _on_registers(addr):
    """Whether an address expression reads registers (which the instruction's own lines may change)."""
    return isinstance(addr, str) and addr != "IR" and not _PC_RE.fullmatch(addr)


def _may_hit_screen(addr):
    return not isinstance(addr, int) or hw.SCREEN_ADDR <= addr < hw.SCREEN_ADDR + hw.SCREEN_BYTES


def _io_lines(port, o, cont):
    """An I/O cycle at offset o: its early and late contention around the access, whose T-state goes to
    `tio` (the port functions get it)."""
    wait = "t += D[t + {T} + %d]"
    if isinstance(port, int):
        steps = io_steps(cont.lo <= port < cont.hi, not port & 1)
        out = []
        for n, (contended, length) in enumerate(steps):
            if contended:
                out.append(wait % o)
            o += length
            if n == 0:
                out.append("tio = t + {T} + %d" % o)
        return out
    hc = f"{cont.lo} <= pt < {cont.hi}"
    return [f"pt = {port}", f"if {hc}: " + wait % o, "tio = t + {T} + %d" % (o + 1),
            "if not pt & 1: " + wait % (o + 1),
            f"elif {hc}: " + "; ".join(wait % (o + k) for k in (1, 2, 3))]


def contention_code(main, taken, cont, ir=False, pc_dynamic=False, length=1, own_bytes=True):
    """(prologue, taken lines) that hold the CPU up by the delays of cont. The prologue runs before the
    instruction's own lines and adds every wait of its cycles to `t` (so each later `t + {T} + k` is the
    contended T-state); it leaves the T-state of the I/O access in `tio`, and of a write in `twa` / `twb`
    when a later cycle of the instruction may still wait (else the write's line computes it). The taken
    lines add the waits of the cycles a taken conditional (or a repeating block instruction) adds.
    Addresses are those of the registers as the instruction starts; `ir` says whether I is contended
    (True/False, or an expression); with pc_dynamic, the leading cycles on the instruction's own bytes are
    tested together first (code outside contended memory pays one test), and own_bytes=False leaves out
    every test on pc+k (for code the caller knows lies outside contended memory)."""
    flags = []                          # the taken cycles' conditions, on the registers as the instruction starts

    def lines(cycles, o, writes, estimate_only=False, taken_side=False):
        out = []
        k = 0
        while k < len(cycles):
            c = cycles[k]
            if c.kind == "IO":
                out += _io_lines(c.addr, o, cont)
                o += TLEN["IO"]
                k += 1
                continue
            run = [c]                   # consecutive cycles on one address share one test
            while k + len(run) < len(cycles) and cycles[k + len(run)].addr == c.addr \
                    and cycles[k + len(run)].kind != "IO" and run[-1].kind != "W":
                run.append(cycles[k + len(run)])
            cond = _contended(c.addr, cont, ir, own_bytes)
            if taken_side and isinstance(cond, str) and _on_registers(c.addr):
                flags.append(f"ck{len(flags)} = {cond}")
                cond = f"ck{len(flags) - 1}"
            waits = []
            for cy in run:
                waits.append(f"t += D[t + {{T}} + {o}]")
                o += TLEN[cy.kind]
            if cond is True and not estimate_only:
                out += waits
            elif cond and not estimate_only:
                out.append(f"if {cond}: " + "; ".join(waits))
            if run[-1].kind == "W":
                name = "twa" if writes == 0 else "twb"
                writes += 1
                rest = cycles[k + len(run):]
                if _may_hit_screen(c.addr) and (estimate_only or any(
                        _contended(x.addr, cont, ir, own_bytes) is not False for x in rest)):
                    out.append(f"{name} = t + {{T}} + {o}")
                else:
                    write_t[name] = f"t + {{T}} + {o}"
            k += len(run)
        return out, o, writes

    write_t = {}                        # writes timed by their own line: name -> expression
    lead = []
    if pc_dynamic:                      # the instruction's own bytes first: one test for all of them
        n = 0
        while n < len(main) and isinstance(main[n].addr, str) and _PC_RE.fullmatch(main[n].addr):
            n += 1
        head, o, _ = lines(main[:n], 0, 0)
        if len(head) > 1:
            lead = [f"if {cont.lo - length + 1} <= pc < {cont.hi}:"] + ["    " + x for x in head]
        else:
            lead = head
        body, o, writes = lines(main[n:], o, 0)
    else:
        body, o, writes = lines(main, 0, 0)
    pro = lead + body
    if any(c.kind == "W" for c in taken):       # a taken CALL cc writes in its own lines: time them now
        est, _, _ = lines(taken, o, writes, estimate_only=True)
        pro += est
    extra, _, _ = lines(taken, o, writes, taken_side=True)
    extra = [ln for ln in extra if not ln.startswith("tw")]
    return pro + flags, extra, write_t
