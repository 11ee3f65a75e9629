"""The doubling cube, scoring, match play and the Crawford rule (game/model/match.py)."""
import base64
import itertools
import os
import subprocess

import pytest

from game.model.match import (
    COMPUTER,
    HUMAN,
    BadMatchLength,
    DoubleRefused,
    Match,
    MatchError,
    opening_throw,
    parse_match_length,
)
from gnubg_tools import gnubg_binary

H, C = HUMAN, COMPUTER


def new_game(match, on_roll=H):
    match.start_game()
    match.start_turn(on_roll)
    return match


def test_cube_starts_at_one_in_the_centre():
    m = new_game(Match(5))
    assert (m.cube_value, m.cube_owner) == (1, None)
    assert m.can_double(H).allowed             # either side may make the first double
    m.start_turn(C)
    assert m.can_double(C).allowed


def test_double_taken_doubles_stakes_and_gives_cube_to_taker():
    m = new_game(Match(None))
    assert m.double(H) == 2
    assert m.offered_by == H
    assert m.take() == 2
    assert (m.cube_value, m.cube_owner, m.offered_by) == (2, C, None)
    assert m.score == {H: 0, C: 0}             # nothing scored by a take
    result = m.end_game(C, "single")
    assert result.points == 2 and m.score == {H: 0, C: 2}


def test_double_dropped_scores_the_value_before_the_double():
    m = new_game(Match(None))
    m.double(H)
    m.take()                                   # cube 2, the computer owns it
    m.start_turn(C)
    assert m.double(C) == 4
    result = m.drop()
    assert (result.winner, result.kind, result.points) == (C, "drop", 2)
    assert m.score == {H: 0, C: 2}
    assert not m.in_game


def test_first_double_dropped_scores_one():
    m = new_game(Match(7))
    m.double(H)
    assert m.drop().points == 1
    assert m.score == {H: 1, C: 0}


def test_redouble_by_the_owner_allowed():
    m = new_game(Match(None))
    m.double(H)
    m.take()                                   # computer owns the cube at 2
    m.start_turn(C)
    assert m.can_double(C).allowed
    assert m.double(C) == 4
    m.take()
    assert (m.cube_value, m.cube_owner) == (4, H)


def test_redouble_refused_to_the_non_owner_with_reason_and_nothing_changes():
    m = new_game(Match(None))
    m.double(H)
    m.take()                                   # computer owns the cube
    m.start_turn(H)
    ok, reason = m.can_double(H)
    assert not ok and "owner" in reason
    with pytest.raises(DoubleRefused, match="owner"):
        m.double(H)
    assert (m.cube_value, m.cube_owner, m.offered_by, m.score) == (2, C, None, {H: 0, C: 0})


def test_double_refused_after_rolling():
    m = new_game(Match(None))
    m.dice_rolled()
    ok, reason = m.can_double(H)
    assert not ok and "before you roll" in reason
    with pytest.raises(DoubleRefused):
        m.double(H)


def test_double_refused_out_of_turn():
    m = new_game(Match(None), on_roll=C)
    assert not m.can_double(H).allowed
    assert "your own turn" in m.can_double(H).reason


def test_double_refused_when_cube_is_off():
    m = new_game(Match(None, cube=False))
    ok, reason = m.can_double(H)
    assert not ok and "switched off" in reason
    with pytest.raises(DoubleRefused, match="switched off"):
        m.double(H)
    assert m.cube_value == 1


def test_double_refused_while_a_double_waits_for_an_answer():
    m = new_game(Match(None))
    m.double(H)
    assert not m.can_double(H).allowed


def test_take_or_drop_without_a_double_is_an_error():
    m = new_game(Match(None))
    with pytest.raises(MatchError):
        m.take()
    with pytest.raises(MatchError):
        m.drop()


def test_gammon_on_a_cube_of_four_scores_eight():
    m = new_game(Match(None))
    m.double(H)
    m.take()                           # 2, computer owns
    m.start_turn(C)
    m.double(C)
    m.take()                           # 4, human owns
    result = m.end_game(H, "gammon")
    assert (result.kind, result.cube, result.points) == ("gammon", 4, 8)
    assert m.score == {H: 8, C: 0}


@pytest.mark.parametrize("kind,points", [("single", 1), ("gammon", 2), ("backgammon", 3),
                                         (1, 1), (2, 2), (3, 3)])
def test_game_worth_one_two_or_three_times_the_cube(kind, points):
    m = new_game(Match(None))
    assert m.end_game(C, kind).points == points


def test_unknown_result_kind_refused():
    m = new_game(Match(None))
    with pytest.raises(MatchError):
        m.end_game(H, "quadruple")
    assert m.in_game and m.score == {H: 0, C: 0}


def test_money_play_keeps_a_running_total_and_never_ends():
    m = Match(None)
    for winner, kind in [(H, "single"), (C, "gammon"), (H, "backgammon"), (C, "single")]:
        new_game(m)
        m.end_game(winner, kind)
    assert m.score == {H: 4, C: 3}
    assert m.balance(H) == 1 and m.balance(C) == -1
    assert not m.is_over and m.winner is None and m.away(H) is None
    assert m.game_number == 4


def test_cube_resets_to_centre_for_each_game():
    m = new_game(Match(None))
    m.double(H)
    m.take()
    m.end_game(C)
    new_game(m)
    assert (m.cube_value, m.cube_owner) == (1, None)


def test_match_over_when_a_side_reaches_the_length():
    m = new_game(Match(3))
    m.end_game(H, "gammon")
    assert not m.is_over and m.away(H) == 1
    new_game(m)                                # the Crawford game
    m.end_game(H)
    assert m.is_over and m.winner == H
    with pytest.raises(MatchError, match="over"):
        m.start_game()


def test_three_point_match_reaches_crawford_doubling_refused_then_allowed_after():
    m = new_game(Match(3))
    assert not m.crawford_game
    m.double(H)
    m.take()
    m.end_game(C)                              # computer 2: within one point of winning
    assert m.score == {H: 0, C: 2}

    new_game(m)                                # game 2: the Crawford game
    assert m.crawford_game and not m.post_crawford
    for side in (H, C):
        m.start_turn(side)
        ok, reason = m.can_double(side)
        assert not ok and "Crawford" in reason
    with pytest.raises(DoubleRefused, match="Crawford"):
        m.double(C)
    assert (m.cube_value, m.cube_owner) == (1, None)
    m.end_game(H)                              # 1-2

    new_game(m)                                # game 3: post-Crawford, doubling again
    assert not m.crawford_game and m.post_crawford
    assert m.can_double(H).allowed
    assert m.double(H) == 2
    m.take()
    m.end_game(H)                              # 3-2
    assert m.is_over and m.winner == H


def test_crawford_game_happens_only_once():
    m = new_game(Match(3))
    m.end_game(C, "gammon")                    # 0-2
    new_game(m)
    assert m.crawford_game
    m.end_game(H, "gammon")                    # 2-2: the trailer reaching 2 is no new Crawford
    new_game(m)                                # (and at 1-away each the cube is dead)
    assert not m.crawford_game and m.can_double(H).reason.startswith("The cube is dead")


def test_no_crawford_when_the_leader_jumps_straight_past_match_point():
    m = new_game(Match(5))
    m.end_game(H, "gammon")                    # 2-0
    new_game(m)
    assert not m.crawford_game
    m.end_game(H, "backgammon")                # 5-0: over
    assert m.is_over


@pytest.mark.parametrize("bad", [0, 26, "abc", "0", "26", -1, 2.5, "", True])
def test_match_length_0_26_abc_refused(bad):
    if bad == "":
        assert parse_match_length(bad) is None     # empty means unlimited
        return
    with pytest.raises(BadMatchLength):
        parse_match_length(bad)
    with pytest.raises(BadMatchLength):
        Match(bad)


@pytest.mark.parametrize("good,expected", [(1, 1), (25, 25), ("7", 7), (" 13 ", 13),
                                           (None, None), ("U", None), ("unlimited", None)])
def test_match_lengths_1_to_25_or_unlimited_accepted(good, expected):
    assert parse_match_length(good) == expected


def test_bad_length_reason_names_the_range():
    with pytest.raises(BadMatchLength, match="1 to 25"):
        parse_match_length(26)


def test_opening_throw_ties_throw_again_and_higher_plays_both():
    faces = iter([4, 4, 2, 5])
    throw = opening_throw("roll", (H, C), lambda: next(faces))
    assert throw.first == C and throw.dice == (5, 2)
    assert throw.throws == ((4, 4), (2, 5))


@pytest.mark.parametrize("who", [H, C])
def test_opening_chosen_starter_rolls_normally(who):
    throw = opening_throw(who, (H, C), lambda: pytest.fail("no dice needed"))
    assert throw.first == who and throw.dice is None


def test_opening_unknown_choice_refused():
    with pytest.raises(MatchError):
        opening_throw("nobody", (H, C), lambda: 1)


def test_two_player_sides_white_and_black():
    m = Match(5, sides=("white", "black"))
    new_game(m, on_roll="black")
    assert m.can_double("black").allowed
    with pytest.raises(MatchError):
        m.can_double(H)


def test_record_follows_cube_actions_and_results():
    m = new_game(Match(5))
    m.dice_rolled()
    m.record_move(H, (3, 1), [(8, 5), (6, 5)])
    m.start_turn(C)
    m.double(C)
    m.take()
    m.dice_rolled()
    m.record_move(C, (6, 4), [(24, 18, True), (13, 9)])
    m.end_game(C, "gammon")
    game = m.record.games[0]
    kinds = [(a.kind, a.side) for a in game.actions]
    assert kinds == [("move", H), ("double", C), ("take", H), ("move", C), ("win", C)]
    assert game.actions[3].play == "24/18* 13/9"
    assert (game.winner, game.points, game.how) == (C, 4, "gammon")


def test_match_state_round_trips_through_a_dict():
    m = new_game(Match(7))
    m.double(H)
    m.take()
    m.start_turn(C)
    m.dice_rolled()
    copy = Match.from_dict(m.to_dict())
    assert copy.to_dict() == m.to_dict()
    assert not copy.can_double(C).allowed      # still after the roll


def test_damaged_match_data_raises_match_error():
    data = new_game(Match(7)).to_dict()
    for key, value in [("cube_value", 3), ("cube_owner", "nobody"), ("score", []),
                       ("length", 40)]:
        broken = dict(data, **{key: value})
        with pytest.raises(MatchError):
            Match.from_dict(broken)
    broken = dict(data)
    del broken["record"]
    with pytest.raises(MatchError):
        Match.from_dict(broken)


def test_score_text_for_match_and_money():
    m = Match(3, names={H: "You", C: "Spectrum"})
    assert m.score_text() == "You 0  Spectrum 0  (match to 3)"
    assert Match(None).score_text().endswith("(money play)")


def test_cube_stops_at_64():
    m = new_game(Match(None))
    for side in itertools.islice(itertools.cycle((H, C)), 6):
        m.start_turn(side)
        m.double(side)
        m.take()
    assert m.cube_value == 64
    m.start_turn(C if m.cube_owner == C else H)
    assert "64" in m.can_double(m.cube_owner).reason


# ---- gnubg match IDs -------------------------------------------------------------------

def _id_bits(match_id):
    key = base64.b64decode(match_id)
    return [(key[i // 8] >> (i % 8)) & 1 for i in range(66)]


def _field(bits, start, width):
    return sum(bits[start + i] << i for i in range(width))


def test_match_id_fields_follow_gnubg_layout():
    m = Match(7)
    m.start_game()
    m.score = {H: 3, C: 5}
    m.start_turn(C)
    m.double(C)
    bits = _id_bits(m.match_id())
    assert len(m.match_id()) == 12
    assert _field(bits, 0, 4) == 0                 # log2 of the cube: 1
    assert _field(bits, 4, 2) == 3                 # centred
    assert _field(bits, 6, 1) == 1                 # the computer (player 1) on roll
    assert _field(bits, 8, 3) == 1                 # playing
    assert _field(bits, 11, 1) == 0                # the human must answer ...
    assert _field(bits, 12, 1) == 1                # ... a double
    assert (_field(bits, 21, 15), _field(bits, 36, 15), _field(bits, 51, 15)) == (7, 3, 5)
    m.take()
    m.dice_rolled()
    bits = _id_bits(m.match_id((2, 5)))
    assert (_field(bits, 0, 4), _field(bits, 4, 2)) == (1, 0)     # 2, owned by the human
    assert (_field(bits, 15, 3), _field(bits, 18, 3)) == (5, 2)   # higher die first


def _states():
    """Match IDs of states with no double waiting (gnubg's `set matchid` drops that)."""
    out = []
    m = Match(7)
    m.start_game()
    m.start_turn(H)
    out.append((m.match_id((2, 6)), "human 0, computer 0", "centred"))
    m.double(H)
    m.take()
    m.start_turn(C)
    out.append((m.match_id((6, 6)), "human 0, computer 0", "owned by computer"))
    m.end_game(H, "gammon")
    m.score = {H: 4, C: 6}
    m.start_game()                                 # the computer at 6-away-1: Crawford
    m.start_turn(H)
    out.append((m.match_id((5, 3)), "human 4, computer 6", "Crawford"))
    money = Match(None)
    money.start_game()
    money.start_turn(C)
    out.append((money.match_id(), "money session", "centred"))
    return out


def test_match_ids_read_back_identically_by_gnubg(tmp_path):
    gnubg = gnubg_binary()
    for match_id, score_words, cube_words in _states():
        commands = tmp_path / "ids.txt"
        commands.write_text("new match 7\nset player 0 name human\n"
                            "set player 1 name computer\n"
                            f"set matchid {match_id}\nshow score\nshow cube\n")
        out = subprocess.run([gnubg, "-t", "-q", "-c", str(commands)], capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=tmp_path,
                             env={**os.environ, "HOME": str(tmp_path)}).stdout
        shown = [line.split(":")[1].strip() for line in out.splitlines() if "Match ID" in line]
        assert shown[-1] == match_id, out
        assert score_words in out and cube_words in out, out


def test_one_point_match_has_no_crawford_game():
    m = new_game(Match(1))                     # (the cube is dead at 1-away each)
    assert not m.crawford_game and m.can_double(H).reason.startswith("The cube is dead")
    m.end_game(C)
    assert m.is_over and m.winner == C


def test_unnamed_side_gets_a_default_name():
    m = Match(3, names={H: "You"})
    assert m.record.names == {H: "You", C: "Computer"}
