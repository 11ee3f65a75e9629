"""The Python face's fast paths give the answers of the slow ones: position IDs read and
written in C agree with game/model/position.py on valid and damaged IDs, legal_results equals the
IDs of legal_plays, the lazy Plays and Candidates behave as the lists they replace, and bad
input still gets the worded errors."""
import base64
import random

import pytest

from conftest import at_once
from game.errors import DiceError, PositionIdError
from game.model import evaluator as ev
from game.model.position import Position
from game.model.rules import Plays, legal_plays, legal_results
from native import ffi, lib


def _walk(n, seed):
    """(position, dice) pairs along seeded random games."""
    rng = random.Random(seed)
    pos, out = Position.start(), []
    while len(out) < n:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((pos, dice))
        after = rng.choice(legal_plays(pos, dice)).after
        pos = Position.start() if lib.bg_game_result(after.as_c()) else after.swapped()
    return out


def python_position_id(board) -> str:
    """gnubg's encoding written out in Python, independently of the C engine: the side not on
    roll first, each point's men as 1-bits ended by a 0, bits little-end first in 10 bytes."""
    bits = []
    for row in (board[25:], board[:25]):
        for count in row:
            bits += [1] * count + [0]
    bits += [0] * (80 - len(bits))
    key = bytes(sum(bits[8 * i + j] << j for j in range(8)) for i in range(10))
    return base64.b64encode(key).decode("ascii")[:14]


def test_c_reads_and_writes_the_ids_python_does():
    board, text = ffi.new("int8_t[]", 50), ffi.new("char[]", 15)
    for pos, _dice in _walk(1500, seed=1):
        assert pos.position_id == python_position_id(pos.board)
        assert Position.from_id(pos.position_id) == pos          # Python's decoder agrees
        assert lib.bg_board_from_id(pos.position_id.encode(), board) == 0
        assert tuple(board[0:50]) == pos.board
        assert lib.bg_ids_of_boards(pos.as_c(), 1, text) == 1
        assert ffi.unpack(text, 15).decode() == pos.position_id + " "


def test_c_refuses_exactly_the_ids_python_refuses():
    rng = random.Random(4)
    board = ffi.new("int8_t[]", 50)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    accepted = refused = 0
    for i in range(20000):
        if i % 2:
            chars = list("4HPwATDgc/ABMA")
            chars[rng.randrange(14)] = rng.choice(alphabet)
            text = "".join(chars)
        else:
            bits = [0] * 80
            for j in rng.sample(range(80), rng.randint(20, 40)):
                bits[j] = 1
            key = bytes(sum(bits[8 * k + j] << j for j in range(8)) for k in range(10))
            text = base64.b64encode(key).decode()[:14]
        try:
            expected = Position.from_id(text).board
        except PositionIdError:
            expected = None
        code = lib.bg_board_from_id(text.encode(), board)
        assert (tuple(board[0:50]) if code == 0 else None) == expected, text
        assert code in (0, -lib.BG_ERR_BAD_ID)
        accepted += code == 0
        refused += code != 0
    assert accepted > 1000 and refused > 1000


@pytest.mark.parametrize("text", ["4HPwATDgc/AB", "4HPwATDgc/ABM!", "", "4HPw\0TDgc/ABMA"])
def test_c_refuses_short_or_foreign_text(text):
    board = ffi.new("int8_t[]", 50)
    assert lib.bg_board_from_id(text.encode(), board) == -lib.BG_ERR_BAD_ID


def test_legal_results_are_the_ids_of_the_legal_plays():
    for pos, dice in _walk(800, seed=2):
        assert legal_results(pos.position_id, dice) == {p.after.position_id
                                                        for p in legal_plays(pos, dice)}


def test_legal_plays_takes_an_id_as_well_as_a_position():
    for pos, dice in _walk(50, seed=3):
        assert legal_plays(pos.position_id, dice) == legal_plays(pos, dice)


def test_plays_behave_as_the_list_they_replace():
    pos = Position.start()
    plays = legal_plays(pos, (6, 6))
    listed = list(plays)
    assert isinstance(plays, Plays) and len(plays) == len(listed) > 1
    assert plays == listed and plays[-1] == listed[-1] and plays[1:3] == listed[1:3]
    assert listed[0] in plays and plays.index(listed[2]) == 2
    with pytest.raises(IndexError):
        plays[len(listed)]
    forfeit = legal_plays(Position.from_points({"bar": 1}, {p: 2 for p in range(1, 7)}), (3, 1))
    assert len(forfeit) == 1 and forfeit[0].steps == ()


def test_a_step_borne_off_keeps_its_minus_one():
    pos = Position.from_points({1: 2}, {1: 2})
    (play,) = legal_plays(pos, (2, 1))[:1]
    assert {step.to_index for step in play.steps} == {-1}


def test_ranked_candidates_match_one_by_one_and_the_best_play_is_the_first():
    ev.ensure_loaded()
    for pos, dice in _walk(40, seed=5):
        for level in (1, 3, 4):
            ranked = ev.ranked_plays(pos.position_id, dice, level)
            listed = list(ranked)
            assert len(ranked) == len(listed) and ranked == listed
            plays = ffi.new("bg_play[]", len(listed))
            ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": len(listed)})
            assert lib.bg_rank_plays(pos.as_c(), *dice, level, ffi.NULL, ffi.NULL,
                                     ranking) == len(listed)
            assert [c.ply for c in listed] == [plays[i].ply for i in range(len(listed))]
            assert ev.best_play(pos.position_id, dice, level) == listed[0].position_id


@pytest.mark.parametrize("dice", [(0, 1), (7, 2), (True, 3), (1,), "31", None, (1.0, 2)])
def test_the_fast_path_still_words_bad_dice(dice):
    with pytest.raises(DiceError):
        legal_results(Position.start().position_id, dice)


@pytest.mark.parametrize("bad", ["4HPwATDgc/ABM", "4HPwATDgc/AB!A", "//////////////", None, 7])
def test_the_fast_path_still_words_bad_ids(bad):
    with pytest.raises(PositionIdError):
        legal_results(bad, (3, 1))
    with pytest.raises(PositionIdError):
        ev.best_play(bad, (3, 1), 3)


def test_an_id_with_spaces_around_it_is_still_read():
    pid = Position.start().position_id
    assert legal_results(f" {pid} ", (3, 1)) == legal_results(pid, (3, 1))


def test_plays_stay_right_after_the_dedup_generations_wrap_around():
    """The generator's dedup table marks entries with a 20-bit generation that wraps after
    about a million generations; plays generated after the wrap are still every play."""
    pos = Position.start()
    before = legal_results(pos.position_id, (6, 5))
    boards = ffi.new("int8_t[]", list(pos.board))
    dice = ffi.new("int8_t[]", [6, 5])
    lib.bg_bench_generate(boards, dice, 1, 1 << 20)
    for _ in range(3):
        assert legal_results(pos.position_id, (6, 5)) == before
        assert len(legal_plays(pos, (2, 2))) == len(set(p.after for p in legal_plays(pos, (2, 2))))


def test_threads_calling_at_once_each_read_their_own_answers():
    """The C side writes each thread's answers into that thread's own buffers (legal_results'
    text, legal_plays' and ranked_plays' arrays), so four threads at once get what one
    thread gets, call by call."""
    cases = [(pos.position_id, dice) for pos, dice in _walk(400, seed=17)]
    ev.ensure_loaded()

    def answers(part):
        return [(legal_results(pid, dice), [p.after for p in legal_plays(pid, dice)],
                 [(c.position_id, c.equity) for c in ev.ranked_plays(pid, dice, 3)],
                 ev.best_play(pid, dice, 3)) for pid, dice in part]

    alone = answers(cases)
    out = at_once(answers, [cases[k::4] for k in range(4)])
    for k in range(4):
        assert out[k] == alone[k::4]
