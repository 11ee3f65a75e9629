"""TZX 1.20 files read and written: blocks 10h-14h, 20h, 2Ah, 30h and 32h kept as Blocks, every
other block passed over by its own length; on writing, every field of a block checked, a bad
one named. Not the blocks themselves (tape_blocks.py) and not .TAP (tape.py)."""
from collections.abc import Iterable, Sequence

from spectrum import hw
from spectrum.quoting import quoted
from spectrum.tape_blocks import (
    STOP_IF_48K,
    ZERO_LENGTH,
    Block,
    Skips,
    Tape,
    TapeError,
    count_block,
    data_pulses,
    pilot_count,
)

TZX_SIGNATURE = b"ZXTape!\x1a"
TZX_MAJOR = 1                     # the only major version there is; minor 20 is current
TZX_MINOR = 20

# TZX 1.20 block layouts: id -> (fixed bytes after the id, offset of the length field in
# them, its size in bytes, bytes per unit it counts): the block's body after its id is
# fixed + units * per_unit bytes. Ids 16h, 17h, 34h, 40h are from TZX 1.13 (deprecated).
_TZX_LAYOUT = {
    0x10: (4, 2, 2, 1), 0x11: (18, 15, 3, 1), 0x12: (4, 0, 0, 0), 0x13: (1, 0, 1, 2),
    0x14: (10, 7, 3, 1), 0x15: (8, 5, 3, 1), 0x16: (4, 0, 4, 1), 0x17: (4, 0, 4, 1),
    0x18: (4, 0, 4, 1), 0x19: (4, 0, 4, 1), 0x20: (2, 0, 0, 0), 0x21: (1, 0, 1, 1),
    0x22: (0, 0, 0, 0), 0x23: (2, 0, 0, 0), 0x24: (2, 0, 0, 0), 0x25: (0, 0, 0, 0),
    0x26: (2, 0, 2, 2), 0x27: (0, 0, 0, 0), 0x28: (2, 0, 2, 1), 0x2A: (4, 0, 4, 1),
    0x2B: (4, 0, 4, 1), 0x30: (1, 0, 1, 1), 0x31: (2, 1, 1, 1), 0x32: (2, 0, 2, 1),
    0x33: (1, 0, 1, 3), 0x34: (8, 0, 0, 0), 0x35: (20, 16, 4, 1), 0x40: (4, 1, 3, 1),
    0x5A: (9, 0, 0, 0),
}
_TZX_EXTENSION = (4, 0, 4, 1)     # any later id starts with a DWORD: the length of the rest
TZX_KEPT = (0x10, 0x11, 0x12, 0x13, 0x14, 0x20, 0x2A, 0x30, 0x32)


def tzx_body_length(block_id: int, raw: bytes, pos: int) -> tuple[int, int | None]:
    """(bytes needed to learn the length, the body's length) of the block whose id is just
    before raw[pos], by the TZX 1.20 layout; the length is None if raw ends too soon."""
    fixed, at, size, unit = _TZX_LAYOUT.get(block_id, _TZX_EXTENSION)
    if pos + fixed > len(raw):
        return fixed, None
    return fixed, fixed + unit * int.from_bytes(raw[pos + at:pos + at + size], "little")


def read_tzx(raw: bytes, name: str = "TZX file") -> Tape:
    raw = bytes(raw)
    if len(raw) < 10 or raw[:8] != TZX_SIGNATURE:
        raise TapeError(f"{name}: not a TZX file (no 'ZXTape!' signature)")
    if raw[8] != TZX_MAJOR:
        raise TapeError(f"{name}: TZX version {raw[8]}.{raw[9]:02d} is unknown "
                        f"(this reader knows version {TZX_MAJOR}.xx)")
    tape, pos, number, pulses = Tape([]), 10, 0, [0]
    skips = Skips(tape, name)
    while pos < len(raw):
        number += 1
        block_id, at = raw[pos], pos
        pos += 1
        fixed, length = tzx_body_length(block_id, raw, pos)
        for count, what in ((fixed, "its header"), (length, "its body")):
            if count is not None and pos + count > len(raw):
                raise TapeError(f"{name}: block {number} ({block_id:02X}h) at offset {at}: "
                                f"{what} needs {count} bytes but only {len(raw) - pos} remain")
        assert length is not None      # None only when raw ends in the header: refused above
        body = raw[pos:pos + length]
        pos += length
        if block_id not in TZX_KEPT:
            count_block(name, number, 0, pulses)
            skips.add(number, at, f" (TZX block {block_id:02X}h)",
                      ("is not supported", "are not supported"))
            continue
        block = _tzx_block(block_id, body, f"{name}: block {number} ({block_id:02X}h) at "
                                           f"offset {at}")
        empty = block.pulses_tstates == () if block_id == 0x12 else (
            block_id in (0x10, 0x11, 0x14) and not block.data)
        if empty:
            count_block(name, number, 0, pulses)
            skips.add(number, at, f" ({block_id:02X}h)", ZERO_LENGTH)
            continue
        count_block(name, number, data_pulses(block) if block.carries_data
                     else len(block.pulses_tstates), pulses)
        skips.flush()
        tape.blocks.append(block)
    skips.flush()
    return tape


def _tzx_block(block_id: int, body: bytes, where: str) -> Block:
    """One kept block from its body (the bytes after its id, already the right length)."""
    def u16(o: int) -> int:
        return int.from_bytes(body[o:o + 2], "little")

    def used_bits(o: int) -> int:
        bits = body[o] or 8                     # 0 is read as "all 8", as other readers do
        if bits > 8:
            raise TapeError(f"{where}: {bits} bits used in the last byte (1 to 8)")
        return bits

    if block_id == 0x10:
        return Block(0x10, body[4:], u16(0))
    if block_id == 0x11:
        return Block(0x11, body[18:], u16(13), u16(0), u16(10), u16(2), u16(4), u16(6),
                     u16(8), used_bits(12))
    if block_id == 0x12:
        return Block(0x12, pulses_tstates=(u16(0),) * u16(2), pause_ms=0)
    if block_id == 0x13:
        return Block(0x13, pause_ms=0, pulses_tstates=tuple(
            u16(1 + 2 * i) for i in range(body[0])))
    if block_id == 0x14:
        return Block(0x14, body[10:], u16(5), pilot_pulses=0, bit0_tstates=u16(0),
                     bit1_tstates=u16(2), used_bits=used_bits(4))
    if block_id == 0x20:
        return Block(0x20, pause_ms=u16(0))
    if block_id == STOP_IF_48K:
        return Block(STOP_IF_48K, pause_ms=0)
    if block_id == 0x30:
        return Block(0x30, pause_ms=0, text=body[1:].decode("latin-1"))
    texts, items, p = body[2:], [], 1          # 0x32: count, then (id, length, text) each
    for _ in range(texts[0] if texts else 0):
        if p + 2 > len(texts) or p + 2 + texts[p + 1] > len(texts):
            raise TapeError(f"{where}: a text runs past the end of the block")
        items.append((texts[p], texts[p + 2:p + 2 + texts[p + 1]].decode("latin-1")))
        p += 2 + texts[p + 1]
    return Block(0x32, pause_ms=0, archive=tuple(items))


def _u(where: str, field: str, value: object, bits: int, low: int = 0) -> int:
    """value, if it is a whole number from low to 2**bits - 1; else TapeError naming it."""
    top = (1 << bits) - 1
    if type(value) is not int or not low <= value <= top:
        raise TapeError(f"{where}: {field}: a whole number from {low} to {top}, "
                        f"not {quoted(value)}")
    return value


def _latin1(where: str, field: str, text: object) -> bytes:
    if not isinstance(text, str):
        raise TapeError(f"{where}: {field}: text, not {quoted(text)}")
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        raise TapeError(f"{where}: {field}: {quoted(text)} has characters a TZX text cannot "
                        f"hold (Latin-1 only)") from None
    if len(raw) > 255:
        raise TapeError(f"{where}: {field}: a TZX text holds at most 255 characters, "
                        f"not {len(raw)}")
    return raw


def _used_bits(b: Block, where: str) -> bytes:
    if type(b.used_bits) is not int or not 1 <= b.used_bits <= 8:
        raise TapeError(f"{where}: used_bits: 1 to 8 bits of the last byte, "
                        f"not {quoted(b.used_bits)}")
    return bytes([b.used_bits])


def _word(b: Block, where: str, field: str) -> bytes:
    """The block's field as a TZX WORD, checked."""
    return _u(where, field, getattr(b, field), 16).to_bytes(2, "little")   # a field by name


def _data_and_size(b: Block, where: str) -> tuple[bytes, bytes]:
    """A data block's bytes and their length field (a WORD in 10h, three bytes in 11h, 14h)."""
    data = b.data
    top = 0xFFFF if b.block_id == 0x10 else 0xFFFFFF
    if not isinstance(data, (bytes, bytearray)):
        raise TapeError(f"{where}: data: bytes, not {quoted(data)}")
    if len(data) > top:                         # 0 is a valid block, passed over on reading
        raise TapeError(f"{where}: data: at most {top} bytes, not {len(data)}")
    return bytes(data), len(data).to_bytes(2 if b.block_id == 0x10 else 3, "little")


def _standard_speed_body(b: Block, where: str) -> bytes:
    """10h: the ROM's own timing, so every timing field must be the standard one."""
    data, size = _data_and_size(b, where)
    for field, standard in (("pilot_tstates", hw.PILOT_PULSE_TSTATES),
                            ("sync1_tstates", hw.SYNC1_TSTATES),
                            ("sync2_tstates", hw.SYNC2_TSTATES),
                            ("bit0_tstates", hw.BIT0_PULSE_TSTATES),
                            ("bit1_tstates", hw.BIT1_PULSE_TSTATES),
                            ("pilot_pulses", -1), ("used_bits", 8)):
        value = getattr(b, field)           # the Block's field the table names
        if value != standard and not (field == "pilot_pulses" and value == pilot_count(data)):
            raise TapeError(f"{where}: {field}: a 10h block plays the standard timing "
                            f"{standard}, not {quoted(value)} (use an 11h block)")
    return _word(b, where, "pause_ms") + size + data


def _turbo_speed_body(b: Block, where: str) -> bytes:
    """11h: every timing of its own."""
    data, size = _data_and_size(b, where)
    pilots = b.pilot_pulses if b.pilot_pulses == -1 else _u(where, "pilot_pulses",
                                                             b.pilot_pulses, 16)
    pilots = pilot_count(data) if pilots < 0 else pilots
    timings = b"".join(_word(b, where, field) for field in (
        "pilot_tstates", "sync1_tstates", "sync2_tstates", "bit0_tstates", "bit1_tstates"))
    return (timings + pilots.to_bytes(2, "little") + _used_bits(b, where)
            + _word(b, where, "pause_ms") + size + data)


def _pure_data_body(b: Block, where: str) -> bytes:
    """14h: the bits alone, no pilot or sync."""
    data, size = _data_and_size(b, where)
    return (_word(b, where, "bit0_tstates") + _word(b, where, "bit1_tstates")
            + _used_bits(b, where) + _word(b, where, "pause_ms") + size + data)


def _pulses(b: Block, where: str, checked: int | None = None) -> Sequence[int]:
    """The block's pulses_tstates, the first `checked` of them (None: all) checked as WORDs."""
    pulses = b.pulses_tstates
    if not isinstance(pulses, (tuple, list)):
        raise TapeError(f"{where}: pulses_tstates: a tuple of pulse lengths, "
                        f"not {quoted(pulses)}")
    for i, p in enumerate(pulses if checked is None else pulses[:checked]):
        _u(where, f"pulses_tstates[{i}]", p, 16)
    return pulses


def _pure_tone_body(b: Block, where: str) -> bytes:
    """12h: one pulse length, repeated."""
    pulses = _pulses(b, where, checked=1)
    if not 0 < len(pulses) <= 0xFFFF or pulses.count(pulses[0]) != len(pulses):
        raise TapeError(f"{where}: pulses_tstates: a 12h tone is 1 to 65535 pulses of one "
                        f"length, not {len(pulses)} pulses of {len(set(pulses))} lengths")
    return pulses[0].to_bytes(2, "little") + len(pulses).to_bytes(2, "little")


def _pulse_sequence_body(b: Block, where: str) -> bytes:
    """13h: up to 255 pulses, each of its own length."""
    pulses = _pulses(b, where)
    if len(pulses) > 255:
        raise TapeError(f"{where}: pulses_tstates: a 13h block holds at most 255 "
                        f"pulses, not {len(pulses)}")
    return bytes([len(pulses)]) + b"".join(p.to_bytes(2, "little") for p in pulses)


def _pause_body(b: Block, where: str) -> bytes:
    """20h: silence, or (0 ms) stop the tape."""
    return _word(b, where, "pause_ms")


def _stop_if_48k_body(b: Block, where: str) -> bytes:
    """2Ah: its DWORD length, no body."""
    return bytes(4)


def _text_body(b: Block, where: str) -> bytes:
    """30h: a line of text."""
    text = _latin1(where, "text", b.text)
    return bytes([len(text)]) + text


def _archive_body(b: Block, where: str) -> bytes:
    """32h: (id, text) pairs: the title, the publisher, the year ..."""
    if not isinstance(b.archive, (tuple, list)) or len(b.archive) > 255:
        raise TapeError(f"{where}: archive: at most 255 (id, text) pairs, "
                        f"not {quoted(b.archive)}")
    body = bytearray([len(b.archive)])
    for i, item in enumerate(b.archive):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise TapeError(f"{where}: archive[{i}]: an (id, text) pair, not {quoted(item)}")
        raw = _latin1(where, f"archive[{i}] text", item[1])
        body += bytes([_u(where, f"archive[{i}] id", item[0], 8)]) + bytes([len(raw)]) + raw
    if len(body) > 0xFFFF:
        raise TapeError(f"{where}: archive: {len(body)} bytes, more than a 32h block "
                        f"holds (65535)")
    return len(body).to_bytes(2, "little") + body


# the body writer of each kept block id (TZX_KEPT)
_BODY_WRITERS = {
    0x10: _standard_speed_body, 0x11: _turbo_speed_body, 0x12: _pure_tone_body,
    0x13: _pulse_sequence_body, 0x14: _pure_data_body, 0x20: _pause_body,
    STOP_IF_48K: _stop_if_48k_body, 0x30: _text_body, 0x32: _archive_body,
}
_NO_PAUSE = (0x12, 0x13, 0x30, 0x32)      # blocks that play no silence after them


def _tzx_body(b: Block, where: str) -> bytes:
    """The bytes after the id for one block, every field checked (TapeError names it)."""
    if b.block_id in _NO_PAUSE and b.pause_ms != 0:
        raise TapeError(f"{where}: pause_ms: a {b.block_id:02X}h block has no pause (put a "
                        f"20h block after it), not {quoted(b.pause_ms)}")
    try:
        writer = _BODY_WRITERS.get(b.block_id)
    except TypeError:                           # a block_id that cannot even be looked up
        writer = None
    if writer is None:
        raise TapeError(f"{where}: block_id: write_tzx writes blocks "
                        f"{', '.join(f'{k:02X}h' for k in TZX_KEPT)}, not {quoted(b.block_id)}")
    return writer(b, where)


def write_tzx(blocks: Iterable[Block]) -> bytes:
    """A TZX 1.20 file of these blocks (every kind read_tzx keeps); a field out of range or
    of the wrong type is a TapeError naming the block and the field."""
    out = bytearray(TZX_SIGNATURE + bytes([TZX_MAJOR, TZX_MINOR]))
    for number, b in enumerate(blocks, 1):
        if not isinstance(b, Block):
            raise TapeError(f"TZX block {number}: a Block, not {quoted(b)}")
        kind = f"{b.block_id:02X}h" if type(b.block_id) is int else repr(b.block_id)
        body = _tzx_body(b, f"TZX block {number} ({kind})")
        out.append(b.block_id)
        out += body
    return bytes(out)
