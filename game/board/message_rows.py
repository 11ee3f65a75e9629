"""The message line grown upwards: words that need two to four rows are shown all at once
(never taking turns on one line), the last on the message line and the others on the rows
just above it, over the board but not the panel beside it (the cube may sit there); what
they covered is kept and put back. Not the words (game/scenes say them)."""
from game.board import screen as S
from game.board.lines import COLUMNS, fit
from game.interfaces import Screen

ROW_COLS = S.PANEL_COL            # a row above the message line: the board's width
MAX_ROWS = 4                      # the message line and three rows of the board
PLAY_ROWS = 2                     # during play: the message line and the bottom letters'
# row; a third would cover the bottom points and their men (a question asked in a game)


class TooManyRows(ValueError):
    """More lines than the message rows hold, or a line wider than its row."""


def check(lines: list[str]) -> None:
    """The rule for lines shown together: at most MAX_ROWS, the last at most 32 columns and
    the others ROW_COLS (the board's width beside the panel)."""
    if not 1 <= len(lines) <= MAX_ROWS:
        raise TooManyRows(f"{len(lines)} lines for {MAX_ROWS} message rows")
    for line in lines[:-1]:
        if len(line) > ROW_COLS:
            raise TooManyRows(f"{line!r} is wider than {ROW_COLS} columns")
    if len(lines[-1]) > COLUMNS:
        raise TooManyRows(f"{lines[-1]!r} is wider than {COLUMNS} columns")


def first_row(count: int) -> int:
    return S.MESSAGE_ROW - count + 1


def keep(screen: Screen, count: int) -> bytes:
    """The pixels and colours of the `count - 1` rows above the message line, whole rows,
    for put_back."""
    rows = range(first_row(count), S.MESSAGE_ROW)
    kept = bytearray()
    for row in rows:
        for line in range(8):
            start = S.bitmap_addr(0, row * 8 + line)
            kept += bytes(screen.mem[start:start + S.COLS])
        kept += bytes(screen.mem[S.attr_addr(0, row):S.attr_addr(0, row) + S.COLS])
    return bytes(kept)


def put_back(screen: Screen, kept: bytes) -> None:
    """The rows keep() took, as they were."""
    per_row = 9 * S.COLS
    count = len(kept) // per_row
    for i, row in enumerate(range(S.MESSAGE_ROW - count, S.MESSAGE_ROW)):
        block = kept[i * per_row:(i + 1) * per_row]
        for line in range(8):
            start = S.bitmap_addr(0, row * 8 + line)
            screen.mem[start:start + S.COLS] = block[line * S.COLS:(line + 1) * S.COLS]
        start = S.attr_addr(0, row)
        screen.mem[start:start + S.COLS] = block[8 * S.COLS:]


def show(screen: Screen, lines: list[str]) -> None:
    """`lines` at once: the last on the message line, the others on the rows above it in
    the message line's colours, each as wide as the board (ROW_COLS), so a row reads as
    part of one message."""
    check(lines)
    for row, line in zip(range(first_row(len(lines)), S.MESSAGE_ROW), lines, strict=False):
        screen.text(row, 0, fit(line, ROW_COLS).ljust(ROW_COLS), S.MESSAGE)
    screen.message(lines[-1])
