"""Plays rolled out at a match score (native/src/rollout.c bg_rollout_start with a bg_match,
Rollout.start(terms=...), rollout_pages.plays_job): money rollouts the same bits as before the
match mode came; at a match each trial's equity is 2 x match winning chance - 1 of its result
by the match table (at double match point 2 x win - 1), the same bits on one thread or two, a
stop the rollout of the trials finished, the match ranking of a gammon-sensitive play found
again by the rollout; the advice page and a review move page roll their plays out at their
score and say the units; bad match terms refused in words. Rollouts are 0-ply, few trials,
seeded."""
from dataclasses import replace

import pytest

from game.analysis.judge import Reviewer
from game.errors import MatchError
from game.model import evaluator as ev
from game.model import rollout
from game.model.match import COMPUTER, HUMAN
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.record import MatchRecord
from game.model.rollout import CUBE_ACTIONS, Rollout
from game.pages import rollout_pages as RS
from gamedriver import RoutineDriver as Driver
from native import ffi, lib
from page_drivers import ReviewDriver, wait_for

OPENING_42 = "4HPwATDgc/ABMA"      # the opening position, 4-2 to play
FLOAT_SLACK = 1e-9                 # sums of the same doubles in another order


@pytest.fixture(autouse=True)
def weights():
    ev.ensure_loaded()
    yield
    rollout.stop_all()


def opening_plays(count=3):
    start = Position.from_id(OPENING_42)
    return start, [c.play for c in ev.ranked_plays(start, (4, 2), 3, limit=count)]


def raw_figures(handle, count):
    """The engine's means and standard errors, as the bits it gives (float.hex)."""
    mean = ffi.new("double[]", count * lib.BG_ROLLOUT_FIGURES)
    se = ffi.new("double[]", count * lib.BG_ROLLOUT_FIGURES)
    done = lib.bg_rollout_poll(handle, mean, se)
    return done, [float(x).hex() for x in mean], [float(x).hex() for x in se]


def rolled(position, plays, trials, **options):
    with Rollout() as r:
        return r.start(position, plays, trials, **options).result()


# Made on the code before the match mode (commit 0beef7a) by /tmp/mr_pin.py: the opening 4-2's
# three best 0-ply plays rolled out on 2 threads, Rollout.start(pos, plays, threads=2, **options)
# then bg_rollout_poll; per options the trials done, each candidate's equity, win chance and
# equity standard error as float.hex(). Taken again for each new shipped net with the code
# unchanged, last with session 44's weights (net44, whose contact net changed every one). The
# first row's third play taken again in session 54: the bear-off database, built since from its
# own one-man moves, takes a few equal-mean ties the other way (1,010 boards' distributions a
# last bit apart), and this played-out rollout's third play moved in its last bits only.
MONEY_PINS = [
    (dict(trials=72, level=3, seed=7), 72,
     ['0x1.da4a9f6b4dea7p-4', '0x1.4e259e1c0bde1p-6', '0x1.a1e4ffc2db7d4p-7'],
     ['0x1.12acba7162c5bp-1', '0x1.020609206b81fp-1', '0x1.fefbae2875adcp-2'],
     ['0x1.47f8cc708fea0p-5', '0x1.a150f12a7833bp-6', '0x1.0acbc18b9f154p-5']),
    (dict(trials=40, level=3, truncate=10, seed=3, luck=False), 40,
     ['0x1.36760f1873333p-4', '-0x1.bd881dc266666p-6', '0x1.cbe91c4c00000p-7'],
     ['0x1.0f3dedc000000p-1', '0x1.f7be90199999ap-2', '0x1.0930531cccccdp-1'],
     ['0x1.05ae2afe0fc3ep-4', '0x1.1af2ba9f72475p-4', '0x1.291d895b47862p-4']),
    (dict(trials=12, level=4, seed=5, truncate=8), 12,
     ['0x1.a8cc07ef00000p-4', '0x1.c805fe6000000p-8', '0x1.b86f538000000p-10'],
     ['0x1.0feb666aaaaabp-1', '0x1.0124d34000000p-1', '0x1.f8154d8000000p-2'],
     ['0x1.b4f731b3d94abp-7', '0x1.339c49b2de590p-7', '0x1.0a529660aed83p-6']),
]


@pytest.mark.parametrize("options, trials, equity, win, equity_se", MONEY_PINS)
def test_money_rollouts_are_the_same_bits_as_before_the_match_mode(options, trials, equity,
                                                                     win, equity_se):
    start, plays = opening_plays()
    eq = lib.BG_ROLLOUT_EQUITY
    for terms in (MONEY, MatchTerms(8, 2)):      # money play at any cube: cubeless
        with Rollout() as r:
            r.start(start, plays, threads=2, terms=terms, **options).result()
            done, mean, se = raw_figures(r._handle, 3)
        assert done == trials
        assert [mean[c * 6 + eq] for c in range(3)] == equity
        assert [mean[c * 6] for c in range(3)] == win
        assert [se[c * 6 + eq] for c in range(3)] == equity_se


@pytest.mark.parametrize("match", [MatchTerms(length=1, away_me=1, away_opp=1),
                                   MatchTerms(length=7, away_me=1, away_opp=1, crawford=2)])
def test_at_double_match_point_the_equity_is_2_x_win_less_1_of_the_same_rollout(match):
    start, plays = opening_plays()
    answer = rolled(start, plays, 6, seed=7, threads=2, terms=match)      # (each trial's
    for figures in answer.candidates:                                   # equity is so: a
        assert figures.equity.mean == pytest.approx(2 * figures.win_pct.mean / 100 - 1,
                                                    abs=1e-6)           # few show it)
    money = rolled(start, plays, 6, seed=7, threads=2)
    assert [f.equity.mean for f in money.candidates] != [f.equity.mean
                                                          for f in answer.candidates]


def met_value(match, chances):
    """2 x match winning chance - 1 of chances (win, wg, wbg, lg, lbg) at a pre-Crawford
    score, from the engine's match equity table."""
    table = ev.match_equity_table()
    me, opp, cube = match.away_me, match.away_opp, match.cube_value

    def mwc(a, b):
        return 1.0 if a <= 0 else 0.0 if b <= 0 else table[a - 1][b - 1]
    win, wg, wbg, lg, lbg = chances
    shares = ((win - wg, mwc(me - cube, opp)), (wg - wbg, mwc(me - 2 * cube, opp)),
              (wbg, mwc(me - 3 * cube, opp)), (1 - win - lg, mwc(me, opp - cube)),
              (lg - lbg, mwc(me, opp - 2 * cube)), (lbg, mwc(me, opp - 3 * cube)))
    return 2 * sum(share * value for share, value in shares) - 1


@pytest.mark.parametrize("match", [MatchTerms(length=5, away_me=2, away_opp=4),
                                   MatchTerms(cube_value=2, length=9, away_me=5, away_opp=3)])
def test_a_match_rollouts_equity_is_the_match_table_value_of_its_own_chances(match):
    start, plays = opening_plays()
    answer = rolled(start, plays, 72, seed=11, threads=2, terms=match, luck=False)
    for figures in answer.candidates:
        chances = tuple(getattr(figures, f"{name}_pct").mean / 100   # the fields by name
                        for name in ("win", "win_gammon", "win_backgammon", "lose_gammon",
                                     "lose_backgammon"))
        assert figures.equity.mean == pytest.approx(met_value(match, chances), abs=FLOAT_SLACK)


def test_a_match_rollout_is_the_same_bits_on_one_thread_and_on_two_and_a_stop_keeps_them():
    start, plays = opening_plays(2)
    match = MatchTerms(length=5, away_me=2, away_opp=4)
    one = rolled(start, plays, 12, seed=5, threads=1, terms=match)   # trial by trial: a few
    two = rolled(start, plays, 12, seed=5, threads=2, terms=match)   # split across 2 threads
    assert one.candidates == two.candidates and one.trials_done == 12
    r = Rollout().start(start, plays, 1296, seed=5, threads=2, terms=match)
    while r.progress().trials_done < 4:
        pass
    stopped = r.stop()
    r.close()
    assert 4 <= stopped.trials_done < 1296
    again = rolled(start, plays, stopped.trials_done, seed=5, threads=1, terms=match)
    assert again.candidates == stopped.candidates


# A race where the side on roll is 3-away against 1-away, post-Crawford, to play 3-2: a score
# where gammons count differently from money (the ranking test asks the evaluator which plays)
POST_CRAWFORD = ("2Xk7AABmnoWAEQ", (3, 2),
                 MatchTerms(length=5, away_me=3, away_opp=1, crawford=2))


def test_a_match_rollout_ranks_as_level_5_at_the_score_where_money_ranks_otherwise():
    position_id, dice, match = POST_CRAWFORD
    position = Position.from_id(position_id)
    money_best = ev.ranked_plays(position, dice, 5, limit=1)[0]
    match_best = ev.ranked_plays(position, dice, 5, limit=1, terms=match)[0]
    assert money_best.play.after != match_best.play.after       # the score changes the play
    # 36 games each: the money play comes out 0.051 behind, +-0.016 (144 games: 0.049
    # +-0.010), so the match play is first by three times the interval
    answer = rolled(position, [match_best.play, money_best.play], 36, seed=1, threads=2,
                    terms=match)
    behind = answer.candidates[1].versus_first
    assert behind.mean + behind.interval < 0                    # level 5's match play first
    money = rolled(position, [match_best.play, money_best.play], 36, seed=1, threads=2)
    assert money.candidates[1].versus_first.mean > behind.mean   # money sees it otherwise


@pytest.mark.parametrize("fields", [dict(length=5, away_me=6, away_opp=1),
                                    dict(length=5, away_me=2, away_opp=4, crawford=1),
                                    dict(cube_value=3, length=5, away_me=2, away_opp=4),
                                    dict(length="5-point")])
def test_a_bad_match_cannot_even_be_asked_for(fields):
    with pytest.raises(MatchError):
        MatchTerms(**fields)


def test_the_engine_refuses_a_bad_match_or_a_match_for_the_cube_kind():
    start, plays = opening_plays(1)
    board = ffi.new("int8_t[]", list(plays[0].after.board))
    handle = ffi.new("bg_rollout **")
    fields = ("cube_value", "cube_owner", "match_to", "away_me", "away_opp", "crawford")
    for kind, terms in ((lib.BG_ROLLOUT_PLAYS, (1, 0, 5, 6, 1, 0)),
                        (lib.BG_ROLLOUT_PLAYS, (1, 0, 5, 2, 2, 1)),
                        (lib.BG_ROLLOUT_PLAYS, (1, 0, 26, 2, 4, 0)),
                        (lib.BG_ROLLOUT_CUBE, (1, 0, 5, 2, 4, 0))):
        match = ffi.new("bg_match *", dict(zip(fields, terms, strict=True)))
        plan = ffi.new("bg_rollout_plan *", {"kind": kind, "trials": 4, "level": 3,
                                             "threads": 1, "seed": 1})
        code = lib.bg_rollout_start(board, 1, plan, match, ffi.NULL, handle)
        assert code == -lib.BG_ERR_BAD_ARG and handle[0] == ffi.NULL
    past = RS.plays_job(start, plays, terms=MatchTerms(length=30, away_me=2, away_opp=4))
    assert past.match is None and past.past_table
    at_five = MatchTerms(length=5, away_me=2, away_opp=4)
    assert rolled(Position.start(), CUBE_ACTIONS, 2, threads=1, terms=at_five).cube


def spy_on_roll_out(monkeypatch):
    jobs = []
    real = RS.roll_out

    def roll_out(basic, job, threads=None):
        jobs.append(job)
        return real(basic, replace(job, trials=8), threads=2)   # 8 games: seconds
    monkeypatch.setattr(RS, "roll_out", roll_out)
    return jobs


def through_the_pages(driver):
    """ENTER on the choice page (0-ply) to the result page: the two pages' words."""
    wait_for(driver, "Rolls out the", row=2)
    choice = "\n".join(driver.text())
    driver.type("\n")
    wait_for(driver, "ROLLOUT RESULT", row=0, seconds=300)
    return choice, "\n".join(driver.text())


def test_r_on_the_advice_page_in_a_match_rolls_out_at_the_score_and_says_the_units(
        monkeypatch):
    jobs = spy_on_roll_out(monkeypatch)
    start, _ = opening_plays()
    match = MatchTerms(length=5, away_me=2, away_opp=4)
    driver = Driver(lambda basic: RS.advice_with_rollout(basic, start, (4, 2), terms=match))
    wait_for(driver, "ADVICE", row=0)
    driver.type("r")
    choice, page = through_the_pages(driver)
    assert jobs[0].match == match and not jobs[0].past_table
    for words in ("Match to 5:", "You 2-away, Me 4-away", "2 x match winning chance - 1."):
        assert words in choice
    assert "You 2-away, Me 4-away:" in page and "2 x match winning chance - 1." in page
    assert "points a game" not in page and "points a game" not in choice


def test_r_on_the_advice_page_past_the_match_table_rolls_out_money_and_says_so(monkeypatch):
    jobs = spy_on_roll_out(monkeypatch)
    start, _ = opening_plays()
    driver = Driver(lambda basic: RS.advice_with_rollout(basic, start, (4, 2),
                                                         terms=MatchTerms(length=30, away_me=2,
                                                                          away_opp=4)))
    wait_for(driver, "ADVICE", row=0)
    driver.type("r")
    choice, page = through_the_pages(driver)
    assert jobs[0].match is None and jobs[0].past_table
    assert "table: money play instead." in choice and "table: money play instead." in page
    assert "points a game, no cube." in page


def match_game():
    """A 5-point match at 3-1 (you 2-away, I 4-away): the opening and a reply."""
    record = MatchRecord(5)
    record.start_game({HUMAN: 3, COMPUTER: 1})
    record.move(HUMAN, (4, 2), "8/4 6/4")
    record.move(COMPUTER, (6, 4), "24/18 13/9")
    record.move(HUMAN, (2, 1), "13/11 6/5")
    return record


def test_a_review_move_in_a_match_rolls_out_at_the_terms_the_review_judged_it(monkeypatch):
    items = [i for i in Reviewer(match_game(), level=3, checked=False).run().items
             if i.kind == "move"]
    mine, yours = MatchTerms(length=5, away_me=2, away_opp=4), \
        MatchTerms(length=5, away_me=4, away_opp=2)
    assert [i.terms for i in items] == [mine, yours, mine]
    job = RS.review_job(items[1], HUMAN, ("Me", "You"), trials=4)
    assert job.match == items[1].terms
    jobs = spy_on_roll_out(monkeypatch)
    driver = ReviewDriver(match_game(), checked=False)     # QUICK: its terms are under test
    driver.until("REVIEW OF GAME 1", row=0)
    driver.type("\n")
    driver.until("You 42", row=11)
    driver.type("r")
    choice, page = through_the_pages(driver)
    assert jobs[0].match == MatchTerms(length=5, away_me=2, away_opp=4)
    assert "You 2-away, Me 4-away" in choice and "2 x match winning chance - 1." in page
    driver.type("\n")
    wait_for(driver, "You 42", row=11)                 # back on the same move page


def test_a_review_move_past_the_match_table_rolls_out_as_money_play_and_says_so():
    record = MatchRecord(31)
    record.start_game({HUMAN: 29, COMPUTER: 29})
    record.move(HUMAN, (4, 2), "8/4 6/4")
    item = next(i for i in Reviewer(record, level=3).run().items if i.kind == "move")
    assert item.terms.length == 31 and item.past_table and item.emg is None
    job = RS.review_job(item, HUMAN, trials=4)
    assert (job.match, job.past_table) == (None, True)
    assert RS.plays_units(job) == ["The score is past the match", "table: money play instead.",
                                   "Equity: points a game, no cube."]
