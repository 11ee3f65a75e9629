"""The Spectrum's screen read back as text, cell by cell, through the font the machine itself
uses (the 96 glyphs at CHARS + 256): a cell matches a glyph drawn in either sense (ink on
paper or inverse). Not OCR, and nothing of any program: a cell that is no glyph reads as U+FFFD."""
from typing import Any, cast

from spectrum import hw

CHARS_SYSVAR = 23606          # the ROM's CHARS: 256 less than the font (SPECTRUM.md's sysvars;
#                               game/zx/rom48.py names it for the game, a layer above this one)
UNKNOWN = "\ufffd"            # a cell that is no glyph of the font
COLS, ROWS = hw.SCREEN_W // 8, hw.SCREEN_H // 8   # character cells: 32 x 24


Memory = Any      # the 64K (a bytearray), or anything with it as .memory (a machine)


def _memory(memory: Memory) -> bytearray:
    return cast(bytearray, getattr(memory, "memory", memory))   # a machine, or its memory itself


def glyph_table(mem: bytearray) -> dict[bytes, str]:
    """Each glyph's 8 bytes (and their inverse) -> its character."""
    chars = mem[CHARS_SYSVAR] | mem[CHARS_SYSVAR + 1] << 8
    table: dict[bytes, str] = {}
    for code in range(127, 31, -1):          # lower codes win where glyphs coincide
        start = (chars + 8 * code) & 0xFFFF
        glyph = bytes(mem[(start + i) & 0xFFFF] for i in range(8))
        table[glyph] = chr(code)
        table.setdefault(bytes(b ^ 0xFF for b in glyph), chr(code))
    return table


def cell_bytes(memory: Memory, line: int, column: int) -> bytes:
    """The 8 bitmap bytes of one character cell, top row first."""
    mem = _memory(memory)
    base = hw.SCREEN_ADDR | (line & 0x18) << 8 | (line & 7) << 5 | column
    return bytes(mem[base + 256 * row] for row in range(8))


def line_text(memory: Memory, line: int, table: dict[bytes, str] | None = None) -> str:
    """One screen line (0-23) as 32 characters."""
    mem = _memory(memory)
    table = glyph_table(mem) if table is None else table
    return "".join(table.get(cell_bytes(mem, line, col), UNKNOWN) for col in range(COLS))


def screen_text(memory: Memory) -> list[str]:
    """The 24 lines of 32 characters."""
    mem = _memory(memory)
    table = glyph_table(mem)
    return [line_text(mem, line, table) for line in range(ROWS)]
