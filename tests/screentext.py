"""Test helper: reads the Spectrum screen back as text, cell by cell, through the font the
machine itself uses (the 96 glyphs at CHARS + 256, so our ROM's font unless a program moved
CHARS). A cell matches a glyph drawn in either sense (ink on paper or inverse). Not OCR.

    screen_text(memory)          -> 24 strings of 32 characters
    find_text(memory, "Program") -> (line, column) of the first match, or None
    text_at(memory, line, column, length) -> the characters there
`memory` is the machine's 64K bytearray (or numpy view), or anything with `.memory`."""

SCREEN_ADDR = 0x4000
CHARS_SYSVAR = 23606
UNKNOWN = "\ufffd"            # a cell that is no glyph of the font


def _memory(memory):
    return getattr(memory, "memory", memory)


def _glyph_table(mem) -> dict:
    chars = mem[CHARS_SYSVAR] | mem[CHARS_SYSVAR + 1] << 8
    table = {}
    for code in range(127, 31, -1):          # lower codes win where glyphs coincide
        start = (chars + 8 * code) & 0xFFFF
        glyph = bytes(mem[start + i] for i in range(8))
        table[glyph] = chr(code)
        table.setdefault(bytes(b ^ 0xFF for b in glyph), chr(code))
    return table


def cell_bytes(memory, line: int, column: int) -> bytes:
    """The 8 bitmap bytes of one character cell, top row first."""
    mem = _memory(memory)
    base = SCREEN_ADDR | (line & 0x18) << 8 | (line & 7) << 5 | column
    return bytes(mem[base + 256 * row] for row in range(8))


def screen_text(memory) -> list:
    mem = _memory(memory)
    table = _glyph_table(mem)
    return ["".join(table.get(cell_bytes(mem, line, col), UNKNOWN) for col in range(32))
            for line in range(24)]


def text_at(memory, line: int, column: int, length: int) -> str:
    return screen_text(memory)[line][column:column + length]


def find_text(memory, text: str):
    """(line, column) where text first appears on one screen line, else None."""
    for line, row in enumerate(screen_text(memory)):
        column = row.find(text)
        if column >= 0:
            return line, column
    return None
