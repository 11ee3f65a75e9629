"""MatchTerms (game/model/match_terms.py), the one shape of the match terms: refused when made
with the bad value named, in agreement with C's bg_check_match on every small score, made from
a Match in one place (Match.terms), the fallback past the match table in one method (judged),
and filled into C's bg_match in one place (as_c)."""
import itertools

import pytest

from game.errors import MatchError
from game.model.match import COMPUTER, HUMAN, Match
from game.model.match_terms import MONEY, MatchTerms
from native import ffi, lib


@pytest.mark.parametrize("fields, named", [
    (dict(length=5, away_me=0, away_opp=3), "away_me is 1 to 5"),
    (dict(length=5, away_me=6, away_opp=3), "away_me is 1 to 5"),
    (dict(length=5, away_me=3, away_opp=7), "away_opp is 1 to 5"),
    (dict(length=-1, away_me=1, away_opp=1), "length is 0 .money play. or more, not -1"),
    (dict(length=5, away_me=3, away_opp=3, crawford=3), "crawford is 0"),
    (dict(length=5, away_me=3, away_opp=3, crawford=1), "needs a side 1-away"),
    (dict(cube_value=2, length=5, away_me=1, away_opp=3, crawford=1), "cube of 1, not 2"),
    (dict(cube_value=3), "power of two from 1 to 4096, not 3"),
    (dict(cube_value=0), "power of two from 1 to 4096, not 0"),
    (dict(cube_value=8192), "not 8192"),
    (dict(cube_owner=3), "owner is 0 .centred., 1 .this side. or 2 .the opponent., not 3"),
    (dict(away_me=2), "money play has no score"),
    (dict(length=5, away_me=3, away_opp=1.0), "away_opp is a whole number, not 1.0"),
    (dict(length=5, away_me=True, away_opp=1), "away_me is a whole number, not True"),
    (dict(length="DMP"), "length is a whole number, not 'DMP'")])
def test_impossible_terms_are_refused_when_made_naming_the_value(fields, named):
    with pytest.raises(MatchError, match=named):
        MatchTerms(**fields)


def c_accepts(cube, owner, length, away_me, away_opp, crawford) -> bool:
    fields = dict(cube_value=cube, cube_owner=owner, match_to=length, away_me=away_me,
                  away_opp=away_opp, crawford=crawford)
    return lib.bg_check_match(ffi.new("bg_match *", fields)) == 0


def python_accepts(*fields) -> bool:
    try:
        MatchTerms(*fields)
    except MatchError:
        return False
    return True


def test_the_python_check_and_cs_bg_check_match_agree_on_every_small_score():
    cubes, owners = (0, 1, 2, 3, 4, 8, 4096, 8192), (-1, 0, 1, 2, 3)
    for cube, owner, length in itertools.product(cubes, owners, (-1, 1, 2, 3, 5, 25, 26)):
        for away_me, away_opp, crawford in itertools.product(range(-1, 7), range(-1, 7),
                                                             range(-1, 4)):
            fields = (cube, owner, length, away_me, away_opp, crawford)
            if length == 26:                  # past the table: a match Python keeps (judged)
                continue
            assert python_accepts(*fields) == c_accepts(*fields), fields
    for cube, owner in itertools.product(cubes, owners):     # money play: no score at all
        assert python_accepts(cube, owner) == c_accepts(cube, owner, 0, 0, 0, 0)


def test_the_terms_of_a_match_as_each_side_sees_them():
    match = Match(7)
    match.score[HUMAN], match.score[COMPUTER] = 2, 5
    match.start_game()
    match.cube_value, match.cube_owner = 2, HUMAN
    mine, theirs = match.terms(HUMAN), match.terms(COMPUTER)
    assert mine == MatchTerms(2, 1, 7, 5, 2, 0) and theirs == mine.for_opponent()
    assert Match(None).terms(HUMAN) == MONEY


def test_a_match_past_the_table_is_judged_as_money_play_at_its_cube():
    past = MatchTerms(4, 1, 30, 2, 5, 0)
    assert past.past_table and past.judged == MatchTerms(4, 1) and past.scale == 4
    assert past.per_unit() == MatchTerms(1, 1, 30, 2, 5, 0) and past.per_unit().past_table
    on = MatchTerms(2, 2, 25, 2, 5, 0)
    assert not on.past_table and on.judged is on and on.scale == 1 and on.per_unit() is on
    assert on.for_opponent() == MatchTerms(2, 1, 25, 5, 2, 0)
    assert MatchTerms(8).per_unit() == MONEY and MatchTerms(8).scale == 8


def test_the_c_struct_carries_the_judged_terms():
    c = MatchTerms(2, 2, 25, 2, 5, 0).as_c()
    assert (c.cube_value, c.cube_owner, c.match_to, c.away_me, c.away_opp, c.crawford) == \
        (2, 2, 25, 2, 5, 0)
    past = MatchTerms(4, 1, 30, 2, 5, 0).as_c()
    assert (past.cube_value, past.cube_owner, past.match_to, past.away_me) == (4, 1, 0, 0)
