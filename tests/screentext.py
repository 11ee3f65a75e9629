"""Test helper: reads the Spectrum screen back as text, cell by cell, through the font the
machine itself uses (the 96 glyphs at CHARS + 256, so our ROM's font unless a program moved
CHARS): spectrum/screen_text.py's reader, which the clicks use too. Not OCR.

    screen_text(memory)          -> 24 strings of 32 characters
    find_text(memory, "Program") -> (line, column) of the first match, or None
    text_at(memory, line, column, length) -> the characters there
`memory` is the machine's 64K bytearray (or numpy view), or anything with `.memory`."""

from spectrum.screen_text import UNKNOWN, cell_bytes, screen_text  # noqa: F401 (the tests' names)


def text_at(memory, line: int, column: int, length: int) -> str:
    return screen_text(memory)[line][column:column + length]


def find_text(memory, text: str):
    """(line, column) where text first appears on one screen line, else None."""
    for line, row in enumerate(screen_text(memory)):
        column = row.find(text)
        if column >= 0:
            return line, column
    return None
