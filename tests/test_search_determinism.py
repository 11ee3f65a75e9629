"""Level 5 budgets its search in work (positions evaluated), not wall-clock time: the same
position and dice give the same ranking, equities and depths whether the machine is idle or
busy, and the work it reports is the same number both times."""
import multiprocessing
import time

import pytest

from game import evaluator as ev
from native import lib
from test_evaluator import _positions_from_play as _positions


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
        assert lib.bg_set_work_budget(5) == 50000          # refused: unchanged
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
