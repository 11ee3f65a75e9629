"""Win chances beside the equity (game/chances.py): each ranked candidate carries the
probabilities that ranked it (each bg_play of the ranking, filled by the same search), which
agree with the C evaluation of the play's result at the depth it was judged, hold together
(win + lose = 100%, gammons within the wins, backgammons within the gammons), and show on the
advice page and on the review's move pages."""
import re

import pytest

from game import commands
from game.analysis import judge as review
from game.chances import chances_header, chances_line, percents
from game.model import evaluator
from game.model.match import COMPUTER, HUMAN, Match
from game.model.match_terms import MatchTerms
from game.model.position import Position
from game.model.record import MatchRecord
from game.pages.review_pages import figures_lines
from game.words import DEFAULT_NAMES, chance_names
from native import ffi, lib
from review_records import FEW_GAMES

START = Position.start()
# positions with their roll: the opening, a middle game with men hit, a bear-off against a
# man still back (gammons and backgammons possible)
POSITIONS = [
    (START, (5, 3)),
    (Position.from_points({6: 6, 8: 2, 13: 3, 24: 1, 5: 2, "bar": 1},
                          {6: 4, 7: 2, 8: 3, 13: 2, 21: 1, 3: 1}), (4, 2)),
    (Position.from_points({3: 3, 4: 3, 5: 3, 6: 2, 7: 2}, {6: 5, 5: 5, 4: 3, 24: 1, 23: 1}),
     (6, 4)),
]


def consistent(p) -> bool:
    eps = 1e-6
    return (all(-eps <= v <= 1 + eps for v in (p.win, p.win_gammon, p.win_backgammon,
                                                p.lose_gammon, p.lose_backgammon))
            and p.win_backgammon <= p.win_gammon + eps <= p.win + 2 * eps
            and p.lose_backgammon <= p.lose_gammon + eps <= 1 - p.win + 2 * eps)


@pytest.mark.parametrize("position,dice", POSITIONS)
def test_each_candidates_chances_are_the_c_evaluation_at_its_depth(position, dice):
    ranked = evaluator.ranked_plays(position, dice, 5)
    assert len(ranked) > 1
    for candidate in ranked:
        p = candidate.chances
        assert p is not None and consistent(p)
        assert p.equity == pytest.approx(candidate.equity, abs=1e-5)     # what ranked it
        if candidate.ply <= 2:
            seen = evaluator.evaluate(candidate.play.after.swapped(), candidate.ply).flipped()
            for name in ("win", "win_gammon", "win_backgammon", "lose_gammon",
                         "lose_backgammon"):
                assert getattr(p, name) == pytest.approx(getattr(seen, name), abs=1e-6)


def test_match_play_ranks_by_match_equity_and_still_carries_the_chances():
    match = MatchTerms(length=7, away_me=3, away_opp=5)
    ranked = evaluator.ranked_plays(START, (6, 4), 5, terms=match)
    for candidate in ranked:
        assert candidate.chances is not None and consistent(candidate.chances)
        if candidate.ply == 0:                    # no choice inside: the net's own output
            seen = evaluator.evaluate(candidate.play.after.swapped(), 0).flipped()
            assert candidate.chances.win == pytest.approx(seen.win, abs=1e-6)


def test_level_one_judges_no_chances_and_its_page_has_none():
    ranked = evaluator.ranked_plays(START, (3, 1), 1)
    assert all(c.chances is None for c in ranked)
    lines = commands.advice_lines(START, (3, 1), level=1)
    assert lines[1] == "" and not any("Gam" in line for line in lines)


def test_a_ranking_fills_the_chances_of_the_plays_it_returns_and_no_more():
    evaluator.ensure_loaded()
    plays = ffi.new("bg_play[]", 3)
    plays[2].probs[0] = -7.0                          # beyond the room given: untouched
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": 2})
    board = START.as_c()
    assert lib.bg_rank_plays(board, 3, 1, 3, ffi.NULL, ffi.NULL, ranking) == 2
    ranked = evaluator.ranked_plays(START, (3, 1), 3, limit=2)
    for k in range(2):
        assert evaluator.Probabilities(*plays[k].probs) == ranked[k].chances
    assert plays[2].probs[0] == -7.0


def test_printed_chances_add_up_wins_to_100_and_keep_gammons_within_wins():
    for position, dice in POSITIONS:
        for candidate in evaluator.ranked_plays(position, dice, 4):
            line = chances_line(candidate.chances)
            assert len(line) <= 32
            numbers = [float(v) for v in line.split()]
            assert len(numbers) == 6
            mine, theirs = numbers[:3], numbers[3:]
            assert mine[0] + theirs[0] == pytest.approx(100.0)
            assert mine[2] <= mine[1] <= mine[0] and theirs[2] <= theirs[1] <= theirs[0]
            (win, _, _), _ = percents(candidate.chances)
            assert mine[0] == pytest.approx(win / 10)


def test_a_certain_gammon_prints_as_100_without_running_the_cells_together():
    won = evaluator.Probabilities(1.0, 1.0, 0.0, 0.0, 0.0)
    assert chances_line(won).split() == ["100", "100", "0.0", "0.0", "0.0", "0.0"]
    assert chances_header(("White", "Black")) == "White  Gam   Bg  Black  Gam   Bg"


def test_the_advice_page_gives_each_play_its_chances_under_its_equity():
    lines = commands.advice_lines(START, (5, 3))
    assert lines[1] == chances_header(("You", "Me"))
    plays = [i for i, line in enumerate(lines) if re.match(r"\d\. ", line)]
    assert len(plays) == commands.ADVICE_COUNT
    ranked = evaluator.ranked_plays(START, (5, 3), 5, limit=commands.ADVICE_COUNT)
    for i, candidate in zip(plays, ranked, strict=True):
        assert lines[i + 1] == chances_line(candidate.chances)
    assert len(lines) <= 21 and all(len(line) <= 32 for line in lines)


def test_the_reviews_move_page_shows_the_best_plays_and_the_play_made_with_chances():
    record = MatchRecord(0)
    record.start_game({"human": 0, "computer": 0})
    record.move("human", (2, 1), "13/11 6/5")
    record.move("computer", (6, 5), "24/13")
    record.move("human", (2, 1), "24/22 24/23")
    items = [i for i in review.review_game(record, roll_games=FEW_GAMES).items
             if i.kind == "move"]
    last = items[-1]
    lines = figures_lines(last, "human", record.sides)
    assert lines[1] == chances_header(("You", "Me"))
    for n, choice in enumerate(last.candidates):
        assert lines[3 + 2 * n] == chances_line(choice.chances)
    if last.played.play.after in [c.play.after for c in last.candidates]:
        assert any(line.startswith("Played: ") for line in lines)
    else:
        at = next(i for i, line in enumerate(lines) if line.startswith("Played"))
        assert f"({-last.loss:+.3f})" in lines[at + 1]
        assert lines[at + 2] == chances_line(last.played.chances)
        assert last.played.chances.equity == pytest.approx(last.played.equity, abs=1e-5)
    assert len(lines) <= 21 and all(len(line) <= 32 for line in lines)


def test_chance_names_are_you_and_me_for_the_human_and_the_records_names_mover_first():
    against_me = Match(None, sides=(HUMAN, COMPUTER), names={COMPUTER: "Spectrum"})
    assert chance_names(against_me, HUMAN) == DEFAULT_NAMES == ("You", "Me")
    assert chance_names(against_me, COMPUTER) == ("Spectrum", "Human")
    two_players = Match(None, sides=("white", "black"), names={"white": "Ann", "black": "Bob"})
    assert chance_names(two_players, "black") == ("Bob", "Ann")
