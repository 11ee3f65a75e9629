"""How an imported game ends, for imports.py: the roll in hand when a side resigned (dice
thrown and never played, as gnubg writes such a turn), the result checked against the board
and the cube, and a result the file names without its points (an .sgf's RE[W+R], a .mat's
"Resigns" with no "Wins") scored from the next game's starting score, as gnubg's own reading
keeps those points. Not the reading of the files, nor the replay of the plays."""
from __future__ import annotations

from typing import Any

from game.analysis.replay import apply_play, replay
from game.matchfiles.rawmatch import FileProblem, RawAction, RawGame, RawResult
from game.model import rules
from game.model.position import Position
from game.model.record import GameRecord, MatchRecord
from spectrum.quoting import escaped

RESULT_WORDS = {1: "single", 2: "gammon", 3: "backgammon"}
PLAYED = ("move", "double", "take", "drop")       # the entries replay() makes turns of


def unplayed(game: RawGame) -> RawAction | None:
    """The game's last entry when it may be a roll never played: an .sgf's DI, or a .mat's
    roll with no play ("32:"), which is a turn without a legal play only if the rules say
    so (roll_in_hand decides)."""
    last = game.actions[-1] if game.actions else None
    if last is not None and (last.kind == "roll" or (last.kind == "move" and not last.play)):
        return last
    return None


def has_turns(added: GameRecord) -> bool:
    return any(a.kind in PLAYED for a in added.actions)


def roll_in_hand(record: MatchRecord, added: GameRecord, turns: list,
                 action: RawAction) -> bool:
    """Put the game's last roll into the record: as a roll never played (True) when the
    roller had a legal play, else as the turn with no play it was (False). FileProblem
    when it is not that side's turn to roll."""
    side, dice = record.sides[action.player], action.dice
    assert dice is not None                      # a roll's entry always has its dice
    on_roll, position = _on_roll_after(record, added, turns, action)
    if side != on_roll:
        raise FileProblem(action.line, f"{escaped(record.names[side])} rolls "
                                       f"{dice[0]}{dice[1]} out of turn")
    if any(play.steps for play in rules.legal_plays(position, dice)):
        record.roll(side, dice)
        return True
    record.move(side, dice, "")
    return False


def _on_roll_after(record: MatchRecord, added: GameRecord, turns: list,
                   action: RawAction) -> tuple[str, Position]:
    """(the side to roll, its position) after the replayed turns."""
    if not turns:                  # the opening roll: either side, from the game's start
        start = Position.from_id(added.start) if added.start else Position.start()
        return record.sides[action.player], start
    last = turns[-1]
    if last.action.kind == "move":
        after = apply_play(last.before, last.action.play)
        if rules.game_result(after):
            raise FileProblem(action.line, f"game {added.number} was already over")
        return _other(record, last.action.side), after.swapped()
    if last.action.kind == "take":
        return last.doubler, last.before
    if last.action.kind == "double":
        raise FileProblem(action.line, "a roll while a double waits for its answer")
    raise FileProblem(action.line, f"game {added.number} was already over")


def _other(record: MatchRecord, side: str) -> str:
    return record.sides[1] if side == record.sides[0] else record.sides[0]


# (winner, how, cube): how is a result 1-3 or "drop", told apart by the caller, hence Any
def _ending(turns: list) -> tuple[str, Any, int] | None:
    """How the replayed game ended: (winner, result 1-3, cube) on the board, (doubler,
    "drop", cube) for a dropped double, or None while it goes on."""
    if not turns:
        return None
    last = turns[-1]
    if last.action.kind == "drop":
        return last.doubler, "drop", last.cube_value
    if last.action.kind == "move":
        result = rules.game_result(apply_play(last.before, last.action.play))
        if result:
            return last.action.side, result, last.cube_value
    return None


def resign_points(turns: list) -> tuple:
    """What a resignation is worth after these turns: 1, 2 or 3 times the cube."""
    if not turns:
        return (1, 2, 3)
    cube = turns[-1].cube_value * (2 if turns[-1].action.kind == "take" else 1)
    return (cube, 2 * cube, 3 * cube)


def settle(record: MatchRecord, game: RawGame, turns: list, entries: int) -> None:
    """No entry after the game is over (of the `entries` the turns cover); the result agrees
    with the board and the cube. A result the board cannot explain and the file does not
    score as a resignation (RE[W+R], RE[W+2] mid-game, "Resigns" alone) leaves the game not
    over, as gnubg leaves it: follows() may score it from the next game."""
    added = record.games[-1]
    after = turns[-1].index + 1 if turns else 0
    if turns and after < entries:
        raise FileProblem(game.actions[after].line, f"game {added.number} was already over")
    ending, result = _ending(turns), game.result
    if result is None:
        if ending is not None:
            winner, how, cube = ending
            units = 1 if how == "drop" else how
            record.win(winner, units * cube, RESULT_WORDS.get(how, "drop"))
        return
    winner = record.sides[result.player]
    if ending is None:
        if result.points is None or result.resigned is False:
            return                            # named, not scored: follows() may score it
        check_points(record, added, winner, result.points, result.line, resign_points(turns))
        record.win(winner, result.points, "resign")
        return
    won_by, how, cube = ending
    if winner != won_by:
        raise FileProblem(result.line, "the result gives the game to the other side")
    allowed: tuple[int, ...] = (cube,) if how == "drop" else (how * cube,)
    if not record.length and cube == 1:
        allowed += (1,)                                 # the Jacoby rule: no gammons
    points = allowed[0] if result.points is None else result.points
    check_points(record, added, winner, points, result.line, allowed)
    record.win(winner, points, RESULT_WORDS.get(how, "drop"))


def check_points(record: MatchRecord, added: GameRecord, winner: str, points: int, line: int,
                 allowed: tuple) -> None:
    """The points won are one of `allowed` (or, in a match, as many as it took to win)."""
    if points_fit(record, added, winner, points, allowed):
        return
    raise FileProblem(line, f"{points} points cannot be won here (the cube and the board "
                            f"give {' or '.join(map(str, allowed))})")


def points_fit(record: MatchRecord, added: GameRecord, winner: str, points: int,
               allowed: tuple) -> bool:
    needed = record.length - added.scores[winner] if record.length else 0
    return points in allowed or bool(needed and needed <= points <= max(allowed))


def follows(record: MatchRecord, before_raw: RawGame, game: RawGame) -> None:
    """A game that follows one left not over (record.games[-1]): when the file named that
    game's winner, and the new score gives that side alone as many points as a resignation
    there is worth, the game is scored so ("resign"); else it stays not over and the new
    game starts at the score the file gives, as gnubg starts it. FileProblem only for a
    score lower than before."""
    before = record.games[-1]
    gains = [start - before.scores[side] for start, side in zip(game.scores, record.sides,
                                                               strict=True)]
    if min(gains) < 0:
        raise FileProblem(game.line, f"the score {game.scores[0]}-{game.scores[1]} is lower "
                                     f"than at the start of game {before.number}")
    result: RawResult | None = before_raw.result
    if result is None or gains[1 - result.player] or not gains[result.player]:
        return
    winner, points = record.sides[result.player], gains[result.player]
    turns = replay(record, before) if has_turns(before) else []
    if points_fit(record, before, winner, points, resign_points(turns)):
        record.win(winner, points, "resign")
