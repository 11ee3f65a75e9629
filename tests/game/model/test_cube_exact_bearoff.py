"""The match cube of short bear-offs against an exact recursion written here: every roll, every
play and every cube action of both sides, scored by our match equity table (no gammons: both
sides have men off). Not the money cube (bearoff2.c is exact there; test_cubeful.py)."""
from __future__ import annotations

import functools

import pytest

from game.model import evaluator, rules
from game.model.match_terms import MatchTerms
from game.model.position import Position

TABLE = evaluator.match_equity_table()
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
OTHER_SIDES_OWNER = {0: 0, 1: 2, 2: 1}     # centred, mine, theirs: as the other side sees it


def table(away_me: int, away_opp: int) -> float:
    if away_me <= 0:
        return 1.0
    return 0.0 if away_opp <= 0 else TABLE[away_me - 1][away_opp - 1]


@functools.cache
def before_cube_action(pid: str, cube: int, owner: int, away_me: int, away_opp: int) -> float:
    """The side on roll's exact match winning chance before its cube action."""
    no_double = after_cube_action(pid, cube, owner, away_me, away_opp)
    if owner == 2 or cube >= away_me:     # not its cube, or a win already wins it the match
        return no_double
    take = after_cube_action(pid, 2 * cube, 2, away_me, away_opp)
    answered = min(take, table(away_me - cube, away_opp))
    return max(no_double, answered)


@functools.cache
def after_cube_action(pid: str, cube: int, owner: int, away_me: int, away_opp: int) -> float:
    """The side on roll's exact match winning chance as it rolls, the cube left as it is."""
    position = Position.from_id(pid)
    total = 0.0
    for dice in ROLLS:
        best = 0.0
        for play in rules.legal_plays(position, dice):
            if rules.game_result(play.after) > 0:
                value = table(away_me - cube, away_opp)
            else:
                value = 1.0 - before_cube_action(play.after.swapped().position_id, cube,
                                                 OTHER_SIDES_OWNER[owner], away_opp, away_me)
            best = max(best, value)
        total += best
    return total / len(ROLLS)


def in_emg(mwc: float, away_me: int, away_opp: int) -> float:
    win, lose = table(away_me - 1, away_opp), table(away_me, away_opp - 1)
    return 2 * (mwc - lose) / (win - lose) - 1


def test_at_3_away_3_away_a_short_bearoffs_double_take_is_the_exact_recursions():
    """After our double at 3-away/3-away, the taker's redouble to 4 decides the match. A short
    bear-off seldom swings far enough for that redouble to be worth what a continuous game
    makes it, so the cube the taker holds is read at the efficiency the exact money cube
    shows (cube.c theirs_x). At the default 0.6 this one was 0.021 EMG low."""
    pid = Position.from_points({6: 1, 5: 1}, {6: 1, 2: 1}).position_id
    terms = MatchTerms(length=7, away_me=3, away_opp=3)
    exact = in_emg(after_cube_action(pid, 2, 2, 3, 3), 3, 3)
    ours = evaluator.cube_decision(pid, 5, terms)
    ours_emg = in_emg((ours.double_take_equity + 1) / 2, 3, 3)
    assert ours_emg == pytest.approx(exact, abs=0.012)
