"""The match score and both sides' pip counts on the board (issue 52 item 10): where they go
in the 1983 layout's free room and how they are worded; game/board/screen.py draws them.
Not the score itself (game/model/match.py) and not the S and P pages (game/commands.py)."""
from collections.abc import Sequence
from typing import Any

from game.board.palette import contrast

PIPS_ROW = 11                        # the empty row between the top and bottom points
PIPS_COLS = (1, 15)                  # the left and right halves' first columns (bottom side,
HALF_COLS = 12                       # top side), 12 columns each
SCORE_ROW = 15                       # the panel's free row, between the die and the tray
SCORE_COL, SCORE_COLS = 27, 5        # from the frame's edge to the screen's: "12-10"
BAR_PIPS = 25                        # a man on the bar is 25 pips from home


def pips(points: Sequence[int], bar_white: int, bar_black: int) -> tuple[int, int]:
    """(white's, black's) pips of a BoardView's points (+ white men, - black men; white's
    home is points 1-6, black's 19-24)."""
    white = sum(p * n for p, n in enumerate(points) if n > 0) + BAR_PIPS * bar_white
    black = sum((25 - p) * -n for p, n in enumerate(points) if n < 0) + BAR_PIPS * bar_black
    return white, black


def pips_words(who: str, count: int) -> str:
    """"You 152 pips" in HALF_COLS columns; a long name is cut before the number is."""
    words = f"{who} {count} pips"
    if len(words) > HALF_COLS:
        words = f"{who[:HALF_COLS - 1 - len(str(count))]} {count}"
    return words.center(HALF_COLS)


def score_words(bottom: int, top: int) -> str:
    """The match score, the bottom side's first, in SCORE_COLS columns."""
    return f"{bottom}-{top}"[:SCORE_COLS].center(SCORE_COLS)


# screen: a game.board.screen.Screen, which imports this module (so Any: no import cycles)
def draw(screen: Any) -> None:
    """On a game/board/screen.py Screen: the pips of both sides of what it shows in the gap
    between the halves and the match score in the panel, when `numbers_shown`; else those
    cells as the board leaves them. `screen.numbers`: (the bottom side's name, the top
    side's, (bottom's score, top's) or None for money play)."""
    pal, (bottom, top, score) = screen.palette, screen.numbers
    shown = screen.shown
    counts = pips(shown.points, shown.bar_white, shown.bar_black)
    drawn = (counts, screen.numbers, screen.numbers_shown)
    if screen.numbers_drawn == drawn:
        return                           # each character is a ROM call: only on a change
    screen.numbers_drawn = drawn
    for col, who, count in zip(PIPS_COLS, (bottom, top), counts, strict=True):
        words = pips_words(who, count) if screen.numbers_shown else ""
        screen.text(PIPS_ROW, col, words.ljust(HALF_COLS), pal.a(contrast(pal.board), pal.board))
    words = score_words(*score) if score and screen.numbers_shown else ""
    screen.text(SCORE_ROW, SCORE_COL, words.ljust(SCORE_COLS), pal.frame_attr)
