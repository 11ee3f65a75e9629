"""Matches played in code for the match files' and the pages' tests: random legal plays from
game/model/rules.py with seeded dice, random doubles, takes and drops; and such a match named
as two club players and read back through the import, as `--review` reads a file. Not a test."""
import random

from game.matchfiles.imports import import_text
from game.matchfiles.matfile import format_mat
from game.model import rules
from game.model.match import COMPUTER, HUMAN, Match, opening_throw
from game.model.position import Position

NAMES = {HUMAN: "Human", COMPUTER: "Spectrum"}
CLUB_NAMES = {"human": "Alexandrina", "computer": "Bo"}     # .mat names have no spaces


def scripted_match(length, seed, *, double_rate=0.06, take_rate=0.6, max_games=12,
                   cube=True):
    """A whole match (or `max_games` money games) of random legal plays, seeded."""
    rng = random.Random(seed)
    m = Match(length, names=NAMES, cube=cube)
    while not m.is_over and m.game_number < max_games:
        m.start_game()
        throw = opening_throw("roll", m.sides, lambda: rng.randint(1, 6))
        side, dice = throw.first, throw.dice
        position = Position.start()                # always from the side on roll
        while True:
            m.start_turn(side)
            if dice is None:                       # every turn but the opening one
                if rng.random() < double_rate and m.can_double(side):
                    m.double(side)
                    if rng.random() >= take_rate:
                        m.drop()
                        break
                    m.take()
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            m.dice_rolled()
            play = rng.choice(rules.legal_plays(position, dice))
            m.record_move(side, dice, play.steps)
            result = rules.game_result(play.after)
            if result:
                assert result > 0                  # only the mover can have finished
                m.end_game(side, result)
                break
            position, side, dice = play.after.swapped(), m.other(side), None
    return m


def imported_match(length=7, seed=5, rate=0.2, games=3, text=None):
    """A scripted match between the club's players, written by `text` (format_mat unless
    given) and imported as club.mat."""
    m = scripted_match(length, seed, double_rate=rate, max_games=games)
    m.record.names.update(CLUB_NAMES)
    return import_text(text(m.record) if text else format_mat(m.record), "club.mat")
