"""Conformance with the 1983 inlay card: one group of tests per numbered rule (1-8) and per
beginners' note, each on a hand-made position that proves the rule and its edges. Not the
differential test (test_rules_differential.py) and not the game flow (opening throw, turns).

Positions are built with from_points: each side counts its own points 1..24; the mover's
point p is the opponent's point 25 - p. `held(...)` puts two opposing men on mover points."""
import pytest

from game.errors import IllegalMoveError
from game.model.position import Position
from game.model.rules import Turn, game_result, legal_plays, legal_results
from native import lib


def pos(mover, opponent=None):
    return Position.from_points(mover, opponent if opponent is not None else {"bar": 1})


def held(*mover_points, extra=None):
    """Opponent men: two on each given point (mover's numbering), plus `extra` (opponent's)."""
    opp = {25 - p: 2 for p in mover_points}
    for point, n in (extra or {}).items():
        opp[point] = opp.get(point, 0) + n
    return opp


def results(position, dice):
    return {play.after for play in legal_plays(position, dice)}


def mover_points(position):
    """The mover's men as {point: count} (bar under "bar")."""
    out = {i + 1: n for i, n in enumerate(position.mover[:24]) if n}
    if position.mover[24]:
        out["bar"] = position.mover[24]
    return out


def all_mover_points(position, dice):
    return [mover_points(a) for a in results(position, dice)]


# ---- rule 1: the opening throw -----------------------------------------------------------

def test_rule1_start_position_is_the_standard_one():
    start = Position.start()
    expected = {6: 5, 8: 3, 13: 5, 24: 2}
    assert mover_points(start) == expected
    assert mover_points(start.swapped()) == expected
    assert start.pips() == (167, 167)
    assert start.position_id == "4HPwATDgc/ABMA"      # what gnubg prints for a new game


@pytest.mark.parametrize("dice", [(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7) if d1 > d2])
def test_rule1_opening_roll_plays_the_numbers_on_both_dice(dice):
    plays = legal_plays(Position.start(), dice)
    assert plays and all(sorted(p.dice_used) == sorted(dice) for p in plays)


def test_rule1_opening_six_one_makes_the_bar_point():
    after = pos({6: 5, 7: 2, 8: 2, 13: 4, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert after in results(Position.start(), (6, 1))


# ---- rule 2: moving, entering, bearing off -----------------------------------------------

def test_rule2a_one_man_may_take_both_dice_or_two_men_one_each():
    start = pos({13: 1, 10: 1})
    got = all_mover_points(start, (4, 2))
    assert {7: 1, 10: 1} in got             # the man on 13 moves 4 and 2
    assert {4: 1, 13: 1} in got             # the man on 10 moves both
    assert {9: 1, 8: 1} in got              # 13 moves 4, 10 moves 2
    assert {11: 1, 6: 1} in got             # 13 moves 2, 10 moves 4
    assert all(sum(p.values()) == 2 for p in got)


def test_rule2b_entering_lands_on_the_opponents_inner_table_point_of_the_die():
    start = pos({"bar": 1, 6: 1}, {12: 3})
    got = all_mover_points(start, (3, 5))
    # a 3 enters on the opponent's 3-point (the mover's 22), a 5 on the opponent's 5 (mover's 20)
    assert {22: 1, 1: 1} in got             # enter with 3, then 6 moves 5
    assert {20: 1, 3: 1} in got             # enter with 5, then 6 moves 3
    assert {17: 1, 6: 1} in got             # enter with 3 and go on 5 (22 -> 17)
    assert all("bar" not in p for p in got)


def test_rule2c_bearing_off_only_when_no_man_is_outside_or_on_the_bar():
    home = pos({1: 2, 2: 2})
    assert {1: 1, 2: 1} in all_mover_points(home, (2, 1))          # two men off
    outside = pos({1: 2, 2: 2, 9: 1})         # 9 needs both dice to get home
    for after in results(outside, (2, 1)):
        assert sum(after.mover) == 5                                # nobody came off
    on_bar = pos({1: 2, 2: 2, "bar": 1}, {20: 1})
    for after in results(on_bar, (2, 1)):
        assert sum(after.mover) == 5


# ---- rule 3: doubles ---------------------------------------------------------------------

def test_rule3_doubles_are_four_plays():
    start = pos({24: 1, 13: 1})
    plays = legal_plays(start, (3, 3))
    assert all(len(p.steps) == 4 and p.dice_used == (3, 3, 3, 3) for p in plays)
    got = [mover_points(p.after) for p in plays]
    assert {12: 1, 13: 1} in got            # one man moves 12
    assert {21: 1, 4: 1} in got             # 1 + 3 split
    assert {18: 1, 7: 1} in got             # 2 + 2 split
    assert len(got) == 5                    # 4+0, 3+1, 2+2, 1+3, 0+4


def test_rule3_doubles_play_as_many_as_possible_when_four_cannot_be():
    start = pos({13: 1}, held(4))           # 13 -> 10 -> 7 -> (4 held)
    plays = legal_plays(start, (3, 3))
    assert [mover_points(p.after) for p in plays] == [{7: 1}]
    assert len(plays[0].steps) == 2


# ---- rule 4: both dice if possible; otherwise the higher --------------------------------

def test_rule4_both_dice_must_be_played_when_possible():
    # the 6 by the man on 13 would leave the 5 unplayable (2 and 5 held); the 6 by the man
    # on 10 lets the 13 play the 5: so that is the only play
    start = pos({13: 1, 10: 1}, held(2, 5))
    assert all_mover_points(start, (6, 5)) == [{8: 1, 4: 1}]


def test_rule4_typed_step_that_wastes_a_die_is_refused():
    start = pos({13: 1, 10: 1}, held(2, 5))
    turn = Turn(start, (6, 5))
    with pytest.raises(IllegalMoveError, match="both dice"):
        turn.step(12, 6)                    # the man on 13 moves 6
    assert turn.position == start and turn.made == []
    turn.step(9, 6)
    turn.step(12, 5)
    assert turn.complete


def test_rule4_only_the_higher_when_either_but_not_both_can_be_played():
    start = pos({13: 1}, held(2))           # 13/7 or 13/8, never both (2 held)
    assert all_mover_points(start, (6, 5)) == [{7: 1}]
    turn = Turn(start, (6, 5))
    with pytest.raises(IllegalMoveError, match="higher one, the 6"):
        turn.step(12, 5)
    turn.step(12, 6)
    assert turn.complete


def test_rule4_only_the_lower_when_the_higher_cannot_be_played_at_all():
    start = pos({13: 1}, held(2, 7))        # the 6 is blocked outright; 13/8 then 8/2 held
    plays = legal_plays(start, (6, 5))
    assert [mover_points(p.after) for p in plays] == [{8: 1}]
    assert plays[0].dice_used == (5,)


@pytest.mark.parametrize("dice", [(6, 5), (5, 6)])
def test_rule4_last_man_off_by_either_die_is_recorded_with_the_higher(dice):
    plays = legal_plays(pos({2: 1}), dice)
    assert len(plays) == 1 and plays[0].dice_used == (6,) and mover_points(plays[0].after) == {}


def test_rule4_either_number_may_be_played_first():
    start = pos({13: 1})
    turn_a, turn_b = Turn(start, (4, 2)), Turn(start, (4, 2))
    turn_a.enter("m4"), turn_a.enter("i2")      # letters: m = point 13, i = 9
    turn_b.enter("2M"), turn_b.enter("4k")
    assert turn_a.position == turn_b.position and turn_a.complete and turn_b.complete
    assert mover_points(turn_a.position) == {7: 1}


def test_rule4_same_result_by_another_order_is_still_accepted():
    # dedup keeps one order per resulting position; both typed orders must be accepted
    start = pos({13: 1, 8: 1})
    for first, second in (((12, 4), (7, 2)), ((7, 2), (12, 4)), ((12, 2), (10, 4))):
        turn = Turn(start, (4, 2))
        turn.step(*first)
        turn.step(*second)
        assert turn.complete


# ---- rule 5: no landing or touching down on two or more ----------------------------------

def test_rule5_no_landing_on_two_or_more():
    start = pos({13: 1, 6: 1}, held(9))
    got = all_mover_points(start, (4, 1))
    assert {8: 1, 6: 1} in got              # 13/12/8 avoids the held 9
    assert all(9 not in p for p in got)
    plays = legal_plays(pos({13: 1}, held(9)), (4, 4))
    assert len(plays) == 1 and plays[0].steps == ()     # the only man cannot move at all


def test_rule5_no_touching_down_on_a_held_point_with_both_dice():
    start = pos({13: 1}, held(9, 11))       # 13-4=9 and 13-2=11 both held: 7 unreachable
    plays = legal_plays(start, (4, 2))
    assert plays[0].steps == () and len(plays) == 1


def test_rule5_one_open_intermediate_point_is_enough():
    start = pos({13: 1}, held(9))           # 13/11/7 touches down on 11 only
    assert all_mover_points(start, (4, 2)) == [{7: 1}]
    turn = Turn(start, (4, 2))
    with pytest.raises(IllegalMoveError, match="held by two or more"):
        turn.enter("M4")
    turn.enter("M2"), turn.enter("K4")
    assert turn.complete


def test_rule5_doubles_stop_at_the_first_held_point():
    start = pos({13: 1, 24: 1}, held(7))
    for p in all_mover_points(start, (3, 3)):
        assert 7 not in p and 4 not in p and 1 not in p   # 13 cannot pass 7 with threes


def test_rule5_three_men_block_as_well_as_two():
    start = pos({"bar": 1}, {3: 3, 1: 1})   # mover's 22 held by three
    assert all_mover_points(start, (3, 3)) == [{"bar": 1}]


# ---- rule 6: a hit blot goes to the bar -----------------------------------------------------

def test_rule6_landing_on_a_blot_sends_it_to_the_bar():
    start = pos({13: 1}, {16: 1, 1: 2})     # opponent blot on the mover's 9
    plays = [p for p in legal_plays(start, (4, 1)) if mover_points(p.after) == {8: 1}]
    hit = [p for p in plays if p.after.opponent[24] == 1]
    missed = [p for p in plays if p.after.opponent[24] == 0]
    assert len(hit) == 1 and len(missed) == 1   # 13/9*/8 and 13/12/8 are different plays
    assert hit[0].after.opponent[15] == 0 and any(s.hit for s in hit[0].steps)
    assert missed[0].after.opponent[15] == 1 and not any(s.hit for s in missed[0].steps)


def test_rule6_entering_can_hit():
    start = pos({"bar": 1}, {4: 1, 1: 2})   # opponent blot on its 4-point = mover's 21
    hits = [a for a in results(start, (4, 6)) if a.opponent[24] == 1]
    assert hits and all(a.opponent[3] == 0 for a in hits)


def test_rule6_two_blots_hit_in_one_turn_both_go_to_the_bar():
    start = pos({13: 1, 10: 1}, {16: 1, 19: 1, 1: 2})   # blots on the mover's 9 and 6
    assert any(a.opponent[24] == 2 for a in results(start, (4, 4)))


# ---- rule 7: the bar first -------------------------------------------------------------

def test_rule7_no_other_man_moves_before_the_bar_man_enters():
    start = pos({"bar": 1, 13: 1})
    for play in legal_plays(start, (6, 5)):
        assert play.steps[0].from_index == lib.BG_BAR
    turn = Turn(start, (6, 5))
    with pytest.raises(IllegalMoveError, match="bar"):
        turn.enter("M6")
    turn.enter("Z6")
    turn.enter("M5")
    assert turn.complete


def test_rule7_two_on_the_bar_and_one_entry_forfeits_the_other_die():
    start = pos({"bar": 2, 13: 1}, held(19))   # the 6 cannot enter (mover's 19 held)
    plays = legal_plays(start, (6, 5))
    assert [mover_points(p.after) for p in plays] == [{"bar": 1, 20: 1, 13: 1}]


def test_rule7_enter_with_the_open_die_then_play_the_other():
    start = pos({"bar": 1, 13: 1}, held(19))
    got = all_mover_points(start, (6, 5))
    assert {20: 1, 7: 1} in got and {14: 1, 13: 1} in got
    assert all(19 not in p and "bar" not in p for p in got)


# ---- rule 8: bearing off ----------------------------------------------------------------

def test_rule8_bear_off_from_the_point_matching_the_die():
    start = pos({6: 1, 4: 1, 2: 1})
    assert {6: 1} in all_mover_points(start, (4, 2))


def test_rule8_die_higher_than_every_man_takes_the_highest():
    start = pos({3: 1, 2: 1})
    plays = legal_plays(start, (6, 5))
    assert [mover_points(p.after) for p in plays] == [{}]
    assert game_result(plays[0].after) in (1, 2, 3)


def test_rule8_never_from_a_lower_point_while_a_man_stands_higher():
    start = pos({5: 1, 3: 1})
    got = all_mover_points(start, (6, 6))
    assert got == [{}]                      # the 6 takes 5, then 3: nothing left
    got = all_mover_points(start, (6, 1))
    assert sorted(got, key=str) == [{2: 1}, {3: 1}]   # 5 off + 3/2, or 5/4 + 4 off
    assert {4: 1} not in got                # never 3 off with the 6 while 5 stands
    turn = Turn(pos({5: 1, 3: 1, 1: 1}), (6, 1))
    with pytest.raises(IllegalMoveError, match="higher point"):
        turn.enter("C6")                    # the man on 3 cannot go with a 6 while 5 stands
    turn.enter("E6")


def test_rule8_moving_inside_the_home_board_instead_is_allowed():
    start = pos({6: 2})
    got = all_mover_points(start, (3, 2))
    assert {3: 1, 4: 1} in got              # both men move inside
    assert {1: 1, 6: 1} in got              # one man moves 3 and 2
    assert {6: 1} not in got                # 6-off needs a 6
    assert all(sum(p.values()) == 2 for p in got)    # no man can come off with 3-2


def test_rule8_cannot_bear_off_while_a_man_is_outside():
    start = pos({7: 1, 1: 3})
    turn = Turn(start, (2, 1))
    with pytest.raises(IllegalMoveError, match="inner table"):
        turn.enter("A1")


def test_rule8_championship_manual_five_five_example():
    # men on 1, 2, 3 and 6; 5-5: the 6 goes to 1, then three men come off (3, 2, 1)
    start = pos({1: 1, 2: 1, 3: 1, 6: 1})
    plays = legal_plays(start, (5, 5))
    assert len(plays) == 1
    play = plays[0]
    assert mover_points(play.after) == {1: 1}
    assert (play.steps[0].from_index, play.steps[0].to_index) == (5, 0)
    assert [s.to_index for s in play.steps[1:]] == [-1, -1, -1]
    turn = Turn(start, (5, 5))
    with pytest.raises(IllegalMoveError):
        turn.enter("C5")                    # not the 3 first: the 6 stands higher
    for entry in ("F5", "C5", "B5", "A5"):
        turn.enter(entry)
    assert turn.complete and turn.position == play.after


# ---- beginners' notes ------------------------------------------------------------------

def test_note_blocked_bar_entry_forfeits_the_turn():
    closed = held(19, 20, 21, 22, 23, 24)
    start = pos({"bar": 1, 13: 4, 6: 5}, closed)
    for dice in ((6, 5), (1, 1), (3, 2)):
        plays = legal_plays(start, dice)
        assert len(plays) == 1 and plays[0].steps == () and plays[0].after == start
        turn = Turn(start, dice)
        assert turn.complete
        with pytest.raises(IllegalMoveError):
            turn.enter("Z" + str(dice[0]))
    assert legal_results(start.position_id, (6, 5)) == {start.position_id}


def test_note_entry_blocked_for_one_die_only_is_not_a_forfeit():
    start = pos({"bar": 1, 6: 5}, held(19, 20, 21, 22, 23))   # only the 1 enters (24 open)
    plays = legal_plays(start, (6, 1))
    assert plays and all(p.steps[0].from_index == lib.BG_BAR for p in plays)
    assert all(p.steps[0].die == 1 for p in plays)


def test_note_a_man_hit_during_bear_off_stops_bearing_off_until_home():
    start = pos({"bar": 1, 1: 4, 2: 4, 3: 3}, {10: 1})
    for after in results(start, (6, 5)):
        assert sum(after.mover) == 12       # entered and moved on; nobody borne off
    for after in results(start, (2, 2)):
        assert sum(after.mover) == 12


def test_note_bearing_off_resumes_in_the_same_turn_once_home():
    start = pos({7: 1, 1: 4, 2: 4, 3: 3})   # the hit man is back to the 7-point
    got = all_mover_points(start, (6, 1))
    assert {1: 4, 2: 4, 3: 3} in got        # 7/6 then 6/off
    turn = Turn(start, (6, 1))
    with pytest.raises(IllegalMoveError, match="inner table"):
        turn.enter("A1")                    # the 1 cannot bear off while 7 is out
    turn.enter("G1")
    turn.enter("F6")
    assert turn.complete


# ---- game results ----------------------------------------------------------------------

def test_result_single_when_the_loser_has_borne_off():
    done = Position.from_points({}, {6: 14})        # loser has one man off
    assert game_result(done) == 1
    assert game_result(done.swapped()) == -1


def test_result_gammon_when_the_loser_has_borne_off_none():
    assert game_result(Position.from_points({}, {6: 10, 13: 5})) == 2


def test_result_backgammon_with_a_loser_in_the_winners_home_or_on_the_bar():
    assert game_result(Position.from_points({}, {6: 14, 19: 1})) == 3   # winner's home
    assert game_result(Position.from_points({}, {6: 14, "bar": 1})) == 3
    assert game_result(Position.from_points({}, {6: 14, 18: 1})) == 2   # just outside


def test_result_none_while_both_sides_have_men():
    assert game_result(Position.start()) == 0


# ---- notation of plays and the steps still open -----------------------------------------

def test_plays_written_in_1983_notation_from_either_side():
    start = pos({13: 1})
    assert {p.notation() for p in legal_plays(start, (4, 2))} <= {"M4 I2", "M2 K4"}
    assert legal_plays(start, (4, 2))[0].notation(mover_is_human=False)[0] == "L"   # 13 = l
    assert legal_plays(pos({"bar": 1}, held(19, 20, 21, 22, 23, 24)), (3, 1))[0].notation() == ""


def test_allowed_steps_lists_what_the_turn_would_accept():
    turn = Turn(pos({13: 1}, held(2)), (6, 5))      # rule 4: only the 6 by the man on 13
    assert turn.allowed_steps() == [(12, 6)]
    turn.step(12, 6)
    assert turn.allowed_steps() == [] and turn.complete


def test_turn_records_hits_and_undo_restores_the_position():
    start = pos({13: 1, 10: 1}, {16: 1, 19: 1, 1: 2})     # blots on the mover's 9 and 6
    turn = Turn(start, (4, 4))
    after_one = turn.enter("M4")
    turn.enter("J4")
    assert [s.hit for s in turn.steps] == [True, True] and turn.position.opponent[24] == 2
    assert turn.undo() == after_one and turn.made == [(12, 4)]
    assert turn.undo() == start and turn.made == [] and turn.undo() == start


def test_undo_all_takes_every_step_back_and_the_turn_plays_again_from_its_start():
    start = pos({13: 1, 10: 1}, {16: 1, 19: 1, 1: 2})     # blots on the mover's 9 and 6
    turn = Turn(start, (4, 4))
    turn.enter("M4")
    turn.enter("J4")
    assert turn.undo_all() == start
    assert (turn.made, turn.steps, turn.position) == ([], [], start)
    assert turn.dice_left == (4, 4, 4, 4) and not turn.complete
    assert turn.enter("M4") == turn.position and turn.steps[0].hit   # the same step again
