"""The small interfaces the program talks through (typing.Protocol): the machine it runs on
(spectrum.machine.Spectrum48, or the tests' StandInMachine), the screen the scenes draw on
(game.board.screen.Screen), and the computer's choosers. Declarations only; no behaviour."""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Protocol, TypeVar, runtime_checkable

# What the program and its scenes are: a generator, one yield per 50 Hz frame, that ends with
# its answer (a key, a typed line, a result) as the return value.
Frames = Generator[None, None, Any]


@runtime_checkable
class Machine(Protocol):
    """What game/zx/basic.py and game/zx/usr.py need of a 48K: its 64 KiB, POKE/PEEK, a routine
    CALLed, USR, and a host handler run when USR reaches an address (the machine code's
    door): the handler's return value is what USR gives back (BC)."""
    memory: bytearray

    def peek(self, addr: int) -> int: ...

    def poke(self, addr: int, value: int) -> None: ...

    def call(self, addr: int, max_frames: int = 500, **registers: int) -> dict[str, int]: ...

    def usr(self, addr: int) -> int: ...

    def set_usr_trap(self, addr: int, handler: Callable[[], int]) -> None: ...


@runtime_checkable
class Screen(Protocol):
    """What the scenes draw with: the board, men, dice, cube and the message line."""
    cube: tuple[int, str | None] | None
    numbers: tuple[Any, ...]   # (bottom side's name, top side's, (their match score) or None)
    mem: Any                   # the machine's memory, the screen's bytes in it (a bytearray)

    @property
    def panel_attr(self) -> int: ...   # the board style's panel colours (read only)

    # the settings and board views are game.files.settings' and game.board.screen's types,
    # both above this module in the layers: Any here, their own types where they are made
    def apply_settings(self, settings: Any) -> None: ...

    def draw_board(self, view: Any = None) -> None: ...

    def show(self, view: Any) -> None: ...

    def draw_dice(self, top_face: int | None, bottom_face: int | None, top_black: bool,
                  bottom_black: bool) -> None: ...

    def draw_cube(self, value: int | None, owner: str | None = None) -> None: ...

    def clear_cube(self) -> None: ...

    def text(self, row: int, col: int, words: str, attr_byte: int) -> None: ...

    def message(self, words: str) -> None: ...


# What the computer's choosers answer, named where the model's types are known (a layer up):
# Chooser[rules.Play], CubePolicy[evaluator.CubeDecision | None]
Answer = TypeVar("Answer")
# (position with the mover on roll, dice, terms: the mover's MatchTerms) -> rules.Play
Chooser = Callable[..., Answer]
# (position with the doubler on roll, the Match, doubler) -> an evaluator.CubeDecision (double,
# take, too_good, ...), or None for no answer (no double, a take)
CubePolicy = Callable[..., Answer]
