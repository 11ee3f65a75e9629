"""The game review (game/analysis/judge.py): plays and cube actions judged by level 5 with the ?
and ?? marks, the luck of each roll, GNU Backgammon's rating bands, and bad input (no moves, a
damaged record or save, a key during the computation) refused with words and nothing lost. Games
are built in code from positions and seeded dice."""
import json
import time

import pytest

from game.analysis import judge as review
from game.analysis.judge import Reviewer, ReviewError, luck_of, review_game
from game.analysis.verdicts import BAD, RATINGS, mark_for, rating_for
from game.files import savegame
from game.model import evaluator
from game.model.match import COMPUTER, HUMAN, Match
from game.model.match_equity import Emg
from game.model.match_terms import MatchTerms
from game.model.position import Position
from game.model.record import MatchRecord, format_play
from review_records import (
    FEW_GAMES,
    QUICK,
    RACE_EVEN,
    RACE_PASS,
    first_turns,
    one_game,
    played_out,
    with_a_double,
)

# ---- marks and ratings ----------------------------------------------------------------

def test_marks_are_question_marks_above_four_and_eight_hundredths():
    assert mark_for(0.0) == mark_for(0.04) == ""
    assert mark_for(0.0401) == mark_for(0.08) == "?"
    assert mark_for(0.0801) == mark_for(1.5) == "??"


def test_rating_bands_follow_gnu_backgammons_published_thresholds():
    assert [name for _, name in RATINGS] == ["Supernatural", "World class", "Expert",
                                             "Advanced", "Intermediate", "Casual player",
                                             "Beginner", "Awful!"]
    assert rating_for(0.0) == "Supernatural"
    assert rating_for(0.0019) == "Supernatural"
    assert rating_for(0.002) == "World class"
    assert rating_for(0.0079) == "Expert"
    assert rating_for(0.0179) == "Intermediate"
    assert rating_for(0.0349) == "Beginner"
    assert rating_for(0.035) == rating_for(0.4) == "Awful!"


# ---- plays ----------------------------------------------------------------------------

def test_opening_31_made_properly_gives_nothing_and_8_5_8_7_is_marked_a_blunder():
    record = one_game()
    record.move(HUMAN, (3, 1), "8/5 6/5")
    record.move(COMPUTER, (3, 1), "8/5 8/7")
    moves = [item for item in review_game(record, roll_games=FEW_GAMES).items
             if item.kind == "move"]
    good, bad = moves
    assert good.played.words == good.best.words == "8/5 6/5"
    assert good.loss == 0.0 and good.mark == ""
    assert bad.best.words == "8/5 6/5"
    assert bad.loss > BAD and bad.mark == "??"
    assert bad.played.ply == bad.best.ply          # judged as deeply as the best
    assert bad.loss == pytest.approx(bad.best.equity - bad.played.equity)


def test_every_loss_is_the_best_equity_less_the_plays_and_never_negative():
    """A game's first 12 turns (of 64): plays equal to the best, one rolled out and cleared
    within the rollout's noise, errors rolled out and charged, one charged unchecked."""
    r = review_game(first_turns(played_out(5), 12), roll_games=FEW_GAMES)
    assert r.complete
    moves = [i for i in r.items if i.kind == "move"]
    assert moves and all(i.loss >= 0.0 for i in r.items)
    for item in moves:
        assert item.best.words == format_play(item.best.play.steps)
        if item.played.play.after == item.best.play.after:
            assert item.loss == 0.0
        elif item.check is not None and item.check.unproven:   # within the rollout's noise
            assert item.loss == 0.0 and item.best.equity > item.played.equity
        else:
            assert item.loss == pytest.approx(max(0.0, item.best.equity - item.played.equity))
    assert any(i.mark for i in moves)              # the seeded slips are found


def test_a_forced_move_is_not_counted_as_a_decision():
    closed = Position.from_points({"bar": 1, 6: 14},
                                  {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    record = one_game(start=closed.position_id)
    record.move(HUMAN, (6, 6), "")                  # the bar man cannot enter: no move
    r = review_game(record)
    move = [i for i in r.items if i.kind == "move"][0]
    assert move.forced and move.mark == ""
    assert r.summary()[HUMAN].moves == 0 and r.summary()[HUMAN].rolls == 1


# ---- cube -----------------------------------------------------------------------------

def test_taking_a_pass_is_a_blunder_and_dropping_it_costs_nothing():
    for answer, costly in (("take", True), ("drop", False)):
        record = one_game(start=RACE_PASS)
        record.double(HUMAN, 2)
        getattr(record, answer)(COMPUTER)
        if answer == "take":
            record.move(HUMAN, (6, 5), "6/off 5/off")
        items = review_game(record, roll_games=FEW_GAMES).items
        double, reply = items[0], items[1]
        assert (double.kind, double.side, double.loss) == ("double", HUMAN, 0.0)
        assert double.proper == "Double, pass"
        assert reply.kind == answer and reply.side == COMPUTER
        assert (reply.loss > BAD) == costly
        assert reply.mark == ("??" if costly else "")


def test_doubling_an_even_race_is_marked_and_the_take_is_right():
    record = one_game(start=RACE_EVEN)
    record.double(HUMAN, 2)
    record.take(COMPUTER)
    record.move(HUMAN, (2, 1), "6/4 6/5")
    items = review_game(record, roll_games=FEW_GAMES).items
    double, take = items[0], items[1]
    assert double.proper.startswith("No double")
    assert double.loss == pytest.approx(double.decision.no_double_equity - min(
        double.decision.double_take_equity, double.decision.double_pass_equity))
    assert double.mark == "??"
    assert take.loss == 0.0


def test_not_doubling_a_pass_is_judged_a_missed_double():
    leader = {6: 3, 5: 3, 4: 3, 3: 2, 2: 2}                 # 55 pips against 71
    start = Position.from_points({8: 2, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2}, leader)
    record = one_game(start=start.position_id)              # the trailer on roll first
    record.move(COMPUTER, (2, 1), "8/6 8/7")
    record.move(HUMAN, (2, 1), "6/4 6/5")                   # the leader did not double
    items = review_game(record).items
    missed = [i for i in items if i.kind == "no double" and i.side == HUMAN]
    # gnubg 1.07's 2-ply hint (trsXAAC2uwMAAA, money): no double +0.966, double/pass 1.000
    assert missed and missed[0].proper == "Double, pass"
    assert missed[0].loss == pytest.approx(0.034, abs=0.006)


# ---- luck -----------------------------------------------------------------------------

def test_the_luck_of_all_36_rolls_averages_to_nothing():
    position = Position.from_id("4HPwATDgc/ABMA")
    total = 0.0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            total += luck_of(position, (d1, d2))
    assert abs(total / 36) < 1e-4
    assert luck_of(position, (6, 6)) > 0 > luck_of(position, (2, 1))


@pytest.mark.parametrize("terms", [MatchTerms(1, 0, 5, 2, 4), MatchTerms(2, 2, 7, 3, 3),
                                   MatchTerms(1, 0, 3, 1, 2, crawford=1)])
def test_match_luck_is_in_emg_and_all_36_rolls_average_to_nothing(terms):
    position = Position.from_id("4HPwATDgc/ABMA")
    lucks = {(d1, d2): luck_of(position, (d1, d2), terms)
             for d1 in range(1, 7) for d2 in range(1, 7)}
    assert abs(sum(lucks.values()) / 36) < 1e-4
    assert lucks[(6, 6)] > 0 > lucks[(2, 1)]
    best_66 = evaluator.ranked_plays(position, (6, 6), 3, limit=1, terms=terms)[0].equity
    mean = sum(evaluator.ranked_plays(position, roll, 3, limit=1, terms=terms)[0].equity
               for roll in lucks) / 36
    assert lucks[(6, 6)] == pytest.approx(Emg.at(terms).error(best_66 - mean), abs=1e-6)
    assert lucks[(6, 6)] != pytest.approx(luck_of(position, (6, 6)), abs=1e-3)   # not money


def test_summary_adds_each_sides_errors_and_luck():
    r = review_game(first_turns(played_out(11), 20), level=QUICK,   # 10 turns a side
                    checked=False)                                   # the sums, not the check
    summary = r.summary()
    for side in (HUMAN, COMPUTER):
        s = summary[side]
        mine = [i for i in r.items if i.side == side]
        assert s.luck == pytest.approx(sum(i.luck for i in mine if i.kind == "move"))
        assert s.move_error == pytest.approx(sum(i.loss for i in mine
                                                 if i.kind == "move" and not i.forced))
        assert s.rating == rating_for(s.error_per_decision)
        assert s.error_per_move == pytest.approx(s.move_error / s.moves)


# ---- progress and stopping ------------------------------------------------------------

def test_progress_counts_every_turn_and_a_key_stops_between_turns_losing_nothing():
    record = first_turns(played_out(3), 12)
    before = json.dumps(record.to_dict())
    reviewer = Reviewer(record, level=QUICK, checked=False)
    seen = []
    for done, total in reviewer.steps():
        seen.append((done, total))
        if done == 4:
            reviewer.stop()                        # the key pressed during the computation
    assert [d for d, _ in seen] == [1, 2, 3, 4]
    assert not reviewer.review.complete
    partial = list(reviewer.review.items)
    assert partial and reviewer.review.summary()
    for _ in reviewer.steps():                     # carry on where it stopped
        pass
    assert reviewer.review.complete and reviewer.done == reviewer.total
    assert reviewer.review.items[:len(partial)] == partial
    assert len([i for i in reviewer.review.items if i.kind == "move"]) == \
        len([a for a in record.games[0].actions if a.kind == "move"])
    assert json.dumps(record.to_dict()) == before  # the record is untouched


@pytest.mark.parametrize("level,moves,counts", [(4, 9, (3,)), (5, 9, (2,))])
def test_threads_judging_turns_side_by_side_review_as_one_thread_does(level, moves, counts):
    """The turns are judged by several threads at once (a double and its answer together);
    the review, its order and every figure in it are those of one thread. 9 moves, a double
    and its take: 10 units, more than the 2 x threads a review keeps in flight, and rollout
    checks among them."""
    record = with_a_double(21, moves)
    alone = Reviewer(record, level=level, workers=1, roll_games=FEW_GAMES).run()
    kinds = [i.kind for i in alone.items]
    assert "double" in kinds and "take" in kinds and alone.complete
    for workers in counts:
        together = Reviewer(record, level=level, workers=workers, roll_games=FEW_GAMES).run()
        assert together.complete and together.items == alone.items


def test_a_stop_keeps_the_turns_judged_ahead_and_carrying_on_ends_the_same():
    record = with_a_double(22, 11)                 # 13 turns: 12 units, 6 in flight
    alone = Reviewer(record, level=QUICK, workers=1, roll_games=FEW_GAMES).run()
    reviewer = Reviewer(record, level=QUICK, workers=3, roll_games=FEW_GAMES)
    judged: list[int] = []                         # first turn of each unit a thread finished
    judge_unit = reviewer._judge_unit

    def judge_and_note(unit):
        items = judge_unit(unit)
        judged.append(unit[0])
        return items
    reviewer._judge_unit = judge_and_note
    steps = reviewer.steps()
    for done, _ in steps:
        if done == 5:
            # the threads go on while the screen waits; on a loaded machine give them the
            # time to finish a turn beyond the 5th before the key stops the review
            deadline = time.monotonic() + 30
            while not any(first >= 5 for first in judged) and time.monotonic() < deadline:
                time.sleep(0.005)
            reviewer.stop()
            break
    steps.close()                                  # what the screen does on a key
    assert reviewer.done == 5 and not reviewer.review.complete
    assert reviewer._ahead                         # threads had judged further on
    for _ in reviewer.steps():
        pass
    assert reviewer.review.complete and reviewer.review.items == alone.items
    assert not reviewer._ahead


def test_the_review_uses_the_cores_it_may_run_on_at_most_four(monkeypatch):
    monkeypatch.setattr(review.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5, 6, 7},
                        raising=False)
    assert review.review_workers() == review.MAX_WORKERS == 4
    monkeypatch.setattr(review.os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert review.review_workers() == 1
    assert Reviewer(with_a_double(23, 8), level=QUICK, workers=0).workers == 1


# ---- bad input ------------------------------------------------------------------------

def test_a_game_with_no_moves_is_refused_with_words():
    with pytest.raises(ReviewError, match="no game to review"):
        Reviewer(MatchRecord(0))
    with pytest.raises(ReviewError, match="no moves to review"):
        Reviewer(one_game())
    record = one_game(start=RACE_PASS)                # a double and a drop: no move, but
    record.double(HUMAN, 2)                            # two cube decisions to judge
    record.drop(COMPUTER)
    assert [i.kind for i in review_game(record).items] == ["double", "drop"]


def test_a_damaged_record_names_the_game_and_entry_and_is_left_as_it_was():
    record = one_game()
    record.move(HUMAN, (3, 1), "8/5 6/5")
    record.move(COMPUTER, (6, 5), "24/18 18/13")
    record.move(HUMAN, (2, 1), "13/7")                 # a 6 with 21: cannot be
    before = json.dumps(record.to_dict())
    with pytest.raises(ReviewError, match="damaged at game 1, entry 3"):
        Reviewer(record)
    assert json.dumps(record.to_dict()) == before
    record.games[0].actions[2].play = "8/5 5/3"        # men that are not there
    record.games[0].actions[2].dice = (2, 2)
    with pytest.raises(ReviewError, match="entry 3"):
        Reviewer(record)


def test_a_take_with_no_double_and_a_bad_start_are_refused():
    record = one_game()
    record.move(HUMAN, (3, 1), "8/5 6/5")
    record.take(COMPUTER)
    with pytest.raises(ReviewError, match="no double to answer"):
        Reviewer(record)
    broken = one_game(start="AAAAAAAAAAAAAA")
    broken.move(HUMAN, (3, 1), "8/5 6/5")
    with pytest.raises(ReviewError, match="start position is damaged"):
        Reviewer(broken)


def test_a_game_from_a_damaged_save_is_refused_and_the_save_kept(tmp_path):
    match = Match(None)
    match.start_game()
    match.start_turn(HUMAN)
    match.record_move(HUMAN, (3, 1), [(8, 5), (6, 5)])
    match.start_turn(COMPUTER)
    saved = savegame.SavedGame(match, Position.start().position_id, COMPUTER)
    path = savegame.save_game(saved, tmp_path / "save.json")
    data = json.loads(path.read_text())
    data["match"]["record"]["games"][0]["actions"][0]["play"] = "8/2 6/5"   # edited by hand
    path.write_text(json.dumps(data))
    text = path.read_text()
    loaded, warning = savegame.load_game(path, warn=None)
    assert warning is None                           # the file itself reads
    with pytest.raises(ReviewError, match="damaged at game 1, entry 1"):
        Reviewer(loaded.match.record)
    assert path.read_text() == text                  # nothing lost
    path.write_text(text[: len(text) // 2])          # and a truncated save
    loaded, warning = savegame.load_game(path, warn=None)
    assert loaded is None and "damaged" in warning   # set aside by savegame, not deleted
    assert list(tmp_path.glob("save.json.damaged-*"))


def test_a_move_with_no_dice_is_refused_with_words_not_a_crash(tmp_path):
    record = one_game()
    record.move(HUMAN, (3, 1), "8/5 6/5")
    record.games[0].actions[0].dice = None                  # a record damaged in memory
    with pytest.raises(ReviewError, match=r"damaged at game 1, entry 1 \(.* no dice: 8/5 6/5\)"
                                          r": a move with no dice"):
        Reviewer(record)
    match = Match(None)                                      # and a save edited by hand
    match.start_game()
    match.start_turn(HUMAN)
    match.record_move(HUMAN, (3, 1), [(8, 5), (6, 5)])
    match.start_turn(COMPUTER)
    path = savegame.save_game(savegame.SavedGame(match, Position.start().position_id,
                                                 COMPUTER), tmp_path / "save.json")
    data = json.loads(path.read_text())
    data["match"]["record"]["games"][0]["actions"][0]["dice"] = None
    path.write_text(json.dumps(data))
    loaded, warning = savegame.load_game(path, warn=None)
    assert loaded is None and "damaged" in warning and "a move has its dice" in warning
    assert list(tmp_path.glob("save.json.damaged-*"))       # set aside, not deleted


# ---- other starts and match play ------------------------------------------------------

def test_a_match_game_is_reviewed_at_the_match_score():
    record = first_turns(played_out(8, length=5), 16)
    record.games[0].scores = {HUMAN: 2, COMPUTER: 4}     # the Crawford game at 3-away 1-away
    record.games[0].crawford = True
    r = review_game(record, level=QUICK, checked=False)
    assert r.complete and r.match_play
    assert not [i for i in r.items if i.kind != "move"]  # no cube in the Crawford game
    assert all(-1.0 <= i.best.equity <= 1.0 for i in r.items)
