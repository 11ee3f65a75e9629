"""Plays valued with the cube in play (issue 58): the review and the tutor charge a play by its
cubeful value, the opponent's cube weighed after it by the live/dead cube formula and searched
two plies deep (native bg_cubeful_plays, evaluator.cubeful_plays), as GNU Backgammon analyses
a play; with the cube out of play, cubelessly as before. Checked against `gnubg -t`'s own
hint, cubeful and cubeless, and on terms where no cube can turn."""
import re

import numpy
import pytest

from game.analysis import checking
from game.analysis.judge import REVIEW_LEVEL, judged_turn
from game.errors import BackgammonError
from game.model import evaluator, rules
from game.model.match_equity import Emg
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.record import format_play
from gnubg_tools import run_gnubg_commands
from native import ffi, lib

# money, the cube centred: the opening 63 answered by a 6-5 run and a hit (seed 48's match 1,
# where gnubg charged 22/16 8/5 0.307 EMG and our cubeless review 0.159); gnubg 2-ply
# charges 13/4 0.278 cubefully and 0.158 cubelessly
VOLATILE = ("YrfBATBmm8EBDA", (6, 3))
GNUBG_LINE = re.compile(r"^\s*\d+\. Cube\w+ 2-ply\s+(.+?)\s+Eq\.: [-+][0-9.]+"
                        r"(?: \(([-+][0-9.]+)\))?")


def steps_of(words: str) -> str:
    """A play's moves with each man's steps joined ("16/13 22/16" is gnubg's "22/13"), in
    one order, the hits left out: the same words for our notation and gnubg's."""
    point = {"off": 0, "bar": 25}
    moves = [[point[x] if x in point else int(x) for x in step.replace("*", "").split("/")]
             for step in words.split()]
    joined = True
    while joined:
        joined = False
        for a in moves:
            b = next((b for b in moves if b is not a and b[0] == a[-1]), None)
            if b is not None:
                a[-1:] = b[1:]
                moves.remove(b)
                joined = True
                break
    return " ".join(sorted(f"{m[0]}/{m[-1]}" for m in moves))    # (0: off, 25: the bar)


def gnubg_hint_errors(tmp_path, start: tuple, position_id: str, dice: tuple,
                      cubeful: bool = True) -> tuple[dict, str]:
    """gnubg 2-ply's error of each play of the roll its hint lists (money points, or EMG in a
    match), by its steps, after the `start` commands begin the game or match; and what gnubg
    said."""
    code, said = run_gnubg_commands(tmp_path, [
        "set beavers 0", "set player 0 human", "set player 1 human", *start,
        f"set board {position_id}", "set dice {}{}".format(*dice),
        "set evaluation chequerplay evaluation plies 2",
        f"set evaluation chequerplay evaluation cubeful {'on' if cubeful else 'off'}",
        # without a filter of its own, gnubg 1.07's hint judged some plays at 0 plies
        "set evaluation movefilter 2 0 20 0 2.0", "set evaluation movefilter 2 1 -1 0 0.0",
        "hint 10"])
    assert code == 0, said
    found = {}
    for line in said.splitlines():
        m = GNUBG_LINE.match(line)
        if m:
            found[steps_of(m.group(1))] = -float(m.group(2) or 0.0)
    return found, said


def gnubg_errors(tmp_path, cubeful: bool) -> dict:
    """gnubg 2-ply's error (money points) of each of the roll's best ten plays, by its steps."""
    found, said = gnubg_hint_errors(tmp_path, ("new game",), *VOLATILE, cubeful)
    assert len(found) == 10, said
    return found


def our_errors(cubeful: bool) -> dict:
    """Our quick review's error of each of the same plays (judged_turn at level 5)."""
    before = Position.from_id(VOLATILE[0])
    ranked = evaluator.ranked_plays(before, VOLATILE[1], REVIEW_LEVEL, terms=MONEY)
    out = {}
    for c in list(ranked)[:10]:
        _, _, loss = judged_turn(ranked, c.play.after, MONEY, cubeful=cubeful)
        out[steps_of(format_play(c.play.steps))] = loss
    return out


def test_with_the_cube_in_play_a_volatile_play_costs_more_as_gnubg_charges_it(tmp_path):
    """gnubg's 2-ply charges a play leaving shots more with the cube in play than without;
    our review does the same, and its cubeful error is nearer gnubg's cubeful one."""
    theirs_cf, theirs_cl = gnubg_errors(tmp_path, True), gnubg_errors(tmp_path, False)
    ours_cf, ours_cl = our_errors(True), our_errors(False)
    play = steps_of("13/4")
    assert theirs_cf[play] - theirs_cl[play] > 0.08           # gnubg: the cube's part
    assert ours_cf[play] - ours_cl[play] > 0.05                # ours, the same way
    assert abs(ours_cf[play] - theirs_cf[play]) < abs(ours_cl[play] - theirs_cf[play])
    shared = [p for p in theirs_cf if p in ours_cf]
    assert len(shared) >= 6
    gap_cf = sum(abs(ours_cf[p] - theirs_cf[p]) for p in shared) / len(shared)
    gap_cl = sum(abs(ours_cl[p] - theirs_cf[p]) for p in shared) / len(shared)
    assert gap_cf < gap_cl                  # nearer gnubg's cubeful errors over the list too


def test_in_the_crawford_game_a_plays_cubeful_value_is_its_match_value():
    """No cube turns in the Crawford game: the cubeful value is the cubeless match value."""
    terms = MatchTerms(1, 0, 7, 1, 4, 1)
    before = Position.from_id(VOLATILE[0])
    afters = [p.after for p in rules.legal_plays(before, VOLATILE[1])][:8]
    judged = evaluator.judge_plays(afters, 0, terms)
    values = checking.play_values(afters, judged, terms, cubeful=True)
    assert values == pytest.approx([equity for equity, _ in judged], abs=1e-5)


def test_money_values_are_per_unit_of_cube_whatever_the_cube_stands_at():
    """The review's money units: a cube of 4 the mover owns values each play as a cube of 1
    it owns would, per unit."""
    before = Position.from_id(VOLATILE[0])
    afters = [p.after for p in rules.legal_plays(before, VOLATILE[1])][:8]
    judged = evaluator.judge_plays(afters, 0)
    at_1 = checking.play_values(afters, judged, MatchTerms(1, 1), cubeful=True)
    at_4 = checking.play_values(afters, judged, MatchTerms(4, 1), cubeful=True)
    assert at_4 == pytest.approx(at_1, abs=1e-5)
    assert at_1 != pytest.approx([equity for equity, _ in judged], abs=1e-3)


# a 7-point match at 0-0, the cube centred: the mover bears off against one man on its bar
# point's side; 6/off 5/2 leaves the opponent a shot, 6/off 4/1 none (seed 90790's match 1 of
# bench/review_vs_gnubg.py, where gnubg charged 6/off 5/2 0.611 EMG and its cubeful rollout
# the same, +/- 0.002; the formula at one efficiency charged 0.41-0.49)
LAST_SHOT = ("23YDQAim7wEAAA", (6, 3), "6/off 5/2")


def gnubg_match_errors(tmp_path, position_id: str, dice: tuple) -> dict:
    """gnubg 2-ply's cubeful error (EMG) of each play of the roll at 0-0 in a 7-point match,
    the cube centred, by its steps."""
    found, said = gnubg_hint_errors(
        tmp_path, ("set jacoby off", "new match 7", "set output mwc off"), position_id, dice)
    assert found, said
    return found


def test_a_play_leaving_a_last_shot_is_charged_by_the_searched_cube_as_gnubg_charges_it(
        tmp_path):
    """Where the opponent's next roll decides, the owner-to-be's cube is worth what the rolls
    make of it: the searched value charges the play leaving the shot as gnubg 2-ply does,
    the formula at one efficiency (ply 0) far less."""
    position_id, dice, words = LAST_SHOT
    terms = MatchTerms(1, 0, 7, 7, 7, 0)
    ranked = evaluator.ranked_plays(Position.from_id(position_id), dice, REVIEW_LEVEL,
                                    terms=terms)
    shot = next(c for c in ranked if format_play(c.play.steps) == words)
    _, played, loss = judged_turn(ranked, shot.play.after, terms, cubeful=True)
    theirs = gnubg_match_errors(tmp_path, position_id, dice)[steps_of(words)]
    assert theirs > 0.5
    assert abs(loss - theirs) < 0.05
    # the formula alone, on the same chances: the cube's timing unseen
    best = next(c for c in ranked if format_play(c.play.steps) != words)
    afters = [best.play.after, shot.play.after]
    judged = [(best.equity, best.chances), (played.equity, shot.chances)]
    formula = checking.play_values(afters, judged, terms, cubeful=True, cube_ply=0)
    searched = checking.play_values(afters, judged, terms, cubeful=True)
    emg = Emg.at(terms)
    assert emg.error(formula[0] - formula[1]) < theirs - 0.1
    assert abs(emg.error(searched[0] - searched[1]) - theirs) < 0.05


def test_a_search_of_no_plies_is_the_formula_and_deeper_than_two_is_refused():
    before = Position.from_id(LAST_SHOT[0])
    afters = [p.after for p in rules.legal_plays(before, LAST_SHOT[1])][:4]
    chances = [ch for _, ch in evaluator.judge_plays(afters, 0)]
    terms = MatchTerms(1, 0, 7, 7, 7, 0)
    assert evaluator.cubeful_plays(afters, chances, terms, ply=0) == evaluator.cubeful_plays(
        afters, chances, terms)
    assert evaluator.cubeful_plays(afters, chances, terms, ply=2) != evaluator.cubeful_plays(
        afters, chances, terms, ply=0)
    for ply in (-1, 3, True, 1.5):
        with pytest.raises(ValueError, match="searched 0 to 2 plies deep"):
            evaluator.cubeful_plays(afters, chances, terms, ply=ply)


def test_the_native_search_refuses_plies_outside_its_range():
    after = Position.from_id(LAST_SHOT[0])
    boards = ffi.new("int8_t[]", list(after.board))
    probs = ffi.new("float[]", [0.5, 0.1, 0.0, 0.1, 0.0])
    out = ffi.new("float[]", 1)
    for ply in (-1, lib.BG_CUBE_MISS_MAX_PLY + 1):
        assert lib.bg_cubeful_plays(boards, 1, probs, ffi.NULL, ply, out) == -lib.BG_ERR_BAD_ARG
    assert lib.bg_cubeful_plays(boards, 1, probs, ffi.NULL, 1, out) == 1


MISS_TERMS = [MONEY, MatchTerms(2, 1), MatchTerms(1, 0, 7, 7, 7, 0), MatchTerms(1, 0, 7, 2, 4, 0),
              MatchTerms(1, 0, 7, 3, 1, 2)]


def test_a_plays_value_searched_is_its_formula_value_plus_its_miss_to_the_bit():
    """The miss depends on the play and the terms, not the chances: the formula's value at any
    chances plus the miss, added in float32, is the searched value's very bits, so a miss
    searched once serves every judgement of the play."""
    for position_id, dice in (LAST_SHOT[:2], VOLATILE[:2]):
        before = Position.from_id(position_id)
        afters = [p.after for p in rules.legal_plays(before, dice)][:6]
        for ply in (0, 1, 2):
            for chances in ([ch for _, ch in evaluator.judge_plays(afters, 0)],
                            [ch for _, ch in evaluator.judge_plays(afters, 1)]):
                for terms in MISS_TERMS:
                    searched = evaluator.cubeful_plays(afters, chances, terms, ply)
                    formula = evaluator.cubeful_plays(afters, chances, terms, 0)
                    misses = evaluator.cube_misses(afters, terms, ply)
                    assert [float(numpy.float32(f) + numpy.float32(m))
                            for f, m in zip(formula, misses, strict=True)] == searched
                    if ply == 0:
                        assert misses == [0.0] * len(afters)
                    if ply == 2 and terms.length == 0:   # the search sees what it adds
                        assert any(abs(m) > 1e-3 for m in misses)


def test_a_play_that_ends_the_game_leaves_no_cube_and_no_miss():
    board = [0] * 50
    board[0] = 1                          # the mover's last man on its 1-point
    board[25 + 5] = 15                    # the opponent's fifteen on its 6-point
    before = Position.from_engine(tuple(board))
    (play,) = {p.after: p for p in rules.legal_plays(before, (6, 5))}.values()
    assert rules.game_result(play.after) != 0
    assert evaluator.cube_misses([play.after], MONEY, 2) == [0.0]


def test_a_miss_search_refuses_plies_out_of_range_in_python_and_in_c():
    after = Position.from_id(LAST_SHOT[0])
    for ply in (-1, 3, True, 1.5):
        with pytest.raises(ValueError, match="searched 0 to 2 plies deep"):
            evaluator.cube_misses([after], MONEY, ply)
    boards = ffi.new("int8_t[]", list(after.board))
    out = ffi.new("float[]", 1)
    for ply in (-1, lib.BG_CUBE_MISS_MAX_PLY + 1):
        assert lib.bg_cube_misses(boards, 1, ffi.NULL, ply, out) == -lib.BG_ERR_BAD_ARG
    assert lib.bg_cube_misses(ffi.NULL, 1, ffi.NULL, 1, out) == -lib.BG_ERR_BAD_ARG
    bad = ffi.new("int8_t[]", [16] + [0] * 49)            # sixteen men: no position
    assert lib.bg_cube_misses(bad, 1, ffi.NULL, 1, out) < 0
    assert lib.bg_cube_misses(boards, 1, ffi.NULL, 1, out) == 1
    assert evaluator.cube_misses([], MONEY, 2) == []


def test_kept_misses_value_plays_as_the_search_does_and_search_each_play_once():
    before = Position.from_id(VOLATILE[0])
    afters = [p.after for p in rules.legal_plays(before, VOLATILE[1])][:5]
    terms = MatchTerms(1, 0, 7, 3, 3, 0)
    misses = checking.CubeMisses()
    for ply in (0, 2):                    # a quick judgement, then a deeper one
        judged = evaluator.judge_plays(afters, ply, terms)
        assert checking.play_values(afters, judged, terms, True, misses=misses) == \
            checking.play_values(afters, judged, terms, True)
        assert misses.searched == len(afters)
    checking.play_values(afters[:2], judged[:2], MONEY, True, misses=misses)  # other terms
    assert misses.searched == len(afters) + 2


def test_the_cube_out_of_play_values_a_play_cubelessly():
    before = Position.from_id(VOLATILE[0])
    afters = [p.after for p in rules.legal_plays(before, VOLATILE[1])][:4]
    judged = evaluator.judge_plays(afters, 0)
    assert checking.play_values(afters, judged, MONEY) == [e for e, _ in judged]


@pytest.mark.parametrize("chances", [
    evaluator.Probabilities(1.2, 0.1, 0.0, 0.1, 0.0),           # a win chance over 1
    evaluator.Probabilities(0.4, 0.5, 0.0, 0.1, 0.0),           # more gammons than wins
    evaluator.Probabilities(float("nan"), 0.1, 0.0, 0.1, 0.0),
])
def test_impossible_chances_are_refused_with_a_named_error(chances):
    after = Position.from_id(VOLATILE[0])
    with pytest.raises(BackgammonError, match="impossible chances"):
        evaluator.cubeful_plays([after], [chances])


def test_plays_and_chances_of_unequal_lengths_are_refused():
    with pytest.raises(ValueError, match="2 plays and 1 chances"):
        evaluator.cubeful_plays([Position.start(), Position.start()],
                                [evaluator.Probabilities(0.5, 0.1, 0.0, 0.1, 0.0)])
