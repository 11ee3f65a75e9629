"""The one Z80 decoder: the bytes at an address -> an Instr record (z80_records.py) saying what the
instruction reads and writes, its bus cycles, T-states, how it leaves, and its effect as template
lines. Table-driven: BASE (here) and ED (z80_decode_ed.py) map each opcode to a small handler; CB
and DDCB are decoded by field. It serves both back ends (real operands for blocks, Expr operands
for the interpreter); it knows neither the machine's memory map nor its contention."""
from . import z80_bus
from .z80_decode_ed import ED, POP, PrefixedOps
from .z80_operands import CC, CC_FLAG, CCN, R8, R8N, RP2N, Fields
from .z80_records import BRANCH, HALT, JUMP, STOP, Store, make
from .z80_records import FlagLine as F
from .z80_records import MemptrLine as W
from .z80_tables import ALL_FLAGS, FLAG_3, FLAG_5, FLAG_C, FLAG_H, FLAG_N

ALUN = ("ADD A,", "ADC A,", "SUB ", "SBC A,", "AND ", "XOR ", "OR ", "CP ")
# ALU A,v: the lines of each operation (v is an expression 0..255)
ALU = (
    (F("f = ADDF[a << 8 | {v}]"), "a = (a + {v}) & 255"),                            # ADD A,v
    ("x = f & 1", F("f = ADDF[x << 16 | a << 8 | {v}]"), "a = (a + {v} + x) & 255"), # ADC A,v
    (F("f = SUBF[a << 8 | {v}]"), "a = (a - {v}) & 255"),                            # SUB v
    ("x = f & 1", F("f = SUBF[x << 16 | a << 8 | {v}]"), "a = (a - {v} - x) & 255"), # SBC A,v
    ("a &= {v}", F("f = ANDF[a]")),                                                  # AND v
    ("a ^= {v}", F("f = SZ53P[a]")),                                                 # XOR v
    ("a |= {v}", F("f = SZ53P[a]")),                                                 # OR v
    (F("f = CPF[a << 8 | {v}]"),),                                                   # CP v
)
ALU_READS_C = (1, 3)              # ADC, SBC
ALU_KEEPS_A = 7                   # CP

R53 = FLAG_5 | FLAG_3
NOT_C = ALL_FLAGS ^ FLAG_C
ROT_FLAGS = FLAG_C | FLAG_N | FLAG_H | R53          # what RLCA ... RRA change (S, Z, P/V kept)
# The accumulator column x=0, z=7, as data: (opcode, mnemonic, lines, flags read, flags written,
# registers written[, reads the Q latch]). SCF/CCF: bits 5,3 = (A | (F & ~Q)) & 0x28, Q = the flags
# if the previous instruction set them, else 0 (genuine Zilog parts; D. Banks's Z80Decoder wiki,
# M. Sainz de Baranda); {qmask} is filled in per use.
ACC_OPS = (
    (0x07, "RLCA", ("a = ((a << 1) | (a >> 7)) & 255", F("f = (f & 196) | (a & 41)")),
     0, ROT_FLAGS, "a"),
    (0x0F, "RRCA", (F("f = (f & 196) | (a & 1)"), "a = (a >> 1) | ((a & 1) << 7)",
                    F("f |= a & 40")),
     0, ROT_FLAGS, "a"),
    (0x17, "RLA", ("x = (a << 1) | (f & 1)", F("f = (f & 196) | (a >> 7) | (x & 40)"),
                   "a = x & 255"),
     FLAG_C, ROT_FLAGS, "a"),
    (0x1F, "RRA", ("x = (a >> 1) | ((f & 1) << 7)", F("f = (f & 196) | (a & 1) | (x & 40)"),
                   "a = x"),
     FLAG_C, ROT_FLAGS, "a"),
    (0x27, "DAA", ("x = DAAT[((f & 3) | ((f >> 2) & 4)) << 8 | a]", "a = x >> 8", F("f = x & 255")),
     FLAG_C | FLAG_N | FLAG_H, ALL_FLAGS, "a"),
    (0x2F, "CPL", ("a ^= 255", F("f = (f & 197) | (a & 40) | 18")),
     0, FLAG_N | FLAG_H | R53, "a"),
    (0x37, "SCF", (F("f = (f & 196) | ((a | (f & {qmask})) & 40) | 1"),),
     R53, ROT_FLAGS, "", True),
    (0x3F, "CCF", (F("f = (f & 196) | ((f & 1) << 4) | ((f & 1) ^ 1) "
                     "| ((a | (f & {qmask})) & 40)"),),
     FLAG_C | R53, ROT_FLAGS, "", True),
)
ACC = {row[0]: row[1:] for row in ACC_OPS}


class Decoder(PrefixedOps):
    """Decodes one instruction at an address of mem (a bytearray, or a Template) into an Instr."""

    def __init__(self, mem):
        self.mem = mem

    def decode(self, addr):
        """The Instr at addr, with its bus cycles and its memory writes named in cycle order."""
        ins = self._decode(addr)
        ins.cycles, ins.taken_cycles = z80_bus.cycles(self.mem, addr)
        for store, name in zip(ins.stores, ("wa", "wb"), strict=False):     # 0 to 2 stores
            store.name = name
        return ins

    @staticmethod
    def push(hi, lo):
        return ["sp = (sp - 1) & 65535", Store("sp", hi), "sp = (sp - 1) & 65535", Store("sp", lo)]

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
            return make(addr, 1, px.upper() + " prefix (no-op)", 1, 4, [], flow=STOP, post="_eir")
        return self.base(addr, addr, op, None)

    # ---- unprefixed and DD/FD-prefixed instructions: BASE (below the class) maps each opcode to
    # one of these handlers; c holds the decoded fields, operands and the DD/FD index register
    def base(self, addr, q, op, px):
        c = Fields(self.mem, addr, q, op, px)
        return getattr(self, BASE[op])(c)          # the handler BASE names for the opcode

    def ins(self, c, n, mn, tstates, body, reads=(), writes=(), fr=0, fw=0, **kw):
        """An Instr of n bytes (plus the prefix) at c's address: reads / writes are the registers,
        fr / fw the flag bits it reads / writes; kw says how it leaves (z80_records.Instr)."""
        return make(c.addr, c.length(n), mn, c.m1, tstates, body, reads, writes, fr, fw, **kw)

    def _nop(self, c):
        return self.ins(c, 1, "NOP", c.tx(4), [])

    def _ex_af(self, c):
        return self.ins(c, 1, "EX AF,AF'", c.tx(4), ["a, f, a_, f_ = a_, f_, a, f"],
                        reads="a a_ f_", writes="a a_ f_", fr=ALL_FLAGS, fw=ALL_FLAGS,
                        computed=False)

    def _djnz(self, c):
        dst = c.rel()
        return self.ins(c, 2, f"DJNZ {dst:#06x}", c.tx(8), ["b = (b - 1) & 255"],
                        reads="b wz", writes="b wz",
                        flow=BRANCH, cond="b", taken=[W(f"wz = {dst}")], target=dst,
                        taken_tstates=c.tx(13))

    def _jr(self, c):
        dst = c.rel()
        return self.ins(c, 2, f"JR {dst:#06x}", c.tx(12), [W(f"wz = {dst}")], writes="wz",
                        flow=JUMP, target=dst, taken_tstates=c.tx(12))

    def _jr_cc(self, c):
        dst, cc = c.rel(), c.y - 4
        return self.ins(c, 2, f"JR {CCN[cc]},{dst:#06x}", c.tx(7), [],
                        reads="wz", writes="wz", fr=CC_FLAG[cc],
                        flow=BRANCH, cond=CC[cc], taken=[W(f"wz = {dst}")], target=dst,
                        taken_tstates=c.tx(12))

    def _ld_rr_nn(self, c):
        nn, regs = c.nn, c.pair_regs(c.p)
        if len(regs) == 2:
            body = [f"{regs[0]} = {c.b2}", f"{regs[1]} = {c.b1}"]
        else:
            body = [f"{regs[0]} = {nn}"]
        return self.ins(c, 3, f"LD {c.rpn(c.p)},{nn:#06x}", c.tx(10), body, writes=regs)

    def _add_hl_rr(self, c):
        hl, src = c.pair_regs(2), c.pair_regs(c.p)
        body = [f"v = {c.hl}", f"w = {self.rd16(src)}", "r = v + w", W("wz = (v + 1) & 65535"),
                F("f = (f & 196) | ((r >> 16) & 1) | ((r >> 8) & 40) | (((v ^ w ^ r) >> 8) & 16)")]
        body += self.wr16(hl, "r & 65535")
        return self.ins(c, 1, f"ADD {c.PX},{c.rpn(c.p)}", c.tx(11), body,
                        reads=hl + src, writes=hl + ("wz",), fw=ROT_FLAGS)

    def _ld_ind_a(self, c):          # LD (BC),A / LD (DE),A
        rp = ("b", "c") if c.y == 0 else ("d", "e")
        body = [f"v = {self.rd16(rp)}", Store("v", "a"), W("wz = ((v + 1) & 255) | (a << 8)")]
        return self.ins(c, 1, f"LD ({''.join(rp).upper()}),A", c.tx(7), body,
                        reads=rp + ("a",), writes="wz")

    def _ld_a_ind(self, c):          # LD A,(BC) / LD A,(DE)
        rp = ("b", "c") if c.y == 1 else ("d", "e")
        body = [f"v = {self.rd16(rp)}", "a = M[v]", W("wz = (v + 1) & 65535")]
        return self.ins(c, 1, f"LD A,({''.join(rp).upper()})", c.tx(7), body,
                        reads=rp, writes="a wz")

    def _ld_nn_hl(self, c):
        nn, n1 = c.nn, (c.nn + 1) & 65535
        body = [Store(nn, c.r8(5)[0]), Store(n1, c.r8(4)[0]), W(f"wz = {n1}")]
        return self.ins(c, 3, f"LD ({nn:#06x}),{c.PX}", c.tx(16), body,
                        reads=c.pair_regs(2), writes="wz")

    def _ld_hl_nn(self, c):
        nn, n1, hl = c.nn, (c.nn + 1) & 65535, c.pair_regs(2)
        body = self.wr16(hl, f"M[{nn}] | M[{n1}] << 8") + [W(f"wz = {n1}")]
        return self.ins(c, 3, f"LD {c.PX},({nn:#06x})", c.tx(16), body, writes=hl + ("wz",))

    def _ld_nn_a(self, c):
        nn = c.nn
        body = [Store(nn, "a"), W(f"wz = {(nn + 1) & 255} | (a << 8)")]
        return self.ins(c, 3, f"LD ({nn:#06x}),A", c.tx(13), body, reads="a", writes="wz")

    def _ld_a_nn(self, c):
        nn = c.nn
        body = [f"a = M[{nn}]", W(f"wz = {(nn + 1) & 65535}")]
        return self.ins(c, 3, f"LD A,({nn:#06x})", c.tx(13), body, writes="a wz")

    def _inc_dec_rr(self, c):
        regs, inc = c.pair_regs(c.p), c.qq == 0
        if len(regs) == 1:
            body = [f"{regs[0]} = ({regs[0]} {'+' if inc else '-'} 1) & 65535"]
        else:
            hi, lo = regs
            carry = f"if not {lo}: {hi} = ({hi} {'+' if inc else '-'} 1) & 255"
            step = f"{lo} = ({lo} {'+' if inc else '-'} 1) & 255"
            body = [step, carry] if inc else [carry, step]
        return self.ins(c, 1, f"{'INC' if inc else 'DEC'} {c.rpn(c.p)}", c.tx(6), body,
                        reads=regs, writes=regs)

    def _inc_dec_r(self, c):
        y, px = c.y, c.px
        tab, mn, sign = ("INCF", "INC", "+") if c.z == 4 else ("DECF", "DEC", "-")
        if y == 6:
            body = [f"wa = {c.iaddr}", "v = M[wa]", F(f"f = (f & 1) | {tab}[v]"),
                    Store("wa", f"(v {sign} 1) & 255")] + ([W("wz = wa")] if px else [])
            return self.ins(c, 2 if px else 1, f"{mn} {c.mref}", c.tx(11, True), body,
                            reads=c.pair_regs(2), writes="wz" if px else "", fw=NOT_C)
        r, rregs = c.r8(y)
        lines, wregs, kept = c.set8(y, f"({r} {sign} 1) & 255")
        return self.ins(c, 1, f"{mn} {c.rn(y)}", c.tx(4), [F(f"f = (f & 1) | {tab}[{r}]")] + lines,
                        reads=rregs + kept, writes=wregs, fw=NOT_C)

    def _ld_r_n(self, c):
        y, px = c.y, c.px
        if y == 6:
            body = [Store(c.iaddr, str(c.imm1))] + ([W("wz = wa")] if px else [])
            return self.ins(c, 3 if px else 2, f"LD {c.mref},{c.imm1:#04x}", c.tx(10, True, 9),
                            body, reads=c.pair_regs(2), writes="wz" if px else "")
        lines, wregs, kept = c.set8(y, str(c.b1))
        return self.ins(c, 2, f"LD {c.rn(y)},{c.b1:#04x}", c.tx(7), lines, reads=kept, writes=wregs)

    def _acc(self, c):               # RLCA RRCA RLA RRA DAA CPL SCF CCF
        mn, lines, fr, fw, regs, *q = ACC[c.op]
        return self.ins(c, 1, mn, c.tx(4), lines, reads="a", writes=regs, fr=fr, fw=fw,
                        reads_q=bool(q))

    def _halt(self, c):
        return self.ins(c, 1, "HALT", c.tx(4), ["S.halted = 1"], flow=HALT)

    def _ld_r_r(self, c):
        y, z, px = c.y, c.z, c.px
        mem_n = 2 if px else 1
        if z == 6:       # LD r,(HL) / LD r,(IX+d): H and L stay H and L
            if px:
                body = [f"wa = {c.iaddr}", f"{R8[y]} = M[wa]", W("wz = wa")]
            else:
                body = [f"{R8[y]} = M[{c.iaddr}]"]
            return self.ins(c, mem_n, f"LD {R8N[y]},{c.mref}", c.tx(7, True), body,
                            reads=c.pair_regs(2), writes=(R8[y], "wz") if px else (R8[y],))
        if y == 6:
            body = [Store(c.iaddr, R8[z])] + ([W("wz = wa")] if px else [])
            return self.ins(c, mem_n, f"LD {c.mref},{R8N[z]}", c.tx(7, True), body,
                            reads=c.pair_regs(2) + (R8[z],), writes="wz" if px else "")
        if y == z:
            return self.ins(c, 1, f"LD {c.rn(y)},{c.rn(z)}", c.tx(4), [])
        src, rregs = c.r8(z)
        lines, wregs, kept = c.set8(y, src)
        return self.ins(c, 1, f"LD {c.rn(y)},{c.rn(z)}", c.tx(4), lines,
                        reads=rregs + kept, writes=wregs)

    @staticmethod
    def _alu(y, v):
        """(lines, flags read, registers written) of ALU operation y on value v."""
        return ([type(s)(s.format(v=v)) for s in ALU[y]], FLAG_C if y in ALU_READS_C else 0,
                () if y == ALU_KEEPS_A else ("a",))

    def _alu_r(self, c):
        y, z, px = c.y, c.z, c.px
        if z == 6:
            lines, fr, writes = self._alu(y, "v")
            load = [f"wa = {c.iaddr}", "v = M[wa]", W("wz = wa")] if px else [f"v = M[{c.iaddr}]"]
            return self.ins(c, 2 if px else 1, f"{ALUN[y]}{c.mref}", c.tx(7, True), load + lines,
                            reads=c.pair_regs(2) + ("a",), writes=writes + (("wz",) if px else ()),
                            fr=fr, fw=ALL_FLAGS)
        src, rregs = c.r8(z)
        lines, fr, writes = self._alu(y, src)
        return self.ins(c, 1, f"{ALUN[y]}{c.rn(z)}", c.tx(4), lines,
                        reads=rregs + ("a",), writes=writes, fr=fr, fw=ALL_FLAGS)

    def _alu_n(self, c):
        lines, fr, writes = self._alu(c.y, c.b1)
        return self.ins(c, 2, f"{ALUN[c.y]}{c.b1:#04x}", 7, lines,
                        reads="a", writes=writes, fr=fr, fw=ALL_FLAGS)

    def _ret_cc(self, c):
        y = c.y
        return self.ins(c, 1, f"RET {CCN[y]}", 5, [], reads="sp wz", writes="sp wz", fr=CC_FLAG[y],
                        flow=BRANCH, cond=CC[y], taken=POP + [W("wz = v")], target="v",
                        taken_tstates=11)

    def _pop(self, c):
        p = c.p
        if p == 3:
            body = [F("f = M[sp]"), "a = M[(sp + 1) & 65535]", "sp = (sp + 2) & 65535"]
            return self.ins(c, 1, "POP AF", 10, body, reads="sp", writes="sp a", fw=ALL_FLAGS,
                            computed=False)
        regs = c.pair_regs(p)
        return self.ins(c, 1, f"POP {RP2N[p] if p != 2 else c.PX}", c.tx(10),
                        POP + self.wr16(regs, "v"), reads="sp", writes=("sp",) + regs)

    def _ret(self, c):
        return self.ins(c, 1, "RET", 10, POP + [W("wz = v")], reads="sp", writes="sp wz",
                        flow=JUMP, target="v", taken_tstates=10, ret=True)

    def _exx(self, c):
        regs = "b c d e h l b_ c_ d_ e_ h_ l_"
        body = ["b, c, d, e, h, l, b_, c_, d_, e_, h_, l_ = "
                "b_, c_, d_, e_, h_, l_, b, c, d, e, h, l"]
        return self.ins(c, 1, "EXX", 4, body, reads=regs, writes=regs)

    def _jp_hl(self, c):
        return self.ins(c, 1, f"JP ({c.PX})", c.tx(4), [], reads=c.pair_regs(2),
                        flow=JUMP, target=c.hl, taken_tstates=c.tx(4))

    def _ld_sp_hl(self, c):
        return self.ins(c, 1, f"LD SP,{c.PX}", c.tx(6), [f"sp = {c.hl}"], reads=c.pair_regs(2),
                        writes="sp")

    def _jp_cc(self, c):
        y, nn = c.y, c.nn
        return self.ins(c, 3, f"JP {CCN[y]},{nn:#06x}", 10, [W(f"wz = {nn}")], writes="wz",
                        fr=CC_FLAG[y], flow=BRANCH, cond=CC[y], target=nn, taken_tstates=10)

    def _jp(self, c):
        nn = c.nn
        return self.ins(c, 3, f"JP {nn:#06x}", 10, [W(f"wz = {nn}")], writes="wz",
                        flow=JUMP, target=nn, taken_tstates=10)

    def _out_n_a(self, c):
        b1 = c.b1
        body = [f"POUT(a << 8 | {b1}, a, {{io_t}})", W(f"wz = (a << 8) | {(b1 + 1) & 255}")]
        return self.ins(c, 2, f"OUT ({b1:#04x}),A", 11, body, reads="a", writes="wz")

    def _in_a_n(self, c):
        b1 = c.b1
        body = [f"v = a << 8 | {b1}", "a = PIN(v, {io_t}) & 255", W("wz = (v + 1) & 65535")]
        return self.ins(c, 2, f"IN A,({b1:#04x})", 11, body, reads="a", writes="a wz")

    def _ex_sp_hl(self, c):
        hl = c.pair_regs(2)
        body = ["v = M[sp] | M[(sp + 1) & 65535] << 8", Store("(sp + 1) & 65535", c.r8(4)[0]),
                Store("sp", c.r8(5)[0])] + self.wr16(hl, "v") + [W("wz = v")]
        return self.ins(c, 1, f"EX (SP),{c.PX}", c.tx(19), body,
                        reads=("sp",) + hl, writes=hl + ("wz",))

    def _ex_de_hl(self, c):
        body = ["x = d", "d = h", "h = x", "x = e", "e = l", "l = x"]
        return self.ins(c, 1, "EX DE,HL", 4, body, reads="d e h l", writes="d e h l")

    def _di(self, c):
        return self.ins(c, 1, "DI", 4, ["S.iff1 = 0", "S.iff2 = 0"])

    def _ei(self, c):
        return self.ins(c, 1, "EI", 4, ["S.iff1 = 1", "S.iff2 = 1"], flow=STOP, post="_eir")

    def _call_cc(self, c):
        y, nn, ret = c.y, c.nn, c.target(3)
        return self.ins(c, 3, f"CALL {CCN[y]},{nn:#06x}", 10, [W(f"wz = {nn}")],
                        reads="sp", writes="sp wz", fr=CC_FLAG[y],
                        flow=BRANCH, cond=CC[y], taken=self.push(ret >> 8, ret & 255), target=nn,
                        taken_tstates=17, call_return=ret)

    def _push(self, c):
        p = c.p
        if p == 3:
            return self.ins(c, 1, "PUSH AF", 11, self.push("a", "f"), reads="sp a", writes="sp",
                            fr=ALL_FLAGS)
        regs = c.pair_regs(p)
        hi, lo = (f"{regs[0]} >> 8", f"{regs[0]} & 255") if len(regs) == 1 else regs
        return self.ins(c, 1, f"PUSH {RP2N[p] if p != 2 else c.PX}", c.tx(11), self.push(hi, lo),
                        reads=("sp",) + regs, writes="sp")

    def _call(self, c):
        nn, ret = c.nn, c.target(3)
        return self.ins(c, 3, f"CALL {nn:#06x}", 17,
                        self.push(ret >> 8, ret & 255) + [W(f"wz = {nn}")], reads="sp",
                        writes="sp wz", flow=JUMP, target=nn, taken_tstates=17, call_return=ret)

    def _rst(self, c):
        dst, ret = c.y * 8, c.target(1)
        return self.ins(c, 1, f"RST {dst:#04x}", 11,
                        self.push(ret >> 8, ret & 255) + [W(f"wz = {dst}")], reads="sp",
                        writes="sp wz", flow=JUMP, target=dst, taken_tstates=11, call_return=ret)


def _rows(*spec):
    """Expand (opcodes, mnemonic, handler) rows into a 256-entry dispatch list of handler names."""
    out = [None] * 256
    for ops, _mnemonic, handler in spec:
        for op in ([ops] if isinstance(ops, int) else ops):
            assert out[op] is None, hex(op)
            out[op] = handler
    return out


_R = range
# Unprefixed opcodes (DD/FD use the same rows with HL -> IX/IY); CB, DD, ED, FD are prefixes.
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
assert len(ED) == 256
