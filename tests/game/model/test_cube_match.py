"""Match-play cube decisions with a live cube: the take and double points come from our match
equity table worked level by level (cube 1, 2, 4 .. up to the cube that decides the match), and
the decision mixes that live model with the dead cube as money play does. These tests use the
chances directly (evaluator.cube_decision_for), so they test the cube theory alone."""
import pytest

from game.model import evaluator as ev
from game.model.match_terms import MatchTerms

MATCH = 25   # a match long enough to hold every score below


def chances(win, gammon_share=0.0):
    """Chances with the given share of gammons among the wins and among the losses."""
    return (win, win * gammon_share, 0.0, (1 - win) * gammon_share, 0.0)


def take_point(gammon_share=0.0, **terms):
    """The smallest winning chance with which the side being doubled still takes."""
    lo, hi = 0.0, 1.0      # the doubler's chance: a take at lo, a pass at hi
    for _ in range(30):
        mid = (lo + hi) / 2
        if ev.cube_decision_for(chances(mid, gammon_share), MatchTerms(**terms)).take:
            lo = mid
        else:
            hi = mid
    return 1 - lo


def dead_take_point(away_me, away_opp):
    """The take point with a dead cube and no gammons, from the table alone."""
    met = ev.match_equity_table()

    def mwc(a, b):   # the doubler's match chance needing a against b
        return 1.0 if a <= 0 else 0.0 if b <= 0 else met[a - 1][b - 1]
    win_2, lose_2 = mwc(away_me - 2, away_opp), mwc(away_me, away_opp - 2)
    pass_1 = mwc(away_me - 1, away_opp)
    return 1 - (pass_1 - lose_2) / (win_2 - lose_2)


@pytest.mark.parametrize("away", [5, 7, 9])
def test_a_live_cube_lowers_the_take_point_below_the_dead_cube_one(away):
    # the taker owns the cube afterwards and can redouble: that is worth a few percent
    live = take_point(length=MATCH, away_me=away, away_opp=away)
    dead = dead_take_point(away, away)
    assert live < dead - 0.02


def test_at_two_away_two_away_the_cube_is_dead_after_the_double():
    # after a double to 2 the game decides the match: the take point is what a pass leaves,
    # 1 - (1-away against 2-away), and gammons make no difference
    met = ev.match_equity_table()
    expected = 1 - met[0][1]
    for share in (0.0, 0.3):
        assert (take_point(share, length=MATCH, away_me=2, away_opp=2)
                == pytest.approx(expected, abs=0.002))


def test_a_long_even_match_decides_the_cube_much_as_money_play_does():
    money = take_point()
    assert 0.20 < money < 0.235        # the live-cube money take point, a bit over 21%
    assert take_point(length=MATCH, away_me=25, away_opp=25) == pytest.approx(money, abs=0.01)


def test_gammons_raise_the_take_point():
    assert take_point(0.25, length=MATCH, away_me=7, away_opp=7) > \
        take_point(0.0, length=MATCH, away_me=7, away_opp=7) + 0.02


def test_the_taker_never_does_worse_than_with_a_dead_cube():
    # owning the cube is worth something or nothing, never less: at every score the live take
    # point is at or below the dead-cube one from the table (no gammons)
    for away_me in range(2, 10):
        for away_opp in range(2, 10):
            live = take_point(length=MATCH, away_me=away_me, away_opp=away_opp)
            assert live <= dead_take_point(away_me, away_opp) + 0.002, (away_me, away_opp)


def test_at_3_away_5_away_the_leader_may_take_wider_than_the_trailer():
    # from the table alone (dead cube): 5-away doubling 3-away leaves the leader a take down
    # to about 21%, 3-away doubling 5-away the trailer one of about 29%; the live model keeps
    # the order
    assert dead_take_point(5, 3) < dead_take_point(3, 5)
    assert take_point(length=MATCH, away_me=5, away_opp=3) < \
        take_point(length=MATCH, away_me=3, away_opp=5)


def test_after_crawford_the_trailer_doubles_at_once_and_the_leader_takes():
    decision = ev.cube_decision_for(chances(0.35), MatchTerms(length=MATCH, away_me=4,
                                                              away_opp=1, crawford=2))
    assert decision.double and decision.take


def test_no_double_in_the_crawford_game_even_far_ahead():
    decision = ev.cube_decision_for(chances(0.9), MatchTerms(length=MATCH, away_me=3,
                                                             away_opp=1, crawford=1))
    assert not decision.double


def test_no_double_when_a_single_win_already_wins_the_match():
    # needing 1 (post-Crawford leader) or 2 with the cube on 2: doubling gains nothing
    assert not ev.cube_decision_for(chances(0.8), MatchTerms(length=MATCH, away_me=1, away_opp=4,
                                    crawford=2)).double
    assert not ev.cube_decision_for(chances(0.8), MatchTerms(cube_value=2, cube_owner=1,
                                                             length=MATCH, away_me=2,
                                                             away_opp=5)).double


def test_a_race_far_ahead_in_a_match_is_double_and_pass():
    decision = ev.cube_decision_for(chances(0.9), MatchTerms(length=MATCH, away_me=7, away_opp=7))
    assert decision.double and not decision.take


def test_cube_decision_for_agrees_with_the_position_form_in_a_contact_position():
    """Levels 1-3 use the formula at the position's cube efficiency: a contact position's is
    the one cube_decision_for takes without a board (0.68)."""
    from game.model.position import Position
    ev.load_weights()
    pos = Position.from_id("4HPwATDgc/ABMA")
    p = ev.evaluate(pos.position_id, 0)
    for terms in ({}, {"length": 7, "away_me": 3, "away_opp": 5}):
        assert ev.cube_decision_for(p, MatchTerms(**terms)) == \
            ev.cube_decision(pos.position_id, 3, MatchTerms(**terms))


@pytest.mark.parametrize("bad", [
    (0.5, 0.1, 0.0, 0.1),               # four numbers
    (1.2, 0.0, 0.0, 0.0, 0.0),          # a chance above 1
    (0.5, 0.6, 0.0, 0.0, 0.0),          # more gammons than wins
    (0.5, 0.1, 0.2, 0.0, 0.0),          # more backgammons than gammons
    (0.5, 0.0, 0.0, 0.6, 0.0),          # more gammons lost than games lost
    (float("nan"), 0.0, 0.0, 0.0, 0.0),
    ("0.5", 0.0, 0.0, 0.0, 0.0),
    42,
])
def test_bad_chances_are_value_errors(bad):
    with pytest.raises(ValueError):
        ev.cube_decision_for(bad)


@pytest.mark.parametrize("terms", [{"cube_value": 3}, {"cube_owner": 3}, {"crawford": 3},
                                   {"length": 5, "away_me": 6, "away_opp": 1},
                                   {"length": 5, "away_me": 0, "away_opp": 2}])
def test_bad_cube_terms_are_value_errors_when_made(terms):
    with pytest.raises(ValueError):
        ev.cube_decision_for(chances(0.6), MatchTerms(**terms))
