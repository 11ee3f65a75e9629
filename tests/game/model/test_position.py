"""The Position type: gnubg position IDs (checked against IDs gnubg itself printed), pips,
swapping sides, builders and the 1983 point letters. Not the legality of plays
(test_inlay_rules.py) and not bad input (test_bad_input.py)."""
import random

import pytest

from game.model.position import Position, parse_entry
from game.model.rules import legal_plays

# Printed by gnubg 1.x (`gnubg -t`): the start, and the position after the opening player
# (X) played 6-1 as 13/7 8/7, with O on roll; gnubg lists the side NOT on roll first.
GNUBG_START_ID = "4HPwATDgc/ABMA"
GNUBG_AFTER_61_ID = "4NvgATDgc/ABMA"


def test_start_position_id_is_gnubgs():
    assert Position.start().position_id == GNUBG_START_ID
    assert Position.from_id(GNUBG_START_ID) == Position.start()


def test_id_puts_the_side_not_on_roll_first_as_gnubg_does():
    after = Position.from_id(GNUBG_AFTER_61_ID)
    standard = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
    assert after.mover == standard                          # O, on roll, has not moved
    made_point = {6: 5, 7: 2, 8: 2, 13: 4, 24: 2}
    assert {i + 1: n for i, n in enumerate(after.opponent) if n} == made_point
    assert after.swapped().position_id != GNUBG_AFTER_61_ID


def test_id_round_trips_on_positions_from_random_play():
    rng = random.Random(7)
    position = Position.start()
    seen = set()
    for _ in range(400):
        play = rng.choice(legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6))))
        position = play.after.swapped()
        if position.borne_off()[1] == 15:
            position = Position.start()
        pid = position.position_id
        assert len(pid) == 14
        assert Position.from_id(pid) == position
        seen.add(pid)
    assert len(seen) > 300


def test_id_encodes_bar_and_borne_off_men():
    pos = Position.from_points({"bar": 2, 1: 3}, {"bar": 1, 23: 14})
    back = Position.from_id(pos.position_id)
    assert back.mover[24] == 2 and back.opponent[24] == 1
    assert back.borne_off() == (10, 0)


def test_pips_count_the_bar_as_25():
    assert Position.start().pips() == (167, 167)
    assert Position.from_points({"bar": 1, 3: 2}, {1: 1}).pips() == (31, 1)


def test_swapped_exchanges_the_rows():
    pos = Position.from_points({5: 1}, {19: 2})
    assert pos.swapped().mover == pos.opponent and pos.swapped().swapped() == pos


def test_letters_from_the_humans_side():
    assert Position.index_of_letter("a") == 0          # the human's 1-point
    assert Position.index_of_letter("X") == 23
    assert Position.index_of_letter("z") == 24         # the bar
    # the computer on roll: x is its 1-point, a its 24-point
    assert Position.index_of_letter("x", mover_is_human=False) == 0
    assert Position.index_of_letter("a", mover_is_human=False) == 23
    for index in range(25):
        for human in (True, False):
            letter = Position.letter_of_index(index, human)
            assert Position.index_of_letter(letter, human) == index


@pytest.mark.parametrize("text,expected", [("K4", ("k", 4)), ("4K", ("k", 4)), ("k4", ("k", 4)),
                                           ("4k", ("k", 4)), (" z3 ", ("z", 3)), ("a6", ("a", 6))])
def test_entry_either_order_either_case(text, expected):
    assert parse_entry(text) == expected


def test_from_points_counts_each_side_from_its_own_one_point():
    pos = Position.from_points({1: 2}, {1: 2})
    assert pos.mover[0] == 2 and pos.opponent[0] == 2      # opposite corners, no clash


def test_id_with_men_on_both_bars_reads_as_gnubg_shows_it():
    # gnubg -t, `set board 4AAAng4AAWAAAA`, shows O on roll with 2 on the bar, 3 on its
    # 1-point, 1 on its 13-point; X with 1 on the bar, 4 on O's 2-point, 3 on O's 19-point
    pos = Position.from_id("4AAAng4AAWAAAA")
    assert pos == Position.from_points({"bar": 2, 1: 3, 13: 1}, {"bar": 1, 23: 4, 6: 3})
    assert pos.borne_off() == (9, 7)
