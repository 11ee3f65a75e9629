"""Level 5 budgets its search in work (positions evaluated), not wall-clock time: the same
position and dice give the same ranking, equities and depths whether the machine is idle or
busy, and the work it reports is the same number both times. The settings (budgets, plies,
cache) travel with each call (SearchSettings), so threads may search at once with different
ones."""
import math
import multiprocessing
import time

import pytest

from conftest import at_once
from deeper_stages import rejudged_closest
from deeper_stages import search_cases as _cases
from game.model import evaluator as ev
from game.model.match_terms import MONEY, MatchTerms
from game.model.search_settings import DEFAULT_SEARCH, SearchSettings, SearchSettingsError
from native import ffi, lib
from shared_cases import positions_from_play as _positions


def _busy(stop_at: float) -> None:
    x = 0
    while time.time() < stop_at:
        x += 1


def _rank_all(cases, search=DEFAULT_SEARCH):
    """Level 5's full ranking of each case, with the work it says it did."""
    answers = []
    for pos, dice in cases:
        ranked = ev.ranked_plays(pos.position_id, dice, 5, search=search)
        answers.append(([(c.position_id, c.equity, c.ply) for c in ranked], ranked.work))
    return answers


SMALL_BUDGET = 20000   # cuts the 2-ply pass in most of these positions (the shipped one
                       # rarely binds), so the cut itself is what is compared


def test_level5_plays_the_same_on_a_busy_machine():
    ev.ensure_loaded()
    small = SearchSettings(work_budget_positions=SMALL_BUDGET)
    cases = [(pos, (6, 6) if i % 3 == 0 else (4, 2)) for i, pos in
             enumerate(_positions(40, seed=17)[10:])]
    idle = _rank_all(cases, small)
    assert sum(work > SMALL_BUDGET for _, work in idle) >= 3, "the budget never bound"
    stop_at = time.time() + 120
    ctx = multiprocessing.get_context("fork")
    hogs = [ctx.Process(target=_busy, args=(stop_at,), daemon=True) for _ in range(3)]
    for hog in hogs:
        hog.start()
    try:
        time.sleep(0.2)
        busy = _rank_all(cases, small)
    finally:
        for hog in hogs:
            hog.terminate()
            hog.join()
    assert busy == idle


def _c_settings(**fields):
    """A bg_search of the defaults with `fields` changed, filled by hand (not through
    SearchSettings, which refuses bad ones first)."""
    search = ffi.new("bg_search *")
    lib.bg_search_defaults(search)
    for name, value in fields.items():
        setattr(search, name, value)
    return search


@pytest.mark.parametrize("fields", [
    {"work_budget": 999}, {"work_budget": lib.BG_BUDGET_MAX + 1}, {"deep_budget": 5},
    {"plies": 1}, {"plies": 4}, {"roll_trials": -1}, {"roll_trials": 3601},
    {"roll_horizon": 0}, {"roll_horizon": 51}, {"cache": 2}, {"cache": -1}, {"threads": 0},
    {"threads": lib.BG_SEARCH_THREADS_MAX + 1}])
def test_search_settings_out_of_range_are_refused_by_every_call_that_searches(fields):
    ev.ensure_loaded()
    bad = _c_settings(**fields)
    board = ffi.new("int8_t[]", lib.BG_BOARD_LEN)
    lib.bg_start(board)
    plays = ffi.new("bg_play[]", 4)
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": 4})
    out = ffi.new("float[]", lib.BG_CUBE_OUT_LEN)
    refused = -lib.BG_ERR_BAD_SEARCH
    assert lib.bg_check_search(bad) == refused
    assert lib.bg_rank_plays(board, 3, 1, 5, ffi.NULL, bad, ranking) == refused
    assert lib.bg_evaluate(board, 1, bad, out) == refused
    assert lib.bg_cube_decision(board, 5, ffi.NULL, bad, out) == refused
    plan = ffi.new("bg_rollout_plan *", {"kind": lib.BG_ROLLOUT_CUBE, "trials": 1, "level": 3,
                                         "threads": 1, "seed": 1})
    handle = ffi.new("bg_rollout **")
    assert lib.bg_rollout_start(board, 1, plan, ffi.NULL, bad, handle) == refused
    assert handle[0] == ffi.NULL


def test_search_settings_in_python_are_the_engines_defaults_and_refuse_what_it_refuses():
    c_defaults = ffi.new("bg_search *")
    lib.bg_search_defaults(c_defaults)
    mine = DEFAULT_SEARCH._fill()
    assert ffi.buffer(mine)[:] == ffi.buffer(c_defaults)[:]
    assert DEFAULT_SEARCH.as_c() == ffi.NULL
    for bad in ({"plies": 4}, {"work_budget_positions": 5}, {"roll_horizon_plies": 51},
                {"roll_trials": 2.5}, {"threads": 0}, {"threads": 3}, {"threads": True}):
        with pytest.raises(SearchSettingsError):
            SearchSettings(**bad)


def test_a_bigger_budget_only_adds_two_ply_judgements():
    ev.ensure_loaded()
    pos = _positions(30, seed=3)[-1]
    narrow = ev.ranked_plays(pos.position_id, (6, 6), 5,
                             search=SearchSettings(work_budget_positions=1000))
    wide = ev.ranked_plays(pos.position_id, (6, 6), 5,
                           search=SearchSettings(work_budget_positions=10_000_000))
    assert wide.work >= narrow.work
    assert sum(c.ply == 2 for c in wide) >= sum(c.ply == 2 for c in narrow) >= 1


@pytest.fixture
def two_and_three_ply():
    """Level 5's rankings searching 2 plies deep and 3 plies deep, with their work, for a
    function (position, dice) -> (ranking, work) pairs; the shipped depth is put back."""
    ev.ensure_loaded()

    def rank(pos, dice, plies, **settings):
        search = SearchSettings(plies=plies, **settings)
        ranked = ev.ranked_plays(pos.position_id, dice, 5, search=search)
        return [(c.position_id, c.equity, c.ply) for c in ranked], ranked.work
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
    given_up = 0
    for pos, dice in _cases(16, seed=23):
        two, work2 = two_and_three_ply(pos, dice, 2)
        three, work3 = two_and_three_ply(pos, dice, 3, deep_budget_positions=budget)
        if not any(ply == 3 for _, _, ply in three):
            assert three == two
            given_up += work3 > work2
        assert work3 <= max(work2, budget + 21 * lib.BG_MAX_PLAYS)
    assert given_up >= 1, "no pass was given up: the cap went untested"


def _looks_and_hits():
    looks, hits = ev.ffi.new("double *"), ev.ffi.new("double *")
    lib.bg_eval_cache_counts(looks, hits)
    return looks[0], hits[0]


def test_the_evaluation_cache_changes_no_bit_of_a_ranking(two_and_three_ply):
    """The cache of 0-ply judgements gives back what the net would compute: levels 4 and 5
    (at 2 and 3 plies) rank the same plays with the same equities, depths and work with the
    cache off, with it on and cold (a new thread's), and on and warm (the same rankings
    again)."""
    cases = _cases(12, seed=41)
    no_cache = SearchSettings(cache=False)
    off = [two_and_three_ply(pos, dice, 3, cache=False) for pos, dice in cases]
    off4 = [[(c.position_id, c.equity, c.ply)
             for c in ev.ranked_plays(pos.position_id, dice, 4, search=no_cache)]
            for pos, dice in cases]

    def cold_then_warm(_):
        looks0, hits0 = _looks_and_hits()
        cold = [two_and_three_ply(pos, dice, 3) for pos, dice in cases]
        looks1, hits1 = _looks_and_hits()
        warm = [two_and_three_ply(pos, dice, 3) for pos, dice in cases]
        return cold, warm, looks1 - looks0, hits1 - hits0

    (cold, warm, looks, hits), = at_once(cold_then_warm, [None])
    on4 = [[(c.position_id, c.equity, c.ply) for c in ev.ranked_plays(pos.position_id, dice, 4)]
           for pos, dice in cases]
    assert off == cold == warm
    assert off4 == on4
    assert any(ply == 3 for ranking, _ in off for _, _, ply in ranking), "no 3-ply pass ran"
    # the cache was used, and already within one cold ranking boards came back
    assert looks >= sum(work for _, work in cold)
    assert hits > 0.2 * looks


def test_the_evaluation_cache_keeps_the_values_of_the_weights_it_was_filled_with():
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


def _rank_in_thread(cases, search=DEFAULT_SEARCH):
    """Level 5's rankings of the cases in this thread, with this thread's own work figure
    and cache counts (each thread keeps its own search state and cache)."""
    looks0, hits0 = _looks_and_hits()
    answers = _rank_all(cases, search)
    looks1, hits1 = _looks_and_hits()
    return answers, looks1 - looks0, hits1 - hits0


def test_threads_searching_at_once_rank_as_one_thread_does():
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


def test_a_new_thread_starts_with_an_empty_cache_of_its_own():
    ev.ensure_loaded()
    pos, dice = _cases(1, seed=7)[0]
    ev.ranked_plays(pos.position_id, dice, 5)           # this thread's cache now holds it
    ((answer,), new_looks, new_hits), = at_once(_rank_in_thread, [[(pos, dice)]])
    looks_before, hits_before = _looks_and_hits()
    again = _rank_all([(pos, dice)])[0]
    looks_after, hits_after = _looks_and_hits()
    assert again == answer
    # here most lookups of the same ranking again are hits; the new thread began cold. Two
    # boards of one slot take turns in it and both miss again: the cache is direct-mapped,
    # 2**BG_EVAL_CACHE_BITS slots, so of the n boards a search fills about 1 - exp(-n / slots)
    # share a slot (n = 23,876 here with net44: 17%, and 0.869 of the lookups hit again)
    assert looks_after - looks_before == answer[1] == new_looks
    filled = new_looks - new_hits
    shared = 1 - math.exp(-filled / 2 ** lib.BG_EVAL_CACHE_BITS)
    assert hits_after - hits_before >= (1 - shared - 0.03) * new_looks > new_hits


NARROW = SearchSettings(plies=3, work_budget_positions=1000, deep_budget_positions=200_000,
                        roll_trials=6, roll_horizon_plies=2, cache=False)


def test_two_threads_ranking_at_once_with_different_settings_each_get_their_own_answers():
    """Threads searching side by side, one with the defaults and one with a narrow 3-ply
    search that rolls out its closest candidates without the cache, each get the very
    rankings (plays, equities, depths, chances) and work one thread gets alone at its
    settings: the settings travel with the call, none is shared."""
    ev.ensure_loaded()
    cases = _cases(8, seed=67)

    def answers(search):
        out = []
        for pos, dice in cases:
            ranked = ev.ranked_plays(pos.position_id, dice, 5, search=search)
            out.append(([(c.position_id, c.equity, c.ply, c.chances) for c in ranked],
                        ranked.work))
        return out

    alone = {DEFAULT_SEARCH: answers(DEFAULT_SEARCH), NARROW: answers(NARROW)}
    assert alone[DEFAULT_SEARCH] != alone[NARROW], "the settings changed no answer"
    together = at_once(answers, [DEFAULT_SEARCH, NARROW, NARROW, DEFAULT_SEARCH])
    assert together == [alone[DEFAULT_SEARCH], alone[NARROW], alone[NARROW],
                        alone[DEFAULT_SEARCH]]


@pytest.mark.parametrize("ply", [2, 3])
def test_a_judgement_on_two_threads_is_the_same_bits_as_on_one(ply):
    """A play judged with its root's rolls shared with a helper thread (the tutor's 3-ply
    check) gives the very equity and chances one thread gives, at money and at a match
    score where the side choosing flips at each ply, twice each (the rolls fall to the
    threads differently each time)."""
    ev.ensure_loaded()
    afters = [ev.ranked_plays(pos.position_id, dice, 3, limit=1)[0].position_id
              for pos, dice in _cases(4, seed=71)]
    two = SearchSettings(threads=2)
    for terms in (MONEY, MatchTerms(cube_value=2, cube_owner=1, length=7, away_me=4,
                                    away_opp=2)):
        one = ev.judge_plays(afters, ply, terms)
        for _ in range(2):
            assert ev.judge_plays(afters, ply, terms, two) == one
