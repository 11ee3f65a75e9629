"""How big a long money series' save is and what a save of it costs (not a test): a seeded
series of games the evaluator plays against itself at level 1 (real plays, no cube), saved
between games in the old form (format 1, every entry a JSON table, still read) and the packed
form (format 2, game/files/packed_games.py): bytes a game and a save's seconds (encoded and
read back, as the Autosave does at every typed step), fresh and with the Autosave's Packer
remembering the save before (no file written: the write itself is the same). Prints one
figure a line with its unit.
Run: python3 bench/save_size.py [--games 150 2000] [--seed 59]"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from game.files import packed_games, savegame  # noqa: E402
from game.files.validate import MAX_FILE_BYTES, parse_json  # noqa: E402
from game.model import evaluator, rules  # noqa: E402
from game.model.match import COMPUTER, HUMAN, KIND_NAMES, Match  # noqa: E402
from game.model.position import Position  # noqa: E402

LEVEL = 1
START_ID = Position.start().position_id
RUNS = 3                        # each save timed this many times, the median printed


def play_game(match: Match, rng: random.Random) -> None:
    """One game of level 1 against itself, seeded dice, recorded as play records it."""
    match.start_game()
    position, side, first = Position.start(), rng.choice((HUMAN, COMPUTER)), True
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while first and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        first = False
        match.start_turn(side)
        play = evaluator.ranked_plays(position, dice, LEVEL, 1)[0].play
        match.record_move(side, dice, play.steps)
        won = rules.game_result(play.after)
        if won:
            match.end_game(side, KIND_NAMES[won])
            return
        position, side = play.after.swapped(), match.other(side)


def old_form(saved: savegame.SavedGame) -> bytes:
    """The save as format 1 wrote it: the match's own tables, compact JSON."""
    data = {**saved.to_dict(), "version": 1, "match": saved.match.to_dict()}
    return (json.dumps(data, separators=(",", ":")) + "\n").encode("utf-8")


def median_s(job) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(match: Match, games: int) -> None:
    saved = savegame.SavedGame(match, START_ID, HUMAN, extra={"between_games": True})
    old = old_form(saved)
    new = savegame.encode_save(saved)
    print(f"{games} games: {match.record.entries / games:.1f} entries a game")
    print(f"{games} games: old form {len(old) / games:.0f} bytes a game, {len(old):,} bytes")
    print(f"{games} games: packed {len(new) / games:.0f} bytes a game, {len(new):,} bytes "
          f"({100 * len(new) / MAX_FILE_BYTES:.0f}% of the limit)")
    if len(old) <= MAX_FILE_BYTES:
        def old_save() -> None:                  # format 1's read_back: dumped, read back
            savegame.SavedGame.from_dict(parse_json(old_form(saved), savegame.SaveError))
        print(f"{games} games: old form save {median_s(old_save):.3f} s")
    else:
        print(f"{games} games: old form over the limit: no save")
    print(f"{games} games: packed save, a fresh Packer "
          f"{median_s(lambda: savegame.read_back(saved)):.3f} s")
    packer = packed_games.Packer()
    savegame.read_back(saved, packer)           # the save before, as the Autosave keeps it
    print(f"{games} games: packed save, the Autosave's Packer "
          f"{median_s(lambda: savegame.read_back(saved, packer)):.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[150, 2000])
    parser.add_argument("--seed", type=int, default=59)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    match = Match(None)
    print(f"seed {args.seed}, level {LEVEL} against itself, money play")
    for games in sorted(args.games):
        while match.game_number < games:
            play_game(match, rng)
        measure(match, games)


if __name__ == "__main__":
    main()
