"""Match play in the running program (issue 8): a 3-point match reaching the Crawford game
(doubling refused there, and after it the leader's cube dead), the score screen, the
match-over screen with a .mat export and a new match; and the computer's cube decisions from
the evaluator."""
import os
from types import SimpleNamespace

from game.board import numbers
from game.files.settings import Settings
from game.matchfiles.matfile import parse_mat
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from game.model.position import Position
from game.zx.usr import evaluator_cube
from gamedriver import GameDriver, board


def takes(position, match, doubler):
    return SimpleNamespace(double=False, take=True, too_good=False)


def test_three_point_match_reaches_crawford_refuses_doubling_then_the_leaders_cube_is_dead():
    match = Match(3)
    match.score[HUMAN] = 1
    match.start_game()                                   # game 1: 1-0, human to bear off
    game1 = board({0: 1}, {5: 10})
    game2 = board({5: 14}, {5: 2})                        # the Crawford game: I win it
    dice = Dice.scripted([1, 3,        # game 1: the human starts with 3-1 and bears off
                          3, 1, 2, 1, 6, 6,   # game 2: I start, you throw 2-1, my 6-6
                          3, 1])       # game 3: I start again
    asked = []

    def policy(position, match, doubler):
        asked.append((match.game_number, doubler, match.offered_by))
        return takes(position, match, doubler)
    driver = GameDriver(dice=dice, match=match, start=[game1, game2], cube_policy=policy,
                        settings=Settings(match_length=3))
    driver.until("Your move?")
    driver.type("a3\n")
    driver.until("YOU WIN a single game (1 point)")
    assert match.score == {HUMAN: 2, COMPUTER: 1 - 1}
    # the panel beside the banner counts the game just won (it showed 1-0 before)
    assert driver.text()[numbers.SCORE_ROW][numbers.SCORE_COL:].strip() == "2-0"
    driver.until("Press any key for a new game")
    driver.type(" ")
    driver.until("I play")
    assert match.crawford_game and match.game_number == 2
    driver.type("d")                                     # my play is shown: D asks to double
    driver.until("No doubling in the Crawford game")
    assert match.cube_value == 1 and match.offered_by is None
    driver.type("\n")
    driver.until("Your move?")
    driver.type("S\n")                                   # the score page says Crawford
    driver.until("SCORE")
    page = "\n".join(driver.text())
    assert "Crawford" in page and "2" in page
    driver.type("\n")
    driver.until("Your move?")
    assert "f e d c b a" in driver.text()[22]            # the board is back
    driver.type("f2\n")
    driver.until("Your move?")
    driver.type("f1\n")
    driver.until("I WIN a single game (1 point)")
    assert match.score == {HUMAN: 2, COMPUTER: 1}
    driver.until("Press any key for a new game")
    driver.type(" ")
    driver.until("I play")                                # post-Crawford: you (1-away)
    assert match.post_crawford and not match.crawford_game      # may not double (I may)
    assert not any(game == 2 for game, _, _ in asked)    # never asked in the Crawford game
    assert match.terms(COMPUTER).double_refused() == ""   # the trailer, 2-away: live
    assert "D doubles" not in driver.message()           # a dead cube, no decision
    driver.type("d")
    driver.until("The cube is dead: a win at 1")
    assert (match.cube_value, match.cube_owner, match.offered_by) == (1, None, None)


def test_a_match_length_changed_in_options_starts_a_new_match_after_the_game():
    match = Match(None)
    match.start_game()
    settings = Settings()
    driver = GameDriver(dice=Dice.scripted([1, 3, 1, 3]), match=match, settings=settings,
                        start=board({0: 1}, {5: 10}))
    driver.until("Your move?")
    driver.type("O\n")
    driver.until("OPTIONS")
    driver.type("5")
    driver.until("Match length (1-25, U)?")
    driver.type("7\n")
    driver.type("\n")
    driver.until("Your move?")
    assert driver.game.state.match is match and match.length is None     # this game plays on
    driver.type("a3\n")
    driver.until("Press any key for a new game")
    driver.type(" ")
    driver.until("Your move?")
    assert driver.game.state.match is not match and driver.game.state.match.length == 7


def test_match_over_screen_export_and_a_new_match(tmp_path):
    match = Match(1)
    match.start_game()
    driver = GameDriver(dice=Dice.scripted([1, 3]), match=match, start=board({0: 1}, {5: 15}),
                        export_dir=str(tmp_path), settings=Settings(match_length=1))
    driver.until("Your move?")
    driver.type("a3\n")
    driver.until("YOU WIN a gammon (2 points)")
    driver.until("Press any key")
    driver.type(" ")
    driver.until("YOU WIN THE MATCH")
    assert "2 points to 0" in "\n".join(driver.text())
    driver.type("\n")
    driver.until("Export the match (.mat)? (Y/N)")
    driver.type("y")
    driver.until("Saved match-")
    name = driver.message().split()[-1]
    path = tmp_path / name
    assert path.exists()
    parsed = parse_mat(path.read_text())
    assert len(parsed.games) == 1
    driver.until("The opening throw")                    # a new match, its first game
    new = driver.game.state.match
    assert new is not match and new.score == {HUMAN: 0, COMPUTER: 0}


def test_money_play_keeps_a_running_total_and_s_shows_it():
    match = Match(None)
    match.start_game()
    driver = GameDriver(dice=Dice.scripted([1, 3, 1, 3]), match=match,
                        start=board({0: 1}, {5: 10}))
    driver.until("Your move?")
    driver.type("a3\n")
    driver.until("Press any key for a new game")
    driver.type(" ")
    driver.until("Your move?")
    assert driver.game.state.match is match and match.balance(HUMAN) == 1
    driver.type("S\n")
    driver.until("SCORE")
    page = "\n".join(driver.text())
    assert "MONEY PLAY" in page and "You are 1 ahead" in page, page


def test_computer_drops_and_takes_as_the_evaluator_says():
    settings = Settings(who_starts="computer")
    # the human is sure to win: the evaluator drops
    hopeless = board({0: 2}, {12: 15})
    driver = GameDriver(dice=Dice.scripted([2, 1]), start=hopeless, settings=settings,
                        cube_policy=evaluator_cube(settings))
    driver.until("I resign 2 pts. Accept? (Y/N)")       # a certain gammon: I offer it
    driver.type("n")
    driver.until("D doubles")
    driver.type("d")
    driver.until("You double to 2: I drop", max_frames=6000)
    driver.until("YOU WIN: I drop (1 point)")
    # an ordinary opening: the evaluator takes
    driver = GameDriver(dice=Dice.scripted([2, 1]), settings=settings,
                        cube_policy=evaluator_cube(settings))
    driver.until("D doubles")
    driver.type("d")
    driver.until("You double to 2: I take", max_frames=6000)
    assert driver.game.state.match.cube_owner == COMPUTER


def test_computer_offers_a_double_when_the_evaluator_says_so():
    settings = Settings(who_starts="computer")
    race = board({5: 4, 4: 3, 3: 3, 2: 2, 1: 2, 7: 1}, {5: 4, 4: 3, 3: 3, 2: 2, 1: 2, 0: 1})
    driver = GameDriver(dice=Dice.scripted([2, 1]), start=race, settings=settings,
                        cube_policy=evaluator_cube(settings))
    driver.until("I double to 2. Take? (Y/N)", max_frames=6000)
    driver.type("n")
    driver.until("I WIN: you drop (1 point)")
    assert driver.game.state.match.score == {HUMAN: 0, COMPUTER: 1}
    assert os.environ.get("SPECTRUM_BACKGAMMON_CONFIG_DIR")


def test_the_cube_decision_through_usr_agrees_with_the_evaluator():
    """On the real machine the computer's cube decisions go through the USR door (job
    CUBE) as its plays do; the answer is the evaluator's own."""
    from game.zx.usr import usr_cube
    from gamedriver import MachineDriver
    driver = MachineDriver(dice=Dice.scripted([2, 1]), level=5)
    settings = Settings()
    decide = usr_cube(driver.basic, lambda: settings.level)
    direct = evaluator_cube(settings)
    race = board({5: 4, 4: 3, 3: 3, 2: 2, 1: 2, 0: 1}, {5: 4, 4: 3, 3: 3, 2: 2, 1: 2, 7: 1})
    for position, match in ((race, Match(None)), (Position.start(), Match(None)),
                            (board({0: 2}, {12: 15}), Match(None)), (race, Match(5))):
        match.start_game()
        through_usr, there = decide(position, match, HUMAN), direct(position, match, HUMAN)
        assert (through_usr.double, through_usr.take, through_usr.too_good) == \
            (there.double, there.take, there.too_good)


def test_a_cube_question_the_usr_door_refuses_is_no_answer():
    from game.zx.usr import usr_cube
    from gamedriver import MachineDriver
    driver = MachineDriver(dice=Dice.scripted([2, 1]), level=5)
    match = Match(None)
    match.start_game()
    assert usr_cube(driver.basic, lambda: 9)(Position.start(), match, HUMAN) is None  # level 9
    assert usr_cube(driver.basic, lambda: 5)(Position.start(), match, HUMAN) is not None


def test_a_match_played_through_the_program_is_imported_by_gnubg(tmp_path):
    """A 3-point match typed into the program (the human's first allowed steps, one double
    taken), exported at the match-over screen, read by GNU Backgammon with the same moves."""
    from gnubg_tools import comparable, gnubg_binary, gnubg_round_trip
    gnubg_binary()                                       # skips (or fails in CI) without it
    settings = Settings(match_length=3, speed="instant")
    driver = GameDriver(seed=12, settings=settings, cube_policy=takes, export_dir=str(tmp_path))
    doubled = False
    for _ in range(20000):
        message = driver.message()
        if "Your move?" in message:
            turn = driver.game.state.turn
            f, d = turn.allowed_steps()[0]
            driver.type(f"{Position.letter_of_index(f)}{d}\n")
        elif "D doubles" in message and not doubled:
            doubled = True
            driver.type("d")
        elif "Export the match" in message:
            driver.type("y")
            driver.until("Saved match-")
            break
        elif "Accept? (Y/N)" in message:                 # my resignation of a lost game
            driver.type("y")
        elif "ENTER" in message:
            driver.type("\n")
        elif "Press any key" in message:
            driver.type(" ")
        else:
            driver.run(3)
    else:
        raise AssertionError("the match did not end")
    match = driver.game.state.match
    assert match.is_over and doubled
    ours = tmp_path / driver.message().split()[-1]
    theirs = tmp_path / "gnubg.mat"
    code, output = gnubg_round_trip(ours, theirs, tmp_path)
    assert code == 0, output
    for bad in ("WARNING", "Unrecognised", "not a valid", "Invalid", "rror"):
        assert bad not in output, output
    mine, gnubg = parse_mat(ours.read_text()), parse_mat(theirs.read_text())
    assert gnubg.length == 3 and len(gnubg.games) == len(mine.games) == len(match.results)
    assert any(kind == "double" for g in mine.games for _, kind, _ in g.actions)
    for k, (a, b) in enumerate(zip(comparable(mine), comparable(gnubg), strict=True), 1):
        assert a == b, f"game {k} differs after gnubg's import"


def test_quit_at_the_crawford_games_opening_scores_nothing_and_the_next_game_is_crawford():
    match = Match(3)
    match.score[HUMAN] = 2
    driver = GameDriver(match=match, settings=Settings(match_length=3, set_dice=True))
    driver.until("Opening: my die, yours?")
    assert match.crawford_game
    driver.type("QUIT\n")                  # nothing at stake yet: the 1983 meaning
    driver.until("Game abandoned")
    driver.until("Opening: my die, yours?")
    driver.type("13\n")
    driver.until("Your move?")
    assert match.crawford_game and match.game_number == 1 and match.score[HUMAN] == 2
    assert len(match.record.games) == 1
