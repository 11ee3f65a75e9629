"""Tapes: .TAP read/write, .TZX read/write (blocks 10h-14h, 20h, 30h, 32h kept, every other
TZX 1.20 block passed over by its own length), the pulse stream that feeds the EAR bit at
T-state resolution (TapePlayer), and the instant-load trap of the ROM's LD_BYTES. Damaged
or foreign files are a TapeError in words; limits bound time and memory whatever the file.
Not the loading sequence on screen (spectrum/loader.py)."""
import bisect
import dataclasses
import pathlib
import re
import warnings

import numpy as np

from spectrum import hw, safe_read

TZX_SIGNATURE = b"ZXTape!\x1a"
TZX_MAJOR = 1                     # the only major version there is; minor 20 is current
TZX_MINOR = 20
HEADER_PAYLOAD_BYTES = 17         # a standard header's payload (docs/HARDWARE.md §9)
HEADER_FLAG, DATA_FLAG = 0x00, 0xFF
FILE_TYPES = {0: "Program", 1: "Number array", 2: "Character array", 3: "Bytes"}
NO_AUTOSTART = 32768


# What LD_BYTES leaves in A (our ROM's LDERR_* in roms/rom.asm; carry clear on a failure)
LD_OK, LD_BAD_CHECKSUM, LD_RAN_OUT, LD_VERIFY_FAILED = 0, 2, 3, 4


class TapeError(ValueError):
    """A tape file that cannot be read: the message says where and why."""


class TapeWarning(UserWarning):
    """A part of a tape file that was passed over."""


@dataclasses.dataclass
class Block:
    """One tape block. `data` holds flag + payload + checksum for the data-carrying kinds
    (TAP, TZX 10h/11h/14h); the timings are T-states; pause_ms is the silence after it."""
    block_id: int = 0x10
    data: bytes = b""
    pause_ms: int = hw.BLOCK_PAUSE_MS
    pilot_tstates: int = hw.PILOT_PULSE_TSTATES
    pilot_pulses: int = -1            # -1: from the flag byte (8063 / 3223)
    sync1_tstates: int = hw.SYNC1_TSTATES
    sync2_tstates: int = hw.SYNC2_TSTATES
    bit0_tstates: int = hw.BIT0_PULSE_TSTATES
    bit1_tstates: int = hw.BIT1_PULSE_TSTATES
    used_bits: int = 8                # bits used in the last byte (most significant first)
    pulses_tstates: tuple = ()        # 12h: (length,) * count; 13h: the sequence
    text: str = ""                    # 30h
    archive: tuple = ()               # 32h: ((text id, text), ...)

    @property
    def carries_data(self) -> bool:
        return self.block_id in (0x10, 0x11, 0x14) and len(self.data) > 0

    @property
    def flag(self):
        return self.data[0] if self.data else None

    def describe(self) -> str:
        if not self.carries_data:
            return f"TZX block {self.block_id:02X}h"
        if self.flag == HEADER_FLAG and len(self.data) == HEADER_PAYLOAD_BYTES + 2:
            kind = FILE_TYPES.get(self.data[1], f"type {self.data[1]}")
            return f"{kind}: {self.data[2:12].decode('latin-1')}"
        return f"data block, flag {self.flag:#04x}, {len(self.data) - 2} bytes"


@dataclasses.dataclass
class Tape:
    blocks: list
    warnings: list = dataclasses.field(default_factory=list)


# ---------------------------------------------------------------- building blocks
def checksum(data) -> int:
    value = 0
    for byte in data:
        value ^= byte
    return value


def make_tap_block(flag: int, payload: bytes) -> bytes:
    """flag + payload + XOR checksum: the contents of one TAP block (without its length)."""
    body = bytes([flag]) + bytes(payload)
    return body + bytes([checksum(body)])


def header_payload(file_type: int, name: str, length: int, param1: int, param2: int) -> bytes:
    """The 17-byte payload of a standard header (name padded with spaces to 10)."""
    raw = name.encode("ascii")[:10].ljust(10, b" ")
    return (bytes([file_type]) + raw + length.to_bytes(2, "little")
            + param1.to_bytes(2, "little") + param2.to_bytes(2, "little"))


def standard_block(data: bytes, pause_ms: int = hw.BLOCK_PAUSE_MS) -> Block:
    return Block(0x10, bytes(data), pause_ms)


# ---------------------------------------------------------------- limits and signatures
MAX_TAPE_BYTES = 64 * 1024 * 1024  # far above any real tape (a 90-minute cassette ~ 10 MiB)
MAX_BLOCKS = 100_000               # blocks read one by one (real tapes: a few hundred)
MAX_TAPE_PULSES = 1 << 22          # pulses played, ~4.2 million: ~25 minutes of ROM-speed data
# Other formats a player may hand us, by the bytes they start with: refused by name.
OTHER_FORMATS = (
    (b"PZXT", "PZX"), (b"Compressed Square Wave\x1a", "CSW"), (b"ZXST", "SZX snapshot"),
    (b"MV - CPC", "CPC disk image"), (b"EXTENDED CPC DSK", "disk image"),
    (b"PK\x03\x04", "ZIP archive"), (b"\x1f\x8b", "gzip archive"), (b"Rar!", "RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"), (b"RIFF", "RIFF/WAV audio"),
    (b"ZXTape!", "TZX without its end-of-text mark"),
)


class _Skips:
    """Passed-over blocks, told as one warning per run of the same kind (five million
    empty blocks are one line, not five million)."""

    def __init__(self, tape, name: str):
        self.tape, self.name, self.run = tape, name, None

    def add(self, number: int, offset: int, what: str, why: tuple, count: int = 1,
            last_offset: int = None) -> None:
        """`count` blocks from block `number` at `offset` (the last at `last_offset`);
        why = (singular, plural) of what is wrong with them."""
        run, last = self.run, offset if last_offset is None else last_offset
        if run and run[4] == (what, why) and run[1] == number - 1:
            self.run = (run[0], number + count - 1, run[2], last, run[4])
        else:
            self.flush()
            self.run = (number, number + count - 1, offset, last, (what, why))

    def flush(self) -> None:
        if self.run is None:
            return
        first, last, first_at, last_at, (what, why) = self.run
        self.run = None
        if first == last:
            text = f"{self.name}: block {first}{what} at offset {first_at} {why[0]}: skipped"
        else:
            text = (f"{self.name}: blocks {first} to {last}{what} at offsets {first_at} to "
                    f"{last_at} {why[1]}: skipped ({last - first + 1} blocks)")
        _warn(self.tape, text)


_ZERO_LENGTH = ("has zero length", "have zero length")
_ZERO_RUN = re.compile(rb"\x00+")


def _count_block(name: str, number: int, pulses: int, total: list) -> None:
    """Hold the limits on blocks and pulses (memory and time bounded, whatever the file)."""
    if number > MAX_BLOCKS:
        raise TapeError(f"{name}: more than {MAX_BLOCKS:,} blocks: not a tape this "
                        f"program can play")
    total[0] += pulses
    if total[0] > MAX_TAPE_PULSES:
        raise TapeError(f"{name}: block {number} takes the tape past {MAX_TAPE_PULSES:,} "
                        f"pulses: not a tape this program can play")


def _data_pulses(block: "Block") -> int:
    """How many pulses block_pulses gives a data-carrying block, without making them."""
    bits = 8 * len(block.data) - (8 - block.used_bits)
    if block.block_id == 0x14:
        return 2 * bits
    pilots = block.pilot_pulses if block.pilot_pulses >= 0 else _pilot_count(block.data)
    return pilots + 2 + 2 * bits


# ---------------------------------------------------------------- .TAP
def read_tap(raw: bytes, name: str = "TAP file") -> Tape:
    raw = bytes(raw)
    tape, offset, number, pulses = Tape([]), 0, 0, [0]
    skips = _Skips(tape, name)
    while offset < len(raw):
        if raw[offset] == 0 and raw[offset + 1:offset + 2] == b"\x00":
            zeros = _ZERO_RUN.match(raw, offset).end() - offset   # a run of empty blocks
            count = zeros // 2
            skips.add(number + 1, offset, "", _ZERO_LENGTH, count, offset + 2 * (count - 1))
            number += count
            offset += 2 * count
            continue
        number += 1
        if offset + 2 > len(raw):
            raise TapeError(f"{name}: truncated: block {number} at offset {offset} has only "
                            f"{len(raw) - offset} of its 2 length bytes")
        length = int.from_bytes(raw[offset:offset + 2], "little")
        start = offset + 2
        if start + length > len(raw):
            raise TapeError(f"{name}: block {number} at offset {offset} is {length} bytes long "
                            f"but only {len(raw) - start} bytes remain in the file")
        block = standard_block(raw[start:start + length])
        _count_block(name, len(tape.blocks) + 1, _data_pulses(block), pulses)
        skips.flush()
        tape.blocks.append(block)
        offset = start + length
    skips.flush()
    return tape


def write_tap(blocks) -> bytes:
    """A .TAP file of the data blocks (other kinds cannot be held by a TAP: TapeError)."""
    out = bytearray()
    for number, block in enumerate(blocks, 1):
        data = block.data if isinstance(block, Block) else block
        if not isinstance(data, (bytes, bytearray)):
            raise TapeError(f"TAP block {number}: data: bytes, not {type(data).__name__}")
        if isinstance(block, Block) and not block.carries_data:
            kind = (f"TZX block {block.block_id:02X}h" if type(block.block_id) is int
                    else f"block_id {_show(block.block_id)}")
            raise TapeError(f"TAP block {number}: {kind} has no place in a .TAP file")
        if not 0 < len(data) <= 0xFFFF:
            raise TapeError(f"TAP block {number}: data: a TAP block holds 1 to 65535 bytes, "
                            f"not {len(data)}")
        out += len(data).to_bytes(2, "little") + data
    return bytes(out)


# ---------------------------------------------------------------- .TZX
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
STOP_IF_48K = 0x2A            # "stop the tape if in 48K mode": always, on our 48K


def tzx_body_length(block_id: int, raw: bytes, pos: int):
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
    skips = _Skips(tape, name)
    while pos < len(raw):
        number += 1
        block_id, at = raw[pos], pos
        pos += 1
        fixed, length = tzx_body_length(block_id, raw, pos)
        for count, what in ((fixed, "its header"), (length, "its body")):
            if count is not None and pos + count > len(raw):
                raise TapeError(f"{name}: block {number} ({block_id:02X}h) at offset {at}: "
                                f"{what} needs {count} bytes but only {len(raw) - pos} remain")
        body = raw[pos:pos + length]
        pos += length
        if block_id not in TZX_KEPT:
            _count_block(name, number, 0, pulses)
            skips.add(number, at, f" (TZX block {block_id:02X}h)",
                      ("is not supported", "are not supported"))
            continue
        block = _tzx_block(block_id, body, f"{name}: block {number} ({block_id:02X}h) at "
                                           f"offset {at}")
        empty = block.pulses_tstates == () if block_id == 0x12 else (
            block_id in (0x10, 0x11, 0x14) and not block.data)
        if empty:
            _count_block(name, number, 0, pulses)
            skips.add(number, at, f" ({block_id:02X}h)", _ZERO_LENGTH)
            continue
        _count_block(name, number, _data_pulses(block) if block.carries_data
                     else len(block.pulses_tstates), pulses)
        skips.flush()
        tape.blocks.append(block)
    skips.flush()
    return tape


def _tzx_block(block_id: int, body: bytes, where: str) -> "Block":
    """One kept block from its body (the bytes after its id, already the right length)."""
    u16 = lambda o: int.from_bytes(body[o:o + 2], "little")

    def used_bits(o):
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


def _u(where: str, field: str, value, bits: int, low: int = 0) -> int:
    """value, if it is a whole number from low to 2**bits - 1; else TapeError naming it."""
    top = (1 << bits) - 1
    if type(value) is not int or not low <= value <= top:
        raise TapeError(f"{where}: {field}: a whole number from {low} to {top}, "
                        f"not {_show(value)}")
    return value


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _latin1(where: str, field: str, text) -> bytes:
    if not isinstance(text, str):
        raise TapeError(f"{where}: {field}: text, not {_show(text)}")
    try:
        raw = text.encode("latin-1")
    except UnicodeEncodeError:
        raise TapeError(f"{where}: {field}: {_show(text)} has characters a TZX text cannot "
                        f"hold (Latin-1 only)") from None
    if len(raw) > 255:
        raise TapeError(f"{where}: {field}: a TZX text holds at most 255 characters, "
                        f"not {len(raw)}")
    return raw


def _used_bits(b: "Block", where: str) -> bytes:
    if type(b.used_bits) is not int or not 1 <= b.used_bits <= 8:
        raise TapeError(f"{where}: used_bits: 1 to 8 bits of the last byte, "
                        f"not {_show(b.used_bits)}")
    return bytes([b.used_bits])


def _tzx_body(b: "Block", where: str) -> bytes:
    """The bytes after the id for one block, every field checked (TapeError names it)."""
    w = lambda field, bits=16, low=0: _u(where, field, getattr(b, field), bits, low).to_bytes(
        bits // 8, "little")
    if b.block_id in (0x12, 0x13, 0x30, 0x32) and b.pause_ms != 0:
        raise TapeError(f"{where}: pause_ms: a {b.block_id:02X}h block has no pause (put a "
                        f"20h block after it), not {_show(b.pause_ms)}")
    if b.block_id in (0x10, 0x11, 0x14):
        data = b.data
        top = 0xFFFF if b.block_id == 0x10 else 0xFFFFFF
        if not isinstance(data, (bytes, bytearray)):
            raise TapeError(f"{where}: data: bytes, not {_show(data)}")
        if len(data) > top:                     # 0 is a valid block, passed over on reading
            raise TapeError(f"{where}: data: at most {top} bytes, not {len(data)}")
        size = len(data).to_bytes(2 if b.block_id == 0x10 else 3, "little")
    if b.block_id == 0x10:
        for field, standard in (("pilot_tstates", hw.PILOT_PULSE_TSTATES),
                                ("sync1_tstates", hw.SYNC1_TSTATES),
                                ("sync2_tstates", hw.SYNC2_TSTATES),
                                ("bit0_tstates", hw.BIT0_PULSE_TSTATES),
                                ("bit1_tstates", hw.BIT1_PULSE_TSTATES),
                                ("pilot_pulses", -1), ("used_bits", 8)):
            value = getattr(b, field)
            if value != standard and not (field == "pilot_pulses"
                                          and value == _pilot_count(data)):
                raise TapeError(f"{where}: {field}: a 10h block plays the standard timing "
                                f"{standard}, not {_show(value)} (use an 11h block)")
        return w("pause_ms") + size + bytes(data)
    if b.block_id == 0x11:
        pilots = b.pilot_pulses if b.pilot_pulses == -1 else _u(where, "pilot_pulses",
                                                                 b.pilot_pulses, 16)
        pilots = _pilot_count(data) if pilots < 0 else pilots
        return (w("pilot_tstates") + w("sync1_tstates") + w("sync2_tstates")
                + w("bit0_tstates") + w("bit1_tstates") + pilots.to_bytes(2, "little")
                + _used_bits(b, where) + w("pause_ms") + size + bytes(data))
    if b.block_id == 0x14:
        return (w("bit0_tstates") + w("bit1_tstates") + _used_bits(b, where) + w("pause_ms")
                + size + bytes(data))
    if b.block_id in (0x12, 0x13):
        pulses = b.pulses_tstates
        if not isinstance(pulses, (tuple, list)):
            raise TapeError(f"{where}: pulses_tstates: a tuple of pulse lengths, "
                            f"not {_show(pulses)}")
        for i, p in enumerate(pulses[:1] if b.block_id == 0x12 else pulses):
            _u(where, f"pulses_tstates[{i}]", p, 16)
        if b.block_id == 0x13:
            if len(pulses) > 255:
                raise TapeError(f"{where}: pulses_tstates: a 13h block holds at most 255 "
                                f"pulses, not {len(pulses)}")
            return bytes([len(pulses)]) + b"".join(p.to_bytes(2, "little") for p in pulses)
        if not 0 < len(pulses) <= 0xFFFF or pulses.count(pulses[0]) != len(pulses):
            raise TapeError(f"{where}: pulses_tstates: a 12h tone is 1 to 65535 pulses of one "
                            f"length, not {len(pulses)} pulses of {len(set(pulses))} lengths")
        return pulses[0].to_bytes(2, "little") + len(pulses).to_bytes(2, "little")
    if b.block_id == 0x20:
        return w("pause_ms")
    if b.block_id == STOP_IF_48K:
        return bytes(4)                            # its DWORD length: no body
    if b.block_id == 0x30:
        text = _latin1(where, "text", b.text)
        return bytes([len(text)]) + text
    if b.block_id == 0x32:
        if not isinstance(b.archive, (tuple, list)) or len(b.archive) > 255:
            raise TapeError(f"{where}: archive: at most 255 (id, text) pairs, "
                            f"not {_show(b.archive)}")
        body = bytearray([len(b.archive)])
        for i, item in enumerate(b.archive):
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise TapeError(f"{where}: archive[{i}]: an (id, text) pair, not {_show(item)}")
            raw = _latin1(where, f"archive[{i}] text", item[1])
            body += bytes([_u(where, f"archive[{i}] id", item[0], 8)]) + bytes([len(raw)]) + raw
        if len(body) > 0xFFFF:
            raise TapeError(f"{where}: archive: {len(body)} bytes, more than a 32h block "
                            f"holds (65535)")
        return len(body).to_bytes(2, "little") + body
    raise TapeError(f"{where}: block_id: write_tzx writes blocks "
                    f"{', '.join(f'{k:02X}h' for k in TZX_KEPT)}, not {_show(b.block_id)}")


def write_tzx(blocks) -> bytes:
    """A TZX 1.20 file of these blocks (every kind read_tzx keeps); a field out of range or
    of the wrong type is a TapeError naming the block and the field."""
    out = bytearray(TZX_SIGNATURE + bytes([TZX_MAJOR, TZX_MINOR]))
    for number, b in enumerate(blocks, 1):
        if not isinstance(b, Block):
            raise TapeError(f"TZX block {number}: a Block, not {_show(b)}")
        kind = f"{b.block_id:02X}h" if type(b.block_id) is int else repr(b.block_id)
        body = _tzx_body(b, f"TZX block {number} ({kind})")
        out.append(b.block_id)
        out += body
    return bytes(out)


def read_tape(source, name: str = None) -> Tape:
    """A .TAP or .TZX from a path or bytes (told apart by the TZX signature; other formats
    are refused by name). A path must be a regular file of at most MAX_TAPE_BYTES."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        raw, name = bytes(source), name or "tape"
    else:
        path = pathlib.Path(source)
        name = name or str(path)
        try:
            raw = safe_read.read_regular(path, MAX_TAPE_BYTES)
        except OSError as exc:
            raise TapeError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    if raw[:8] == TZX_SIGNATURE:
        return read_tzx(raw, name)
    for signature, kind in OTHER_FORMATS:
        if raw.startswith(signature):
            raise TapeError(f"{name}: not a TAP or TZX file ({kind})")
    return read_tap(raw, name)


def _warn(tape: Tape, message: str) -> None:
    tape.warnings.append(message)
    warnings.warn(message, TapeWarning, stacklevel=4)


# ---------------------------------------------------------------- pulses
def _pilot_count(data: bytes) -> int:
    return hw.PILOT_PULSES_HEADER if data and data[0] < 128 else hw.PILOT_PULSES_DATA


def block_pulses(block: Block) -> np.ndarray:
    """The pulse lengths (T-states) a block plays, in order (no pause)."""
    if block.block_id in (0x12, 0x13):
        return np.array(block.pulses_tstates, dtype=np.int64)
    if not block.carries_data:
        return np.zeros(0, dtype=np.int64)
    parts = []
    if block.block_id != 0x14:
        pilots = block.pilot_pulses if block.pilot_pulses >= 0 else _pilot_count(block.data)
        parts.append(np.full(pilots, block.pilot_tstates, dtype=np.int64))
        parts.append(np.array([block.sync1_tstates, block.sync2_tstates], dtype=np.int64))
    bits = np.unpackbits(np.frombuffer(block.data, dtype=np.uint8))
    bits = bits[:len(bits) - (8 - block.used_bits)]
    lengths = np.where(bits, block.bit1_tstates, block.bit0_tstates).astype(np.int64)
    parts.append(np.repeat(lengths, 2))
    return np.concatenate(parts)


class TapePlayer:
    """Plays blocks into the EAR bit: ear_at(tstates) / end_frame(frame_tstates) as
    spectrum/machine.py asks. Each pulse starts with an edge; a block that is followed by a
    pause ends with one more edge, then the level holds for the pause. Time counts in
    T-states from the start of the tape; the player runs only while `playing`. A TZX pause
    of 0 ms (block 20h), and block 2Ah on this 48K, mean "stop the tape": the player stops
    itself there, as a person would press stop, and `resume` starts it again (the loaders
    do when LD_BYTES is next entered, as a person presses play for the next file)."""

    def __init__(self, blocks, start_level: int = 0):
        self.blocks = list(blocks)
        self.start_level = start_level
        edges, starts, ends, stops, t = [], [], [], [], 0
        for i, block in enumerate(self.blocks):
            starts.append(t)
            pulses = block_pulses(block)
            if len(pulses):
                times = t + np.concatenate(([0], np.cumsum(pulses)[:-1]))
                edges.append(times)
                t += int(pulses.sum())
                if block.pause_ms > 0 or i == len(self.blocks) - 1:
                    edges.append(np.array([t], dtype=np.int64))   # the last pulse ends
            ends.append(t)
            if block.block_id == STOP_IF_48K or block.block_id == 0x20 and block.pause_ms == 0:
                stops.append(t)                 # "stop the tape" (2Ah: this is a 48K)
            t += block.pause_ms * hw.CPU_HZ // 1000
        self.edge_tstates = (np.concatenate(edges) if edges else np.zeros(0, np.int64)).tolist()
        self.block_start_tstates = starts
        self.block_end_tstates = ends
        self.length_tstates = t
        self.stop_tstates = stops       # tape times of the "stop the tape" blocks
        self.tape_tstates = 0           # tape time at the current frame's T-state 0
        self.playing = False
        self.stopped_by_tape = False    # stopped at a "stop the tape" block, not by a person
        self._index = 0                 # edges before this index have happened
        self._stop_i = 0                # stops before this index have been passed

    # --- the machine's protocol ---
    def _next_stop(self):
        return self.stop_tstates[self._stop_i] if self._stop_i < len(self.stop_tstates) else None

    def ear_at(self, tstates: int) -> int:
        if self.playing:
            now = self.tape_tstates + tstates
            stop = self._next_stop()
            if stop is not None and now > stop:
                now = stop
            edges, i = self.edge_tstates, self._index
            n = len(edges)
            while i < n and edges[i] <= now:
                i += 1
            self._index = i
        return self.start_level ^ (self._index & 1)

    def end_frame(self, frame_tstates: int) -> None:
        if self.playing:
            self.tape_tstates += frame_tstates
            stop = self._next_stop()
            if stop is not None and self.tape_tstates >= stop:
                self.tape_tstates = stop        # the tape stands still at the stop block
                self._stop_i += 1
                self.playing = False
                self.stopped_by_tape = True

    # --- control ---
    def play(self) -> None:
        self.playing = True

    def stop(self) -> None:
        self.playing = False
        self.stopped_by_tape = False

    def resume(self, frame_tstates: int = 0) -> bool:
        """Play on from a "stop the tape" block, the tape moving from the frame's T-state
        `frame_tstates`; False (nothing done) unless the tape stopped itself."""
        if not self.stopped_by_tape:
            return False
        self.tape_tstates -= frame_tstates
        self.stopped_by_tape = False
        self.playing = True
        return True

    @property
    def finished(self) -> bool:
        return self.tape_tstates >= self.length_tstates

    def next_edge_tstates(self, tstates: int):
        """T-states from the frame's T-state `tstates` to the first edge no ear_at call has
        seen yet (0 or less: one is already waiting to be seen; None: no more edges)."""
        if not self.playing or self._index >= len(self.edge_tstates):
            return None
        stop = self._next_stop()
        if stop is not None and self.edge_tstates[self._index] > stop:
            return None                         # the tape will stop before it
        return self.edge_tstates[self._index] - (self.tape_tstates + tstates)

    def seek(self, tape_tstates: int, frame_tstates: int = 0) -> None:
        """Put the tape at tape_tstates as of the frame's T-state frame_tstates."""
        self.tape_tstates = tape_tstates - frame_tstates
        self._index = bisect.bisect_right(self.edge_tstates, tape_tstates)
        self._stop_i = bisect.bisect_right(self.stop_tstates, tape_tstates)
        if self.stopped_by_tape:                # moved on by hand: the stop is over
            self.stopped_by_tape = False
            self.playing = True

    def seek_block(self, index: int, frame_tstates: int = 0) -> None:
        start = self.block_start_tstates[index] if index < len(self.blocks) else self.length_tstates
        self.seek(start, frame_tstates)

    def block_index_at(self, frame_tstates: int = 0) -> int:
        """The first block that has not finished playing at that moment."""
        now = self.tape_tstates + frame_tstates
        return bisect.bisect_right(self.block_end_tstates, now - 1) if self.blocks else 0

    def progress(self) -> float:
        return min(1.0, self.tape_tstates / self.length_tstates) if self.length_tstates else 1.0


# ---------------------------------------------------------------- the instant-load trap
def instant_ld_bytes(cpu, memory, player: TapePlayer, rom_top: int = hw.ROM_BYTES) -> None:
    """Do what LD_BYTES does, at once: IX = destination, DE = length, A = flag wanted, carry
    set to LOAD (clear to VERIFY: the bytes are compared with memory, none written, and the
    first that differs ends it). Takes the next data block with that flag from the player's
    position (others are passed over), writes the bytes it would have written, sets IX, DE,
    A and the carry as LD_BYTES returns them (carry set: loaded; A = LD_BAD_CHECKSUM,
    LD_RAN_OUT or LD_VERIFY_FAILED), moves the tape past the block, enables interrupts and
    returns (pops PC)."""
    flag, ix, de, verify = cpu.a, cpu.ix, cpu.de, not cpu.f & 1
    index = player.block_index_at(cpu.tstates)
    found = next((i for i in range(index, len(player.blocks))
                  if player.blocks[i].carries_data and player.blocks[i].flag == flag), None)
    if found is None:
        result = LD_RAN_OUT
        player.seek(player.length_tstates, cpu.tstates)
    else:
        payload = player.blocks[found].data[1:]
        count = min(de, len(payload))
        same = _verified(memory, ix, payload[:count]) if verify else count
        if not verify:
            for k in range(count):
                addr = (ix + k) & 0xFFFF
                if addr >= rom_top:
                    memory[addr] = payload[k]
        ix, de = (ix + same) & 0xFFFF, de - same
        if same < count:
            result = LD_VERIFY_FAILED
        elif de == 0 and len(payload) > count:
            ok = checksum(bytes([flag]) + payload[:count + 1]) == 0
            result = LD_OK if ok else LD_BAD_CHECKSUM
        else:
            result = LD_RAN_OUT           # the block ended before its checksum
        player.seek(player.block_end_tstates[found] + 1, cpu.tstates)
    cpu.ix, cpu.de, cpu.a = ix, de, result
    cpu.f = 0x45 if result == LD_OK else (0x10 | (0x04 if result == LD_RAN_OUT else 0))
    cpu.iff1 = cpu.iff2 = 1
    sp = cpu.sp
    cpu.pc = memory[sp] | memory[(sp + 1) & 0xFFFF] << 8
    cpu.sp = (sp + 2) & 0xFFFF


def _verified(memory, ix: int, data: bytes) -> int:
    """How many bytes from IX on are the same as data's, before the first that differs."""
    for k, byte in enumerate(data):
        if memory[(ix + k) & 0xFFFF] != byte:
            return k
    return len(data)
