"""The tape-loading sequence as a per-frame driver: LOAD "" through our ROM's LOAD_FILE and
edge-timing LD_BYTES, then the loaded BASIC loader's few statements (LOAD "" SCREEN$, PRINT,
LOAD "" CODE ...). Not the tape format (tape.py) and not the window (display.py).

Use: `gen = loading_sequence(machine, mode)`; call next(gen) before each frame the window
runs (it yields once per frame) until StopIteration. Modes: "fast" (the real pulse stream
through the Z80 loader, as many frames as fit in a display frame), "real" (one emulated
frame per displayed frame: 1983 speed), "instant" (the LD_BYTES trap). Any key skips to
the end (the rest loads through the trap). `load_headless(machine, mode)` runs it all
without a window, for tests and screenshots.

Speed: while LD_EDGE waits for an edge, a trap at its loop moves B and the T-state count on
by the whole loop passes that cannot see an edge (63 T each): the same result as running
them, and the border still changes at the right T-states, so the stripes are exact."""
import os
import time
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any

from spectrum import hw
from spectrum.quoting import quoted
from spectrum.tape import read_tape
from spectrum.tape_blocks import Block, Tape
from spectrum.tape_modes import TAPE_MODES
from spectrum.tape_player import TapePlayer
from spectrum.tape_trap import instant_ld_bytes

if TYPE_CHECKING:
    from spectrum.machine import Spectrum48
    from spectrum.z80 import Z80

Frames = Generator[None, None, None]     # one yield a frame
TapeSource = Tape | list[Block] | tuple[Block, ...] | str | os.PathLike[str] | bytes  # or its file
# a BASIC item: ('kw', NAME), ('num', int), ('str', text) or ('chr', one character)
Item = tuple[str, Any]

FAST_BUDGET_S = 0.018             # wall time a fast-mode display frame may spend emulating
MAX_CALL_FRAMES = 20_000          # a routine out this long (~6.7 min) with the tape still: hung
TYPED_COMMAND_FRAMES = 25         # how long LOAD "" stays on the screen before ENTER (0.5 s)

# The BASIC keywords our loader programs use, with their Spectrum token codes.
BASIC_TOKENS = {
    "SCREEN$": 0xAA, "AT": 0xAC, "CODE": 0xAF, "USR": 0xC0, "INK": 0xD9, "PAPER": 0xDA,
    "FLASH": 0xDB, "BRIGHT": 0xDC, "BORDER": 0xE7, "REM": 0xEA, "LOAD": 0xEF, "POKE": 0xF4,
    "PRINT": 0xF5, "RANDOMIZE": 0xF9, "CLS": 0xFB, "CLEAR": 0xFD,
}
TOKEN_NAMES = {code: name for name, code in BASIC_TOKENS.items()}
NUMBER_MARK = 0x0E                # a number's 5-byte hidden form follows its digits
LOADING_ERROR = "R Tape loading error"
RETRY_PROMPT = "Press a key to try again"


class LoaderError(RuntimeError):
    """The loaded BASIC program asks for something this loader cannot do."""


# ---------------------------------------------------------------- BASIC lines
def encode_number(value: int) -> bytes:
    """Digits as typed, then the hidden small-integer form (0E 00 00 lo hi 00)."""
    return str(value).encode() + bytes([NUMBER_MARK, 0, 0, value & 0xFF, value >> 8 & 0xFF, 0])


def encode_line(number: int, items: Sequence[str | int]) -> bytes:
    """One BASIC line: items are keywords (BASIC_TOKENS), ints (numbers) or literal text."""
    body = bytearray()
    for item in items:
        if isinstance(item, int):
            body += encode_number(item)
        elif item in BASIC_TOKENS:
            body.append(BASIC_TOKENS[item])
        else:
            body += item.encode("ascii")
    body.append(0x0D)
    return number.to_bytes(2, "big") + len(body).to_bytes(2, "little") + bytes(body)


def decode_program(program: bytes) -> list[tuple[int, list[list[Item]]]]:
    """[(line number, [statements])], a statement being a list of items: ('kw', NAME),
    ('num', value), ('str', text) or ('chr', c)."""
    lines: list[tuple[int, list[list[Item]]]] = []
    pos = 0
    while pos + 4 <= len(program):
        number = program[pos] << 8 | program[pos + 1]
        length = program[pos + 2] | program[pos + 3] << 8
        body = program[pos + 4:pos + 4 + length]
        pos += 4 + length
        statements: list[list[Item]] = []
        items: list[Item] = []
        i = 0
        while i < len(body) and body[i] != 0x0D:
            c = body[i]
            if c in TOKEN_NAMES:
                items.append(("kw", TOKEN_NAMES[c]))
                i += 1
                if TOKEN_NAMES[c] == "REM":
                    break
            elif c == ord('"'):
                end = body.index(b'"', i + 1)
                items.append(("str", body[i + 1:end].decode("latin-1")))
                i = end + 1
            elif chr(c).isdigit():
                mark = body.index(bytes([NUMBER_MARK]), i)
                hidden = body[mark + 1:mark + 6]
                value = (hidden[2] | hidden[3] << 8) if hidden[0] == 0 else int(body[i:mark])
                items.append(("num", value))
                i = mark + 6
            elif c == ord(":"):
                statements.append(items)
                items, i = [], i + 1
            elif c == ord(" "):
                i += 1
            else:
                items.append(("chr", chr(c)))
                i += 1
        statements.append(items)
        lines.append((number, statements))
    return lines


# ---------------------------------------------------------------- the driver
class EdgeSkipper:
    """A trap for LD_EDGE's loop head (ROM symbol le_loop): jumps over the 63-T passes
    whose EAR sample (26 T into a pass) would come before the next unseen edge, moving B
    and the T-states on as those passes would, never letting B run past 255. Another
    loader's INC B sampling loop: give its pass and sample T-states."""

    def __init__(self, player: TapePlayer, pass_tstates: int = 63, sample_tstates: int = 26):
        self.player = player
        self.pass_tstates, self.sample_tstates = pass_tstates, sample_tstates

    def __call__(self, cpu: "Z80") -> None:
        room = 255 - cpu.b
        if room <= 1:
            return
        to_edge = self.player.next_edge_tstates(cpu.tstates)
        step = self.pass_tstates
        passes = room if to_edge is None else min(room, (to_edge - self.sample_tstates - 1) // step)
        if passes > 1:
            passes -= 1
            cpu.b += passes
            cpu.tstates += step * passes


def install_tape(machine: "Spectrum48", player: TapePlayer, sym: dict[str, int],
                 instant: bool = False) -> None:
    """Put a tape in the machine with the edge skipper on LD_EDGE, and on LD_BYTES either
    (instant) the trap that loads at once or one that plays on a tape stopped by a TZX
    "stop the tape" block. For tests and tools that call LD_BYTES themselves. `sym`: the
    ROM's symbols (LD_BYTES, le_loop)."""
    machine.tape = player
    machine.cpu.traps[sym["le_loop"]] = EdgeSkipper(player)
    if instant:
        machine.cpu.traps[sym["LD_BYTES"]] = lambda cpu: instant_ld_bytes(
            cpu, machine.memory, player)
    else:                                   # a tape that stopped itself plays on for a load
        machine.cpu.traps[sym["LD_BYTES"]] = lambda cpu: player.resume(cpu.tstates)


class TapeLoader:
    """One loading sequence on one machine. `state` is "loading", "error" (waiting for a key
    to retry) or "done"; `headers` lists the "Program: NAME" lines the ROM printed."""

    def __init__(self, machine: "Spectrum48", tape: TapeSource | None, mode: str,
                 sym: dict[str, int]) -> None:
        if mode not in TAPE_MODES:
            raise ValueError(f"tape mode {quoted(mode)}: choose one of {', '.join(TAPE_MODES)}")
        if tape is None:
            raise ValueError("no tape given: a path, a Tape or a list of blocks")
        if isinstance(tape, Tape):
            blocks = tape.blocks
        elif isinstance(tape, (list, tuple)):
            blocks = list(tape)
        else:
            blocks = read_tape(tape).blocks
        self.machine = machine
        self.mode = mode
        self.instant = mode == "instant"
        self.player = TapePlayer(blocks)
        self.sym = sym                  # the ROM's entry points and system variables
        self.state = "loading"
        self.error: str | None = None
        self.headers: list[str] = []
        self.usr_address = None
        self.skipped = False
        self._first_frame = machine.frame_count
        self._ld_entry: tuple | None = None
        machine.tape = self.player
        cpu = machine.cpu
        cpu.traps[self.sym["LD_BYTES"]] = self._on_ld_bytes
        cpu.traps[self.sym["le_loop"]] = EdgeSkipper(self.player)

    @property
    def frames_run(self) -> int:
        """Emulated frames since this loader started."""
        return self.machine.frame_count - self._first_frame

    # --- traps ---
    def _on_ld_bytes(self, cpu: "Z80") -> None:
        self._ld_entry = (cpu.sp, cpu.ix, cpu.de, cpu.a)
        self.player.resume(cpu.tstates)         # "stop the tape" blocks: play on for a load
        if self.instant:
            instant_ld_bytes(cpu, self.machine.memory, self.player)

    def remove_traps(self) -> None:
        traps = self.machine.cpu.traps
        for name in ("LD_BYTES", "le_loop"):
            traps.pop(self.sym[name], None)

    # --- the per-frame generator ---
    def frames(self) -> Frames:
        m, sym = self.machine, self.sym
        while not self._at_idle():             # the ROM's reset
            yield
        if not self.instant:                   # LOAD "" typed, then ENTER
            m.call(sym["CL_LINE"], a=23, e=m.peek(sym["BORDCR"]))
            self._print_at(23, 0, 'LOAD ""', attr=m.peek(sym["BORDCR"]))
            for _ in range(TYPED_COMMAND_FRAMES):
                yield
        m.call(sym["CLS"])
        self.player.play()
        try:
            yield from self._load(0, 0)
        except LoaderError as exc:
            self.state, self.error = "error", str(exc)
            return
        header = bytes(m.memory[sym["HDR_BUF"]:sym["HDR_BUF"] + 17])
        prog = m.peek_word(sym["PROG"])
        program = bytes(m.memory[prog:prog + (header[15] | header[16] << 8)])
        autostart = header[13] | header[14] << 8
        try:
            yield from self._run_basic(program, autostart)
        except (LoaderError, ValueError, IndexError) as exc:
            self.state, self.error = "error", f"the loader program: {exc}"
            return
        while any(row != 0x1F for row in m.keyboard.rows):   # a skip key still held
            yield
        self.remove_traps()
        self.player.stop()
        m.tape = None                         # the tape is out: EAR in follows EAR out again
        self.state = "done"

    def skip(self) -> None:
        """Finish the load at once: the rest goes through the LD_BYTES trap."""
        self.instant = self.skipped = True
        cpu, sym = self.machine.cpu, self.sym
        if self._ld_entry and sym["LD_EDGE"] <= cpu.pc < sym["LD_BYTES_END"]:
            cpu.sp, cpu.ix, cpu.de, cpu.a = self._ld_entry
            cpu.pc = sym["LD_BYTES"]
            cpu.halted = False

    # --- helpers ---
    def _at_idle(self) -> bool:
        pc = self.machine.cpu.pc
        return self.sym["IDLE"] <= pc < self.sym["IDLE_END"]

    def _start(self, name: str, **registers: int) -> None:
        cpu, m = self.machine.cpu, self.machine
        cpu.halted = False
        for reg, value in registers.items():
            setattr(cpu, reg, value)
        cpu.sp = (cpu.sp - 2) & 0xFFFF
        m.poke_word(cpu.sp, self.sym["IDLE"])
        cpu.pc = self.sym[name]

    def _any_key(self) -> bool:
        return any(row != 0x1F for row in self.machine.keyboard.rows)

    def _wait_return(self) -> Frames:
        """Yield frames until the routine started by _start is back at IDLE. However long
        the tape plays (minutes of pauses before a file), the wait goes on, as LD_BYTES
        waits on a real 48K; only a routine still out after MAX_CALL_FRAMES frames of a
        tape standing still is a LoaderError."""
        stalled = 0
        while stalled < MAX_CALL_FRAMES:
            if self._at_idle():
                return
            if not self.instant and self._any_key():
                self.skip()
            self._play_on_if_waiting()
            self._end_if_tape_ran_out()
            moving = self.player.playing and not self.player.finished
            stalled = 0 if moving else stalled + 1
            yield
            if self.mode == "fast" and not self.instant:
                deadline = time.perf_counter() + FAST_BUDGET_S
                while not self._at_idle() and time.perf_counter() < deadline:
                    self.machine.run_frame()
                self.machine.ear_frames.clear()
        raise LoaderError(f"a tape routine did not return in {MAX_CALL_FRAMES} frames")

    def _play_on_if_waiting(self) -> None:
        """A tape that stopped itself ("stop the tape": 20h with no pause, 2Ah on a 48K)
        while LD_BYTES is already waiting for it is played on, as a person presses play
        when the loader waits (the LD_BYTES trap only sees a stop made before the call)."""
        cpu, sym = self.machine.cpu, self.sym
        if self.player.stopped_by_tape and self._ld_entry is not None \
                and sym["LD_EDGE"] <= cpu.pc < sym["LD_BYTES_END"]:
            self.player.resume(cpu.tstates)

    TAPE_OUT_FRAMES = 50          # LD_BYTES still waiting a second after the tape's end
    _tape_out_frame = None        # the frame it was first seen waiting there

    def _end_if_tape_ran_out(self) -> None:
        """LD_BYTES waits for ever on a tape that has played to its end (ld_search), as a
        real Spectrum does; a second after the end, end the call the way the instant trap
        does (A = 3, the tape ran out: LOAD_FILE shows "R Tape loading error")."""
        m, cpu, sym = self.machine, self.machine.cpu, self.sym
        if (self.instant or self._ld_entry is None or not self.player.finished
                or not sym["LD_EDGE"] <= cpu.pc < sym["LD_BYTES_END"]):
            self._tape_out_frame = None
        elif self._tape_out_frame is None:
            self._tape_out_frame = m.frame_count
        elif m.frame_count - self._tape_out_frame >= self.TAPE_OUT_FRAMES:
            self._tape_out_frame = None
            cpu.sp, cpu.ix, cpu.de, cpu.a = self._ld_entry
            cpu.halted = False
            instant_ld_bytes(cpu, m.memory, self.player)

    def _load(self, file_type: int, dest: int) -> Frames:
        """LOAD_FILE until it succeeds; a failure shows the report and waits for a key."""
        m, sym = self.machine, self.sym
        while True:
            start_block = self.player.block_index_at(m.cpu.tstates)
            col, line = 33 - m.peek(sym["S_POSN"]), 24 - m.peek(sym["S_POSN"] + 1)
            self._start("LOAD_FILE", a=file_type, hl=dest)
            yield from self._wait_return()
            if m.peek(sym["ERR_NR"]) == sym["ERR_OK"]:
                name = bytes(m.memory[sym["HDR_BUF"] + 1:sym["HDR_BUF"] + 11]).decode("latin-1")
                self.headers.append(name.rstrip())
                return
            self.state = "error"
            self.error = LOADING_ERROR if m.peek(sym["ERR_NR"]) == sym["ERR_TAPE"] else "BREAK"
            self._print_at(22, 0, RETRY_PROMPT, attr=m.peek(sym["BORDCR"]))
            m.poke(sym["FLAGS"], m.peek(sym["FLAGS"]) & ~0x20)
            while self._any_key():              # let go of whatever was held
                yield
            while not m.peek(sym["FLAGS"]) & 0x20:
                yield
            m.poke(sym["FLAGS"], m.peek(sym["FLAGS"]) & ~0x20)
            while self._any_key():              # the retry key is not a skip key
                yield
            self.state, self.error = "loading", None
            m.call(sym["CLS_LOWER"])
            m.call(sym["POS_SET"], b=line, c=col)
            self.player.seek_block(start_block, m.cpu.tstates)
            self.player.play()

    def _print_at(self, line: int, column: int, text: str, attr: int | None = None) -> None:
        m, sym = self.machine, self.sym
        m.call(sym["TEMPS"])
        if attr is not None:
            m.poke(sym["ATTR_T"], attr)
        self._print_bytes(bytes([22, line, column]) + text.encode("latin-1"))

    def _print_bytes(self, data: bytes) -> None:
        m, sym = self.machine, self.sym
        m.load(sym["HOST_BUF"], data)
        m.call(sym["PR_STRING"], hl=sym["HOST_BUF"], bc=len(data))

    # --- the BASIC loader program ---
    def _run_basic(self, program: bytes, autostart: int) -> Frames:
        m, sym = self.machine, self.sym
        for number, statements in decode_program(program):
            if autostart < 32768 and number < autostart:
                continue
            for items in statements:
                if not items:
                    continue
                kind, word = items[0]
                args = items[1:]
                nums = [v for k, v in args if k == "num"]
                if kind != "kw":
                    raise LoaderError(f"line {number}: cannot run {quoted(items)}")
                if word == "REM":
                    break
                if word == "BORDER":
                    m.call(sym["BORDER"], a=nums[0])
                elif word in ("PAPER", "INK", "BRIGHT", "FLASH"):
                    self._set_colour(word, nums[0])
                elif word == "CLEAR":
                    m.poke_word(sym["RAMTOP"], nums[0])
                elif word == "CLS":
                    m.call(sym["CLS"])
                elif word == "POKE":
                    m.poke(nums[0], nums[1])
                elif word == "LOAD":
                    words = [v for k, v in args if k == "kw"]
                    if "SCREEN$" in words:
                        file_type, dest = 3, hw.SCREEN_ADDR
                    elif "CODE" in words:
                        file_type, dest = 3, (nums[0] if nums else 0)
                    else:
                        raise LoaderError(f"line {number}: LOAD of a program from a program")
                    m.call(sym["CLS_LOWER"])
                    yield from self._load(file_type, dest)
                elif word == "PRINT":
                    self._print_items(args)
                elif word == "RANDOMIZE" and args and args[0] == ("kw", "USR"):
                    self.usr_address = nums[0]
                else:
                    raise LoaderError(f"line {number}: {word} is not one this loader runs")
                yield

    def _set_colour(self, word: str, value: int) -> None:
        m, sym = self.machine, self.sym
        shift, mask = {"INK": (0, 0x07), "PAPER": (3, 0x38), "BRIGHT": (6, 0x40),
                       "FLASH": (7, 0x80)}[word]
        attr = m.peek(sym["ATTR_P"])
        m.poke(sym["ATTR_P"], (attr & ~mask) | ((value << shift) & mask))
        m.call(sym["TEMPS"])

    def _print_items(self, args: list[Item]) -> None:
        m, sym = self.machine, self.sym
        out, i, lower, newline = bytearray(), 0, False, True
        if args[:2] == [("chr", "#"), ("num", 0)]:
            lower, args = True, args[2:]
        m.call(sym["TEMPS"])
        if lower:
            m.call(sym["CLS_LOWER"])
        while i < len(args):
            kind, value = args[i]
            newline = True
            if (kind, value) == ("kw", "AT"):
                line, column = args[i + 1][1], args[i + 3][1]
                out += bytes([22, line + (22 if lower else 0), column])
                i += 4
                continue
            if kind == "str":
                out += value.encode("latin-1")
            elif kind == "num":
                out += str(value).encode()
            elif (kind, value) == ("chr", ";"):
                newline = False
            i += 1
        if newline:
            out.append(13)
        self._print_bytes(bytes(out))


def loading_sequence(machine: "Spectrum48", mode: str, tape: TapeSource,
                     sym: dict[str, int]) -> Frames:
    """The per-frame generator for the window loop (see the module docstring). `tape`: a
    path, a Tape or blocks; `sym`: the ROM's symbols. Both are the caller's."""
    return TapeLoader(machine, tape, mode, sym).frames()


def load_headless(machine: "Spectrum48", mode: str, tape: TapeSource, sym: dict[str, int],
                  max_frames: int = 10_000,
                  on_frame: Callable[[TapeLoader], Any] | None = None) -> TapeLoader:
    """Run the whole sequence without a window: next() then one frame, as the window does.
    on_frame(loader) (optional) is called after each frame (screenshots, key presses)."""
    loader = TapeLoader(machine, tape, mode, sym)
    frames = loader.frames()
    for _ in range(max_frames):
        try:
            next(frames)
        except StopIteration:
            break
        machine.run_frame()
        if on_frame is not None:
            on_frame(loader)
        if loader.state == "error" and on_frame is None:
            break
    return loader
