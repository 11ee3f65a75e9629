"""Bad input at "Your move?": thousands of random entries (letters, digits, punctuation, very
long lines, only ENTER). Each gives a message or a legal step, the position changes only by
a legal step, and nothing raises. Most go straight to the entry layer, some through frames."""
import random
import string

from game.errors import BackgammonError
from game.model import rules
from game.model.dice import Dice
from game.model.position import Position
from game.scenes import human_turn
from game.scenes.state import Game, Table
from game.words import PRESS_ENTER
from game.zx import usr
from gamedriver import GameDriver

FUZZ_ENTRIES = 12_000
FRAME_ENTRIES = 300
KEYBOARD = string.ascii_letters + string.digits + string.punctuation + " "


def random_entry(rng: random.Random) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        return ""
    if kind == 1:
        return "".join(rng.choice(KEYBOARD) for _ in range(rng.randrange(40, 300)))
    if kind == 2:
        return (rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
                + str(rng.randrange(0, 10)))
    if kind == 3:
        return str(rng.randrange(0, 10)) + rng.choice(string.ascii_letters)
    if kind == 4:
        return (rng.choice(" \t") * rng.randrange(1, 5) + rng.choice("fghmz")
                + str(rng.randrange(1, 7)))
    if kind == 5:
        return "".join(rng.choice(string.punctuation) for _ in range(rng.randrange(1, 6)))
    if kind == 6:
        return rng.choice(["qu1t", "QUI", "k 4", "44", "kk", "k44", "-k4", "k-4", "k4k", "4"])
    return "".join(rng.choice(KEYBOARD) for _ in range(rng.randrange(1, 6)))


class _Quiet:
    """Stands in for the screen and BASIC layers: the entry layer only draws and beeps."""
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def accepted_steps(turn: rules.Turn) -> set[tuple[int, int]]:
    """Every (from, die) the engine accepts next, asked one by one. A refusal is our own
    error type (game/errors.py); any other exception is a crash and fails the test."""
    ok = set()
    for from_index in range(25):
        for die in set(turn.dice):
            try:
                turn.check(from_index, die)
            except BackgammonError:
                continue
            ok.add((from_index, die))
    return ok


def test_fuzz_every_entry_gives_a_message_or_a_legal_step():
    rng = random.Random(1983)
    board_game = Game(Table(_Quiet(), _Quiet(), Dice(5), usr.first_legal_play))
    position = Position.start()
    turn = rules.Turn(position, (rng.randint(1, 6), rng.randint(1, 6)))
    legal_next = accepted_steps(turn)
    steps = messages = 0
    for _ in range(FUZZ_ENTRIES):
        text = random_entry(rng)
        if rng.random() < 0.15 and legal_next:           # also feed real moves now and then
            f, d = rng.choice(sorted(legal_next))
            letter = Position.letter_of_index(f)
            text = rng.choice([f"{letter}{d}", f"{d}{letter.upper()}"])
        board_game.state.position = turn.position
        before = turn.position
        made_before = list(turn.made)
        result = human_turn.entry(board_game, turn, text)
        if result is None:
            steps += 1
            assert len(turn.made) == len(made_before) + 1
            assert turn.made[-1] in legal_next, (text, turn.made[-1])
            assert board_game.state.position == turn.position
        else:
            messages += 1
            assert isinstance(result, str) and result
            if result != "quit":
                assert len(result + PRESS_ENTER) <= 32, result
            assert turn.position == before and turn.made == made_before
        changed = result is None                         # a message leaves the turn as it was
        if turn.complete:
            position = turn.position
            if rules.game_result(position):
                position = Position.start()
            # the computer replies with its first legal play, then a new human turn
            reply = rules.legal_plays(position.swapped(), (rng.randint(1, 6), rng.randint(1, 6)))[0]
            position = reply.after.swapped()
            if rules.game_result(position):
                position = Position.start()
            turn = rules.Turn(position, (rng.randint(1, 6), rng.randint(1, 6)))
            changed = True
        if changed:                                      # else the same turn, the same answer
            legal_next = accepted_steps(turn)
    assert steps + messages == FUZZ_ENTRIES
    assert steps > 500 and messages > 5000


def test_fuzz_through_the_frame_loop_keys_never_break_the_program():
    rng = random.Random(48)
    driver = GameDriver(seed=7)
    typed = 0
    while typed < FRAME_ENTRIES:
        message = driver.message()
        if "Your move?" in message:
            before = driver.game.state.position
            text = random_entry(rng)[:60]
            driver.type(text + "\n")
            driver.run(1)
            typed += 1
            after_message = driver.message()
            if driver.game.state.position != before:
                assert "Press ENTER" not in after_message
        elif "ENTER" in message:
            driver.type("\n")
        elif "Press any key" in message:
            driver.type(" ")
        else:
            driver.run(10)
    assert typed == FRAME_ENTRIES
