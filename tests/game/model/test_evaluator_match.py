"""Match-aware checker play: in match play the evaluator ranks plays by match winning chance
from the match equity table (bg_rank_plays with a bg_match, ranked_plays(terms=...), the USR
door's terms at +56..+61) instead of cubeless money equity; money play is unchanged."""

import pytest

from game.model import evaluator as E
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.zx import usr_layout as U
from native import ffi, lib
from repo import TESTS
from shared_cases import DMP, find_dmp_case

DMP_POSITION, DMP_DICE, MONEY_CHOICE, DMP_CHOICE = find_dmp_case()
@pytest.fixture(scope="module", autouse=True)
def weights():
    E.ensure_loaded()


def test_money_play_is_unchanged_with_no_match_and_with_a_zero_length():
    for level in (1, 2, 3, 4):
        plain = E.ranked_plays(DMP_POSITION, DMP_DICE, level, limit=5)
        for terms in (MONEY, MatchTerms(64, 2), MatchTerms(4, 1)):   # any cube: cubeless
            again = E.ranked_plays(DMP_POSITION, DMP_DICE, level, limit=5, terms=terms)
            assert [(c.position_id, c.equity) for c in again] == \
                   [(c.position_id, c.equity) for c in plain]
    assert E.best_play(DMP_POSITION, DMP_DICE, 3) == MONEY_CHOICE
    assert E.best_play(DMP_POSITION, DMP_DICE, 3, terms=MONEY) == MONEY_CHOICE


def test_double_match_point_plays_safe_where_money_plays_for_the_gammon():
    assert E.best_play(DMP_POSITION, DMP_DICE, 3, terms=DMP) == DMP_CHOICE
    assert E.best_play(DMP_POSITION, DMP_DICE, 3, MatchTerms(1, 0, 1, 1, 1, 0)) == DMP_CHOICE
    money = E.evaluate(Position.from_id(MONEY_CHOICE).swapped())
    safe = E.evaluate(Position.from_id(DMP_CHOICE).swapped())
    # seen from the opponent, on roll next: the safe play loses fewer games, wins fewer gammons
    assert 1 - safe.win > 1 - money.win and safe.lose_gammon < money.lose_gammon
    ranked = E.ranked_plays(DMP_POSITION, DMP_DICE, 3, terms=DMP)
    # at DMP the match value is 2*P(win)-1 of the position after the play
    assert ranked[0].equity == pytest.approx(2 * (1 - safe.win) - 1, abs=1e-4)


def test_match_value_weights_each_outcome_by_the_table():
    # 2-away/1-away in the Crawford game: the trailer's gammon wins the match
    met = E.match_equity_table()
    ranked = E.ranked_plays(DMP_POSITION, DMP_DICE, 3, limit=1,
                            terms=MatchTerms(length=3, away_me=2, away_opp=1, crawford=1))
    p = E.evaluate(Position.from_id(ranked[0].position_id).swapped())
    win, wg = 1 - p.win, p.lose_gammon             # the mover's, from the opponent's view
    mwc = (win - wg) * (1 - met[0][0]) + wg * 1.0  # single win: post-Crawford 1-away/1-away
    assert ranked[0].equity == pytest.approx(2 * mwc - 1, abs=1e-3)


def c_rank(terms) -> int:
    """bg_rank_plays of the DMP case with a bg_match of these six fields, filled by hand."""
    board = Position.from_id(DMP_POSITION).as_c()
    fields = ("cube_value", "cube_owner", "match_to", "away_me", "away_opp", "crawford")
    match = ffi.new("bg_match *", dict(zip(fields, terms, strict=True)))
    return lib.bg_rank_plays(board, 6, 3, 3, match, ffi.NULL, _ranking(4))


def _ranking(room: int):
    """A bg_ranking with room for `room` plays (its array kept alive by the header)."""
    plays = ffi.new("bg_play[]", room)
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": room})
    _kept.append(plays)
    return ranking


_kept: list = []


def test_the_c_function_refuses_a_bad_score_and_takes_null_as_money():
    assert c_rank((1, 0, 5, 6, 1, 0)) == -lib.BG_ERR_BAD_SCORE        # 6-away in a 5-point match
    assert c_rank((1, 0, 26, 3, 1, 0)) == -lib.BG_ERR_BAD_SCORE       # past the table
    assert c_rank((3, 0, 5, 3, 1, 0)) == -lib.BG_ERR_BAD_CUBE         # cube not a power of 2
    assert c_rank((0, 0, 5, 3, 1, 0)) == -lib.BG_ERR_BAD_CUBE         # no cube of 0
    assert c_rank((1, 3, 5, 3, 1, 0)) == -lib.BG_ERR_BAD_CUBE         # no such owner
    assert c_rank((2, 1, 5, 3, 1, 1)) == -lib.BG_ERR_BAD_CUBE         # turned in the Crawford game
    assert c_rank((1, 0, 0, 99, -4, 7)) > 0       # money: the score is not looked at
    assert lib.bg_check_match(ffi.NULL) == 0
    board = Position.from_id(DMP_POSITION).as_c()
    assert lib.bg_rank_plays(board, 6, 3, 3, ffi.NULL, ffi.NULL, _ranking(4)) > 0


def _door(job, terms, memory=None, at=0x6000):
    memory = memory if memory is not None else bytearray(65536)
    request = U.encode_request(job, DMP_POSITION, DMP_DICE, 3, terms)
    memory[at:at + len(request)] = request
    status = U.usr_call(memory, at)
    return status, U.decode_answer(memory, at), memory


def test_usr_door_round_trip_with_the_terms():
    status, answer, memory = _door(U.JOB_BEST, DMP)
    assert status == 0 and answer["after"].position_id == DMP_CHOICE
    # the terms stay where they were written: the same block again is the same request
    assert bytes(memory[0x6000 + 56:0x6000 + 62]) == bytes((0, 0, 1, 1, 1, 2))
    assert U.usr_call(memory, 0x6000) == 0
    assert U.decode_answer(memory, 0x6000)["after"].position_id == DMP_CHOICE
    status, answer, _ = _door(U.JOB_BEST, MONEY)
    assert status == 0 and answer["after"].position_id == MONEY_CHOICE
    status, answer, _ = _door(U.JOB_RANK, DMP)
    ranked = E.ranked_plays(DMP_POSITION, DMP_DICE, 3, terms=DMP)
    assert status == 0
    assert [round(eq, 3) for _, eq in answer["candidates"]] == \
           [round(c.equity, 3) for c in ranked[:len(answer["candidates"])]]
    assert answer["candidates"][0][0] == ranked[0].play.steps


@pytest.mark.parametrize("job", [U.JOB_BEST, U.JOB_RANK, U.JOB_CUBE])
@pytest.mark.parametrize("at, value, code", [
    (lib.BG_USR_AWAY_ME, 9, lib.BG_ERR_BAD_SCORE), (lib.BG_USR_CUBE_LOG2, 13, lib.BG_ERR_BAD_CUBE),
    (lib.BG_USR_CUBE_OWNER, 3, lib.BG_ERR_BAD_CUBE), (lib.BG_USR_CRAWFORD, 3, lib.BG_ERR_BAD_SCORE),
    (lib.BG_USR_MATCH_TO, 26, lib.BG_ERR_BAD_SCORE)])
def test_usr_door_refuses_bad_terms_for_every_job(job, at, value, code):
    memory = bytearray(65536)
    memory[0x6000:0x6000 + U.REQUEST_LEN] = U.encode_request(
        job, DMP_POSITION, DMP_DICE, 3, MatchTerms(length=5, away_me=3, away_opp=1))
    memory[0x6000 + at] = value
    assert U.usr_call(memory, 0x6000) == code


def test_the_program_sends_the_match_score_with_the_computers_move():
    from game.model.match import COMPUTER, Match
    assert Match(None).terms(COMPUTER) == MONEY
    assert Match(3).terms(COMPUTER) == MatchTerms(length=3, away_me=3, away_opp=3)


def test_a_match_past_the_table_is_ranked_as_money_play():
    past = MatchTerms(length=40, away_me=1, away_opp=1, crawford=2)
    assert E.best_play(DMP_POSITION, DMP_DICE, 3, past) == MONEY_CHOICE


def test_cube_decisions_are_not_disturbed_by_a_match_ranking():
    before = E.cube_decision(DMP_POSITION, 4)
    E.ranked_plays(DMP_POSITION, DMP_DICE, 4, terms=DMP)
    assert E.cube_decision(DMP_POSITION, 4) == before
    assert E.evaluate(DMP_POSITION, 1) == E.evaluate(DMP_POSITION, 1)


def test_usr_chooser_pokes_the_match_score_and_the_game_passes_it(monkeypatch):
    import sys
    sys.path.insert(0, str(TESTS))
    from game.zx import usr as P
    from game.zx.basic import Basic
    from gamedriver import SYMBOLS, StandInMachine
    basic = Basic(StandInMachine(), dict(SYMBOLS, USR_ENTRY=0x8000, PARAMS=0x9000))
    choose = P.usr_chooser(basic, 3)
    position = Position.from_id(DMP_POSITION)
    assert choose(position, DMP_DICE).after.position_id == MONEY_CHOICE
    assert choose(position, DMP_DICE, terms=DMP).after.position_id == DMP_CHOICE
    assert choose(position, DMP_DICE, terms=MONEY).after.position_id == MONEY_CHOICE
    # a score the table cannot take falls back to money play, never to a refusal
    past = MatchTerms(length=40, away_me=1, away_opp=1, crawford=2)
    assert choose(position, DMP_DICE, terms=past).after.position_id == MONEY_CHOICE


def test_the_computers_move_in_a_match_game_carries_the_score():
    import sys
    sys.path.insert(0, str(TESTS))
    from game.files.settings import Settings
    from game.model.dice import Dice
    from game.model.match import COMPUTER, HUMAN, Match
    from game.zx import usr as P
    from gamedriver import GameDriver
    seen = []

    def chooser(position, dice, terms=MONEY):
        seen.append(terms)
        return P.first_legal_play(position, dice)
    match = Match(5)
    match.score[HUMAN], match.score[COMPUTER] = 3, 1
    match.start_game()
    driver = GameDriver(dice=Dice.scripted([3, 1]), match=match, chooser=chooser,
                        cube_policy=lambda *a: None,          # no answer: no double
                        settings=Settings(match_length=5))
    driver.until("I play")
    assert seen == [MatchTerms(length=5, away_me=4, away_opp=2)]   # I need 4, you need 2
