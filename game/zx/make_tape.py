"""Builds the game's tapes, roms/backgammon.tap and roms/backgammon-1983.tap (game/zx/media.py
tape_for: the 1983 rules' loading picture has no cube), from sources: the BASIC loader
program, the loading picture drawn here by code (a real 6,912-byte SCREEN$), and
game/zx/mcode.bin. Run: python -m game.zx.make_tape (after pasmo has assembled
game/zx/mcode.asm). Not a tape reader."""
from __future__ import annotations

import pathlib
import sys
from collections.abc import Sequence

import numpy as np

from game.zx import media
from roms.make_font import glyph_bytes
from spectrum import hw
from spectrum.hw import BLACK, BLUE, GREEN, RED, WHITE, YELLOW
from spectrum.loader import encode_line
from spectrum.tape import Block, write_tap
from spectrum.tape_blocks import (
    DATA_FLAG,
    HEADER_FLAG,
    header_payload,
    make_tap_block,
    standard_block,
)

PROGRAM_NAME = "BACKGAMMON"
SCREEN_NAME = "bgscreen"
CODE_NAME = "bgcode"
AUTOSTART_LINE = 10

# The loader program, as typed on a 48K (keywords are tokens, numbers carry their hidden form).
def loader_listing(code_start: int) -> list[tuple[int, list[str | int]]]:
    return [
        (10, ["BORDER", 0, ":", "PAPER", 0, ":", "INK", 7, ":", "CLEAR", code_start - 1]),
        (20, ["LOAD", '""', "SCREEN$"]),
        (30, ["PRINT", "AT", 20, ",", 1, ";", '"Wait until machine code loaded"', ";"]),
        (40, ["LOAD", '""', "CODE"]),
        (50, ["REM", " the game's program runs on from here"]),
    ]


def basic_program(code_start: int) -> bytes:
    return b"".join(encode_line(n, items) for n, items in loader_listing(code_start))


# ---------------------------------------------------------------- the loading picture
BRIGHT = 0x40


def attr(ink: int, paper: int, bright: bool = False) -> int:
    return (BRIGHT if bright else 0) | paper << 3 | ink


class Canvas:
    """256x192 pixels and 32x24 attributes; pixels are drawn per cell so that each cell
    keeps one ink and one paper."""

    def __init__(self, fill_attr: int):
        self.pixels = np.zeros((192, 256), dtype=np.uint8)
        self.attrs = np.full((24, 32), fill_attr, dtype=np.uint8)

    def cells(self, row: int, col: int, rows: int, cols: int, a: int,
              clear: bool = True) -> None:
        self.attrs[row:row + rows, col:col + cols] = a
        if clear:
            self.pixels[row * 8:(row + rows) * 8, col * 8:(col + cols) * 8] = 0

    def text(self, row: int, col: int, text: str, a: int, scale: int = 1) -> None:
        for i, ch in enumerate(text):
            glyph = glyph_bytes(ch)
            x0 = (col + i * scale) * 8
            self.cells(row, col + i * scale, scale, scale, a)
            for y in range(8):
                for x in range(8):
                    if glyph[y] & (0x80 >> x):
                        self.pixels[row * 8 + y * scale:row * 8 + (y + 1) * scale,
                                     x0 + x * scale:x0 + (x + 1) * scale] = 1

    def screen(self) -> bytes:
        """The SCREEN$: bitmap in the Spectrum's interleaved row order, then attributes."""
        packed = np.packbits(self.pixels, axis=1)          # (192, 32)
        bitmap = np.zeros(hw.SCREEN_BITMAP_BYTES, dtype=np.uint8)
        for y in range(192):
            offset = (y >> 6) << 11 | (y & 7) << 8 | ((y >> 3) & 7) << 5
            bitmap[offset:offset + 32] = packed[y]
        return bitmap.tobytes() + self.attrs.tobytes()


def draw_point(c: Canvas, col: int, top_row: int, down: bool, colour: int,
               felt: int) -> None:
    """A point: a triangle 16 px wide and 7 cells (56 px) tall on two columns."""
    c.cells(top_row, col, 7, 2, attr(colour, felt))
    for k in range(56):
        half = (56 - k) * 8 // 56                   # half-width in px, 8 at the base
        y = top_row * 8 + (k if down else 55 - k)
        c.pixels[y, col * 8 + 8 - half:col * 8 + 8 + half] = 1


def draw_man(c: Canvas, col: int, row: int, colour: int, felt: int, bright: bool) -> None:
    """A man: a 14 px disc with a ring, on a 2x2-cell square of its own colour."""
    c.cells(row, col, 2, 2, attr(colour, felt, bright))
    yy, xx = np.mgrid[0:16, 0:16]
    r2 = (yy - 7.5) ** 2 + (xx - 7.5) ** 2
    disc = (r2 <= 7.2 ** 2) & ~((r2 >= 4.2 ** 2) & (r2 <= 5.2 ** 2))
    c.pixels[row * 8:row * 8 + 16, col * 8:col * 8 + 16] = disc


PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (0, 2), (2, 0), (2, 2)], 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
        6: [(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)]}


def draw_die(c: Canvas, col: int, row: int, value: int) -> None:
    c.cells(row, col, 2, 2, attr(BLACK, WHITE, True))
    px = c.pixels[row * 8:row * 8 + 16, col * 8:col * 8 + 16]
    px[0, 1:15] = px[15, 1:15] = 1
    px[1:15, 0] = px[1:15, 15] = 1
    for r, k in PIPS[value]:
        y, x = 3 + 4 * r, 3 + 4 * k
        px[y:y + 2, x:x + 2] = 1


# A position worth a picture: (point 1..24 from the bottom right, men, colour)
PICTURE_MEN = [(1, 2, WHITE), (6, 3, BLACK), (8, 3, BLACK), (12, 2, BLACK), (13, 3, WHITE),
               (17, 3, WHITE), (19, 3, WHITE), (24, 2, BLACK), (5, 1, WHITE), (20, 2, BLACK)]


def loading_picture(cube: bool = True) -> bytes:
    """The SCREEN$: the title, and a board in its frame on lines 2-19, so that the loader's
    message (line 20) and the ROM's "Bytes:" line (21) sit below the frame on every ROM;
    the doubling cube on the bar unless `cube` is False (the 1983 card has no cube)."""
    felt, frame = GREEN, YELLOW
    c = Canvas(attr(WHITE, BLACK))
    c.cells(0, 0, 2, 32, attr(YELLOW, BLUE, True))
    c.text(0, 6, "BACKGAMMON", attr(YELLOW, BLUE, True), scale=2)
    c.cells(2, 2, 18, 28, attr(BLACK, frame))                 # the frame
    c.text(2, 4, "for the 48K ZX Spectrum", attr(BLUE, frame))  # on its top edge
    c.cells(3, 3, 16, 12, attr(BLACK, felt))                  # left half
    c.cells(3, 17, 16, 12, attr(BLACK, felt))                 # right half
    c.cells(3, 15, 16, 2, attr(BLACK, frame))                 # the bar
    point_cols = {}
    for p in range(1, 25):                                    # point 1 bottom right
        i = (p - 1) % 12
        col = (27 - 2 * i if i < 6 else 13 - 2 * (i - 6))
        point_cols[p] = col
        down = p > 12
        colour = RED if p % 2 else WHITE
        draw_point(c, point_cols[p] if not down else point_cols[25 - p], 3 if down else 12,
                   down, colour, felt)
    for p, count, colour in PICTURE_MEN:
        col = point_cols[p] if p <= 12 else point_cols[25 - p]
        for k in range(count):
            row = 3 + 2 * k if p > 12 else 17 - 2 * k
            draw_man(c, col, row, colour, felt, colour == WHITE)
    draw_die(c, 20, 10, 6)
    draw_die(c, 24, 10, 3)
    if cube:
        c.cells(10, 15, 2, 2, attr(BLACK, WHITE, True))        # the doubling cube on the bar
        c.text(10, 15, "64", attr(BLACK, WHITE, True))
    return c.screen()


# ---------------------------------------------------------------- the tape
def tape_blocks(rules_1983: bool = False) -> list[Block]:
    """The blocks of the tape: the loader, the SCREEN$ (no cube in it for the 1983 rules'
    tape, media.tape_for), the machine code."""
    mcode = media.load_mcode()
    code_start = media.mcode_symbols()["USR_ENTRY"]
    program = basic_program(code_start)
    screen = loading_picture(cube=not rules_1983)
    assert len(screen) == hw.SCREEN_BYTES
    return [
        standard_block(make_tap_block(HEADER_FLAG, header_payload(
            0, PROGRAM_NAME, len(program), AUTOSTART_LINE, len(program)))),
        standard_block(make_tap_block(DATA_FLAG, program)),
        standard_block(make_tap_block(HEADER_FLAG, header_payload(
            3, SCREEN_NAME, hw.SCREEN_BYTES, hw.SCREEN_ADDR, 32768))),
        standard_block(make_tap_block(DATA_FLAG, screen)),
        standard_block(make_tap_block(HEADER_FLAG, header_payload(
            3, CODE_NAME, len(mcode), code_start, 32768))),
        standard_block(make_tap_block(DATA_FLAG, mcode)),
    ]


def build_tape(rules_1983: bool = False) -> bytes:
    return write_tap(tape_blocks(rules_1983))


def main(argv: Sequence[str] | None = None) -> int:
    """Both tapes (the full game's and the 1983 rules'), or the full game's to the path given."""
    outs = [(pathlib.Path(argv[0]), False)] if argv else \
        [(pathlib.Path(media.tape_for(card)), card) for card in (False, True)]
    for out, card in outs:
        out.write_bytes(build_tape(card))
        print(f"{out}: {out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
