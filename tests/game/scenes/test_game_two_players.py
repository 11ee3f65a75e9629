"""Human against human ("White's move?" / "Black's move?", each typing from the board's
letters, the cube offered between them) and the computer-against-computer demo that runs
until a key is pressed (issue 9)."""
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import BLACK, WHITE
from gamedriver import GameDriver


def test_two_players_take_turns_with_named_prompts_and_the_cube():
    settings = Settings(players="human-human")
    driver = GameDriver(dice=Dice.scripted([1, 3, 3, 1, 6, 2]), settings=settings)
    driver.until("White starts with 3 and 1")
    driver.until("White's move?")
    driver.type("h3\n")
    driver.until("White's move?")
    driver.type("f1\n")
    driver.until("Black: ENTER rolls, D doubles")
    driver.type("\n")
    driver.until("Black's move?")
    assert driver.game.state.turn.dice == (3, 1) and not driver.game.state.turn.mover_is_human
    driver.type("q3\n")                         # Black's 8-point, as the board letters it
    driver.until("Black's move?")
    driver.type("s1\n")
    driver.until("White: ENTER rolls, D doubles")
    board = driver.game.state.position.board
    assert board[25 + 4] == 2                   # Black made its own 5-point
    driver.type("d")
    driver.until("White doubles to 2. Take? (Y/N)")
    driver.type("y")
    driver.until("White's move?")
    match = driver.game.state.match
    assert match.sides == (WHITE, BLACK)
    assert (match.cube_value, match.cube_owner) == (2, BLACK)
    assert driver.game.state.turn.dice == (6, 2)


def test_the_demo_plays_itself_until_a_key_is_pressed():
    settings = Settings(players="computer-computer", speed="quick")
    driver = GameDriver(seed=4, settings=settings)
    driver.until("plays", max_frames=2000)
    played = 0
    for _ in range(3000):
        driver.run(1)
        if "plays" in driver.message():
            played += 1
        if played > 200:
            break
    log = driver.log
    assert any(e.startswith("white") for e in log) and any(e.startswith("black") for e in log)
    driver.type(" ")
    driver.until("Demo over")
    driver.until("OPTIONS")                     # the options, to choose the players
    driver.type("\n")
    driver.until("The opening throw")
    assert settings.players == "human-computer"


def test_the_demo_goes_on_to_the_next_game_by_itself():
    """The demo runs until a key is pressed: a finished game is followed by the next one
    without anybody pressing a key, and a key in the pause between games stops it."""
    from gamedriver import board
    settings = Settings(players="computer-computer", speed="instant")
    one_man_each = board({0: 1}, {0: 1})       # whoever throws first bears off and wins
    driver = GameDriver(seed=5, settings=settings, start=one_man_each)
    driver.until("Demo: any key stops it", max_frames=4000)
    driver.until("The opening throw", max_frames=400)       # no key pressed: game two
    assert len(driver.games) == 2
    driver.until("Demo: any key stops it", max_frames=20000)
    driver.type(" ")
    driver.until("Demo over")
    driver.until("OPTIONS")
    assert settings.players == "human-computer"
