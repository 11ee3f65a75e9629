"""QUIT in a game is a resignation (the IBA's and GNU Backgammon's rule): which one (1
single, 2 gammon, 3 backgammon, at the cube), the other side's answer (the computer's by
level 5's cubeful judgement, another person's Y or N), and the computer's own offer when it
can no longer win. Not what a resignation is worth (game/model/resignation.py)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.board import message_rows
from game.interfaces import Frames
from game.model import resignation
from game.model.match import GameResult
from game.pages import menus
from game.scenes.game_over import shown_at_once
from game.scenes.state import Game
from game.scenes.timing import OPENING_READ_FRAMES, WARNING_FRAMES
from game.words import say

KIND_KEYS = {"1": 1, "2": 2, "3": 3}
PLAY_ON_KEY = "N"
BAD_ANSWER = "Type 1, 2, 3 or N"
TYPED_ON = "UIT\r"               # the rest of QUIT begun with Q during the computer's play


def question_lines(cube_value: int) -> list[str]:
    """The question, shown all at once in the rows the board spares during play
    (message_rows.PLAY_ROWS: its bottom letters' row, 28 columns, and the message line, 32),
    so no point or man is covered: the question and N above (with the cube turned, its
    value: each answer is 1, 2 or 3 times it), the answers' keys on the message line."""
    cube = f" (cube {cube_value})" if cube_value > 1 else ""
    return [f"Resign{cube}? N plays on", "1 single, 2 gammon, 3 backgammon"]


def points_said(points: int) -> str:
    return f"{points} pt{'s' * (points != 1)}"


def ask_kind(board_game: Game, ignored: str = "") -> Frames:
    """1, 2 or 3 (the resignation chosen), or None for N (play on). Any other key says
    BAD_ANSWER and asks again, but for the keys in `ignored` (capitals; \\r is ENTER). The
    board's rows the question covered are put back after the answer."""
    screen = board_game.table.screen
    lines = question_lines(board_game.state.match.cube_value)
    kept = message_rows.keep(screen, len(lines))
    try:
        return (yield from _kind_asked(board_game, lines, ignored))
    finally:
        message_rows.put_back(screen, kept)


def _kind_asked(board_game: Game, lines: list[str], ignored: str) -> Frames:
    basic, screen = board_game.table.basic, board_game.table.screen
    key = yield from shown_at_once(basic, screen, lines)
    while True:
        char = menus.key_char(key) if key is not None else ""
        if key is not None and (char or chr(key)) in ignored:
            key = yield from shown_at_once(basic, screen, lines)
            continue
        if char in KIND_KEYS:
            basic.beep(*menus.CLICK)
            return KIND_KEYS[char]
        if char == PLAY_ON_KEY:
            basic.beep(*menus.CLICK)
            return None
        if key is not None:
            basic.beep(*menus.BAD_KEY)
            screen.message(BAD_ANSWER)
            key = yield from basic.pause(WARNING_FRAMES)
            if key is not None:
                continue
        key = yield from shown_at_once(basic, screen, lines)


def resigner_for(board_game: Game, prompt_side: str) -> str:
    """Who resigns when QUIT is typed at `prompt_side`'s prompt: that side when a person
    plays it, else the person (the dice asked for the computer with Set dice on)."""
    return prompt_side if board_game.state.typed[prompt_side] else board_game.state.bottom


def before_throw(board_game: Game, side: str,
                 cube_stop: Callable[[Game, str], Frames]) -> Frames:
    """Before `side`'s throw: the question for Q typed while the computer played or at
    "ENTER rolls, D doubles" (when a person plays `side`), or the computer's own offer;
    then `cube_stop` (cube.before_roll), and the question again when Q ended that stop.
    Returns the GameResult of a resignation or a drop, or None: the dice are thrown."""
    prompt, typed = board_game.prompt, board_game.state.typed
    while True:
        if prompt.resign_wanted and typed[side]:
            prompt.resign_wanted = False
            result = yield from quit_typed(board_game, side, ignored=TYPED_ON)
        else:
            result = yield from computer_offer(board_game, side)
        if result is None:
            result = yield from cube_stop(board_game, side)
        if result is not None or not (prompt.resign_wanted and typed[side]):
            return result


def quit_typed(board_game: Game, prompt_side: str, dice: tuple[int, int] | None = None,
               ignored: str = "") -> Frames:
    """QUIT at a prompt in a game in progress: the question, then the other side's answer.
    Returns the match's GameResult when a resignation was accepted; None and play goes on
    from where it stopped (`dice`: the thrown dice of the turn being typed, if any). Under
    the 1983 rules there is no resignation: 'quit', the card's QUIT, which ends the game."""
    if board_game.table.settings.rules_1983:
        return "quit"
    resigner = resigner_for(board_game, prompt_side)
    kind = yield from ask_kind(board_game, ignored)
    if kind is None:
        return None
    basic, match = board_game.table.basic, board_game.state.match
    accepter = match.other(resigner)
    points = points_said(kind * match.cube_value)
    if board_game.state.typed[accepter]:
        question = say("resigns, accept?", resigner, points=points)
        accepted = yield from menus.ask_yes_no(basic, question)
    else:
        accepted = computer_accepts(board_game, resigner, kind, dice)
        board_game.message(say("accepts" if accepted else "plays on", accepter))
        yield from basic.pause(OPENING_READ_FRAMES)
    if not accepted:
        board_game.happened(f"{resigner} resigns {points}, declined")
        return None
    board_game.happened(f"{resigner} resigns {points}, accepted")
    return match.resign(resigner, kind, dice)


def computer_accepts(board_game: Game, resigner: str, kind: int,
                     dice: tuple[int, int] | None) -> bool:
    """Level 5's cubeful judgement: the resignation is worth at least playing on, for the
    side it is offered to (money: points; a match: the match winning chance)."""
    state = board_game.state
    match = state.match
    accepter = match.other(resigner)
    on_roll = match.on_roll or resigner
    turn = state.turn if dice is not None and state.turn is not None else None
    position = turn.start if turn is not None else state.held_for(on_roll)
    equity = resignation.on_roll_equity(
        position, turn.dice if turn is not None else None, match.terms(on_roll))
    mine = equity if on_roll == accepter else -equity
    return resignation.accepts(kind, match.terms(accepter), mine)


def computer_offer(board_game: Game, side: str) -> Frames:
    """Before the computer's (`side`'s) throw: when it can no longer win and its result is
    certain, it offers that resignation once a game; the person answers Y (the game ends)
    or N (play on). Returns the GameResult or None."""
    table, state, prompt = board_game.table, board_game.state, board_game.prompt
    match = state.match
    person = match.other(side)
    if state.typed[side] or not state.typed[person] or prompt.resign_offered \
            or table.settings.rules_1983:
        return None
    kind = resignation.certain_loss(state.held_for(side))
    if kind is None:
        return None
    prompt.resign_offered = True
    points = points_said(kind * match.cube_value)
    question = say("resigns, accept?", side, points=points)
    board_game.saving.tell("prompt", {"asks": "resignation", "by": side, "points": points})
    accepted = yield from menus.ask_yes_no(table.basic, question)
    board_game.happened(f"{side} resigns {points}, {'accepted' if accepted else 'declined'}")
    if not accepted:
        board_game.message(say("plays on", person))
        yield from table.basic.pause(OPENING_READ_FRAMES)
        return None
    return match.resign(side, kind)


def result_for(steps: Any) -> GameResult | None:
    """A scene's answer that ended the game by a resignation (else None)."""
    return steps if isinstance(steps, GameResult) else None

