"""foreign_positions.py: decisions met in games against another program, for `sldata gen
--from` (our own search then judges them: the other program only chooses its moves, it never
gives a target). Not the trainer and not a strength figure (bench/strength.py is).

Plays duplicate-dice games between one of our levels and another player of bench/strength.py
(gnubg0 needs the PyPI package gnubg-nn) and writes a sampled share of both sides' decisions,
52 bytes each: the board as the side on roll sees it (row 0 on roll, as sldata's records),
then the two dice. Seeded: the same arguments write the same file.
    python3 native/tools/foreign_positions.py --games 20000 --seed 7 --out DEC [--jobs 2]"""
from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)


def _strength():
    spec = importlib.util.spec_from_file_location("strength",
                                                  os.path.join(ROOT, "bench", "strength.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Recorder:
    """A player that notes each decision it is asked (with probability `share`) and passes
    it on to the player it wraps."""
    def __init__(self, player, sink: list, rng: random.Random, share: float):
        self.player, self.sink, self.rng, self.share = player, sink, rng, share
        self.name = player.name

    def choose(self, board, die1, die2):
        if self.rng.random() < self.share:
            self.sink.append(bytes(b & 0xFF for b in board) + bytes((die1, die2)))
        return self.player.choose(board, die1, die2)


def _run(args):
    names, seeds, share, weights, job_seed = args
    st = _strength()
    players = st.make_players(names, weights)
    sink: list[bytes] = []
    rng = random.Random(job_seed)
    rec = [Recorder(p, sink, rng, share) for p in players]
    unfinished = 0
    for seed in seeds:
        for first in (0, 1):
            try:
                st.play_game(rec, seed, first, ([], []))
            except st.GnubgRejected as exc:   # keep what was met; say which game stopped
                unfinished += 1
                print(f"foreign_positions: game of seed {seed} stopped: {exc}", file=sys.stderr)
    return sink, unfinished


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", default="level3", help="our player (level1..level5)")
    ap.add_argument("--other", default="gnubg0", help="the other program (gnubg0, pubeval)")
    ap.add_argument("--games", type=int, default=20000, help="games (rounded up to pairs)")
    ap.add_argument("--share", type=float, default=0.5, help="share of decisions written")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--weights", default=os.path.join(ROOT, "native", "evaluator.wts"))
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    if a.games < 1 or not 0 < a.share <= 1 or a.jobs < 1:
        ap.error("--games must be at least 1, --share in (0, 1], --jobs at least 1")
    pairs = (a.games + 1) // 2
    seeds = [a.seed * 1_000_003 + i for i in range(pairs)]
    chunks = [(  # each job its own seeds and its own sampling stream
        [a.ours, a.other], seeds[j::a.jobs], a.share, a.weights, a.seed * 7919 + j)
        for j in range(a.jobs)]
    if a.jobs == 1:
        results = [_run(chunks[0])]
    else:
        with multiprocessing.Pool(a.jobs) as pool:
            results = pool.map(_run, chunks)
    tmp = a.out + ".part"
    n = stopped = 0
    with open(tmp, "wb") as f:
        for sink, unfinished in results:
            for d in sink:
                f.write(d)
            n += len(sink)
            stopped += unfinished
    os.replace(tmp, a.out)
    print(f"foreign_positions: {n} decisions from {2 * pairs} games of {a.ours} vs {a.other}"
          f"{f' ({stopped} stopped early)' if stopped else ''} -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
