"""Which ROM the game boots (`--rom PATH`): checks that a 48K ROM image is whole, boots to a
prompt and prints through RST 10h, and the loading sequence on such a ROM -- its own start-up,
its own LOAD "" typed on the keyboard, its own loader reading the tape's edges -- up to where
the game takes over. Not our ROM's loader (spectrum/loader.py), not the game (program.py)."""
from __future__ import annotations

import os
import time
import weakref
from collections.abc import Callable, Iterable
from typing import TextIO

from game.zx import media, rom48
from spectrum import hw
from spectrum.loader import (
    BASIC_TOKENS,
    FAST_BUDGET_S,
    EdgeSkipper,
    Frames,
    TapeLoader,
)
from spectrum.machine import CallTimeout, RomImageError, Spectrum48, load_rom_image
from spectrum.quoting import say
from spectrum.safe_write import PathLike
from spectrum.tape import read_tape
from spectrum.tape_player import TapePlayer
from spectrum.tape_trap import instant_ld_bytes
from spectrum.z80 import Z80

# A tape as read_tape takes it, and so as another ROM's load plays it: its bytes or its file
TapeFile = bytes | str | os.PathLike[str]

BOOT_LIMIT_FRAMES = 250           # 5 s of emulated time to reach a prompt
SETTLE_FRAMES = 10                # screen memory unchanged this long: the ROM waits for keys
AFTER_TAPE_LIMIT_FRAMES = 500     # the loaded program has 10 s to end after the tape's end
KEY_DOWN_FRAMES, KEY_UP_FRAMES = 4, 6   # a typed key: held 4 frames, then 6 up (48K debounce)
PROBE_CHAR = "X"                  # what the RST 10h check prints at line 0, column 0
REST_LOOP = bytes([0xFB, 0x76, 0x18, 0xFC])   # EI; HALT; JR -4: the game's resting loop
# LD-SAMPLE's 13 bytes on the 48K and the ROMs that keep its loader [rom48 LD_SAMPLE]: only
# where they are found does the edge skipper jump over the passes that cannot see an edge.
LD_SAMPLE_SIGNATURE = bytes.fromhex("04c83e7fdbfe1fd0a9e62028f3")
# LOAD "" as typed: a 48K ROM gives the keyword for J in K mode, and SYMBOL SHIFT+P is ";
# OpenSE BASIC takes keywords letter by letter.
KEYWORD_TYPING = (("J",), ("SYMBOL SHIFT", "P"), ("SYMBOL SHIFT", "P"))
LETTER_TYPING = (("L",), ("O",), ("A",), ("D",), ("SPACE",), ("SYMBOL SHIFT", "P"),
                 ("SYMBOL SHIFT", "P"))
DELETE_KEY = ("CAPS SHIFT", "0")
NOT_LOADED = 'the machine code did not load (tape loading error): type LOAD "" again'
REPORT_FRAMES = 100               # autoload: 2 s to read a loading error before it retries
MAX_AUTOLOAD_TRIES = 3            # --autoload leaves LOAD "" to the player after this many


class RomProblem(ValueError):
    """A --rom image that cannot be used; the message names the file and what is wrong."""


# ---------------------------------------------------------------- checks
def read_rom_image(path: PathLike) -> bytes:
    """The 16,384 bytes of the image at `path` (spectrum/machine.py's reader), or RomProblem."""
    try:
        return load_rom_image(os.fspath(path))
    except RomImageError as exc:
        raise RomProblem(str(exc)) from None


class PromptWatch:
    """Tells, frame by frame, when a ROM rests at its prompt: IM 1 with interrupts on, its
    frame counter (FRAMES) moving, something on the screen, and the screen memory unchanged
    for SETTLE_FRAMES frames (the ROM waits for a key)."""

    def __init__(self, machine: Spectrum48) -> None:
        self.machine = machine
        self.still = 0
        self._last: bytes | None = None
        self._frames: int | None = None

    def seen(self) -> bool:
        """Call once after each frame; True once the ROM is at its prompt."""
        m, cpu = self.machine, self.machine.cpu
        screen = bytes(m.memory[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES])
        frames = m.peek_word(rom48.FRAMES)
        running = cpu.im == 1 and cpu.iff1 and frames != self._frames and any(
            screen[:hw.SCREEN_BITMAP_BYTES])
        self.still = self.still + 1 if running and screen == self._last else 0
        self._last, self._frames = screen, frames
        return self.still >= SETTLE_FRAMES


def boot_to_prompt(machine: Spectrum48, name: str, limit_frames: int = BOOT_LIMIT_FRAMES) -> int:
    """Run a freshly reset machine until its ROM waits at a prompt; the frames it took."""
    watch = PromptWatch(machine)
    for frame in range(1, limit_frames + 1):
        machine.run_frame()
        if watch.seen():
            return frame
    raise RomProblem(f"ROM image {name}: did not boot to a prompt within "
                     f"{limit_frames / hw.FRAME_HZ:.0f} s of emulated time")


def check_prints(machine: Spectrum48, name: str) -> None:
    """The known test of the entry points: CHAN-OPEN 2, then RST 10h prints AT 0,0 and a
    character, which must land in screen memory as the glyph at CHARS + 256. The machine's
    RAM and registers are put back afterwards."""
    saved = bytes(machine.memory[hw.ROM_BYTES:])
    try:
        machine.memory[hw.SCREEN_ADDR:hw.ATTR_ADDR] = bytes(hw.SCREEN_BITMAP_BYTES)
        machine.call(rom48.CHAN_OPEN, max_frames=5, a=rom48.STREAM_UPPER_SCREEN)
        for code in (22, 0, 0, ord(PROBE_CHAR)):
            machine.call(rom48.RST_PRINT_A, max_frames=5, a=code)
        font = machine.peek_word(rom48.CHARS) + 256
        glyph = bytes(machine.memory[font + 8 * (ord(PROBE_CHAR) - 32):][:8])
        cell = bytes(machine.memory[hw.SCREEN_ADDR + 256 * row] for row in range(8))
    except CallTimeout:
        raise RomProblem(f"ROM image {name}: RST 10h (or CHAN-OPEN 1601h) did not return; "
                         f"it does not keep the 48K's entry points") from None
    finally:
        machine.memory[hw.ROM_BYTES:] = saved
    if not any(cell) or cell not in (glyph, bytes(b ^ 0xFF for b in glyph)):
        raise RomProblem(f"ROM image {name}: RST 10h did not print {PROBE_CHAR!r} into screen "
                         f"memory; it does not keep the 48K's entry points")


def checked_machine(path: PathLike) -> Spectrum48:
    """A Spectrum48 with the ROM at `path`, booted to its prompt and checked (RomProblem if
    not); the machine is then reset so the window shows the ROM's own start-up."""
    name = os.fspath(path)
    image = read_rom_image(name)
    machine = Spectrum48(image)
    boot_to_prompt(machine, name)
    check_prints(machine, name)
    machine.reset()
    _CHOICES[machine] = RomChoice(name)
    return machine


class RomChoice:
    """What the machine was given: the ROM's file, and whether the program types LOAD ""."""

    def __init__(self, path: str, autoload: bool = False):
        self.path = path
        self.autoload = autoload


# The machines booted on another ROM, with what they were given; a machine not in here runs
# our own ROM. (spectrum/ knows no game, so the choice is kept here, not on the machine.)
_CHOICES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def rom_choice(machine: Spectrum48) -> RomChoice | None:
    """The other ROM `machine` was booted on by machine_for, or None for our own ROM."""
    return _CHOICES.get(machine)


def machine_for(rom_path: PathLike | None = None, autoload: bool = False,
                ask: Callable[[str], str] | None = None,
                out: TextIO | None = None) -> Spectrum48 | None:
    """The machine to play on: our own ROM (no path), or the one at rom_path once it passes
    the checks. When it does not, the message goes to `out` and `ask` (default: input) is
    asked whether to go on with our ROM; None if not."""
    if rom_path is None:
        return media.new_machine()
    try:
        machine = checked_machine(rom_path)
    except RomProblem as problem:
        say(f"Spectrum Backgammon: {problem}", out)
        ask = ask or input
        try:
            answer = ask("Go on with Spectrum Backgammon's own ROM? (Y/n) ")
        except (EOFError, OSError):            # no one to ask (no terminal)
            answer = "n"
        if answer.strip().lower() not in ("", "y", "yes"):
            return None
        return media.new_machine()
    _CHOICES[machine].autoload = autoload
    return machine


# ---------------------------------------------------------------- the loading sequence
def loading_sequence(machine: Spectrum48, mode: str = "fast",
                     tape: TapeFile | None = None) -> Frames:
    """Per-frame generator of the tape loading: our ROM's (spectrum/loader.py) unless the
    machine was built by machine_for with another ROM; then ForeignLoad's."""
    choice = rom_choice(machine)
    if choice is None:
        return media.loading_sequence(machine, mode, tape)
    return ForeignLoad(machine, mode, tape, autoload=choice.autoload).frames()


def load_headless(machine: Spectrum48, mode: str = "instant", tape: TapeFile | None = None,
                  max_frames: int = 10_000) -> TapeLoader | ForeignLoad:
    """The whole loading sequence without a window (tests, screenshots): our ROM's through
    spectrum/loader.py, another ROM's through ForeignLoad. Returns the loader, whose
    `state` is "done" when the game may start (and `error` says why not)."""
    if rom_choice(machine) is None:
        return media.load_headless(machine, mode, tape, max_frames=max_frames)
    load = ForeignLoad(machine, mode, tape, autoload=True)
    # a step, then its frame, to the end (or max_frames)
    for _ in zip(range(max_frames), load.frames(), strict=False):
        machine.run_frame()
    if load.state != "done":
        load.error = f"the load did not finish in {max_frames} frames"
    return load


class ForeignLoad:
    """LOAD "" on another 48K ROM, frame by frame: its start-up, LOAD "" typed (by the
    player, or key by key on the emulated keyboard with `autoload`), the tape playing from
    the moment the ROM's LD-BYTES first runs, then, once the tape has ended and the ROM
    waits at its prompt again (the loader program has run), the game takes the machine:
    the CPU rests in REST_LOOP after the machine code, IY on ERR-NR, interrupts on.
    Modes as spectrum/loader.py: "fast" (several frames a display frame), "real", "instant"
    (each LD-BYTES done at once by the standard-convention trap). A load that leaves the
    machine code missing (the ROM reports a tape loading error) rewinds the tape: state
    "error" until the next LOAD "" (autoload types it MAX_AUTOLOAD_TRIES times at most)."""

    def __init__(self, machine: Spectrum48, mode: str = "fast", tape: TapeFile | None = None,
                 autoload: bool = False) -> None:
        self.machine = machine
        self.mode = mode
        self.autoload = autoload
        blocks = read_tape(tape or media.TAPE_PATH).blocks
        self.player = TapePlayer(blocks)
        self.state = "loading"
        self.error: str | None = None
        self.typed: tuple[tuple[str, ...], ...] | None = None   # the keys typed for LOAD ""
        self.loads = 0                       # LD-BYTES calls seen
        self.rewinds = 0                     # loads that failed and were tried again
        self.rest_address = media.mcode_symbols()["MCODE_END"]
        self._traps: dict = {}

    # --- traps ---
    def _install(self) -> None:
        m = self.machine
        m.tape = self.player

        def on_ld_bytes(cpu: Z80) -> None:
            self.loads += 1
            if not self.player.resume(cpu.tstates):
                self.player.play()           # the player presses PLAY
            if self.mode == "instant":
                instant_ld_bytes(cpu, m.memory, self.player)
        self._traps[rom48.LD_BYTES] = on_ld_bytes
        sample = rom48.LD_SAMPLE
        if bytes(m.memory[sample:sample + len(LD_SAMPLE_SIGNATURE)]) == LD_SAMPLE_SIGNATURE:
            self._traps[sample] = EdgeSkipper(self.player, rom48.LD_SAMPLE_PASS_T,
                                              rom48.LD_SAMPLE_READ_T)
        m.cpu.traps.update(self._traps)

    def _remove(self) -> None:
        for address, trap in self._traps.items():
            if self.machine.cpu.traps.get(address) is trap:
                del self.machine.cpu.traps[address]
        self.machine.tape = None

    # --- frames ---
    def _extra_frames(self) -> None:
        """Fast mode, while the tape plays: more emulated frames in this display frame."""
        if self.mode != "fast" or not self.player.playing:
            return
        m = self.machine
        deadline = time.perf_counter() + FAST_BUDGET_S
        while self.player.playing and time.perf_counter() < deadline:
            m.run_frame()
        m.ear_frames.clear()

    def _type(self, keys: Iterable[Iterable[str]]) -> Frames:
        kb = self.machine.keyboard
        for combo in keys:
            kb.set_pressed(combo)
            for _ in range(KEY_DOWN_FRAMES):
                yield
            kb.release_all()
            for _ in range(KEY_UP_FRAMES):
                yield

    def _type_load(self) -> Frames:
        """LOAD "" as the ROM takes it: the keyword way first; if the edited line does not
        start with the LOAD token, rub it out and spell the keyword letter by letter."""
        yield from self._type(KEYWORD_TYPING)
        line = self.machine.peek_word(rom48.E_LINE)
        if self.machine.peek(line) == BASIC_TOKENS["LOAD"]:
            self.typed = KEYWORD_TYPING
        else:
            yield from self._type((DELETE_KEY,) * len(KEYWORD_TYPING))
            yield from self._type(LETTER_TYPING)
            self.typed = LETTER_TYPING
        yield from self._type((("ENTER",),))

    def frames(self) -> Frames:
        m = self.machine
        self._install()
        watch = PromptWatch(m)
        for _ in range(BOOT_LIMIT_FRAMES):       # the ROM's own start-up, as it shows
            yield
            if watch.seen():
                break
        while True:
            if self.autoload:
                yield from self._type_load()
            while not self.player.finished:     # the player types; the ROM loads
                yield
                self._extra_frames()
            watch = PromptWatch(m)
            for _ in range(AFTER_TAPE_LIMIT_FRAMES):  # the loader program runs to its end
                yield
                if watch.seen():
                    break
            if self.code_loaded():
                break
            # a loading error (the ROM has shown its report): rewind, as a player would
            self.state, self.error = "error", NOT_LOADED
            self.rewinds += 1
            self.player.stop()
            self.player.seek(0, m.cpu.tstates)
            if self.rewinds >= MAX_AUTOLOAD_TRIES:
                self.autoload = False            # over to the player
            elif self.autoload:
                for _ in range(REPORT_FRAMES):   # the ROM's report stays up a moment
                    yield
        self.state, self.error = "loading", None
        self._remove()
        self.take_machine()
        self.state = "done"

    def code_loaded(self) -> bool:
        """The tape's machine code block is in memory at its ORG."""
        code = media.load_mcode()
        start = media.mcode_symbols()["USR_ENTRY"]
        return bytes(self.machine.memory[start:start + len(code)]) == code

    def take_machine(self) -> None:
        """The game's machine from here: the CPU waits in REST_LOOP (after the machine code)
        with IY = ERR-NR and IM 1 on, so the ROM's interrupt still counts frames and keys."""
        m, cpu = self.machine, self.machine.cpu
        m.load(self.rest_address, REST_LOOP)
        cpu.pc = self.rest_address
        cpu.iy = rom48.ERR_NR
        cpu.im, cpu.iff1, cpu.iff2, cpu.halted = 1, 1, 1, False
        m.keyboard.release_all()
