"""The Spectrum's screen read back as text, cell by cell, through the font the machine itself
uses (the 96 glyphs at CHARS + 256): a cell matches a glyph drawn in either sense (ink on
paper or inverse). Not OCR, and nothing of any program: a cell that is no glyph reads as U+FFFD."""
import functools
from typing import Any, cast

from spectrum import hw

CHARS_SYSVAR = 23606          # the ROM's CHARS: 256 less than the font (SPECTRUM.md's sysvars;
#                               game/zx/rom48.py names it for the game, a layer above this one)
UNKNOWN = "\ufffd"            # a cell that is no glyph of the font
FONT_BYTES = 96 * 8           # the glyphs of codes 32-127, from CHARS + 256
COLS, ROWS = hw.SCREEN_W // 8, hw.SCREEN_H // 8   # character cells: 32 x 24


Memory = Any      # the 64K (a bytearray), or anything with it as .memory (a machine)


def _memory(memory: Memory) -> bytearray:
    return cast(bytearray, getattr(memory, "memory", memory))   # a machine, or its memory itself


def _font(mem: bytearray) -> bytes:
    """The 768 bytes of the font the machine uses now (codes 32-127, wrapping past 0xFFFF)."""
    start = ((mem[CHARS_SYSVAR] | mem[CHARS_SYSVAR + 1] << 8) + 256) & 0xFFFF
    if start + FONT_BYTES <= 0x10000:
        return bytes(mem[start:start + FONT_BYTES])
    return bytes(mem[(start + i) & 0xFFFF] for i in range(FONT_BYTES))


@functools.lru_cache(maxsize=8)
def _table_of(font: bytes) -> dict[bytes, str]:
    """Each glyph's 8 bytes (and their inverse) -> its character; built once a font (a screen
    is read many times a second, its font seldom changes). Callers do not change it."""
    table: dict[bytes, str] = {}
    for code in range(127, 31, -1):          # lower codes win where glyphs coincide
        glyph = font[8 * (code - 32):8 * (code - 31)]
        table[glyph] = chr(code)
        table.setdefault(bytes(b ^ 0xFF for b in glyph), chr(code))
    return table


def glyph_table(mem: bytearray) -> dict[bytes, str]:
    """Each glyph's 8 bytes (and their inverse) -> its character, for the font in use."""
    return dict(_table_of(_font(mem)))


def cell_bytes(memory: Memory, line: int, column: int) -> bytes:
    """The 8 bitmap bytes of one character cell, top row first."""
    mem = _memory(memory)
    base = hw.SCREEN_ADDR | (line & 0x18) << 8 | (line & 7) << 5 | column
    return bytes(mem[base:base + 8 * 256:256])


def line_text(memory: Memory, line: int, table: dict[bytes, str] | None = None) -> str:
    """One screen line (0-23) as 32 characters."""
    mem = _memory(memory)
    table = _table_of(_font(mem)) if table is None else table
    return "".join(table.get(cell_bytes(mem, line, col), UNKNOWN) for col in range(COLS))


def screen_text(memory: Memory) -> list[str]:
    """The 24 lines of 32 characters."""
    mem = _memory(memory)
    table = _table_of(_font(mem))
    return [line_text(mem, line, table) for line in range(ROWS)]
