"""Mixed-players benchmark (not a test): which side of a hard position our play loses on. From
each of bench/hard_positions.py's 48 positions, games are played to the end, cubeless, with
each side played by our level 3 (0-ply) or by GNU Backgammon's 0-ply (the gnubg-nn package):
both ours, both gnubg's, and each mixed pairing, on the same dice (game k's dice come from
the seed and k alone, so the pairings' results are compared game by game).

Where our rollouts part from gnubg's in a class, this says whose play makes the gap: the
side the class's boards name (the primer, the side bearing in against a back game, the
closed board's owner, the side bearing off), or the other side. Each figure is points a game
for the named side, less what it scores when gnubg plays both sides, with its SE (paired
game by game). Not a rollout (no luck taken out) and not a judge of single plays.

--level 4 or 5 plays our side at that level instead (does a deeper search mend the gap?).

Run: python3 bench/mixed_players.py [--games 500] [--seed 1] [--jobs 2] [--classes back_game ...]
     [--weights FILE] [--level 3]"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.hard_positions import CLASSES, hard_positions  # noqa: E402

PAIRINGS = ("ours/ours", "ours/gnubg", "gnubg/ours")   # the named side's player first
MAX_HALF_MOVES = 2000


def _gnubg_nn():
    try:
        import gnubg_nn
    except ImportError:
        raise SystemExit("mixed_players: the gnubg-nn package is needed (pip install gnubg-nn)"
                         ) from None
    return gnubg_nn


class Players:
    """The two players' one move each, on gnubg-nn's boards (row 1: the side on roll; each
    row the men on its points 1..24 as indices 0..23, then its bar), the board given back
    with the mover still in row 1."""

    def __init__(self, weights: str | None, level: int = 3):
        from game.model import evaluator
        self.level = level
        self.gnubg = _gnubg_nn()
        self.evaluator = evaluator
        if weights:
            evaluator.load_weights(weights)
        evaluator.ensure_loaded()

    def ours(self, board, die1: int, die2: int):
        after = self.evaluator.best_play(self.gnubg.position_id(board), (die1, die2), self.level)
        return self.gnubg.board_from_position_id(after)

    def theirs(self, board, die1: int, die2: int):
        key = self.gnubg.best_move(board, die1, die2, b=1)[1]
        turned = self.gnubg.board_from_position_key(key)   # the mover's row first
        return [list(turned[1]), list(turned[0])]


def points_won(board) -> int:
    """The mover's (row 1's) points if the move just made ended the game, else 0."""
    mover, other = board[1], board[0]
    if sum(mover) > 0:
        return 0
    if sum(other) < 15:
        return 1
    return 3 if other[24] > 0 or sum(other[18:24]) > 0 else 2


def play_game(players: Players, position_id: str, on_roll_is_named: bool, named_ours: bool,
              other_ours: bool, dice_seed: int) -> int:
    """Points for the named side of one game from the position (0: unfinished at the cap)."""
    board = players.gnubg.board_from_position_id(position_id)
    dice = random.Random(dice_seed)
    named = on_roll_is_named
    for _ in range(MAX_HALF_MOVES):
        die1, die2 = dice.randint(1, 6), dice.randint(1, 6)
        move = players.ours if (named_ours if named else other_ours) else players.theirs
        board = move(board, die1, die2)
        won = points_won(board)
        if won:
            return won if named else -won
        board = [board[1], board[0]]
        named = not named
    return 0


_players: Players | None = None


def _init(weights: str | None, level: int) -> None:
    global _players
    _players = Players(weights, level)


def _position_games(job: tuple[str, bool, int, int]) -> dict[str, list[int]]:
    position_id, on_roll_is_named, games, seed = job
    assert _players is not None
    results = {}
    for name in ("gnubg/gnubg", *PAIRINGS):
        named_ours, other_ours = (player == "ours" for player in name.split("/"))
        results[name] = [play_game(_players, position_id, on_roll_is_named, named_ours,
                                   other_ours, seed * 1_000_003 + k) for k in range(games)]
    return results


def paired(results: list[int], base: list[int]) -> tuple[float, float]:
    diffs = [a - b for a, b in zip(results, base, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500, help="games a position and pairing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--classes", nargs="+", choices=CLASSES, default=list(CLASSES))
    ap.add_argument("--weights", help="our weights file (default: the game's)")
    ap.add_argument("--level", type=int, default=3, choices=(3, 4, 5), help="our level")
    args = ap.parse_args(argv)
    if args.games < 2 or args.jobs < 1:
        ap.error("--games must be 2 or more and --jobs 1 or more")
    _gnubg_nn()
    hards = [h for h in hard_positions() if h.klass in args.classes]
    started = time.perf_counter()
    jobs = [(h.position_id, h.sign > 0, args.games, args.seed) for h in hards]
    with ProcessPoolExecutor(args.jobs, initializer=_init,
                             initargs=(args.weights, args.level)) as pool:
        outcomes = list(pool.map(_position_games, jobs))
    print(f"games_per_position_and_pairing: {args.games} games (seed {args.seed}, our level "
          f"{args.level})")
    print("each figure: points a game for the named side, less gnubg playing both sides")
    for klass in args.classes:
        rows = [(h, o) for h, o in zip(hards, outcomes, strict=True) if h.klass == klass]
        for h, o in rows:
            cells = " ".join(f"{p} {paired(o[p], o['gnubg/gnubg'])[0]:+.3f}" for p in PAIRINGS)
            print(f"{klass}_{h.position_id}: gnubg/gnubg {sum(o['gnubg/gnubg']) / args.games:+.3f}"
                  f" points, {cells}")
        for pairing in PAIRINGS:
            # the class's mean difference: each position's paired games pooled
            results = [x for _, o in rows for x in o[pairing]]
            base = [x for _, o in rows for x in o["gnubg/gnubg"]]
            mean, se = paired(results, base)
            print(f"{klass}_{pairing.replace('/', '_vs_')}: {mean:+.4f} points (SE {se:.4f}, "
                  f"z {mean / se if se else 0.0:+.1f})")
    print(f"wall_time: {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
