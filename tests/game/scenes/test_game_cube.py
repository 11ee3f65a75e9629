"""The doubling cube in the running program (issue 8), driven with scripted keys and dice on
the stand-in machine and read back from the screen: doubles taken and dropped, a redouble
by the owner, a double refused to the non-owner, a gammon on a cube of 4, the cube off."""

from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from game.model.position import Position
from gamedriver import GameDriver, board
from shared_cases import HUMAN_STARTS, Policy, open_with_31


def opening_31_then_double(driver):
    """Human wins the opening with 3-1 and plays it; during the computer's reply the
    human presses D to double before the next throw."""
    open_with_31(driver)
    driver.until("I play")
    driver.until("D doubles")
    assert driver.message().startswith("I play")
    driver.type("d")


def cube_on_screen(driver):
    return driver.game.table.screen.read_cube()


def test_double_taken_doubles_the_stakes_and_hands_the_cube_to_the_computer():
    policy = Policy(take=True)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4]), cube_policy=policy)
    assert cube_on_screen(driver) is None or cube_on_screen(driver)[1] is None
    opening_31_then_double(driver)
    driver.until("You double to 2: I take")
    match = driver.game.state.match
    assert (match.cube_value, match.cube_owner) == (2, COMPUTER)
    assert cube_on_screen(driver) == (2, "computer")
    driver.until("Your move?")                     # then the human throws and plays on
    assert driver.game.state.turn.dice == (5, 4)
    # asked once before its own first throw (no double), once for the human's double
    assert policy.asked == [(COMPUTER, 1, None), (HUMAN, 1, None)]


def test_no_answer_from_the_cube_policy_is_no_double_and_a_take():
    # the USR door's refusal comes back as None (game/zx/usr.py usr_cube)
    asked = []
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4]),
                        cube_policy=lambda *question: asked.append(question))
    opening_31_then_double(driver)
    driver.until("You double to 2: I take")
    assert (driver.game.state.match.cube_value, driver.game.state.match.cube_owner) == (2, COMPUTER)
    assert [doubler for _pos, _match, doubler in asked] == [COMPUTER, HUMAN]


def test_double_dropped_ends_the_game_for_one_point():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1]), cube_policy=Policy(take=False))
    opening_31_then_double(driver)
    driver.until("You double to 2: I drop")
    driver.until("YOU WIN: I drop (1 point)")
    match = driver.game.state.match
    assert match.score == {HUMAN: 1, COMPUTER: 0} and match.cube_value == 1
    assert match.results[-1].kind == "drop"
    driver.until("Press any key for a new game")


def test_redouble_by_the_owner_and_a_double_refused_to_the_non_owner():
    # the human doubles (taken: the computer owns 2); the computer redoubles to 4 and the
    # human takes after a wrong key; a D from the non-owner is refused with the reason
    policy = Policy(double=lambda m: m.cube_owner == COMPUTER, take=True)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4, 6, 2]),
                        cube_policy=policy)
    opening_31_then_double(driver)
    driver.until("I take")
    driver.until("Your move?")
    board_game = driver.game
    turn = board_game.state.turn
    while not turn.complete:                        # play any legal steps of the 5-4
        from_index, die = turn.allowed_steps()[0]
        driver.type(f"{Position.letter_of_index(from_index)}{die}\n")
        driver.run(2)
    driver.until("I double to 4. Take? (Y/N)")
    driver.type("x")
    driver.until("Y or N? I double to 4. Take?")
    assert board_game.state.match.cube_value == 2               # nothing changed by the wrong key
    driver.type("y")
    driver.run(2)
    assert (board_game.state.match.cube_value, board_game.state.match.cube_owner) == (4, HUMAN)
    assert cube_on_screen(driver) == (4, "human")
    # now the computer is the non-owner: its policy would double, but it may not
    assert policy.asked.count((COMPUTER, 4, HUMAN)) == 0
    driver.until("I play")
    assert board_game.state.match.cube_value == 4 and board_game.state.match.offered_by is None


def test_non_owner_human_double_is_refused_with_the_reason():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1, 5, 4, 6, 2]),
                        cube_policy=Policy(take=True))
    opening_31_then_double(driver)
    driver.until("I take")
    driver.until("Your move?")
    turn = driver.game.state.turn
    while not turn.complete:
        from_index, die = turn.allowed_steps()[0]
        driver.type(f"{Position.letter_of_index(from_index)}{die}\n")
        driver.run(2)
    driver.until("I play")
    driver.type("d")                                  # the computer owns the cube
    driver.until("Only the owner of the cube may")
    match = driver.game.state.match
    assert match.cube_value == 2 and match.cube_owner == COMPUTER
    driver.type("\n")
    driver.until("Your move?")


def test_double_after_rolling_is_refused_with_the_reason():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    driver.until("Your move?")
    driver.type("D\n")
    driver.until("You may only double before you")
    driver.type("\n")
    driver.until("Your move?")
    assert driver.game.state.match.cube_value == 1 and driver.game.state.match.offered_by is None


def test_cube_off_d_says_so_and_nothing_changes():
    settings = Settings(cube=False)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1]), settings=settings)
    assert driver.game.table.screen.read_cube() is None
    driver.until("Your move?")
    driver.type("h3\n")
    driver.until("Your move?")
    driver.type("f1\n")
    driver.until("I play")
    assert "D doubles" not in driver.message()
    driver.type("d")
    driver.until("The doubling cube is switched")
    driver.type("\n")
    driver.until("Your move?")
    assert driver.game.state.match.cube_value == 1


def test_gammon_on_a_cube_of_4_scores_8():
    match = Match(None)
    match.start_game()
    match.cube_value, match.cube_owner = 4, HUMAN
    last_man = board({0: 1}, {5: 15})                 # the computer has borne off none
    driver = GameDriver(dice=Dice.scripted([6, 5]), settings=Settings(who_starts="human"),
                        match=match, start=last_man)
    driver.until("You: ENTER rolls, D doubles")     # the owner may redouble: ENTER declines
    driver.type("\n")
    driver.until("Your move?")
    assert driver.game.table.screen.read_cube() == (4, "human")
    driver.type("a6\n")
    driver.until("YOU WIN a gammon (8 points)")
    assert match.score == {HUMAN: 8, COMPUTER: 0}
    assert match.balance(HUMAN) == 8


def test_human_who_starts_may_double_before_the_first_throw():
    # no play of mine was shown before this throw: the human is asked ENTER or D
    driver = GameDriver(dice=Dice.scripted([5, 4]), settings=Settings(who_starts="human"),
                        cube_policy=Policy(take=True))
    driver.until("You: ENTER rolls, D doubles")
    driver.type("D")
    driver.until("You double to 2: I take")
    driver.until("Your move?")
    assert driver.game.state.turn.dice == (5, 4)
    assert (driver.game.state.match.cube_value, driver.game.state.match.cube_owner) == (2, COMPUTER)
