"""Between games: a game abandoned (QUIT at the opening throw) scores nothing, the demo
stopped by a key, the match-over page with its .mat export, the options between games (S
sets up a board, R reviews a finished game), and a new match when the options no longer fit
the one in progress."""

from game.board import screen as S
from game.files.export import export_match
from game.files.settings import Settings
from game.interfaces import Frames, Screen
from game.model.match import Match, sides_for
from game.pages import menus, options_page
from game.pages.dice_pages import dice_pages
from game.pages.review_pages import choose_game
from game.scenes import setup_board
from game.scenes.game_over import review_game
from game.scenes.state import Game
from game.scenes.timing import OPENING_READ_FRAMES
from game.zx.basic import Basic


def new_match(settings: Settings) -> Match:
    return Match(settings.match_length, sides=sides_for(settings.players), cube=settings.cube)


def fits(match: Match, settings: Settings) -> bool:
    """Does the match in progress still agree with the options (length, cube, players)?
    Changed in the middle of a match, they take effect from the next match. Under the 1983
    rules there is no match: each game is a new one, no score carried."""
    return (not settings.rules_1983 and match.length == settings.match_length
            and match.cube_enabled == settings.cube
            and match.sides == sides_for(settings.players))


def abandon(match: Match) -> None:
    """A game left by QUIT at its opening throw (or a stopped demo) scores nothing and
    leaves no record; QUIT later in a game is a resignation (scenes/resign.py)."""
    if not match.in_game:
        return
    match.in_game = False
    if match.crawford_game:                     # and the Crawford game is still to come
        match.crawford_game = match.crawford_done = False
    if match.record.games and not match.record.games[-1].finished:
        match.record.games.pop()
        match.game_number -= 1


def demo_over(basic: Basic, screen: S.Screen, settings: Settings) -> Frames:
    """A key stopped the computer-against-computer demo: back to human against computer."""
    screen.message("Demo over")
    settings.players = "human-computer"
    yield from basic.pause(OPENING_READ_FRAMES)


def abandoned(basic: Basic, screen: Screen) -> Frames:
    screen.message("Game abandoned. A new game...")
    yield from basic.pause(OPENING_READ_FRAMES)


def between_games(basic: Basic, screen: S.Screen, settings: Settings,
                  board_game: Game) -> Frames:
    """The options before a game, with S for setting up a board, R for reviewing a finished
    game of `board_game`'s match and T for the dice on trial (then the options again); returns the
    set-up position (human on roll) or None."""
    while True:
        out = yield from options_page.options_menu(basic, settings, offer_setup=True,
                                                   match=board_game.state.match)
        if out.setup_board:
            position = yield from setup_board.setup_board(basic, screen)
            return position
        if out.dice_trial:
            yield from dice_trial(board_game)
            continue
        if not out.review:
            return None
        number = yield from choose_game(basic, board_game.state.match.record)
        if number is not None:
            yield from review_game(board_game, number)


def dice_trial(board_game: Game) -> Frames:
    """T: the dice on trial for the match's rolls and the game's dice source."""
    table = board_game.table
    yield from dice_pages(table.basic, board_game.state.match.record, table.dice,
                          table.settings.set_dice)


def said_whole(basic: Basic, screen: Screen, words: str) -> Frames:
    """`words` on the message line for a while when they fit it, else wrapped over the rows
    above it until ENTER (menus.tell): a file's name or the reason it was not written is
    never cut."""
    if len(words) <= S.COLS:
        screen.message(words)
        yield from basic.wait(OPENING_READ_FRAMES)
    else:
        yield from menus.tell(basic, words)


def match_over(basic: Basic, screen: Screen, board_game: Game) -> Frames:
    """The match-over page (T: the dice on trial), then the offer of its .mat export."""
    yield from menus.match_over_screen(basic, board_game.state.match,
                                       lambda: dice_trial(board_game))
    if (yield from menus.ask_yes_no(basic, "Export the match (.mat)?")):
        words = export_match(board_game.state.match.record, board_game.saving.export_dir)
        yield from said_whole(basic, screen, words)
