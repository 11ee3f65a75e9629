"""The test pattern: a hand-assembled 16K ROM that beeps once and paints border bands each
frame, and a screen of colour bars, FLASH cells and line art, to check a window shows a 48K
right (`python -m spectrum.show --test-pattern`). Not the game's ROM (roms/) nor the window."""
from spectrum import hw
from spectrum.machine import Spectrum48
from spectrum.ula import bitmap_offset

# Hand-checked with pasmo. At reset: DI; IM 1; SP = 0; a 0.1 s beep of about 1 kHz (200
# OUTs toggling bit 4); EI; then each frame: HALT, wait 341 passes (to about T 8,920, the
# first shown border line), then eight border bands of about 30 lines, colours 0..7, each
# an OUT and a 256-pass delay loop, so the bands fill the 240 shown lines. At 0x38: EI; RET.
TEST_PATTERN_ROM_CODE = bytes.fromhex(
    "f3ed56310000" "21c800" "af" "ee10" "d3fe" "0682" "10fe" "2b" "4f" "7c" "b5" "79" "20f1"
    "fb" "76" "115501" "1b" "7a" "b3" "20fb" "0e00" "79" "d3fe" "110001" "1b" "7a" "b3" "20fb"
    "0c" "79" "fe08" "20ef" "18e2")
TEST_PATTERN_ROM = (TEST_PATTERN_ROM_CODE.ljust(hw.IM1_VECTOR, b"\0") + b"\xfb\xc9").ljust(
    hw.ROM_BYTES, b"\0")


def draw_test_pattern(machine: Spectrum48) -> None:
    """Fill the screen: 8 normal and 8 BRIGHT colour bars (15 colours), a row of FLASHing
    cells, and line art that shows the bitmap's row order is right."""
    bitmap = bytearray(hw.SCREEN_BITMAP_BYTES)
    attrs = bytearray(hw.ATTR_BYTES)
    for row in range(24):
        for col in range(32):
            colour = col // 4
            if row < 6:                                  # normal colours as paper
                attr = colour << 3 | (7 if colour < 4 else 0)
            elif row < 12:                               # BRIGHT
                attr = 0x40 | colour << 3 | (7 if colour < 4 else 0)
            elif row < 16:                               # FLASH: half ink, half paper
                attr = 0x80 | (0x40 if row & 1 else 0) | colour << 3 | (7 - colour)
            else:                                        # line art, black on white
                attr = 0x38
            attrs[row * 32 + col] = attr
    for y in range(96, 128):                             # FLASH rows: left half of each cell ink
        for x_byte in range(32):
            bitmap[bitmap_offset(x_byte, y)] = 0xF0
    def plot(x: int, y: int) -> None:
        bitmap[bitmap_offset(x >> 3, y)] |= 0x80 >> (x & 7)
    for x in range(256):                                 # frame round the line-art area
        plot(x, 128)
        plot(x, 191)
    for y in range(128, 192):
        plot(0, y)
        plot(255, y)
        plot(64 + (y - 128) * 2, y)                      # a slope crossing character rows
        plot(255 - 64 - (y - 128) * 2, y)
    for k in range(0, 64, 8):                            # steps: one per pixel row in a cell
        for x in range(8 + k * 2, 8 + k * 2 + 16):
            plot(x, 136 + k // 8 * 6)
    machine.load(hw.SCREEN_ADDR, bytes(bitmap) + bytes(attrs))


def pattern_machine() -> Spectrum48:
    """A Spectrum48 running the test-pattern ROM with the pattern on its screen."""
    machine = Spectrum48(TEST_PATTERN_ROM)
    draw_test_pattern(machine)
    return machine
