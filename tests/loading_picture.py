"""The tape's loading picture as the loading tests look for it: the words the BASIC loader
prints under it, how many of its lines stay unscrolled, and which line of make_tape's picture
each screen line shows. Used by the loader's tests on our ROM and on OpenSE BASIC. Not a
test."""
from game.zx import make_tape
from screentext import cell_bytes
from spectrum import hw

MESSAGE = "Wait until machine code loaded"
PICTURE_LINES_KEPT = 20       # lines 0-19 of the picture; the message has line 20 on every ROM


def screen_lines(memory) -> list:
    """The 24 character lines of the screen in a 64K image: each line's cell bitmaps, then
    its attributes."""
    mem = getattr(memory, "memory", memory)   # a machine, or its memory itself
    return [b"".join(cell_bytes(mem, line, col) for col in range(32))
            + bytes(mem[hw.ATTR_ADDR + 32 * line:hw.ATTR_ADDR + 32 * (line + 1)])
            for line in range(24)]


def picture_lines_shown(memory) -> list:
    """For each screen line, the line of make_tape's loading picture it shows (its own
    number when that matches), else None: [0, 1, 2, ...] in place, [2, 3, 4, ...] after
    two scrolls."""
    picture = bytearray(65536)
    picture[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES] = make_tape.loading_picture()
    wanted = screen_lines(picture)
    shown = []
    for line, seen in enumerate(screen_lines(memory)):
        matches = [n for n, lines in enumerate(wanted) if lines == seen]
        shown.append(line if line in matches else next(iter(matches), None))
    return shown
