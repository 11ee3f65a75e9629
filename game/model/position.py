"""The board as the game and the tests see it: one immutable Position, always from the side on
roll, with gnubg position IDs, pip counts and the 1983 notation (points a..x, bar z, "K4").
Not the rules: which plays are legal is asked of the C engine through game/model/rules.py."""
from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import dataclass

from game.errors import EntryError, PositionError, PositionIdError
from native import CData, ffi, lib
from spectrum.quoting import quoted

MEN_PER_SIDE = 15
POINTS = 24
BAR = lib.BG_BAR              # index of the bar in a row, after the 24 points
ROW_LEN = BAR + 1             # 24 points and the bar
BOARD_LEN = lib.BG_BOARD_LEN  # two rows
ID_LEN = lib.BG_ID_LEN        # characters in a gnubg position ID
ID_KEY_BYTES = 10             # the 80-bit key behind it
BAR_LETTER = "z"
POINT_LETTERS = "abcdefghijklmnopqrstuvwx"   # the human's 1-point (a) .. 24-point (x)
ID_FORM = re.compile(f"[A-Za-z0-9+/]{{{ID_LEN}}}")   # what a position ID looks like

_POSITION_MESSAGES = {
    lib.BG_POS_NEGATIVE: "a point cannot hold fewer than no men",
    lib.BG_POS_TOO_MANY_MEN: "a side cannot have more than fifteen men",
    lib.BG_POS_SHARED_POINT: "white and black men cannot share a point",
    lib.BG_POS_NO_MEN: "at least one side must still have men on the board",
}
POSITION_CODES = frozenset(_POSITION_MESSAGES)   # bg.h's BG_POS_* refusals (negated in C)


def position_message(code: int) -> str:
    """The player's words for a bg.h BG_POS_* code."""
    return _POSITION_MESSAGES.get(code, f"that position is not possible (code {code})")


@dataclass(frozen=True)
class Position:
    """board: 50 counts, bg.h layout. board[0..23] = the mover's own 1..24-points, board[24]
    the mover's bar; board[25..49] the same for the opponent from the opponent's side.
    Men not on a row have been borne off. Construction validates; a Position is never bad."""

    board: tuple[int, ...]

    def __post_init__(self) -> None:
        board = self.board
        if not isinstance(board, tuple):
            try:
                board = tuple(board)
            except TypeError:
                raise PositionError("a position is a list of 50 counts of men") from None
            object.__setattr__(self, "board", board)
        if len(board) != BOARD_LEN:
            raise PositionError(f"a position has {BOARD_LEN} places (two sides of 24 points "
                                f"and a bar), not {len(board)}")
        for count in board:
            if not isinstance(count, int) or isinstance(count, bool):
                raise PositionError(f"{count!r} is not a number of men")
            if count < 0:
                raise PositionError(position_message(lib.BG_POS_NEGATIVE))
            if count > MEN_PER_SIDE:
                raise PositionError(position_message(lib.BG_POS_TOO_MANY_MEN))
        code = lib.bg_validate(self.as_c())
        if code != lib.BG_POS_OK:
            raise PositionError(position_message(-code))

    # ---- construction -----------------------------------------------------------------

    @classmethod
    def start(cls) -> Position:
        buf = ffi.new("int8_t[]", BOARD_LEN)
        lib.bg_start(buf)
        return cls.from_c(buf)

    @classmethod
    def from_c(cls, buf: CData) -> Position:
        return cls(tuple(ffi.unpack(ffi.cast("int8_t *", buf), BOARD_LEN)))

    @classmethod
    def from_engine(cls, board: tuple[int, ...]) -> Position:
        """A board the C engine produced from a valid one: skips re-validation (speed)."""
        position = object.__new__(cls)
        object.__setattr__(position, "board", board)
        return position

    @classmethod
    def from_points(cls, mover: Mapping[int | str, int], opponent: Mapping[int | str, int]
                    ) -> Position:
        """A position from two small maps, each side counting its own points 1..24, with the
        key "bar" for its bar: from_points({6: 2, "bar": 1}, {1: 2})."""
        rows = []
        for side in (mover, opponent):
            row = [0] * ROW_LEN
            for key, count in side.items():
                if key == "bar":
                    row[BAR] += count
                elif isinstance(key, int) and 1 <= key <= POINTS:
                    row[key - 1] += count
                else:
                    raise PositionError(f"there is no point {key!r}: points are 1 to 24 or 'bar'")
            rows += row
        return cls(tuple(rows))

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a gnubg position ID. gnubg's key lists the side NOT on roll first, then the
        side on roll (checked against gnubg 1.x: the ID it prints while O is on roll starts
        with X's men), each as 25 runs of 1-bits (points 1..24, then the bar) ended by a 0."""
        if not isinstance(position_id, str):
            raise PositionIdError("a position ID is 14 letters, digits, '+' or '/'")
        text = position_id.strip()
        if len(text) != ID_LEN or not ID_FORM.fullmatch(text):
            raise PositionIdError(f"{quoted(text, 20)} is not a position ID: it must be "
                                  f"exactly {ID_LEN} characters from A-Z, a-z, 0-9, + and /")
        try:
            key = base64.b64decode(text + "==", validate=True)
        except (binascii.Error, ValueError):  # pragma: no cover - the regex already checked
            raise PositionIdError(f"'{text}' is not a position ID") from None
        bits = [(byte >> i) & 1 for byte in key[:ID_KEY_BYTES] for i in range(8)]
        rows: list[list[int]] = []
        pos = 0
        for _side in range(2):
            row = []
            for _place in range(ROW_LEN):
                count = 0
                while pos < len(bits) and bits[pos]:
                    count += 1
                    pos += 1
                if pos >= len(bits):
                    raise PositionIdError(f"'{text}' is not a position ID: it holds more men "
                                          f"than two sides can have")
                pos += 1                       # the 0 that ends this place
                row.append(count)
            rows.append(row)
        if any(bits[pos:]):
            raise PositionIdError(f"'{text}' is not a position ID: it holds more men than "
                                  f"two sides can have")
        for row in rows:
            if sum(row) > MEN_PER_SIDE:
                raise PositionIdError(f"'{text}' describes a side with {sum(row)} men; each "
                                      f"side has fifteen")
        opponent, mover = rows
        try:
            return cls(tuple(mover + opponent))
        except PositionError as exc:
            raise PositionIdError(f"'{text}' is not a possible position: {exc}") from None

    # ---- views ------------------------------------------------------------------------

    @property
    def position_id(self) -> str:
        """The gnubg position ID (14 characters); see from_id for the bit order. Encoded by
        the C engine (bg_ids_of_boards), the same encoding tests check against from_id."""
        text = ffi.new("char[]", lib.BG_ID_LEN + 1)
        lib.bg_ids_of_boards(ffi.new("int8_t[]", self.board), 1, text)
        return ffi.buffer(text, lib.BG_ID_LEN)[:].decode("ascii")

    def __str__(self) -> str:
        return self.position_id

    def as_c(self) -> CData:
        """A fresh int8_t[50] copy for the C engine (the engine never keeps it)."""
        return ffi.new("int8_t[]", list(self.board))

    @property
    def mover(self) -> tuple[int, ...]:
        """The side on roll: 24 points then its bar."""
        return self.board[:ROW_LEN]

    @property
    def opponent(self) -> tuple[int, ...]:
        return self.board[ROW_LEN:]

    def swapped(self) -> Position:
        """The same board with the other side on roll."""
        return Position(self.opponent + self.mover)

    def pips(self) -> tuple[int, int]:
        """(mover's pips, opponent's pips); a man on the bar counts 25."""
        out = ffi.new("int[2]")
        lib.bg_pips(self.as_c(), out)
        return out[0], out[1]

    def borne_off(self) -> tuple[int, int]:
        """Men borne off: (mover, opponent)."""
        return MEN_PER_SIDE - sum(self.mover), MEN_PER_SIDE - sum(self.opponent)

    # ---- the 1983 notation ------------------------------------------------------------

    @staticmethod
    def index_of_letter(letter: str, mover_is_human: bool = True) -> int:
        """The mover's row index (0..23, 24 = bar) of a point letter. Letters name points from
        the human's side: a = the human's 1-point, x = the computer's 1-point, z = the bar."""
        if not isinstance(letter, str) or len(letter) != 1:
            raise EntryError("a point is one letter, a to x, or z for the bar")
        low = letter.lower()
        if low == BAR_LETTER:
            return BAR
        where = POINT_LETTERS.find(low)
        if where < 0:
            raise EntryError(f"there is no point {letter}: the points are a to x, and z is "
                             f"the bar")
        return where if mover_is_human else POINTS - 1 - where

    @staticmethod
    def letter_of_index(index: int, mover_is_human: bool = True) -> str:
        """The letter of a mover's row index (0..23, 24 = bar); inverse of index_of_letter."""
        if index == BAR:
            return BAR_LETTER
        if not 0 <= index < POINTS:
            raise ValueError(f"row index {index} is not a point")
        return POINT_LETTERS[index if mover_is_human else POINTS - 1 - index]


_ENTRY_RE = re.compile(r"\s*(?:([A-Za-z])\s*([0-9]+)|([0-9]+)\s*([A-Za-z]))\s*")
MAX_ENTRY_SHOWN = 15          # characters of a bad entry quoted back, quotes included


def parse_entry(text: str) -> tuple[str, int]:
    """Read a typed step such as "K4", "4K", "k4" or "z3": (lower-case letter, die).
    Checks only the form (a point letter a..x or z, a number 1..6); EntryError otherwise."""
    if not isinstance(text, str):
        raise EntryError("type a point letter and a die number, such as K4")
    match = _ENTRY_RE.fullmatch(text)
    if not text.strip():
        raise EntryError("type a point letter and a die number, such as K4")
    if not match:
        raise EntryError(f"{quoted(text.strip(), MAX_ENTRY_SHOWN)} is not a move: type a point "
                         f"letter and a die number, such as K4")
    typed_letter = match.group(1) or match.group(4)
    digits = match.group(2) or match.group(3)
    Position.index_of_letter(typed_letter)         # raises for letters outside a..x, z
    letter = typed_letter.lower()
    die = int(digits)
    if not 1 <= die <= 6:
        raise EntryError(f"{digits} is not a number on a die: dice show 1 to 6")
    return letter, die
