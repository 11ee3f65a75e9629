"""Drives game/program.py frame by frame with scripted keys and seeded dice, and reads the
screen back as text. Runs on the real Spectrum48 with our ROM when both are there, else on a
small stand-in machine (memory, a Python print routine that keeps a text grid). Not a test."""
from __future__ import annotations

import os
import tempfile

# options, saves and exports of the program under test go to a scratch directory, never
# to the user's own config (a test may set its own)
os.environ.setdefault("SPECTRUM_BACKGAMMON_CONFIG_DIR", tempfile.mkdtemp(prefix="sbg-config-"))

import roms  # noqa: E402
from game.board import screen as S  # noqa: E402
from game.model.dice import Dice  # noqa: E402
from game.program import Run, program  # noqa: E402
from game.zx import media  # noqa: E402
from game.zx.basic import CODE_AT, CODE_DELETE, CODE_ENTER, Basic, mcode_symbols, rom_ready  # noqa: E402
from spectrum.keyboard import keys_for_char  # noqa: E402
from spectrum.machine import Spectrum48  # noqa: E402

CUBE_STOP = "ENTER rolls, D doubles"       # game/words.py "roll or double": the cube stop


def rom_symbols() -> dict:
    """Our own ROM's symbol table (roms.rom_symbols: pasmo's labels and EQUs) with the game's
    machine code's labels (USR_ENTRY, PARAMS) when game/zx/mcode.sym is there: for the tests
    that drive our ROM's own routines (the game itself uses only game/zx/rom48.py)."""
    return {**roms.rom_symbols(), **mcode_symbols()}


SYMBOLS = {"PRINT_A": 0x0010, "CLS": 0x0DAF, "BEEPER": 0x03B5, "FLAGS": 23611,   # 48K's
           "LAST_K": 23560, "ATTR_P": 23693, "ATTR_T": 23695, "FRAMES": 23672, "CL_SET": 0x0DD9}


class StandInMachine:
    """Just enough of a 48K for the program when the Z80/ROM are not wanted: 64K of memory,
    call() for print/CLS/BEEPER done in Python, a 24 x 32 grid of the characters printed."""

    def __init__(self):
        self.memory = bytearray(65536)
        self.grid = [[" "] * S.COLS for _ in range(S.ROWS)]
        self.frame_count = 0
        self._row = self._col = 0
        self._attr = S.attr(S.BLACK, S.WHITE)
        self._pending: list[int] = []
        self.beeper_calls = 0
        self.usr_traps: dict = {}

    def peek(self, addr):
        return self.memory[addr & 0xFFFF]

    def poke(self, addr, value):
        if addr >= 0x4000:
            self.memory[addr & 0xFFFF] = value & 0xFF

    def set_usr_trap(self, addr, handler):
        self.usr_traps[addr] = handler

    def usr(self, addr):
        trap = self.usr_traps.get(addr)
        return trap() & 0xFFFF if trap else addr

    def call(self, addr, max_frames=500, **regs):
        if addr == SYMBOLS["PRINT_A"]:
            self._print(regs["a"])
        elif addr == SYMBOLS["CLS"]:
            self.memory[0x4000:0x5800] = bytes(0x1800)
            self.grid = [[" "] * S.COLS for _ in range(S.ROWS)]
        elif addr == SYMBOLS["BEEPER"]:
            self.beeper_calls += 1
        elif addr == SYMBOLS["CL_SET"]:
            self._row, self._col = 24 - regs["b"], 33 - regs["c"]
        return regs

    def _print(self, code):
        pending = self._pending
        if pending:
            pending.append(code)
            lead = pending[0]
            if lead == CODE_AT and len(pending) == 3:
                self._row, self._col = pending[1], pending[2]
                pending.clear()
            elif lead != CODE_AT and len(pending) == 2:
                value = pending[1]
                shift = {16: (0, 7), 17: (3, 7), 18: (7, 1), 19: (6, 1)}.get(lead)
                if shift:
                    bit, mask = shift
                    self._attr = (self._attr & ~(mask << bit)) | ((value & mask) << bit)
                pending.clear()
            return
        if 16 <= code <= 22:
            pending.append(code)
            return
        if code < 32:
            return
        row, col = self._row, self._col
        if row < S.ROWS and col < S.COLS:
            self.grid[row][col] = chr(code)
            self.memory[S.attr_addr(col, row)] = self._attr
            glyph = _glyph(code)
            for line in range(8):
                self.memory[S.bitmap_addr(col, row * 8 + line)] = glyph[line]
        self._col += 1
        if self._col >= S.COLS:
            self._col, self._row = 0, self._row + 1

    def screen_text(self) -> list[str]:
        return ["".join(row) for row in self.grid]


_GLYPHS: dict[int, list[int]] = {}


def _glyph(code: int) -> list[int]:
    """A stand-in 8 x 8 glyph (pygame's font) so PNGs of the stand-in are readable."""
    if code not in _GLYPHS:
        try:
            import pygame
            pygame.font.init()
            font = pygame.font.SysFont(None, 11)
            surf = pygame.Surface((8, 8))
            surf.blit(font.render(chr(code), False, (255, 255, 255)), (1, 0))
            rows = []
            for y in range(8):
                value = 0
                for x in range(8):
                    if surf.get_at((x, y))[0]:
                        value |= 0x80 >> x
                rows.append(value)
            _GLYPHS[code] = rows
        except Exception:                     # pragma: no cover - no font: blank glyphs
            _GLYPHS[code] = [0] * 8
    return _GLYPHS[code]


def key_code(ch: str) -> int:
    if ch == "\n":
        return CODE_ENTER
    if ch == "\b":
        return CODE_DELETE
    return ord(ch)


def run_of(dice: Dice, chooser, on_game, **options) -> Run:
    """program()'s Run for a driver: its dice, the chooser when one is given (else Run's),
    each new game told to `on_game`, and the test's other keywords as they are."""
    if chooser is not None:
        options["chooser"] = chooser
    return Run(dice=dice, on_game=on_game, **options)


class GameDriver:
    """`GameDriver(seed=1)` or `GameDriver(dice=Dice.scripted([...]))`; then `type("k4\\n")`,
    `until("Your move?")`, `text()`. Keys go in as the ROM's interrupt would leave them:
    LAST-K set and FLAGS bit 5 raised, one key every `frames_per_key` frames."""
    roll_at_stops = True

    def __init__(self, seed: int | None = 1, dice: Dice | None = None, chooser=None,
                 ask_instructions: bool = False, frames_per_key: int = 2, start=None,
                 **options):
        """options: more of program()'s Run (settings, cube_policy, session, match, ...)."""
        self.machine = StandInMachine()
        self.basic = Basic(self.machine, dict(SYMBOLS))
        self.dice = dice or Dice(seed)
        self.games: list = []
        self.logs: list[list[str]] = []
        self.program = program(self.basic, run_of(self.dice, chooser, self.listen,
                                                  ask_instructions=ask_instructions,
                                                  start=start, **options))
        self.frames = 0
        self.frames_per_key = frames_per_key
        next(self.program)                     # run to the first frame boundary

    def frame(self, key: int | None = None) -> None:
        if key is not None:
            self.machine.memory[SYMBOLS["LAST_K"]] = key
            self.machine.memory[SYMBOLS["FLAGS"]] |= 0x20
        self.frames += 1
        self.machine.frame_count += 1
        self.program.send(None)

    def run(self, frames: int) -> None:
        for _ in range(frames):
            self.frame()

    def type(self, keys: str) -> None:
        for ch in keys:
            self.frame(key_code(ch))
            for _ in range(self.frames_per_key - 1):
                self.frame()

    def listen(self, game) -> None:
        """program() tells of each new game: keep it, and hear what happens in it (its
        throws, plays and cube actions in words, through the hook Game.on_event)."""
        self.games.append(game)
        heard: list[str] = []
        self.logs.append(heard)
        game.on_event = heard.append

    @property
    def game(self):
        return self.games[-1] if self.games else None

    @property
    def log(self) -> list[str]:
        """What the newest game's listener has heard so far, in order."""
        return self.logs[-1] if self.logs else []

    def text(self) -> list[str]:
        return self.machine.screen_text()

    def message(self) -> str:
        return self.text()[S.MESSAGE_ROW].rstrip()

    def until(self, words: str, max_frames: int = 3000, row: int | None = None) -> None:
        """Run frames until `words` is on screen (on `row` if given). On the way, ENTER at
        each cube stop ("ENTER rolls, D doubles"), as a player who does not double
        (`roll_at_stops` False: the test answers the stops itself)."""
        for _ in range(max_frames):
            lines = self.text()
            if any(words in line for line in (lines if row is None else [lines[row]])):
                return
            if self.roll_at_stops and CUBE_STOP in lines[S.MESSAGE_ROW]:
                self.type("\n")
                continue
            self.frame()
        raise AssertionError(f"{words!r} never appeared; screen:\n" + "\n".join(self.text()))

    def resign_single(self, max_frames: int = 3000) -> None:
        """QUIT at a prompt of a game in progress, a single resigned (the computer accepts
        one early in a game), then a key at the banner for the next game."""
        self.type("QUIT\n")
        self.until("1 single, 2 gammon", max_frames)
        self.type("1")
        self.until("Press any key", max_frames)
        self.type(" ")

    def save_png(self, path: str, scale: int = 2) -> None:
        import numpy as np
        import pygame

        from spectrum import ula
        rgb = ula.render(np.frombuffer(self.machine.memory, dtype=np.uint8), 0)
        rgb = rgb.repeat(scale, 0).repeat(scale, 1)
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        pygame.image.save(pygame.surfarray.make_surface(rgb.transpose(1, 0, 2).copy()), path)


class RoutineDriver(GameDriver):
    """GameDriver's keys, text and until, driving one routine instead of a match on the
    stand-in: `make(basic)` gives the generator; `finished` and `result` (what it returned)
    tell how it ended, after which frames do nothing."""

    def __init__(self, make):
        self.machine = StandInMachine()
        self.basic = Basic(self.machine, dict(SYMBOLS))
        self.program = make(self.basic)
        self.result, self.finished = None, False
        self.frames, self.frames_per_key, self.games = 0, 2, []
        next(self.program)

    def frame(self, key: int | None = None) -> None:
        if self.finished:
            return
        if key is not None:
            self.machine.memory[SYMBOLS["LAST_K"]] = key
            self.machine.memory[SYMBOLS["FLAGS"]] |= 0x20
        try:
            self.program.send(None)
        except StopIteration as stop:
            self.finished, self.result = True, stop.value


# ---------------------------------------------------------------------------------------
# The real machine: Spectrum48 + our ROM; keys through the matrix, the ROM's interrupt scans.

class MachineDriver(GameDriver):
    """The same driver on the real Spectrum48 with our ROM: each frame the program takes its
    step and then the machine runs its 69,888 T (with the interrupt that scans the keys)."""

    def __init__(self, seed: int | None = 1, dice: Dice | None = None, chooser=None,
                 ask_instructions: bool = False, frames_per_key: int = 4, start=None,
                 level: int | None = None, machine=None, **options):
        """level: the computer plays through USR and the evaluator at that level (the
        machine code is put at its ORG as the tape would); None: its first legal play.
        machine: one already started (another ROM, a tape loaded); default a new one."""
        import roms
        from game.zx.usr import usr_chooser
        self.machine = machine or Spectrum48(roms.ROM_PATH)
        self.symbols = rom_symbols()
        for _ in range(200):                       # let the ROM start up (it clears RAM)
            self.machine.run_frame()
            if rom_ready(self.machine):
                break
        self.basic = Basic(self.machine, self.symbols)
        if level is not None:
            self.machine.load(self.symbols["USR_ENTRY"], media.load_mcode())
            chooser = usr_chooser(self.basic, level)
        self.dice = dice or Dice(seed)
        self.games, self.logs = [], []
        self.program = program(self.basic, run_of(self.dice, chooser, self.listen,
                                                  ask_instructions=ask_instructions,
                                                  start=start, **options))
        self.frames = 0
        self.frames_per_key = frames_per_key
        next(self.program)

    def frame(self, key: int | None = None) -> None:
        self.frames += 1
        self.program.send(None)
        self.machine.run_frame()

    def type(self, keys: str) -> None:
        kb = self.machine.keyboard
        down = max(1, self.frames_per_key // 2)
        for ch in keys:
            kb.set_pressed(keys_for_char(ch))
            for _ in range(down):
                self.frame()
            kb.release_all()
            for _ in range(self.frames_per_key - down):
                self.frame()

    def text(self) -> list[str]:
        """The screen as text through the ROM font's reader (tests/screentext.py)."""
        import screentext
        return screentext.screen_text(self.machine.memory)

    def save_png(self, path: str, scale: int = 2) -> None:
        """The picture a player sees next: the machine draws the screen as the beam fetched it, so
        what the program printed after the last frame began shows in the next frame (one is run
        first)."""
        import pygame
        self.frame()
        rgb = self.machine.render()
        rgb = rgb.repeat(scale, 0).repeat(scale, 1)
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        pygame.image.save(pygame.surfarray.make_surface(rgb.transpose(1, 0, 2).copy()), path)


def board(white: dict, black: dict):
    """A position with the bottom side (white) on roll, from {index: men} maps, each side
    counting its own points from index 0 (its 1-point) to 24 (its bar)."""
    from game.model.position import Position
    cells = [0] * 50
    for index, men in white.items():
        cells[index] = men
    for index, men in black.items():
        cells[25 + index] = men
    return Position(tuple(cells))


class RomRoutineDriver(MachineDriver):
    """MachineDriver for any one routine: `RomRoutineDriver(lambda basic: menus.help_screens(
    basic))`. The routine runs on the booted 48K; `result` and `done` tell how it ended."""

    def __init__(self, make_routine, frames_per_key: int = 4):
        self.machine = Spectrum48(roms.ROM_PATH)
        self.symbols = rom_symbols()
        for _ in range(200):
            self.machine.run_frame()
            if rom_ready(self.machine):
                break
        self.basic = Basic(self.machine, self.symbols)
        self.games = []
        self.frames = 0
        self.frames_per_key = frames_per_key
        self.done = False
        self.result = None
        self.program = self._run(make_routine(self.basic))
        next(self.program)

    def _run(self, routine):
        self.result = yield from routine
        self.done = True
        while True:
            yield

    def finish(self, max_frames: int = 50):
        for _ in range(max_frames):
            if self.done:
                return self.result
            self.frame()
        raise AssertionError("the routine did not return; screen:\n" + "\n".join(self.text()))

    def screen(self) -> str:
        return "\n".join(self.text())

    def words(self) -> str:
        """The screen's text as one line of words (wrapped lines joined)."""
        return " ".join(self.screen().split())

    def attr_at(self, row: int, col: int) -> int:
        return self.machine.memory[S.attr_addr(col, row)]
