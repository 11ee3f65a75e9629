"""The beginners' instructions shown after loading, in this project's own words, a page at a
time: the aim, the board and its letters, moving, the bar, bearing off, typing a move, the
commands. Not the rules themselves (game/model/rules.py asks the engine)."""
from game.board import screen as S
from game.board.lines import wrap
from game.interfaces import Frames
from game.zx.basic import Basic

QUESTION = "Do you want instructions? (Y/N)"
NEXT_PAGE = "Press any key to go on"
PAGE_ATTR = S.attr(S.BLACK, S.WHITE)
TITLE_ATTR = S.attr(S.YELLOW, S.BLUE, bright=True)
KEY_Y, KEY_N = (ord("y"), ord("Y")), (ord("n"), ord("N"))

# Each page: a title, then paragraphs wrapped to 32 columns ("" = a blank line).
PAGES = (
    ("THE AIM", [
        "You have the fifteen WHITE men; the computer has the fifteen BLACK men.",
        "",
        "Each side races its men round the board into its own corner, its inner "
        "table, and then takes them off. Whoever takes all fifteen off first wins.",
        "",
        "Win before the computer has taken any man off and it counts double (a "
        "gammon); win while it still has a man on the bar or in your inner table "
        "and it counts triple (a backgammon).",
    ]),
    ("THE BOARD", [
        "The 24 points (triangles) carry the letters a to x, printed above and "
        "below them.",
        "",
        "Your inner table is f to a, at the bottom right. Your men travel "
        "anticlockwise: leftwards along the top, down, then rightwards along the "
        "bottom towards a.",
        "",
        "The computer's men travel the other way, clockwise, towards its inner "
        "table s to x at the top right.",
        "",
        "At the opening throw the top die is the computer's, the bottom die yours.",
    ]),
    ("MOVING", [
        "At the start each side throws one die. The higher die moves first, using "
        "both numbers. A tie throws again.",
        "",
        "Then each turn two dice are thrown. Move one man by each number, or one man "
        "by both. A double gives four moves of that number.",
        "",
        "A man may stop on an empty point, on your own men, or on a single black "
        "man, but never on a point with two or more black men.",
        "",
        "Use both numbers whenever you can; if only one can be used, use the higher.",
    ]),
    ("THE BAR", [
        "Landing on a single enemy man (a blot) hits it: it goes to the bar, the "
        "green strip down the middle, and must start again from the far end.",
        "",
        "While you have a man on the bar you may move nothing else. It comes in on "
        "the computer's inner table: a 1 enters on x, a 6 on s.",
        "",
        "If every point it could enter on is blocked, you lose that turn.",
    ]),
    ("BEARING OFF", [
        "When all fifteen of your men are in f to a, you may take them off: a 1 "
        "takes a man off a, a 6 off f.",
        "",
        "A number higher than your highest man takes off the highest man. A number "
        "whose point is empty must be moved inside the table if a man stands higher.",
        "",
        "If a man is hit while you bear off, he must come home before you take off "
        "any more.",
        "",
        "Men taken off are shown beside the board.",
    ]),
    ("TYPING A MOVE", [
        "At \"Your move?\" type the letter of the point and the die, then ENTER: "
        "K4 or 4K moves a man from K on by 4. Small or capital letters both do.",
        "",
        "Z and a die brings a man in from the bar: Z3.",
        "",
        "Each man moves as soon as you type it; keep going until the dice are used.",
        "",
        "A wrong move is explained; press ENTER and try again.",
        "",
        "Type QUIT at \"Your move?\" to resign the game (1 single, 2 gammon, "
        "3 backgammon), or H to see every other key.",
    ]),
)


# Under the 1983 rules the pages say only what the card does: no gammon (there is no score)
# and no key but QUIT beside the moves.
CARD_CUTS = ("Win before the computer", "Type QUIT at")
CARD_QUIT = "Type QUIT at \"Your move?\" to end the game and start a new one."


def pages_for(card: bool) -> tuple:
    """PAGES, or under the 1983 rules (`card`) the same without what the card lacks."""
    if not card:
        return PAGES
    return tuple((title, [CARD_QUIT if p.startswith(CARD_CUTS[1]) else p for p in paragraphs
                          if not p.startswith(CARD_CUTS[0])])
                 for title, paragraphs in PAGES)


def page_lines(page_number: int, card: bool = False) -> list[str]:
    title, paragraphs = pages_for(card)[page_number]
    lines = []
    for paragraph in paragraphs:
        lines += wrap(paragraph)
    return lines


def show_page(basic: Basic, page_number: int, card: bool = False) -> None:
    title, _ = PAGES[page_number]
    basic.cls(PAGE_ATTR)
    heading = f"{title}  ({page_number + 1}/{len(PAGES)})"
    basic.print_at(0, 0, heading.center(S.COLS), TITLE_ATTR)
    for row, line in enumerate(page_lines(page_number, card), start=2):
        if line:
            basic.print_at(row, 0, line, PAGE_ATTR)
    basic.print_at(S.ROWS - 1, 0, NEXT_PAGE.center(S.COLS), S.attr(S.WHITE, S.BLACK))


def offer(basic: Basic, card: bool = False) -> Frames:
    """Ask 'Do you want instructions? (Y/N)'; show the pages on Y (a key turns each page),
    the 1983 rules' pages with `card`."""
    basic.cls(PAGE_ATTR)
    basic.print_at(0, 0, "BACKGAMMON".center(S.COLS), TITLE_ATTR)
    basic.print_at(11, 0, QUESTION.center(S.COLS), PAGE_ATTR)
    while True:
        key = yield from basic.inkey()
        if key in KEY_N:
            return False
        if key in KEY_Y:
            break
    for page_number in range(len(PAGES)):
        show_page(basic, page_number, card)
        yield from basic.inkey()
    return True
