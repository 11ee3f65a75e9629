"""Cube decisions and the match equity table our code computes: the table is a fair,
monotonic chance table; money decisions follow the chances (no double when even, double
and pass when far ahead, too good when a gammon is likely) and, fed GNU Backgammon's chances,
give its cubeful equities; match play respects Crawford."""
import pytest

from game.model import evaluator as ev
from game.model.match_terms import MatchTerms
from game.model.position import Position


@pytest.fixture(scope="module", autouse=True)
def weights():
    ev.load_weights()


def test_the_match_table_is_fair_and_monotonic():
    met = ev.match_equity_table()
    n = len(met)
    for i in range(n):
        assert met[i][i] == pytest.approx(0.5, abs=1e-6)
        for j in range(n):
            assert met[i][j] + met[j][i] == pytest.approx(1.0, abs=1e-5)
            if j + 1 < n:
                assert met[i][j + 1] >= met[i][j] - 1e-6   # the opponent further away helps
    # a familiar landmark: 1-away against 2-away (Crawford) is about 68%
    assert 0.65 < met[0][1] < 0.72


# A few entries of the Kazaross-XG2 table (gnubg's met/Kazaross-XG2.xml, equities found by
# rollouts): our model has two free parameters and no table in it, so this checks the model.
ROLLED_OUT = {(1, 2): 0.67736, (1, 5): 0.84179, (2, 3): 0.59947, (2, 4): 0.66870,
              (2, 9): 0.90197, (3, 5): 0.64795, (4, 5): 0.57732, (5, 7): 0.62638,
              (6, 9): 0.66787, (7, 9): 0.60854}


def test_the_match_table_agrees_with_rolled_out_equities_within_half_a_percent():
    met = ev.match_equity_table()
    for (leader, trailer), equity in ROLLED_OUT.items():
        assert met[leader - 1][trailer - 1] == pytest.approx(equity, abs=0.005), (leader, trailer)


# GNU Backgammon 1.07's 0-ply `hint` at money (Jacoby off), three contact positions of
# bench/cube_vs_gnubg.py's seeds 6313 5458 4116: its cubeless chances (win, win gammon, win
# backgammon, lose gammon, lose backgammon, as it prints them to 3 decimals) and its cubeful
# no double and double/take per unit of cube, centred and with the roller owning the cube.
GNUBG_ZERO_PLY = {
    "4LOVAQO2mZEDQA": ((0.587, 0.132, 0.003, 0.072, 0.003), (0.327, 0.188), (0.434, 0.188)),
    "zXYBABuPuzMAAA": ((0.603, 0.265, 0.007, 0.034, 0.000), (0.590, 0.616), (0.648, 0.616)),
    "tu2AARhsmxsGAA": ((0.813, 0.059, 0.001, 0.016, 0.000), (0.902, 1.215), (0.902, 1.215)),
}


@pytest.mark.parametrize("position_id", sorted(GNUBG_ZERO_PLY))
def test_the_money_formula_fed_gnubgs_chances_gives_gnubgs_cubeful_equities(position_id):
    """The live/dead cube formula at a contact position's efficiency is the method of gnubg's
    0-ply cubeful equity: fed gnubg's own chances it gives gnubg's equities to the rounding of
    the printed chances (bench/cube_parts.py measures it on 24 positions: 0.001 EMG)."""
    chances, centred, owned = GNUBG_ZERO_PLY[position_id]
    for terms, (nd, dt) in ((MatchTerms(), centred), (MatchTerms(2, 1), owned)):
        decision = ev.cube_decision_for(chances, terms, position=position_id)
        assert decision.no_double_equity / terms.cube_value == pytest.approx(nd, abs=0.003)
        assert decision.double_take_equity / terms.cube_value == pytest.approx(dt, abs=0.003)


def test_no_double_at_the_start():
    decision = ev.cube_decision(Position.start().position_id, level=3)
    assert not decision.double and decision.take


def test_a_race_far_ahead_is_double_and_pass():
    # the mover has 4 men left on low points, the opponent 9 men (no gammon left)
    pos = Position.from_points({1: 2, 2: 2}, {6: 3, 5: 3, 4: 3})
    decision = ev.cube_decision(pos.position_id, level=3)
    assert decision.double and not decision.take


def test_a_gammonish_blitz_is_too_good_to_double():
    # the opponent has three men on the bar against a closed board, with nothing borne off
    pos = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2},
                               {"bar": 3, 13: 5, 8: 5, 6: 2})
    decision = ev.cube_decision(pos.position_id, level=3)
    assert decision.too_good and not decision.double and not decision.take


def test_nobody_doubles_in_the_crawford_game_or_when_the_opponent_owns_the_cube():
    pos = Position.from_points({1: 2, 2: 2}, {6: 5, 5: 5, 4: 5})
    assert not ev.cube_decision(pos.position_id, 3, MatchTerms(length=5, away_me=3, away_opp=1,
                                                               crawford=1)).double
    assert not ev.cube_decision(pos.position_id, 3, MatchTerms(2, 2)).double


def test_bad_cube_arguments_are_value_errors():
    start = Position.start().position_id
    for kwargs in ({"cube_value": 3}, {"cube_owner": 5},
                   {"length": 5, "away_me": 7, "away_opp": 1},
                   {"crawford": 4}, {"cube_value": "2"}):
        with pytest.raises(ValueError):
            ev.cube_decision(start, 3, MatchTerms(**kwargs))
