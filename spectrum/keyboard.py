"""The Spectrum's 40-key matrix: eight half-rows of five keys, read through port 0xFE.
Knows key names and how the ULA reads them; not pygame, not PC keys (see display.py)."""
from collections.abc import Iterable

from spectrum import hw

# name -> (half-row index 0..7, bit 0..4); row i is selected by address line A(8+i) low
KEY_POSITIONS = {
    name: (row, bit)
    for row, (_port, names) in enumerate(hw.KEYBOARD_ROWS)
    for bit, name in enumerate(names)
}
KEY_NAMES = tuple(KEY_POSITIONS)          # all 40, in matrix order
HALF_ROW_PORTS = tuple(port for port, _names in hw.KEYBOARD_ROWS)

# the symbols printed in red on the keys: SYMBOL SHIFT + that key types them
SYMBOL_KEYS = {"!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "&": "6", "'": "7",
               "(": "8", ")": "9", "_": "0", "<": "R", ">": "T", ";": "O", '"': "P",
               "^": "H", "-": "J", "+": "K", "=": "L", ":": "Z", "?": "C", "/": "V",
               "*": "B", ",": "N", ".": "M"}


def keys_for_char(ch: str) -> tuple[str, ...]:
    """The keys held together to type `ch` ("\n" ENTER, "\b" DELETE); () if none can."""
    if ch == "\n":
        return ("ENTER",)
    if ch == "\b":
        return ("CAPS SHIFT", "0")
    if ch == " ":
        return ("SPACE",)
    if ch in SYMBOL_KEYS:
        return ("SYMBOL SHIFT", SYMBOL_KEYS[ch])
    if ch.isascii() and ch.isalnum():
        return ("CAPS SHIFT", ch) if ch.isupper() else (ch.upper(),)
    return ()


class KeyMatrix:
    """Which keys are held. `read(high_byte)` is what the ULA puts on bits 0-4 (0 = pressed)."""

    def __init__(self) -> None:
        self.rows = [0x1F] * 8          # one byte per half-row, active-low like the hardware

    def press(self, name: str) -> None:
        row, bit = self._position(name)
        self.rows[row] &= ~(1 << bit) & 0x1F

    def release(self, name: str) -> None:
        row, bit = self._position(name)
        self.rows[row] |= 1 << bit

    def release_all(self) -> None:
        self.rows = [0x1F] * 8

    def set_pressed(self, names: Iterable[str]) -> None:
        """Make exactly these keys held (any iterable of key names)."""
        rows = [0x1F] * 8
        for name in names:
            row, bit = self._position(name)
            rows[row] &= ~(1 << bit) & 0x1F
        self.rows = rows

    def is_pressed(self, name: str) -> bool:
        row, bit = self._position(name)
        return not self.rows[row] & (1 << bit)

    def read(self, high_byte: int) -> int:
        """Bits 0-4 for an IN from a port whose high address byte is `high_byte`:
        every half-row whose address line is 0 is selected and their bits are ANDed."""
        value = 0x1F
        rows = self.rows
        for row in range(8):
            if not high_byte & (1 << row):
                value &= rows[row]
        return value

    @staticmethod
    def _position(name: str) -> tuple[int, int]:
        try:
            return KEY_POSITIONS[name.upper()]
        except KeyError:
            raise KeyError(f"no Spectrum key named {name!r}; "
                           f"known keys: {', '.join(KEY_NAMES)}") from None
