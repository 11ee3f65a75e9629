"""The rules as the game asks for them: legal plays of a roll, the typed-step check behind
"Your move?", game results and pips. Every answer comes from the C engine (bg.h rules
section); this module converts and words errors, it does not re-implement a rule."""
from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NoReturn, TypeVar, overload

from game.errors import DiceError, IllegalMoveError, PositionError
from game.model.position import (
    BAR,
    BOARD_LEN,
    POSITION_CODES,
    Position,
    parse_entry,
    position_message,
)
from native import CData, ffi, lib

Made = TypeVar("Made")    # what a per_thread function gives each thread
Item = TypeVar("Item")    # a LazySequence's items
OFF = -1                      # a step's `to` when the man is borne off
SINGLE, GAMMON, BACKGAMMON = 1, 2, 3


class StepCode(enum.IntEnum):
    """The engine's answer to one typed step (bg.h BG_STEP_*): OK, or why it is refused. The
    game reaches the codes through this name, never through native/ directly."""
    OK = lib.BG_STEP_OK
    NO_SUCH_DIE = lib.BG_STEP_NO_SUCH_DIE
    BAR_FIRST = lib.BG_STEP_BAR_FIRST
    NO_MAN = lib.BG_STEP_NO_MAN
    BLOCKED = lib.BG_STEP_BLOCKED
    NOT_ALL_HOME = lib.BG_STEP_NOT_ALL_HOME
    MAN_HIGHER = lib.BG_STEP_MAN_HIGHER
    WASTES_DICE = lib.BG_STEP_WASTES_DICE
    HIGHER_DIE = lib.BG_STEP_HIGHER_DIE
    TURN_OVER = lib.BG_STEP_TURN_OVER
    BAD_INPUT = lib.BG_STEP_BAD_INPUT


@dataclass(frozen=True)
class Step:
    """One man moved by one die, in the mover's row indices (0..23, 24 = bar; to -1 = off)."""
    from_index: int
    to_index: int
    die: int
    hit: bool

    def notation(self, mover_is_human: bool = True) -> str:
        """The step as the 1983 program writes it: point letter and die, e.g. "M4", "Z3"."""
        return Position.letter_of_index(self.from_index, mover_is_human).upper() + str(self.die)


@dataclass(frozen=True)
class Play:
    """A complete legal play: the position after it (mover still on roll) and one way of
    making it. Other orders of the same steps may also be legal; Turn accepts them all."""
    after: Position
    steps: tuple[Step, ...]

    @property
    def dice_used(self) -> tuple[int, ...]:
        return tuple(step.die for step in self.steps)

    def notation(self, mover_is_human: bool = True) -> str:
        """The steps in 1983 notation separated by spaces ("M4 I2"); "" for a forfeited turn."""
        return " ".join(step.notation(mover_is_human) for step in self.steps)


STEP_BYTES = lib.BG_MAX_STEPS * lib.BG_STEP_FIELDS    # the steps of one play, as C writes them


def signed_byte(value: int) -> int:
    """A byte the engine wrote as int8_t (a step's `to`, a depth), read back as a number."""
    return value - 256 if value > 127 else value


def steps_from(raw: bytes | bytearray | CData, at: int, count: int) -> tuple[Step, ...]:
    """`count` steps as the engine writes them from raw[at] on (bg.h: BG_STEP_FIELDS bytes a
    step, from, to as a signed byte, die, hit): an engine buffer's bytes or the USR block."""
    return tuple(Step(raw[k], signed_byte(raw[k + 1]), raw[k + 2], bool(raw[k + 3]))
                 for k in range(at, at + count * lib.BG_STEP_FIELDS, lib.BG_STEP_FIELDS))


class PlayBuffers:
    """Output arrays for the calls that write plays (bg_legal_plays, the rankings; the C side
    writes, Python reads), one set per thread (_mine), so that threads never write into one
    another's; game/model/evaluator.py's add the rankings' own."""
    __slots__ = ("boards", "steps", "nsteps", "board", "ids", "text")

    def __init__(self) -> None:
        self.boards = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_BOARD_LEN)
        self.steps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * STEP_BYTES)
        self.nsteps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS)
        self.board = ffi.new("int8_t[]", lib.BG_BOARD_LEN)
        self.ids = ffi.new("char[]", lib.BG_MAX_PLAYS * (lib.BG_ID_LEN + 1))
        self.text = ffi.new("const char **")       # bg_legal_result_text's answer


def per_thread(make: Callable[[], Made]) -> Callable[[], Made]:
    """A function giving the calling thread its own make(), made at its first call: one look
    into the thread's storage a call, after which the object's attributes are plain ones (the
    output buffers of the C calls here and in game/model/evaluator.py)."""
    local = threading.local()

    def mine() -> Made:
        try:
            return local.value
        except AttributeError:
            local.value = make()
            return local.value
    return mine


_mine = per_thread(PlayBuffers)


# legal_results' fast path, looked up once
_ID_LEN = lib.BG_ID_LEN
_result_text, _string = lib.bg_legal_result_text, ffi.string


def c_board(position: Position | str) -> CData:
    """The board of a Position or of a gnubg position ID as a C int8_t[50]. An ID is read in
    C (into a buffer reused by this thread's next call); one C refuses goes through
    Position.from_id, which words the reason (PositionIdError)."""
    if isinstance(position, Position):
        return position.as_c()
    if isinstance(position, str) and len(position) == lib.BG_ID_LEN:
        board = _mine().board
        if lib.bg_board_from_id(position.encode("ascii", "replace"), board) == 0:
            return board
    return Position.from_id(position).as_c()


class LazySequence(Sequence[Item]):
    """A read-only sequence whose items are made only when asked for (`_item(i)`), as the
    engine's answers are; it compares equal to a list of the same items."""

    __slots__ = ()

    def _item(self, i: int) -> Item:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> Item: ...

    @overload
    def __getitem__(self, index: slice) -> list[Item]: ...

    def __getitem__(self, index: int | slice) -> Item | list[Item]:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(len(self)))]
        i = index.__index__()
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"{type(self).__name__} index out of range")
        return self._item(i)

    def __iter__(self) -> Iterator[Item]:
        return (self._item(i) for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LazySequence, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None     # type: ignore[assignment]  # equal to lists, so never a dict key

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class Plays(LazySequence[Play]):
    """The plays of one roll as legal_plays returns them: Play objects made from the engine's
    bytes only when asked for (no Python object per play otherwise)."""

    __slots__ = ("_count", "_boards", "_steps", "_nsteps")

    def __init__(self, count: int, boards: bytes, steps: bytes, nsteps: bytes):
        self._count, self._boards, self._steps, self._nsteps = count, boards, steps, nsteps

    @classmethod
    def from_buffers(cls, count: int, out: PlayBuffers) -> Plays:
        """The first `count` plays a C call wrote into `out`, copied out of it."""
        return cls(count, ffi.buffer(out.boards, count * BOARD_LEN)[:],
                   ffi.buffer(out.steps, count * STEP_BYTES)[:], ffi.buffer(out.nsteps, count)[:])

    def __len__(self) -> int:
        return self._count

    def _item(self, i: int) -> Play:
        after = Position.from_engine(tuple(self._boards[i * BOARD_LEN:(i + 1) * BOARD_LEN]))
        return Play(after, steps_from(self._steps, i * STEP_BYTES, self._nsteps[i]))


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Two dice of 1..6 as a tuple, or DiceError."""
    try:
        die1, die2 = dice
    except (TypeError, ValueError):
        raise DiceError("a roll is two dice") from None
    for die in (die1, die2):
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise DiceError(f"a die shows 1 to 6, not {die!r}")
    return die1, die2


def _raise_for(code: int) -> NoReturn:
    if code in (-lib.BG_BAD_DICE,):
        raise DiceError("a die shows 1 to 6")
    raise PositionError(position_message(-code))


def _generate(position: Position | str, dice: Sequence[int]) -> tuple[int, PlayBuffers]:
    """bg_legal_plays into this thread's buffers: (the count, the buffers)."""
    die1, die2 = check_dice(dice)
    out = _mine()
    count = lib.bg_legal_plays(c_board(position), die1, die2, out.boards, out.steps, out.nsteps,
                               lib.BG_MAX_PLAYS)
    if count < 0:
        _raise_for(count)
    return count, out


def legal_plays(position: Position | str, dice: Sequence[int]) -> Plays:
    """Every legal complete play of the roll, one per distinct resulting position, from a
    Position or a position ID. A turn with no legal play gives one Play with no steps (the
    turn is forfeited). Each Play is made when it is first looked at (see Plays)."""
    count, out = _generate(position, dice)
    return Plays.from_buffers(count, out)


def ids_text(boards: CData, count: int) -> str:
    """The position IDs of `count` engine boards, written in C, each followed by a space."""
    ids = _mine().ids
    lib.bg_ids_of_boards(boards, count, ids)
    return ffi.unpack(ids, count * (lib.BG_ID_LEN + 1)).decode("ascii")


def legal_results(position_id: str, dice: Sequence[int]) -> set[str]:
    """gnubg position IDs of every position a legal play of `dice` can reach from
    `position_id`, the mover still in gnubg's "on roll" slot."""
    if (type(position_id) is str and len(position_id) == _ID_LEN
            and type(dice) in (tuple, list) and len(dice) == 2):
        die1, die2 = dice                     # one C call; it checks the ID and the dice
        if type(die1) is int and type(die2) is int and 0 < die1 < 7 and 0 < die2 < 7:
            text = _mine().text                    # set to a buffer of C's
            if _result_text(position_id.encode(), die1, die2, text) >= 0:
                return set(_string(text[0]).decode().split())
    count, out = _generate(position_id, dice)   # the errors, worded; IDs with spaces around
    return set(ids_text(out.boards, count).split())


def game_result(position: Position) -> int:
    """0 = not over; 1/2/3 = the mover has borne off all men and won a single game / gammon /
    backgammon; -1/-2/-3 = the opponent has."""
    return lib.bg_game_result(position.as_c())


def pips(position: Position) -> tuple[int, int]:
    """(mover's pips, opponent's pips)."""
    return position.pips()


class Turn:
    """One player's turn typed step by step ("K4", "4K", "z3"). Each step is accepted only if
    it, after the steps already made, can still be part of a legal complete play of the roll
    in some order of the dice (so "K4" then "G2" and "K2" then "I4" are both fine). A rejected
    step raises IllegalMoveError or EntryError and leaves the turn exactly as it was."""

    def __init__(self, start: Position, dice: Sequence[int], mover_is_human: bool = True):
        self.start = start
        self.dice = check_dice(dice)
        self.mover_is_human = mover_is_human
        self.made: list[tuple[int, int]] = []      # (from index, die) in order
        self.steps: list[Step] = []                # the same steps, with where they went
        self.position = start
        self._start_c = start.as_c()

    def _made_c(self) -> CData:
        flat = [v for pair in self.made for v in pair]
        return ffi.new("int8_t[]", flat or [0])

    @property
    def complete(self) -> bool:
        """True when the steps made form a complete legal play (also for a forfeited turn)."""
        return lib.bg_turn_complete(self._start_c, *self.dice, self._made_c(),
                                    len(self.made)) == 1

    @property
    def dice_left(self) -> tuple[int, ...]:
        left = list(self.dice) * (2 if self.dice[0] == self.dice[1] else 1)
        for _from, die in self.made:
            left.remove(die)
        return tuple(left)

    def letter(self, index: int) -> str:
        return Position.letter_of_index(index, self.mover_is_human)

    def _why(self, code: int, from_index: int, die: int) -> str:
        name = self.letter(from_index).upper()
        if code == lib.BG_STEP_NO_SUCH_DIE:
            if die in self.dice:
                return f"you have already played your {die}"
            return f"you did not throw a {die}"
        if code == lib.BG_STEP_BAR_FIRST:
            return "you have a man on the bar: enter him first (Z and a die)"
        if code == lib.BG_STEP_NO_MAN:
            if from_index == BAR:
                return "you have no man on the bar"
            return f"you have no man on point {name}"
        if code == lib.BG_STEP_BLOCKED:
            target = self.letter(from_index - die).upper() if from_index - die >= 0 else "?"
            return (f"{name}{die} lands on point {target}, held by two or more of your "
                    f"opponent's men")
        if code == lib.BG_STEP_NOT_ALL_HOME:
            return "you cannot bear off until all your men are in your inner table"
        if code == lib.BG_STEP_MAN_HIGHER:
            return (f"you cannot bear off from {name} with a {die} while a man stands on a "
                    f"higher point")
        if code == lib.BG_STEP_WASTES_DICE:
            return ("that move leaves a die unplayed when all of them can be played: "
                    "use both dice if you can")
        if code == lib.BG_STEP_HIGHER_DIE:
            return (f"only one die can be played, so it must be the higher one, "
                    f"the {max(self.dice)}")
        if code == lib.BG_STEP_TURN_OVER:
            return "your move is already complete"
        return "that move cannot be made"

    def allowed_steps(self) -> list[tuple[int, int]]:
        """Every (from index, die) that check() would accept now, highest point first."""
        out = ffi.new("int8_t[]", BOARD_LEN)
        made = self._made_c()
        return [(frm, die) for frm in range(BAR, -1, -1) for die in sorted(set(self.dice))
                if lib.bg_step_check(self._start_c, *self.dice, made, len(self.made), frm, die,
                                     out) == lib.BG_STEP_OK]

    def check(self, from_index: int, die: int) -> Position:
        """The position after the step, if it is allowed; IllegalMoveError otherwise. Does not
        change the turn."""
        out = ffi.new("int8_t[]", BOARD_LEN)
        code = lib.bg_step_check(self._start_c, *self.dice, self._made_c(), len(self.made),
                                 from_index, die, out)
        if -code in POSITION_CODES:                   # the start position itself is bad
            raise PositionError(position_message(-code))
        if code != lib.BG_STEP_OK:
            raise IllegalMoveError(self._why(-code, from_index, die), -code)
        return Position.from_c(out)

    def step(self, from_index: int, die: int) -> Position:
        """Make a step (row index and die) after checking it; returns the new position."""
        after = self.check(from_index, die)
        hit = after.opponent[BAR] > self.position.opponent[BAR]
        to_index = from_index - die if from_index - die >= 0 else OFF
        self.made.append((from_index, die))
        self.steps.append(Step(from_index, to_index, die, hit))
        self.position = after
        return after

    def undo(self) -> Position:
        """Take back the last step made (nothing happens when none was); returns the position."""
        if self.made:
            self.made.pop()
            self.steps.pop()
            self.position = self.steps and self._replayed() or self.start
        return self.position

    def undo_all(self) -> Position:
        """Take back every step made: the turn as it began (U, or N at READY?); returns the
        start."""
        self.made.clear()
        self.steps.clear()
        self.position = self.start
        return self.position

    def _replayed(self) -> Position:
        made, self.made = self.made, []
        position = self.start
        for from_index, die in made:
            position = self.check(from_index, die)
            self.made.append((from_index, die))
        return position

    def enter(self, text: str) -> Position:
        """Make a typed step such as "K4" or "4K" (letters from the human's side)."""
        letter, die = parse_entry(text)
        return self.step(Position.index_of_letter(letter, self.mover_is_human), die)
