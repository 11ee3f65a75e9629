"""The USR request block's layout, through the C door on a 64 KiB memory: the door answers
as the direct evaluator calls do (best play, ranked list, cube, evaluation), writes nothing
outside its block, and reports a bad request as a status, never an exception."""
import pytest

from game.model import evaluator as ev
from game.model.position import Position
from game.model.rules import legal_results
from game.zx import usr_layout as U
from native import ffi, lib
from shared_cases import positions_from_play as _positions_from_play

START = Position.start().position_id


@pytest.fixture(scope="module", autouse=True)
def weights():
    ev.load_weights()


PARAMS = 0xF000


def _door(request: bytes, addr=PARAMS):
    memory = bytearray(65536)
    memory[addr:addr + len(request)] = request
    status = U.usr_call(memory, addr)
    return status, U.decode_answer(memory, addr), memory


def test_the_door_best_play_matches_the_direct_call():
    pos = _positions_from_play(4)[-1]
    status, answer, _ = _door(U.encode_request(U.JOB_BEST, pos, (4, 2), 3))
    assert status == 0
    assert answer["after"].position_id == ev.best_play(pos.position_id, (4, 2), 3)
    assert answer["legal_plays"] == len(legal_results(pos.position_id, (4, 2)))
    direct = ev.ranked_plays(pos.position_id, (4, 2), 3, limit=1)[0]
    assert answer["steps"] == direct.play.steps


def test_the_door_ranked_list_matches_the_direct_call():
    status, answer, _ = _door(U.encode_request(U.JOB_RANK, START, (6, 4), 4, want=5))
    assert status == 0
    direct = ev.ranked_plays(START, (6, 4), 4, limit=5)
    assert [s for s, _ in answer["candidates"]] == [c.play.steps for c in direct]
    assert [round(e, 3) for _, e in answer["candidates"]] == [round(c.equity, 3) for c in direct]


def test_the_door_cube_and_eval_jobs_answer():
    status, cube, _ = _door(U.encode_request(U.JOB_CUBE, START, level=3))
    direct, answered = ev.cube_decision(START, level=3), cube["decision"]
    assert status == 0 and type(answered) is ev.CubeDecision      # one type for both ways
    assert (answered.double, answered.take) == (direct.double, direct.take) == (False, True)
    assert abs(answered.no_double_equity - direct.no_double_equity) <= 0.0005   # thousandths
    assert abs(answered.win - direct.win) <= 0.00005                            # 1/10000ths
    status, evaluation, _ = _door(U.encode_request(U.JOB_EVAL, START, level=3))
    assert status == 0
    assert abs(evaluation["probabilities"].win - ev.evaluate(START, 0).win) < 1e-3


def test_the_door_writes_nothing_outside_its_block():
    request = U.encode_request(U.JOB_RANK, START, (6, 6), 3)
    status, _, memory = _door(request)
    assert status == 0
    assert not any(memory[:PARAMS]) and not any(memory[PARAMS + U.BLOCK_LEN:])


@pytest.mark.parametrize("patch, code", [
    ({0: 77}, lib.BG_ERR_USR_JOB),
    ({1: 9}, lib.BG_ERR_BAD_LEVEL),
    ({2: 0}, lib.BG_BAD_DICE),
    ({3: 7}, lib.BG_BAD_DICE),
    ({6: 16}, lib.BG_POS_TOO_MANY_MEN),
])
def test_the_door_reports_bad_requests_as_a_status(patch, code):
    request = bytearray(U.encode_request(U.JOB_BEST, START, (3, 1), 3))
    for offset, value in patch.items():
        request[offset] = value
    status, answer, _ = _door(bytes(request))
    assert status == code and answer["status"] == code


def test_the_door_refuses_a_block_past_the_end_of_memory():
    assert U.usr_call(bytearray(65536), 65536 - 100) == lib.BG_ERR_USR_ADDR
    assert lib.bg_usr(ffi.from_buffer("uint8_t[]", bytearray(65536)), 65500) == lib.BG_ERR_USR_ADDR
