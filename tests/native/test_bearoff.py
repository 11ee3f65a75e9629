"""The one-sided bear-off database our code generates: exact small cases, distributions that
sum to one, and more men or higher men never bearing off faster."""
import pytest

from native import ffi, lib


def _dist(home):
    out = ffi.new("float[]", 32)
    mean_milli = lib.bg_bearoff_dist(ffi.new("int8_t[]", list(home)), out)
    assert mean_milli >= 0
    return list(out), mean_milli / 1000.0


def test_one_man_is_off_in_one_roll_unless_the_roll_is_too_small():
    # a roll fails when both dice (or four of a double) move fewer pips than the point:
    # 4-point: 21; 5-point: 21, 11, 31; 6-point: 21, 11, 31, 41, 32
    for point, fails in ((0, 0), (1, 0), (2, 0), (3, 2), (4, 5), (5, 9)):
        home = [0] * 6
        home[point] = 1
        dist, mean = _dist(home)
        assert dist[1] == pytest.approx(1 - fails / 36, abs=1e-6)
        assert mean == pytest.approx(1 + fails / 36, abs=1e-3)


def test_two_men_on_the_six_point_need_a_double_of_three_or_more_for_one_roll():
    dist, _ = _dist([0, 0, 0, 0, 0, 2])
    assert dist[1] == pytest.approx(4 / 36, abs=1e-6)


def test_an_empty_board_needs_no_rolls():
    dist, mean = _dist([0] * 6)
    assert dist[0] == pytest.approx(1.0) and mean == 0


def test_every_distribution_sums_to_one():
    for home in ([15, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 15], [3, 2, 2, 3, 3, 2], [1, 0, 4, 0, 0, 7]):
        dist, _ = _dist(home)
        assert sum(dist) == pytest.approx(1.0, abs=1e-5)


def test_more_men_or_higher_men_never_bear_off_faster():
    _, low = _dist([2, 2, 2, 2, 2, 2])
    _, more = _dist([3, 2, 2, 2, 2, 2])
    _, higher = _dist([1, 2, 2, 2, 2, 3])
    assert more >= low and higher >= low
    # fifteen men on the six point: every roll bears off at most four men
    _, stacked = _dist([0, 0, 0, 0, 0, 15])
    assert stacked > 7


def test_bad_home_boards_are_refused():
    out = ffi.new("float[]", 32)
    assert lib.bg_bearoff_dist(ffi.new("int8_t[]", [16, 0, 0, 0, 0, 0]), out) < 0
    assert lib.bg_bearoff_dist(ffi.new("int8_t[]", [-1, 0, 0, 0, 0, 0]), out) < 0
    assert lib.bg_bearoff_dist(ffi.new("int8_t[]", [8, 8, 0, 0, 0, 0]), out) < 0
