"""Tape files: read_tape (a .TAP or .TZX from a path or bytes, told apart by the TZX signature,
other formats refused by name), and .TAP read and written. Damaged or foreign files are a
TapeError in words; limits bound time and memory whatever the file. The blocks are
tape_blocks.py's, TZX tzx.py's, the pulses tape_player.py's, the instant-load trap
tape_trap.py's; not the loading sequence on screen (spectrum/loader.py)."""
import os
import pathlib
import re
from collections.abc import Iterable

from spectrum import safe_read
from spectrum.quoting import quoted
from spectrum.tape_blocks import (
    ZERO_LENGTH,
    Block,
    Skips,
    Tape,
    TapeError,
    count_block,
    data_pulses,
    standard_block,
)
from spectrum.tzx import TZX_SIGNATURE, read_tzx

MAX_TAPE_BYTES = 64 * 1024 * 1024  # far above any real tape (a 90-minute cassette ~ 10 MiB)
# Other formats a player may hand us, by the bytes they start with: refused by name.
OTHER_FORMATS = (
    (b"PZXT", "PZX"), (b"Compressed Square Wave\x1a", "CSW"), (b"ZXST", "SZX snapshot"),
    (b"MV - CPC", "CPC disk image"), (b"EXTENDED CPC DSK", "disk image"),
    (b"PK\x03\x04", "ZIP archive"), (b"\x1f\x8b", "gzip archive"), (b"Rar!", "RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"), (b"RIFF", "RIFF/WAV audio"),
    (b"ZXTape!", "TZX without its end-of-text mark"),
)
_ZERO_RUN = re.compile(rb"\x00+")


def read_tap(raw: bytes, name: str = "TAP file") -> Tape:
    raw = bytes(raw)
    tape, offset, number, pulses = Tape([]), 0, 0, [0]
    skips = Skips(tape, name)
    while offset < len(raw):
        if raw[offset] == 0 and raw[offset + 1:offset + 2] == b"\x00":
            run = _ZERO_RUN.match(raw, offset)                     # a run of empty blocks
            zeros = run.end() - offset if run else 2               # (two zeros at least)
            count = zeros // 2
            skips.add(number + 1, offset, "", ZERO_LENGTH, count, offset + 2 * (count - 1))
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
        count_block(name, len(tape.blocks) + 1, data_pulses(block), pulses)
        skips.flush()
        tape.blocks.append(block)
        offset = start + length
    skips.flush()
    return tape


def write_tap(blocks: Iterable[Block | bytes]) -> bytes:
    """A .TAP file of the data blocks (other kinds cannot be held by a TAP: TapeError)."""
    out = bytearray()
    for number, block in enumerate(blocks, 1):
        data = block.data if isinstance(block, Block) else block
        if not isinstance(data, (bytes, bytearray)):
            raise TapeError(f"TAP block {number}: data: bytes, not {type(data).__name__}")
        if isinstance(block, Block) and not block.carries_data:
            kind = (f"TZX block {block.block_id:02X}h" if type(block.block_id) is int
                    else f"block_id {quoted(block.block_id)}")
            raise TapeError(f"TAP block {number}: {kind} has no place in a .TAP file")
        if not 0 < len(data) <= 0xFFFF:
            raise TapeError(f"TAP block {number}: data: a TAP block holds 1 to 65535 bytes, "
                            f"not {len(data)}")
        out += len(data).to_bytes(2, "little") + data
    return bytes(out)


def read_tape(source: bytes | bytearray | memoryview | str | os.PathLike[str],
              name: str | None = None) -> Tape:
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
