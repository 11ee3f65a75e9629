"""Bad input never crashes and never changes a position: malformed position IDs, impossible
boards, bad dice and badly typed moves each raise the project's own exception with a message
a player can read. Not the rules themselves (test_inlay_rules.py)."""
import base64
import random
import string

import pytest

from game.errors import (
    BackgammonError,
    DiceError,
    EntryError,
    IllegalMoveError,
    PositionError,
    PositionIdError,
)
from game.model.position import Position, parse_entry
from game.model.rules import Turn, legal_plays, legal_results
from native import ffi, lib

NOISE = "".join(random.Random(500).choice(string.printable) for _ in range(500))


def id_from_bits(bits):
    bits = bits + [0] * (80 - len(bits))
    key = bytes(sum(bits[8 * i + j] << j for j in range(8)) for i in range(10))
    return base64.b64encode(key).decode()[:14]


# ---- position IDs ------------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["", "abc", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A",
                                 "4HPwATDgc ABMA", "éHPwATDgc/ABMA", NOISE, "//////////////"])
def test_malformed_position_id_is_a_position_id_error(bad):
    with pytest.raises(PositionIdError) as info:
        Position.from_id(bad)
    message = str(info.value)
    assert "position ID" in message and len(message) < 200


def test_position_id_that_is_not_text():
    with pytest.raises(PositionIdError):
        Position.from_id(None)


def test_position_id_with_sixteen_men():
    bits = [1] * 16 + [0] * 25 + [1] * 1 + [0] * 25
    with pytest.raises(PositionIdError, match="16 men"):
        Position.from_id(id_from_bits(bits))


def test_position_id_with_both_colours_on_one_point():
    # opponent: 15 on its 1-point (= the mover's 24); mover: 15 on its 24-point
    bits = [1] * 15 + [0] * 25 + [0] * 23 + [1] * 15 + [0, 0]
    with pytest.raises(PositionIdError, match="share a point"):
        Position.from_id(id_from_bits(bits))


def test_legal_results_rejects_a_bad_id_and_bad_dice():
    with pytest.raises(PositionIdError):
        legal_results("not an id at all", (3, 1))
    with pytest.raises(DiceError):
        legal_results(Position.start().position_id, (0, 7))


# ---- impossible positions ------------------------------------------------------------------

def test_sixteen_men_is_a_position_error():
    with pytest.raises(PositionError, match="more than fifteen"):
        Position.from_points({6: 16}, {6: 15})
    with pytest.raises(PositionError, match="more than fifteen"):
        Position.from_points({6: 10, 8: 6}, {6: 15})


def test_both_colours_on_one_point_is_a_position_error():
    with pytest.raises(PositionError, match="share a point"):
        Position.from_points({6: 2}, {19: 1})               # the opponent's 19 is the mover's 6


def test_negative_count_is_a_position_error():
    with pytest.raises(PositionError, match="fewer than no men"):
        Position.from_points({6: -1}, {6: 2})


@pytest.mark.parametrize("board", [(0,) * 49, (0,) * 51, ("1",) * 50, (1.5,) + (0,) * 49, 42,
                                   (0,) * 50])
def test_malformed_boards_are_position_errors(board):
    with pytest.raises(PositionError):
        Position(board)


def test_c_engine_refuses_impossible_boards_without_crashing():
    board = ffi.new("int8_t[]", [16] + [0] * 49)
    out = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * 50)
    steps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * 16)
    nsteps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS)
    assert lib.bg_legal_plays(board, 3, 1, out, steps, nsteps, lib.BG_MAX_PLAYS) == \
        -lib.BG_POS_TOO_MANY_MEN
    start = ffi.new("int8_t[]", 50)
    lib.bg_start(start)
    assert lib.bg_legal_plays(start, 0, 1, out, steps, nsteps, lib.BG_MAX_PLAYS) == -lib.BG_BAD_DICE
    assert lib.bg_legal_plays(start, 2, 1, out, steps, nsteps, 3) == -lib.BG_NO_ROOM
    made = ffi.new("int8_t[]", [0])
    assert lib.bg_step_check(start, 3, 1, made, 0, 99, 3, out) == -lib.BG_STEP_BAD_INPUT
    assert lib.bg_step_check(start, 3, 1, made, 0, 12, 0, out) == -lib.BG_STEP_BAD_INPUT
    bad_history = ffi.new("int8_t[]", [0, 3])              # no man on the 1-point
    assert lib.bg_step_check(start, 3, 1, bad_history, 1, 12, 1, out) == -lib.BG_STEP_BAD_INPUT
    assert lib.bg_turn_complete(start, 3, 1, bad_history, 1) < 0


@pytest.mark.parametrize("dice", [(0, 1), (7, 2), (3,), (1, 2, 3), ("3", "1"), None, (True, 2)])
def test_bad_dice_are_dice_errors(dice):
    with pytest.raises(DiceError):
        legal_plays(Position.start(), dice)


# ---- typed entries ----------------------------------------------------------------------

@pytest.mark.parametrize("typed,words", [("Q9", "9 is not a number on a die"), ("Y3", "no point Y"),
                                         ("K0", "0 is not a number on a die"),
                                         ("K7", "7 is not a number on a die"),
                                         ("zz", "not a move"), ("4", "not a move"),
                                         ("", "point letter"), ("   ", "point letter"),
                                         (NOISE, "not a move"), ("K44", "44 is not"),
                                         ("4K4", "not a move")])
def test_bad_typed_entry_is_an_entry_error_and_changes_nothing(typed, words):
    start = Position.start()
    turn = Turn(start, (4, 2))
    turn.enter("m4")                                       # one good step first
    before_position, before_made = turn.position, list(turn.made)
    with pytest.raises(EntryError) as info:
        turn.enter(typed)
    assert words in str(info.value)
    assert len(str(info.value)) < 120                      # fits a message line or two
    assert turn.position == before_position and turn.made == before_made
    assert start == Position.start()


def test_legal_looking_entry_that_breaks_a_rule_is_an_illegal_move():
    turn = Turn(Position.start(), (4, 2))
    for typed, words in (("K4", "no man on point K"), ("M5", "did not throw a 5"),
                         ("Z4", "no man on the bar")):
        with pytest.raises(IllegalMoveError, match=words):
            turn.enter(typed)
    turn.enter("M4")
    with pytest.raises(IllegalMoveError, match="already played your 4"):
        turn.enter("H4")
    turn.enter("H2")
    with pytest.raises(IllegalMoveError, match="already complete"):
        turn.enter("F2")


def test_random_noise_never_escapes_as_anything_but_our_errors():
    rng = random.Random(2026)
    turn = Turn(Position.start(), (6, 5))
    alphabet = string.printable + "éz\u0663\x00"
    refused, escaped = 0, []

    def takes(read, what) -> bool:
        """True when `read(what)` took it; a refusal (one of our errors) is counted, any
        other error noted as escaped."""
        nonlocal refused
        try:
            read(what)
        except BackgammonError:
            refused += 1
        except Exception as error:              # anything else is what this test looks for
            escaped.append(f"{read.__name__}({what!r}): {error!r}")
        else:
            return True
        return False
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))
        if takes(turn.enter, text):
            turn = Turn(Position.start(), (6, 5))          # it was a legal step: start over
        takes(Position.from_id, "".join(rng.choice(string.ascii_letters + "+/")
                                        for _ in range(14)))
    assert escaped == []                   # each refusal one of our errors
    assert refused > 5900                  # nearly all of it refused: the noise reached the checks


def test_parse_entry_rejects_non_text():
    with pytest.raises(EntryError):
        parse_entry(None)
