"""The BASIC-like layer the program is written in: PRINT AT with INK/PAPER through the ROM's
RST 10h, INKEY$ and INPUT from LAST-K and FLAGS, BEEP through the ROM, PAUSE, POKE/PEEK, USR.
Generators (`key = yield from basic.inkey()`) yield once per 50 Hz frame. Not the game flow.
It reaches the ROM only through the standard 48K entry points and system variables
(game/zx/rom48.py), so it runs the same on our ROM, the 48K's, or OpenSE BASIC."""
from collections.abc import Callable, Generator
from typing import Any

import roms
from game.board import screen as geometry
from game.board.lines import rom_text
from game.interfaces import Frames, Machine
from game.zx import media, rom48
from spectrum.hw import ATTR_ADDR, ATTR_BYTES

# control codes understood by the ROM's print routine (as on the 48K)
CODE_ENTER = 13
CODE_DELETE = 12
CODE_INK, CODE_PAPER, CODE_FLASH, CODE_BRIGHT, CODE_INVERSE, CODE_OVER = 16, 17, 18, 19, 20, 21
CODE_AT = 22
FLAGS_NEW_KEY = rom48.FLAGS_NEW_KEY  # FLAGS bit 5: the interrupt put a new key in LAST-K
AT_LAST_LINE = 21                    # AT reaches lines 0-21 of the upper screen on every ROM;
                                     # lines 22-23 are set with CL-SET (and DF-SZ 0)
ENTRY_MAX_CHARS = 255                # a typed line is cut here (the 1983 INPUT had its RAM)
CURSOR_CHAR = "L"                    # the flashing 'L' cursor of the 48K's lower screen
CLICK_MS, CLICK_HZ = 3, 1500         # key click


def mcode_symbols() -> dict[str, int]:
    """The game's machine code's labels (USR_ENTRY, PARAMS), or {} when not assembled."""
    try:
        return dict(media.mcode_symbols())
    except roms.RomFileError:
        return {}


def rom_ready(machine: Any) -> bool:
    """True once the machine (a Spectrum48) rests with the ROM's frame interrupt running: IM 1,
    interrupts on, the CPU in a HALT (our ROM's idle loop after start-up, or the game's own
    resting loop after a load on another ROM). Its CPU is the real machine's, which the
    Machine protocol does not name: Any."""
    cpu = machine.cpu
    return bool(cpu.halted and cpu.iff1 and cpu.im == 1)


class Basic:
    """`machine` is a Machine (game/interfaces.py: a Spectrum48, or the tests' stand-in). ROM
    addresses come from game/zx/rom48.py; `symbols` adds the game's own labels (USR_ENTRY,
    PARAMS; default game/zx/mcode.sym). `on_beep`, when set, hears every BEEP as (ms, hz),
    sounded or silent."""

    def __init__(self, machine: Machine, symbols: dict[str, int] | None = None):
        self.machine = machine
        self.memory = machine.memory
        self.sym = symbols if symbols is not None else mcode_symbols()
        self.on_beep: Callable[[int, int], None] | None = None
        self.silent = False
        self._channel_open = False

    def addr(self, *names: str) -> int:
        """The standard 48K address of the first of `names` (game/zx/rom48.py), else the first
        found among the game's own labels."""
        for name in names:
            if name in rom48.STANDARD:
                return rom48.STANDARD[name]
        for name in names:
            if name in self.sym:
                return self.sym[name]
        raise KeyError(f"neither the standard 48K table nor the game's labels have {names}")

    # ---------- POKE, PEEK, USR ----------
    def peek(self, address: int) -> int:
        return self.machine.peek(address)

    def poke(self, address: int, value: int) -> None:
        self.machine.poke(address, value)

    def usr(self, address: int) -> int:
        return self.machine.usr(address)

    # ---------- PRINT ----------
    def _open_screen(self) -> None:
        """CHAN-OPEN 2: RST 10h prints to the upper screen from now on; and the keyboard in
        L mode, so a 48K ROM's KEYBOARD gives letters, not keywords, in LAST-K."""
        self.machine.call(rom48.CHAN_OPEN, a=rom48.STREAM_UPPER_SCREEN)
        self._channel_open = True
        self.memory[rom48.FLAGS] |= rom48.FLAGS_L_MODE
        self.memory[rom48.MODE] = 0

    def _rst10(self, codes: bytes) -> None:
        if not self._channel_open:
            self._open_screen()
        call = self.machine.call
        for code in codes:
            call(rom48.RST_PRINT_A, a=code)

    def print_at(self, row: int, col: int, text: str, attr_byte: int | None = None) -> None:
        """PRINT AT row,col; INK; PAPER; BRIGHT; FLASH; text (no newline). Characters outside
        32..127 print as their nearest ASCII (lines.rom_text: é as e), else '?'. Rows 22-23
        (the 48K's lower screen) are reached with CL-SET."""
        codes = bytearray()
        if row <= AT_LAST_LINE:
            codes += bytes([CODE_AT, row, col])
        else:
            if not self._channel_open:
                self._open_screen()
            self.poke(rom48.DF_SZ, 0)           # the upper screen runs to line 23
            self.machine.call(rom48.CL_SET, b=24 - row, c=33 - col)
        if attr_byte is not None:
            codes += bytes([CODE_INK, attr_byte & 7, CODE_PAPER, (attr_byte >> 3) & 7,
                            CODE_BRIGHT, (attr_byte >> 6) & 1, CODE_FLASH, attr_byte >> 7])
        codes += rom_text(text).encode("ascii")
        self._rst10(bytes(codes))

    def cls(self, attr_byte: int = geometry.attr(geometry.BLACK, geometry.WHITE)) -> None:
        """CLS with the given colours: ATTR-P first, as BASIC's PAPER and INK statements
        would, then the ROM's CL-ALL, and stream 2 (the upper screen) opened for printing."""
        self.poke(rom48.ATTR_P, attr_byte)
        self.poke(rom48.ATTR_T, attr_byte)
        self.machine.call(rom48.CL_ALL)
        self._open_screen()
        self.memory[ATTR_ADDR:ATTR_ADDR + ATTR_BYTES] = bytes([attr_byte]) * ATTR_BYTES  # 24 rows

    # ---------- BEEP ----------
    def beep(self, ms: int, hz: int) -> None:
        """BEEP through the ROM's BEEPER, DE and HL worked out from the 48K BEEPER's timing
        (game/zx/rom48.py). The CPU is busy meanwhile, as in BASIC."""
        if self.on_beep is not None:
            self.on_beep(ms, hz)
        if self.silent:
            return
        de, hl = rom48.beeper_registers(ms, hz)
        self.machine.call(rom48.BEEPER, de=de, hl=hl)

    # ---------- frames and keys ----------
    def pause(self, frames: int) -> Generator[None, None, int | None]:
        """PAUSE n: wait n frames, or less if a key is pressed; returns the key code or None."""
        for _ in range(frames):
            yield
            key = self.take_key()
            if key is not None:
                return key
        return None

    def wait(self, frames: int) -> Frames:
        """Wait exactly n frames, keys ignored (and dropped)."""
        for _ in range(frames):
            yield
        self.take_key()

    def take_key(self) -> int | None:
        """LAST-K if the interrupt flagged a new key (FLAGS bit 5), clearing the flag."""
        flags = self.memory[rom48.FLAGS]
        if flags & FLAGS_NEW_KEY:
            self.memory[rom48.FLAGS] = flags & ~FLAGS_NEW_KEY & 0xFF
            return self.memory[rom48.LAST_K]
        return None

    def inkey(self) -> Generator[None, None, int]:
        """Wait for the next key; return its code (one frame per yield)."""
        while True:
            yield
            key = self.take_key()
            if key is not None:
                return key

    def wait_enter(self) -> Frames:
        while (yield from self.inkey()) != CODE_ENTER:
            pass

    def input(self, prompt: str, row: int = geometry.MESSAGE_ROW,
              attr_byte: int = geometry.MESSAGE, text: str = "") -> Generator[None, None, str]:
        """INPUT on one screen line: the prompt, the typed text and a flashing cursor;
        DELETE rubs out; ENTER returns the text. Each key clicks. `text`: what the line
        starts with (a key already typed while a message was showing)."""
        self.take_key()                      # a key pressed before the prompt does not count
        self._show_entry(prompt, text, row, attr_byte)
        while True:
            key = yield from self.inkey()
            if key == CODE_ENTER:
                self.beep(CLICK_MS, CLICK_HZ)
                return text
            if key == CODE_DELETE:
                text = text[:-1]
            elif 32 <= key < 128 and len(text) < ENTRY_MAX_CHARS:
                text += chr(key)
            else:
                continue
            self.beep(CLICK_MS, CLICK_HZ)
            self._show_entry(prompt, text, row, attr_byte)

    def _show_entry(self, prompt: str, text: str, row: int, attr_byte: int) -> None:
        room = geometry.COLS - len(prompt) - 2
        shown = text[-room:] if room > 0 else ""
        line = f"{prompt} {shown}"
        self.print_at(row, 0, line, attr_byte)
        self.print_at(row, len(line), CURSOR_CHAR, attr_byte | 0x80)
        pad = geometry.COLS - len(line) - 1
        if pad > 0:
            self.print_at(row, len(line) + 1, " " * pad, attr_byte)
