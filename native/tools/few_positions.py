"""few_positions.py: decisions of one kind, made in code for `sldata gen --from`: a side with
its last 1-3 men still back (on the bar, in the opponent's home or outfield) and the rest borne
off, against a side with all or nearly all of its 15 men in play and in contact. Self-play
rarely reaches them; the cube misjudges them (issue 57). Not a trainer, not a judge.

Each decision is 52 bytes: the board as the side on roll sees it (row 0 on roll, as sldata's
records), then two dice. Half the decisions have the few-men side on roll. Seeded: the same
arguments write the same file.
    python3 native/tools/few_positions.py --count 20000 --seed 7 --out DEC [--show 5]"""
from __future__ import annotations

import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from native import ffi, lib  # noqa: E402

POINTS = 24
BAR = 24          # a row's 25th place
MEN = 15


def _few_side(rng: random.Random) -> list[int]:
    """The few-men side's row: 1-3 men, at least one of them back (bar, or points 13-24,
    which are the opponent's outfield and home)."""
    row = [0] * 25
    men = rng.choice((1, 2, 2, 2, 3, 3))
    for k in range(men):
        r = rng.random()
        if k == 0 or r < 0.85:
            place = (BAR if r < 0.12 else rng.randint(19, 24) - 1 if r < 0.6
                     else rng.randint(13, 18) - 1)
        else:                              # a man already home or nearly
            place = rng.randint(1, 12) - 1
        row[place] += 1
    return row


def _many_side(rng: random.Random, few: list[int]) -> list[int] | None:
    """The other side's row: 12-15 men in play, mostly made points, a few perhaps still back
    in the few-men side's home; no point shared with the few-men side's men. None when the
    draw cannot be placed."""
    row = [0] * 25
    # point q of this side is point 25 - q of the few-men side (row index 24 - i)
    blocked = {POINTS - 1 - i for i in range(POINTS) if few[i]}
    off = 0 if rng.random() < 0.75 else rng.randint(1, 3)
    men = MEN - off
    back = rng.choices((0, 1, 2, 3, 4), weights=(25, 20, 30, 15, 10))[0]
    if few[BAR] and rng.random() < 0.5:
        back = max(back, 1)                # a man on the bar was hit by someone back there
    placed = 0
    for _ in range(back):
        free = [i for i in range(18, 24) if i not in blocked]
        if not free:
            return None
        i = rng.choice(free)
        row[i] += 1
        placed += 1
    weights = [3.0] * 6 + [1.5] * 6 + [0.5] * 6
    tries = 0
    while placed < men:
        tries += 1
        if tries > 200:
            return None
        i = rng.choices(range(18), weights=weights)[0]
        if i in blocked:
            continue
        n = min(men - placed, 2 if rng.random() < 0.7 else 1)
        row[i] += n
        placed += n
    if rng.random() < 0.05 and row[5] > 0:
        row[5] -= 1                        # one man hit by the few-men side, now on the bar
        row[BAR] += 1
    return row


def _contact(few: list[int], many: list[int]) -> bool:
    """Whether a few-men man must still pass a man of the other side: the few side's man on
    its point p (the bar is 25) and the other's on its point q meet when p + q > 25."""
    few_back = max((i + 1 for i in range(25) if few[i]), default=0)
    many_back = max((i + 1 for i in range(25) if many[i]), default=0)
    return few_back + many_back > 25


def decisions(count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    out: list[bytes] = []
    while len(out) < count:
        few = _few_side(rng)
        many = _many_side(rng, few)
        if many is None or not _contact(few, many):
            continue
        board = few + many if rng.random() < 0.5 else many + few
        if lib.bg_validate(ffi.new("int8_t[]", board)) != lib.BG_POS_OK:
            continue
        die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
        out.append(bytes(board) + bytes((die1, die2)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, required=True, help="decisions to write")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--show", type=int, default=0, help="print the first N as position IDs")
    a = ap.parse_args(argv)
    if a.count < 1:
        ap.error("--count must be at least 1")
    decs = decisions(a.count, a.seed)
    with open(a.out, "wb") as f:
        f.write(b"".join(decs))
    text = ffi.new("char[]", lib.BG_ID_LEN + 1)
    for d in decs[:a.show]:
        lib.bg_ids_of_boards(ffi.new("int8_t[]", list(d[:50])), 1, text)
        print(ffi.buffer(text, lib.BG_ID_LEN)[:].decode("ascii"), d[50], d[51])
    print(f"few_positions: {len(decs)} decisions -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
