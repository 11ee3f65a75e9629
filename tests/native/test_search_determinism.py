"""Level 5 budgets its search in work (positions evaluated), not wall-clock time: the same
position and dice give the same ranking, equities and depths whether the machine is idle or
busy, and the work it reports is the same number both times."""
import multiprocessing
import time

import pytest

from conftest import at_once
from deeper_stages import rejudged_closest
from deeper_stages import search_cases as _cases
from game.model import evaluator as ev
from native import lib
from shared_cases import positions_from_play as _positions


def _busy(stop_at: float) -> None:
    x = 0
    while time.time() < stop_at:
        x += 1


def _rank_all(cases):
    """Level 5's full ranking of each case, with the work it says it did."""
    answers = []
    for pos, dice in cases:
        ranked = ev.ranked_plays(pos.position_id, dice, 5)
        answers.append(([(c.position_id, c.equity, c.ply) for c in ranked], lib.bg_last_work()))
    return answers


@pytest.fixture
def small_budget():
    """A budget small enough that it cuts the 2-ply pass in most of these positions (the
    shipped one rarely binds), so the cut itself is what is compared."""
    ev.ensure_loaded()
    old = lib.bg_set_work_budget(20000)
    yield 20000
    lib.bg_set_work_budget(old)


def test_level5_plays_the_same_on_a_busy_machine(small_budget):
    cases = [(pos, (6, 6) if i % 3 == 0 else (4, 2)) for i, pos in
             enumerate(_positions(40, seed=17)[10:])]
    idle = _rank_all(cases)
    assert sum(work > small_budget for _, work in idle) >= 3, "the budget never bound"
    stop_at = time.time() + 120
    ctx = multiprocessing.get_context("fork")
    hogs = [ctx.Process(target=_busy, args=(stop_at,), daemon=True) for _ in range(3)]
    for hog in hogs:
        hog.start()
    try:
        time.sleep(0.2)
        busy = _rank_all(cases)
    finally:
        for hog in hogs:
            hog.terminate()
            hog.join()
    assert busy == idle


def test_the_work_budget_setter_keeps_out_of_range_values_out():
    ev.ensure_loaded()
    old = lib.bg_set_work_budget(50000)
    try:
        assert lib.bg_set_work_budget(5) == -lib.BG_ERR_BAD_ARG      # refused: unchanged
        assert lib.bg_set_work_budget(60000) == 50000
    finally:
        lib.bg_set_work_budget(old)


def test_a_bigger_budget_only_adds_two_ply_judgements():
    ev.ensure_loaded()
    pos = _positions(30, seed=3)[-1]
    old = lib.bg_set_work_budget(1000)
    try:
        narrow = ev.ranked_plays(pos.position_id, (6, 6), 5)
        narrow_work = lib.bg_last_work()
        lib.bg_set_work_budget(10_000_000)
        wide = ev.ranked_plays(pos.position_id, (6, 6), 5)
        wide_work = lib.bg_last_work()
    finally:
        lib.bg_set_work_budget(old)
    assert wide_work >= narrow_work
    assert sum(c.ply == 2 for c in wide) >= sum(c.ply == 2 for c in narrow) >= 1


@pytest.fixture
def two_and_three_ply():
    """Level 5's rankings searching 2 plies deep and 3 plies deep, with their work, for a
    function (position, dice) -> (ranking, work) pairs; the shipped depth is put back."""
    ev.ensure_loaded()

    def rank(pos, dice, plies):
        old = lib.bg_set_search_plies(plies)
        try:
            ranked = ev.ranked_plays(pos.position_id, dice, 5)
            return [(c.position_id, c.equity, c.ply) for c in ranked], lib.bg_last_work()
        finally:
            lib.bg_set_search_plies(old)
    return rank


def test_the_three_ply_pass_rejudges_only_the_closest_two_ply_candidates(two_and_three_ply):
    deepened = 0
    for pos, dice in _cases(16, seed=23):
        two, _ = two_and_three_ply(pos, dice, 2)
        three, _ = two_and_three_ply(pos, dice, 3)
        assert max(ply for _, _, ply in two) <= 2
        deepened += rejudged_closest(two, three, 3, 3, 0.04)
    assert deepened >= 2, "the 3-ply pass never ran"


def test_the_deep_budget_caps_the_work_of_a_ranking(two_and_three_ply):
    """With a deep budget smaller than a 3-ply pass needs, the pass is skipped (by its
    estimate) or given up (when the estimate was short): the 2-ply ranking stands, and the
    work stays within the budget, plus at most one 1-ply judgement (21 rolls of at most
    BG_MAX_PLAYS plays) begun before the cap was seen. Among these cases one is given up."""
    ev.ensure_loaded()
    budget = 500000
    old = lib.bg_set_deep_budget(budget)
    try:
        given_up = 0
        for pos, dice in _cases(16, seed=23):
            two, work2 = two_and_three_ply(pos, dice, 2)
            three, work3 = two_and_three_ply(pos, dice, 3)
            if not any(ply == 3 for _, _, ply in three):
                assert three == two
                given_up += work3 > work2
            assert work3 <= max(work2, budget + 21 * lib.BG_MAX_PLAYS)
    finally:
        lib.bg_set_deep_budget(old)
    assert given_up >= 1, "no pass was given up: the cap went untested"


def test_the_search_depth_setter_takes_two_or_three_only():
    ev.ensure_loaded()
    old = lib.bg_set_search_plies(2)
    try:
        assert lib.bg_set_search_plies(4) == -lib.BG_ERR_BAD_ARG
        assert lib.bg_set_search_plies(1) == -lib.BG_ERR_BAD_ARG
        assert lib.bg_set_search_plies(3) == 2
    finally:
        lib.bg_set_search_plies(old)
    assert lib.bg_set_deep_budget(5) == -lib.BG_ERR_BAD_ARG         # refused


@pytest.fixture
def cache_state():
    """Puts the evaluation cache back as it was (on) after a test that switches it."""
    ev.ensure_loaded()
    old = lib.bg_eval_cache(1)
    yield
    lib.bg_eval_cache(old)


def _looks_and_hits():
    looks, hits = ev.ffi.new("double *"), ev.ffi.new("double *")
    lib.bg_eval_cache_counts(looks, hits)
    return looks[0], hits[0]


def test_the_evaluation_cache_changes_no_bit_of_a_ranking(cache_state, two_and_three_ply):
    """The cache of 0-ply judgements gives back what the net would compute: levels 4 and 5
    (at 2 and 3 plies) rank the same plays with the same equities, depths and work with the
    cache off, with it on and cold, and on and warm (the same rankings again)."""
    cases = _cases(12, seed=41)
    lib.bg_eval_cache(0)
    off = [two_and_three_ply(pos, dice, 3) for pos, dice in cases]
    off4 = [[(c.position_id, c.equity, c.ply) for c in ev.ranked_plays(pos.position_id, dice, 4)]
            for pos, dice in cases]
    lib.bg_eval_cache(1)
    looks0, hits0 = _looks_and_hits()
    cold = [two_and_three_ply(pos, dice, 3) for pos, dice in cases]
    looks1, hits1 = _looks_and_hits()
    warm = [two_and_three_ply(pos, dice, 3) for pos, dice in cases]
    on4 = [[(c.position_id, c.equity, c.ply) for c in ev.ranked_plays(pos.position_id, dice, 4)]
           for pos, dice in cases]
    assert off == cold == warm
    assert off4 == on4
    assert any(ply == 3 for ranking, _ in off for _, _, ply in ranking), "no 3-ply pass ran"
    # the cache was used, and already within one cold ranking boards came back
    assert looks1 - looks0 >= sum(work for _, work in cold)
    assert hits1 - hits0 > 0.2 * (looks1 - looks0)


def test_the_evaluation_cache_keeps_the_values_of_the_weights_it_was_filled_with(cache_state):
    """Loading weights again (here: the same file, so the same values) starts a fresh tag:
    the cache never answers for other weights. A 1-ply value just after a load meets some
    boards twice within itself; asked again, nearly all come from the cache; after another
    load it is the first time over again, the same lookups and the same hits."""
    pos = _positions(20, seed=5)[-1]

    def counted():
        looks0, hits0 = _looks_and_hits()
        value = ev.evaluate(pos.position_id, 1)
        looks1, hits1 = _looks_and_hits()
        return value, looks1 - looks0, hits1 - hits0

    ev.load_weights()
    first, looks, hits = counted()
    again, looks_again, hits_again = counted()
    assert again == first and looks_again == looks and hits_again >= 0.9 * looks > hits
    ev.load_weights()
    assert counted() == (first, looks, hits)


def test_the_evaluation_cache_switch_takes_zero_or_one(cache_state):
    assert lib.bg_eval_cache(2) == -lib.BG_ERR_BAD_ARG
    assert lib.bg_eval_cache(-1) == -lib.BG_ERR_BAD_ARG
    assert lib.bg_eval_cache(0) == 1
    assert lib.bg_eval_cache(1) == 0


def _rank_in_thread(cases):
    """Level 5's rankings of the cases in this thread, with this thread's own work figure
    and cache counts (each thread keeps its own search state and cache)."""
    looks0, hits0 = _looks_and_hits()
    answers = _rank_all(cases)
    looks1, hits1 = _looks_and_hits()
    return answers, looks1 - looks0, hits1 - hits0


def test_threads_searching_at_once_rank_as_one_thread_does(cache_state):
    """Three threads ranking at level 5 at the same time (the C search lets go of Python's
    lock) give each case the very ranking, equities, depths and work one thread gives, and
    each thread's counts are its own: the review judges turns this way."""
    ev.ensure_loaded()
    cases = _cases(18, seed=61)
    alone = _rank_all(cases)
    out = at_once(_rank_in_thread, [cases[k::3] for k in range(3)])
    for k in range(3):
        answers, looks, _ = out[k]
        assert answers == alone[k::3]
        # a thread's lookups are its own rankings' work (every 0-ply judgement looks once)
        assert looks == sum(work for _, work in answers)


def test_a_new_thread_starts_with_an_empty_cache_of_its_own(cache_state):
    ev.ensure_loaded()
    pos, dice = _cases(1, seed=7)[0]
    ev.ranked_plays(pos.position_id, dice, 5)           # this thread's cache now holds it
    ((answer,), new_looks, new_hits), = at_once(_rank_in_thread, [[(pos, dice)]])
    looks_before, hits_before = _looks_and_hits()
    again = _rank_all([(pos, dice)])[0]
    looks_after, hits_after = _looks_and_hits()
    assert again == answer
    # here nearly every lookup of the same ranking again is a hit (two boards of one slot
    # can take turns in it); the new thread began cold
    assert looks_after - looks_before == answer[1] == new_looks
    assert hits_after - hits_before >= 0.95 * new_looks > new_hits
