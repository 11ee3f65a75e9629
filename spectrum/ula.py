"""The ULA: screen memory -> a 320x240 RGB numpy frame (border per scanline, FLASH, one
palette, each screen byte as it was when the beam fetched it), port 0xFE (border, beeper, MIC
out; keyboard and EAR in) and the floating bus on odd ports. Not the window (display.py), not
the sound output (audio.py), not the tape signal itself (tape_player.py), not contention (the
CPU's)."""
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from spectrum import hw
from spectrum.keyboard import KeyMatrix

if TYPE_CHECKING:
    from spectrum.tape_player import TapePlayer

ScreenWrite = tuple[int, int, int]     # (T-state of the write, address, the byte it replaced)


# --- The palette: index = BRIGHT * 8 + colour, colour = G*4 + R*2 + B (docs/HARDWARE.md §3) ---
def _palette() -> np.ndarray:
    table = np.zeros((16, 3), np.uint8)
    for bright in (0, 1):
        level = hw.BRIGHT_LEVEL if bright else hw.NORMAL_LEVEL
        for colour in range(8):
            g, r, b = (colour >> 2) & 1, (colour >> 1) & 1, colour & 1
            table[bright * 8 + colour] = (r * level, g * level, b * level)
    return table


PALETTE = _palette()        # 16 rows, 15 distinct colours (bright black == black)

# --- Geometry ---
FRAME_W, FRAME_H = hw.FRAME_W, hw.FRAME_H                     # 320 x 240
SCREEN_X, SCREEN_Y = hw.BORDER_LEFT_PX, hw.BORDER_TOP_LINES   # 32, 24
# the scanline (counted from the interrupt) shown as image row 0: 64 - 24 = 40
FIRST_SHOWN_LINE = hw.LINES_ABOVE_SCREEN - hw.BORDER_TOP_LINES
# image x = 32 is pixel 0 of a line, at T = 224 * line; 2 pixels per T, so x = 0 is 16 T earlier
LEFT_EDGE_TSTATES = hw.BORDER_LEFT_PX // 2
BORDER_CELL_PX = 8                   # the 48K ULA picks up a border change every 4 T = 8 px
BORDER_CELLS = FRAME_W // BORDER_CELL_PX


def bitmap_offset(x_byte: int, y: int) -> int:
    """Offset from 0x4000 of the bitmap byte at column x_byte (0-31), pixel row y (0-191)."""
    return (y >> 6) << 11 | (y & 7) << 8 | ((y >> 3) & 7) << 5 | x_byte


# (192, 32) offsets of each display row's bytes, in display order
BITMAP_OFFSETS = np.array([[bitmap_offset(x, y) for x in range(32)] for y in range(192)],
                          dtype=np.intp)
ATTR_OFFSETS = np.array([[(y >> 3) * 32 + x for x in range(32)] for y in range(192)],
                        dtype=np.intp)
# one gather index for bitmap and attributes: row y of the screen, byte x
_BITMAP_INDEX = hw.SCREEN_ADDR + BITMAP_OFFSETS
_ATTR_INDEX = hw.ATTR_ADDR + ATTR_OFFSETS

# --- When the beam fetches each byte (docs/HARDWARE.md §4a) ---
# Display row y is fetched 224 T after row y - 1; in each 8 T of its 128-T screen part the ULA
# reads bitmap x, attribute x, bitmap x + 1, attribute x + 1, then leaves the bus idle 4 T.
# An attribute is fetched again on each of its character row's 8 pixel lines.
_rows, _columns = np.arange(192)[:, None], np.arange(32)[None, :]
BITMAP_FETCH_TSTATES = (hw.ULA_FIRST_FETCH_TSTATES + hw.TSTATES_PER_LINE * _rows
                        + 8 * (_columns >> 1) + 2 * (_columns & 1)).astype(np.int64)   # (192, 32)
ATTR_FETCH_TSTATES = BITMAP_FETCH_TSTATES + 1
FETCH_BYTES_PER_8_TSTATES = 4      # then 4 T idle
_SCREEN_BITMAP_OFFSETS = BITMAP_OFFSETS.astype(np.int64)                     # from 0x4000
_SCREEN_ATTR_OFFSETS = (hw.ATTR_ADDR - hw.SCREEN_ADDR + ATTR_OFFSETS).astype(np.int64)
_TSTATE_BITS = 20                  # a write's sort key: screen offset << 20 | T-state
_TSTATE_MASK = (1 << _TSTATE_BITS) - 1


def bus_address(tstates: int) -> int | None:
    """The screen address the ULA is reading at `tstates` T-states after the interrupt, or None
    while it leaves the bus idle (border lines, the 96 T of each line outside its screen part,
    the last 4 T of every 8)."""
    since = tstates - hw.ULA_FIRST_FETCH_TSTATES
    if since < 0:
        return None
    y, into_line = divmod(since, hw.TSTATES_PER_LINE)
    if y >= hw.SCREEN_H or into_line >= hw.CONTENTION_LINE_TSTATES:
        return None
    phase = into_line & 7
    if phase >= FETCH_BYTES_PER_8_TSTATES:
        return None
    x_byte = (into_line >> 3) * 2 + (phase >> 1)
    if phase & 1:
        return hw.ATTR_ADDR + (y >> 3) * 32 + x_byte
    return hw.SCREEN_ADDR + bitmap_offset(x_byte, y)


def _writes_array(writes: Sequence[ScreenWrite]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """[(tstates, addr, old_byte)] -> (tstates, offset from 0x4000, old byte) arrays, screen
    addresses only."""
    table = np.array(writes, dtype=np.int64).reshape(-1, 3)
    tstates, offsets, old = table[:, 0], table[:, 1] - hw.SCREEN_ADDR, table[:, 2] & 0xFF
    on_screen = (offsets >= 0) & (offsets < hw.SCREEN_BYTES)
    if not on_screen.all():
        tstates, offsets, old = tstates[on_screen], offsets[on_screen], old[on_screen]
    return np.clip(tstates, 0, _TSTATE_MASK), offsets, old.astype(np.uint8)


def _seen_by_fetches(current: np.ndarray, offsets: np.ndarray, fetch_tstates: np.ndarray,
                     keys: np.ndarray, old: np.ndarray) -> np.ndarray:
    """Each fetch sees the old byte of the first write to its address at or after its T-state
    (keys sorted: offset << 20 | T), or `current` when there is none."""
    wanted = offsets << _TSTATE_BITS | fetch_tstates
    found = np.searchsorted(keys, wanted.ravel(), side="left").reshape(wanted.shape)
    clipped = np.minimum(found, len(keys) - 1)
    hit = (found < len(keys)) & ((keys[clipped] >> _TSTATE_BITS) == offsets)
    return np.where(hit, old[clipped], current)


def screen_as_fetched(memory: np.ndarray, screen_writes: Sequence[ScreenWrite] = (),
                      later_writes: Sequence[ScreenWrite] = ()) -> tuple[np.ndarray, np.ndarray]:
    """(bitmap, attrs): two (192, 32) uint8 arrays, the bitmap and attribute byte of each display
    row and column as the ULA fetched them in the frame whose screen-write log is
    `screen_writes` [(tstates, addr, old_byte)] in the order they happened (the CPU logs them
    before it stores; T-states from that frame's interrupt). A fetch at T sees a write made
    before T, not one made at T or later. `later_writes` (same form) were made after that
    frame ended and are undone first; `memory` is the 64 KiB now. Both empty: memory as is."""
    if not screen_writes and not later_writes:
        return np.take(memory, _BITMAP_INDEX), np.take(memory, _ATTR_INDEX)
    screen = np.array(memory[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES], np.uint8)
    if later_writes:
        _t, offsets, old = _writes_array(later_writes)
        first = np.unique(offsets, return_index=True)[1]     # the byte each held at the frame end
        screen[offsets[first]] = old[first]
    bitmap = np.take(screen, _SCREEN_BITMAP_OFFSETS)
    attrs = np.take(screen, _SCREEN_ATTR_OFFSETS)
    if screen_writes:
        tstates, offsets, old = _writes_array(screen_writes)
        if len(offsets):
            keys = offsets << _TSTATE_BITS | tstates
            order = np.argsort(keys, kind="stable")          # by address, then in time order
            keys, old = keys[order], old[order]
            bitmap = _seen_by_fetches(bitmap, _SCREEN_BITMAP_OFFSETS, BITMAP_FETCH_TSTATES,
                                      keys, old)
            attrs = _seen_by_fetches(attrs, _SCREEN_ATTR_OFFSETS, ATTR_FETCH_TSTATES, keys, old)
    return bitmap, attrs

# attribute -> attribute with INK and PAPER exchanged when FLASH (bit 7) is set
_attrs = np.arange(256)
FLASH_SWAP = np.where(_attrs & 0x80,
                      (_attrs & 0xC0) | ((_attrs & 7) << 3) | ((_attrs >> 3) & 7),
                      _attrs).astype(np.uint8)
ATTR_INK = ((_attrs >> 6 & 1) * 8 + (_attrs & 7)).astype(np.uint8)         # palette index
ATTR_PAPER = ((_attrs >> 6 & 1) * 8 + (_attrs >> 3 & 7)).astype(np.uint8)
# byte -> its 8 pixels, bit 7 leftmost
BYTE_BITS = ((np.arange(256)[:, None] >> (7 - np.arange(8))[None, :]) & 1).astype(bool)


def _pixel_table() -> np.ndarray:
    """(byte << 8 | attribute) -> the 8 RGB pixels that byte shows (FLASH bit ignored here)."""
    ink = PALETTE[ATTR_INK]             # (256 attrs, 3)
    paper = PALETTE[ATTR_PAPER]
    bits = BYTE_BITS[:, None, :, None]  # (256 bytes, 1, 8, 1)
    table = np.where(bits, ink[None, :, None, :], paper[None, :, None, :])
    return np.ascontiguousarray(table.reshape(65536, 8, 3).astype(np.uint8))


PIXEL_TABLE = _pixel_table()            # 1.5 MiB, built once at import


def flash_inverted(frame_number: int) -> bool:
    """True on the frames where FLASH cells show INK and PAPER exchanged (16 on, 16 off)."""
    return (frame_number // hw.FLASH_PERIOD_FRAMES) & 1 == 1


def border_tstates() -> np.ndarray:
    """(240, 40) T-state (from the interrupt) at which each 8-pixel border cell is drawn."""
    lines = FIRST_SHOWN_LINE + np.arange(FRAME_H)
    cells = np.arange(BORDER_CELLS) * (BORDER_CELL_PX // 2)
    return lines[:, None] * hw.TSTATES_PER_LINE - LEFT_EDGE_TSTATES + cells[None, :]


BORDER_TSTATES = border_tstates()
_SIDE_CELLS = SCREEN_X // BORDER_CELL_PX              # 4 cells of 8 px left and right
_BOTTOM = SCREEN_Y + 192
# only the cells that are border, flattened: top band, bottom band, left strip, right strip
_BORDER_PARTS = (BORDER_TSTATES[:SCREEN_Y], BORDER_TSTATES[_BOTTOM:],
                 BORDER_TSTATES[SCREEN_Y:_BOTTOM, :_SIDE_CELLS],
                 BORDER_TSTATES[SCREEN_Y:_BOTTOM, BORDER_CELLS - _SIDE_CELLS:])
_BORDER_CELL_TSTATES = np.concatenate([part.ravel() for part in _BORDER_PARTS])
_BORDER_SPLITS = np.cumsum([part.size for part in _BORDER_PARTS])[:-1]


def render(memory: np.ndarray, frame_number: int = 0, border_start: int = 7,
           border_changes: Sequence[tuple[int, int]] = (), out: np.ndarray | None = None,
           screen_writes: Sequence[ScreenWrite] = (),
           later_writes: Sequence[ScreenWrite] = ()) -> np.ndarray:
    """Draw one frame. `memory` is the 64 KiB as a uint8 array; `border_changes` is the
    frame's [(tstates, colour)] OUT log and `border_start` the colour it began with;
    `screen_writes` and `later_writes` are the frame's screen-write log and the writes since
    (see screen_as_fetched: each cell shows what the beam fetched).
    Returns a (240, 320, 3) uint8 array (into `out` when given)."""
    if out is None:
        out = np.empty((FRAME_H, FRAME_W, 3), np.uint8)
    bitmap, attrs = screen_as_fetched(memory, screen_writes, later_writes)
    bitmap = bitmap.astype(np.uint16)
    if flash_inverted(frame_number):
        attrs = np.take(FLASH_SWAP, attrs)
    keys = (bitmap << 8) | attrs
    # np.take along axis 0 is several times faster than fancy indexing for these gathers
    out[SCREEN_Y:SCREEN_Y + 192, SCREEN_X:SCREEN_X + 256] = np.take(
        PIXEL_TABLE, keys, axis=0).reshape(192, 256, 3)
    _paint_border(out, border_start, border_changes)
    return out


def _paint_border(out: np.ndarray, border_start: int,
                  border_changes: Sequence[tuple[int, int]]) -> None:
    bottom = SCREEN_Y + 192
    right = SCREEN_X + 256
    if not border_changes:
        rgb = PALETTE[border_start & 7]
        out[:SCREEN_Y] = rgb
        out[bottom:] = rgb
        out[SCREEN_Y:bottom, :SCREEN_X] = rgb
        out[SCREEN_Y:bottom, right:] = rgb
        return
    times = np.fromiter((t for t, _c in border_changes), np.int64, len(border_changes))
    colours = np.empty(len(border_changes) + 1, np.uint8)
    colours[0] = border_start & 7
    colours[1:] = [c & 7 for _t, c in border_changes]
    cell_colours = np.take(colours, np.searchsorted(times, _BORDER_CELL_TSTATES, side="right"))
    cell_rgb = np.take(PALETTE, cell_colours, axis=0)
    top, low, left, right_strip = np.split(cell_rgb, _BORDER_SPLITS)
    # each 8-pixel cell written by broadcasting into a (rows, cells, 8, 3) view of the frame
    cell = (BORDER_CELL_PX, 3)
    out[:SCREEN_Y].reshape(SCREEN_Y, BORDER_CELLS, *cell)[:] = \
        top.reshape(SCREEN_Y, BORDER_CELLS, 1, 3)
    out[bottom:].reshape(FRAME_H - bottom, BORDER_CELLS, *cell)[:] = \
        low.reshape(FRAME_H - bottom, BORDER_CELLS, 1, 3)
    out[SCREEN_Y:bottom, :SCREEN_X].reshape(192, _SIDE_CELLS, *cell)[:] = \
        left.reshape(192, _SIDE_CELLS, 1, 3)
    out[SCREEN_Y:bottom, right:].reshape(192, _SIDE_CELLS, *cell)[:] = \
        right_strip.reshape(192, _SIDE_CELLS, 1, 3)


FrameLog = tuple[int, list[tuple[int, int]]]    # (start level, [(tstates, level), ...]): one frame


class Ula:
    """Port 0xFE, the floating bus, and the per-frame logs the display and the beeper read.
    `memory` is the machine's 64 KiB (bytearray or uint8 array) the floating bus reads; None
    (a ULA on its own, in tests) reads 0xFF from every odd port.

    After each `end_frame()` the finished frame's logs are:
      frame_border = (start_colour, [(tstates, colour), ...])   every border change
      frame_ear    = (start_level,  [(tstates, level), ...])    every change of OUT bit 4 (beeper)
      frame_mic    = (start_level,  [(tstates, level), ...])    every change of OUT bit 3 (MIC)
      frame_tape   = (start_level,  [(tstates, level), ...])    the tape's EAR input as the CPU
                     read it (changes between reads, timed at the read): the loading noise
      frame_screen_writes = [(tstates, addr, old_byte), ...]     the CPU's screen writes
                     (taken from its log by end_frame; render() draws from it)
    T-states count from that frame's interrupt and are < 69,888."""

    def __init__(self, memory: bytearray | None = None) -> None:
        self.memory = memory
        self.keyboard = KeyMatrix()
        self.tape: TapePlayer | None = None     # see spectrum/machine.py for the protocol
        self.border = 0
        self.ear = 0
        self.mic = 0
        # each level's start this frame and its [(T-state, new level), ...] so far
        self._border_start, self._ear_start, self._mic_start, self._tape_start = 0, 0, 0, 0
        self._border_changes: list[tuple[int, int]] = []
        self._ear_changes: list[tuple[int, int]] = []
        self._mic_changes: list[tuple[int, int]] = []
        self._tape_changes: list[tuple[int, int]] = []
        self.tape_level = 0
        self.frame_tape: FrameLog = (0, [])
        self.frame_border: FrameLog = (0, [])
        self.frame_ear: FrameLog = (0, [])
        self.frame_mic: FrameLog = (0, [])
        self.frame_screen_writes: list[ScreenWrite] = []
        self.frame_changed = True   # the last render() drew something new into its `out`
        # (out, what it shows) when no write fell in its frame
        self._drawn: tuple[np.ndarray | None, tuple[Any, ...]] | None = None

    def reset(self) -> None:
        keyboard, tape = self.keyboard, self.tape
        Ula.__init__(self, self.memory)
        self.keyboard, self.tape = keyboard, tape

    # --- the CPU's view: port_in / port_out with the running T-state count ---
    def port_out(self, port: int, value: int, tstates: int) -> None:
        if port & 1:
            return
        colour = value & hw.OUT_BORDER_MASK
        if colour != self.border:
            self.border = colour
            self._border_changes.append((tstates, colour))
        ear = 1 if value & hw.OUT_EAR_BIT else 0
        if ear != self.ear:
            self.ear = ear
            self._ear_changes.append((tstates, ear))
        mic = 1 if value & hw.OUT_MIC_BIT else 0
        if mic != self.mic:
            self.mic = mic
            self._mic_changes.append((tstates, mic))

    def port_in(self, port: int, tstates: int) -> int:
        if port & 1:                    # nothing answers on a bare 48K: the floating bus
            return self.floating_bus(tstates + hw.PORT_SAMPLE_TSTATES)
        value = 0xA0 | self.keyboard.read(port >> 8)    # bits 5 and 7 read 1
        if self.tape is not None:
            ear_in = self.tape.ear_at(tstates)
            if ear_in != self.tape_level:
                self.tape_level = ear_in
                self._tape_changes.append((tstates, ear_in))
        else:
            ear_in = self.ear           # Issue 3 board with no tape: EAR in follows EAR out
        if ear_in:
            value |= hw.IN_EAR_BIT
        return value

    def floating_bus(self, tstates: int) -> int:
        """What an odd port no device answers reads at `tstates`: the screen byte the ULA is
        fetching then, 0xFF while its bus is idle (bus_address)."""
        addr = bus_address(tstates)
        if addr is None or self.memory is None:
            return 0xFF
        return int(self.memory[addr])

    def end_frame(self, frame_tstates: int = hw.TSTATES_PER_FRAME,
                  screen_writes: list[ScreenWrite] | None = None) -> None:
        """Close the frame's logs (changes at or past its end move to the next frame) and
        tell the tape a frame has passed. `screen_writes` is the CPU's own log list: its
        entries move to frame_screen_writes and it is emptied in place (compiled code may hold
        the list), keeping only writes at or past the frame end, moved to the new frame's T."""
        if screen_writes:
            log = screen_writes[:]
            del screen_writes[:]
            self.frame_screen_writes, late = _cut(log, frame_tstates)
            screen_writes.extend(late)
        elif self.frame_screen_writes:
            self.frame_screen_writes = []
        self.frame_border, self._border_start, self._border_changes = _split(
            self._border_start, self._border_changes, frame_tstates)
        self.frame_ear, self._ear_start, self._ear_changes = _split(
            self._ear_start, self._ear_changes, frame_tstates)
        self.frame_mic, self._mic_start, self._mic_changes = _split(
            self._mic_start, self._mic_changes, frame_tstates)
        self.frame_tape, self._tape_start, self._tape_changes = _split(
            self._tape_start, self._tape_changes, frame_tstates)
        if self.tape is not None:
            self.tape.end_frame(frame_tstates)

    def render(self, memory: np.ndarray, frame_number: int, out: np.ndarray | None = None,
               later_writes: Sequence[ScreenWrite] = ()) -> np.ndarray:
        """The last finished frame, each screen byte as the beam fetched it (its
        frame_screen_writes; `later_writes` are the CPU's writes since, undone).
        A frame with no screen write and no border change, whose screen memory, border and
        (where a cell FLASHes) flash phase are those of the picture already in `out`, is not
        drawn again: `frame_changed` says whether this call changed `out`."""
        start, changes = self.frame_border
        shows = None
        if out is not None and not (changes or self.frame_screen_writes or later_writes):
            shows = self._still_picture(memory, frame_number, start)
            if self._drawn is not None and self._drawn[0] is out and self._drawn[1] == shows:
                self.frame_changed = False
                return out
        self._drawn = (out, shows) if shows is not None else None
        self.frame_changed = True
        return render(memory, frame_number, start, changes, out, self.frame_screen_writes,
                      later_writes)

    @staticmethod
    def _still_picture(memory: np.ndarray, frame_number: int, border: int) -> tuple[Any, ...]:
        """What a frame without writes or border changes shows: the screen bytes, the border
        colour and, only when some attribute has FLASH set, the flash phase."""
        screen = bytes(memory[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES])
        flashing = 1 in screen[hw.SCREEN_BITMAP_BYTES:].translate(_FLASH_BIT)
        return screen, border & 7, flashing and flash_inverted(frame_number)


_FLASH_BIT = bytes(attr >> 7 for attr in range(256))   # attribute -> 1 where FLASH is set


def _cut(entries: list[Any], frame_tstates: int) -> tuple[list[Any], list[Any]]:
    """Time-ordered (tstates, ...) entries -> (those before frame_tstates, the rest with
    frame_tstates taken off their T-state)."""
    if not entries or entries[-1][0] < frame_tstates:
        return entries, []
    return ([e for e in entries if e[0] < frame_tstates],
            [(e[0] - frame_tstates, *e[1:]) for e in entries if e[0] >= frame_tstates])


def _split(start: int, changes: list[tuple[int, int]],
           frame_tstates: int) -> tuple[FrameLog, int, list[tuple[int, int]]]:
    """-> (finished frame's (start, changes), next frame's start, next frame's changes)."""
    changes, late = _cut(changes, frame_tstates)
    next_start = changes[-1][1] if changes else start
    return (start, changes), next_start, late
