"""Each opcode is one row of a table (BASE in spectrum/z80_decode.py, ED and CB in
z80_decode_ed.py): its mnemonic, its handler and its bus cycles in z80_bus's language. The record
the decoder makes for every encoding comes from the row that names it, its T-states and M1 count
are its row's cycles (checked here against the Zilog manual's figures; FUSE's vectors check every
cycle in test_z80_bus.py), and a table or pattern that is not well formed is refused by name."""
import re

import pytest

from spectrum.z80_bus import TLEN, pattern, row, table
from spectrum.z80_decode import BASE, PREFIX, Decoder, prefix_changes
from spectrum.z80_decode_ed import CB, ED

ORG = 0x8000
PREFIXES = [(), (0xCB,), (0xED,), (0xDD,), (0xFD,), (0xDD, 0xCB, 0x05), (0xFD, 0xCB, 0xFB)]


def decode(code):
    mem = bytearray(65536)
    mem[ORG:ORG + len(code)] = bytes(code)
    return Decoder(mem).decode(ORG)


def code_id(value):
    return " ".join(f"{b:02X}" for b in value) if isinstance(value, list) else None


def row_of(code):
    """The row that should decode these bytes, looked up by hand."""
    b0 = code[0]
    if b0 in (0xCB, 0xED):
        return (CB if b0 == 0xCB else ED)[code[1]]
    if b0 in (0xDD, 0xFD):
        if code[1] == 0xCB:
            return CB[code[3]]
        return BASE[code[1]] if prefix_changes(code[1]) else BASE[b0]
    return BASE[b0]


@pytest.mark.parametrize("prefix", PREFIXES, ids=lambda p: code_id(list(p)) or "none")
def test_every_encoding_is_decoded_by_the_row_that_names_its_instruction(prefix):
    for op in range(256):
        code = list(prefix) + [op, 0x34, 0x12, 0x00]
        ins, r = decode(code), row_of(code)
        operation = ins.mn.split()[0]
        assert operation in re.split(r"[ /,:;()]+", r.mn), (code, ins.mn, r.mn)
        assert ins.tstates == sum(TLEN[c.kind] for c in ins.cycles), (code, ins.mn)
        assert ins.m1 == sum(c.kind == "F" for c in ins.cycles), (code, ins.mn)


# (bytes, T-states through (or not taken), T-states taken, M1 cycles): the Zilog Z80 CPU User
# Manual's figures for a spread of rows and forms
MANUAL = [
    ([0x00], 4, None, 1),                          # NOP
    ([0x36, 0x12], 10, None, 1),                   # LD (HL),n
    ([0xDD, 0x36, 0x05, 0x12], 19, None, 2),       # LD (IX+d),n
    ([0xFD, 0x46, 0x05], 19, None, 2),             # LD B,(IY+d)
    ([0xDD, 0x21, 0x00, 0x80], 14, None, 2),       # LD IX,nn
    ([0x2A, 0x00, 0x80], 16, None, 1),             # LD HL,(nn)
    ([0xED, 0x4B, 0x00, 0x80], 20, None, 2),       # LD BC,(nn)
    ([0xED, 0x57], 9, None, 2),                    # LD A,I
    ([0xF9], 6, None, 1),                          # LD SP,HL
    ([0xDD, 0xE5], 15, None, 2),                   # PUSH IX
    ([0xE3], 19, None, 1),                         # EX (SP),HL
    ([0xFD, 0xE3], 23, None, 2),                   # EX (SP),IY
    ([0xDD, 0x34, 0x05], 23, None, 2),             # INC (IX+d)
    ([0x34], 11, None, 1),                         # INC (HL)
    ([0x23], 6, None, 1),                          # INC HL
    ([0xDD, 0x09], 15, None, 2),                   # ADD IX,BC
    ([0xED, 0x4A], 15, None, 2),                   # ADC HL,BC
    ([0xCB, 0x06], 15, None, 2),                   # RLC (HL)
    ([0xCB, 0x46], 12, None, 2),                   # BIT 0,(HL)
    ([0xDD, 0xCB, 0x05, 0x46], 20, None, 2),       # BIT 0,(IX+d)
    ([0xFD, 0xCB, 0x05, 0xC6], 23, None, 2),       # SET 0,(IY+d)
    ([0xED, 0x6F], 18, None, 2),                   # RLD
    ([0x18, 0x02], 12, 12, 1),                     # JR e
    ([0x20, 0x02], 7, 12, 1),                      # JR NZ,e
    ([0x10, 0x02], 8, 13, 1),                      # DJNZ e
    ([0xDD, 0xE9], 8, 8, 2),                       # JP (IX)
    ([0xCD, 0x00, 0x90], 17, 17, 1),               # CALL nn
    ([0xC4, 0x00, 0x90], 10, 17, 1),               # CALL NZ,nn
    ([0xC0], 5, 11, 1),                            # RET NZ
    ([0xED, 0x4D], 14, 14, 2),                     # RETI
    ([0xFF], 11, 11, 1),                           # RST 38h
    ([0xDB, 0xFE], 11, None, 1),                   # IN A,(n)
    ([0xED, 0x78], 12, None, 2),                   # IN A,(C)
    ([0xED, 0xB0], 16, 21, 2),                     # LDIR
    ([0xED, 0xB1], 16, 21, 2),                     # CPIR
    ([0xED, 0xB3], 16, 21, 2),                     # OTIR
    ([0xED, 0x46], 8, None, 2),                    # IM 0
    ([0xED, 0x77], 8, None, 2),                    # NOP (ED 77)
    ([0xDD, 0x00], 4, None, 1),                    # a lone DD: 4 T, then NOP on its own
]


@pytest.mark.parametrize("code, through, taken, m1", MANUAL, ids=code_id)
def test_the_t_states_and_m1_cycles_a_row_gives_are_the_zilog_manual_s(code, through, taken, m1):
    ins = decode(code)
    assert (ins.tstates, ins.m1) == (through, m1), ins.mn
    if taken is not None:
        assert ins.taken_tstates == taken, ins.mn


def test_the_prefix_row_fills_exactly_the_four_prefix_bytes_and_ed_has_a_row_for_every_byte():
    assert [op for op in range(256) if BASE[op] is PREFIX] == [0xCB, 0xDD, 0xED, 0xFD]
    assert len(ED) == len(CB) == 256 and all(r.cycles.tstates >= 8 for r in ED + CB)


def test_a_pattern_that_is_not_cycles_is_refused_naming_the_token():
    assert (pattern("F.op R.op+1*3 N.ir").tstates, pattern("F.op R.op+1*3").m1) == (14, 1)
    for bad, token in (("F.op X.hl", "X.hl"), ("F.op R.ix", "R.ix"), ("F.op R.hl*", "R.hl*"),
                       ("F op", "F")):
        with pytest.raises(ValueError, match=re.escape(repr(token))):
            pattern(bad)


def test_a_table_with_an_opcode_twice_or_one_missing_is_refused():
    nop = row(range(256), "NOP", "_nop", "F.op")
    assert len(table(nop)) == 256
    with pytest.raises(ValueError, match="opcode 10 has two rows: 'NOP', 'DJNZ'"):
        table(nop, row(0x10, "DJNZ", "_djnz", "F.op N.ir R.op+1"))
    with pytest.raises(ValueError, match="opcodes without a row: 00 02"):
        table(row(0x01, "LD BC,nn", "_ld_rr_nn", "F.op"), row(range(3, 256), "x", "_x", "F.op"))
    assert table(row(0x01, "LD", "_ld", "F.op"), fill=nop[1])[0] is nop[1]
