"""The window's own help box (F1), its notes (what F9-F12 did) and its FAST mark, drawn over
a copy of the frame in the running ROM's character set, as a 1983 program would have boxed a
message: a title bar and lines of text on paper, 8 x 8 pixels a character. Not the
Spectrum's screen (memory is never touched) and not the game's words: the caller gives them."""
from collections.abc import Sequence

import numpy as np

from spectrum import hw
from spectrum.ula import PALETTE

BOX_PAPER, BOX_INK = hw.WHITE, hw.BLACK
TITLE_PAPER, TITLE_INK = hw.BLUE + 8, hw.YELLOW + 8      # + 8: BRIGHT (PALETTE's rows)
CHAR_PX = 8
MAX_COLUMNS = hw.FRAME_W // CHAR_PX - 2                  # a character of margin each side


def rom_font(memory: bytearray) -> np.ndarray:
    """The ROM's 96 printable characters as a (96, 8, 8) bool array of pixels."""
    rows = np.frombuffer(bytes(memory[hw.ROM_FONT_ADDR:hw.ROM_FONT_ADDR + 96 * 8]), np.uint8)
    return np.unpackbits(rows).reshape(96, 8, 8).astype(bool)


def draw_text(picture: np.ndarray, font: np.ndarray, text: str, x_px: int, y_px: int,
              ink: int, paper: int) -> None:
    """`text` at (x_px, y_px) of the picture, one cell a character; characters the ROM has
    no shape for are drawn as '?'."""
    for column, char in enumerate(text):
        code = ord(char) - 32 if 32 <= ord(char) < 128 else ord("?") - 32
        cell = np.where(font[code][..., None], PALETTE[ink], PALETTE[paper])
        left = x_px + column * CHAR_PX
        picture[y_px:y_px + CHAR_PX, left:left + CHAR_PX] = cell


def with_box(frame: np.ndarray, font: np.ndarray, title: str, lines: Sequence[str]) -> np.ndarray:
    """A copy of the frame with a box in the middle: the title in a bar, then the lines
    (each cut at MAX_COLUMNS characters)."""
    lines = [line[:MAX_COLUMNS] for line in lines]
    columns = min(MAX_COLUMNS, max([len(title)] + [len(line) for line in lines]) + 2)
    width_px, height_px = columns * CHAR_PX, (len(lines) + 2) * CHAR_PX
    left = (hw.FRAME_W - width_px) // 2 // CHAR_PX * CHAR_PX
    top = max(0, (hw.FRAME_H - height_px) // 2 // CHAR_PX * CHAR_PX)
    picture = frame.copy()
    picture[top:top + height_px, left:left + width_px] = PALETTE[BOX_PAPER]
    picture[top:top + CHAR_PX, left:left + width_px] = PALETTE[TITLE_PAPER]
    draw_text(picture, font, title.center(columns), left, top, TITLE_INK, TITLE_PAPER)
    for row, line in enumerate(lines):
        draw_text(picture, font, line, left + CHAR_PX, top + (row + 1) * CHAR_PX + CHAR_PX // 2,
                  BOX_INK, BOX_PAPER)
    return picture


NOTE_PAPER, NOTE_INK = hw.BLACK, hw.YELLOW + 8
NOTE_COLUMNS = hw.FRAME_W // CHAR_PX                     # 40: a note uses the border too
NOTE_TOP_PX = hw.BORDER_TOP_LINES + (hw.SCREEN_H - CHAR_PX)   # the screen's last row
NOTE_LINES = (hw.FRAME_H - NOTE_TOP_PX) // CHAR_PX          # that row and the border below


def note_lines(words: str) -> list:
    """`words` in lines of NOTE_COLUMNS, broken at spaces or slashes where it can; a path too
    long for the lines keeps its end (the file's name) after "..."."""
    lines = []
    while len(words) > NOTE_COLUMNS:
        cut = max(words.rfind(" ", 1, NOTE_COLUMNS + 1), words.rfind("/", 1, NOTE_COLUMNS))
        cut = cut + 1 if cut > 0 else NOTE_COLUMNS
        lines.append(words[:cut].rstrip())
        words = words[cut:]
    lines.append(words)
    if len(lines) > NOTE_LINES:
        lines = lines[-NOTE_LINES:]
        lines[0] = "..." + lines[0][3:]
    return lines


def with_marks(frame: np.ndarray, font: np.ndarray, note: str, fast: bool) -> np.ndarray:
    """A copy of the frame with `note` (if any) over the screen's last row and the bottom
    border, and "FAST" in the top border's corner while the machine runs flat out."""
    picture = frame.copy()
    if note:
        lines = note_lines(note)
        bottom = NOTE_TOP_PX + len(lines) * CHAR_PX
        picture[NOTE_TOP_PX:bottom] = PALETTE[NOTE_PAPER]
        for row, line in enumerate(lines):
            draw_text(picture, font, line, 0, NOTE_TOP_PX + row * CHAR_PX, NOTE_INK, NOTE_PAPER)
    if fast:
        draw_text(picture, font, " FAST ", 0, 0, NOTE_INK, NOTE_PAPER)
    return picture
