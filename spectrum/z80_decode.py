"""The one Z80 decoder: the bytes at an address -> an Instr record (z80_records.py) saying what the
instruction reads and writes, its bus cycles, T-states, how it leaves, and its effect as template
lines. Table-driven: each opcode is one row of BASE (here), ED or CB (z80_decode_ed.py), giving
its mnemonic, the small handler that makes its record, and its bus cycles, whose sums are its
T-states and M1 cycles. It serves both back ends (real operands for blocks, Expr operands for the
interpreter); it knows neither the machine's memory map nor its contention."""
from collections.abc import Collection, Iterable
from typing import Any

from . import z80_bus
from .z80_bus import Row, row, table
from .z80_decode_ed import CB, ED, POP, PrefixedOps
from .z80_operands import CC, CC_FLAG, CCN, R8, R8N, RP2N, Fields, Val
from .z80_records import BRANCH, HALT, JUMP, STOP, Instr, Store, make
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

    def __init__(self, mem: Any) -> None:       # a bytearray, or a z80_operands.Template
        self.mem = mem

    def decode(self, addr: Val) -> Instr:
        """The Instr at addr: the record its row's handler makes, with the row's bus cycles (their
        sums are its T-states and M1 cycles) and its memory writes named in cycle order."""
        m = self.mem
        b0 = m[addr]
        px, op_at = None, 1                 # op_at: the offset of the byte after a prefix
        if b0 == 0xCB:
            entry = CB[m[(addr + 1) & 65535]]
            ins = self.cb(addr)             # (by field; its rows all name it)
        elif b0 == 0xED:
            entry = ED[m[(addr + 1) & 65535]]
            ins = self.ed(addr, entry.handler)
        elif b0 in (0xDD, 0xFD):
            px, op = ("ix" if b0 == 0xDD else "iy"), m[(addr + 1) & 65535]
            if op == 0xCB:
                entry = CB[m[(addr + 3) & 65535]]
                ins = self.xycb(addr, px)
            elif prefix_changes(op):
                entry = BASE[op]
                ins = self.base(entry, Fields(m, addr, (addr + 1) & 65535, op, px))
            else:                           # a lone prefix: 4 T, then the next opcode
                entry, mn, px = BASE[b0], f"{px.upper()} prefix (no-op)", None
                ins = make(addr, 1, mn, [], flow=STOP, post="_eir")
        else:
            entry, op_at = BASE[b0], 0
            ins = self.base(entry, Fields(m, addr, addr, b0, None))
        main = entry.xy if px else entry.cycles
        ins.cycles = z80_bus.resolve(main, m, addr, op_at, px)
        ins.taken_cycles = z80_bus.resolve(entry.taken, m, addr, op_at, px)
        ins.m1, ins.tstates = main.m1, main.tstates
        ins.taken_tstates = main.tstates + entry.taken.tstates
        for store, name in zip(ins.stores, ("wa", "wb"), strict=False):     # 0 to 2 stores
            store.name = name
        return ins

    @staticmethod
    def push(hi: Val | str, lo: Val | str) -> list[str | Store]:
        return ["sp = (sp - 1) & 65535", Store("sp", hi), "sp = (sp - 1) & 65535", Store("sp", lo)]

    # ---- unprefixed and DD/FD-prefixed instructions: each row of BASE (below the class) names one
    # of these handlers; c holds the decoded fields, operands and the DD/FD index register
    def base(self, entry: Row, c: Fields) -> Instr:
        return getattr(self, entry.handler)(c)     # the handler the opcode's row in BASE names

    def ins(self, c: Fields, n: int, mn: str, body: Iterable[Any], reads: str | Iterable[str] = (),
            writes: str | Iterable[str] = (), fr: int = 0, fw: int = 0, **kw: Any) -> Instr:
        """An Instr of n bytes (plus the prefix) at c's address: reads / writes are the registers,
        fr / fw the flag bits it reads / writes; kw says how it leaves (z80_records.Instr)."""
        return make(c.addr, c.length(n), mn, body, reads, writes, fr, fw, **kw)

    def _nop(self, c: Fields) -> Instr:
        return self.ins(c, 1, "NOP", [])

    def _ex_af(self, c: Fields) -> Instr:
        return self.ins(c, 1, "EX AF,AF'", ["a, f, a_, f_ = a_, f_, a, f"],
                        reads="a a_ f_", writes="a a_ f_", fr=ALL_FLAGS, fw=ALL_FLAGS,
                        computed=False)

    def _djnz(self, c: Fields) -> Instr:
        dst = c.rel()
        return self.ins(c, 2, f"DJNZ {dst:#06x}", ["b = (b - 1) & 255"],
                        reads="b wz", writes="b wz",
                        flow=BRANCH, cond="b", taken=[W(f"wz = {dst}")], target=dst)

    def _jr(self, c: Fields) -> Instr:
        dst = c.rel()
        return self.ins(c, 2, f"JR {dst:#06x}", [W(f"wz = {dst}")], writes="wz",
                        flow=JUMP, target=dst)

    def _jr_cc(self, c: Fields) -> Instr:
        dst, cc = c.rel(), c.y - 4
        return self.ins(c, 2, f"JR {CCN[cc]},{dst:#06x}", [],
                        reads="wz", writes="wz", fr=CC_FLAG[cc],
                        flow=BRANCH, cond=CC[cc], taken=[W(f"wz = {dst}")], target=dst)

    def _ld_rr_nn(self, c: Fields) -> Instr:
        nn, regs = c.nn, c.pair_regs(c.p)
        if len(regs) == 2:
            body = [f"{regs[0]} = {c.b2}", f"{regs[1]} = {c.b1}"]
        else:
            body = [f"{regs[0]} = {nn}"]
        return self.ins(c, 3, f"LD {c.rpn(c.p)},{nn:#06x}", body, writes=regs)

    def _add_hl_rr(self, c: Fields) -> Instr:
        hl, src = c.pair_regs(2), c.pair_regs(c.p)
        body = [f"v = {c.hl}", f"w = {self.rd16(src)}", "r = v + w", W("wz = (v + 1) & 65535"),
                F("f = (f & 196) | ((r >> 16) & 1) | ((r >> 8) & 40) | (((v ^ w ^ r) >> 8) & 16)")]
        body += self.wr16(hl, "r & 65535")
        return self.ins(c, 1, f"ADD {c.PX},{c.rpn(c.p)}", body,
                        reads=hl + src, writes=hl + ("wz",), fw=ROT_FLAGS)

    def _ld_ind_a(self, c: Fields) -> Instr:          # LD (BC),A / LD (DE),A
        rp = ("b", "c") if c.y == 0 else ("d", "e")
        body = [f"v = {self.rd16(rp)}", Store("v", "a"), W("wz = ((v + 1) & 255) | (a << 8)")]
        return self.ins(c, 1, f"LD ({''.join(rp).upper()}),A", body,
                        reads=rp + ("a",), writes="wz")

    def _ld_a_ind(self, c: Fields) -> Instr:          # LD A,(BC) / LD A,(DE)
        rp = ("b", "c") if c.y == 1 else ("d", "e")
        body = [f"v = {self.rd16(rp)}", "a = M[v]", W("wz = (v + 1) & 65535")]
        return self.ins(c, 1, f"LD A,({''.join(rp).upper()})", body,
                        reads=rp, writes="a wz")

    def _ld_nn_hl(self, c: Fields) -> Instr:
        nn, n1 = c.nn, (c.nn + 1) & 65535
        body = [Store(nn, c.r8(5)[0]), Store(n1, c.r8(4)[0]), W(f"wz = {n1}")]
        return self.ins(c, 3, f"LD ({nn:#06x}),{c.PX}", body,
                        reads=c.pair_regs(2), writes="wz")

    def _ld_hl_nn(self, c: Fields) -> Instr:
        nn, n1, hl = c.nn, (c.nn + 1) & 65535, c.pair_regs(2)
        body = self.wr16(hl, f"M[{nn}] | M[{n1}] << 8") + [W(f"wz = {n1}")]
        return self.ins(c, 3, f"LD {c.PX},({nn:#06x})", body, writes=hl + ("wz",))

    def _ld_nn_a(self, c: Fields) -> Instr:
        nn = c.nn
        body = [Store(nn, "a"), W(f"wz = {(nn + 1) & 255} | (a << 8)")]
        return self.ins(c, 3, f"LD ({nn:#06x}),A", body, reads="a", writes="wz")

    def _ld_a_nn(self, c: Fields) -> Instr:
        nn = c.nn
        body = [f"a = M[{nn}]", W(f"wz = {(nn + 1) & 65535}")]
        return self.ins(c, 3, f"LD A,({nn:#06x})", body, writes="a wz")

    def _inc_dec_rr(self, c: Fields) -> Instr:
        regs, inc = c.pair_regs(c.p), not c.op & 8      # INC rr: 03 13 23 33, DEC rr: 0B ...
        if len(regs) == 1:
            body = [f"{regs[0]} = ({regs[0]} {'+' if inc else '-'} 1) & 65535"]
        else:
            hi, lo = regs
            carry = f"if not {lo}: {hi} = ({hi} {'+' if inc else '-'} 1) & 255"
            step = f"{lo} = ({lo} {'+' if inc else '-'} 1) & 255"
            body = [step, carry] if inc else [carry, step]
        return self.ins(c, 1, f"{'INC' if inc else 'DEC'} {c.rpn(c.p)}", body,
                        reads=regs, writes=regs)

    @staticmethod
    def _inc_dec(c: Fields) -> tuple[str, str, str]:
        """(flag table, mnemonic, sign) of INC (z = 4) or DEC (z = 5)."""
        return ("INCF", "INC", "+") if c.z == 4 else ("DECF", "DEC", "-")

    def _inc_dec_hl(self, c: Fields) -> Instr:        # INC (HL) / DEC (HL), INC (IX+d) / DEC (IX+d)
        tab, mn, sign = self._inc_dec(c)
        body = [f"wa = {c.iaddr}", "v = M[wa]", F(f"f = (f & 1) | {tab}[v]"),
                Store("wa", f"(v {sign} 1) & 255")] + ([W("wz = wa")] if c.px else [])
        return self.ins(c, 2 if c.px else 1, f"{mn} {c.mref}", body,
                        reads=c.pair_regs(2), writes="wz" if c.px else "", fw=NOT_C)

    def _inc_dec_r(self, c: Fields) -> Instr:
        y = c.y
        tab, mn, sign = self._inc_dec(c)
        r, rregs = c.r8(y)
        lines, wregs, kept = c.set8(y, f"({r} {sign} 1) & 255")
        return self.ins(c, 1, f"{mn} {c.rn(y)}", [F(f"f = (f & 1) | {tab}[{r}]")] + lines,
                        reads=rregs + kept, writes=wregs, fw=NOT_C)

    def _ld_hl_n(self, c: Fields) -> Instr:           # LD (HL),n / LD (IX+d),n
        body = [Store(c.iaddr, str(c.imm1))] + ([W("wz = wa")] if c.px else [])
        return self.ins(c, 3 if c.px else 2, f"LD {c.mref},{c.imm1:#04x}", body,
                        reads=c.pair_regs(2), writes="wz" if c.px else "")

    def _ld_r_n(self, c: Fields) -> Instr:
        y = c.y
        lines, wregs, kept = c.set8(y, str(c.b1))
        return self.ins(c, 2, f"LD {c.rn(y)},{c.b1:#04x}", lines, reads=kept, writes=wregs)

    def _acc(self, c: Fields) -> Instr:               # RLCA RRCA RLA RRA DAA CPL SCF CCF
        mn, lines, fr, fw, regs, *reads_q = ACC[c.op]
        return self.ins(c, 1, mn, lines, reads="a", writes=regs, fr=fr, fw=fw,
                        reads_q=bool(reads_q))

    def _halt(self, c: Fields) -> Instr:
        return self.ins(c, 1, "HALT", ["S.halted = 1"], flow=HALT)

    # LD r,(HL) / LD r,(IX+d): H and L stay H and L
    def _ld_r_hl(self, c: Fields) -> Instr:
        y, px = c.y, c.px
        if px:
            body = [f"wa = {c.iaddr}", f"{R8[y]} = M[wa]", W("wz = wa")]
        else:
            body = [f"{R8[y]} = M[{c.iaddr}]"]
        return self.ins(c, 2 if px else 1, f"LD {R8N[y]},{c.mref}", body,
                        reads=c.pair_regs(2), writes=(R8[y], "wz") if px else (R8[y],))

    # LD (HL),r / LD (IX+d),r: H and L stay H and L
    def _ld_hl_r(self, c: Fields) -> Instr:
        z, px = c.z, c.px
        body = [Store(c.iaddr, R8[z])] + ([W("wz = wa")] if px else [])
        return self.ins(c, 2 if px else 1, f"LD {c.mref},{R8N[z]}", body,
                        reads=c.pair_regs(2) + (R8[z],), writes="wz" if px else "")

    def _ld_r_r(self, c: Fields) -> Instr:
        y, z = c.y, c.z
        if y == z:
            return self.ins(c, 1, f"LD {c.rn(y)},{c.rn(z)}", [])
        src, rregs = c.r8(z)
        lines, wregs, kept = c.set8(y, src)
        return self.ins(c, 1, f"LD {c.rn(y)},{c.rn(z)}", lines,
                        reads=rregs + kept, writes=wregs)

    @staticmethod
    def _alu(y: int, v: str) -> tuple[list[str], int, tuple[str, ...]]:
        """(lines, flags read, registers written) of ALU operation y on value v."""
        return ([type(s)(s.format(v=v)) for s in ALU[y]], FLAG_C if y in ALU_READS_C else 0,
                () if y == ALU_KEEPS_A else ("a",))

    def _alu_hl(self, c: Fields) -> Instr:            # ALU A,(HL) / ALU A,(IX+d)
        y, px = c.y, c.px
        lines, fr, writes = self._alu(y, "v")
        load = [f"wa = {c.iaddr}", "v = M[wa]", W("wz = wa")] if px else [f"v = M[{c.iaddr}]"]
        return self.ins(c, 2 if px else 1, f"{ALUN[y]}{c.mref}", load + lines,
                        reads=c.pair_regs(2) + ("a",), writes=writes + (("wz",) if px else ()),
                        fr=fr, fw=ALL_FLAGS)

    def _alu_r(self, c: Fields) -> Instr:
        y, z = c.y, c.z
        src, rregs = c.r8(z)
        lines, fr, writes = self._alu(y, src)
        return self.ins(c, 1, f"{ALUN[y]}{c.rn(z)}", lines,
                        reads=rregs + ("a",), writes=writes, fr=fr, fw=ALL_FLAGS)

    def _alu_n(self, c: Fields) -> Instr:
        lines, fr, writes = self._alu(c.y, c.b1)
        return self.ins(c, 2, f"{ALUN[c.y]}{c.b1:#04x}", lines,
                        reads="a", writes=writes, fr=fr, fw=ALL_FLAGS)

    def _ret_cc(self, c: Fields) -> Instr:
        y = c.y
        return self.ins(c, 1, f"RET {CCN[y]}", [], reads="sp wz", writes="sp wz", fr=CC_FLAG[y],
                        flow=BRANCH, cond=CC[y], taken=POP + [W("wz = v")], target="v")

    def _pop_af(self, c: Fields) -> Instr:
        body = [F("f = M[sp]"), "a = M[(sp + 1) & 65535]", "sp = (sp + 2) & 65535"]
        return self.ins(c, 1, "POP AF", body, reads="sp", writes="sp a", fw=ALL_FLAGS,
                        computed=False)

    def _pop(self, c: Fields) -> Instr:
        p = c.p
        regs = c.pair_regs(p)
        return self.ins(c, 1, f"POP {RP2N[p] if p != 2 else c.PX}",
                        POP + self.wr16(regs, "v"), reads="sp", writes=("sp",) + regs)

    def _ret(self, c: Fields) -> Instr:
        return self.ins(c, 1, "RET", POP + [W("wz = v")], reads="sp", writes="sp wz",
                        flow=JUMP, target="v", ret=True)

    def _exx(self, c: Fields) -> Instr:
        regs = "b c d e h l b_ c_ d_ e_ h_ l_"
        body = ["b, c, d, e, h, l, b_, c_, d_, e_, h_, l_ = "
                "b_, c_, d_, e_, h_, l_, b, c, d, e, h, l"]
        return self.ins(c, 1, "EXX", body, reads=regs, writes=regs)

    def _jp_hl(self, c: Fields) -> Instr:
        return self.ins(c, 1, f"JP ({c.PX})", [], reads=c.pair_regs(2),
                        flow=JUMP, target=c.hl)

    def _ld_sp_hl(self, c: Fields) -> Instr:
        return self.ins(c, 1, f"LD SP,{c.PX}", [f"sp = {c.hl}"], reads=c.pair_regs(2),
                        writes="sp")

    def _jp_cc(self, c: Fields) -> Instr:
        y, nn = c.y, c.nn
        return self.ins(c, 3, f"JP {CCN[y]},{nn:#06x}", [W(f"wz = {nn}")], writes="wz",
                        fr=CC_FLAG[y], flow=BRANCH, cond=CC[y], target=nn)

    def _jp(self, c: Fields) -> Instr:
        nn = c.nn
        return self.ins(c, 3, f"JP {nn:#06x}", [W(f"wz = {nn}")], writes="wz",
                        flow=JUMP, target=nn)

    def _out_n_a(self, c: Fields) -> Instr:
        b1 = c.b1
        body = [f"POUT(a << 8 | {b1}, a, {{io_t}})", W(f"wz = (a << 8) | {(b1 + 1) & 255}")]
        return self.ins(c, 2, f"OUT ({b1:#04x}),A", body, reads="a", writes="wz")

    def _in_a_n(self, c: Fields) -> Instr:
        b1 = c.b1
        body = [f"v = a << 8 | {b1}", "a = PIN(v, {io_t}) & 255", W("wz = (v + 1) & 65535")]
        return self.ins(c, 2, f"IN A,({b1:#04x})", body, reads="a", writes="a wz")

    def _ex_sp_hl(self, c: Fields) -> Instr:
        hl = c.pair_regs(2)
        body = ["v = M[sp] | M[(sp + 1) & 65535] << 8", Store("(sp + 1) & 65535", c.r8(4)[0]),
                Store("sp", c.r8(5)[0])] + self.wr16(hl, "v") + [W("wz = v")]
        return self.ins(c, 1, f"EX (SP),{c.PX}", body,
                        reads=("sp",) + hl, writes=hl + ("wz",))

    def _ex_de_hl(self, c: Fields) -> Instr:
        body = ["x = d", "d = h", "h = x", "x = e", "e = l", "l = x"]
        return self.ins(c, 1, "EX DE,HL", body, reads="d e h l", writes="d e h l")

    def _di(self, c: Fields) -> Instr:
        return self.ins(c, 1, "DI", ["S.iff1 = 0", "S.iff2 = 0"])

    def _ei(self, c: Fields) -> Instr:
        return self.ins(c, 1, "EI", ["S.iff1 = 1", "S.iff2 = 1"], flow=STOP, post="_eir")

    def _call_cc(self, c: Fields) -> Instr:
        y, nn, ret = c.y, c.nn, c.target(3)
        return self.ins(c, 3, f"CALL {CCN[y]},{nn:#06x}", [W(f"wz = {nn}")],
                        reads="sp", writes="sp wz", fr=CC_FLAG[y],
                        flow=BRANCH, cond=CC[y], taken=self.push(ret >> 8, ret & 255), target=nn,
                        call_return=ret)

    def _push_af(self, c: Fields) -> Instr:
        return self.ins(c, 1, "PUSH AF", self.push("a", "f"), reads="sp a", writes="sp",
                        fr=ALL_FLAGS)

    def _push(self, c: Fields) -> Instr:
        p = c.p
        regs = c.pair_regs(p)
        hi, lo = (f"{regs[0]} >> 8", f"{regs[0]} & 255") if len(regs) == 1 else regs
        return self.ins(c, 1, f"PUSH {RP2N[p] if p != 2 else c.PX}", self.push(hi, lo),
                        reads=("sp",) + regs, writes="sp")

    def _call(self, c: Fields) -> Instr:
        nn, ret = c.nn, c.target(3)
        return self.ins(c, 3, f"CALL {nn:#06x}",
                        self.push(ret >> 8, ret & 255) + [W(f"wz = {nn}")], reads="sp",
                        writes="sp wz", flow=JUMP, target=nn, call_return=ret)

    def _rst(self, c: Fields) -> Instr:
        dst, ret = c.y * 8, c.target(1)
        return self.ins(c, 1, f"RST {dst:#04x}",
                        self.push(ret >> 8, ret & 255) + [W(f"wz = {dst}")], reads="sp",
                        writes="sp wz", flow=JUMP, target=dst, call_return=ret)


# The (IX+d) forms after DD/FD: the prefix, the opcode, the displacement, 5 T adding it to IX/IY
XY = "F.pc F.op R.op+1 N.op+1*5"
_R = range


def _ops(first: int, last: int, step: int = 1, but: Collection[int] = ()) -> list[int]:
    return [op for op in _R(first, last, step) if op not in but]


# Unprefixed opcodes, one row each (or one row for opcodes alike): mnemonic, handler, bus cycles
# (z80_bus), the cycles a taken branch adds, and the (IX+d) form's cycles where DD/FD make one;
# other opcodes that a DD/FD prefix changes (HL -> IX/IY, H -> IXH ...: prefix_changes) take the
# prefix's fetch and then their own cycles. CB, DD, ED, FD are prefixes.
PREFIX = row(0xDD, "prefix: CB DD ED FD; a lone IX/IY prefix (DD/FD before an opcode it leaves "
             "alone) is a 4-T no-op", "", "F.pc")[1]
BASE = table(
    row(0x00, "NOP", "_nop", "F.op"),
    row(0x08, "EX AF,AF'", "_ex_af", "F.op"),
    row(0x10, "DJNZ e", "_djnz", "F.op N.ir R.op+1", taken="N.op+1*5"),
    row(0x18, "JR e", "_jr", "F.op R.op+1 N.op+1*5"),
    row(_R(0x20, 0x40, 8), "JR NZ/Z/NC/C,e", "_jr_cc", "F.op R.op+1", taken="N.op+1*5"),
    row(_R(0x01, 0x40, 16), "LD BC/DE/HL/SP,nn", "_ld_rr_nn", "F.op R.op+1 R.op+2"),
    row(_R(0x09, 0x40, 16), "ADD HL,BC/DE/HL/SP", "_add_hl_rr", "F.op N.ir*7"),
    row(0x02, "LD (BC),A", "_ld_ind_a", "F.op W.bc"),
    row(0x12, "LD (DE),A", "_ld_ind_a", "F.op W.de"),
    row(0x0A, "LD A,(BC)", "_ld_a_ind", "F.op R.bc"),
    row(0x1A, "LD A,(DE)", "_ld_a_ind", "F.op R.de"),
    row(0x22, "LD (nn),HL", "_ld_nn_hl", "F.op R.op+1 R.op+2 W.nn W.nn+1"),
    row(0x2A, "LD HL,(nn)", "_ld_hl_nn", "F.op R.op+1 R.op+2 R.nn R.nn+1"),
    row(0x32, "LD (nn),A", "_ld_nn_a", "F.op R.op+1 R.op+2 W.nn"),
    row(0x3A, "LD A,(nn)", "_ld_a_nn", "F.op R.op+1 R.op+2 R.nn"),
    row(_R(0x03, 0x40, 8), "INC BC/DE/HL/SP (03 13 23 33), DEC (0B 1B 2B 3B)", "_inc_dec_rr",
        "F.op N.ir*2"),
    row(_ops(0x04, 0x40, 8, but=[0x34]), "INC B/C/D/E/H/L/A", "_inc_dec_r", "F.op"),
    row(_ops(0x05, 0x40, 8, but=[0x35]), "DEC B/C/D/E/H/L/A", "_inc_dec_r", "F.op"),
    row((0x34, 0x35), "INC (HL), DEC (HL)", "_inc_dec_hl", "F.op R.hl N.hl W.hl",
        xy=XY + " R.xy N.xy W.xy"),
    row(_ops(0x06, 0x40, 8, but=[0x36]), "LD B/C/D/E/H/L/A,n", "_ld_r_n", "F.op R.op+1"),
    row(0x36, "LD (HL),n", "_ld_hl_n", "F.op R.op+1 W.hl",
        xy="F.pc F.op R.op+1 R.op+2 N.op+2*2 W.xy"),
    row(_R(0x07, 0x40, 8), "RLCA RRCA RLA RRA DAA CPL SCF CCF", "_acc", "F.op"),
    row([op for op in _R(0x40, 0x80) if op & 7 != 6 and op & 0x38 != 0x30],
        "LD r,r' (r: B C D E H L A)", "_ld_r_r", "F.op"),
    row(_ops(0x46, 0x80, 8, but=[0x76]), "LD r,(HL)", "_ld_r_hl", "F.op R.hl", xy=XY + " R.xy"),
    row(_ops(0x70, 0x78, but=[0x76]), "LD (HL),r", "_ld_hl_r", "F.op W.hl", xy=XY + " W.xy"),
    row(0x76, "HALT", "_halt", "F.op"),
    row([op for op in _R(0x80, 0xC0) if op & 7 != 6], "ADD/ADC/SUB/SBC/AND/XOR/OR/CP A,r",
        "_alu_r", "F.op"),
    row(_R(0x86, 0xC0, 8), "ADD/ADC/SUB/SBC/AND/XOR/OR/CP A,(HL)", "_alu_hl", "F.op R.hl",
        xy=XY + " R.xy"),
    row(_R(0xC0, 0x100, 8), "RET NZ/Z/NC/C/PO/PE/P/M", "_ret_cc", "F.op N.ir",
        taken="R.sp R.sp+1"),
    row((0xC1, 0xD1, 0xE1), "POP BC/DE/HL", "_pop", "F.op R.sp R.sp+1"),
    row(0xF1, "POP AF", "_pop_af", "F.op R.sp R.sp+1"),
    row(0xC9, "RET", "_ret", "F.op R.sp R.sp+1"),
    row(0xD9, "EXX", "_exx", "F.op"),
    row(0xE9, "JP (HL)", "_jp_hl", "F.op"),
    row(0xF9, "LD SP,HL", "_ld_sp_hl", "F.op N.ir*2"),
    row(_R(0xC2, 0x100, 8), "JP cc,nn", "_jp_cc", "F.op R.op+1 R.op+2"),
    row(0xC3, "JP nn", "_jp", "F.op R.op+1 R.op+2"),
    row(0xD3, "OUT (n),A", "_out_n_a", "F.op R.op+1 IO.an"),
    row(0xDB, "IN A,(n)", "_in_a_n", "F.op R.op+1 IO.an"),
    row(0xE3, "EX (SP),HL", "_ex_sp_hl", "F.op R.sp R.sp+1 N.sp+1 W.sp+1 W.sp N.sp*2"),
    row(0xEB, "EX DE,HL", "_ex_de_hl", "F.op"),
    row(0xF3, "DI", "_di", "F.op"),
    row(0xFB, "EI", "_ei", "F.op"),
    row(_R(0xC4, 0x100, 8), "CALL cc,nn", "_call_cc", "F.op R.op+1 R.op+2",
        taken="N.op+2 W.sp-1 W.sp-2"),
    row((0xC5, 0xD5, 0xE5), "PUSH BC/DE/HL", "_push", "F.op N.ir W.sp-1 W.sp-2"),
    row(0xF5, "PUSH AF", "_push_af", "F.op N.ir W.sp-1 W.sp-2"),
    row(0xCD, "CALL nn", "_call", "F.op R.op+1 R.op+2 N.op+2 W.sp-1 W.sp-2"),
    row(_R(0xC6, 0x100, 8), "ADD/ADC/SUB/SBC/AND/XOR/OR/CP A,n", "_alu_n", "F.op R.op+1"),
    row(_R(0xC7, 0x100, 8), "RST 00h..38h", "_rst", "F.op N.ir W.sp-1 W.sp-2"),
    fill=PREFIX,
)
assert [op for op in range(256) if BASE[op] is PREFIX] == [0xCB, 0xDD, 0xED, 0xFD]


def prefix_changes(op: int) -> bool:
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
