"""The computer's turn: its play from the chooser (USR into the C evaluator on the real
machine), checked against the rules, its men moved one by one at the options' speed, the
play left on the message line to read; D, A or (in the demo) any key heard meanwhile."""
from typing import Any

from game.board import screen as S
from game.errors import BackgammonError
from game.interfaces import Frames
from game.model import rules
from game.model.match import COMPUTER
from game.scenes import cube
from game.scenes.timing import (
    ADVICE_KEYS,
    COMPUTER_BEEP,
    DOUBLE_KEYS,
    SPEED_PAUSE,
    SPEED_READ,
)
from game.words import play_words, say


def play(game: Any, dice: tuple[int, int], side: str) -> Frames:
    """Returns the steps played (in the mover's numbers)."""
    bottom = side == game.bottom
    mover = game.held_for(side)                     # the computer on roll
    choice = game.choose(mover, dice, terms=game.match.terms(side))
    legal = rules.legal_plays(mover, dice)
    if choice.after not in {other.after for other in legal}:
        choice = legal[0]                           # never show a play the rules refuse
    speed = game.settings.speed
    tag = "computer" if side == COMPUTER else side
    if not choice.steps:
        game.message(say("no move", side))
        game.happened(f"{tag} {dice[0]}{dice[1]} forfeit")
        yield from read_pause(game, SPEED_READ[speed], side)
        return ()
    words = play_words(choice.steps, mover_is_human=bottom)
    game.message(say("plays", side, words=words))
    turn = rules.Turn(mover, dice, mover_is_human=bottom)
    for step in choice.steps if speed != "instant" else ():
        yield from watch(game, SPEED_PAUSE[speed], side)
        try:
            after = turn.step(step.from_index, step.die)
        except BackgammonError:                     # steps in an order Turn refuses
            break
        game.show_for(side, after)
        game.basic.beep(*COMPUTER_BEEP)
    game.show_for(side, choice.after)
    game.happened(f"{tag} {dice[0]}{dice[1]} {words}")
    yield from read_pause(game, SPEED_READ[speed], side)
    return tuple(choice.steps)


def watch(game, frames: int, side: str):
    """Wait while the men move, hearing keys (Game.heard)."""
    for _ in range(frames):
        yield
        game.heard(game.basic.take_key(), side)


def read_pause(game, frames: int, side: str):
    """Time to read the play; a key cuts it short. D (the next mover may double) asks
    for a double before that side's throw, A for the cube advice then; in the demo any
    key stops it. "D doubles" (and a click on the cube) only where a double can follow:
    never after a play that ended the game. With the Tutor on, the tutor speaks next, so
    D and A leave the play on the screen for its whole time (tutor_waits)."""
    nxt = game.match.other(side)
    if not rules.game_result(game.position) and game.typed[nxt] and not game.two_players \
            and cube.may_double(game, nxt):
        game.screen.text(S.MESSAGE_ROW, S.COLS - 9, "D doubles", S.MESSAGE)
        game.board_clicks = {"cube": "d"}
    try:
        if tutor_waits(game, nxt):
            yield from watch_until_key(game, frames, side)
            return
        if game.double_wanted or game.cube_advice_wanted or game.stopped:
            frames = 0                              # already answered while moving
        key = yield from game.basic.pause(frames)
        game.heard(key, side)
    finally:
        game.board_clicks = {}


def tutor_waits(game, nxt: str) -> bool:
    """The Tutor will judge `nxt`'s cube before its throw (issue 52 item 6)."""
    return game.settings.tutor != "off" and game.typed[nxt]


def watch_until_key(game, frames: int, side: str):
    """`frames` frames hearing keys (Game.heard); a key other than D or A ends them."""
    for _ in range(frames):
        yield
        key = game.basic.take_key()
        game.heard(key, side)
        if key is not None and key not in DOUBLE_KEYS + ADVICE_KEYS:
            return
