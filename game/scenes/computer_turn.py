"""The computer's turn: its play from the chooser (USR into the C evaluator on the real
machine), checked against the rules, its men moved one by one at the options' speed, the
play left on the message line to read; D, A or (in the demo) any key heard meanwhile."""

from game.board import screen as S
from game.errors import BackgammonError
from game.interfaces import Frames
from game.model import rules
from game.model.match import COMPUTER
from game.scenes import cube
from game.scenes.state import ADVICE_KEYS, DOUBLE_KEYS, Game
from game.scenes.timing import COMPUTER_BEEP, SPEED_PAUSE, SPEED_READ
from game.words import play_words, say


def play(board_game: Game, dice: tuple[int, int], side: str) -> Frames:
    """Returns the steps played (in the mover's numbers)."""
    table, state = board_game.table, board_game.state
    bottom = side == state.bottom
    mover = state.held_for(side)                    # the computer on roll
    choice = table.chooser(mover, dice, terms=state.match.terms(side))
    legal = rules.legal_plays(mover, dice)
    if choice.after not in {other.after for other in legal}:
        choice = legal[0]                           # never show a play the rules refuse
    speed = table.settings.speed
    tag = "computer" if side == COMPUTER else side
    if not choice.steps:
        board_game.message(say("no move", side))
        board_game.happened(f"{tag} {dice[0]}{dice[1]} forfeit")
        yield from read_pause(board_game, SPEED_READ[speed], side)
        return ()
    words = play_words(choice.steps, mover_is_human=bottom)
    board_game.message(say("plays", side, words=words))
    turn = rules.Turn(mover, dice, mover_is_human=bottom)
    for step in choice.steps if speed != "instant" else ():
        yield from watch(board_game, SPEED_PAUSE[speed], side)
        try:
            after = turn.step(step.from_index, step.die)
        except BackgammonError:                     # steps in an order Turn refuses
            break
        board_game.show_for(side, after)
        table.basic.beep(*COMPUTER_BEEP)
    board_game.show_for(side, choice.after)
    board_game.happened(f"{tag} {dice[0]}{dice[1]} {words}")
    yield from read_pause(board_game, SPEED_READ[speed], side)
    return tuple(choice.steps)


def watch(board_game: Game, frames: int, side: str) -> Frames:
    """Wait while the men move, hearing keys (Game.heard)."""
    for _ in range(frames):
        yield
        board_game.heard(board_game.table.basic.take_key(), side)


def read_pause(board_game: Game, frames: int, side: str) -> Frames:
    """Time to read the play; a key cuts it short. D (the next mover may double) asks
    for a double before that side's throw, A for the cube advice then; in the demo any
    key stops it. "D doubles" (and a click on the cube) only where a double can follow:
    never after a play that ended the game. With the Tutor on, the tutor speaks next, so
    D and A leave the play on the screen for its whole time (tutor_waits)."""
    state, prompt = board_game.state, board_game.prompt
    nxt = state.match.other(side)
    if not rules.game_result(state.position) and state.typed[nxt] and not state.two_players \
            and cube.may_double(board_game, nxt):
        board_game.table.screen.text(S.MESSAGE_ROW, S.COLS - 9, "D doubles", S.MESSAGE)
        prompt.board_clicks = {"cube": "d"}
    try:
        if tutor_waits(board_game, nxt):
            yield from watch_until_key(board_game, frames, side)
            return
        if prompt.double_wanted or prompt.cube_advice_wanted or prompt.stopped:
            frames = 0                              # already answered while moving
        key = yield from board_game.table.basic.pause(frames)
        board_game.heard(key, side)
    finally:
        prompt.board_clicks = {}


def tutor_waits(board_game: Game, nxt: str) -> bool:
    """The Tutor will judge `nxt`'s cube before its throw (issue 52 item 6)."""
    return board_game.table.settings.tutor != "off" and board_game.state.typed[nxt]


def watch_until_key(board_game: Game, frames: int, side: str) -> Frames:
    """`frames` frames hearing keys (Game.heard); a key other than D or A ends them."""
    for _ in range(frames):
        yield
        key = board_game.table.basic.take_key()
        board_game.heard(key, side)
        if key is not None and key not in DOUBLE_KEYS + ADVICE_KEYS:
            return
