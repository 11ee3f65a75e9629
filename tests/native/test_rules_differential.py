"""Differential test: the C rules engine against tests/refmovegen.py, an independent brute-force
generator, on positions reached by seeded random play. Not a test of individual rules (those
are in test_inlay_rules.py); this one looks for any disagreement at all."""
import random
import time

import pytest

import refmovegen as ref
from native import ffi, lib

SAMPLE_POSITIONS = 8_000
STEP_CHECK_POSITIONS = 2_000
SEED = 1983

_boards = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_BOARD_LEN)
_steps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_MAX_STEPS * lib.BG_STEP_FIELDS)
_nsteps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS)


def c_plays(board, die1, die2):
    """[(after board, [(from, to, die, hit), ...])] from bg_legal_plays."""
    n = lib.bg_legal_plays(ffi.new("int8_t[]", list(board)), die1, die2, _boards, _steps,
                           _nsteps, lib.BG_MAX_PLAYS)
    assert n >= 1, f"bg_legal_plays returned {n}"
    flat = ffi.unpack(_boards, n * 50)
    raw = ffi.unpack(_steps, n * 16)
    return [(tuple(flat[i * 50:(i + 1) * 50]),
             [tuple(raw[i * 16 + k * 4:i * 16 + k * 4 + 4]) for k in range(_nsteps[i])])
            for i in range(n)]


def start_board():
    buf = ffi.new("int8_t[]", 50)
    lib.bg_start(buf)
    return tuple(ffi.unpack(buf, 50))


def random_play_positions(count, seed):
    """(board, die1, die2) for `count` turns of seeded random play (both sides pick uniformly
    among the reference's results), restarting when a game ends."""
    rng = random.Random(seed)
    start = start_board()
    board = start
    for _ in range(count):
        die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
        yield board, die1, die2
        after = rng.choice(sorted(ref.legal_results(board, die1, die2)))
        board = ref.swap(after)
        if ref.game_over(board):
            board = start
        if ref.longest.cache_info().currsize > 150_000:
            ref.longest.cache_clear()


def test_c_engine_and_reference_agree_on_random_play():
    began_s = time.perf_counter()
    seen = {"bar": 0, "bearoff": 0, "forfeit": 0, "one_die": 0, "doubles": 0}
    for board, die1, die2 in random_play_positions(SAMPLE_POSITIONS, SEED):
        want = ref.legal_results(board, die1, die2)
        plays = c_plays(board, die1, die2)
        got = [after for after, _ in plays]
        assert len(got) == len(set(got)), "the C engine listed a position twice"
        assert set(got) == want, (board, die1, die2, want ^ set(got))
        most = ref.longest(board, ref.roll_dice(die1, die2))[0]
        for after, steps in plays:
            # the steps the C engine reports really make that play, using the right dice
            assert len(steps) == most
            walk = board
            for frm, _to, die, _hit in steps:
                walk = ref.one_step(walk, frm + 1, die)
                assert walk is not None, (board, die1, die2, steps)
            assert walk == after
            assert all(s[2] in (die1, die2) for s in steps)
            if most == len(ref.roll_dice(die1, die2)):
                assert sorted(s[2] for s in steps) == sorted(ref.roll_dice(die1, die2))
        seen["bar"] += board[24] > 0
        seen["bearoff"] += all(board[i] == 0 for i in range(6, 25))
        seen["forfeit"] += most == 0
        seen["one_die"] += most == 1
        seen["doubles"] += die1 == die2
    elapsed_s = time.perf_counter() - began_s
    print(f"differential: {SAMPLE_POSITIONS} positions in {elapsed_s:.1f} s; {seen}")
    # the sample really reaches the interesting corners of the rules
    assert all(n >= 50 for n in seen.values()), seen


def reference_next_steps(start, die1, die2, made):
    """(from, die) steps allowed after the steps `made`, by the reference."""
    dice = list(ref.roll_dice(die1, die2))
    best = ref.longest(start, tuple(dice))[0]
    board = start
    for frm, die in made:
        board = ref.one_step(board, frm + 1, die)
        dice.remove(die)
    if len(made) >= best:
        return set()
    out = set()
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for frm in range(25):
            after = ref.one_step(board, frm + 1, die)
            if (after is not None
                    and len(made) + 1 + ref.longest(after, tuple(sorted(rest)))[0] == best):
                out.add((frm, die))
    if best == 1 and die1 != die2 and any(d == max(die1, die2) for _, d in out):
        out = {s for s in out if s[1] == max(die1, die2)}
    return out


def c_step_ok(start, die1, die2, made, frm, die):
    out = ffi.new("int8_t[]", 50)
    flat = [v for pair in made for v in pair] or [0]
    return lib.bg_step_check(ffi.new("int8_t[]", list(start)), die1, die2,
                             ffi.new("int8_t[]", flat), len(made), frm, die, out) == lib.BG_STEP_OK


def test_typed_step_check_agrees_with_reference_at_every_depth():
    rng = random.Random(SEED + 1)
    checked = 0
    for board, die1, die2 in random_play_positions(STEP_CHECK_POSITIONS, SEED + 2):
        made = []
        while True:
            want = reference_next_steps(board, die1, die2, made)
            got = {(frm, die) for frm in range(25) for die in {die1, die2}
                   if c_step_ok(board, die1, die2, made, frm, die)}
            assert got == want, (board, die1, die2, made)
            checked += 1
            if not want:
                break
            made.append(rng.choice(sorted(want)))
        flat = [v for pair in made for v in pair] or [0]
        assert lib.bg_turn_complete(ffi.new("int8_t[]", list(board)), die1, die2,
                                    ffi.new("int8_t[]", flat), len(made)) == 1
    assert checked > STEP_CHECK_POSITIONS


@pytest.mark.parametrize("dice", [(2, 1), (6, 6)])
def test_every_order_of_a_play_is_accepted_step_by_step(dice):
    """Dedup keeps one order per play; the typed check must accept every order of the steps."""
    for board, _, _ in random_play_positions(300, SEED + 3):
        for _after, steps in c_plays(board, *dice):
            order = [(s[0], s[2]) for s in steps]
            for made in (order, order[::-1]) if dice[0] != dice[1] else (order,):
                ok = all(c_step_ok(board, *dice, made[:k], *made[k]) for k in range(len(made)))
                # the reversed order may be illegal (e.g. a man moving twice); the reference decides
                ref_ok = all(made[k] in reference_next_steps(board, *dice, made[:k])
                             for k in range(len(made)))
                assert ok == ref_ok, (board, dice, made)


SCATTER_POSITIONS = 5_000


def scattered_board(rng):
    """A random legal board not reached by play: random men on random points and bars, often
    all in the home board (bear-off), sometimes with men on both bars."""
    board = [0] * 50
    home_only = rng.random() < 0.4
    for row, men in ((0, rng.randint(1, 15)), (1, rng.randint(1, 15))):
        for _ in range(men):
            while True:
                if rng.random() < 0.05:
                    index = 24
                elif home_only and row == 0:
                    index = rng.randrange(6)
                else:
                    index = rng.randrange(24)
                other = 25 * (1 - row) + (23 - index)
                if index == 24 or board[other] == 0:
                    break
            board[25 * row + index] += 1
    return tuple(board)


def test_c_engine_and_reference_agree_on_scattered_positions():
    rng = random.Random(SEED + 4)
    for _ in range(SCATTER_POSITIONS):
        board = scattered_board(rng)
        die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
        got = {after for after, _ in c_plays(board, die1, die2)}
        assert got == ref.legal_results(board, die1, die2), (board, die1, die2)
        if ref.longest.cache_info().currsize > 150_000:
            ref.longest.cache_clear()
