"""What a tape is: its blocks (Block, with the timings TZX can give them), a Tape of blocks and
the warnings its reading gave, the standard header and TAP block built from their parts, and the
limits that bound time and memory whatever the file. Not the file formats (tape.py: .TAP,
tzx.py: .TZX), not the playing (tape_player.py) and not the instant-load trap (tape_trap.py)."""
import dataclasses
import warnings
from collections.abc import Iterable

from spectrum import hw

HEADER_PAYLOAD_BYTES = 17         # a standard header's payload (docs/HARDWARE.md §9)
HEADER_FLAG, DATA_FLAG = 0x00, 0xFF
FILE_TYPES = {0: "Program", 1: "Number array", 2: "Character array", 3: "Bytes"}
NO_AUTOSTART = 32768
STOP_IF_48K = 0x2A            # TZX "stop the tape if in 48K mode": always, on our 48K


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
    def flag(self) -> int | None:
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
def checksum(data: Iterable[int]) -> int:
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


# ---------------------------------------------------------------- limits
MAX_BLOCKS = 100_000               # blocks read one by one (real tapes: a few hundred)
MAX_TAPE_PULSES = 1 << 22          # pulses played, ~4.2 million: ~25 minutes of ROM-speed data

class Skips:
    """Passed-over blocks, told as one warning per run of the same kind (five million
    empty blocks are one line, not five million)."""

    def __init__(self, tape: Tape, name: str) -> None:
        self.tape, self.name = tape, name
        # the run being gathered: (first, last, first offset, last offset, (what, why))
        self.run: tuple | None = None

    def add(self, number: int, offset: int, what: str, why: tuple, count: int = 1,
            last_offset: int | None = None) -> None:
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
        warn(self.tape, text)


ZERO_LENGTH = ("has zero length", "have zero length")


def count_block(name: str, number: int, pulses: int, total: list) -> None:
    """Hold the limits on blocks and pulses (memory and time bounded, whatever the file)."""
    if number > MAX_BLOCKS:
        raise TapeError(f"{name}: more than {MAX_BLOCKS:,} blocks: not a tape this "
                        f"program can play")
    total[0] += pulses
    if total[0] > MAX_TAPE_PULSES:
        raise TapeError(f"{name}: block {number} takes the tape past {MAX_TAPE_PULSES:,} "
                        f"pulses: not a tape this program can play")


def data_pulses(block: Block) -> int:
    """How many pulses tape_player.block_pulses gives a data-carrying block, without making
    them."""
    bits = 8 * len(block.data) - (8 - block.used_bits)
    if block.block_id == 0x14:
        return 2 * bits
    pilots = block.pilot_pulses if block.pilot_pulses >= 0 else pilot_count(block.data)
    return pilots + 2 + 2 * bits


def pilot_count(data: bytes) -> int:
    """The ROM's pilot tone for a block: longer before a header (flag below 128)."""
    return hw.PILOT_PULSES_HEADER if data and data[0] < 128 else hw.PILOT_PULSES_DATA


def warn(tape: Tape, message: str) -> None:
    """A part of the file passed over: kept with the tape and told as a TapeWarning."""
    tape.warnings.append(message)
    warnings.warn(message, TapeWarning, stacklevel=4)
