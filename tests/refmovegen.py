"""An independent brute-force move generator, written from the inlay's rules for the tests
only: it tries every step in every order of the dice and keeps the longest plays. Not used by
the game (the C engine is the one source of the rules); it exists to check the C engine.

A board here is a tuple of 50 counts in the bg.h layout, but this module thinks in point
numbers: the mover's point p (1..24) is board[p - 1], its bar is board[24]; the opponent's
point q is board[25 + q - 1]. The mover's point p is the opponent's point 25 - p."""
from __future__ import annotations

from functools import lru_cache

MOVER_BAR = 24
OPP_BAR = 49


def opp_on(board, p: int) -> int:
    """Opponent men on the mover's point p."""
    return board[25 + (25 - p) - 1]


def one_step(board, p: int, die: int):
    """The board after the mover plays one man from point p (25 = bar) by `die`, or None when
    the rules forbid it."""
    b = list(board)
    if p == 25:
        if b[MOVER_BAR] == 0:
            return None
    else:
        if b[MOVER_BAR] > 0:                   # rule 7: nothing moves while a man is up
            return None
        if b[p - 1] == 0:
            return None
    dest = p - die
    if dest >= 1:
        occupants = opp_on(b, dest)
        if occupants >= 2:                     # rule 5
            return None
        if occupants == 1:                     # rule 6: the blot goes to the bar
            b[25 + (25 - dest) - 1] = 0
            b[OPP_BAR] += 1
        if p == 25:
            b[MOVER_BAR] -= 1
        else:
            b[p - 1] -= 1
        b[dest - 1] += 1
        return tuple(b)
    # bearing off (rule 8)
    if p == 25 or any(b[i] for i in range(6, 25)):
        return None
    if dest < 0 and any(b[i] for i in range(p, 6)):   # a man higher than p
        return None
    b[p - 1] -= 1
    return tuple(b)


@lru_cache(maxsize=200_000)
def longest(board, dice: tuple[int, ...]):
    """(most dice playable, frozenset of boards after the plays that use that many), trying
    every remaining die next, in every order."""
    best, finals = 0, {board}
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        rest = tuple(sorted(rest))
        for p in range(1, 26):
            after = one_step(board, p, die)
            if after is None:
                continue
            n, sub = longest(after, rest)
            if n + 1 > best:
                best, finals = n + 1, set(sub)
            elif n + 1 == best:
                finals |= sub
    return best, frozenset(finals)


def roll_dice(die1: int, die2: int) -> tuple[int, ...]:
    return (die1,) * 4 if die1 == die2 else tuple(sorted((die1, die2)))


def legal_results(board, die1: int, die2: int) -> set:
    """Boards after every legal complete play (the mover still in row 0)."""
    dice = roll_dice(die1, die2)
    best, finals = longest(board, dice)
    if best == 1 and die1 != die2:             # rule 4: one die only -> the higher if it can
        high = max(die1, die2)
        with_high = {a for p in range(1, 26) if (a := one_step(board, p, high)) is not None}
        if with_high:
            return with_high
    return set(finals)


def legal_first_steps(board, die1: int, die2: int) -> set:
    """(mover row index 0..24, die) of every single step that starts a legal complete play."""
    dice = roll_dice(die1, die2)
    best, _ = longest(board, dice)
    out = set()
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for p in range(1, 26):
            after = one_step(board, p, die)
            if after is None:
                continue
            if 1 + longest(after, tuple(sorted(rest)))[0] == best:
                out.add((p - 1, die))
    if best == 1 and die1 != die2 and any(d == max(die1, die2) for _, d in out):
        out = {s for s in out if s[1] == max(die1, die2)}
    return out


def swap(board):
    return tuple(board[25:]) + tuple(board[:25])


def game_over(board) -> bool:
    return sum(board[:25]) == 0 or sum(board[25:]) == 0
