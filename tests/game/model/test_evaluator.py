"""The evaluator's Python face: every level's choice is a legal result, ranked candidates
cover the roll, bad input is refused with a clear error, the weights file is checked (size,
magic, version, checksum), and the crashed net judges crashed positions alone. The USR door's
answers are tests/game/zx/test_usr_layout.py's."""
import random
import struct

import pytest

import conftest
from game.errors import DiceError, PositionError
from game.model import evaluator as ev
from game.model.position import Position
from game.model.rules import legal_results
from native import ffi, lib
from shared_cases import positions_from_play as _positions_from_play

START = Position.start().position_id


@pytest.fixture(scope="module", autouse=True)
def weights():
    ev.load_weights()


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_level_chooses_one_of_the_legal_results(level):
    for pos in [Position.start()] + _positions_from_play(6 if level < 5 else 2, seed=level):
        for dice in ((3, 1), (6, 6)):
            chosen = ev.best_play(pos.position_id, dice, level)
            assert chosen in legal_results(pos.position_id, dice)


def test_ranked_candidates_are_every_legal_play_best_first():
    pos = _positions_from_play(3)[-1]
    ranked = ev.ranked_plays(pos.position_id, (5, 2), 3)
    assert {c.position_id for c in ranked} == legal_results(pos.position_id, (5, 2))
    equities = [c.equity for c in ranked]
    assert equities == sorted(equities, reverse=True)
    assert ranked[0].position_id == ev.best_play(pos.position_id, (5, 2), 3)


@pytest.mark.parametrize("level,plies", [(1, {-1}), (3, {0}), (4, {0, 1}), (5, {0, 1, 2})])
def test_each_candidate_says_how_deeply_its_level_judged_it(level, plies):
    seen = set()
    for pos in _positions_from_play(12, seed=9):
        ranked = ev.ranked_plays(pos.position_id, (5, 2), level)
        depths = [c.ply for c in ranked]
        assert set(depths) <= plies
        assert depths == sorted(depths, reverse=True)      # deeper judgements rank first
        seen.update(depths)
        if level >= 4 and len(ranked) > 1:
            assert depths[0] >= 1
    assert max(seen) == max(plies)


def test_limit_returns_the_best_few():
    ranked = ev.ranked_plays(START, (6, 4), 4, limit=3)
    assert len(ranked) == 3
    assert ranked[0].equity >= ranked[1].equity >= ranked[2].equity


def test_the_net_runs_off_with_sixty_five_at_the_start():
    # 24/13 (the "lover's leap") is the standard play of 65
    after = Position.from_id(ev.best_play(START, (6, 5), 3))
    assert after.board[23] == 1 and after.board[12] == 6


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3, 7), (1,), ("a", 2)])
def test_a_die_outside_one_to_six_is_a_dice_error(dice):
    with pytest.raises(DiceError):
        ev.best_play(START, dice, 3)


@pytest.mark.parametrize("level", [0, 6, -1, "5", 2.0, True, None])
def test_an_unknown_level_is_a_level_error(level):
    with pytest.raises(ev.LevelError, match="level is 1 to 5"):
        ev.best_play(START, (3, 1), level)


@pytest.mark.parametrize("pid", ["", "not an id", "4HPwATDgc/ABM", "////////////////", 17])
def test_an_illegal_position_is_a_position_error(pid):
    with pytest.raises(PositionError):
        ev.best_play(pid, (3, 1), 3)


def test_an_impossible_board_is_refused_by_the_c_side_too():
    board = [0] * 50
    board[5], board[25 + 18] = 2, 2      # both colours on the same point
    plays = ffi.new("bg_play[]", 1)
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": 1})
    code = lib.bg_rank_plays(ffi.new("int8_t[]", board), 3, 1, 3, ffi.NULL, ffi.NULL, ranking)
    assert code == -lib.BG_POS_SHARED_POINT


def test_a_finished_game_is_refused_with_a_clear_error():
    finished = Position.from_points({}, {1: 15})     # the mover has borne off every man
    with pytest.raises(ev.EvaluatorError, match="already over"):
        ev.best_play(finished.position_id, (3, 1), 3)


def test_probabilities_are_consistent_at_every_ply():
    for pos in [Position.start()] + _positions_from_play(3):
        for ply in (0, 1):
            p = ev.evaluate(pos.position_id, ply)
            assert 0 <= p.win_backgammon <= p.win_gammon <= p.win <= 1
            assert 0 <= p.lose_backgammon <= p.lose_gammon <= 1 - p.win + 1e-6
            assert -3 <= p.equity <= 3


# ---- races: what cannot happen is zero, what can is seen -------------------------------

def test_a_side_that_has_borne_a_man_off_cannot_lose_a_gammon():
    # the mover has 14 men left, far behind: it loses, but never a gammon
    race = Position.from_points({13: 4, 14: 4, 15: 3, 20: 3}, {1: 3, 2: 3})
    p = ev.evaluate(race.position_id, 0)
    assert p.win < 0.05
    assert p.lose_gammon == 0.0 and p.lose_backgammon == 0.0


def test_in_a_race_a_backgammon_needs_a_man_in_the_winners_home_board():
    # the same men, none in the opponent's home board: a gammon is likely, no backgammon
    home_free = Position.from_points({2: 2, 4: 2, 6: 2, 8: 2, 10: 2, 15: 1, 16: 2, 17: 2},
                                     {1: 3, 2: 3})
    p = ev.evaluate(home_free.position_id, 0)
    assert p.lose_gammon > 0.5 and p.lose_backgammon == 0.0
    # two men on the 24-point against the opponent's last man (on his 2-point): only 66 takes
    # both out of his home board before he bears it off
    stuck = Position.from_points({2: 2, 4: 2, 6: 2, 8: 2, 10: 2, 15: 1, 16: 2, 24: 2}, {2: 1})
    assert ev.evaluate(stuck.position_id, 0).lose_backgammon > 0.2   # (the net: 0.31; truly ~0.97)


def test_in_a_race_the_man_left_in_the_opponents_home_board_comes_out_first():
    # 23 with men on the 16- and 19-points while the opponent bears off his last four: the
    # man on the 19-point (in his home board) must leave it, or a backgammon looms
    pos = Position.from_points({1: 3, 2: 2, 3: 3, 5: 2, 6: 3, 16: 1, 19: 1}, {1: 2, 2: 2})
    after = Position.from_id(ev.best_play(pos.position_id, (2, 3), 3))
    assert not any(after.board[18:24])


def test_the_start_position_is_close_to_even():
    p = ev.evaluate(START, 0)
    assert 0.4 < p.win < 0.6


# ---- the weights file ------------------------------------------------------------------

def _wts_bytes():
    with open(ev.WEIGHTS_PATH, "rb") as fh:
        return bytearray(fh.read())


def test_the_shipped_weights_have_the_expected_size():
    assert len(_wts_bytes()) == lib.bg_weights_expected_size()
    assert lib.bg_weights_games() > 0


def test_a_missing_weights_file_is_a_clear_error(tmp_path):
    with pytest.raises(ev.WeightsError, match="missing"):
        ev.load_weights(str(tmp_path / "nowhere.wts"))


@pytest.mark.parametrize("damage, reason", [
    (lambda b: b[: len(b) // 2], "wrong length"),
    (lambda b: b + b"\0", "wrong length"),
    (lambda b: b"NOTNETS!" + b[8:], "not a Spectrum Backgammon weights file"),
    (lambda b: b[:8] + struct.pack("<I", 99) + b[12:], "another format version"),
    (lambda b: b[:1000] + bytes([b[1000] ^ 0x40]) + b[1001:], "checksum"),
])
def test_a_damaged_weights_file_is_refused_and_the_old_weights_kept(tmp_path, damage, reason):
    before = ev.evaluate(START, 0)
    bad = tmp_path / "bad.wts"
    bad.write_bytes(bytes(damage(_wts_bytes())))
    with pytest.raises(ev.WeightsError, match=reason):
        ev.load_weights(str(bad))
    assert ev.evaluate(START, 0) == before


# ---- the network's forward pass: its two paths, and nets up to 512 hidden units -----------

WTS_HEADER = struct.Struct("<8s6I")      # magic, version, n_in, hid_c, n_in_race, hid_r, games


def _fnv1a(data: bytes) -> int:
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def _random_net_file(hidden: int, seed: int) -> bytes:
    """A weights file of the shipped input count with both nets of `hidden` units, random
    small weights (sums that stay inside the sigmoid's table, so every bit matters)."""
    n_in = WTS_HEADER.unpack_from(_wts_bytes())[2]
    rng = random.Random(seed)
    floats = 2 * (n_in * hidden + hidden + 5 * hidden + 5)
    body = WTS_HEADER.pack(b"SPBGNET1", 1, n_in, hidden, n_in, hidden, 1)
    body += struct.pack(f"<{floats}f", *(rng.uniform(-0.15, 0.15) for _ in range(floats)))
    return body + struct.pack("<I", _fnv1a(body))


@pytest.fixture()
def own_weights():
    """Load a weights file image for one test; the shipped weights and the CPU's own path
    come back afterwards."""
    def load(data: bytes) -> int:
        return lib.bg_load_weights(ffi.from_buffer("uint8_t[]", data), len(data))
    yield load
    lib.bg_nn_avx2(1)
    ev.load_weights()


def _probabilities(boards, allow_avx2: int) -> bytes:
    lib.bg_nn_avx2(allow_avx2)
    out = ffi.new("float[]", len(boards) // lib.BG_BOARD_LEN * lib.BG_N_PROBS)
    assert lib.bg_evaluate_many(ffi.from_buffer("int8_t[]", boards),
                                len(boards) // lib.BG_BOARD_LEN, out) >= 0
    return bytes(ffi.buffer(out))


@pytest.mark.parametrize("hidden", [None, 7, 80, 100, 192, 512])
def test_forward_avx2_and_generic_paths_agree_bit_for_bit(own_weights, hidden):
    if not lib.bg_nn_avx2(1):
        pytest.skip("this CPU (or build) has no AVX2 path: only the generic one runs")
    if hidden is not None:     # None: the shipped nets (192 and 128 units)
        assert own_weights(_random_net_file(hidden, seed=hidden)) == 0
    positions = _positions_from_play(300, seed=11)
    boards = bytes(b & 0xFF for pos in positions for b in pos.board)
    with_avx2 = _probabilities(boards, 1)
    generic = _probabilities(boards, 0)
    assert with_avx2 == generic
    assert len(set(struct.unpack(f"<{len(generic) // 4}f", generic))) > 100   # not all 0 or 1


def test_a_net_of_512_hidden_units_loads_and_plays_and_513_is_refused(own_weights):
    assert own_weights(_random_net_file(512, seed=3)) == 0
    chosen = ev.best_play(START, (3, 1), 3)
    assert chosen in legal_results(START, (3, 1))
    assert own_weights(_random_net_file(513, seed=3)) == -lib.BG_ERR_WTS_VERSION


# ---- the crashed net -------------------------------------------------------------------

def _file_with_crashed(tmp_path, crashed_of):
    return conftest.shipped_with_crashed(tmp_path / "k.wts", crashed_of)


def _crashed_mix():
    """Positions from play (few crashed) and crashed ones made by hand: a side down to five men,
    stacks on the ace and deuce points, a man on the bar against a crashed board."""
    made = [Position.from_points({1: 2, 2: 2, 24: 1}, {2: 3, 6: 5, 8: 3, 13: 4}),
            Position.from_points({6: 5, 8: 3, 13: 5, 22: 2}, {"bar": 1, 1: 5, 2: 3}),
            Position.from_points({1: 8, 2: 3, 5: 1, 20: 1}, {6: 5, 8: 3, 13: 5, 19: 2}),
            Position.from_points({1: 4, 2: 4, 3: 1, 22: 1}, {6: 5, 8: 3, 13: 5, 21: 2}),
            Position.from_points({3: 1, 4: 1, 5: 1, 6: 2, 7: 1, 20: 1}, {6: 5, 8: 3, 13: 5, 24: 2})]
    return made + _positions_from_play(300, seed=17)


def test_the_crashed_net_judges_crashed_contact_positions_and_nothing_else(tmp_path, own_weights):
    positions = _crashed_mix()
    boards = bytes(b & 0xFF for pos in positions for b in pos.board)
    crashed = [conftest.crashed_position(p.board) for p in positions]
    assert 5 <= sum(crashed) < len(positions) // 2 and not crashed[4]

    def probs(data):
        assert own_weights(data) == 0
        raw = _probabilities(boards, 1)
        return [raw[k * 20:(k + 1) * 20] for k in range(len(positions))]

    without = probs(_file_with_crashed(tmp_path, lambda c: None))
    # a crashed net that is the contact net's copy plays exactly as a file without one
    assert probs(_file_with_crashed(tmp_path, lambda c: c.copy())) == without
    # one that says otherwise changes the crashed positions' values, and only theirs

    def shifted(c):
        k = c.copy()
        k.b_out += 1.0
        return k

    other = probs(_file_with_crashed(tmp_path, shifted))
    assert [a != b for a, b in zip(without, other, strict=True)] == crashed


@pytest.mark.parametrize("damage, code", [
    (lambda b: b[:32] + struct.pack("<I", 0) + b[36:], lib.BG_ERR_WTS_VERSION),     # no units
    (lambda b: b[:32] + struct.pack("<I", 513) + b[36:], lib.BG_ERR_WTS_VERSION),   # too many
    (lambda b: b[:32] + struct.pack("<I", 191) + b[36:], lib.BG_ERR_WTS_SIZE),      # not its size
    (lambda b: b[:-1000], lib.BG_ERR_WTS_SIZE),                                      # cut short
    (lambda b: b[:8] + struct.pack("<I", 1) + b[12:], lib.BG_ERR_WTS_SIZE),         # called v1
    (lambda b: b[:8] + struct.pack("<I", 3) + b[12:], lib.BG_ERR_WTS_VERSION),
    (lambda b: b[:-100] + bytes([b[-100] ^ 0x40]) + b[-99:], lib.BG_ERR_WTS_CHECKSUM),  # its net
])
def test_a_damaged_file_with_a_crashed_net_is_refused_and_the_weights_kept(tmp_path, own_weights,
                                                                           damage, code):
    good = _file_with_crashed(tmp_path, lambda c: c.copy())
    assert struct.unpack_from("<I", good, 8)[0] == 2
    assert own_weights(good) == 0
    before = ev.evaluate(START, 0)
    assert own_weights(bytes(damage(good))) == -code
    assert ev.evaluate(START, 0) == before


@pytest.mark.parametrize("code, kind, words", [
    (lib.BG_BAD_DICE, DiceError, "a die shows 1 to 6"),
    (lib.BG_POS_SHARED_POINT, PositionError, "cannot share a point"),
    (lib.BG_ERR_BAD_LEVEL, ev.LevelError, "the level is 1 to 5"),
    (lib.BG_ERR_NO_WEIGHTS, ev.WeightsError, "weights are not loaded"),
    (lib.BG_ERR_GAME_OVER, ev.EvaluatorError, "already over"),
    (lib.BG_ERR_RESOURCES, ev.EvaluatorError, "no memory or no thread"),
    (999, ev.EvaluatorError, r"the evaluator refused the request \(code 999\)"),
])
def test_each_c_refusal_is_one_exception_with_its_reason(code, kind, words):
    error = ev.c_error(-code)
    assert type(error) is kind
    with pytest.raises(kind, match=words):
        raise error
