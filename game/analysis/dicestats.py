"""The dice on trial, in numbers: every roll of a match record counted for each side (each
number against 1 in 6, each double against 1 in 36), chi-square tests with their p-values
(worked out here from the chi-square distribution: numpy and the standard library only) said
in plain words, and each side's luck per game by the review's measure (review.luck_of). No
screen (game/pages/dice_pages.py draws it), no files."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from game.analysis import judge as review
from game.analysis.replay import replay, terms_at
from game.errors import BackgammonError
from game.model.dice import Dice
from game.model.record import GameRecord, MatchRecord

FACES = 6
MIN_EXPECTED = 5.0             # the chi-square test wants at least this many in each cell
EPSILON = 1e-15                # where the series and continued fraction stop
MAX_TERMS = 10_000


@dataclass
class SideRolls:
    """One side's rolls: how many, each number's count over all their dice, and, of the
    rolls that count for doubles (every one but a game's first, which an opening throw
    never makes a double), how many and each double's count (1-1 .. 6-6)."""
    rolls: int = 0
    numbers: np.ndarray = field(default_factory=lambda: np.zeros(FACES, dtype=np.int64))
    pair_rolls: int = 0
    doubles: np.ndarray = field(default_factory=lambda: np.zeros(FACES, dtype=np.int64))

    @property
    def dice(self) -> int:
        return 2 * self.rolls

    @property
    def all_doubles(self) -> int:
        return int(self.doubles.sum())


def count_rolls(record: MatchRecord) -> dict[str, SideRolls]:
    """{side: SideRolls} over every game of the record, each roll counted for the side that
    played it (the opening throw's two dice for the side that played them)."""
    out = {side: SideRolls() for side in record.sides}
    for game in record.games:
        first = True
        for action in game.actions:
            if action.kind != "move" or action.dice is None:
                continue
            side = out[action.side]
            d1, d2 = action.dice
            side.rolls += 1
            side.numbers[d1 - 1] += 1
            side.numbers[d2 - 1] += 1
            if not first:
                side.pair_rolls += 1
                if d1 == d2:
                    side.doubles[d1 - 1] += 1
            first = False
    return out


# ---- the chi-square test ---------------------------------------------------------------

def chi_square(observed: npt.ArrayLike, expected: npt.ArrayLike) -> float:
    """Pearson's statistic: the sum of (observed - expected)^2 / expected."""
    observed = np.asarray(observed, dtype=float)
    expected = np.asarray(expected, dtype=float)
    return float(((observed - expected) ** 2 / expected).sum())


def _lower_series(a: float, x: float) -> float:
    """The regularized lower incomplete gamma P(a, x) by its power series (x < a + 1)."""
    term = total = 1.0 / a
    n = 0
    while abs(term) > abs(total) * EPSILON and n < MAX_TERMS:
        n += 1
        term *= x / (a + n)
        total += term
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(a, x) by its continued fraction, evaluated
    by the modified Lentz method (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, MAX_TERMS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < EPSILON:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def chi_square_p(statistic: float, df: int) -> float:
    """The chance that fair dice give a chi-square statistic at least this big with `df`
    degrees of freedom: the chi-square distribution's upper tail, Q(df/2, statistic/2)."""
    if df < 1:
        raise ValueError(f"degrees of freedom are 1 or more, not {df}")
    if statistic <= 0.0:
        return 1.0
    a, x = df / 2.0, statistic / 2.0
    if x < a + 1.0:
        return min(1.0, max(0.0, 1.0 - _lower_series(a, x)))
    return min(1.0, max(0.0, _upper_fraction(a, x)))


@dataclass(frozen=True)
class Trial:
    """One chi-square test: the statistic, its degrees of freedom, the p-value, and whether
    every cell expected MIN_EXPECTED or more (else the p-value is not to be trusted)."""
    statistic: float
    df: int
    p: float
    enough: bool


def trial(observed: npt.ArrayLike, expected: npt.ArrayLike) -> Trial:
    expected = np.asarray(expected, dtype=float)
    if expected.sum() <= 0:
        return Trial(0.0, len(expected) - 1, 1.0, False)
    statistic = chi_square(observed, expected)
    df = len(expected) - 1
    return Trial(statistic, df, chi_square_p(statistic, df), bool(expected.min() >= MIN_EXPECTED))


def numbers_trial(side: SideRolls) -> Trial:
    """Each number against 1 in 6 of the side's dice (5 degrees of freedom)."""
    return trial(side.numbers, np.full(FACES, side.dice / FACES))


def doubles_trial(side: SideRolls) -> Trial:
    """Doubles against 1 in 6 of the rolls that count for them (1 degree of freedom)."""
    n = side.pair_rolls
    return trial((side.all_doubles, n - side.all_doubles), (n / FACES, n * (FACES - 1) / FACES))


def how_often(p: float) -> str:
    """A p-value as a frequency: "16 times in 100", "4 times in 1,000", "under once in
    1,000"."""
    if p >= 0.995:
        return "nearly always"
    if p >= 0.01:
        n = round(100 * p)
        return f"{'once' if n == 1 else f'{n} times'} in 100"
    if p >= 0.001:
        n = round(1000 * p)
        return f"{'once' if n == 1 else f'{n} times'} in 1,000"
    return "under once in 1,000"


def verdict(p: float) -> str:
    if p >= 0.05:
        return "Nothing odd."
    if p >= 0.01:
        return "Unusual, but luck does it."
    if p >= 0.001:
        return "Rare."
    return "Very rare: loaded dice?"


def trial_words(result: Trial) -> str:
    """A test's outcome in plain words (one paragraph; the page wraps it): how often fair dice
    come out as uneven or more, and what that says."""
    if not result.enough:
        return "Too few rolls to judge yet."
    return f"Fair dice do this or worse {how_often(result.p)}. {verdict(result.p)}"


# ---- the dice source and the luck ------------------------------------------------------

def source_words(dice: Dice, set_dice: bool = False) -> str:
    """Where the game's dice come from, in one line: game/dice.py's seeded source."""
    if set_dice:
        return "Dice: typed in (Set dice is ON)"
    seed = dice.seed
    if seed is None:
        return "Dice: the system's random source"
    return f"Dice: seeded with {seed}"[:32]


def luck_by_game(record: MatchRecord, game: GameRecord) -> dict[str, float] | None:
    """Each side's luck in one game, by the review's measure and in its units (the sum of
    review.luck_of over its rolls at the roller's terms: cubeless money points in money
    play, EMG at the game's score in a match the table takes), so a game's figure is its
    review summary's; None when the game cannot be replayed."""
    try:
        turns = replay(record, game)
        out = {side: 0.0 for side in record.sides}
        for turn in turns:
            if turn.action.kind == "move":
                side = turn.action.side
                out[side] += review.luck_of(turn.before, turn.action.dice,
                                            terms_at(record, game, turn, side))
        return out
    except (BackgammonError, ValueError):
        return None
