"""Tutor mode (game/scenes/tutor.py) in the running program: a finished play, double, take or drop
that the review would mark ? or ?? is named on the message line at once, with the better play
and the equity given away, T or U takes it back and ENTER keeps it; a roll without the double
the review would call missed is named before the dice are thrown, D doubles after all and ENTER
rolls; below the option's mark, and with the option OFF, nothing is said. The marks are worked
out here by the review's own judgement, not typed in."""
import threading
import time
from types import SimpleNamespace

import pytest

from cube_scenes import (
    WAIT_SECONDS,
    Thrown,
    missed_double,
    screens_until_your_move,
)
from game.analysis import checking
from game.analysis import judge as review
from game.analysis.verdicts import BAD, DOUBTFUL, mark_for
from game.commands import play_text
from game.files.settings import Settings, SettingsError
from game.model import evaluator, rules
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from game.model.match_terms import MONEY, MatchTerms
from game.model.position import Position
from game.model.record import MatchRecord
from game.scenes import tutor
from gamedriver import CUBE_STOP, GameDriver
from review_records import FEW_GAMES

# the human's opening roll, whose plays the tutor must mark every way (""; "?"; "??"): 6-3's
# opening throw, the human's 6 beating the computer's 3 (net52, each play's cube searched 2
# plies deep after it: unmarked 0.000 to 0.034, ? 0.060 and 0.079, ?? 0.081 and up; 6-4 was
# the roll until session 53, and has no ? play with the cube searched; 5-3, net44's roll, has
# none either, 6-5 one unmarked play; tests/repin.py finds another for a new net)
HUMAN_ROLL = (6, 3)
HUMAN_OPENS = [HUMAN_ROLL[1], HUMAN_ROLL[0]]    # the opening throw: the computer's die first
HUMAN_TURN = f"human {HUMAN_ROLL[0]}{HUMAN_ROLL[1]}"   # the log's line for the human's turn
RACE_EVEN = "7u4OAADu7g4AAA"      # 60 pips each, on roll: no double (test_review.py)
RACE_PASS = "trsbAAC2uwMAAA"      # 55 pips against 69: double, pass (test_review.py)


def opening_by_mark(dice=HUMAN_ROLL) -> dict:
    """The opening `dice`' plays by the review's mark: {"": [...], "?": [...], "??": [...]},
    each (play, loss), smallest loss first, the best play first of all; the loss as the
    CHECKED review and the tutor charge it (over the ? line: checked at 3 plies)."""
    coach = tutor.PlayCoach(Position.start(), dice, MONEY, True, "?")
    ranked = coach.ranking.result()
    out = {"": [], "?": [], "??": []}
    for candidate in ranked:
        _, loss = review.judged_play(ranked, candidate.play.after)
        if mark_for(loss):
            loss = coach.checked(ranked, candidate.play.after)[1]
        out[mark_for(loss)].append((candidate.play, loss))
    for plays in out.values():
        plays.sort(key=lambda pair: pair[1])
    return out


@pytest.fixture(scope="module")
def marked():
    plays = opening_by_mark()
    assert plays[""] and plays["?"] and plays["??"], f"{HUMAN_ROLL} needs plays of every mark"
    return plays


def until(driver, words, row=None):
    """Frames until `words` is on the screen (on `row`), waiting in wall time for the
    tutor's thread; ENTER at each cube stop on the way, as GameDriver.until."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        lines = driver.text()
        if any(words in line for line in (lines if row is None else [lines[row]])):
            return
        if driver.roll_at_stops and CUBE_STOP in lines[23]:
            driver.type("\n")                      # the cube stop: ENTER rolls, no double
            continue
        driver.run(2)
        time.sleep(0.002)
    raise AssertionError(f"{words!r} never appeared:\n" + "\n".join(driver.text()))


def type_play(driver, play):
    """Each step of `play` typed at "Your move?" as a player would (letter and die)."""
    until(driver, "Your move?", row=23)
    turn = driver.game.state.turn
    for made, step in enumerate(play.steps, 1):
        until(driver, "Your move?", row=23)
        driver.type(f"{Position.letter_of_index(step.from_index, True)}{step.die}\n")
        deadline = time.monotonic() + WAIT_SECONDS
        while len(turn.made) < made and time.monotonic() < deadline:
            driver.run(1)


def turn_over(driver):
    """Frames until the human's play is recorded (the computer then plays)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if any(line.startswith("human ") for line in driver.log):
            return [line for line in driver.log if line.startswith("human ")]
        driver.run(2)
        time.sleep(0.002)
    raise AssertionError("the turn never ended:\n" + "\n".join(driver.text()))


def driver_with(option: str, **options):
    return GameDriver(dice=Dice.scripted(HUMAN_OPENS), settings=Settings(tutor=option),
                      **options)


def warned(driver) -> bool:
    return any("better" in line for line in driver.text())


# ---- the option ---------------------------------------------------------------------

def test_the_tutor_is_an_option_off_by_default_saved_and_checked():
    assert Settings().tutor == "off"
    s = Settings()
    assert [s.cycle("tutor") for _ in range(3)] == ["?", "??", "off"]
    assert Settings.from_dict({"tutor": "??"}).tutor == "??"
    with pytest.raises(SettingsError):
        Settings.from_dict({"tutor": "???"})
    with pytest.raises(SettingsError):
        Settings().set("tutor", True)
    line = next(text for _, name, text in Settings(tutor="??").menu_lines() if name == "tutor")
    assert line.endswith("WARNS AT ??") and len(line) <= 32


def test_the_option_warns_of_the_reviews_marks_from_their_thresholds_up():
    assert tutor.warning_mark("?", DOUBTFUL) == ""
    assert tutor.warning_mark("?", DOUBTFUL + 1e-4) == "?"
    assert tutor.warning_mark("?", BAD + 1e-4) == "??"
    assert tutor.warning_mark("??", BAD) == ""
    assert tutor.warning_mark("??", (DOUBTFUL + BAD) / 2) == ""
    assert tutor.warning_mark("??", BAD + 1e-4) == "??"
    assert tutor.warning_mark("off", 2.0) == ""


def test_the_tutors_loss_is_the_3_ply_check_the_review_makes_of_the_same_play(marked):
    """The tutor answers at once with the review's 3-ply check (checking.check_move, what the
    review charges a play it does not roll out); the review rolls this one out, its quick
    error being ROLL_LINE or more, and charges the rollout's figure with the same mark (its
    rollout check of FEW_GAMES here: the path, not the figure's precision, is under test;
    the review's own ROLL_GAMES give the same mark, 0.083 against 0.107)."""
    play, loss = marked["??"][0]
    coach = tutor.PlayCoach(Position.start(), HUMAN_ROLL, MONEY, True, "?")
    verdict = coach.verdict(play.after)
    record = MatchRecord(0)
    record.start_game({HUMAN: 0, COMPUTER: 0})
    record.move(HUMAN, HUMAN_ROLL, play.steps)
    quick, item = (next(i for i in review.review_game(record, checked=checked,
                                                      roll_games=FEW_GAMES).items
                        if i.kind == "move") for checked in (False, True))
    assert verdict.mark == item.mark == "??"
    assert checking.wants_roll(quick) and loss >= checking.ROLL_LINE
    assert item.check.games == FEW_GAMES and item.check.searched is None
    assert verdict.loss == pytest.approx(checking.check_move(quick).loss) == pytest.approx(loss)
    assert verdict.better == play_text(item.best.play)


def test_the_listed_plays_cube_is_searched_while_the_player_types_and_once(marked):
    """With the cube in play, the ranking's thread also searches the listed plays' cube
    misses (checking.CubeMisses), so a play made among them waits for no cube search, and its
    3-ply check reuses them; a play not listed is searched alone."""
    coach = tutor.PlayCoach(Position.start(), HUMAN_ROLL, MONEY, True, "?")
    ranked = coach.ranking.result()
    listed = {c.play.after for c in list(ranked)[:review.CANDIDATES_SHOWN]}
    assert coach.misses.searched == len(listed)
    for play, _ in (*marked[""], *marked["?"], *marked["??"]):
        if play.after in listed:
            coach.verdict(play.after)
    assert coach.misses.searched == len(listed)
    unlisted = next(c.play.after for c in ranked if c.play.after not in listed)
    coach.verdict(unlisted)
    assert coach.misses.searched == len(listed) + 1


# ---- plays in the running program ---------------------------------------------------

def test_a_doubtful_play_is_named_with_the_better_play_and_the_loss_before_the_turn_ends(
        marked):
    play, loss = marked["?"][0]
    driver = driver_with("?")
    type_play(driver, play)
    until(driver, "better by", row=23)
    best = play_text(marked[""][0][0])
    assert driver.message() == f"? {best} is better by {loss:.3f}"
    assert "T/U: take it back  ENTER: keep" in driver.text()[11]
    assert not any(line.startswith("human ") for line in driver.log)   # not over yet
    driver.type("\n")                                                        # keep it
    assert turn_over(driver) == [f"{HUMAN_TURN} {play_text(play)}"]


def test_below_the_options_mark_nothing_is_said(marked):
    for option, play in (("??", marked["?"][-1][0]), ("?", marked[""][1][0]),
                         ("?", marked[""][0][0])):
        driver = driver_with(option)
        type_play(driver, play)
        assert turn_over(driver) == [f"{HUMAN_TURN} {play_text(play)}"]
        assert not warned(driver)


def test_a_blunder_is_warned_of_at_the_double_question_mark_option(marked):
    play, loss = marked["??"][0]
    driver = driver_with("??")
    type_play(driver, play)
    until(driver, "better by", row=23)
    assert driver.message().startswith("?? ") and f"{loss:.3f}" in driver.message()


def test_t_takes_the_last_man_back_after_a_warning_and_a_better_play_ends_the_turn(marked):
    play = marked["??"][0][0]
    best = marked[""][0][0]
    driver = driver_with("?")
    type_play(driver, play)
    until(driver, "better by", row=23)
    driver.type("t")
    until(driver, "Your move?", row=23)
    turn = driver.game.state.turn
    assert turn.made == [(s.from_index, s.die) for s in play.steps[:-1]]
    driver.type("u\n")                       # U at "Your move?" now: the whole play back
    deadline = time.monotonic() + WAIT_SECONDS
    while turn.made and time.monotonic() < deadline:
        driver.run(1)
    type_play(driver, best)
    assert turn_over(driver) == [f"{HUMAN_TURN} {play_text(best)}"]


def test_u_takes_the_whole_play_back_after_a_warning(marked):
    play = marked["??"][0][0]
    driver = driver_with("??")
    type_play(driver, play)
    until(driver, "better by", row=23)
    driver.type("U")
    until(driver, "Your move?", row=23)
    assert driver.game.state.turn.made == [] and driver.game.state.position == Position.start()


def test_the_same_play_made_again_after_taking_it_back_is_not_warned_of_twice(marked):
    play = marked["??"][0][0]
    driver = driver_with("??")
    type_play(driver, play)
    until(driver, "better by", row=23)
    driver.type("U")
    until(driver, "Your move?", row=23)
    type_play(driver, play)
    assert turn_over(driver) == [f"{HUMAN_TURN} {play_text(play)}"]


def test_off_lets_a_blunder_end_the_turn_as_in_1983(marked):
    play = marked["??"][-1][0]
    driver = driver_with("off")
    type_play(driver, play)
    assert turn_over(driver) == [f"{HUMAN_TURN} {play_text(play)}"]
    assert not warned(driver)


# ---- the cube ----------------------------------------------------------------------

def policy(double: bool, take: bool):
    return lambda position, match, doubler: SimpleNamespace(double=double, take=take,
                                                           too_good=False)


def test_doubling_an_even_race_is_warned_of_and_t_takes_the_double_back():
    driver = GameDriver(dice=Dice.scripted([2, 1]), start=Position.from_id(RACE_EVEN),
                        settings=Settings(tutor="?", who_starts="human"),
                        cube_policy=policy(double=False, take=True))
    until(driver, "ENTER rolls", row=23)
    driver.type("d")
    until(driver, "better by", row=23)
    assert driver.message().startswith("?") and "No double is better by" in driver.message()
    assert driver.game.state.match.offered_by is None            # not offered yet
    driver.type("t")
    until(driver, "Your move?", row=23)                    # no double: the roll
    assert driver.game.state.match.cube_value == 1 and not any("double" in line
                                                        for line in driver.log)


def test_taking_a_pass_is_warned_of_and_the_question_stands_again():
    start = Position.from_id(RACE_PASS).swapped()           # the computer on roll
    driver = GameDriver(dice=Dice.scripted([2, 1]), start=start,
                        settings=Settings(tutor="??", who_starts="computer"),
                        cube_policy=policy(double=True, take=True))
    until(driver, "Take? (Y/N)", row=23)
    driver.type("y")
    until(driver, "better by", row=23)
    assert driver.message().startswith("?? Dropping is better by")
    driver.type("t")
    until(driver, "Take? (Y/N)", row=23)
    driver.type("n")
    deadline = time.monotonic() + WAIT_SECONDS
    while driver.game.state.match.in_game and time.monotonic() < deadline:
        driver.run(2)
    assert driver.game.state.match.score[COMPUTER] == 1 and "human drops" in driver.log


def test_a_right_drop_is_not_warned_of():
    start = Position.from_id(RACE_PASS).swapped()
    driver = GameDriver(dice=Dice.scripted([2, 1]), start=start,
                        settings=Settings(tutor="?", who_starts="computer"),
                        cube_policy=policy(double=True, take=True))
    until(driver, "Take? (Y/N)", row=23)
    driver.type("n")
    deadline = time.monotonic() + WAIT_SECONDS
    while driver.game.state.match.in_game and time.monotonic() < deadline:
        driver.run(2)
    assert "human drops" in driver.log and not warned(driver)


def test_a_forced_play_is_never_warned_of():
    two_on_the_bar = Position.from_points({"bar": 2, 6: 13},
                                          {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})
    plays = rules.legal_plays(two_on_the_bar, (6, 1))     # one man enters with the 6: all
    assert len({p.after for p in plays}) == 1
    coach = tutor.PlayCoach(two_on_the_bar, (6, 1), MONEY, True, "?")
    assert coach.verdict(plays[0].after) is None


def test_without_a_judgement_the_tutor_says_nothing_and_the_turn_ends(marked, monkeypatch):
    def refuse(*args, **kwargs):
        raise evaluator.WeightsError("the evaluator's weights are not loaded")
    monkeypatch.setattr(evaluator, "ranked_plays", refuse)
    play = marked["??"][0][0]
    driver = driver_with("?")
    type_play(driver, play)
    assert turn_over(driver) == [f"{HUMAN_TURN} {play_text(play)}"]
    assert not warned(driver)


# ---- the missed double -------------------------------------------------------------

ONE_ALL_OF_3 = MatchTerms(length=3, away_me=2, away_opp=2)


def roll_with(option: str, start, dice=None, **options):
    """The human on roll first in `start`, at "ENTER rolls, D doubles"."""
    settings = options.pop("settings", Settings(tutor=option, who_starts="human"))
    driver = GameDriver(dice=dice or Thrown([2, 1]), start=start, settings=settings,
                        **options)
    until(driver, "ENTER rolls", row=23)
    return driver


def test_missed_double_is_warned_before_the_dice_are_thrown():
    start, _, loss = missed_double(MONEY)
    dice = Thrown([2, 1])
    driver = roll_with("?", start, dice)
    driver.type("\n")                                       # ENTER: the roll
    until(driver, "better by", row=23)
    assert driver.message() == f"?? Doubling is better by {loss:.3f}"
    assert len(driver.message()) <= 32
    assert driver.text()[11].strip() == "D: double  ENTER: roll"
    assert dice.pairs == [] and driver.log == []             # no dice thrown yet
    driver.type("\n")                                        # ENTER keeps the roll
    until(driver, "Your move?", row=23)
    assert dice.pairs == [(2, 1)] and not any("double" in line for line in driver.log)


def test_rolling_after_the_computers_play_without_d_is_warned_too():
    start, _, loss = missed_double(MONEY, computer_first=True)
    dice = Thrown([2, 1, 6, 5])
    driver = GameDriver(dice=dice, start=start,
                        settings=Settings(tutor="??", who_starts="computer"))
    until(driver, "better by", row=23)                      # ENTER at the stop: rolls
    assert driver.message() == f"?? Doubling is better by {loss:.3f}"
    assert dice.pairs == [(2, 1)] and len(driver.log) == 1   # only the computer's turn
    driver.type("\n")
    until(driver, "Your move?", row=23)
    assert dice.pairs == [(2, 1), (6, 5)]


def test_taking_back_a_missed_double_offers_the_double(monkeypatch):
    def never(*args):
        raise AssertionError("the recommended double was judged again")
    monkeypatch.setattr(tutor, "check_double", never)
    start, _, _ = missed_double(MONEY)
    kept, doubled = Thrown([2, 1], seed=9), Thrown([2, 1], seed=9)
    driver = roll_with("?", start, kept)
    driver.type("\n")
    until(driver, "better by", row=23)
    driver.type("x")                                         # not an answer: a beep
    assert "better by" in driver.message()
    driver.type("\n")
    until(driver, "Your move?", row=23)
    driver = roll_with("?", start, doubled)
    driver.type("\n")
    until(driver, "better by", row=23)
    assert driver.game.prompt.board_clicks == {"cube": "d"}         # a click on the cube is D too
    driver.type("d")                                         # D: the double after all
    until(driver, "Your move?", row=23)                      # I take: you roll
    assert driver.log[:2] == ["human doubles to 2", "computer takes 2"]
    assert doubled.pairs == kept.pairs == [(2, 1)]           # the same dice either way
    assert not warned(driver)


def test_a_tutor_on_game_keeping_the_warning_throws_the_same_dice_as_tutor_off():
    start, _, _ = missed_double(MONEY, computer_first=True)
    games = {}
    for option in ("off", "?"):
        dice = Thrown([2, 1], seed=1983)
        driver = GameDriver(dice=dice, start=start,
                            settings=Settings(tutor=option, who_starts="computer"))
        shown = screens_until_your_move(driver)
        if option == "?":
            assert any("Doubling is better" in screen[23] for screen in shown)
        games[option] = (dice.pairs, driver.log)
    assert games["?"] == games["off"] and len(games["off"][0]) == 2


def test_with_the_tutor_off_a_missed_double_goes_as_in_1983(monkeypatch):
    """OFF: the frames and dice are those of the flow without the missed-double check (the
    code before it), and level 5 is never asked about the cube."""
    start, _, _ = missed_double(MONEY)
    asked = []
    cube_decision = evaluator.cube_decision
    monkeypatch.setattr(evaluator, "cube_decision",
                        lambda *a, **k: asked.append(a) or cube_decision(*a, **k))
    runs = []
    for cut_out in (False, True):
        if cut_out:                                          # the flow as it was before
            def no_check(game, coach):
                return False
                yield
            monkeypatch.setattr(tutor, "no_double_judge", lambda game, side: None)
            monkeypatch.setattr(tutor, "check_no_double", no_check)
        dice = Thrown([2, 1], seed=5)
        driver = roll_with("off", start, dice)
        runs.append((screens_until_your_move(driver, picture=True), dice.pairs, driver.log))
    assert runs[0] == runs[1] and runs[0][1] == [(2, 1)]
    assert asked == []


def owned(value: int, owner: str) -> Match:
    match = Match(None)
    match.start_game()
    match.cube_value, match.cube_owner = value, owner
    return match


def scored(length: int, human: int, computer: int, crawford_done=False) -> Match:
    match = Match(length)
    match.score = {HUMAN: human, COMPUTER: computer}
    match.crawford_done = crawford_done
    match.start_game()
    return match


@pytest.mark.parametrize("why, options", [
    ("the cube is off", {"settings": Settings(tutor="?", who_starts="human", cube=False)}),
    ("the computer owns it", {"match": owned(2, COMPUTER)}),
    ("it is at 64", {"match": owned(64, HUMAN)}),
    ("the Crawford game", {"match": scored(3, 0, 2)}),
    ("one point away after Crawford", {"match": scored(3, 2, 1, crawford_done=True)}),
])
def test_no_missed_double_warning_when_the_cube_is_not_available(why, options):
    start, _, _ = missed_double(MONEY)
    options.setdefault("settings", Settings(tutor="?", who_starts="human"))
    driver = GameDriver(dice=Thrown([2, 1]), start=start, **options)
    shown = screens_until_your_move(driver)
    assert not any("better" in line for screen in shown for line in screen), why


def test_no_missed_double_warning_for_the_computer_nor_for_a_position_too_good():
    start, _, _ = missed_double(MONEY)
    driver = GameDriver(dice=Thrown([2, 1]), start=start.swapped(),     # the computer leads
                        settings=Settings(tutor="?", who_starts="computer"),
                        cube_policy=policy(double=False, take=True))
    shown = screens_until_your_move(driver)
    assert not any("better" in line for screen in shown for line in screen)
    too_good = Position.from_points({6: 4, 5: 4, 4: 3, 3: 2, 2: 2},
                                    {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 24: 3})
    coach = tutor.NoDoubleCoach(too_good, MONEY, "?")
    decision, loss = coach.judgement.result()
    assert decision.too_good and loss == 0.0 and coach.verdict() is None


@pytest.mark.parametrize("who_starts, flip", [("human", False), ("computer", True)])
def test_both_players_of_a_two_player_game_are_warned_of_a_missed_double(who_starts, flip):
    start, _, loss = missed_double(MONEY)
    dice = Thrown([2, 1])
    driver = roll_with("?", start.swapped() if flip else start, dice,
                       settings=Settings(tutor="?", who_starts=who_starts,
                                         players="human-human"))
    assert driver.message().startswith("Black" if flip else "White")
    driver.type("\n")
    until(driver, "better by", row=23)
    assert driver.message() == f"?? Doubling is better by {loss:.3f}" and dice.pairs == []


@pytest.mark.parametrize("length, terms", [(None, MONEY), (3, ONE_ALL_OF_3)])
def test_missed_double_warning_is_the_reviews_3_ply_check_of_it(length, terms):
    """The tutor warns by the review's 3-ply check (it answers at once; the review then
    rolls the position out, and charges the rollout's figure)."""
    start, position, _ = missed_double(terms, marks=("?", "??"), computer_first=True)
    record = MatchRecord(length or 0)
    record.start_game({HUMAN: 1, COMPUTER: 1} if length else {HUMAN: 0, COMPUTER: 0},
                      start=start.swapped().position_id)
    record.move(COMPUTER, (2, 1), rules.legal_plays(start.swapped(), (2, 1))[0].steps)
    record.move(HUMAN, (6, 5), rules.legal_plays(position, (6, 5))[0].steps)
    item = next(i for i in review.review_game(record, roll_games=FEW_GAMES).items
                if i.kind == "no double" and i.side == HUMAN)
    match = scored(3, 1, 1) if length else Match(None)
    coach = tutor.NoDoubleCoach(position, match.terms(HUMAN), "?")
    verdict = coach.verdict()
    assert item.check is not None and item.check.games          # rolled out by the review
    assert verdict.loss == pytest.approx(-item.check.searched)    # its 3-ply check's figure
    assert verdict.better == "Doubling" and item.proper.startswith("Double")
    driver = GameDriver(dice=Thrown([2, 1]), start=start, match=scored(3, 1, 1) if length
                        else None, settings=Settings(tutor="?", who_starts="computer",
                                                     match_length=length))
    until(driver, "better by", row=23)
    assert driver.message() == f"{verdict.mark} Doubling is better by {verdict.loss:.3f}"


# ---- the frames go on while a warning is checked ------------------------------------------

def frame_while_checking(monkeypatch, module, name, frames_of):
    """Make `module.name` (a 3-ply judgement) wait until released, start the turn's
    generator `frames_of()`, wait until its thread has asked for the judgement, and take a
    frame: True when that frame came while the judgement was still waiting (the machine
    runs on meanwhile). The thread may ask only after the first frame, so wait for it."""
    asked, release, waited = threading.Event(), threading.Event(), threading.Event()
    real = getattr(module, name)

    def waiting(*args, **kwargs):
        asked.set()
        release.wait(10)
        waited.set()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, waiting)
    frames = frames_of()
    try:
        next(frames)                                   # a frame (or the warning at once)
        if not asked.wait(10):                         # the judgement never asked for
            return False
        next(frames)                                   # a frame while it waits
        return not waited.is_set()
    except StopIteration:
        return False
    finally:
        release.set()
        frames.close()


def test_the_frames_go_on_while_a_marked_play_is_checked(monkeypatch, marked):
    play = marked["??"][0][0]
    game = SimpleNamespace(table=SimpleNamespace(settings=Settings(tutor="?")))

    def frames_of():
        coach = tutor.PlayCoach(Position.start(), HUMAN_ROLL, MONEY, True, "?")
        coach.ranking.result()                          # ranked: only the check is left
        return tutor.check_play(game, SimpleNamespace(position=play.after), coach)

    assert frame_while_checking(monkeypatch, evaluator, "judge_plays", frames_of)


def test_the_frames_go_on_while_a_cube_action_is_checked(monkeypatch):
    game = SimpleNamespace(table=SimpleNamespace(settings=Settings(tutor="?")))

    def frames_of():
        coach = tutor.CubeCoach(Position.from_id(RACE_PASS), MONEY, "?")
        coach.decision.result()                         # decided: only the check is left
        return tutor.check_cube(game, coach, "take")    # a take of a pass: marked

    assert frame_while_checking(monkeypatch, checking, "deeper_cube_decision", frames_of)
