"""The one rule of where a cube decision exists (issue 57 item 3): MatchTerms.double_refused,
which Match.can_double, the cube stop, "D doubles", the computer's double, the tutor and the
review's counts all ask. A cube that cannot be turned (the Crawford game, the opponent's, at
64, or dead: in a match, a win at the cube's present value already wins it) gives no
decision; it agrees with GNU Backgammon's own rule (eval.c's GetDPEq: no Crawford game, the
owner or a centred cube, and score + cube < match length)."""
import itertools

import pytest

from game.model.match import COMPUTER, HUMAN, Match
from game.model.match_terms import MAX_CUBE, MatchTerms


def gnubg_may_double(terms: MatchTerms) -> bool:
    """GNU Backgammon's rule, in its own terms: not the Crawford game, the cube centred or the
    side's own, and (in a match) the side's score plus the cube below the match length."""
    score_me = terms.length - terms.away_me
    return (terms.crawford != 1 and terms.cube_owner in (0, 1)
            and (terms.money or score_me + terms.cube_value < terms.length))


def every_match_terms(longest: int = 7):
    for length in range(1, longest + 1):
        for away_me, away_opp in itertools.product(range(1, length + 1), repeat=2):
            for cube, owner, crawford in itertools.product((1, 2, 4, 8), (0, 1, 2), (0, 1, 2)):
                try:
                    yield MatchTerms(cube, owner, length, away_me, away_opp, crawford)
                except Exception:           # impossible terms (MatchTerms names them)
                    continue


def test_the_one_rule_agrees_with_gnubg_at_every_score_cube_and_owner_to_seven_points():
    checked = 0
    for terms in every_match_terms():
        assert (not terms.double_refused()) == gnubg_may_double(terms), terms
        checked += 1
    assert checked > 2000


@pytest.mark.parametrize("terms, words", [
    (MatchTerms(2, 1, 3, 2, 2), "The cube is dead: a win at 2 wins the match"),
    (MatchTerms(1, 0, 5, 1, 4, 2), "The cube is dead: a win at 1 wins the match"),
    (MatchTerms(1, 0, 5, 1, 4, 1), "No doubling in the Crawford game"),
    (MatchTerms(2, 2), "Only the owner of the cube may double"),
    (MatchTerms(MAX_CUBE, 1), f"The cube is already at {MAX_CUBE}"),
])
def test_a_cube_that_cannot_be_turned_says_why_in_words(terms, words):
    assert terms.double_refused() == words


def test_dead_cube_at_two_away_two_away_owner_may_not_double_but_three_away_may():
    assert MatchTerms(2, 1, 3, 2, 2).double_refused()             # 2-away holding 2
    assert not MatchTerms(2, 1, 5, 3, 2).double_refused()         # 3-away holding 2
    assert not MatchTerms(2, 1, 5, 3, 1, 2).double_refused()      # trailer, post-Crawford
    assert not MatchTerms(1, 0, 3, 2, 2).double_refused()         # 2-away, centred cube
    assert not MatchTerms(MAX_CUBE // 2, 1).double_refused()      # money: never dead


def test_match_can_double_is_the_rule_at_the_moment_of_the_throw():
    """Match.can_double says what MatchTerms.double_refused says, in its words, once the
    moment is right (in a game, the side on roll, not yet rolled, no double waiting)."""
    for human, computer, value, owner in itertools.product(range(3), range(3), (1, 2, 4),
                                                           (None, HUMAN, COMPUTER)):
        match = Match(3)
        match.score = {HUMAN: human, COMPUTER: computer}
        match.start_game()
        if match.crawford_game and (value, owner) != (1, None):
            continue                           # the Crawford game is played at 1
        match.cube_value, match.cube_owner = value, owner
        match.start_turn(HUMAN)
        ok, why = match.can_double(HUMAN)
        assert why == match.terms(HUMAN).double_refused() and ok == (not why)
