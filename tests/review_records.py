"""Match records for the review, built in code: an empty game to add entries to, a game
played to its end or one with a double taken (level 3's plays, seeded dice), the 3-1 opening
with a blunder, and the race positions of the cube's cases. Used by the analysis and the pages'
tests. Not a test."""
import random

from game.model import evaluator, rules
from game.model.match import COMPUTER, HUMAN
from game.model.position import Position
from game.model.record import MatchRecord

RACE_PASS = "trsbAAC2uwMAAA"     # a race, 55 pips against 69: double, pass (level 5)
RACE_EVEN = "7u4OAADu7g4AAA"     # 60 pips each, on roll: no double, take
QUICK = 3                        # where only the bookkeeping is under test: the fast level
FEW_GAMES = 36                   # a rollout check's games where only its path is under test
                                 # (the review's own: checking.ROLL_GAMES)


def one_game(start=None, length=0, score=None):
    record = MatchRecord(length)
    record.start_game(dict(score) if score else {HUMAN: 0, COMPUTER: 0}, start=start)
    return record


def first_turns(record, turns):
    """`record`'s first game stopped after its first `turns` entries (a game stopped before its
    end reviews as any other: test_review_emg.py's test_a_game_without_a_final_play_reviews)."""
    game = record.games[0]
    del game.actions[turns:]
    game.winner, game.points, game.how = None, 0, ""
    return record


def played_out(seed, level=3, error_rate=0.3, length=0, score=None, double_at=None):
    """A game to the end: each turn the level's best play, or now and then one of its next
    three (so the review has errors to find), seeded dice. `score`: the match score it is
    played at; `double_at`: the side on roll before that turn (counting both sides' turns
    from 1) doubles and is taken."""
    rng = random.Random(seed)
    record = one_game(length=length, score=score)
    position, side, turn = Position.start(), HUMAN, 0
    while True:
        turn += 1
        other = COMPUTER if side == HUMAN else HUMAN
        if turn == double_at:
            record.double(side, 2)
            record.take(other)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while turn == 1 and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        ranked = evaluator.ranked_plays(position, dice, level)
        pick = ranked[0] if rng.random() > error_rate else ranked[min(len(ranked) - 1,
                                                                      rng.randint(1, 3))]
        record.move(side, dice, pick.play.steps)
        result = rules.game_result(pick.play.after)
        if result:
            record.win(side, result)
            return record
        position, side = pick.play.after.swapped(), other


def with_a_double(seed, moves, level=3):
    """A game of `moves` turns (level 3's plays, seeded dice) where the side on roll at turn
    6 doubles and is taken, so the turns include a double, its answer and a cube owned."""
    rng = random.Random(seed)
    record = one_game()
    position, side = Position.start(), HUMAN
    for turn in range(moves):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while turn == 0 and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        other = COMPUTER if side == HUMAN else HUMAN
        if turn == 6:
            record.double(side, 2)
            record.take(other)
        pick = evaluator.ranked_plays(position, dice, level)[0]
        record.move(side, dice, pick.play.steps)
        if rules.game_result(pick.play.after):
            break
        position, side = pick.play.after.swapped(), other
    return record


# a 7-point match, the roller 5-away and its opponent 4-away, the cube centred: our 3-ply check
# calls it too good to double (the double charged 0.105 EMG); GNU Backgammon 1.07 at 2 plies
# says double/pass (no double +0.982, double/pass +1.000, double/take +1.228 EMG).
# bench/review_vs_gnubg.py seed 48's match 3, found for net48 by tests/repin.py
TOO_GOOD_BY_THE_NET = "jIMcgFtsuw1CAA"


# the same terms, a double the checked review calls too good: its page says "Proper: Too good
# to double" (test_lines_fit.py). Net44's TOO_GOOD_BY_THE_NET: its
# chances (0.70 wins, 0.54-0.58 gammons) called it too good; GNU Backgammon 1.07 at 2 plies
# says double/pass, and rollouts, ours and its own, give 0.67 wins and 0.42 gammons
TOO_GOOD_ON_THE_PAGE = "lp0I4AnvAACAAA"


def too_good_double(start: str | None = None):
    """The human doubles in `start` (TOO_GOOD_BY_THE_NET if None) at 2-3 of a 7-point match;
    the computer takes."""
    record = one_game(start=start or TOO_GOOD_BY_THE_NET, length=7,
                      score={HUMAN: 2, COMPUTER: 3})
    record.double(HUMAN, 2)
    record.take(COMPUTER)
    return record


def blunder_game():
    """Four turns from the start: 3-1 made properly, the computer's 6-4, a 2-1 that leaves a
    blot, and the computer's 3-1 played 8/5 8/7 (the blunder)."""
    record = one_game()
    record.move(HUMAN, (3, 1), "8/5 6/5")
    record.move(COMPUTER, (6, 4), "24/18 13/9")
    record.move(HUMAN, (2, 1), "6/4 4/3")          # a blot-leaving slip
    record.move(COMPUTER, (3, 1), "8/5 8/7")       # the blunder
    return record
