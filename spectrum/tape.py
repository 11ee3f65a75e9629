"""Tapes: .TAP read/write, .TZX read/write (blocks 10h-14h, 20h, 30h, 32h), the pulse
stream that feeds the EAR bit at T-state resolution (TapePlayer), and the instant-load
trap of the ROM's LD_BYTES. Not the loading sequence on screen (spectrum/loader.py)."""
import bisect
import dataclasses
import pathlib
import warnings

import numpy as np

from spectrum import hw

TZX_SIGNATURE = b"ZXTape!\x1a"
TZX_MAJOR = 1                     # the only major version there is; minor 20 is current
TZX_MINOR = 20
HEADER_PAYLOAD_BYTES = 17         # a standard header's payload (docs/HARDWARE.md §9)
HEADER_FLAG, DATA_FLAG = 0x00, 0xFF
FILE_TYPES = {0: "Program", 1: "Number array", 2: "Character array", 3: "Bytes"}
NO_AUTOSTART = 32768


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


# ---------------------------------------------------------------- .TAP
def read_tap(raw: bytes, name: str = "TAP file") -> Tape:
    raw = bytes(raw)
    tape, offset, number = Tape([]), 0, 0
    while offset < len(raw):
        number += 1
        if offset + 2 > len(raw):
            raise TapeError(f"{name}: truncated: block {number} at offset {offset} has only "
                            f"{len(raw) - offset} of its 2 length bytes")
        length = int.from_bytes(raw[offset:offset + 2], "little")
        start = offset + 2
        if start + length > len(raw):
            raise TapeError(f"{name}: block {number} at offset {offset} is {length} bytes long "
                            f"but only {len(raw) - start} bytes remain in the file")
        if length == 0:
            _warn(tape, f"{name}: block {number} at offset {offset} has zero length: skipped")
        else:
            tape.blocks.append(standard_block(raw[start:start + length]))
        offset = start + length
    return tape


def write_tap(blocks) -> bytes:
    """A .TAP file of the data blocks (other kinds cannot be held by a TAP: TapeError)."""
    out = bytearray()
    for block in blocks:
        data = block.data if isinstance(block, Block) else bytes(block)
        if isinstance(block, Block) and not block.carries_data:
            raise TapeError(f"{block.describe()} has no place in a .TAP file")
        if not 0 < len(data) <= 0xFFFF:
            raise TapeError(f"a TAP block holds 1 to 65535 bytes, not {len(data)}")
        out += len(data).to_bytes(2, "little") + data
    return bytes(out)


# ---------------------------------------------------------------- .TZX
# Lengths of the blocks we pass over: id -> function(raw, pos) giving the body length.
def _skip_lengths():
    word = lambda r, p, o=0: int.from_bytes(r[p + o:p + o + 2], "little")
    dword = lambda r, p, o=0: int.from_bytes(r[p + o:p + o + 4], "little")
    tri = lambda r, p, o: int.from_bytes(r[p + o:p + o + 3], "little")
    return {
        0x15: lambda r, p: 8 + tri(r, p, 5),
        0x18: lambda r, p: 4 + dword(r, p), 0x19: lambda r, p: 4 + dword(r, p),
        0x21: lambda r, p: 1 + r[p], 0x22: lambda r, p: 0, 0x23: lambda r, p: 2,
        0x24: lambda r, p: 2, 0x25: lambda r, p: 0, 0x26: lambda r, p: 2 + 2 * word(r, p),
        0x27: lambda r, p: 0, 0x28: lambda r, p: 2 + word(r, p), 0x2A: lambda r, p: 4,
        0x2B: lambda r, p: 5, 0x31: lambda r, p: 2 + r[p + 1], 0x33: lambda r, p: 1 + 3 * r[p],
        0x35: lambda r, p: 20 + dword(r, p, 16), 0x5A: lambda r, p: 9,
    }


_SKIP = _skip_lengths()
_FIXED = {0x10: 4, 0x11: 18, 0x12: 4, 0x14: 10, 0x20: 2, 0x30: 1, 0x32: 2, 0x13: 1}


def read_tzx(raw: bytes, name: str = "TZX file") -> Tape:
    raw = bytes(raw)
    if len(raw) < 10 or raw[:8] != TZX_SIGNATURE:
        raise TapeError(f"{name}: not a TZX file (no 'ZXTape!' signature)")
    if raw[8] != TZX_MAJOR:
        raise TapeError(f"{name}: TZX version {raw[8]}.{raw[9]:02d} is unknown "
                        f"(this reader knows version {TZX_MAJOR}.xx)")
    tape, pos, number = Tape([]), 10, 0
    while pos < len(raw):
        number += 1
        block_id, at = raw[pos], pos
        pos += 1

        def need(count, what="its header"):
            if pos + count > len(raw):
                raise TapeError(f"{name}: block {number} ({block_id:02X}h) at offset {at}: "
                                f"{what} needs {count} bytes but only {len(raw) - pos} remain")

        if block_id in _FIXED:
            need(_FIXED[block_id])
        u16 = lambda o: int.from_bytes(raw[pos + o:pos + o + 2], "little")
        u24 = lambda o: int.from_bytes(raw[pos + o:pos + o + 3], "little")
        if block_id == 0x10:
            length = u16(2)
            need(4 + length, "its data")
            block = Block(0x10, raw[pos + 4:pos + 4 + length], u16(0))
            pos += 4 + length
        elif block_id == 0x11:
            length = u24(15)
            need(18 + length, "its data")
            block = Block(0x11, raw[pos + 18:pos + 18 + length], u16(13), u16(0), u16(10),
                          u16(2), u16(4), u16(6), u16(8), raw[pos + 12] or 8)
            pos += 18 + length
        elif block_id == 0x12:
            block = Block(0x12, pulses_tstates=(u16(0),) * u16(2), pause_ms=0)
            pos += 4
        elif block_id == 0x13:
            count = raw[pos]
            need(1 + 2 * count, "its pulses")
            block = Block(0x13, pause_ms=0, pulses_tstates=tuple(
                u16(1 + 2 * i) for i in range(count)))
            pos += 1 + 2 * count
        elif block_id == 0x14:
            length = u24(7)
            need(10 + length, "its data")
            block = Block(0x14, raw[pos + 10:pos + 10 + length], u16(5), pilot_pulses=0,
                          bit0_tstates=u16(0), bit1_tstates=u16(2), used_bits=raw[pos + 4] or 8)
            pos += 10 + length
        elif block_id == 0x20:
            block = Block(0x20, pause_ms=u16(0))
            pos += 2
        elif block_id == 0x30:
            length = raw[pos]
            need(1 + length, "its text")
            block = Block(0x30, pause_ms=0, text=raw[pos + 1:pos + 1 + length].decode("latin-1"))
            pos += 1 + length
        elif block_id == 0x32:
            length = u16(0)
            need(2 + length, "its texts")
            body, items, p = raw[pos + 2:pos + 2 + length], [], 1
            for _ in range(body[0] if body else 0):
                if p + 2 > len(body) or p + 2 + body[p + 1] > len(body):
                    raise TapeError(f"{name}: block {number} (32h) at offset {at}: a text runs "
                                    f"past the end of the block")
                items.append((body[p], body[p + 2:p + 2 + body[p + 1]].decode("latin-1")))
                p += 2 + body[p + 1]
            block = Block(0x32, pause_ms=0, archive=tuple(items))
            pos += 2 + length
        else:
            if block_id in _SKIP:
                need(5, "its length")
                length = _SKIP[block_id](raw, pos)
            else:                         # later blocks all start with a 4-byte length
                need(4, "its length")
                length = 4 + int.from_bytes(raw[pos:pos + 4], "little")
            need(length, "its body")
            _warn(tape, f"{name}: block {number} (TZX block {block_id:02X}h) at offset {at} "
                        f"is not supported: skipped")
            pos += length
            continue
        if block_id in (0x10, 0x11, 0x14) and not block.data:
            _warn(tape, f"{name}: block {number} ({block_id:02X}h) at offset {at} has zero "
                        f"length: skipped")
            continue
        tape.blocks.append(block)
    return tape


def write_tzx(blocks) -> bytes:
    """A TZX 1.20 file of these blocks (every kind read_tzx keeps)."""
    out = bytearray(TZX_SIGNATURE + bytes([TZX_MAJOR, TZX_MINOR]))
    w = lambda v: v.to_bytes(2, "little")
    for b in blocks:
        out.append(b.block_id)
        if b.block_id == 0x10:
            out += w(b.pause_ms) + w(len(b.data)) + b.data
        elif b.block_id == 0x11:
            pilots = b.pilot_pulses if b.pilot_pulses >= 0 else _pilot_count(b.data)
            out += (w(b.pilot_tstates) + w(b.sync1_tstates) + w(b.sync2_tstates)
                    + w(b.bit0_tstates) + w(b.bit1_tstates) + w(pilots) + bytes([b.used_bits])
                    + w(b.pause_ms) + len(b.data).to_bytes(3, "little") + b.data)
        elif b.block_id == 0x12:
            out += w(b.pulses_tstates[0]) + w(len(b.pulses_tstates))
        elif b.block_id == 0x13:
            out += bytes([len(b.pulses_tstates)]) + b"".join(w(p) for p in b.pulses_tstates)
        elif b.block_id == 0x14:
            out += (w(b.bit0_tstates) + w(b.bit1_tstates) + bytes([b.used_bits]) + w(b.pause_ms)
                    + len(b.data).to_bytes(3, "little") + b.data)
        elif b.block_id == 0x20:
            out += w(b.pause_ms)
        elif b.block_id == 0x30:
            text = b.text.encode("latin-1")
            out += bytes([len(text)]) + text
        elif b.block_id == 0x32:
            body = bytearray([len(b.archive)])
            for text_id, text in b.archive:
                raw = text.encode("latin-1")
                body += bytes([text_id, len(raw)]) + raw
            out += w(len(body)) + body
        else:
            raise TapeError(f"write_tzx cannot write TZX block {b.block_id:02X}h")
    return bytes(out)


def read_tape(source, name: str = None) -> Tape:
    """A .TAP or .TZX from a path or bytes (told apart by the TZX signature)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        raw, name = bytes(source), name or "tape"
    else:
        path = pathlib.Path(source)
        name = name or str(path)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise TapeError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    if raw[:8] == TZX_SIGNATURE:
        return read_tzx(raw, name)
    return read_tap(raw, name)


def _warn(tape: Tape, message: str) -> None:
    tape.warnings.append(message)
    warnings.warn(message, TapeWarning, stacklevel=3)


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
    of 0 ms (block 20h) means "stop the tape": the player stops itself there, as a person
    would press stop, and `resume` starts it again (the loaders do when LD_BYTES is next
    entered, as a person presses play for the next file)."""

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
            if block.block_id == 0x20 and block.pause_ms == 0:
                stops.append(t)                 # "stop the tape"
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
    """Do what LD_BYTES does, at once: IX = destination, DE = length, A = flag wanted. Takes
    the next data block with that flag from the player's position (others are passed over),
    writes the bytes it would have written, sets IX, DE, A and the carry as LD_BYTES
    returns them (carry set: loaded; A = 2 bad checksum, 3 tape ran out), moves the tape
    past the block, enables interrupts and returns (pops PC)."""
    flag, ix, de = cpu.a, cpu.ix, cpu.de
    index = player.block_index_at(cpu.tstates)
    found = None
    for i in range(index, len(player.blocks)):
        if player.blocks[i].carries_data and player.blocks[i].flag == flag:
            found = i
            break
    if found is None:
        result = 3
        player.seek(player.length_tstates, cpu.tstates)
    else:
        payload = player.blocks[found].data[1:]
        count = min(de, len(payload))
        for k in range(count):
            addr = (ix + k) & 0xFFFF
            if addr >= rom_top:
                memory[addr] = payload[k]
        ix, de = (ix + count) & 0xFFFF, de - count
        if de == 0 and len(payload) > count:
            result = 0 if checksum(bytes([flag]) + payload[:count + 1]) == 0 else 2
        else:
            result = 3                    # the block ended before its checksum
        player.seek(player.block_end_tstates[found] + 1, cpu.tstates)
    cpu.ix, cpu.de, cpu.a = ix, de, result
    cpu.f = 0x45 if result == 0 else (0x10 | (0x04 if result == 3 else 0))
    cpu.iff1 = cpu.iff2 = 1
    sp = cpu.sp
    cpu.pc = memory[sp] | memory[(sp + 1) & 0xFFFF] << 8
    cpu.sp = (sp + 2) & 0xFFFF
