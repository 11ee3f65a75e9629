"""The one-sided bear-off database our code generates: exact small cases, distributions that
sum to one, more men or higher men never bearing off faster, and each roll played as the best
of the rules engine's legal plays."""
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


def _legal_homes(home, die1, die2):
    """The home boards the rules engine's legal plays of the roll reach from `home` (the
    opponent's men all on its 1-point, our 24-point, out of the way)."""
    board = list(home) + [0] * 19 + [15] + [0] * 24
    boards = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_BOARD_LEN)
    steps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_MAX_STEPS * lib.BG_STEP_FIELDS)
    counts = ffi.new("int8_t[]", lib.BG_MAX_PLAYS)
    n = lib.bg_legal_plays(ffi.new("int8_t[]", board), die1, die2, boards, steps, counts,
                           lib.BG_MAX_PLAYS)
    assert n >= 1
    return {tuple(boards[i * lib.BG_BOARD_LEN + k] for k in range(6)) for i in range(n)}


def test_every_roll_is_played_as_the_rules_engines_play_with_the_fewest_rolls_to_go():
    """The database is built from its own one-man moves, not the rules engine: every board's
    distribution must still be one roll more than that of the best legal play of each roll
    (the fewest rolls to go after it), weighed over the 21 rolls, on boards of 1-15 men."""
    import random
    rng = random.Random(1983)
    seen: dict = {}

    def dist(home):
        if home not in seen:
            d, _ = _dist(home)
            seen[home] = (d, sum(n * x for n, x in enumerate(d)))
        return seen[home]

    homes = {(0, 0, 0, 0, 0, 15), (15, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1)}
    while len(homes) < 200:
        men = rng.randint(1, 15)
        home = [0] * 6
        for _ in range(men):
            home[rng.randrange(6)] += 1
        homes.add(tuple(home))
    for home in sorted(homes):
        want, want_mean = [0.0] * 32, 1.0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                w = (1 if d1 == d2 else 2) / 36
                options = [dist(h) for h in _legal_homes(home, d1, d2)]
                fewest = min(mean for _, mean in options)
                best = next(d for d, mean in options if mean == fewest)
                want_mean += w * fewest
                for r in range(31):
                    want[r + 1] += w * best[r]
                want[31] += w * best[31]
        got, mean = dist(home)
        assert got == pytest.approx(want, abs=2e-6), home
        assert mean == pytest.approx(want_mean, abs=1e-5), home
