"""The decoder's CB, DD CB / FD CB and ED opcodes (the rest of z80_decode.py's Decoder, as a base
class): each handler returns an Instr record saying what the instruction reads and writes and its
effect as lines. The CB and ED tables give each second byte its row: mnemonic, handler, bus cycles
(z80_bus), and for CB the DD CB / FD CB form's cycles; CB's lines are made by field."""
from typing import Any

from .z80_bus import row, table
from .z80_operands import R8, R8N, RPN, Val, index_ref, s8
from .z80_records import BRANCH, JUMP, STOP, Instr, Store, make
from .z80_records import FlagLine as F
from .z80_records import MemptrLine as W
from .z80_tables import ALL_FLAGS, FLAG_3, FLAG_5, FLAG_C, FLAG_H, FLAG_N, FLAG_PV, ROT_NAMES

IM_MODE = (0, 0, 1, 2, 0, 0, 1, 2)          # ED 46/4E/56/5E/66/6E/76/7E: IM 0 0 1 2 0 0 1 2
RP_REGS: tuple[tuple[str, ...], ...] = (("b", "c"), ("d", "e"), ("h", "l"), ("sp",))
NOT_C = ALL_FLAGS ^ FLAG_C
POP = ["v = M[sp] | M[(sp + 1) & 65535] << 8", "sp = (sp + 2) & 65535"]
BLOCK_NAMES = {(0, False): "LDI", (1, False): "CPI", (2, False): "INI", (3, False): "OUTI",
               (0, True): "LDD", (1, True): "CPD", (2, True): "IND", (3, True): "OUTD"}
REPEATING = {"LDI": "LDIR", "LDD": "LDDR", "CPI": "CPIR", "CPD": "CPDR", "INI": "INIR",
             "IND": "INDR", "OUTI": "OTIR", "OUTD": "OTDR"}
LD_A_IR_FLAGS = F("f = (f & 1) | SZ53[a] | (4 if S.iff2 else 0)")   # LD A,I / LD A,R


def rd16(regs: tuple[str, ...]) -> str:
    """The value of a register pair given by its locals."""
    return regs[0] if len(regs) == 1 else f"({regs[0]} << 8 | {regs[1]})"


def wr16(regs: tuple[str, ...], expr: str) -> list[str]:
    """Lines that set a register pair given by its locals."""
    if len(regs) == 1:
        return [f"{regs[0]} = {expr}"]
    if expr.isidentifier():             # already in a local (POP's v)
        return [f"{regs[0]} = {expr} >> 8", f"{regs[1]} = {expr} & 255"]
    return [f"x = {expr}", f"{regs[0]} = x >> 8", f"{regs[1]} = x & 255"]


def cb_op(x: int, y: int, r: str) -> tuple[list[Any], int, int]:
    """(lines, flags read, flags written) of CB group x (rotate y / BIT y / RES y / SET y) on r."""
    if x == 0:
        idx = f"(f & 1) << 8 | {r}" if y in (2, 3) else r
        return ([f"x = R_{ROT_NAMES[y]}[{idx}]", f"{r} = x >> 8", F("f = x & 255")],
                FLAG_C if y in (2, 3) else 0, ALL_FLAGS)
    if x == 1:
        return [F(f"f = (f & 1) | BIT{y}[{r}]")], 0, NOT_C
    if x == 2:
        return [f"{r} &= {255 ^ (1 << y)}"], 0, 0
    return [f"{r} |= {1 << y}"], 0, 0


def cb_mn(x: int, y: int, opnd: str) -> str:
    if x == 0:
        return f"{ROT_NAMES[y]} {opnd}"
    return f"{('BIT', 'RES', 'SET')[x - 1]} {y},{opnd}"


class PrefixedOps:
    """CB, DDCB and ED handlers (self.mem is the memory being decoded)."""
    mem: Any                    # a bytearray, or a z80_operands.Template
    rd16, wr16 = staticmethod(rd16), staticmethod(wr16)

    # ---- CB prefix: four groups by the top two bits of the second byte (y: kind or bit, z: reg):
    #   00-3F  RLC RRC RL RR SLA SRA SLL SRL r  (DDCB: the result also to r if z != 6)
    #   40-7F  BIT y,r                          (flags 5/3: MEMPTR / the high byte of IX+d)
    #   80-BF  RES y,r,  C0-FF  SET y,r
    def cb(self, addr: Val) -> Instr:
        op = self.mem[(addr + 1) & 65535]
        x, y, z = op >> 6, (op >> 3) & 7, op & 7
        if z == 6:
            if x == 1:
                body = ["wa = h << 8 | l", "v = M[wa]",
                        F(f"f = (f & 1) | (BIT{y}[v] & 215) | ((wz >> 8) & 40)")]
                return make(addr, 2, cb_mn(x, y, "(HL)"), body, reads="h l wz", fw=NOT_C)
            lines, fr, fw = cb_op(x, y, "v")
            body = ["wa = h << 8 | l", "v = M[wa]"] + lines + [Store("wa", "v")]
            return make(addr, 2, cb_mn(x, y, "(HL)"), body, reads="h l", fr=fr, fw=fw)
        r = R8[z]
        lines, fr, fw = cb_op(x, y, r)
        return make(addr, 2, cb_mn(x, y, R8N[z]), lines, reads=r, writes="" if x == 1 else r,
                    fr=fr, fw=fw)

    # ---- DD CB d op / FD CB d op
    def xycb(self, addr: Val, px: str) -> Instr:
        m = self.mem
        d = s8(m[(addr + 2) & 65535])
        op = m[(addr + 3) & 65535]
        x, y, z = op >> 6, (op >> 3) & 7, op & 7
        mref = index_ref(px, d)
        body = [f"wa = ({px} + {d}) & 65535" if d else f"wa = {px}", W("wz = wa"), "v = M[wa]"]
        if x == 1:
            body += [F(f"f = (f & 1) | (BIT{y}[v] & 215) | ((wa >> 8) & 40)")]
            return make(addr, 4, f"BIT {y},{mref}", body, reads=px, writes="wz", fw=NOT_C)
        lines, fr, fw = cb_op(x, y, "v")
        body += lines + [Store("wa", "v")]
        mn, writes = cb_mn(x, y, mref), ("wz", R8[z]) if z != 6 else ("wz",)
        if z != 6:
            body.append(f"{R8[z]} = v")
            mn += f" (and LD {R8N[z]})"
        return make(addr, 4, mn, body, reads=px, writes=writes, fr=fr, fw=fw)

    # ---- ED prefix
    def ed(self, addr: Val, handler: str) -> Instr:
        """An ED-prefixed opcode, by the handler its row in ED names."""
        m = self.mem
        op = m[(addr + 1) & 65535]
        nn = m[(addr + 2) & 65535] | m[(addr + 3) & 65535] << 8
        return getattr(self, handler)(addr, op, (op >> 3) & 7, nn)    # the handler its row names

    def _ed_in(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        body = ["v = b << 8 | c", "x = PIN(v, {io_t}) & 255", F("f = (f & 1) | SZ53P[x]"),
                W("wz = (v + 1) & 65535")] + ([f"{R8[y]} = x"] if y != 6 else [])
        return make(addr, 2, f"IN {R8N[y] if y != 6 else 'F'},(C)", body, reads="b c",
                    writes=("wz", R8[y]) if y != 6 else "wz", fw=NOT_C)

    def _ed_out(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        src = R8[y] if y != 6 else 0
        body = [f"POUT(b << 8 | c, {src}, {{io_t}})", W("wz = ((b << 8 | c) + 1) & 65535")]
        return make(addr, 2, f"OUT (C),{R8N[y] if y != 6 else '0'}", body,
                    reads=("b", "c", R8[y]) if y != 6 else "b c", writes="wz")

    def _ed_sbc_adc(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        p, adc = y >> 1, y & 1
        body = ["v = h << 8 | l", f"w = {rd16(RP_REGS[p])}"]
        if not adc:
            body += ["r = v - w - (f & 1)",
                     F("f = 2 | ((r >> 16) & 1) | ((r >> 8) & 168) | (((v ^ w ^ r) >> 8) & 16) | "
                       "(((v ^ w) & (v ^ r) & 32768) >> 13)")]
        else:
            body += ["r = v + w + (f & 1)",
                     F("f = ((r >> 16) & 1) | ((r >> 8) & 168) | (((v ^ w ^ r) >> 8) & 16) | "
                       "(((v ^ w ^ 32768) & (v ^ r) & 32768) >> 13)")]
        body += ["r &= 65535", F("if not r: f |= 64"), W("wz = (v + 1) & 65535"),
                 "h = r >> 8", "l = r & 255"]
        return make(addr, 2, f"{'ADC' if adc else 'SBC'} HL,{RPN[p]}", body,
                    reads=("h", "l") + RP_REGS[p], writes="h l wz", fr=FLAG_C, fw=ALL_FLAGS)

    def _ed_ld_nn_rr(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        regs, n1 = RP_REGS[y >> 1], (nn + 1) & 65535
        lo, hi = ("sp & 255", "sp >> 8") if regs == ("sp",) else (regs[1], regs[0])
        body = [Store(nn, lo), Store(n1, hi), W(f"wz = {n1}")]
        return make(addr, 4, f"LD ({nn:#06x}),{RPN[y >> 1]}", body, reads=regs, writes="wz")

    def _ed_ld_rr_nn(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        regs, n1 = RP_REGS[y >> 1], (nn + 1) & 65535
        body = wr16(regs, f"M[{nn}] | M[{n1}] << 8") + [W(f"wz = {n1}")]
        return make(addr, 4, f"LD {RPN[y >> 1]},({nn:#06x})", body, writes=regs + ("wz",))

    def _ed_neg(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        return make(addr, 2, "NEG", [F("f = SUBF[a]"), "a = (-a) & 255"], reads="a",
                    writes="a", fw=ALL_FLAGS)

    # RETN and RETI both copy IFF2 to IFF1
    def _ed_retn(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        return make(addr, 2, "RETI" if y == 1 else "RETN",
                    POP + ["S.iff1 = S.iff2", W("wz = v")], reads="sp", writes="sp wz",
                    flow=JUMP, target="v")

    def _ed_im(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        return make(addr, 2, f"IM {IM_MODE[y]}", [f"S.im = {IM_MODE[y]}"])

    def _ed_ld_i_a(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        return make(addr, 2, "LD I,A", ["S.i = a"], reads="a")

    def _ed_ld_r_a(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        body = ["S._r7 = a & 128", "S._rc = (a & 127) - {m1}", "S._eir = -1"]
        return make(addr, 2, "LD R,A", body, reads="a")

    # an interrupt accepted right after it resets P/V: post
    def _ed_ld_a_i(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        return make(addr, 2, "LD A,I", ["a = S.i", LD_A_IR_FLAGS], writes="a", fw=NOT_C,
                    flow=STOP, post="_pvr")

    def _ed_ld_a_r(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        body = ["a = S._r7 | ((S._rc + {m1}) & 127)", LD_A_IR_FLAGS]
        return make(addr, 2, "LD A,R", body, writes="a", fw=NOT_C, flow=STOP, post="_pvr")

    def _ed_rrd(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        body = ["wa = h << 8 | l", "v = M[wa]", Store("wa", "((a << 4) | (v >> 4)) & 255"),
                "a = (a & 240) | (v & 15)", F("f = (f & 1) | SZ53P[a]"), W("wz = (wa + 1) & 65535")]
        return make(addr, 2, "RRD", body, reads="a h l", writes="a wz", fw=NOT_C)

    def _ed_rld(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        body = ["wa = h << 8 | l", "v = M[wa]", Store("wa", "((v << 4) | (a & 15)) & 255"),
                "a = (a & 240) | (v >> 4)", F("f = (f & 1) | SZ53P[a]"), W("wz = (wa + 1) & 65535")]
        return make(addr, 2, "RLD", body, reads="a h l", writes="a wz", fw=NOT_C)

    def _ed_nop(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        return make(addr, 2, f"NOP (ED {op:02X})", [])

    def _ed_block(self, addr: Val, op: int, y: int, nn: Val) -> Instr:
        return block_op(addr, y, op & 7)


def _block_body(z: int, inc: bool) -> tuple[list[Any], str, str, str, int]:
    """(lines, condition to repeat, reads, writes, flags written) of LDI/CPI/INI/OUTI (inc) or
    LDD/CPD/IND/OUTD."""
    sgn, end = ("+", 0) if inc else ("-", 255)
    hl_step = [f"l = (l {sgn} 1) & 255", f"if l == {end}: h = (h {sgn} 1) & 255"]
    de_step = [f"e = (e {sgn} 1) & 255", f"if e == {end}: d = (d {sgn} 1) & 255"]
    bc_dec = ["if not c: b = (b - 1) & 255", "c = (c - 1) & 255"]
    io_flags = F("f = ((v >> 6) & 2) | (17 if n > 255 else 0) | (SZ53P[(n & 7) ^ b] & 4) | SZ53[b]")
    body: list
    if z == 0:
        body = (["v = M[h << 8 | l]", Store("d << 8 | e", "v")] + hl_step + de_step + bc_dec
                + [F("n = v + a"),
                   F("f = (f & 193) | (4 if b or c else 0) | (n & 8) | ((n << 4) & 32)")])
        return body, "b or c", "a b c d e h l", "b c d e h l", \
            FLAG_5 | FLAG_H | FLAG_3 | FLAG_PV | FLAG_N
    if z == 1:
        body = (["v = M[h << 8 | l]", "r = (a - v) & 255", F("hc = ((a & 15) - (v & 15)) & 16")]
                + hl_step + bc_dec
                + [W(f"wz = (wz {sgn} 1) & 65535"), F("n = r - (hc >> 4)"),
                   F("f = (f & 1) | 2 | (4 if b or c else 0) | hc | (r & 128) | (0 if r else 64) "
                     "| (n & 8) | ((n << 4) & 32)")])
        return body, "(b or c) and r", "a b c h l wz", "b c h l wz", NOT_C
    if z == 2:
        body = (["v = PIN(b << 8 | c, {io_t}) & 255", W(f"wz = ((b << 8 | c) {sgn} 1) & 65535"),
                 Store("h << 8 | l", "v"), "b = (b - 1) & 255"] + hl_step
                + [F(f"n = v + ((c {sgn} 1) & 255)"), io_flags])
        return body, "b", "b c h l", "b h l wz", ALL_FLAGS
    body = (["v = M[h << 8 | l]", "b = (b - 1) & 255", W(f"wz = ((b << 8 | c) {sgn} 1) & 65535"),
             "POUT(b << 8 | c, v, {io_t})"] + hl_step + [F("n = v + l"), io_flags])
    return body, "b", "b c h l", "b h l wz", ALL_FLAGS


def block_op(addr: Val, y: int, z: int) -> Instr:
    """LDI CPI INI OUTI LDD CPD IND OUTD and their repeating forms (y >= 6)."""
    inc, rep = y & 1 == 0, y >= 6
    name = BLOCK_NAMES[(z, not inc)]
    body, cont, reads, writes, fw = _block_body(z, inc)
    if not rep:
        return make(addr, 2, name, body, reads=reads, writes=writes, fw=fw)
    # Repeating (the extra 5 T that move PC back): MEMPTR = PC + 1 and bits 5,3 = bits 13,11 of PC;
    # the I/O ones also change P/V and H from B and the carry (D. Banks's Z80Decoder wiki,
    # "interrupted block instructions"; MEMPTR of INIR..OTDR: M. Sainz de Baranda, z80test 1.2)
    again = [f"wz = {(addr + 1) & 65535}"]
    if z >= 2:
        again += ["if f & 1:",
                  "    x = (b - 1) & 7 if f & 2 else (b + 1) & 7",
                  "    f = (f & 235) | ((f ^ SZ53P[x] ^ 4) & 4) "
                  "| (16 if (b & 15) == (0 if f & 2 else 15) else 0)",
                  "else: f = (f & 251) | ((f ^ SZ53P[b & 7] ^ 4) & 4)"]
    again.append(f"f = (f & 215) | {(addr >> 8) & 40}")
    if "wz" not in writes:      # LDIR, LDDR: MEMPTR changes only while repeating (else it is kept)
        reads, writes = reads + " wz", writes + " wz"
    return make(addr, 2, REPEATING[name], body, reads=reads, writes=writes, fw=fw,
                flow=BRANCH, cond=cont, taken=again, target=addr)


_R = range
ED_HEAD = "F.pc F.op"               # every ED opcode: the prefix's fetch and the opcode's
# ED-prefixed opcodes (second byte): mnemonic, handler, bus cycles, the cycles a repeat adds
ED_NOP = row(0x00, "NOP (ED 77, 7F and every opcode without a row)", "_ed_nop", ED_HEAD)[1]
ED = table(
    row(_R(0x40, 0x80, 8), "IN B/C/D/E/H/L/F/A,(C)", "_ed_in", "F.pc F.op IO.bc"),
    row(_R(0x41, 0x80, 8), "OUT (C),B/C/D/E/H/L/0/A", "_ed_out", "F.pc F.op IO.bc"),
    row(_R(0x42, 0x80, 8), "SBC HL,BC/DE/HL/SP (42 52 62 72), ADC HL,rr (4A 5A 6A 7A)",
        "_ed_sbc_adc", "F.pc F.op N.ir*7"),
    row(_R(0x43, 0x80, 16), "LD (nn),BC/DE/HL/SP", "_ed_ld_nn_rr",
        "F.pc F.op R.op+1 R.op+2 W.nn W.nn+1"),
    row(_R(0x4B, 0x80, 16), "LD BC/DE/HL/SP,(nn)", "_ed_ld_rr_nn",
        "F.pc F.op R.op+1 R.op+2 R.nn R.nn+1"),
    row(_R(0x44, 0x80, 8), "NEG (and its undocumented copies)", "_ed_neg", ED_HEAD),
    row(_R(0x45, 0x80, 8), "RETN (45 55 5D 65 6D 75 7D), RETI (4D)", "_ed_retn",
        "F.pc F.op R.sp R.sp+1"),
    row(_R(0x46, 0x80, 8), "IM 0/0/1/2/0/0/1/2", "_ed_im", ED_HEAD),
    row(0x47, "LD I,A", "_ed_ld_i_a", "F.pc F.op N.ir"),
    row(0x4F, "LD R,A", "_ed_ld_r_a", "F.pc F.op N.ir"),
    row(0x57, "LD A,I", "_ed_ld_a_i", "F.pc F.op N.ir"),
    row(0x5F, "LD A,R", "_ed_ld_a_r", "F.pc F.op N.ir"),
    row(0x67, "RRD", "_ed_rrd", "F.pc F.op R.hl N.hl*4 W.hl"),
    row(0x6F, "RLD", "_ed_rld", "F.pc F.op R.hl N.hl*4 W.hl"),
    row((0xA0, 0xA8), "LDI LDD", "_ed_block", "F.pc F.op R.hl W.de N.de*2"),
    row((0xA1, 0xA9), "CPI CPD", "_ed_block", "F.pc F.op R.hl N.hl*5"),
    row((0xA2, 0xAA), "INI IND", "_ed_block", "F.pc F.op N.ir IO.bc W.hl"),
    row((0xA3, 0xAB), "OUTI OUTD", "_ed_block", "F.pc F.op N.ir R.hl IO.bc-"),
    row((0xB0, 0xB8), "LDIR LDDR", "_ed_block", "F.pc F.op R.hl W.de N.de*2", taken="N.de*5"),
    row((0xB1, 0xB9), "CPIR CPDR", "_ed_block", "F.pc F.op R.hl N.hl*5", taken="N.hl*5"),
    row((0xB2, 0xBA), "INIR INDR", "_ed_block", "F.pc F.op N.ir IO.bc W.hl", taken="N.hl*5"),
    row((0xB3, 0xBB), "OTIR OTDR", "_ed_block", "F.pc F.op N.ir R.hl IO.bc-", taken="N.bc-*5"),
    fill=ED_NOP,
)

# DD CB d op / FD CB d op: the prefix, CB, d (read), the opcode (read, not fetched), 2 T adding d
XYCB = "F.pc F.op R.op+1 R.op+2 N.op+2*2 R.xy N.xy"
# CB-prefixed opcodes (second byte): mnemonic, handler (by field), bus cycles, the DDCB form's
CB = table(
    row([op for op in _R(0x00, 0x40) if op & 7 != 6], "RLC RRC RL RR SLA SRA SLL SRL r", "cb",
        "F.pc F.op", xy=XYCB + " W.xy"),
    row(_R(0x06, 0x40, 8), "RLC RRC RL RR SLA SRA SLL SRL (HL)", "cb",
        "F.pc F.op R.hl N.hl W.hl", xy=XYCB + " W.xy"),
    row([op for op in _R(0x40, 0x80) if op & 7 != 6], "BIT b,r", "cb", "F.pc F.op", xy=XYCB),
    row(_R(0x46, 0x80, 8), "BIT b,(HL)", "cb", "F.pc F.op R.hl N.hl", xy=XYCB),
    row([op for op in _R(0x80, 0x100) if op & 7 != 6], "RES/SET b,r", "cb", "F.pc F.op",
        xy=XYCB + " W.xy"),
    row(_R(0x86, 0x100, 8), "RES/SET b,(HL)", "cb", "F.pc F.op R.hl N.hl W.hl",
        xy=XYCB + " W.xy"),
)
