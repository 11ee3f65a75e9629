"""Benchmark (not a test): how long a CHECKED review of a whole 7-point match takes (issue 58:
at most 3 minutes for about 150 plays on this machine's 2 cores), against the QUICK review of
the same games. The match is a .sgf or .mat given with --file, or one GNU Backgammon plays
against itself (0-ply, one player with noise 0.05) with --seed, as bench/review_vs_gnubg.py
has it play. Every game is reviewed as the review pages do (game/analysis/judge.py's
Reviewer, its threads); prints one figure a line with its unit: plays, checks made and
rolled out, wall and CPU seconds of each review and the load average around them (the
machine is shared).
Run: python3 bench/checked_review.py [--seed 48 | --file MATCH]"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from game.analysis.judge import Reviewer  # noqa: E402
from game.matchfiles.imports import read_match_file  # noqa: E402
from game.model import evaluator  # noqa: E402
from review_vs_gnubg import _gnubg_play_and_analyse  # noqa: E402

NOISE = 0.05


def review_all(record, checked: bool) -> dict:
    """Every game of the record reviewed: the figures of the whole."""
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    plays = checks = cleared = rolled = rolled_cube = 0
    for game in record.games:
        review = Reviewer(record, game.number, checked=checked).run()
        plays += sum(1 for i in review.items if i.kind == "move")
        made = [i for i in review.items if i.check is not None]
        checks += len(made)
        cleared += sum(1 for i in made if i.check.cleared)
        rolled += sum(1 for i in made if i.check.games)
        rolled_cube += sum(1 for i in made if i.check.games and i.kind != "move")
    return {"wall_s": time.perf_counter() - wall, "cpu_s": time.process_time() - cpu,
            "plays": plays, "checks": checks, "cleared": cleared, "rolled": rolled,
            "rolled_cube": rolled_cube,
            "load_before": load, "load_after": os.getloadavg()[0]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", help="a .sgf or .mat match to review")
    ap.add_argument("--seed", type=int, default=48, help="gnubg's seed for its match")
    ap.add_argument("--length", type=int, default=7)
    args = ap.parse_args(argv)
    path = args.file
    if path is None:
        folder = tempfile.mkdtemp(prefix="sbg-checked-review-")
        _gnubg_play_and_analyse(args.length, args.seed, NOISE, 0, folder, 0)
        path = os.path.join(folder, "played.sgf")
    imported = read_match_file(path)
    if imported.problem is not None:
        raise SystemExit(f"the file cannot be reviewed: {imported.problem}")
    evaluator.ensure_loaded()
    print(f"cores {os.cpu_count()}")
    for label, checked in (("quick", False), ("checked", True)):
        got = review_all(imported.record, checked)
        print(f"{label}_plays {got['plays']} plays")
        print(f"{label}_checks {got['checks']} checks ({got['cleared']} cleared)")
        print(f"{label}_rollouts {got['rolled']} checks rolled out")
        print(f"{label}_cube_rollouts {got['rolled_cube']} cube actions of them (an answer "
              f"shares its double's rollout)")
        print(f"{label}_wall {got['wall_s']:.1f} s")
        print(f"{label}_cpu {got['cpu_s']:.1f} s")
        print(f"{label}_load {got['load_before']:.1f} -> {got['load_after']:.1f} "
              f"(1-minute load average, before -> after)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
