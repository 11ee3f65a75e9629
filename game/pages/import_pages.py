"""`--review FILE`: the review of a match played elsewhere, on the Spectrum screen. A page lists
the file's games (number, score, Crawford, who won what and how), the player types the number
of one and it is reviewed with the pages of our own games' review (pages.py: the moves, ? and
??, the luck, the ratings, the cube; X writes the analysed .sgf); Q on the list ends. Not the
reading of the file (imports.py) and not the judging."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from game.analysis.checking import ROLL_GAMES
from game.analysis.judge import REVIEW_LEVEL
from game.board import screen as S
from game.board.lines import fit, rom_text, wrap
from game.interfaces import Frames
from game.matchfiles.imports import Imported, read_match_file
from game.model.record import GameRecord
from game.pages.menus import BAD_KEY, PAGE, WARNING, show_reason, title_bar
from game.pages.review_pages import review_screen
from game.zx.basic import Basic
from spectrum.safe_write import PathLike

NAME_CHARS = 10                    # of a player's name in the list
LIST_ROW = 7                       # the first game's row
GAMES_PER_PAGE = 11                # rows 7..17
LEGEND_ROW = LIST_ROW + GAMES_PER_PAGE
PROBLEM_ROW = LEGEND_ROW + 1       # three rows for what is wrong with the file
PROBLEM_ROWS = 3
HELP_ROW = S.MESSAGE_ROW - 1
HOW_WORDS = {"single": "", "gammon": "gammon", "backgammon": "backgammon",
             "drop": "(drop)", "resign": "(resign)"}


def short(name: str, chars: int = NAME_CHARS) -> str:
    """A player's name in the ROM's letters (é as e), cut to `chars` with a full stop."""
    name = rom_text(name)
    return name if len(name) <= chars else name[:chars - 1] + "."


def game_line(imported: Imported, game: GameRecord) -> str:
    """One game in the list: "  3   2-1 C Alice +2 gammon" (C: the Crawford game); the
    winner's name is cut to leave room for the points and how they were won."""
    record = imported.record
    first, second = record.sides
    left = f"{game.number:>3} {game.scores[first]:>2}-{game.scores[second]:<2} " \
           f"{'C' if game.crawford else ' '} "
    if game.winner is None:
        return left + "unfinished"
    won = f" +{game.points} {HOW_WORDS[game.how]}".rstrip()
    room = min(NAME_CHARS, S.COLS - len(left) - len(won))
    return fit(left + short(record.names[game.winner], room) + won)


def heading_lines(imported: Imported) -> list[str]:
    """The file, the players, the match length and how many games can be reviewed."""
    record = imported.record
    first, second = (short(record.names[s], 14) for s in record.sides)
    match = f"{record.length}-point match" if record.length else "Money play"
    count = len(record.games)
    return [fit(os.path.basename(imported.path)), f"{first} v {second}",
            f"{match}, {count} game{'s' if count != 1 else ''}", ""]


def problem_words(imported: Imported) -> str:
    """What was wrong with the file, without its name (the page shows it above)."""
    text = imported.problem or ""
    prefix = f"{imported.path}, "
    return text[len(prefix):] if text.startswith(prefix) else text


def draw_list(basic: Basic, imported: Imported, page: int) -> None:
    """The page of games `page` (GAMES_PER_PAGE a page), the problem, the keys."""
    basic.cls(PAGE)
    title_bar(basic, "REVIEW A MATCH")
    for row, line in enumerate(heading_lines(imported), start=2):
        basic.print_at(row, 0, line, PAGE)
    basic.print_at(LIST_ROW - 1, 0, " No Score   Result", PAGE)
    shown = imported.games[page * GAMES_PER_PAGE:(page + 1) * GAMES_PER_PAGE]
    for row, game in enumerate(shown, start=LIST_ROW):
        basic.print_at(row, 0, game_line(imported, game), PAGE)
    if any(g.crawford for g in shown):
        basic.print_at(LEGEND_ROW, 0, "C: the Crawford game", PAGE)
    if imported.problem:
        lines = wrap(f"Stopped at {problem_words(imported)}")[:PROBLEM_ROWS]
        for row, line in enumerate(lines, start=PROBLEM_ROW):
            basic.print_at(row, 0, line.ljust(S.COLS), WARNING)
    more = len(imported.games) > GAMES_PER_PAGE
    keys = "Number+ENTER; ENTER: more; Q" if more else "Type its number, ENTER. Q ends."
    basic.print_at(HELP_ROW, 0, keys.center(S.COLS), PAGE)


def pick_game(basic: Basic, imported: Imported, page: int = 0) -> Frames:
    """The list; returns (the game number typed, or None for Q, and the page shown)."""
    numbers = [g.number for g in imported.games]
    pages = (len(numbers) + GAMES_PER_PAGE - 1) // GAMES_PER_PAGE
    draw_list(basic, imported, page)
    prompt = f"Game ({numbers[0]}-{numbers[-1]})?" if len(numbers) > 1 else "Game (1)?"
    while True:
        text = (yield from basic.input(prompt, row=S.MESSAGE_ROW)).strip().upper()
        if text == "Q":
            return None, page
        if text.isdigit() and int(text) in numbers:
            return int(text), page
        if not text and pages > 1:
            page = (page + 1) % pages
            draw_list(basic, imported, page)
            continue
        basic.beep(*BAD_KEY)
        show_reason(basic, f"No game {text[:6]} here: type one listed" if text else
                    "Type a game's number, then ENTER", HELP_ROW, 1)


def review_program(basic: Basic, imported: Imported, export_dir: PathLike | None = None,
                   level: int = REVIEW_LEVEL, checked: bool = True,
                   roll_games: int = ROLL_GAMES) -> Frames:
    """The program of a --review run: the list, a game's review, the list again, until Q.
    A generator, one yield a frame, like game/program.py's program. `checked`: the Review
    option (each charged error checked, its rollout checks of `roll_games`)."""
    screen = S.Screen(basic.memory, basic.print_at)
    page = 0
    while True:
        number, page = yield from pick_game(basic, imported, page)
        if number is None:
            return
        yield from review_screen(basic, screen, imported.record, number, show_all=True,
                                 level=level, export_dir=export_dir, checked=checked,
                                 roll_games=roll_games)


# runner: game/main.py's Runner, a layer above (so Any); its program, basic and session
def review_instead(runner: Any, path: PathLike, say: Callable[[str], None]) -> bool:
    """--review FILE: the console's runner plays the review of the file's games instead of a
    match. What is wrong with the file is said in one line (say); False when no game of it
    can be reviewed (the window then does not open)."""
    imported = read_match_file(path)
    if imported.problem:
        say(imported.problem)
    if not imported.games:
        return False
    runner.program = review_program(runner.basic, imported, export_dir=os.getcwd(),
                                    checked=runner.session.settings.checked_review)
    return True
