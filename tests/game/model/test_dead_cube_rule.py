"""The one rule of where a cube decision exists (issue 57 item 3): MatchTerms.double_refused,
which Match.can_double, the cube stop, "D doubles", the computer's double, the tutor and the
review's counts all ask. A cube that cannot be turned (the Crawford game, the opponent's, at
64, or dead: in a match, a win at the cube's present value already wins it) gives no
decision; it agrees with GNU Backgammon's own rule (eval.c's GetDPEq: no Crawford game, the
owner or a centred cube, and score + cube < match length), and C's own copy (bg_may_double,
which the cube search and the cube bits ask) agrees with it."""
import itertools

import pytest

from game.model import evaluator as ev
from game.model.match import COMPUTER, HUMAN, Match
from game.model.match_terms import MAX_CUBE, MatchTerms
from game.model.search_settings import DEFAULT_SEARCH, SearchSettings
from native import ffi, lib

LAST_ROLLS = "VAAAUAkAAAAAAA"     # a two-roll bear-off, a double/take at money (test_cubeful)


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


def every_money_terms():
    for log2, owner in itertools.product(range(lib.BG_CUBE_MAX_LOG2 + 1), (0, 1, 2)):
        yield MatchTerms(1 << log2, owner)


def test_c_may_double_is_the_python_rule_at_every_score_cube_owner_crawford_and_64():
    """C's own rule (bg_may_double, cube.c's cube_may_double: what the cube search and the
    cube bits ask) says what MatchTerms.double_refused says: matches to 7 points at every
    score, cube, owner and Crawford state, and money play at every cube the engine takes
    (the cube at 64 cannot be turned, though the engine takes values to BG_CUBE_MAX)."""
    checked = 0
    for terms in itertools.chain(every_match_terms(), every_money_terms()):
        assert lib.bg_may_double(terms.as_c()) == (not terms.double_refused()), terms
        checked += 1
    assert checked > 2000
    assert lib.bg_may_double(MatchTerms(MAX_CUBE // 2, 1).as_c()) == 1
    assert lib.bg_may_double(MatchTerms(MAX_CUBE, 1).as_c()) == 0
    assert lib.bg_may_double(ffi.NULL) == 1                       # money, centred cube of 1


def test_c_may_double_refuses_impossible_terms_with_bg_check_match_codes():
    bad_cube = ffi.new("bg_match *", {"cube_value": 3})
    bad_score = ffi.new("bg_match *", {"cube_value": 1, "match_to": 7, "away_me": 8,
                                       "away_opp": 3})
    assert lib.bg_may_double(bad_cube) == -lib.BG_ERR_BAD_CUBE
    assert lib.bg_may_double(bad_score) == -lib.BG_ERR_BAD_SCORE


def test_a_cube_at_64_is_never_turned_by_the_cube_decision_at_any_depth():
    """LAST_ROLLS is a double at money (test_cubeful): so it is with the cube at 32 owned,
    and with the cube at 64 there is no double, no too good, at every level and 3 plies."""
    ev.load_weights()
    three = SearchSettings(plies=3)
    for level, search in ((3, DEFAULT_SEARCH), (5, DEFAULT_SEARCH), (5, three)):
        assert ev.cube_decision(LAST_ROLLS, level, MatchTerms(MAX_CUBE // 2, 1), search).double
        at_64 = ev.cube_decision(LAST_ROLLS, level, MatchTerms(MAX_CUBE, 1), search)
        assert not at_64.double and not at_64.too_good, (level, search)
