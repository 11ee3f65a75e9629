"""bg.h's one error convention (written once at its top): a function that can fail returns an
int, 0 or more on success and a negative named code on failure; there is no process-global
setting (settings travel with each call, bad ones refused with -BG_ERR_BAD_SEARCH) and no
read-back of a last call; the few that return something else are the header's named
exceptions. Proved on the built engine and on the header's own text."""
import re

import pytest

from game.model import evaluator as ev
from native import build, ffi, lib


@pytest.fixture(autouse=True)
def weights():
    ev.ensure_loaded()


def _prototypes():
    """(name, parameter count) of every function in the cffi cdef."""
    text = re.sub(r"/\*.*?\*/", "", build.cdef_text(), flags=re.S)
    found = []
    for name, params in re.findall(r"\b(bg_\w+)\s*\(([^()]*)\)\s*;", text):
        params = params.strip()
        found.append((name, 0 if params in ("", "void") else params.count(",") + 1))
    return found


def test_no_prototype_takes_more_than_eight_parameters():
    prototypes = _prototypes()
    assert len(prototypes) > 40                   # the parse found the header's functions
    assert dict(prototypes)["bg_rank_plays"] == 7
    assert [(name, n) for name, n in prototypes if n > 8] == []


def test_the_header_has_no_global_setter_and_no_read_back_of_a_last_call():
    names = [name for name, _ in _prototypes()]
    assert [n for n in names if n.startswith(("bg_set_", "bg_last_"))] == []
    assert "bg_eval_cache" not in names


def test_the_avx2_hook_takes_0_or_1_only():
    using = lib.bg_nn_avx2(1)
    for value in (2, -1, 255):
        assert lib.bg_nn_avx2(value) == -lib.BG_ERR_BAD_ARG
    assert lib.bg_nn_avx2(1) == using


def shared_point_board():
    board = ffi.new("int8_t[]", lib.BG_BOARD_LEN)
    board[5], board[25 + 18] = 2, 2                   # both colours on the mover's 6-point
    return board


def test_a_bad_board_is_the_same_negative_code_from_every_function_that_takes_one():
    board, code = shared_point_board(), -lib.BG_POS_SHARED_POINT
    plays = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_BOARD_LEN)
    steps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_MAX_STEPS * lib.BG_STEP_FIELDS)
    nsteps, out = ffi.new("int8_t[]", lib.BG_MAX_PLAYS), ffi.new("float[]", 6)
    made, handle = ffi.new("int8_t[]", 2), ffi.new("bg_rollout **")
    ranked = ffi.new("bg_play[]", 1)
    ranking = ffi.new("bg_ranking *", {"plays": ranked, "max_plays": 1})
    plan = ffi.new("bg_rollout_plan *", {"kind": 0, "trials": 1, "level": 3, "threads": 1,
                                         "seed": 1})
    assert lib.bg_validate(board) == code
    assert lib.bg_legal_plays(board, 3, 1, plays, steps, nsteps, lib.BG_MAX_PLAYS) == code
    assert lib.bg_evaluate(board, 0, ffi.NULL, out) == code
    assert lib.bg_rank_plays(board, 3, 1, 3, ffi.NULL, ffi.NULL, ranking) == code
    assert lib.bg_cube_decision(board, 3, ffi.NULL, ffi.NULL, out) == code
    assert lib.bg_step_check(board, 3, 1, made, 0, 7, 3, plays) == code
    assert lib.bg_turn_complete(board, 3, 1, made, 0) == code
    assert lib.bg_bench_generate(board, ffi.new("int8_t[]", [3, 1]), 1, 1) == code
    assert lib.bg_rollout_start(board, 1, plan, ffi.NULL, ffi.NULL, handle) == code
    assert handle[0] == ffi.NULL
    start = ffi.new("int8_t[]", lib.BG_BOARD_LEN)
    lib.bg_start(start)
    assert lib.bg_bench_generate(start, ffi.new("int8_t[]", [0, 1]), 1, 1) == -lib.BG_BAD_DICE


def test_a_refused_step_is_its_negative_reason_and_a_good_one_0():
    start = ffi.new("int8_t[]", lib.BG_BOARD_LEN)
    lib.bg_start(start)
    after, made = ffi.new("int8_t[]", lib.BG_BOARD_LEN), ffi.new("int8_t[]", 2)
    assert lib.bg_step_check(start, 3, 1, made, 0, 7, 5, after) == -lib.BG_STEP_NO_SUCH_DIE
    assert lib.bg_step_check(start, 3, 1, made, 0, 2, 3, after) == -lib.BG_STEP_NO_MAN
    assert lib.bg_step_check(start, 3, 1, made, 0, 7, 3, after) == lib.BG_STEP_OK
    assert list(after) != list(start)


def test_answers_that_are_not_a_status_come_back_through_out_pointers():
    text = ffi.new("const char **")
    count = lib.bg_legal_result_text(b"4HPwATDgc/ABMA", 3, 1, text)
    assert count == 16 and len(ffi.string(text[0]).split()) == count
    assert lib.bg_legal_result_text(b"4HPwATDgc/ABMA", 0, 1, text) == -lib.BG_BAD_DICE
    assert text[0] == ffi.NULL
    assert lib.bg_legal_result_text(b"not an id at all", 3, 1, text) == -lib.BG_ERR_BAD_ID
    start = ffi.new("int8_t[]", lib.BG_BOARD_LEN)
    lib.bg_start(start)
    plays = ffi.new("bg_play[]", 2)
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": 2})
    assert lib.bg_rank_plays(start, 3, 1, 1, ffi.NULL, ffi.NULL, ranking) == 2
    assert plays[0].ply == -1                    # level 1's heuristic: an answer of the play
    assert ranking.legal == 16 and ranking.work == 0
    ranking.max_plays = 0
    assert lib.bg_rank_plays(start, 3, 1, 1, ffi.NULL, ffi.NULL, ranking) == -lib.BG_ERR_BAD_ARG


def test_every_function_that_returns_no_int_status_is_a_named_exception_of_the_header():
    text = build.cdef_text()
    head = open(build.HERE + "/bg.h").read().split("cffi-cdef begin")[0]
    exceptions = set(re.findall(r"\b(bg_\w+)", head))
    odd = []
    for kind, name in re.findall(r"^\s*((?:const )?\w+ \**)(bg_\w+)\s*\(", text, re.M):
        if kind.strip() not in ("int", "int64_t") and name not in exceptions:
            odd.append(f"{kind.strip()} {name}")
    assert not odd, f"returns no status and is not a named exception in bg.h's head: {odd}"
    assert "bg_game_result" in exceptions and "bg_usr" in exceptions
