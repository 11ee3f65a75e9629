"""The BASIC-like layer the program is written in: PRINT AT with INK/PAPER through the ROM's
RST 10h, INKEY$ and INPUT from LAST-K and FLAGS, BEEP through the ROM, PAUSE, POKE/PEEK, USR.
Generators (`key = yield from basic.inkey()`) yield once per 50 Hz frame. Not the game flow."""
from game import screen as geometry

# control codes understood by the ROM's print routine (as on the 48K)
CODE_ENTER = 13
CODE_DELETE = 12
CODE_INK, CODE_PAPER, CODE_FLASH, CODE_BRIGHT, CODE_INVERSE, CODE_OVER = 16, 17, 18, 19, 20, 21
CODE_AT = 22
FLAGS_NEW_KEY = 0x20                 # FLAGS bit 5: the interrupt put a new key in LAST-K
ENTRY_MAX_CHARS = 255                # a typed line is cut here (the 1983 INPUT had its RAM)
CURSOR_CHAR = "L"                    # the flashing 'L' cursor of the 48K's lower screen
CLICK_MS, CLICK_HZ = 3, 1500         # key click
CPU_HZ = 3_500_000                   # the Z80's clock: T-states a second


def rom_symbols() -> dict:
    """The ROM's symbol table (roms.rom_symbols: pasmo's labels and EQUs) with the game's
    machine code's labels (USR_ENTRY, PARAMS) when game/mcode.sym is there."""
    import roms
    table = dict(roms.rom_symbols())
    try:
        table.update(roms.mcode_symbols())
    except (roms.RomFileError, AttributeError):
        pass
    return table


def rom_ready(machine, symbols: dict) -> bool:
    """True once the ROM has finished its start-up and rests in its IDLE loop (EI; HALT)."""
    return symbols["IDLE"] <= machine.cpu.pc <= symbols["IDLE_END"]


class Basic:
    """`machine` is a Spectrum48 (memory, call, usr); `symbols` the ROM's symbol table.
    `beeps` (optional) is told of every beep as (ms, hz) for tests that listen."""

    def __init__(self, machine, symbols: dict | None = None):
        self.machine = machine
        self.memory = machine.memory
        self.sym = symbols if symbols is not None else rom_symbols()
        self.beeps: list[tuple[int, int]] = []
        self.silent = False

    def addr(self, *names: str) -> int:
        """The first of `names` present in the symbol table."""
        for name in names:
            if name in self.sym:
                return self.sym[name]
        raise KeyError(f"the ROM's symbol table has none of {names}")

    # ---------- POKE, PEEK, USR ----------
    def peek(self, address: int) -> int:
        return self.machine.peek(address)

    def poke(self, address: int, value: int) -> None:
        self.machine.poke(address, value)

    def usr(self, address: int) -> int:
        return self.machine.usr(address)

    # ---------- PRINT ----------
    def _rst10(self, codes: bytes) -> None:
        entry = self.addr("PRINT_A")
        call = self.machine.call
        for code in codes:
            call(entry, a=code)

    def print_at(self, row: int, col: int, text: str, attr_byte: int | None = None) -> None:
        """PRINT AT row,col; INK; PAPER; BRIGHT; FLASH; text (no newline). Characters outside
        32..127 print as '?'."""
        codes = bytearray([CODE_AT, row, col])
        if attr_byte is not None:
            codes += bytes([CODE_INK, attr_byte & 7, CODE_PAPER, (attr_byte >> 3) & 7,
                            CODE_BRIGHT, (attr_byte >> 6) & 1, CODE_FLASH, attr_byte >> 7])
        codes += bytes(ord(ch) if 32 <= ord(ch) < 128 else ord("?") for ch in text)
        self._rst10(bytes(codes))

    def cls(self, attr_byte: int = geometry.attr(geometry.BLACK, geometry.WHITE)) -> None:
        """CLS with the given colours: the ROM clears, we set ATTR-P first as BASIC's PAPER
        and INK statements would."""
        self.poke(self.addr("ATTR_P"), attr_byte)
        self.poke(self.addr("ATTR_T"), attr_byte)
        try:
            self.machine.call(self.addr("CLS"))
        except KeyError:
            self.memory[0x4000:0x5800] = bytes(0x1800)
        self.memory[0x5800:0x5B00] = bytes([attr_byte]) * 0x300   # the whole 24 rows

    # ---------- BEEP ----------
    def beep(self, ms: int, hz: int) -> None:
        """BEEP through the ROM's BEEPER (DE = full cycles, HL = pitch count, a cycle taking
        BEEP_FIXED_T + BEEP_PER_COUNT_T * HL T-states). The CPU is busy meanwhile, as in BASIC."""
        self.beeps.append((ms, hz))
        if self.silent:
            return
        try:
            entry = self.addr("BEEPER")
        except KeyError:
            return
        cycles = max(1, round(hz * ms / 1000))
        fixed_t, per_count_t = self.sym.get("BEEP_FIXED_T"), self.sym.get("BEEP_PER_COUNT_T")
        if fixed_t is None or per_count_t is None:
            loops = 1                       # a stand-in machine: its BEEPER only counts calls
        else:                               # the ROM's own timing, from its symbol table
            loops = max(1, min(0xFFFF, round((CPU_HZ / hz - fixed_t) / per_count_t)))
        self.machine.call(entry, de=cycles, hl=loops)

    # ---------- frames and keys ----------
    def pause(self, frames: int):
        """PAUSE n: wait n frames, or less if a key is pressed; returns the key code or None."""
        for _ in range(frames):
            yield
            key = self.take_key()
            if key is not None:
                return key
        return None

    def wait(self, frames: int):
        """Wait exactly n frames, keys ignored (and dropped)."""
        for _ in range(frames):
            yield
        self.take_key()

    def take_key(self) -> int | None:
        """LAST-K if the interrupt flagged a new key (FLAGS bit 5), clearing the flag."""
        flags_addr = self.addr("FLAGS")
        flags = self.memory[flags_addr]
        if flags & FLAGS_NEW_KEY:
            self.memory[flags_addr] = flags & ~FLAGS_NEW_KEY & 0xFF
            return self.memory[self.addr("LAST_K")]
        return None

    def inkey(self):
        """Wait for the next key; return its code (one frame per yield)."""
        while True:
            yield
            key = self.take_key()
            if key is not None:
                return key

    def wait_enter(self):
        while (yield from self.inkey()) != CODE_ENTER:
            pass

    def input(self, prompt: str, row: int = geometry.MESSAGE_ROW,
              attr_byte: int = geometry.MESSAGE, text: str = ""):
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
