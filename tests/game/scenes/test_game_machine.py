"""The game on the real machine: our ROM prints, its interrupt scans the keys into LAST-K,
the program runs one step a frame. The Z80, the ROM (committed) and its symbols are ours: a
broken one fails here, never skips."""
import roms
from game.model.dice import Dice
from game.scenes.keys import COMMANDS
from gamedriver import MachineDriver, rom_symbols
from spectrum.machine import Spectrum48

MESSAGE = 23


def test_the_machine_boots_our_rom_and_its_symbols_name_flags():
    assert Spectrum48(roms.ROM_PATH) is not None
    assert "FLAGS" in rom_symbols()


def test_machine_opening_throw_then_your_move_k4_and_4k():
    driver = MachineDriver(dice=Dice.scripted([1, 4]))
    driver.until("You start with 4 and 1", max_frames=600)
    driver.until("Your move?", max_frames=300)
    before = driver.game.state.position
    driver.type("4M\n")
    driver.run(3)
    assert driver.game.state.position != before
    driver.type("F1\n")
    driver.until("I play", max_frames=600)


def test_machine_illegal_move_message_then_enter_recovers():
    driver = MachineDriver(dice=Dice.scripted([1, 4]))
    driver.until("Your move?", max_frames=900)
    before = driver.game.state.position
    driver.type("k4\n")
    driver.until("No man on k. Press ENTER", max_frames=100)
    driver.type("\n")
    driver.until("Your move?", max_frames=100)
    assert driver.game.state.position == before and driver.game.state.turn.made == []


def test_machine_quit_resigns_and_starts_another_game():
    driver = MachineDriver(dice=Dice.scripted([1, 4]))
    driver.until("Your move?", max_frames=900)
    driver.resign_single(max_frames=900)
    driver.until("The opening throw", max_frames=300)
    assert len(driver.games) == 2


def test_machine_code_call_computer_move_through_usr_at_default_level():
    # How long the move takes is a benchmark's business (bench/evalspeed.py), not a test's.
    from game.files.settings import Settings
    from game.model import evaluator
    evaluator.ensure_loaded()                      # the weights load while the tape loads
    driver = MachineDriver(dice=Dice.scripted([6, 5]), level=Settings.level)
    driver.until("I start with 6 and 5", max_frames=600)
    driver.until("I play", max_frames=300)
    assert driver.message().split()[2:] == ["a6", "g5"]        # the usual 6-5 run: 24/18/13


def test_machine_fuzz_typed_through_the_keyboard_matrix():
    """Random lines typed key by key into the real machine: each gives a message or a
    legal step; the program keeps running."""
    import random
    rng = random.Random(83)
    driver = MachineDriver(seed=5)
    keys = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.-+=/*<>;:?!"
    typed = 0
    for _ in range(4000):
        message = driver.message()
        if typed >= 60:
            break
        if "Your move?" in message:
            before = driver.game.state.position
            text = "".join(rng.choice(keys) for _ in range(rng.choice([0, 1, 2, 2, 3, 5, 40])))
            driver.type(text + "\n")
            driver.run(2)
            typed += 1
            after = driver.message()
            command = text.strip().upper() in COMMANDS        # H, P, S... (issue 9) move nothing
            assert ("Press ENTER" in after) != (driver.game.state.position != before) or \
                "QUIT" in text.upper() or command
        elif "ENTER" in message:
            driver.type("\n")
        elif "Press any key" in message:
            driver.type(" ")
        else:
            driver.run(10)
    assert typed == 60


def test_machine_complete_game_against_the_evaluator_through_usr():
    from human_player import play_to_end
    driver = MachineDriver(seed=21, level=3)
    verdict = play_to_end(driver, max_loops=100_000)
    assert verdict.startswith(("YOU WIN", "I WIN")) and "point" in verdict
    assert "Press any key for a new game" in driver.message()
