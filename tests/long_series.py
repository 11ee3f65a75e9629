"""Money series built in code for the save's size (issue 59's note: a series ended at about
160 games): games of made-up turns as varied as real ones, so they compress no better than
real games do (seeded dice; each step from a seeded point by its die, now and then from the
bar or hitting), and the match's results and score kept as play keeps them. Not a test."""
import random

from game.model.match import COMPUTER, HUMAN, Match
from game.model.record import Action

KINDS = ("single",) * 6 + ("gammon",) * 3 + ("backgammon",)


def made_up_play(rng: random.Random, dice: tuple[int, int]) -> str:
    """Two steps, or four for a double, each from a seeded point (1-24, now and then the
    bar) by its die, to "off" below 1, one in seven hitting."""
    steps = []
    for die in dice * (2 if dice[0] == dice[1] else 1):
        start = 25 if rng.random() < 0.05 else rng.randint(1, 24)
        end = start - die
        steps.append(f"{'bar' if start == 25 else start}/{end if end > 0 else 'off'}"
                     f"{'*' if end > 0 and rng.random() < 1 / 7 else ''}")
    return " ".join(steps)


def add_game(match: Match, rng: random.Random, turns: int) -> None:
    """One finished game of `turns` made-up turns, won by a seeded side and kind."""
    match.start_game()
    side = rng.choice((HUMAN, COMPUTER))
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        match.start_turn(side)          # the play as the record writes one (checked there)
        match.record.current.actions.append(Action("move", side, dice, made_up_play(rng, dice)))
        side = match.other(side)
    match.end_game(rng.choice((HUMAN, COMPUTER)), rng.choice(KINDS))


def made_up_series(games: int, seed: int, turns: int = 58) -> Match:
    """A money series of `games` finished games of about `turns` turns each (58: a game at
    level 1 against itself, measured by bench/save_size.py)."""
    rng = random.Random(seed)
    match = Match(None)
    for _ in range(games):
        add_game(match, rng, rng.randint(turns // 2, turns * 3 // 2))
    return match
