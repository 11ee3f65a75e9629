"""The small interfaces the program talks through (typing.Protocol): the machine it runs on
(spectrum.machine.Spectrum48, or the tests' StandInMachine), the screen the scenes draw on
(game.board.screen.Screen), and the computer's choosers. Declarations only; no behaviour."""
from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable


@runtime_checkable
class Machine(Protocol):
    """What game/zx/basic.py and game/zx/usr.py need of a 48K: its 64 KiB, POKE/PEEK, a routine
    CALLed, USR, and a host handler run when USR reaches an address (the machine code's
    door): the handler's return value is what USR gives back (BC)."""
    memory: bytearray

    def peek(self, addr: int) -> int: ...

    def poke(self, addr: int, value: int) -> None: ...

    def call(self, addr: int, max_frames: int = 500, **registers) -> dict: ...

    def usr(self, addr: int) -> int: ...

    def set_usr_trap(self, addr: int, handler: Callable[[], int]) -> None: ...


@runtime_checkable
class Screen(Protocol):
    """What the scenes draw with: the board, men, dice, cube and the message line."""
    cube: tuple | None
    panel_attr: int

    def apply_settings(self, settings) -> None: ...

    def draw_board(self, view=None) -> None: ...

    def show(self, view) -> None: ...

    def draw_dice(self, top_face, bottom_face, top_black: bool, bottom_black: bool) -> None: ...

    def draw_cube(self, value: int | None, owner=None) -> None: ...

    def clear_cube(self) -> None: ...

    def text(self, row: int, col: int, words: str, attr_byte: int) -> None: ...

    def message(self, words: str) -> None: ...


# (position with the mover on roll, dice, match context or None) -> rules.Play
Chooser = Callable[..., object]
# (position with the doubler on roll, match, doubler) -> an evaluator.CubeDecision (double,
# take, too_good, ...), or None for no answer (no double, a take)
CubePolicy = Callable[..., object]
