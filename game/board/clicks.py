"""What a click on the board types: the mouse types what keys would (issue 42), so a point
is its letter, the bar z, a die its number and the message line ENTER. Not the window's
mouse handling (spectrum/display.py) and not when clicks count (game/main.py)."""
from game.board import screen as S
from game.board.screen import Screen


def key_at(screen: Screen, x_px: int, y_px: int) -> str:
    """What a click at this pixel of the 256 x 192 screen types, as the keys would: a
    point's letter anywhere on its half of the board, z on the bar, a die's number on a
    die that shows one, ENTER on the message line; '' elsewhere (the frame, the trays,
    the gap between the halves)."""
    col, row = x_px // 8, y_px // 8
    if row == S.MESSAGE_ROW:
        return "\n"
    die_col = screen.column(S.DIE_COL, S.DIE_CELLS)
    for top, (face, _black) in screen.dice.items():
        die_row = S.TOP_DIE_ROW if top else S.BOTTOM_DIE_ROW
        if face and die_col <= col < die_col + S.DIE_CELLS and \
                die_row <= row < die_row + S.DIE_CELLS:
            return str(face)
    if S.HALF_ROWS < row < S.BOTTOM_FIRST_ROW or row > S.BOTTOM_LETTER_ROW:
        return ""                                      # between the halves, off the board
    bar = screen.column(S.BAR_COL, S.BAR_COLS)
    if bar <= col < bar + S.BAR_COLS:
        return S.BAR_LETTER
    for point in range(1, 25):
        first, is_top = screen.point_cell(point)
        if is_top == (row <= S.HALF_ROWS) and first <= col < first + S.POINT_COLS:
            return S.POINT_LETTERS[point - 1]
    return ""
