"""The Z80's flag bits by name and the precomputed flag tables the generated code indexes (SZ53,
ADDF, ...): data only, built once at import. It is not the decoder (z80_decode.py says which
instruction uses which)."""
import numpy as np

# ---------------------------------------------------------------- the bits of F
FLAG_C, FLAG_N, FLAG_PV, FLAG_3, FLAG_H, FLAG_5, FLAG_Z, FLAG_S = (1 << k for k in range(8))
ALL_FLAGS = 0xFF
FLAG_NAMES = "CNP3H5ZS"            # bit 0 first: the letters a record's flags are printed with


def flag_letters(mask: int) -> str:
    """'SZ5H3PNC'-style letters of the bits in mask (S first, as the Z80 manuals print F)."""
    return "".join(FLAG_NAMES[k] for k in range(7, -1, -1) if mask >> k & 1) or "-"


# ------------------------------------------------------------ flag tables (bit: S Z 5 H 3 P/V N C)
_v = np.arange(256)
_par = np.array([bin(x).count("1") % 2 == 0 for x in range(256)], dtype=np.int64) * 4
_SZ53 = (_v & 0xA8) | np.where(_v == 0, 0x40, 0)
SZ53 = bytes(_SZ53.astype(np.uint8))                      # S, Z, 5, 3 of a value
SZ53P = bytes((_SZ53 | _par).astype(np.uint8))            # ... plus parity (logic ops, IN, rotates)
ANDF = bytes((_SZ53 | _par | 0x10).astype(np.uint8))      # AND sets H


def _addsub_tables() -> tuple[bytes, bytes, bytes]:
    c = np.arange(2)[:, None, None]
    a = np.arange(256)[None, :, None]
    v = np.arange(256)[None, None, :]
    r = a + v + c                                          # ADD/ADC: index carry<<16 | a<<8 | v
    add = (_SZ53[r & 255] | (((a & 15) + (v & 15) + c) & 16) | ((((a ^ ~v) & (a ^ r)) & 0x80) >> 5)
           | (r >> 8))
    r = a - v - c                                          # SUB/SBC: same index
    sub = (_SZ53[r & 255] | (((a & 15) - (v & 15) - c) & 16) | ((((a ^ v) & (a ^ r)) & 0x80) >> 5)
           | ((r >> 8) & 1) | 2)
    cp = (sub[0] & 0xD7) | (v[0] & 0x28)                   # CP: bits 5 and 3 come from the operand
    return (bytes(add.astype(np.uint8).ravel()), bytes(sub.astype(np.uint8).ravel()),
            bytes(cp.astype(np.uint8).ravel()))


ADDF, SUBF, CPF = _addsub_tables()
INCF = bytes(SZ53[(x + 1) & 255] | (0x10 if x & 15 == 15 else 0) | (4 if x == 0x7F else 0)
             for x in range(256))
DECF = bytes(SZ53[(x - 1) & 255] | 2 | (0x10 if x & 15 == 0 else 0) | (4 if x == 0x80 else 0)
             for x in range(256))

ROT_NAMES = ("RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SRL")


def _rotated(kind: str, x: int, carry_in: int) -> tuple[int, int]:
    """(result, carry out) of one CB rotate or shift."""
    return {
        "RLC": (((x << 1) | (x >> 7)) & 255, x >> 7),
        "RRC": ((x >> 1) | ((x & 1) << 7), x & 1),
        "RL": (((x << 1) | carry_in) & 255, x >> 7),
        "RR": ((x >> 1) | (carry_in << 7), x & 1),
        "SLA": ((x << 1) & 255, x >> 7),
        "SRA": ((x >> 1) | (x & 0x80), x & 1),
        "SLL": (((x << 1) | 1) & 255, x >> 7),             # undocumented: shifts a 1 in
        "SRL": (x >> 1, x & 1),
    }[kind]


def _rot(kind: str) -> list[int]:
    """CB rotate/shift table: index carry_in<<8 | value -> result<<8 | flags."""
    out = []
    for carry_in in range(2):
        for x in range(256):
            r, c = _rotated(kind, x, carry_in)
            out.append(r << 8 | SZ53P[r] | c)
    return out


ROT = {k: _rot(k) for k in ROT_NAMES}
# BIT b,r: H set, Z and P/V when the bit is clear, S for bit 7 set, 5 and 3 from the tested value
BITF = [bytes(0x10 | (x & 0x28) | (0 if x & (1 << b) else 0x44) | (x & 0x80 if b == 7 else 0)
              for x in range(256)) for b in range(8)]


def _daa_entry(flags: int, a: int) -> int:
    """result << 8 | flags of DAA with A = a and F's C, N, H given as flags = C | N | H >> 2."""
    cf, nf, hf = flags & 1, flags & 2, flags & 4
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
    return r << 8 | SZ53P[r] | nf | c | h


DAAT = [_daa_entry(flags, a) for flags in range(8) for a in range(256)]   # [(C|N|H>>2) << 8 | a]

# the generated code's globals, by the names it uses
TABLES = dict(SZ53=SZ53, SZ53P=SZ53P, ANDF=ANDF, ADDF=ADDF, SUBF=SUBF, CPF=CPF, INCF=INCF,
              DECF=DECF, DAAT=DAAT, **{"R_" + k: v for k, v in ROT.items()},
              **{f"BIT{b}": BITF[b] for b in range(8)})
