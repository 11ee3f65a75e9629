"""Spectrum48: the 48K machine around the Z80 -- 64 KiB of memory (ROM write-protected),
the ULA and keyboard on port 0xFE, the 50 Hz frame with its interrupt, calls into ROM/RAM.
Not the CPU (z80.py), not the window (display.py), not the tape format (tape.py).

Memory: `machine.memory` is ONE bytearray of 65,536 bytes. The CPU works on it directly,
`machine.mem` is a numpy uint8 view of it (the ULA renders from that), and the C evaluator
can take `ffi.from_buffer("unsigned char[]", machine.memory)`. Never replace or resize it;
write through `poke`/`load` (or the CPU) so that writes below 0x4000 are ignored as on the real
machine.

Frames: `run_frame()` finishes the current frame: the maskable interrupt is offered while
the frame's first 32 T-states last (one instruction at a time, so an EI shadow does not
lose it), then whole instructions run until T-state 69,888, then the frame is closed:
`cpu.tstates -= 69888`, the ULA's logs roll over (`ula.frame_border`, `ula.frame_ear`,
`ula.frame_mic`, `ula.frame_screen_writes`: see ula.Ula), the beeper log is appended to
`ear_frames` (a deque the audio side drains, so the frames of a long BEEP inside call() are
heard too; while a tape plays, its signal as the CPU reads it is mixed in, as on the real
machine) and
`frame_count` goes up by one. A HALTed CPU is fast-forwarded to the frame's end by the
core, so an idle frame costs almost nothing.

The screen as the beam draws it: the CPU is built with contended=True and appends every
write to 0x4000-0x5AFF to `cpu.screen_writes` as (tstates, addr, old_byte), T-states from
the current frame's interrupt, before it stores the byte. At each frame's end the ULA takes
that list's contents (copied out, then emptied in place: the same list object stays the
CPU's) as `ula.frame_screen_writes`; writes at or past T 69,888 stay for the new frame with
69,888 taken off. `render()` draws that finished frame: each byte as the ULA fetched it,
with the writes made since the frame ended (what `cpu.screen_writes` holds at the call: an
overrun, or a call() run between frames) undone. A log that is empty draws memory as it is.

The tape hook (for spectrum/tape_player.py): set `machine.tape = player` (None = no tape).
The player needs exactly two methods:
  player.ear_at(tstates) -> 0 or 1
      the EAR input level at `tstates` T-states after the current frame's interrupt.
      Called only when the CPU reads an even port, with non-decreasing values within a
      frame; may be a little above 69,888 for an instruction that straddles the frame end.
  player.end_frame(frame_tstates) -> None
      called once at the end of every frame (frame_tstates = 69,888): move your clock on
      by that much, so that the next ear_at(t) means t T-states into the new frame.
With no tape, bit 6 of port 0xFE reads back the last EAR bit written (Issue 3 board).
"""
import collections
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from spectrum import hw
from spectrum.audio import Levels, mix_speaker
from spectrum.keyboard import KeyMatrix
from spectrum.ula import Ula
from spectrum.z80 import Z80, Trap

if TYPE_CHECKING:
    from spectrum.tape_player import TapePlayer

RomImage = bytes | bytearray | memoryview | str | os.PathLike[str]   # the image, or its path

# Registers saved around call(): everything a routine may change except R and MEMPTR.
_CONTEXT_REGISTERS = ("af", "bc", "de", "hl", "af_", "bc_", "de_", "hl_", "ix", "iy",
                      "sp", "pc", "i", "im", "iff1", "iff2", "halted")
# Registers reported to the caller when a call() returns.
_RESULT_REGISTERS = ("a", "f", "b", "c", "d", "e", "h", "l", "af", "bc", "de", "hl",
                     "af_", "bc_", "de_", "hl_", "ix", "iy", "sp", "i", "iff1", "iff2")
EAR_FRAMES_KEPT = 500         # 10 s of beeper logs waiting for the audio side
CALL_SENTINEL = 0xFFFF        # return address pushed by call(); checked together with SP
ERR_NR_ADDR = 0x5C3A          # 23610: BASIC keeps IY pointing here (docs/HARDWARE.md §10)


class RomImageError(ValueError):
    """The ROM image is missing, unreadable or not exactly 16,384 bytes."""


class CallTimeout(RuntimeError):
    """A call() did not return within the frames it was allowed."""


class _CallReturned(Exception):
    """Raised by the sentinel trap to end cpu.run() the moment a call()'s RET lands."""

    def __init__(self, sp: int) -> None:
        super().__init__(sp)
        self.sp = sp


def load_rom_image(rom: RomImage | None) -> bytes:
    """The 16,384-byte ROM image from bytes or a path (the caller's: the machine knows no
    default ROM)."""
    if rom is None:
        raise RomImageError("no ROM image given: pass a 16,384-byte image or its path")
    if isinstance(rom, (bytes, bytearray, memoryview)):
        data, name = bytes(rom), "given as bytes"
    else:
        path = os.fspath(rom)
        name = path
        try:
            with open(path, "rb") as f:
                data = f.read(hw.ROM_BYTES + 1)
        except FileNotFoundError:
            raise RomImageError(f"ROM image {path}: file not found") from None
        except OSError as exc:
            raise RomImageError(f"ROM image {path}: "
                                f"cannot be read ({exc.strerror or exc})") from None
    if len(data) != hw.ROM_BYTES:
        size = f"{len(data)} bytes" if len(data) <= hw.ROM_BYTES else "more than 16384 bytes"
        raise RomImageError(f"ROM image {name}: {size}; a 48K ROM image is exactly "
                            f"{hw.ROM_BYTES} bytes")
    return data


class Spectrum48:
    """A 48K ZX Spectrum: `Spectrum48(rom)` where rom is the ROM image as bytes or a path
    (the caller's; the game's is game/zx/media.py ROM_PATH)."""

    def __init__(self, rom: RomImage | None = None) -> None:
        self.memory = bytearray(hw.MEMORY_BYTES)
        self.mem = np.frombuffer(self.memory, dtype=np.uint8)    # a view, not a copy
        self.rom = load_rom_image(rom)
        self.memory[:hw.ROM_BYTES] = self.rom
        self.ula = Ula(self.memory)
        self.cpu = Z80(self.memory, port_in=self.ula.port_in, port_out=self.ula.port_out,
                       rom_top=hw.ROM_BYTES, contended=True)
        self.frame_count = 0            # frames completed since reset
        # (start_level, changes) of every finished frame's beeper, oldest first, for audio
        # to drain; frames that pass inside a call() (a BEEP in ROM) land here too
        self.ear_frames: collections.deque[Levels] = \
            collections.deque(maxlen=EAR_FRAMES_KEPT)
        # SP after the RET of each call() in progress, innermost last
        self._call_return_sps: list[int] = []
        self._on_sentinel: Trap | None = None
        self._install_sentinel_trap()
        self.reset()

    # --- the parts ---
    @property
    def keyboard(self) -> KeyMatrix:
        return self.ula.keyboard

    @property
    def tape(self) -> "TapePlayer | None":
        return self.ula.tape

    @tape.setter
    def tape(self, player: "TapePlayer | None") -> None:
        self.ula.tape = player

    @property
    def tstates(self) -> int:
        """T-states since the current frame's interrupt."""
        return self.cpu.tstates

    # --- memory ---
    def peek(self, addr: int) -> int:
        return self.memory[addr & 0xFFFF]

    def poke(self, addr: int, value: int) -> None:
        addr &= 0xFFFF
        if addr >= hw.ROM_BYTES:
            self.memory[addr] = value & 0xFF

    def peek_word(self, addr: int) -> int:
        return self.peek(addr) | self.peek(addr + 1) << 8

    def poke_word(self, addr: int, value: int) -> None:
        self.poke(addr, value & 0xFF)
        self.poke(addr + 1, (value >> 8) & 0xFF)

    def load(self, addr: int, data: bytes | bytearray) -> None:
        """Copy bytes into RAM at addr (the part that would fall in ROM is dropped)."""
        data = bytes(data)
        end = min(addr + len(data), hw.MEMORY_BYTES)
        start = max(addr, hw.ROM_BYTES)
        if start < end:
            self.memory[start:end] = data[start - addr:end - addr]

    # --- control ---
    def reset(self, clear_ram: bool = True) -> None:
        """Power-on state: PC = 0, interrupts off, IM 0, I = R = 0, at a frame's start."""
        if clear_ram:
            self.memory[hw.ROM_BYTES:] = bytes(hw.MEMORY_BYTES - hw.ROM_BYTES)
        cpu = self.cpu
        for name, value in (("af", 0xFFFF), ("sp", 0xFFFF), ("pc", 0), ("i", 0), ("r", 0),
                            ("im", 0), ("iff1", 0), ("iff2", 0), ("halted", False)):
            setattr(cpu, name, value)
        cpu.tstates = 0
        del cpu.screen_writes[:]            # emptied in place: the CPU keeps the same list
        self.ula.reset()
        self.ear_frames.clear()
        self.frame_count = 0

    def run_frame(self) -> None:
        """Run to the end of the current frame (a whole 69,888 T from a frame's start)."""
        self._interrupt_window()
        self.cpu.run(hw.TSTATES_PER_FRAME)
        self._end_frame()

    def render(self, out: np.ndarray | None = None) -> np.ndarray:
        """The frame just completed as a (240, 320, 3) RGB array, as the beam drew it: each
        screen byte as the ULA fetched it (see ula.screen_as_fetched); screen writes made
        since that frame ended do not show until the next frame."""
        return self.ula.render(self.mem, max(self.frame_count - 1, 0), out,
                               self.cpu.screen_writes)

    def call(self, addr: int, max_frames: int = 500, **registers: int) -> dict[str, int]:
        """Run the routine at addr until it returns, like a CALL from the interrupted
        program; frames go on meanwhile (the interrupt is still offered every 69,888 T).
        Keyword arguments set registers first (e.g. a=65, hl=0x4000). Returns the
        registers at the return as a dict; then the interrupted context (all registers,
        interrupt state, HALT) is put back, so the machine carries on as before.

        How it stops: CALL_SENTINEL is pushed as the return address; a permanent trap there
        raises when SP shows that this call's RET has just popped it, which ends cpu.run()
        before the instruction at the sentinel runs."""
        cpu = self.cpu
        if cpu.traps.get(CALL_SENTINEL) is not self._on_sentinel:
            self._install_sentinel_trap()
        # the CPU's registers by the names the table lists
        saved = {name: getattr(cpu, name) for name in _CONTEXT_REGISTERS}
        cpu.halted = False
        for name, value in registers.items():
            setattr(cpu, name, value)
        sp = (cpu.sp - 2) & 0xFFFF
        self.poke_word(sp, CALL_SENTINEL)
        cpu.sp = sp
        return_sp = (sp + 2) & 0xFFFF
        cpu.pc = addr & 0xFFFF
        frame_tstates = hw.TSTATES_PER_FRAME
        frames_left = max_frames
        self._call_return_sps.append(return_sp)
        try:
            while not (cpu.pc == CALL_SENTINEL and cpu.sp == return_sp):
                try:
                    if cpu.tstates >= frame_tstates:
                        self._end_frame()
                        frames_left -= 1
                        if frames_left < 0:
                            for name, value in saved.items():
                                setattr(cpu, name, value)
                            raise CallTimeout(
                                f"call({addr:#06x}) did not return within {max_frames} frames")
                        self._interrupt_window()
                    else:
                        cpu.run(frame_tstates)
                except _CallReturned as returned:
                    if returned.sp == return_sp:
                        break
                    raise
        finally:
            self._call_return_sps.pop()
        result = {name: getattr(cpu, name) for name in _RESULT_REGISTERS}  # registers by name
        for name, value in saved.items():
            setattr(cpu, name, value)
        return result

    def _install_sentinel_trap(self) -> None:
        previous = self.cpu.traps.get(CALL_SENTINEL)
        return_sps = self._call_return_sps

        def on_sentinel(cpu: Z80) -> None:
            if return_sps and cpu.sp == return_sps[-1]:
                raise _CallReturned(cpu.sp)
            if previous is not None:
                previous(cpu)
        self._on_sentinel = on_sentinel
        self.cpu.traps[CALL_SENTINEL] = on_sentinel

    def set_usr_trap(self, addr: int, handler: Callable[[], int]) -> None:
        """A host routine at `addr` (a machine-code door): when the CPU reaches it,
        handler() runs and BC takes its value, so the stub's RET returns that to USR."""
        def on_trap(cpu: Z80) -> None:
            cpu.bc = handler() & 0xFFFF
        self.cpu.traps[addr] = on_trap

    def usr(self, addr: int, max_frames: int = 500) -> int:
        """BASIC's USR addr: enter with BC = addr (and IY = ERR-NR as BASIC keeps it);
        the value is BC at the return."""
        return self.call(addr, max_frames=max_frames, bc=addr & 0xFFFF, iy=ERR_NR_ADDR)["bc"]

    # --- the frame machinery ---
    def _interrupt_window(self) -> None:
        """Offer /INT while it is held (the first 32 T): stepping one instruction at a time
        lets an EI (or DI ... EI) near the frame start still catch it."""
        cpu = self.cpu
        while cpu.tstates < hw.INT_LENGTH_TSTATES:
            if cpu.interrupt(0xFF):
                return
            if not cpu.step():
                return

    def _end_frame(self) -> None:
        self.cpu.tstates -= hw.TSTATES_PER_FRAME
        ula = self.ula
        ula.end_frame(hw.TSTATES_PER_FRAME, self.cpu.screen_writes)
        self.ear_frames.append(mix_speaker(ula.frame_ear, ula.frame_tape) if ula.frame_tape[1]
                               else ula.frame_ear)
        self.frame_count += 1
