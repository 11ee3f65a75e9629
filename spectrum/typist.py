"""Typing into the 48K from a PC: the strokes of the PC keys pressed and of the text the mouse
types, each held a whole number of emulated frames and repeated in host time, set into the key
matrix before each frame. Not pygame (spectrum/display.py maps its keys) and not the matrix
itself (spectrum/keyboard.py)."""
import collections
import time
from collections.abc import Callable, Iterable

from spectrum.keyboard import KeyMatrix, keys_for_char

TYPE_HOLD_FRAMES = 3           # a character the mouse types is held this long,
TYPE_GAP_FRAMES = 5            # then let go a tenth of a second (a 48K ROM's debounce)
REPEAT_DELAY_S = 35 / 50       # a PC key held this long (host time; REPDEL) starts repeating,
REPEAT_EVERY_S = 5 / 50        # then types again this often (REPPER)
SHIFT_KEYS = frozenset(("CAPS SHIFT", "SYMBOL SHIFT"))


def matrix_names(held: Iterable[tuple[str, ...]]) -> list[str]:
    """The Spectrum keys for the PC keys held. While a symbol is held the PC's Shift is not
    CAPS SHIFT (CAPS + SYMBOL would be extended mode, and "?" would type nothing)."""
    names = [n for keys in held for n in keys]
    if "SYMBOL SHIFT" in names:
        names = [n for n in names if n != "CAPS SHIFT"]
    return names


class Typist:
    """Sets the key matrix before each frame. Every stroke, a PC key pressed or a character
    the mouse typed, is held TYPE_HOLD_FRAMES emulated frames, then let go TYPE_GAP_FRAMES,
    one stroke after another, so a ROM that needs a key released before it counts it again
    sees every one, and a press looks the same at 50 Hz and flat out (F10). A PC key still
    down after REPEAT_DELAY_S of host time (the 48K's REPDEL) types again every
    REPEAT_EVERY_S (REPPER) while it stays down: the ROM's own repeat, which counts emulated
    frames, never fires on a PC key. CAPS SHIFT and SYMBOL SHIFT alone are held as long as
    their PC keys are, to shift the strokes typed meanwhile."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock              # host seconds
        self.queue: collections.deque[tuple[str, ...]] = collections.deque()   # strokes to come
        self.holding: tuple[str, ...] = ()   # the keys of the stroke being typed
        self.frames_left = 0
        self.down: dict[int, list] = {}            # PC key -> [its keys, host s of its next repeat]

    @property
    def busy(self) -> bool:
        """A stroke still to be typed, held or let go: what was pressed has not all reached
        the matrix yet."""
        return bool(self.queue or self.holding or self.frames_left)

    def type(self, text: str) -> None:
        self.queue.extend(keys_for_char(ch) for ch in text if keys_for_char(ch))

    def press(self, key: int, names: tuple[str, ...]) -> None:
        """A PC key went down: one stroke now, repeats only if it is still down later."""
        if key in self.down:            # the OS's own auto-repeat: we time repeats ourselves
            return
        if not set(names) <= SHIFT_KEYS:      # the shifts held now go with the stroke
            self.queue.append((*self._shifts(), *names))
        self.down[key] = [tuple(names), self.clock() + REPEAT_DELAY_S]

    def release(self, key: int) -> None:
        self.down.pop(key, None)

    def release_all(self) -> None:
        self.down.clear()

    def frame(self, keyboard: KeyMatrix) -> None:
        """Before each frame: the matrix is the shifts held plus the stroke being typed."""
        if self.frames_left:
            self.frames_left -= 1
        elif self.holding:
            self.holding, self.frames_left = (), TYPE_GAP_FRAMES - 1
        else:
            if not self.queue:
                self._repeat()
            if self.queue:
                self.holding, self.frames_left = self.queue.popleft(), TYPE_HOLD_FRAMES - 1
        keyboard.set_pressed(matrix_names([self._shifts(), self.holding]))

    def _shifts(self) -> tuple:
        """CAPS SHIFT and SYMBOL SHIFT of the PC keys down that are only a shift."""
        return tuple(name for names, _repeat_s in self.down.values() if set(names) <= SHIFT_KEYS
                     for name in names)

    def _repeat(self) -> None:
        """The last PC key pressed that is still down types again once it is due (a 48K
        repeats only the last key)."""
        now_s = self.clock()
        for entry in reversed(list(self.down.values())):
            names, repeat_s = entry
            if set(names) <= SHIFT_KEYS:
                continue
            if now_s >= repeat_s:
                entry[1] = max(repeat_s + REPEAT_EVERY_S, now_s)
                self.queue.append(names)
            return
