"""What a click on the screen types: the mouse types what keys would (issues 42 and 52). On
the board at "Your move?" a point is its letter, the bar z, a die its number and the message
line ENTER; the cube and the dice type what the waiting scene says (Game.board_clicks); on any
line of text a key word ("R roll out", "ENTER: moves", "(Y/N)") types its key. Not the
window's mouse handling (spectrum/display.py) and not when clicks count (game/main.py)."""
import re

from game.board import screen as S
from game.board.screen import Screen
from spectrum.screen_text import line_text

KEY_NAMES = {"ENTER": "\n", "SPACE": " "}
NOT_KEYS = {"I"}                      # "I play ...", "I double": the computer's word, no key
TOKEN = re.compile(r"\S+")
KEY_PART = re.compile(r"[A-Z0-9]|ENTER|SPACE")


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


def board_thing_at(screen: Screen, x_px: int, y_px: int) -> str:
    """"cube" on the doubling cube where it is drawn, "dice" on either die's place (shown or
    not: the dice to throw), else ''. Mirror-aware, as the drawing is."""
    col, row = x_px // 8, y_px // 8
    if screen.cube is not None:
        cube_col, cube_row = S.cube_cell(screen.cube[1], screen.mirrored)
        if cube_col <= col < cube_col + S.CUBE_COLS and cube_row <= row < cube_row + S.CUBE_ROWS:
            return "cube"
    die_col = screen.column(S.DIE_COL, S.DIE_CELLS)
    for die_row in (S.TOP_DIE_ROW, S.BOTTOM_DIE_ROW):
        if die_col <= col < die_col + S.DIE_CELLS and die_row <= row < die_row + S.DIE_CELLS:
            return "dice"
    return ""


def _keys_of(token: str) -> list[tuple[int, int, str]]:
    """A token's keys as (offset, length, what it types): "T/U:" -> [(0, 1, "t"), (2, 1,
    "u")]; [] when the token is a word, not keys."""
    start = len(token) - len(token.lstrip("("))
    body = token[start:].rstrip(":;,)?")
    parts = body.split("/")
    if not body or body in NOT_KEYS or not all(KEY_PART.fullmatch(part) for part in parts):
        return []
    keys, offset = [], start
    for part in parts:
        keys.append((offset, len(part), KEY_NAMES.get(part, part.lower())))
        offset += len(part) + 1
    return keys


def hot_keys(line: str) -> list[tuple[int, int, str]]:
    """The keys a line of text offers to the mouse, as (first column, column past the last,
    what a click types): a key alone ("R", "ENTER", "Q:") takes the words after it up to the
    next key or a wider gap ("R roll out" is all R's); keys joined by "/" ("(Y/N)", "T/U")
    are each their own letters."""
    tokens = [(m.start(), m.group()) for m in TOKEN.finditer(line)]
    spots: list[tuple[int, int, str]] = []
    for index, (col, token) in enumerate(tokens):
        keys = _keys_of(token)
        if len(keys) > 1:
            spots += [(col + offset, col + offset + length, key) for offset, length, key in keys]
            continue
        after_key = bool(spots) and spots[-1][1] >= col - 1 or \
            index > 0 and len(_keys_of(tokens[index - 1][1])) > 1 and \
            tokens[index - 1][0] + len(tokens[index - 1][1]) == col - 1
        end = col + len(token)
        for next_col, word in tokens[index + 1:]:
            if next_col > end + 1 or _keys_of(word):
                break
            end = next_col + len(word)
        if keys and (end > col + len(token) or after_key):   # a key with its words
            spots.append((col + keys[0][0], end, keys[0][2]))
    return spots


def text_key_at(memory: bytearray, x_px: int, y_px: int) -> str:
    """What a click on a key word of the screen's text types ('' off every key word)."""
    col, row = x_px // 8, y_px // 8
    for first, past, key in hot_keys(line_text(memory, row)):
        if first <= col < past:
            return key
    return ""
