"""The game review on the Spectrum screen: progress while level 5 looks at the game (any key
stops it, keeping what is done), a summary page (errors, luck, rating per side; X writes the
game's .sgf), then each decision on the board: the position and dice, the play made, level
5's best, the loss and its mark. Generators (one yield = one frame) for the game flow; the
judging is game/analysis/judge.py, the file game/matchfiles/sgf.py."""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from game.analysis import judge as R
from game.analysis.checking import ROLL_GAMES
from game.analysis.verdicts import CubeReview, MoveReview, Review, SideSummary, unproven
from game.board import message_rows
from game.board import screen as S
from game.board.lines import fit, rom_text, wrap
from game.chances import chances_line, ink_of
from game.commands import advice_lines, cube_advice_lines, play_text
from game.errors import BackgammonError
from game.files.settings import export_folder
from game.interfaces import Frames
from game.matchfiles import matfile, sgf
from game.model import evaluator
from game.model.position import Position
from game.model.record import MatchRecord
from game.pages import rollout_pages
from game.pages.menus import (
    BAD_KEY,
    CLICK,
    PAGE,
    clear_rows,
    footer,
    show_reason,
    text_screen,
    title_bar,
)
from game.words import SIDE_NAMES, say
from game.zx.basic import CODE_ENTER, Basic
from spectrum.safe_write import PathLike

# A review page's decision: a play (MoveReview, kind "move") or a cube action (CubeReview),
# told apart by isinstance where a play's own fields are read
Item = MoveReview | CubeReview

BAR_ROW, BAR_COL, BAR_CELLS = 10, 1, 30          # the progress bar: 30 cells on row 10
HEADLINE_ROW = S.BOTTOM_FIRST_ROW - 1             # across the board between its halves
NEXT_KEYS = (CODE_ENTER, ord(" "), ord("n"), ord("N"))
BACK_KEYS = (ord("b"), ord("B"), ord("p"), ord("P"))
SUMMARY_KEYS = (ord("s"), ord("S"))
SIDES_KEYS = (ord("c"), ord("C"))
QUIT_KEYS = (ord("q"), ord("Q"), ord("0"))
RESUME_KEYS = (ord("r"), ord("R"))
EXPORT_KEYS = (ord("x"), ord("X"))
EXPORT_ROW = S.ROWS - 3                         # the summary page's line for the file's name
BAR_FULL = S.attr(S.WHITE, S.BLUE, bright=True)
BAR_EMPTY = S.attr(S.BLACK, S.WHITE)
MARK_ATTR = {"": S.attr(S.BLACK, S.WHITE, bright=True),
             "?": S.attr(S.BLACK, S.YELLOW, bright=True),
             "??": S.attr(S.WHITE, S.RED, bright=True)}
# a wrong key shows the keys, all at once (message_rows) until the next key
KEYS_HELP = ("ENTER next  B back  Q end", "S summary  C one side/both",
             "A the plays' chances  R roll out")
NAME_CHARS = 8                                  # of a player's name on the pages
FIGURES_KEYS = (ord("a"), ord("A"))


def side_word(side: str, names: dict | None = None) -> str:
    """You / Me for our own games; else the player's name from `names` (an imported
    match's), cut to NAME_CHARS."""
    return SIDE_NAMES.get(side) or rom_text((names or {}).get(side, side.capitalize()))[:NAME_CHARS]


def board_view(position: Position, bottom_on_roll: bool) -> S.BoardView:
    """What the screen shows of a position (its mover on roll): the bottom side is white."""
    return S.view_of(position if bottom_on_roll else position.swapped())


# ---- the words of a page -------------------------------------------------------------

def _fit(left: str, right: str) -> str:
    """`left` and `right` on one 32-column line, the right part kept whole."""
    room = S.COLS - len(right) - 1
    return fit(left[:room].ljust(room) + " " + right)


def _judged(item: Item, bottom: str, names: dict | None) -> tuple[str, str]:
    """(who did what, the mark and the equity given away): "5 You 55: m5 m5 h5 h5" and
    "?? -0.163 -4.1%". The name is side_word's (NAME_CHARS at most), the play every step."""
    who = side_word(item.side, names)
    if isinstance(item, MoveReview):
        made = play_text(item.played.play, item.side == bottom)
        left = f"{item.number} {who} {item.dice[0]}{item.dice[1]}: {made}"
    else:
        left = f"{item.number} {who}: {item.kind}"
    if isinstance(item, MoveReview) and item.forced:
        right = "forced"
    elif unproven(item):
        right = "no error"
    elif item.loss == 0:
        right = "best" if item.kind == "move" else "right"
    else:
        right = f"{item.mark} -{item.loss:.3f}".strip()
        if item.mwc_loss is not None:                  # match play: EMG, the MWC beside
            right += f" {-item.mwc_loss:.1f}%"
    return left, right


def _best_words(item: Item, bottom: str) -> tuple[str, list[str]]:
    """The message line's parts: level 5's best play (or the proper cube action), then the
    depth and the luck, longest form first; the depth always in words, "2-ply", as the A
    page and the rollout pages say it."""
    if not isinstance(item, MoveReview):
        return f"Proper: {item.proper}", []
    best = "The best play." if item.loss == 0 and not unproven(item) else \
        f"Best {play_text(item.best.play, item.side == bottom)}"
    if item.best.ply >= evaluator.ROLLED_OUT_PLY:    # rolled out: the check row says so
        return best, [f"luck {item.luck:+.2f}"]
    return best, [f"{item.best.ply}-ply luck {item.luck:+.2f}", f"{item.best.ply}-ply"]


def page_lines(item: Item, bottom: str, names: dict | None = None) -> tuple[str, str]:
    """(the headline across the board, the message line) of a decision's page, each whole
    in its 32 columns. The headline says who did what, the mark and the equity given away;
    the message line level 5's best play (or proper cube action), the depth every play of
    the roll was judged at, and the luck. When the headline cannot hold the play whole
    beside its figures (a double's four steps, a long name, match play's MWC), the figures
    move to the front of the message line, and the depth and the luck follow there as far
    as they fit (the summary keeps the luck; a depth with no room here goes on the row
    above, message_lines)."""
    left, right = _judged(item, bottom, names)
    best, extras = _best_words(item, bottom)
    if len(left) + 1 + len(right) <= S.COLS:
        head, message = _fit(left, right), best
        if extras:
            tail = next((e for e in extras if len(best) + 1 + len(e) <= S.COLS), "")
            message = _fit(best, tail) if tail else best
        return head, message
    mark, figures = (right.split(" ", 1) + [""])[:2] if item.mark else ("", right)
    head = _fit(left, mark) if mark else left
    message = f"{figures} {best}".strip()
    for extra in extras:
        if len(message) + 1 + len(extra) <= S.COLS:
            message = _fit(message, extra)
            break
    return fit(head), fit(message)


def headline(item: Item, bottom: str, names: dict | None = None) -> str:
    """The line across the board (page_lines)."""
    return page_lines(item, bottom, names)[0]


def detail(item: Item, bottom: str, names: dict | None = None) -> str:
    """The message line (page_lines)."""
    return page_lines(item, bottom, names)[1]


def message_lines(item: Item, bottom: str, names: dict | None = None) -> list[str]:
    """The message rows of a decision's page, shown at once: how a checked error was checked
    (verdicts.Check.words: "checked -0.082 (was -0.121)"), on the row above, then the detail
    on the message line. Unchecked, what of the depth and luck the message line had no room
    for ("2-ply luck +0.35", or "luck +0.35" after its "2-ply") takes the row above; checked,
    with the checked error leading a message line that has no room for the depth, the row
    says the depth in its place ("checked 3-ply (was -0.121)")."""
    lines = [detail(item, bottom, names)]
    extras = _best_words(item, bottom)[1]
    if item.check is not None:
        check = item.check
        roomy = check.games or not extras or lines[0].endswith(tuple(extras))
        words = check.words() if roomy else f"checked {check.ply}-ply (was {-check.quick:+.3f})"
        lines.insert(0, fit(words, message_rows.ROW_COLS))
    elif extras and not lines[0].endswith(extras[0]):
        depth, both = extras[1], extras[0]
        lines.insert(0, both[len(depth) + 1:] if lines[0].endswith(depth) else both)
    return lines


def summary_lines(review: Review, total: int | None = None) -> list[str]:
    """The summary page: per side, unforced moves, marks, errors, luck and rating."""
    sums = review.summary()
    a, b = review.sides
    head = f"{'':13}{side_word(a, review.names):>9}{side_word(b, review.names):>9}"

    def row(label: str, fmt: Callable[[SideSummary], str]) -> str:
        return f"{label:<13}{fmt(sums[a]):>9}{fmt(sums[b]):>9}"
    lines = [head, "",
             row("Moves", lambda s: str(s.moves)),
             row("Marked ?", lambda s: str(s.doubtful)),
             row("Marked ??", lambda s: str(s.bad)),
             row("Error/move", lambda s: f"{s.error_per_move:.3f}"),
             row("Move errors", lambda s: f"{s.move_error:.3f}"),
             row("Cube errors", lambda s: f"{s.cube_error:.3f}"),
             row("Luck", lambda s: f"{s.luck:+.3f}"),
             "",
             "Rating (GNU Backgammon's):",
             f" {side_word(a, review.names)}: {sums[a].rating}",
             f" {side_word(b, review.names)}: {sums[b].rating}"]
    if not review.complete:
        done = sum(1 for i in review.items if i.kind == "move")
        lines += ["", f"Stopped: {done} of {total} turns" if total else "Stopped early",
                  "looked at. R carries on."]
    if review.match_play:
        lines[8:8] = [row("MWC lost", lambda s: f"{s.mwc_error:.1f}%")]
        lines += ["", "Errors and luck in EMG (GNU",
                  "Backgammon's equivalent money", "game units)."]
    elif any(i.terms.past_table for i in review.items):
        lines += ["", "The match is past the match", "table: judged as money play."]
    return lines


def figures_lines(item: Item, bottom: str, sides: Sequence[str]) -> list[str]:
    """A on a move page: level 5's best plays with their equities and each side's chances
    (commands.advice_lines), then the play made, if it is not among them, with its own; on
    a cube page, the cube advice for the decision (commands.cube_advice_lines) in the units
    of the terms it was judged at (a score past the match table: money play, said), and
    whether its figures are a rollout's (the check's)."""
    other = sides[1] if item.side == sides[0] else sides[0]
    if not isinstance(item, MoveReview):
        doubler = item.side if item.kind in ("double", "no double") else other
        lines = cube_advice_lines(item.decision, say("who", doubler),
                                  offered=item.kind in ("take", "drop"),
                                  terms=item.terms, per_unit=item.terms.scale > 1)
        if item.check is not None and item.check.games:
            lines += ["", f"Rolled out: {item.check.games:,} games."]
        past = ["", "The score is past the match", "table: judged as money play."]
        return lines + past if item.terms.past_table else lines
    mine = item.side == bottom
    lines = advice_lines(item.before, item.dice, candidates=item.candidates,
                         count=len(item.candidates), mover_is_human=mine, terms=item.terms,
                         names=(side_word(item.side), side_word(other)))
    listed = [c.play.after for c in item.candidates]
    if item.played.play.after in listed:
        return lines + ["", f"Played: {listed.index(item.played.play.after) + 1}."]
    played = item.played
    words = play_text(played.play, mine)[:11]
    with_chances = all(c.chances is not None for c in item.candidates)
    end = 2 + 2 * len(item.candidates) if with_chances else \
        2 + len(item.candidates)
    behind = played.equity - item.best.equity if item.loss else 0.0  # the list's units
    made = [f"Played{' (' + item.mark + ')' if item.mark else ''}:",
            f"   {words:<11} {played.equity:+.3f} ({behind:+.3f})"]
    if played.chances is not None:
        made.append(chances_line(played.chances))
    return lines[:end] + made + lines[end:]


def shown_items(review: Review, sides: Sequence[str]) -> list:
    """The decisions worth a page: the moves and cube actions of `sides`; a turn without a
    double only when it was a mistake."""
    return [i for i in review.items if i.side in sides
            and not (i.kind == "no double" and i.loss == 0)]


# ---- drawing ------------------------------------------------------------------------

def draw_progress(basic: Basic, game_number: int, done: int, total: int) -> None:
    filled = BAR_CELLS * done // total if total else 0
    basic.print_at(BAR_ROW, BAR_COL, " " * filled, BAR_FULL)
    basic.print_at(BAR_ROW, BAR_COL + filled, " " * (BAR_CELLS - filled), BAR_EMPTY)
    basic.print_at(BAR_ROW + 2, 0, f"Turn {done} of {total}".center(S.COLS), PAGE)


def progress_page(basic: Basic, game_number: int, total: int, checked: bool = False) -> None:
    basic.cls(PAGE)
    title_bar(basic, "REVIEW")
    basic.print_at(4, 0, f"Looking at game {game_number}".center(S.COLS), PAGE)
    basic.print_at(5, 0, "move by move.".center(S.COLS), PAGE)
    if checked:
        basic.print_at(7, 0, "Each error is checked at 3 plies".center(S.COLS), PAGE)
        basic.print_at(8, 0, "before it is charged.".center(S.COLS), PAGE)
    draw_progress(basic, game_number, 0, total)
    footer(basic, "Any key stops")


def draw_item(screen: S.Screen, item: Item, bottom: str, names: dict | None = None) -> None:
    """The board before the decision, the dice thrown (for a move), the cube, the words."""
    screen.draw_board(board_view(item.before, item.side == bottom
                                 if item.kind in ("move", "no double", "double")
                                 else item.side != bottom))
    if isinstance(item, MoveReview):
        black = item.side != bottom
        screen.draw_dice(item.dice[0], item.dice[1], black, black)
    if item.cube_owner is not None:      # a centred cube would sit under the headline
        screen.draw_cube(item.cube_value, "human" if item.cube_owner == bottom else "computer")
    head, message = page_lines(item, bottom, names)
    screen.text(HEADLINE_ROW, 0, head.ljust(S.COLS), MARK_ATTR[item.mark])
    screen.message(message)


# ---- the whole review --------------------------------------------------------------

def compute(basic: Basic, reviewer: R.Reviewer) -> Frames:
    """Run the reviewer one turn a frame with the progress bar; a key stops it (kept).
    Returns None when done or stopped, or the words of an evaluator's refusal."""
    progress_page(basic, reviewer.game.number, reviewer.total, reviewer.checked)
    basic.take_key()                                  # a key from before does not stop it
    steps = reviewer.steps()
    while True:
        yield
        if basic.take_key() is not None:
            reviewer.stop()
            steps.close()                             # the threads end; judged turns kept
            basic.beep(*CLICK)
            return None
        try:
            done, total = next(steps)
        except StopIteration:
            return None
        except BackgammonError as exc:
            return str(exc)
        draw_progress(basic, reviewer.game.number, done, total)


def refuse(basic: Basic, words: str) -> Frames:
    """A review that cannot be made: the reason on a page, then ENTER."""
    basic.beep(*BAD_KEY)
    yield from text_screen(basic, "REVIEW", [""] + wrap(words))


def review_screen(basic: Basic, screen: S.Screen, record: MatchRecord,
                  game_number: int | None = None, cube: bool = True,
                  show_all: bool = False, level: int = R.REVIEW_LEVEL,
                  export_dir: PathLike | None = None, checked: bool = True,
                  roll_games: int = ROLL_GAMES) -> Frames:
    """R: review a game of `record` (the last by default) and show it; Q (or 0) ends. The
    review shows the first side's decisions (the human's), or both with `show_all`; C turns
    the other side's on and off. X on the summary writes the .sgf into `export_dir` (None:
    where the .mat export goes). `checked`: the Review option, CHECKED (each charged error
    judged again at 3 plies, its rollout checks of `roll_games`) or QUICK. Returns the Review
    (complete or as far as it went), or None when the game cannot be reviewed (the reason was
    shown). The caller redraws."""
    try:
        reviewer = R.Reviewer(record, game_number, level=level, cube=cube, checked=checked,
                              roll_games=roll_games)
    except (BackgammonError, ValueError) as exc:
        yield from refuse(basic, str(exc))
        return None
    bottom = record.sides[0]
    sides = record.sides if show_all else (bottom,)
    while True:
        trouble = yield from compute(basic, reviewer)
        if trouble:
            yield from refuse(basic, f"The review stopped: {trouble}")
        key = yield from summary_page(basic, reviewer, export_dir)
        if key in RESUME_KEYS and not reviewer.review.complete and not trouble:
            continue
        if key in QUIT_KEYS:
            return reviewer.review
        result = yield from browse(basic, screen, reviewer, bottom, sides)
        if result == "quit":
            return reviewer.review
        if result == "sides":
            sides = record.sides if len(sides) == 1 else (bottom,)


def choose_game(basic: Basic, record: MatchRecord, row: int = S.MESSAGE_ROW) -> Frames:
    """Between games, R: which finished game of the match to review. One finished game is
    taken at once; of several, the number is typed (ENTER: the last, Q: none). With none
    finished yet the reason is shown (ENTER). Returns the game's number or None."""
    finished = [g.number for g in record.games if g.finished]
    if not finished:
        yield from refuse(basic, "No game of this match has been finished yet. Play one to "
                                 "the end; then R reviews it.")
        return None
    if len(finished) == 1:
        return finished[0]
    prompt = f"Review game {finished[0]}-{finished[-1]} (ENTER {finished[-1]})?"
    while True:
        text = (yield from basic.input(prompt, row=row)).strip().upper()
        if not text:
            return finished[-1]
        if text == "Q":
            return None
        if text.isdigit() and int(text) in finished:
            return int(text)
        basic.beep(*BAD_KEY)
        show_reason(basic, f"There is no finished game {text[:8]}. Type {finished[0]} to "
                           f"{finished[-1]}; ENTER for the last, Q for none.", row - 3)


def summary_page(basic: Basic, reviewer: R.Reviewer,
                 export_dir: PathLike | None = None) -> Frames:
    """The summary; returns the key that leaves it (ENTER: the moves, Q: the end, R: carry
    on when stopped). X writes the game's .sgf and .mat (export) and stays."""
    basic.cls(PAGE)
    title_bar(basic, f"REVIEW OF GAME {reviewer.game.number}")
    for row, line in enumerate(summary_lines(reviewer.review, reviewer.total), start=2):
        if row < S.ROWS - 1:
            basic.print_at(row, 0, fit(line), PAGE)
    footer(basic, "ENTER: moves  X: save  Q: end")
    while True:
        key = yield from basic.inkey()
        if key in NEXT_KEYS + QUIT_KEYS + RESUME_KEYS:
            basic.beep(*CLICK)
            return key
        if key in EXPORT_KEYS:
            basic.beep(*CLICK)
            yield from export(basic, reviewer, export_dir)
            continue
        basic.beep(*BAD_KEY)


def export(basic: Basic, reviewer: R.Reviewer, export_dir: PathLike | None = None) -> Frames:
    """X: the game with its analysis so far as GNU Backgammon's .sgf, and the game alone as a
    Jellyfish .mat of the same name (not for a game from a set-up board: a .mat cannot hold
    its start), in the folder the match's .mat export uses; the name and the folder (or why
    not) on the summary page. Returns the paths written, or None."""
    basic.print_at(EXPORT_ROW, 0, "Writing the .sgf and .mat...".center(S.COLS), PAGE)
    yield
    try:
        folder = export_folder(export_dir)
        path = sgf.export_review(reviewer.record, reviewer.review, folder)
        mat = None if reviewer.game.start else matfile.write_mat(
            reviewer.record, os.path.splitext(path)[0] + ".mat", games=[reviewer.game.number])
    except OSError as exc:
        show_reason(basic, f"Not saved: {exc.strerror or exc}", EXPORT_ROW, 2)
        return None
    clear_rows(basic, EXPORT_ROW, 2)
    folder = os.path.dirname(os.path.abspath(path))
    where = folder if len(folder) < S.COLS - 3 else "..." + folder[-(S.COLS - 7):]
    kinds = ".sgf/.mat" if mat else ".sgf only"
    basic.print_at(EXPORT_ROW, 0, fit(f"{os.path.splitext(os.path.basename(path))[0]}"
                                      f"{kinds}").center(S.COLS), PAGE)
    basic.print_at(EXPORT_ROW + 1, 0, fit(f"in {where}").center(S.COLS), PAGE)
    return (path, mat) if mat else (path,)


def browse(basic: Basic, screen: S.Screen, reviewer: R.Reviewer, bottom: str,
           sides: Sequence[str]) -> Frames:
    """Decision by decision on the board; returns "quit", "summary" or "sides"."""
    items = shown_items(reviewer.review, sides)
    if not items:
        clear_rows(basic, S.ROWS - 3, 2)
        basic.print_at(S.ROWS - 3, 0, "Nothing to show for this side.", PAGE)
        yield from basic.pause(100)
        return "summary"
    at, pending = 0, None
    while True:
        draw_item(screen, items[at], bottom, reviewer.review.names)
        lines = message_lines(items[at], bottom, reviewer.review.names)
        if len(lines) > 1:              # how it was checked, on the row above, at once
            message_rows.show(screen, lines)
        key = pending if pending is not None else (yield from basic.inkey())
        pending = None
        if key in NEXT_KEYS:
            if at == len(items) - 1:
                return "summary"
            at += 1
        elif key in BACK_KEYS:
            at = max(0, at - 1)
        elif key in SUMMARY_KEYS:
            return "summary"
        elif key in SIDES_KEYS:
            return "sides"
        elif key in QUIT_KEYS:
            return "quit"
        elif key in FIGURES_KEYS:
            basic.beep(*CLICK)
            yield from text_screen(basic, f"REVIEW: TURN {items[at].number}",
                                   figures_lines(items[at], bottom, reviewer.record.sides),
                                   ink=ink_of)
            continue
        elif key in rollout_pages.ROLL_KEYS:
            basic.beep(*CLICK)
            yield from roll_out(basic, screen, items[at], bottom, reviewer.record.sides,
                                reviewer.review.names)
            continue
        else:                           # the keys, over the board's foot, till a key
            basic.beep(*BAD_KEY)
            message_rows.show(screen, list(KEYS_HELP))
            pending = yield from basic.inkey()      # acted on as if typed on the page
            continue
        basic.beep(*CLICK)


def roll_out(basic: Basic, screen: S.Screen, item: Item, bottom: str, sides: Sequence[str],
             names: dict | None = None) -> Frames:
    """R on a move page: the decision rolled out (game/pages/rollout_pages.py), a cube
    decision at the terms the review judged it; a forced move has nothing to roll out.
    `names`: an imported match's players (side_word)."""
    screen.message("Thinking...")
    yield
    other = sides[1] if item.side == sides[0] else sides[0]
    on_roll = item.side if item.kind in ("move", "double", "no double") else other
    off_roll = other if on_roll == item.side else item.side
    words = (side_word(on_roll, names), side_word(off_roll, names))
    try:
        job = rollout_pages.review_job(item, bottom, words)
    except BackgammonError as exc:
        job, why = None, str(exc)
    else:
        why = "A forced move: nothing to roll out"
    if job is None:
        screen.message(fit(why))
        yield from basic.pause(100)
        return
    yield from rollout_pages.roll_out(basic, job)
