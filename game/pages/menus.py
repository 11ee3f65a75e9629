"""The screens and questions that live outside the turn loop: the help pages, Y/N questions,
the score and match-over screens, typed dice and match length (the options page is
game/pages/options_page.py). Each is
a generator (one `yield` = one frame) for program.py's `yield from`; none plays a turn."""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from game import chances
from game.board import screen as S
from game.board.lines import fit, lost, wrap
from game.interfaces import Frames
from game.model.match import BadMatchLength, Match, parse_match_length
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.words import DEFAULT_NAMES, SCREEN_NAMES, WHO_WORDS, kind_column
from game.zx.basic import CODE_ENTER, Basic

# --- colours, as the instructions pages use them ---
PAGE = S.attr(S.BLACK, S.WHITE)
TITLE = S.attr(S.YELLOW, S.BLUE, bright=True)
FOOTER = S.attr(S.WHITE, S.BLACK)
KEY_CELL = S.attr(S.WHITE, S.BLACK)              # a menu key, printed inverse
VALUE = S.attr(S.BLUE, S.WHITE)                  # an option's current value
WARNING = S.attr(S.WHITE, S.RED, bright=True)    # why an answer was not taken
BIG = S.attr(S.BLACK, S.CYAN, bright=True)

# --- where a question's refusal shows ---
REASON_ROW = 20                                  # two rows for a refusal
PROMPT_ROW = S.MESSAGE_ROW

# --- sounds (ms, Hz), and every tune: a game won or lost (the banner), a match (its page) ---
CLICK = (8, 1200)
BAD_KEY = (60, 180)
WIN_TUNE = ((120, 523), (120, 659), (120, 784), (300, 1047))
LOSE_TUNE = ((200, 392), (200, 330), (400, 262))
FANFARE = ((110, 523), (110, 659), (110, 784), (160, 1047), (110, 784), (400, 1047))
LAMENT = ((220, 392), (220, 349), (220, 311), (500, 262))

DONE_KEYS = (CODE_ENTER, ord("0"))


def title_bar(basic: Basic, words: str, row: int = 0) -> None:
    basic.print_at(row, 0, words.center(S.COLS), TITLE)


def footer(basic: Basic, words: str) -> None:
    basic.print_at(S.ROWS - 1, 0, words.center(S.COLS), FOOTER)


def clear_rows(basic: Basic, first: int, count: int, attr_byte: int = PAGE) -> None:
    for row in range(first, first + count):
        basic.print_at(row, 0, " " * S.COLS, attr_byte)


def show_reason(basic: Basic, reason: str, row: int = REASON_ROW, rows: int = 2) -> None:
    """A refusal in a red box of `rows` lines; the words wrap at spaces."""
    lines = wrap(reason[:1].upper() + reason[1:])[:rows]
    for i in range(rows):
        text = lines[i] if i < len(lines) else ""
        basic.print_at(row + i, 0, text.ljust(S.COLS), WARNING)


def tell(basic: Basic, words: str, redraw: Callable[[], object] | None = None,
         max_rows: int = 4) -> Frames:
    """Words too long for the message line (a refusal's reason): wrapped in red over the
    rows just above it (up to `max_rows`), "Press ENTER" on it, then `redraw()` (e.g. the
    board's draw_board) to put back what they covered."""
    lines = wrap(words[:1].upper() + words[1:])
    if len(lines) > max_rows:
        lost(" ".join(lines[max_rows:]))
        lines = lines[:max_rows]
    first = S.MESSAGE_ROW - len(lines)
    for i, line in enumerate(lines):
        basic.print_at(first + i, 0, line.ljust(S.COLS), WARNING)
    basic.print_at(S.MESSAGE_ROW, 0, "Press ENTER".ljust(S.COLS), S.MESSAGE)
    basic.beep(*BAD_KEY)
    yield from basic.wait_enter()
    if redraw is not None:
        redraw()


def key_char(code: int) -> str:
    return chr(code).upper() if 32 <= code < 128 else ""


# ---------------------------------------------------------------------------------------
# Y or N

def ask_yes_no(basic: Basic, question: str, row: int = S.MESSAGE_ROW,
               attr_byte: int = S.MESSAGE, enter_means: bool | None = None,
               other_keys: str = "") -> Frames:
    """Ask `question` (Y/N) on one line; Y or N in either case answers (True / False), any
    other key asks again, saying so. No ENTER is needed. `enter_means` True/False lets ENTER
    or SPACE answer too (READY?, as the 1987 program allowed); None: they are asked again.
    A letter in `other_keys` (capitals, e.g. "A") answers with itself."""
    prompt = f"{fit(question, S.COLS - 6)} (Y/N)"   # the answers always show (and click)
    basic.print_at(row, 0, prompt.ljust(S.COLS), attr_byte)
    while True:
        key = yield from basic.inkey()
        answer = key_char(key)
        if answer in ("Y", "N"):
            basic.beep(*CLICK)
            return answer == "Y"
        if answer and answer in other_keys:
            basic.beep(*CLICK)
            return answer
        if enter_means is not None and key in (CODE_ENTER, ord(" ")):
            basic.beep(*CLICK)
            return enter_means
        basic.beep(*BAD_KEY)
        again = f"Y or N? {question}"
        if len(again) > S.COLS:                  # the question whole beats the reminder
            again = prompt
        basic.print_at(row, 0, fit(again).ljust(S.COLS), attr_byte)


# ---------------------------------------------------------------------------------------
# typed numbers: the dice, the match length

DICE_PROMPT = "Dice for {who}?"


def parse_dice(text: str) -> tuple[int, int]:
    """ "31", "3 1", "3-1", "3,1" -> (3, 1). ValueError with a few words otherwise."""
    digits = [ch for ch in text if not ch.isspace() and ch not in "-,/"]
    if not digits:
        raise ValueError("Type the roll: 31")
    if not all(ch.isdigit() for ch in digits) or len(digits) != 2:
        raise ValueError("Two dice, e.g. 31")
    d1, d2 = int(digits[0]), int(digits[1])
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError("Dice show 1 to 6")
    return d1, d2


def ask_dice(basic: Basic, who: str, row: int = S.MESSAGE_ROW, prompt: str | None = None,
             allow_quit: bool = False) -> Frames:
    """"Set the dice yourself": ask the roll for `who` ("human", "computer", "white",
    "black" or any name) as "31" or "3 1"; anything else is refused with the reason and
    asked again. `prompt` replaces "Dice for <who>?". Returns (die1, die2), or "quit" when
    `allow_quit` and QUIT was typed (as at "Your move?")."""
    prompt = prompt or DICE_PROMPT.format(who=WHO_WORDS.get(who, who))
    while True:
        text = yield from basic.input(prompt, row=row)
        if allow_quit and text.strip().upper() == "QUIT":
            return "quit"
        try:
            return parse_dice(text)
        except ValueError as exc:
            basic.beep(*BAD_KEY)
            basic.print_at(row, 0, fit(f"{exc}. Press ENTER").ljust(S.COLS), S.MESSAGE)
            yield from basic.wait_enter()


MATCH_PROMPT = "Match length (1-25, U)?"


def ask_match_length(basic: Basic, row: int = PROMPT_ROW,
                     reason_row: int = REASON_ROW) -> Frames:
    """Ask for a match length: 1..25, or U (or UNLIMITED) for money play. 0, 26, "abc" or an
    empty line are refused, the reason shown on `reason_row` (two rows), and asked again.
    Returns the length or None for unlimited."""
    while True:
        text = yield from basic.input(MATCH_PROMPT, row=row)
        try:
            if not text.strip():
                raise BadMatchLength("Type a number from 1 to 25, or U for unlimited")
            length = parse_match_length(text)
        except BadMatchLength as exc:
            basic.beep(*BAD_KEY)
            show_reason(basic, str(exc), reason_row)
            continue
        clear_rows(basic, reason_row, 2)
        return length


# ---------------------------------------------------------------------------------------
# help

# Each page: a title and lines of at most 32 columns (a key's column, then its words). The
# first page is the keys at "Your move?": these lines around the command table's help lines
# (game/scenes/keys.py builds the pages and passes them to help_screens).
HELP_TYPING = [
    'At "Your move?" type + ENTER:',
    "",
    "K4 or 4K  move the man on K by 4",
    "Z3        bring a man in from",
    "          the bar (Z) with a 3",
]
HELP_QUIT = "QUIT      resign this game"
HELP_MORE = ("KEYS  (2/4)", [
    "Small or capital letters both",
    "do. Points are a to x, the bar",
    "is z. K4, 4K and z4 all work.",
    "",
    "Y or N answers a question:",
    " READY?   Y keeps your move,",
    "          N puts the men back",
    " DOUBLE?  Y takes the cube, N",
    "          drops it, A: advice",
    "",
    "Set the dice yourself (option",
    "B): type a roll as 31 or 3 1.",
    "",
    "Set up a board: O between games",
    "(at \"Press any key\"), then S:",
    " W K3  three white men on K",
    " B Z1  one black man on the bar",
    " C clears, S starts again, or a",
    " position ID; ENTER to play.",
    "",
    "2 players: White's/Black's move?",
])
HELP_MOUSE = ("MOUSE AND WINDOW  (3/4)", [
    "The mouse types what the keys",
    "would, at \"Your move?\":",
    "",
    " a point        its letter (K)",
    " the bar        Z",
    " a die          its number (4)",
    " the bottom row ENTER",
    "",
    "So K4 ENTER is three clicks.",
    "",
    "The window's own keys:",
    "",
    " F1   shows them, any key: back",
    " F9   sound off / on",
    " F10  fast / 50 Hz",
    " F11  full screen / window",
    " F12  a screenshot (PNG)",
])


def text_screen(basic: Basic, title: str, lines: Sequence[str], foot: str = "Press ENTER",
                ink: Callable[[str], int | None] | None = None,
                keys: Collection[int] = ()) -> Frames:
    """A page of up to S.PAGE_LINES lines under a title bar until ENTER or a key of `keys`
    (returned); `ink(line)` gives a line its own colour (None: the page's); the caller redraws."""
    basic.cls(PAGE)
    title_bar(basic, title)
    lines = list(lines)
    if lines[S.PAGE_LINES:]:
        lost("\n".join(lines[S.PAGE_LINES:]))
    for row, line in enumerate(lines[:S.PAGE_LINES], start=2):
        if line:
            basic.print_at(row, 0, fit(line), (ink and ink(line)) or PAGE)
    footer(basic, foot)
    while True:
        key = yield from basic.inkey()
        if key == CODE_ENTER or key in keys:
            return key


def advice_screen(basic: Basic, position: Position, dice: Sequence[int],
                  candidates: Sequence | None = None, mover_is_human: bool = True,
                  terms: MatchTerms = MONEY, names: tuple[str, str] = DEFAULT_NAMES,
                  foot: str = "Press ENTER", keys: Collection[int] = ()) -> Frames:
    """The A command: "Thinking..." for a frame, then level 5's best plays (game/commands.py
    advice_lines) with each side's chances (`names`: the mover's first) on a page until ENTER
    or one of `keys` (returned). `candidates` (Candidates or (play, equity) pairs) skip the
    evaluator; `terms` (the mover's MatchTerms) ranks them for the match score."""
    from game import commands
    basic.print_at(S.MESSAGE_ROW, 0, "Thinking...".ljust(S.COLS), S.MESSAGE)
    yield
    lines = commands.advice_lines(position, dice, candidates=candidates,
                                  mover_is_human=mover_is_human, terms=terms, names=names)
    return (yield from text_screen(basic, "ADVICE", lines, foot, ink=chances.ink_of, keys=keys))


def cube_advice_screen(basic: Basic, lines: Sequence[str], foot: str = "Press ENTER",
                       keys: Collection[int] = ()) -> Frames:
    """A at a cube question ("Thinking..." shown by the caller): the evaluator's view of the
    cube (game/commands.py cube_advice_lines) on a page until ENTER or one of `keys`."""
    return (yield from text_screen(basic, "CUBE ADVICE", lines, foot, keys=keys))


def help_screens(basic: Basic, pages: Sequence[tuple[str, Sequence[str]]]) -> Frames:
    """Every key and command, a page of (title, lines) at a time; ENTER turns each page.
    The caller redraws."""
    for number, (title, lines) in enumerate(pages):
        last = number == len(pages) - 1
        yield from text_screen(basic, title, lines,
                               "ENTER to go back" if last else "ENTER for the next page")


# ---------------------------------------------------------------------------------------
# the score

GAMES_SHOWN = 6


def _name(match: Match, side: str, form: int = 0) -> str:
    """A side as the score pages name it: SCREEN_NAMES[side][form] against the computer,
    else the record's name (White, Black), with " is" for form 2."""
    if side in SCREEN_NAMES:
        return SCREEN_NAMES[side][form]
    name = match.record.names.get(side, side.capitalize())
    return f"{name} is" if form == 2 else name


def score_lines(match: Match) -> list[str]:
    """The score page's lines below its title: the match, both scores, the cube, the
    Crawford rule, then the last games."""
    lines = ["MONEY PLAY" if match.is_money else f"MATCH TO {match.length} POINTS", ""]
    for side in match.sides:
        text = f"{_name(match, side):<12}{match.score[side]:>4}"
        away = match.away(side)
        if away is not None and not match.is_over:
            text += f"   needs {away}"
        lines.append(text)
    lines.append("")
    if match.is_money:
        lead = match.balance(match.sides[0])
        if lead:
            ahead = match.sides[0] if lead > 0 else match.sides[1]
            lines.append(f"{_name(match, ahead, 2)} {abs(lead)} ahead")
        else:
            lines.append("All square")
    if not match.cube_enabled:
        lines.append("No doubling cube")
    elif match.in_game:
        owner = "in the middle" if match.cube_owner is None else \
            f"owned by {_name(match, match.cube_owner, 1)}"
        lines.append(f"Cube {match.cube_value}, {owner}")
    if match.crawford_game:
        lines.append("The Crawford game: no doubling")
    elif match.post_crawford and not match.is_over:
        lines.append("After Crawford: doubling again")
    if match.results:
        lines += ["", "GAME  WINNER      HOW     POINTS"]
        first = max(0, len(match.results) - GAMES_SHOWN)
        for n, result in enumerate(match.results[first:], start=first + 1):
            how = kind_column(result.kind)
            lines.append(fit(f"{n:>3}   {_name(match, result.winner):<11} "
                             f"{how:<10}{result.points:>3}"))
    return lines


def score_screen(basic: Basic, match: Match) -> Frames:
    """The S command: the score of the match (or money play) on its own screen; ENTER
    returns. The caller redraws the board."""
    basic.cls(PAGE)
    title_bar(basic, "SCORE")
    for row, line in enumerate(score_lines(match)[:S.PAGE_LINES], start=2):
        attr_byte = BIG if row in (4, 5) else PAGE
        basic.print_at(row, 0, line.ljust(S.COLS) if attr_byte == BIG else line, attr_byte)
    footer(basic, "Press ENTER")
    yield from basic.wait_enter()


MATCH_OVER_FOOT = "ENTER: new match  T: the dice"


def match_over_screen(basic: Basic, match: Match, dice_pages: Callable[[], Frames] | None = None,
                      tune: bool = True) -> Frames:
    """The end of a match: who won and the final score, a tune, then ENTER. `dice_pages`:
    a generator function, shown on T (the dice on trial), after which the page is back
    (without the tune). Returns the winning side."""
    winner = match.winner or max(match.sides, key=lambda s: match.score[s])
    loser = match.other(winner)
    if match.is_money:                          # a series at the most a save holds
        verdict = "THE SERIES IS OVER"
    elif winner == "human":
        verdict = "YOU WIN THE MATCH"
    elif winner == "computer":
        verdict = "I WIN THE MATCH"
    else:
        verdict = f"{_name(match, winner).upper()} WINS THE MATCH"
    basic.cls(PAGE)
    title_bar(basic, "MATCH OVER")
    basic.print_at(6, 0, " " * S.COLS, BIG)
    basic.print_at(7, 0, verdict.center(S.COLS), BIG)
    basic.print_at(8, 0, " " * S.COLS, BIG)
    won = match.score[winner]
    basic.print_at(10, 0, f"{won} point{'s' * (won != 1)} to {match.score[loser]}"
                   .center(S.COLS), PAGE)
    length = f"a match to {match.length}" if match.length else "money play"
    games = len(match.results)
    basic.print_at(12, 0, f"{length}, {games} game{'s' * (games != 1)}".center(S.COLS), PAGE)
    footer(basic, "Press ENTER for a new match" if dice_pages is None else MATCH_OVER_FOOT)
    for ms, hz in (LAMENT if winner == "computer" else FANFARE) if tune else ():
        basic.beep(ms, hz)
    while True:
        key = yield from basic.inkey()
        if key == CODE_ENTER:
            return winner
        if dice_pages is not None and key_char(key) == "T":
            basic.beep(*CLICK)
            yield from dice_pages()
            return (yield from match_over_screen(basic, match, dice_pages, tune=False))
