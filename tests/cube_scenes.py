"""Not a test. The cube's scenes as the tests drive them: races a side leads or trails, a
driver that answers the cube stop itself, the stop or "Your move?" waited for, a match at a
score, dice written down as thrown, and a missed double found by the review's own judgement
(test_cube_stop, test_tutor, test_dead_cube_scenes, test_cube_judged_alike)."""
import functools
import time

from game.analysis import judge as review
from game.analysis.checking import deeper_cube_decision
from game.analysis.cube_judgement import cube_loss, in_emg, judge_no_double
from game.analysis.verdicts import mark_for
from game.model import evaluator, rules
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from game.model.match_terms import MatchTerms
from game.model.position import Position
from gamedriver import CUBE_STOP, GameDriver

LEADER = {8: 3, 6: 5, 5: 3, 4: 3, 3: 1}                     # a race the human leads well
TRAILER = {12: 2, 10: 2, 8: 3, 6: 3, 5: 2, 4: 2, 3: 1}           # 107 pips, all past
LEADERS = ({8: 3, 6: 5, 5: 3, 4: 3, 3: 1}, {10: 1, 8: 3, 6: 4, 5: 3, 4: 3, 3: 1},
           {10: 2, 8: 3, 6: 4, 5: 3, 4: 2, 3: 1}, {12: 1, 10: 2, 8: 3, 6: 4, 5: 2, 4: 2, 3: 1},
           # 96 pips against 107: a ?? missed double at money by the 3-ply cubeful check
           # (0.099) and by gnubg 2-ply (double/take, no double 0.096 behind)
           {12: 1, 10: 1, 8: 3, 6: 4, 5: 3, 4: 2, 3: 1})
WAIT_SECONDS = 60                 # the judging runs in a thread: wait in wall time


class StopDriver(GameDriver):
    roll_at_stops = False                    # these tests answer the stops themselves


def until_move_or_stop(driver, max_frames=3000) -> str:
    """Frames until the stop or "Your move?"; returns which came."""
    for _ in range(max_frames):
        message = driver.message()
        if CUBE_STOP in message:
            return "stop"
        if "Your move?" in message:
            return "move"
        driver.frame()
    raise AssertionError("neither came:\n" + "\n".join(driver.text()))


def match_at(length, human=0, computer=0, value=1, owner=None, crawford=False) -> Match:
    match = Match(length)
    match.score[HUMAN], match.score[COMPUTER] = human, computer
    match.start_game()
    match.cube_value, match.cube_owner = value, owner
    match.crawford_game = crawford
    return match


class Thrown(Dice):
    """The test's dice: each pair thrown for a turn is written down as it is thrown; the
    tumbling shows the same face every time (so two runs draw the same pictures)."""

    def __init__(self, faces, seed=0):
        super().__init__(seed=seed, faces=faces)
        self.pairs: list = []

    def pair(self):
        self.pairs.append(super().pair())
        return self.pairs[-1]

    def flicker(self):
        return 3


def computers_21(start: Position) -> Position:
    """`start` (held for the human) after the computer, on roll first, plays 2-1 as the
    driver's chooser does (the first legal play): the human on roll."""
    return rules.legal_plays(start.swapped(), (2, 1))[0].after.swapped()


@functools.cache      # a pure search of a few 3-ply decisions (about a second each): once a worker
def missed_double(terms: MatchTerms, marks=("??",), computer_first=False):
    """A race the human leads where rolling without a double earns one of `marks` by the
    review's own judgement at `terms`, asked of the evaluator here (a loss over the ? line
    checked at 3 plies, as the CHECKED review and the tutor charge it): (the start, the
    human's position on roll, the loss). `computer_first`: the computer plays a 2-1 first."""
    for leader in LEADERS:
        start = Position.from_points(leader, TRAILER)
        position = computers_21(start) if computer_first else start
        _, loss = judge_no_double(
            lambda level, p=position: evaluator.cube_decision(p, level, terms),
            terms, review.REVIEW_LEVEL)
        if mark_for(loss):
            loss = cube_loss("no double", in_emg(deeper_cube_decision(position, terms),
                                                 terms))
        if mark_for(loss) in marks:
            return start, position, loss
    raise AssertionError(f"no race of LEADERS earns {marks} at {terms}")


def screens_until_your_move(driver, picture=False):
    """Every frame's screen text (`picture`: with the screen's bytes, attributes included)
    until "Your move?", ENTER typed at "ENTER rolls" and at a warning (the roll kept)."""
    seen: list = []
    deadline = time.monotonic() + WAIT_SECONDS
    while "Your move?" not in driver.message():
        assert time.monotonic() < deadline, "\n".join(driver.text())
        seen.append((driver.text(), bytes(driver.machine.memory[0x4000:0x5B00]))
                    if picture else driver.text())
        if "ENTER rolls" in driver.message() or "better by" in driver.message():
            driver.type("\n")
        else:
            driver.run(1)
            time.sleep(0.001)
    return seen
