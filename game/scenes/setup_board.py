"""Set up your own board: the men of each side placed point by point ("W K3", "B Z1"), or a
gnubg position ID typed in, on the drawn board, refusing impossible set-ups with the reason.
A generator for program.py's `yield from`; not the rules (game.model.position validates)."""
from __future__ import annotations

import re
from collections.abc import Sequence

from game.board import screen as S
from game.errors import PositionError
from game.interfaces import Frames
from game.model.position import (
    BAR,
    BAR_LETTER,
    ID_FORM,
    MEN_PER_SIDE,
    POINT_LETTERS,
    ROW_LEN,
    Position,
)
from game.pages import menus
from game.zx.basic import Basic

PROMPT = "Set up?"
WHITE_COUNT_ROW = S.BOTTOM_DIE_ROW + 1        # the men on the board, beside it
BLACK_COUNT_ROW = S.TOP_DIE_ROW + 1
PLACED = (25, 880)                            # a beep as men are put down (ms, Hz)

EXPLAIN = (
    "Type one line at a time at",
    '"Set up?", then ENTER:',
    "",
    "W K3   three white men on K",
    "B K2   two black men on K",
    "W K0   no white men on K",
    "B Z1   one black man on the bar",
    "       (Z is the bar)",
    "C      clear the board",
    "S      the starting position",
    "a position ID from GNU bg, e.g.",
    "       4HPwATDgc/ABMA",
    "?      these words again",
    "GO     play from here (or just",
    "       ENTER); QUIT leaves it",
    "",
    "You are WHITE and on roll. Men",
    "not on the board are borne off.",
    "Letters are yours: a is your",
    "1-point, x the computer's.",
)

_PLACE_RE = re.compile(r"([WB])\s*(?:([A-XZ])\s*(\d+)|(\d+)\s*([A-XZ]))", re.IGNORECASE)


class SetupError(PositionError):
    """A set-up entry that cannot be done; str() says why, in the player's words."""


def _place_index(white: bool, letter: str) -> int:
    """Where in the 50 counts (human/white on roll) the men of a colour on a letter go."""
    letter = letter.lower()
    if letter == BAR_LETTER:
        return BAR if white else ROW_LEN + BAR
    where = POINT_LETTERS.index(letter)       # the human's numbering: a = 1-point
    return where if white else ROW_LEN + (23 - where)


def men_on_board(board: Sequence[int]) -> tuple[int, int]:
    """(white men, black men) on the points and bars."""
    return sum(board[:ROW_LEN]), sum(board[ROW_LEN:])


def apply_entry(board: tuple[int, ...], text: str) -> tuple[str, tuple[int, ...]]:
    """One typed set-up line against the board (50 counts, white/human on roll).
    Returns (action, board): action is "changed", "done", "quit" or "help". Raises
    SetupError with the reason for anything impossible or unreadable; board unchanged."""
    entry = text.strip()
    word = entry.upper()
    if word in ("", "GO"):
        finished(board)
        return "done", board
    if word == "QUIT":
        return "quit", board
    if word in ("?", "H", "HELP"):
        return "help", board
    if word in ("C", "CLEAR"):
        return "changed", (0,) * len(board)
    if word in ("S", "START"):
        return "changed", Position.start().board
    if ID_FORM.fullmatch(entry):
        try:
            return "changed", Position.from_id(entry).board
        except PositionError as exc:
            raise SetupError(str(exc)) from None
    match = _PLACE_RE.fullmatch(entry)
    if not match:
        if len(entry) >= 10 and " " not in entry:      # meant as an ID: Position says why not
            try:
                Position.from_id(entry)
            except PositionError as exc:
                raise SetupError(str(exc)) from None
        raise SetupError("Type e.g. W K3, B Z1, C, S, a position ID, or GO")
    colour, letter, digits = match.group(1).upper(), match.group(2) or match.group(5), \
        match.group(3) or match.group(4)
    white = colour == "W"
    name, other = ("White", "Black") if white else ("Black", "White")
    count = int(digits)
    place = _place_index(white, letter)
    where = "the bar" if letter.lower() == "z" else letter.upper()
    if count > MEN_PER_SIDE:
        raise SetupError(f"A side has only {MEN_PER_SIDE} men, so {count} cannot go on {where}")
    new = list(board)
    new[place] = count
    total = men_on_board(new)[0 if white else 1]
    if total > MEN_PER_SIDE:
        raise SetupError(f"{name} would have {total} men on the board: a side has "
                         f"{MEN_PER_SIDE} at most")
    if letter.lower() != "z" and count:
        facing = _place_index(not white, letter)
        if board[facing]:
            raise SetupError(f"{other} men are on {where}: both colours cannot share a point "
                             f"(clear them with {other[0]} {where}0)")
    return "changed", tuple(new)


def finished(board: Sequence[int]) -> Position:
    """The set-up as a Position to play from, or SetupError with the reason."""
    white, black = men_on_board(board)
    if not white or not black:
        raise SetupError("Each side needs at least one man on the board to play")
    try:
        return Position(tuple(board))
    except PositionError as exc:
        raise SetupError(str(exc)) from None


def show(screen: S.Screen, board: Sequence[int], redraw: bool = False) -> None:
    """The board as set up so far, with the men on it counted beside it."""
    if redraw:
        screen.draw_board(S.view_of_counts(board))
    else:
        screen.show(S.view_of_counts(board))
    white, black = men_on_board(board)
    attr = screen.panel_attr                              # the board style's panel colours
    screen.text(BLACK_COUNT_ROW, S.PANEL_COL, f"B{black:>3}", attr)
    screen.text(WHITE_COUNT_ROW, S.PANEL_COL, f"W{white:>3}", attr)


def refuse(basic: Basic, screen: S.Screen, board: Sequence[int], reason: str) -> Frames:
    """The reason over the bottom rows of the board, ENTER, then the board again."""
    yield from menus.tell(basic, reason, redraw=lambda: show(screen, board, redraw=True))


def setup_board(basic: Basic, screen: S.Screen, start: Position | None = None,
                explain: bool = True) -> Frames:
    """Set up a board to play from. Starts from `start` (human on roll), else the usual
    starting position; `explain` shows the page of entries first. Returns the Position with
    the human (white) on roll, or None if QUIT was typed. The screen is left showing the
    board as set up (the dice panel carries the men counts: the caller redraws)."""
    board = (start or Position.start()).board
    if explain:
        yield from menus.text_screen(basic, "SET UP A BOARD", EXPLAIN, "ENTER to begin")
    show(screen, board, redraw=True)
    while True:
        text = yield from basic.input(PROMPT)
        try:
            action, board = apply_entry(board, text)
        except SetupError as exc:
            yield from refuse(basic, screen, board, str(exc))
            continue
        if action == "quit":
            return None
        if action == "help":
            yield from menus.text_screen(basic, "SET UP A BOARD", EXPLAIN, "ENTER to go on")
            show(screen, board, redraw=True)
        elif action == "done":
            return finished(board)
        else:
            basic.beep(*PLACED)
            show(screen, board)
