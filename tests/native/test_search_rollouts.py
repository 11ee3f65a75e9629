"""Level 5's rollouts of its closest candidates (bg_search's roll_trials): which candidates
they judge, that a one-ply rollout with the luck taken out is the one-ply value exactly, and
that the play still depends only on the position and dice (the rollouts' dice are drawn from
them)."""
import pytest

from deeper_stages import rejudged_closest
from deeper_stages import search_cases as _cases
from game.model import evaluator as ev
from game.model.position import Position
from game.model.search_settings import SearchSettings

MARGIN = 0.06   # search.h SR_ROLL_MARGIN
KEEP = 3        # search.h SR_ROLL_KEEP


@pytest.fixture
def rank():
    """Level 5's ranking of (position, dice) with rollouts (trials, horizon) or None for none
    (and the cache on or off)."""
    ev.ensure_loaded()

    def ranked(pos, dice, rollouts, cache=True):
        trials, horizon = rollouts or (0, 1)
        search = SearchSettings(roll_trials=trials, roll_horizon_plies=horizon, cache=cache)
        return [(c.position_id, c.equity, c.ply) for c in
                ev.ranked_plays(pos.position_id, dice, 5, search=search)]
    return ranked


def test_rollouts_judge_only_the_closest_few_of_the_deepest_judged_candidates(rank):
    rolled_any = 0
    for pos, dice in _cases(12, seed=29):
        plain = rank(pos, dice, None)
        assert max(ply for _, _, ply in plain) <= 2
        rolled_any += rejudged_closest(plain, rank(pos, dice, (36, 2)), 4, KEEP, MARGIN)
    assert rolled_any >= 3, "the rollouts never ran"


def test_a_one_ply_rollout_without_its_luck_is_the_one_ply_value(rank):
    """With the luck of the one roll taken out, every trial is the mean over the 21 rolls:
    the candidate's value is its result's 1-ply value, whatever dice came."""
    checked = 0
    for pos, dice in _cases(10, seed=31):
        for pid, equity, ply in rank(pos, dice, (5, 1)):
            if ply != 4:
                continue
            one_ply = ev.evaluate(Position.from_id(pid).swapped(), 1).equity
            assert equity == pytest.approx(-one_ply, abs=2e-5)
            checked += 1
    assert checked >= 4


def test_rollouts_give_the_same_ranking_each_time_and_with_the_cache_off(rank):
    cases = _cases(6, seed=37)
    first = [rank(pos, dice, (36, 4)) for pos, dice in cases]
    again = [rank(pos, dice, (36, 4)) for pos, dice in cases]
    uncached = [rank(pos, dice, (36, 4), cache=False) for pos, dice in cases]
    assert first == again == uncached
    assert any(ply == 4 for ranking in first for _, _, ply in ranking)
