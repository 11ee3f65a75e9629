"""Cubeful cube decisions (native/src/cubeful.c through evaluator.cube_decision): the 2-ply
cubeful search of level 5 and the formula of levels 1-3 at the position's cube efficiency,
at money and match terms: a dead cube, the Crawford and post-Crawford games, an owned cube,
too good, a volatile position where the search corrects the formula, and bad terms refused
with a named code."""
import pytest

from game.model import evaluator as ev
from game.model.match_terms import MatchTerms
from native import ffi, lib

OPENING = "4HPwATDgc/ABMA"        # an opening position: the side on roll wins about 52%
GAMMONISH = "4PPgAULbbAVBQA"      # the side on roll wins about 80%, half of them gammons
# A two-roll bear-off: 4 men (on the 1, 2, 3 and 5 points) against 3 men, the side on roll
# wins 71.9% whatever the ply (both sides in the bear-off database). GNU Backgammon 1.07's
# exact two-sided bear-off database gives its money no double as +0.465 (`hint`, money,
# centred cube); the formula at 0-ply, blind to how every roll here swings the market, says
# far more.
LAST_ROLLS = "VAAAUAkAAAAAAA"
GNUBG_EXACT_NO_DOUBLE = 0.465


@pytest.fixture(scope="module", autouse=True)
def weights():
    ev.load_weights()


def match(away_me, away_opp, crawford=0, cube=1, owner=0, length=7):
    return MatchTerms(cube_value=cube, cube_owner=owner, length=length, away_me=away_me,
                      away_opp=away_opp, crawford=crawford)


def test_a_dead_cube_gives_no_double_when_a_win_at_its_value_wins_the_match():
    for level in (3, 5):
        d = ev.cube_decision(GAMMONISH, level, match(2, 2, cube=2, owner=1))
        assert not d.double and not d.too_good


def test_nobody_doubles_in_the_crawford_game_and_the_equity_is_the_dead_cube_match_value():
    terms = match(1, 4, crawford=1)
    for pid in (OPENING, GAMMONISH):
        d = ev.cube_decision(pid, 3, terms)
        assert not d.double and not d.too_good
        chances = ev.evaluate(pid, 0)
        out = ffi.new("float[1]")
        probs = ffi.new("float[]", [chances.win, chances.win_gammon, chances.win_backgammon,
                                    chances.lose_gammon, chances.lose_backgammon])
        assert lib.bg_match_value(probs, terms.as_c(), out) == 0
        assert d.no_double_equity == pytest.approx(out[0], abs=1e-6)
    assert not ev.cube_decision(GAMMONISH, 5, match(4, 1, crawford=1)).double


def test_post_crawford_the_trailer_doubles_at_once_and_the_leader_never():
    trailer = ev.cube_decision(OPENING, 5, match(3, 1, crawford=2))
    assert trailer.double and trailer.take
    leader = ev.cube_decision(GAMMONISH, 5, match(1, 3, crawford=2))
    assert not leader.double and not leader.too_good


def test_an_owned_cube_is_worth_more_to_its_owner_and_the_other_side_cannot_double():
    centred = ev.cube_decision(OPENING, 5)
    mine = ev.cube_decision(OPENING, 5, MatchTerms(cube_value=2, cube_owner=1))
    theirs = ev.cube_decision(OPENING, 5, MatchTerms(cube_value=2, cube_owner=2))
    assert not theirs.double and not theirs.too_good
    # per unit of cube: owning it beats a centred cube, which beats the opponent owning it
    assert mine.no_double_equity / 2 > centred.no_double_equity > theirs.no_double_equity / 2


def test_too_good_to_double_when_playing_on_for_the_gammon_beats_the_cash():
    for level in (3, 5):
        d = ev.cube_decision(GAMMONISH, level)
        assert d.too_good and not d.double
        assert d.no_double_equity > d.double_pass_equity


def test_the_2ply_cubeful_no_double_corrects_the_formula_where_gnubg_says_it_is_wrong():
    formula = ev.cube_decision(LAST_ROLLS, 3)
    searched = ev.cube_decision(LAST_ROLLS, 5)
    assert formula.win == pytest.approx(searched.win, abs=1e-5)   # the same cubeless chances
    assert formula.no_double_equity - GNUBG_EXACT_NO_DOUBLE > 0.1
    assert abs(searched.no_double_equity - GNUBG_EXACT_NO_DOUBLE) < 0.03
    assert searched.double and searched.take


def test_a_cube_decision_is_the_same_bits_every_time_so_games_replay():
    terms = match(3, 3)
    first = ev.cube_decision(OPENING, 5, terms)
    ev.cube_decision(GAMMONISH, 5, terms)
    assert ev.cube_decision(OPENING, 5, terms) == first


@pytest.mark.parametrize("fields, code", [
    ((0, 0, 0, 0, 0, 0), "BG_ERR_BAD_CUBE"),      # a cube of 0
    ((3, 0, 0, 0, 0, 0), "BG_ERR_BAD_CUBE"),      # a cube of 3
    ((2, 3, 0, 0, 0, 0), "BG_ERR_BAD_CUBE"),      # an owner of 3
    ((2, 1, 7, 1, 4, 1), "BG_ERR_BAD_CUBE"),      # a turned cube in the Crawford game
    ((1, 0, 26, 3, 3, 0), "BG_ERR_BAD_SCORE"),    # a match past the table
    ((1, 0, 7, 8, 3, 0), "BG_ERR_BAD_SCORE"),     # needing more than the match length
    ((1, 0, 7, 3, 3, 1), "BG_ERR_BAD_SCORE"),     # the Crawford game with nobody 1-away
])
def test_impossible_cube_terms_are_refused_with_a_named_code_in_one_line(fields, code):
    names = ("cube_value", "cube_owner", "match_to", "away_me", "away_opp", "crawford")
    terms = ffi.new("bg_match *", dict(zip(names, fields, strict=True)))
    board = ev.Position.from_id(OPENING).as_c()
    out = ffi.new("float[]", lib.BG_CUBE_OUT_LEN)
    for call in (lambda: lib.bg_cube_decision(board, 5, terms, ffi.NULL, out),
                 lambda: lib.bg_cube_from_probs(ffi.new("float[]", [0.6, 0.1, 0, 0.05, 0]),
                                                terms, out)):
        rc = call()
        assert rc == -getattr(lib, code)
        message = str(ev.c_error(rc))
        assert "\n" not in message and ("cube" in message or "score" in message)
