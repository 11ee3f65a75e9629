"""Issue 9's commands at "Your move?" in the running program, read back from the screen:
A (advice), P (pip count), I (position + match ID), T (take back a step), U (undo the
turn), READY? (Y keeps, N puts the men back), set the dice yourself, X (export)."""
from game.files.settings import Settings
from game.matchfiles.matfile import parse_mat
from game.model.dice import Dice
from game.model.match import Match
from game.model.position import Position
from gamedriver import GameDriver

HUMAN_STARTS = [1, 3]             # the human wins the opening throw with 3-1


def at_your_move(driver):
    driver.until("Your move?")


def test_p_shows_both_pip_counts():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    at_your_move(driver)
    driver.type("P\n")
    driver.until("Pips: you 167  me 167")
    assert driver.message().startswith("Pips: you {}  me {}".format(*Position.start().pips()))
    at_your_move(driver)
    driver.type("h3\n")
    at_your_move(driver)
    driver.type("p\n")
    driver.until("Pips: you 164  me 167")
    assert driver.message().startswith("Pips: you {}  me {}".format(   # 3 pips moved
        *driver.game.state.position.pips()))


def test_i_shows_the_gnubg_position_and_match_ids():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    at_your_move(driver)
    driver.type("I\n")
    driver.until("ID 4HPwATDgc/ABMA:")
    line = driver.message()
    pid, mid = line[3:].split(":")
    assert pid == Position.start().position_id and len(mid) == 12
    assert mid == driver.game.state.match.match_id((3, 1))


def test_t_takes_back_the_last_step_and_u_undoes_the_turn():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    at_your_move(driver)
    start = driver.game.state.position
    driver.type("h3\n")
    at_your_move(driver)
    after_one = driver.game.state.position
    assert after_one != start
    driver.type("T\n")
    at_your_move(driver)
    assert driver.game.state.position == start and driver.game.state.turn.made == []
    driver.type("h3\n")
    at_your_move(driver)
    driver.type("T\n")
    at_your_move(driver)
    driver.type("x3\n")                 # another first step, then undo the turn
    at_your_move(driver)
    assert driver.game.state.position != start
    driver.type("U\n")
    at_your_move(driver)
    assert driver.game.state.position == start and driver.game.state.turn.dice_left == (3, 1)
    driver.type("t\n")
    driver.until("No man moved yet. Press ENTER")


def test_ready_n_puts_the_men_back_and_y_confirms():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [2, 1]),
                        settings=Settings(confirm_turn=True))
    at_your_move(driver)
    start = driver.game.state.position
    driver.type("h3\n")
    at_your_move(driver)
    driver.type("f1\n")
    driver.until("READY? (Y/N)")
    driver.type("q")
    driver.until("Y or N? READY?")
    driver.type("n")
    at_your_move(driver)
    assert driver.game.state.position == start and driver.game.state.turn.made == []
    driver.type("x3\n")
    at_your_move(driver)
    driver.type("x1\n")
    driver.until("READY? (Y/N)")
    driver.type("y")
    driver.until("I play")
    assert "human 31 x3 x1" in driver.log


def test_quit_for_the_opening_dice_abandons_and_for_a_later_throw_resigns():
    driver = GameDriver(settings=Settings(set_dice=True))
    driver.until("Opening: my die, yours?")
    driver.type("quit\n")                        # at the opening throw
    driver.until("Opening: my die, yours?")
    assert len(driver.games) == 2
    driver.type("1 3\n")
    at_your_move(driver)
    driver.type("h3\n")
    at_your_move(driver)
    driver.type("f1\n")
    driver.until("Dice for me?")
    driver.resign_single()                       # at a later throw: a resignation
    driver.until("Opening: my die, yours?")
    assert len(driver.games) == 3 and driver.games[1].state.match.results[-1].kind == "resign"


def test_set_dice_asks_each_roll_for_both_sides():
    driver = GameDriver(settings=Settings(set_dice=True))
    driver.until("Opening: my die, yours?")
    driver.type("44\n")                          # a tie: asked again after ENTER
    driver.until("Tie: press ENTER")
    driver.type("\n")
    driver.until("Opening: my die, yours?")
    driver.type("1 3\n")                         # top (mine) 1, bottom (yours) 3
    at_your_move(driver)
    assert driver.game.state.turn.dice == (3, 1)
    driver.type("h3\n")
    at_your_move(driver)
    driver.type("f1\n")
    driver.until("Dice for me?")
    driver.type("7 1\n")
    driver.until("Dice show 1 to 6. Press ENTER")
    driver.type("\n")
    driver.until("Dice for me?")
    driver.type("2-1\n")
    driver.until("I play")
    driver.until("Dice for you?")
    driver.type("65\n")
    at_your_move(driver)
    assert driver.game.state.turn.dice == (6, 5)


def test_a_shows_the_evaluators_ranked_plays_then_the_board():
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    at_your_move(driver)
    driver.type("A\n")
    driver.until("ADVICE", max_frames=3000)
    page = "\n".join(driver.text())
    assert "1. h3 f1" in page, page            # 8/5 6/5, the book play of 3-1
    driver.type("\n")
    at_your_move(driver)
    assert driver.game.state.turn.made == []


def test_x_exports_the_finished_games(tmp_path):
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), export_dir=str(tmp_path))
    at_your_move(driver)
    driver.type("X\n")
    driver.until("No finished game to export")
    # a match with one finished game: X writes it
    match = Match(None)
    match.start_game()
    cells = [0] * 50
    cells[0], cells[25 + 5] = 1, 10
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + HUMAN_STARTS), match=match,
                        start=Position(tuple(cells)), export_dir=str(tmp_path))
    at_your_move(driver)
    driver.type("a3\n")
    driver.until("Press any key for a new game")
    driver.type(" ")
    at_your_move(driver)
    driver.type("x\n")
    driver.until("Saved match-")
    name = driver.message().split()[-1]
    parsed = parse_mat((tmp_path / name).read_text())
    assert len(parsed.games) == 1 and parsed.length == 0


def test_v_shows_the_version_and_the_checksum_stored_in_the_weights_file():
    """The checksum shown is the FNV-1a sum of the weights file (all but its last four
    bytes), worked out here independently of the C side, as the file stores it."""
    import game
    from game.model import evaluator
    data = open(evaluator.WEIGHTS_PATH, "rb").read()
    fnv = 2166136261
    for byte in data[:-4]:
        fnv = ((fnv ^ byte) * 16777619) & 0xFFFFFFFF
    assert fnv == int.from_bytes(data[-4:], "little")
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS))
    at_your_move(driver)
    driver.type("V\n")
    driver.until(f"Version {game.__version__}, weights {fnv:08x}")
    at_your_move(driver)
    assert driver.game.state.turn.made == []                 # nothing moved
