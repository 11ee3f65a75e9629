"""bg.h's one error convention (written once at its top): a function that can fail returns an
int, 0 or more on success and a negative named code on failure; every setter refuses a bad
value with -BG_ERR_BAD_ARG and keeps its setting; the few that return something else are the
header's named exceptions. Proved on the built engine and on the header's own text."""
import re

import pytest

from game.model import evaluator as ev
from native import build, ffi, lib

# (setter, a good value, another good value, bad values); each returns the previous value
SETTERS = [
    ("bg_set_work_budget", 20000, 30000, (0, 999, lib.BG_BUDGET_MAX + 1, -5)),
    ("bg_set_deep_budget", 20000, 30000, (0, 999, lib.BG_BUDGET_MAX + 1, -5)),
    ("bg_set_search_plies", 3, 2, (0, 1, 4, -2)),
    ("bg_eval_cache", 0, 1, (2, -1, 7)),
]


@pytest.fixture(autouse=True)
def weights():
    ev.ensure_loaded()


@pytest.mark.parametrize("name, good, other, bad", SETTERS)
def test_every_setter_refuses_a_bad_value_and_keeps_its_setting(name, good, other, bad):
    setter = getattr(lib, name)
    old = setter(good)
    try:
        for value in bad:
            assert setter(value) == -lib.BG_ERR_BAD_ARG, (name, value)
        assert setter(other) == good            # the refusals changed nothing
    finally:
        setter(old)


def test_the_rollout_setter_refuses_bad_trials_or_horizons_and_keeps_its_setting():
    old = lib.bg_set_rollouts(0, 1)
    try:
        assert lib.bg_set_rollouts(12, 5) == 0
        for trials, horizon in ((-1, 5), (3601, 5), (12, 0), (12, 51)):
            assert lib.bg_set_rollouts(trials, horizon) == -lib.BG_ERR_BAD_ARG
        assert lib.bg_set_rollouts(0, 1) == 12
    finally:
        lib.bg_set_rollouts(old if old >= 0 else 0, 1)


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
    assert lib.bg_validate(board) == code
    assert lib.bg_legal_plays(board, 3, 1, plays, steps, nsteps, lib.BG_MAX_PLAYS) == code
    assert lib.bg_evaluate(board, 0, out) == code
    assert lib.bg_rank_plays(board, 3, 1, 3, ffi.NULL, plays, steps, nsteps, out, 1) == code
    assert lib.bg_cube_decision(board, 3, ffi.NULL, out) == code
    assert lib.bg_step_check(board, 3, 1, made, 0, 7, 3, plays) == code
    assert lib.bg_turn_complete(board, 3, 1, made, 0) == code
    assert lib.bg_bench_generate(board, ffi.new("int8_t[]", [3, 1]), 1, 1) == code
    assert lib.bg_rollout_start(board, 1, 0, 1, 3, 0, 1, 1, ffi.NULL, handle) == code
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
    ply = ffi.new("int *")
    start = ffi.new("int8_t[]", lib.BG_BOARD_LEN)
    lib.bg_start(start)
    assert lib.bg_rank_plays(start, 3, 1, 1, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL,
                             2) == 2
    assert lib.bg_last_ply(0, ply) == 0 and ply[0] == -1      # level 1's heuristic: an answer
    assert lib.bg_last_ply(2, ply) == -lib.BG_ERR_BAD_ARG


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
