"""Tutor mode's cost benchmark (not a test): the time game/scenes/tutor.py adds to the end of a turn
whose play (or cube action) is correct, i.e. earns no warning, over positions of seeded
level-3 games. The tutor ranks the roll's plays at level 5 in a thread from the turn's start;
what the player waits for when the play is finished is the lookup (and, for a good play the
search looked at less deeply than its best, one deeper judgement). Measured three ways:
  typed    the ranking done before the last step (a player takes seconds to type a play)
  instant  the play finished the moment the turn starts (the worst case: the whole ranking)
  cube     a correct double, take or drop (the decision is asked when it is made)
  warned   a play the quick judgement marks (the first such of the ranking): the wait for
           the verdict checked at 3 plies (issue 58: under 1 s), typed (the ranking and the
           listed plays' 3-ply judgement done while the player types) and instant (the play
           finished at the turn's start: all of it waited for)
  missed   a roll with the cube centred, judged for a missed double: the wait from the
           judgement's start (before_roll) to its verdict, the roll made at once as after
           the computer's shown play (the worst case); the cheap screen alone for most
           positions, level 5 too for the close ones (counted apart)
Each wait is measured on a machine the measurements before it have left idle: what a
measurement started in the background and did not wait for (the listed plays' checks
queued ahead, a cube action's 3-ply check ahead of time) is finished, untimed, before the
next one starts, as the game's own pauses (the computer's turn, its play shown) finish it
in play. Until session 61 the bench did not wait, and a roll's missed-double judgement ran
beside the leftovers of the turn before (on seed 90542: 1.9 s against 0.8 s alone).
One figure a line, with its unit. Run: python3 bench/tutor.py [--positions N] [--seed S]"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.analysis import judge as review  # noqa: E402
from game.analysis.cube_judgement import CUBE_SCREEN_LEVEL, close_cube  # noqa: E402
from game.model import evaluator, rules  # noqa: E402
from game.model.match_terms import MONEY  # noqa: E402
from game.model.position import Position  # noqa: E402
from game.scenes import tutor  # noqa: E402

OPTION = "?"                      # the strictest option: warns of anything over DOUBTFUL


def positions(count: int, seed: int = 44) -> list[tuple[Position, tuple[int, int]]]:
    """Positions with their roll from seeded level-3 games, each with a choice of plays."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position, first = Position.start(), True
        while len(found) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            while first and dice[0] == dice[1]:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            first = False
            plays = rules.legal_plays(position, dice)
            if len({p.after for p in plays}) > 1 and rng.random() < 0.5:
                found.append((position, dice))
            if not plays:
                position = position.swapped()
                continue
            pick = evaluator.ranked_plays(position, dice, 3, limit=1)[0].play
            if rules.game_result(pick.after):
                break
            position = pick.after.swapped()
    return found


def ms(seconds: float) -> float:
    return 1000.0 * seconds


def correct_plays(ranked, option: str) -> list:
    """The results of the plays the tutor says nothing of: the best, and the best of the
    others within the option's threshold (judged as the tutor judges them)."""
    best = ranked[0].play.after
    out = [best]
    for candidate in list(ranked)[1:]:
        _, loss = review.judged_play(ranked, candidate.play.after, cubeful=True)
        if not tutor.warning_mark(option, loss):
            out.append(candidate.play.after)
            break
    return out


def warned_of(position, dice, ranked, coach, got: dict) -> None:
    """The first play of the ranking the quick judgement marks: its checked verdict's wait,
    typed and instant (got's warned_typed, warned_instant; cleared: 1 when the check
    cleared it)."""
    marked = next((c.play.after for c in ranked
                   if tutor.warning_mark(OPTION, review.judged_play(ranked, c.play.after,
                                                                    cubeful=True)[1])),
                  None)
    if marked is None:
        return
    coach.checks.settled()                           # the player still typing meanwhile
    coach.warned.clear()
    start, cpu = time.perf_counter(), time.process_time()
    verdict = coach.verdict(marked)
    got["warned_typed"].append(ms(time.perf_counter() - start))
    got["warned_typed_cpu"].append(ms(time.process_time() - cpu))
    got["cleared"].append(int(verdict is None))
    start, cpu = time.perf_counter(), time.process_time()
    instant = tutor.PlayCoach(position, dice, MONEY, True, OPTION)
    instant.verdict(marked)
    got["warned_instant"].append(ms(time.perf_counter() - start))
    got["warned_instant_cpu"].append(ms(time.process_time() - cpu))
    idle(instant)


def idle(coach) -> None:
    """Untimed: what `coach` (a PlayCoach) left running in the background finished (its
    ranking, its misses and the checks it queued ahead)."""
    coach.ranking.result()
    coach.checks.settled()


def measure(count: int, seed: int = 44) -> dict:
    evaluator.ensure_loaded()
    got: dict = {"typed": [], "typed_best": [], "instant": [], "ranking": [], "cube": [],
                 "missed": [], "missed_close": [], "missed_screen": [], "warned_typed": [],
                 "warned_instant": [], "cleared": [], "warned_typed_cpu": [],
                 "warned_instant_cpu": []}
    for position, dice in positions(count, seed):
        coach = tutor.PlayCoach(position, dice, MONEY, True, OPTION)
        start = time.perf_counter()
        ranked = coach.ranking.result()              # the player is still typing meanwhile
        got["ranking"].append(ms(time.perf_counter() - start))
        for n, after in enumerate(correct_plays(ranked, OPTION)):
            coach.warned.clear()
            start = time.perf_counter()
            verdict = coach.verdict(after)
            spent = ms(time.perf_counter() - start)
            assert verdict is None, "a correct play was warned of"
            got["typed"].append(spent)
            if n == 0:
                got["typed_best"].append(spent)
        warned_of(position, dice, ranked, coach, got)
        idle(coach)
        best = ranked[0].play.after
        start = time.perf_counter()                  # the play finished at the turn's start
        instant = tutor.PlayCoach(position, dice, MONEY, True, OPTION)
        instant.ranking.result()
        instant.verdict(best)
        got["instant"].append(ms(time.perf_counter() - start))
        idle(instant)
        start = time.perf_counter()
        cube = tutor.CubeCoach(position, MONEY, OPTION)
        decision = cube.decision.result()
        proper = "double" if decision.double and not decision.too_good else None
        for kind in filter(None, (proper, "take" if decision.take else "drop")):
            cube.verdict(kind)
        got["cube"].append(ms(time.perf_counter() - start))
        cube.deeper.result()                         # (untimed: its check ahead of time)
        start = time.perf_counter()
        missed = tutor.NoDoubleCoach(position, MONEY, OPTION)
        missed.verdict()
        got["missed"].append(ms(time.perf_counter() - start))
        close = close_cube(evaluator.cube_decision(position, CUBE_SCREEN_LEVEL))
        got["missed_close" if close else "missed_screen"].append(got["missed"][-1])
    return got


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=44, help="the level-3 games' dice")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    got = measure(args.positions, args.seed)
    print(f"load {load:.1f} -> {os.getloadavg()[0]:.1f} (1-minute load average, before -> "
          f"after; {os.cpu_count()} cores)")
    print(f"positions {args.positions}")
    print(f"correct plays judged {len(got['typed'])}")
    print(f"rolls judged for a missed double {len(got['missed'])}")
    print(f"of them close (level 5 asked) {len(got['missed_close'])}")
    print(f"marked plays judged {len(got['warned_typed'])}, of them cleared by the 3-ply check "
          f"{sum(got['cleared'])}")
    for name, label in (("typed", "added by the tutor, play typed (ranking done)"),
                        ("typed_best", "added by the tutor, the best play typed"),
                        ("instant", "added by the tutor, play finished at once"),
                        ("cube", "added by the tutor, a correct cube action"),
                        ("missed", "a roll waits for the missed-double judgement"),
                        ("missed_screen", "... of those, the screen alone (not close)"),
                        ("missed_close", "... of those, the close ones (level 5 asked)"),
                        ("ranking", "level 5 ranking in the background"),
                        ("warned_typed", "a marked play's checked verdict, typed"),
                        ("warned_instant", "a marked play's checked verdict, at once"),
                        ("warned_typed_cpu", "... typed, CPU time of all the threads"),
                        ("warned_instant_cpu", "... at once, CPU time of all the threads")):
        values = got[name]
        if not values:
            continue
        print(f"{name}_median_ms {statistics.median(values):.3f} ms  ({label})")
        print(f"{name}_max_ms {max(values):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
