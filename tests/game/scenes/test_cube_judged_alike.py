"""Every place that judges the cube goes through evaluator.cube_decision and the one rule
(issue 57 item 2's list, checked in item 4): the cube stop's WHEN CLOSE screens as the review
and the tutor screen a roll without a double (cube_judgement.worth_a_look: in EMG at a match
score, where it used to take the 0.16 cut-off in 2 x MWC - 1), and the computer's answer to a
resignation counts a double only where the one rule lets the side double (a cube of 64)."""
import pytest

from cube_scenes import LEADER, TRAILER, StopDriver, match_at, until_move_or_stop
from game.analysis.cube_judgement import (
    CUBE_SCREEN_LEVEL,
    close_cube,
    in_emg,
    judge_no_double,
    worth_a_look,
)
from game.files.settings import Settings
from game.model import evaluator, resignation
from game.model.dice import Dice
from game.model.match_terms import MAX_CUBE, MatchTerms
from game.model.position import Position

SEVEN_AWAY = MatchTerms(length=7, away_me=7, away_opp=7)
RACE_PASS = "trsbAAC2uwMAAA"     # a race, 55 pips against 69: double, pass (test_review.py)


def test_when_close_at_a_match_score_stops_only_where_the_review_would_look():
    """The opening position at 7-away each: no double is within 0.16 of doubling in 2 x MWC
    - 1 but not in EMG, so the review and the tutor do not look closer, and WHEN CLOSE no
    longer stops; a race the human leads by a roll and more: it stops, as before."""
    start = Position.start()
    quick = evaluator.cube_decision(start, CUBE_SCREEN_LEVEL, SEVEN_AWAY)
    assert close_cube(quick) and not close_cube(in_emg(quick, SEVEN_AWAY))
    assert not worth_a_look(quick, SEVEN_AWAY)
    assert judge_no_double(lambda level: evaluator.cube_decision(start, level, SEVEN_AWAY),
                           SEVEN_AWAY, 5)[1] == 0.0
    ahead = Position.from_points(LEADER, TRAILER)
    assert worth_a_look(evaluator.cube_decision(ahead, CUBE_SCREEN_LEVEL, SEVEN_AWAY),
                        SEVEN_AWAY)
    for position, expected in ((start, "move"), (ahead, "stop")):
        driver = StopDriver(dice=Dice.scripted([3, 1]), start=position, match=match_at(7),
                            settings=Settings(who_starts="human", cube_stop="close",
                                              match_length=7))
        assert until_move_or_stop(driver) == expected


@pytest.mark.parametrize("value, doubles", [(MAX_CUBE // 2, True), (MAX_CUBE, False)])
def test_resignation_weighs_a_double_only_where_the_side_may_double(value, doubles):
    """A race the side on roll should double out (double, pass): at a cube of 32 playing on
    is worth the opponent's pass; at 64 the cube cannot be turned (the evaluator's own rule,
    C's cube_may_double, knows the 64 as the one rule does), so playing on is worth the no
    double."""
    terms = MatchTerms(value, 1)
    decision = evaluator.cube_decision(RACE_PASS, resignation.JUDGE_LEVEL, terms)
    assert decision.double == doubles and not decision.take
    assert decision.no_double_equity < decision.double_pass_equity      # the two differ
    on = resignation.on_roll_equity(Position.from_id(RACE_PASS), None, terms)
    expected = decision.double_pass_equity if doubles else decision.no_double_equity
    assert on == pytest.approx(expected)
