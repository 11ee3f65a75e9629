"""What a resignation is worth and what playing on is worth, in the units of the cube
decisions (money points with the cube, or 2 x match winning chance - 1), through the
evaluator's cube theory and met.c: a certain result is a decision with certain chances. Also
when a side can no longer win with its result settled. Not the questions (game/scenes/resign.py)."""
from __future__ import annotations

from game.model import evaluator, rules
from game.model.match_terms import MatchTerms
from game.model.position import Position

JUDGE_LEVEL = 5                  # the cubeful judgement a resignation is weighed by
CERTAIN_PLY = 2                  # the evaluator's ply for "no chance left"
EPSILON = 1e-6                   # equities this close are equal (float32 from the C side)


def certain_equity(kind: int, terms: MatchTerms) -> float:
    """The winner's equity of a game won as `kind` (1 single, 2 gammon, 3 backgammon) at the
    cube and score of `terms` (the winner's, Match.terms): kind x cube in money play, or
    2 x the match winning chance after those points - 1 (post-Crawford included)."""
    if kind not in (1, 2, 3):
        raise ValueError(f"a resignation is 1, 2 or 3 times the cube, not {kind!r}")
    chances = (1.0, float(kind >= 2), float(kind >= 3), 0.0, 0.0)
    return evaluator.cube_decision_for(chances, terms).no_double_equity


def proper_equity(decision: evaluator.CubeDecision, terms: MatchTerms) -> float:
    """The side on roll's cubeful equity with both sides acting right: double when it should
    and may (`terms`, its own: MatchTerms.double_refused, the rule every cube decision
    follows), the answer the opponent should give; otherwise no double."""
    if decision.double and not terms.double_refused():
        return min(decision.double_take_equity, decision.double_pass_equity)
    return decision.no_double_equity


def on_roll_equity(on_roll: Position, dice: tuple[int, int] | None, terms: MatchTerms,
                   level: int = JUDGE_LEVEL) -> float:
    """The cubeful equity of playing on for the side on roll in `on_roll`: before its
    throw (dice None) its own cube decision; with its dice thrown, its best play of them,
    then the opponent's cube decision on roll. `terms`: the cube and score as the side on
    roll sees them (Match.terms; its opponent's are terms.for_opponent())."""
    if dice is None:
        return proper_equity(evaluator.cube_decision(on_roll, level, terms), terms)
    best = evaluator.ranked_plays(on_roll, dice, level, limit=1, terms=terms)[0]
    won = rules.game_result(best.play.after)
    if won:                                      # its best play ends the game
        return certain_equity(abs(won), terms)
    theirs = terms.for_opponent()
    return -proper_equity(evaluator.cube_decision(best.play.after.swapped(), level, theirs),
                          theirs)


def accepts(kind: int, accepter_terms: MatchTerms, on: float) -> bool:
    """Take a resignation of `kind` when it is worth at least `on`, the accepter's equity of
    playing on."""
    return certain_equity(kind, accepter_terms) >= on - EPSILON


def certain_loss(on_roll: Position) -> int | None:
    """The side on roll's certain loss, 1 single, 2 gammon or 3 backgammon, when the
    evaluator gives it no chance to win and its gammon and backgammon chances are 0 or 1
    (exact: a race the bear-off database settles); None while anything is open."""
    if rules.game_result(on_roll):
        return None
    quick = evaluator.evaluate(on_roll, 0)
    if quick.win > 0.01:
        return None
    chances = evaluator.evaluate(on_roll, CERTAIN_PLY)
    settled = all(c in (0.0, 1.0) for c in (chances.lose_gammon, chances.lose_backgammon))
    if chances.win != 0.0 or not settled:
        return None
    return 1 + int(chances.lose_gammon) + int(chances.lose_backgammon)
