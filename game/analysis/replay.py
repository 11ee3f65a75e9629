"""The replay of a recorded game for the review and the .sgf export: every action applied in
order from the game's start, checked against the rules and the cube, with the position and cube
before it. Not the judging (game/analysis/judge.py) and not the record's file format
(game/model/record.py)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.errors import BackgammonError, MatchError
from game.model import rules
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import BAR, Position
from game.model.record import Action, GameRecord, MatchRecord


class ReviewError(BackgammonError, ValueError):
    """A game that cannot be reviewed (no moves, or a record that cannot be replayed); the
    message says which game and move, in words for the player."""


def _point_index(word: str) -> int:
    """A record point ("bar", "off", "1".."24") as a mover's row index (bar 24, off -1)."""
    if word == "bar":
        return BAR
    if word == "off":
        return -1
    return int(word) - 1


def apply_play(before: Position, words: str) -> Position:
    """The position after a recorded play ("24/18 13/11*", standard numbers from the mover's
    side), the mover still on roll. Checks the men are there (not the rules: see replay)."""
    board = list(before.board)
    for step in words.split():
        frm, to = step.rstrip("*").split("/")
        a, b = _point_index(frm), _point_index(to)
        if board[a] <= 0:
            raise ValueError(f"no man on {frm} for {step}")
        board[a] -= 1
        if b >= 0:
            board[b] += 1
            theirs = 25 + 23 - b             # the opponent's row index of that point
            if board[theirs] == 1:
                board[theirs] = 0
                board[25 + BAR] += 1
            elif board[theirs] > 1:
                raise ValueError(f"{step} lands on a point the opponent holds")
    return Position(tuple(board))


@dataclass
class ReplayedTurn:
    """What the replay found at one action: the position for the side acting, the cube."""
    index: int
    action: Action
    before: Position                 # the acting side on roll (for take/drop: the doubler)
    cube_value: int
    cube_owner: str | None
    doubler: str | None = None
    legal: tuple = ()                # the legal plays of a move


def _describe(game: GameRecord, index: int, action: Action) -> str:
    dice = "".join(str(die) for die in action.dice) if action.dice else "no dice"
    what = f"{dice}: {action.play or 'no move'}" if action.kind == "move" else action.kind
    return f"game {game.number}, entry {index + 1} ({action.side} {what})"


def replay(record: MatchRecord, game: GameRecord) -> list:
    """Every action of `game` with the position and cube before it; ReviewError when an entry
    cannot have happened (a play the rules refuse, a take with no double, ...)."""
    sides = record.sides
    try:
        position = Position.from_id(game.start) if game.start else Position.start()
    except BackgammonError as exc:
        raise ReviewError(f"Game {game.number} cannot be reviewed: its start position is "
                          f"damaged ({exc})") from None
    on_roll = None
    cube_value, cube_owner, offered = 1, None, None
    turns = []
    for index, action in enumerate(game.actions):
        where = _describe(game, index, action)
        if action.side not in sides:
            raise ReviewError(f"The record is damaged at {where}: no such side")
        if action.kind in ("win", "roll"):      # a roll never played ends the game too
            break
        if on_roll is None:
            on_roll = action.side if action.kind in ("move", "double") else None
            if on_roll is None:
                raise ReviewError(f"The record is damaged at {where}: the game does not "
                                  f"start with a roll or a double")
        if action.kind == "move":
            if offered or action.side != on_roll:
                raise ReviewError(f"The record is damaged at {where}: not that side's turn")
            if action.dice is None:
                raise ReviewError(f"The record is damaged at {where}: a move with no dice")
            try:
                legal = tuple(rules.legal_plays(position, action.dice))
                after = apply_play(position, action.play)
            except (BackgammonError, ValueError) as exc:
                raise ReviewError(f"The record is damaged at {where}: {exc}") from None
            if after not in {p.after for p in legal}:
                raise ReviewError(f"The record is damaged at {where}: that is not a legal "
                                  f"play of the roll")
            turns.append(ReplayedTurn(index, action, position, cube_value, cube_owner, legal=legal))
            if rules.game_result(after):
                break
            position, on_roll = after.swapped(), other_side(sides, action.side)
        elif action.kind == "double":
            if action.side != on_roll or offered or cube_owner not in (None, action.side):
                raise ReviewError(f"The record is damaged at {where}: that side may not "
                                  f"double now")
            offered = action.side
            turns.append(ReplayedTurn(index, action, position, cube_value, cube_owner, action.side))
        else:                                     # take / drop
            if offered is None or action.side == offered:
                raise ReviewError(f"The record is damaged at {where}: no double to answer")
            turns.append(ReplayedTurn(index, action, position, cube_value, cube_owner, offered))
            if action.kind == "drop":
                break
            cube_value, cube_owner, offered = cube_value * 2, action.side, None
    if not turns:
        ended = ": it ended before any play" if game.finished else " yet"
        raise ReviewError(f"Game {game.number} has no moves to review{ended}")
    return turns


def other_side(sides: Sequence[str], side: str) -> str:
    return sides[1] if side == sides[0] else sides[0]


def terms_at(record: MatchRecord, game: GameRecord, turn: ReplayedTurn, side: str) -> MatchTerms:
    """The cube and the score as `side` saw them at `turn` of `game` (what the review judges
    its play or cube at, and the luck of its roll is weighed at). A record whose score and
    cube make no possible terms is judged as money play."""
    owner = 0 if turn.cube_owner is None else (1 if turn.cube_owner == side else 2)
    away = {s: record.length - game.scores[s] for s in record.sides}
    crawford = 1 if game.crawford else (2 if 1 in away.values() else 0)
    try:
        if not record.length:
            return MatchTerms(turn.cube_value, owner)
        return MatchTerms(turn.cube_value, owner, record.length, away[side],
                          away[other_side(record.sides, side)], crawford)
    except MatchError:
        return MONEY
