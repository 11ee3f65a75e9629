"""The opening throw (rule 1): one die each, a tie throws again, the higher die starts
and plays both; or the side the options name starts with its own throw. Not the turns."""
from typing import Any

from game import menus
from game.interfaces import Frames
from game.model.match import COMPUTER, opening_throw
from game.model.position import Position
from game.scenes.timing import OPENING_READ_FRAMES
from game.words import say


def first_turn(game: Any) -> Frames:
    """Who moves first and with which dice (None: that side rolls its own); ('quit',
    None) when QUIT was typed for the opening dice. A game from a set-up board is recorded
    with its start, the first mover on roll (the review and the .sgf export replay it)."""
    side, dice = yield from first_side(game)
    record = game.match.record
    if side != "quit" and game.position != Position.start() and record.games \
            and not record.games[-1].finished and not record.games[-1].actions:
        record.begin_from(game.held_for(side).position_id)
    return side, dice


def first_side(game):
    """first_turn's choice: the opening throw, or the side the options name."""
    who = game.settings.who_starts
    if who == "roll":
        opened = yield from opening(game)
        if opened == "quit":
            return "quit", None
        top_starts, top, bottom = opened
        return (game.top, (top, bottom)) if top_starts else (game.bottom, (bottom, top))
    side = game.bottom if who == "human" else game.top
    throw = opening_throw(side, game.match.sides, game.dice.die)
    return throw.first, None


def opening(game):
    """One die each, the top die the computer's, the bottom the human's; a tie throws
    again after ENTER. Returns (top_starts, top, bottom), or 'quit' (QUIT for the dice)."""
    while True:
        game.message("The opening throw")
        if game.settings.set_dice:
            typed = yield from menus.ask_dice(game.basic, "the opening",
                                              prompt=opening_prompt(game), allow_quit=True)
            if typed == "quit":
                return "quit"
            top, bottom = typed
        else:
            yield from game.tumble()
            top, bottom = game.dice.die(), game.dice.die()
        game.draw_dice(top, bottom, True, False)
        game.happened(f"opening {top} {bottom}")
        if top != bottom:
            break
        if not any(game.typed.values()):         # the demo throws again by itself
            game.message("Tie: throwing again")
            game.heard((yield from game.basic.pause(OPENING_READ_FRAMES)), game.top)
            continue
        game.message("Tie: press ENTER to throw again")
        yield from game.basic.wait_enter()
    top_starts = top > bottom
    starter = game.top if top_starts else game.bottom
    game.message(say("starts", starter, a=max(top, bottom), b=min(top, bottom)))
    yield from game.basic.pause(OPENING_READ_FRAMES)
    return top_starts, top, bottom


def opening_prompt(game) -> str:
    """Set dice at the opening throw: whose die is typed first (the top die's)."""
    if game.top == COMPUTER:
        return "Opening: my die, yours?"
    return f"Opening: {game.top.capitalize()}'s, {game.bottom.capitalize()}'s?"
