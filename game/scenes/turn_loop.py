"""The turn loop over the scenes: one game from its opening throw (or a resumed turn) to its
end, each turn's cube and resignation questions, the throw, then the typed or the computer's
play. What the scenes share is scenes/state.py's Game; the scenes themselves are their own
modules, and what follows a game is game/program.py's."""
from __future__ import annotations

from game.board import screen as S
from game.interfaces import Frames
from game.model import rules
from game.pages import menus
from game.scenes import computer_turn, cube, human_turn, opening, resign
from game.scenes.state import Game, ThrownDice
from game.words import say


def play(board_game: Game) -> Frames:
    """Play one game; returns the match's GameResult (a resignation accepted too), or
    'quit' when QUIT was typed for the opening throw, with nothing yet at stake (or
    'stop' when a key stopped the demo)."""
    state, screen = board_game.state, board_game.table.screen
    m = state.match
    if not m.in_game:
        m.start_game()
    board_game.apply_style()
    bottom, top = m.sides
    screen.numbers = (say("who", bottom), say("who", top),
                      (m.score[bottom], m.score[top]) if m.length else None)
    screen.draw_board(S.view_of(state.position))
    board_game.draw_cube()
    board_game.prompt.cube_advice_wanted = False
    if state.resume:
        side, dice, state.replay = state.resume
        state.resume = None
        if dice:
            board_game.draw_dice(dice[0], dice[1], side == state.top)
    else:
        side, dice = yield from opening.first_turn(board_game)
        if side == "quit":
            return "quit"
    return (yield from turns(board_game, side, dice))


def turns(board_game: Game, side: str, dice: ThrownDice | None) -> Frames:
    """The turns from `side`'s (dice None: it throws its own) to the end of the game."""
    state = board_game.state
    m = state.match
    while True:
        m.start_turn(side)
        state.at = (state.position, side, dice)
        if dice is None:
            board_game.saving.autosave()          # the start of the turn
            yield from board_game.say_save_failure()
            result = yield from resign.before_throw(board_game, side, cube.before_roll)
            if result is not None:
                return result
            rolled = yield from roll(board_game, side)
            if resign.result_for(rolled) or rolled == "quit":   # QUIT for the dice
                return rolled
            dice = rolled
            state.at = (state.position, side, dice)
        m.dice_rolled()
        if state.typed[side]:                     # saved once the turn is set up
            steps = yield from human_turn.play(board_game, dice, side)
            if resign.result_for(steps) or steps == "quit":   # resigned, or the
                return steps                      # 1983 rules' QUIT: the game left
        else:
            board_game.saving.autosave()          # the computer's dice
            yield from board_game.say_save_failure()
            steps = yield from computer_turn.play(board_game, dice, side)
        m.record_move(side, dice, steps)
        kind = rules.game_result(state.position)
        if kind:
            return m.end_game(state.bottom if kind > 0 else state.top, abs(kind))
        if board_game.prompt.stopped:
            return "stop"
        side, dice = m.other(side), None
        state.turn = None


def roll(board_game: Game, side: str) -> Frames:
    """Throw two dice for a turn (or ask them, with Set dice on), in the mover's colour.
    Returns the dice, or the GameResult of a resignation (QUIT typed for them) accepted."""
    black = side == board_game.state.top
    if board_game.table.settings.set_dice:
        while True:
            typed = yield from menus.ask_dice(board_game.table.basic, side, allow_quit=True)
            if typed != "quit":
                break
            ended = yield from resign.quit_typed(board_game, side)
            if ended is not None:
                return ended
        d1, d2 = typed
    else:
        board_game.message(say("throw", side))
        yield from board_game.tumble(both_black=black)
        d1, d2 = board_game.table.dice.pair()
    board_game.draw_dice(d1, d2, black)
    return d1, d2
