"""The match cube of short bear-offs against an exact recursion written here: every roll, every
play and every cube action of both sides, scored by our match equity table (no gammons: both
sides have men off). The engine's own exact tables (native/src/bearoff_match.c, 5 men a side
or fewer) must be this recursion's figures. Not the money cube (bearoff2.c; test_cubeful.py)."""
from __future__ import annotations

import functools
import threading

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


SHORT = (Position.from_points({6: 1, 5: 1}, {6: 1, 2: 1}).position_id,
         Position.from_points({4: 2, 1: 1}, {5: 1, 3: 1, 2: 1}).position_id,
         Position.from_points({6: 2, 3: 1}, {4: 2}).position_id)
SCORES = ((3, 3), (2, 4), (4, 2), (3, 4), (4, 3), (2, 3), (5, 2))
EXACT_EMG = 2e-4          # float arithmetic in C against Python's doubles


def ours_emg(pid: str, level: int, terms: MatchTerms) -> tuple[float, float]:
    d = evaluator.cube_decision(pid, level, terms)
    a, b = terms.away_me, terms.away_opp
    return (in_emg((d.no_double_equity + 1) / 2, a, b),
            in_emg((d.double_take_equity + 1) / 2, a, b))


@pytest.mark.parametrize("pid", SHORT[:2])
def test_a_short_bearoffs_match_cube_is_the_exact_recursions_at_every_score(pid):
    """No double and double/take, the cube centred, at seven scores of a 7-point match: the
    engine's tables give the recursion's figures (session 58 found 3-away/4-away's double/take
    up to 0.12 EMG low by the formula in 4-5-men bear-offs)."""
    for a, b in SCORES:
        nd, dt = ours_emg(pid, 3, MatchTerms(length=7, away_me=a, away_opp=b))
        assert nd == pytest.approx(in_emg(after_cube_action(pid, 1, 0, a, b), a, b),
                                   abs=EXACT_EMG)
        assert dt == pytest.approx(in_emg(after_cube_action(pid, 2, 2, a, b), a, b),
                                   abs=EXACT_EMG)


def test_an_owned_cube_in_a_short_bearoff_is_exact_whoever_holds_it():
    pid = SHORT[1]
    for owner, a, b in ((1, 4, 3), (2, 4, 3), (1, 5, 5), (2, 3, 5)):
        terms = MatchTerms(length=7, away_me=a, away_opp=b, cube_value=2, cube_owner=owner)
        d = evaluator.cube_decision(pid, 3, terms)
        assert in_emg((d.no_double_equity + 1) / 2, a, b) == pytest.approx(
            in_emg(after_cube_action(pid, 2, owner, a, b), a, b), abs=EXACT_EMG)


def test_terms_no_game_reaches_keep_the_formula_in_a_short_bearoff():
    """A cube of 2 in the middle, or a cube of 1 held: terms the engine accepts but no game
    reaches have no exact table; they get the formula's answer, never another state's."""
    pid = SHORT[1]
    for cube, owner in ((2, 0), (1, 1)):
        terms = MatchTerms(length=7, away_me=4, away_opp=3, cube_value=cube, cube_owner=owner)
        d = evaluator.cube_decision(pid, 3, terms)
        formula = evaluator.cube_decision_for((d.win, 0.0, 0.0, 0.0, 0.0), terms, position=pid)
        assert d.no_double_equity == pytest.approx(formula.no_double_equity, abs=1e-6)


def test_the_exact_match_cube_is_the_same_at_every_level_that_searches():
    """Exact at any ply, as the money cube is: levels 3 and 5 answer alike (the search stops
    where the tables start)."""
    for pid in SHORT:
        for a, b in SCORES[:4]:
            terms = MatchTerms(length=7, away_me=a, away_opp=b)
            assert evaluator.cube_decision(pid, 5, terms) == evaluator.cube_decision(pid, 3, terms)


def test_post_crawford_the_2_away_trailer_doubles_and_the_take_is_its_game_chance():
    """2-away against 1-away after the Crawford game: the leader can never redouble, so the
    doubled game is decided by this game alone (its match chance is the game's chance) and the
    trailer doubles at once."""
    for pid in SHORT:
        terms = MatchTerms(length=7, away_me=2, away_opp=1, crawford=2)
        d = evaluator.cube_decision(pid, 3, terms)
        assert d.double_take_equity == pytest.approx(2 * d.win - 1, abs=1e-5)
        assert d.double and d.double_take_equity >= d.no_double_equity - 1e-6


def test_threads_asking_at_many_scores_at_once_get_one_threads_figures():
    """A score's tables are built when first asked for and a few are kept: four threads asking
    at more scores than are kept, at once, get the very figures one thread gets."""
    asks = [(SHORT[0], a, b) for a, b in SCORES[:6]] + [(SHORT[1], 6, 7)]
    alone = {ask: evaluator.cube_decision(ask[0], 3, MatchTerms(length=7, away_me=ask[1],
                                                                 away_opp=ask[2]))
             for ask in asks}
    got: list = []                              # (ask, answer) from every thread

    def ask_all(order):
        for pid, a, b in order:
            got.append(((pid, a, b), evaluator.cube_decision(
                pid, 3, MatchTerms(length=7, away_me=a, away_opp=b))))

    orders = [asks, asks[::-1], asks[1::2] + asks[::2], asks[::3] + asks[1::3] + asks[2::3]]
    threads = [threading.Thread(target=ask_all, args=(o,)) for o in orders]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4 * len(asks)
    assert all(alone[ask] == answer for ask, answer in got)


def test_at_3_away_3_away_a_short_bearoffs_double_take_is_the_exact_recursions():
    """After our double at 3-away/3-away, the taker's redouble to 4 decides the match. A short
    bear-off seldom swings far enough for that redouble to be worth what a continuous game
    makes it; the formula at the default 0.6 was 0.021 EMG low here, and session 57's
    efficiency ramp (cube.c theirs_x, still the formula's for 6 men a side) within 0.012. The
    exact tables give the recursion's figure."""
    pid = Position.from_points({6: 1, 5: 1}, {6: 1, 2: 1}).position_id
    terms = MatchTerms(length=7, away_me=3, away_opp=3)
    exact = in_emg(after_cube_action(pid, 2, 2, 3, 3), 3, 3)
    ours = evaluator.cube_decision(pid, 5, terms)
    ours_emg = in_emg((ours.double_take_equity + 1) / 2, 3, 3)
    assert ours_emg == pytest.approx(exact, abs=EXACT_EMG)
