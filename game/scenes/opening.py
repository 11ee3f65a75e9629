"""The opening throw (rule 1): one die each, a tie throws again, the higher die starts
and plays both; or the side the options name starts with its own throw. Not the turns."""

from game.interfaces import Frames
from game.model.match import COMPUTER, opening_throw
from game.model.position import Position
from game.pages import menus
from game.scenes.state import Game
from game.scenes.timing import OPENING_READ_FRAMES
from game.words import say

CRAWFORD_WORDS = "The Crawford game: no doubling"


def first_turn(board_game: Game) -> Frames:
    """Who moves first and with which dice (None: that side rolls its own); ('quit',
    None) when QUIT was typed for the opening dice. A game from a set-up board is recorded
    with its start, the first mover on roll (the review and the .sgf export replay it)."""
    side, dice = yield from first_side(board_game)
    state = board_game.state
    record = state.match.record
    if side != "quit" and state.position != Position.start() and record.games \
            and not record.games[-1].finished and not record.games[-1].actions:
        record.begin_from(state.held_for(side).position_id)
    return side, dice


def first_side(board_game: Game) -> Frames:
    """first_turn's choice: the opening throw, or the side the options name. The Crawford
    game is named first (no double in it: the cube stays still)."""
    who, state = board_game.table.settings.who_starts, board_game.state
    if state.match.crawford_game:
        board_game.message(CRAWFORD_WORDS)
        board_game.heard((yield from board_game.table.basic.pause(OPENING_READ_FRAMES)),
                         state.top)
    if who == "roll":
        opened = yield from opening(board_game)
        if opened == "quit":
            return "quit", None
        top_starts, top, bottom = opened
        return (state.top, (top, bottom)) if top_starts else (state.bottom, (bottom, top))
    side = state.bottom if who == "human" else state.top
    throw = opening_throw(side, state.match.sides, board_game.table.dice.die)
    return throw.first, None


def opening(board_game: Game) -> Frames:
    """One die each, the top die the computer's, the bottom the human's; a tie throws
    again after ENTER. Returns (top_starts, top, bottom), or 'quit' (QUIT for the dice)."""
    table, state = board_game.table, board_game.state
    basic = table.basic
    while True:
        board_game.message("The opening throw")
        if table.settings.set_dice:
            typed = yield from menus.ask_dice(basic, "the opening",
                                              prompt=opening_prompt(board_game), allow_quit=True)
            if typed == "quit":
                return "quit"
            top, bottom = typed
        else:
            yield from board_game.tumble()
            top, bottom = table.dice.die(), table.dice.die()
        board_game.draw_dice(top, bottom, True, False)
        board_game.happened(f"opening {top} {bottom}")
        if top != bottom:
            break
        if not any(state.typed.values()):         # the demo throws again by itself
            board_game.message("Tie: throwing again")
            board_game.heard((yield from basic.pause(OPENING_READ_FRAMES)), state.top)
            continue
        board_game.message("Tie: press ENTER to throw again")
        yield from basic.wait_enter()
    top_starts = top > bottom
    starter = state.top if top_starts else state.bottom
    board_game.message(say("starts", starter, a=max(top, bottom), b=min(top, bottom)))
    yield from basic.pause(OPENING_READ_FRAMES)
    return top_starts, top, bottom


def opening_prompt(board_game: Game) -> str:
    """Set dice at the opening throw: whose die is typed first (the top die's)."""
    state = board_game.state
    if state.top == COMPUTER:
        return "Opening: my die, yours?"
    return f"Opening: {state.top.capitalize()}'s, {state.bottom.capitalize()}'s?"
