"""Rollout benchmark (not a test): positions from seeded level-3 self-play (opening, contact,
race, bear-off) rolled out by game/model/rollout.py and by GNU Backgammon's command line
(`gnubg -t`: the same trials, 0-ply cubeless chequer play, variance reduction, quasi-random
dice, no truncation, no bear-off database truncation) in the same run and on the same threads:
games per second per core, their ratio, and the two equities side by side with their 95%
intervals. Then the standard error of a difference between two candidates with the same dice
and with independent dice; and plays rolled out in money play and at a match score (5-point
match, the mover 2-away against 4-away) on the same positions and dice: games per second per
core of each and their ratio. One figure a line. Run: python3 bench/rollout.py [--positions 20]"""
from __future__ import annotations

import argparse
import os
import pty
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.model import evaluator, rules  # noqa: E402
from game.model.match_terms import MONEY, MatchTerms  # noqa: E402
from game.model.position import Position  # noqa: E402
from game.model.rollout import CUBE_ACTIONS, Z95, Rollout, default_threads  # noqa: E402

GNUBG = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")
RESULT = re.compile(r"Rollout done\. Printing final results\.\s+Current Position:\s+"
                    r"((?:[-+]?\d+\.\d+\s+){3}-\s+(?:[-+]?\d+\.\d+\s+){3})CL\s+([-+]?\d+\.\d+)\s+"
                    r"\[(?:[-+]?\d+\.\d+\s+){3}-\s+(?:[-+]?\d+\.\d+\s+){3}CL\s+([-+]?\d+\.\d+)\]")
SETTINGS = ("set rollout chequerplay plies 0", "set rollout chequerplay cubeful off",
            "set rollout chequerplay prune off", "set rollout cubeful off",
            "set rollout varredn on", "set rollout truncation enable off",
            "set rollout bearofftruncation exact off",
            "set rollout bearofftruncation onesided off", "set rollout rotate on",
            "set output digits 4")


def sample_positions(count: int, seed: int) -> list[Position]:
    """`count` positions before a roll, from level-3 self-play games: the start, then every
    few turns of each game, so that contact, races and bear-offs all come."""
    rng = random.Random(seed)
    found = [Position.start()]
    while len(found) < count:
        position, turn, every = Position.start(), 0, rng.randint(5, 9)
        while rules.game_result(position) == 0 and len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            position = evaluator.ranked_plays(position, dice, 3, limit=1)[0].play.after.swapped()
            turn += 1
            if turn % every == 0 and rules.game_result(position) == 0:
                found.append(position)
    return found


def run_gnubg(commands: list[str], timeout_s: float) -> str:
    """gnubg -t fed the commands, its output read through a pseudo-terminal (gnubg prints a
    rollout's results only to a terminal)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([GNUBG, "-t", "-q", "-r"], stdin=subprocess.PIPE, stdout=slave,
                            stderr=slave, close_fds=True)
    os.close(slave)
    chunks: list[bytes] = []

    def drain():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    proc.communicate(("\n".join(commands) + "\nquit\ny\n").encode(), timeout=timeout_s)
    reader.join(5)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r", "")


@dataclass(frozen=True)
class GnubgRollout:
    """gnubg's rollout of a position for the side on roll, as it printed it: the six chances
    (win, win gammon, win backgammon, lose, lose gammon, lose backgammon), the equity, its
    standard error, and the seconds the run took."""
    chances: tuple[float, ...]
    equity: float
    se: float
    seconds: float


def gnubg_rollout(position: Position, trials: int, seed: int, threads: int,
                  timeout_s: float) -> GnubgRollout:
    """gnubg's rollout of the position, the side on roll before its roll."""
    setup = ["set player 0 human", "set player 1 human", "new game", "set turn 1",
             f"set board {position.position_id}", f"set rollout trials {trials}",
             f"set rollout seed {seed}", f"set threads {threads}", *SETTINGS]
    t0 = time.perf_counter()
    text = run_gnubg(setup + ["rollout"], timeout_s)
    seconds = time.perf_counter() - t0
    match = RESULT.search(text)
    if not match:
        raise SystemExit(f"gnubg gave no rollout result for {position.position_id}:\n"
                         f"{text[-1500:]}")
    chances = tuple(float(x) for x in re.findall(r"[-+]?\d+\.\d+", match.group(1)))
    return GnubgRollout(chances, float(match.group(2)), float(match.group(3)), seconds)


def gnubg_overhead(threads: int) -> float:
    """Seconds gnubg takes to start, set up and quit without rolling out (taken off its
    rollout times)."""
    t0 = time.perf_counter()
    run_gnubg(["set player 0 human", "new game", f"set threads {threads}", *SETTINGS], 120)
    return time.perf_counter() - t0


def ours(position: Position, trials: int, seed: int, threads: int):
    t0 = time.perf_counter()
    with Rollout() as rollout:
        answer = rollout.start(position, CUBE_ACTIONS, trials, seed=seed,
                               threads=threads).result()
    return answer.candidates[0].equity, time.perf_counter() - t0


def compare(positions, trials: int, seed: int, threads: int) -> None:
    overhead = gnubg_overhead(threads)
    print(f"gnubg_startup: {overhead:.2f} s (taken off its times)")
    ours_s = theirs_s = 0.0
    print(f"{'position':16} {'ours':>17} {'gnubg':>17} {'diff':>7} {'z':>5}")
    for position in positions:
        eq, seconds = ours(position, trials, seed, threads)
        ours_s += seconds
        theirs = gnubg_rollout(position, trials, seed, threads, 3600)
        g_eq, g_se, g_seconds = theirs.equity, theirs.se, theirs.seconds
        theirs_s += max(0.01, g_seconds - overhead)
        g_ci = Z95 * g_se
        se = ((eq.interval / Z95) ** 2 + g_se ** 2) ** 0.5
        # gnubg prints four places: below that the difference in standard errors means nothing
        z = f"{(eq.mean - g_eq) / se:+5.1f}" if se >= 1e-4 else "    -"
        print(f"{position.position_id:16} {eq.mean:+.4f} ±{eq.interval:.4f} "
              f"{g_eq:+.4f} ±{g_ci:.4f} {eq.mean - g_eq:+.4f} {z}", flush=True)
    games = trials * len(positions)
    print(f"rollout_games_per_s_per_core: {games / ours_s / threads:.1f} games/s")
    print(f"gnubg_rollout_games_per_s_per_core: {games / theirs_s / threads:.1f} games/s")
    print(f"rollout_speed_ratio_vs_gnubg: {theirs_s / ours_s:.2f} x")


def difference_errors(trials: int, seed: int, threads: int) -> None:
    """The standard error of candidate 2's equity less candidate 1's: same dice, independent
    dice, each with the luck taken out and left in."""
    race = Position.from_points({6: 3, 5: 3, 4: 2, 8: 2, 9: 2, 11: 1, 3: 1, 2: 1},
                                {6: 3, 5: 2, 4: 3, 3: 2, 7: 2, 10: 2, 1: 1})
    cases = (("opening_31", Position.start(), (3, 1)), ("race_64", race, (6, 4)),
             ("contact_52", sample_positions(3, seed + 1)[2], (5, 2)))
    for name, position, dice in cases:
        plays = [c.play for c in evaluator.ranked_plays(position, dice, 3, limit=2)]
        for luck in (True, False):
            errors = []
            for same in (True, False):
                with Rollout() as rollout:
                    answer = rollout.start(position, plays, trials, seed=seed, threads=threads,
                                           same_dice=same, luck=luck).result()
                errors.append(answer.candidates[1].versus_first.interval / Z95)
            tag = f"{name}_{'luck_out' if luck else 'luck_in'}"
            print(f"diff_se_same_dice_{tag}: {errors[0]:.4f} points")
            print(f"diff_se_independent_dice_{tag}: {errors[1]:.4f} points")


# the match the plays' speed is measured at: 5 points, the mover 2-away, 4-away
MATCH = MatchTerms(1, 0, 5, 2, 4, 0)


def match_speed(positions, trials: int, seed: int, threads: int) -> None:
    """Each position's two best 0-ply plays of a seeded roll rolled out at 0-ply in money
    play, then at MATCH, alternately (so a load on the machine falls on both)."""
    rng = random.Random(seed)
    seconds = {"money": 0.0, "match": 0.0}
    games = 0
    for position in positions:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = [c.play for c in evaluator.ranked_plays(position, dice, 3, limit=2)]
        for mode, terms in (("money", MONEY), ("match", MATCH)):
            t0 = time.perf_counter()
            with Rollout() as rollout:
                rollout.start(position, plays, trials, seed=seed, threads=threads,
                              terms=terms).result()
            seconds[mode] += time.perf_counter() - t0
        games += trials * len(plays)
    money = games / seconds["money"] / threads
    match = games / seconds["match"] / threads
    print(f"rollout_plays_money_games_per_s_per_core: {money:.1f} games/s")
    print(f"rollout_plays_match_games_per_s_per_core: {match:.1f} games/s")
    print(f"rollout_plays_match_vs_money_speed: {match / money:.2f} x")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--diff-trials", type=int, default=324)
    ap.add_argument("--threads", type=int, default=default_threads())
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--match-positions", type=int, default=8)
    ap.add_argument("--match-trials", type=int, default=324)
    ap.add_argument("--skip-gnubg", action="store_true", help="no comparison with gnubg")
    args = ap.parse_args()
    evaluator.ensure_loaded()
    print(f"threads: {args.threads}")
    print(f"trials: {args.trials} games a position")
    if GNUBG is None or args.skip_gnubg:
        print("gnubg is not installed: no comparison" if GNUBG is None
              else "gnubg: no comparison (--skip-gnubg)")
    else:
        compare(sample_positions(args.positions, args.seed), args.trials, args.seed,
                args.threads)
    difference_errors(args.diff_trials, args.seed, args.threads)
    match_speed(sample_positions(args.match_positions, args.seed), args.match_trials,
                args.seed, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
