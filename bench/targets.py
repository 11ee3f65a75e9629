"""Training-target check (not a test): how close our own evaluations of sldata's records are to
GNU Backgammon's net at 2-ply (gnubg-nn, an optional bench dependency), which only judges here.
For the first decisions of a records file (sldata gen: each decision's best plays' results, the
opponent on roll), it compares our 0-ply, our 1-ply and the file's targets (2-ply, or whatever
made them) with the judge: the mean |equity error|, the error of each play's equity relative to
its decision's first play (what chooses the play), and the equity (by the judge) a choice by
each gives away; gnubg's own 0-ply beside them shows what a 0-ply net can reach there. One
figure a line. Run from the repo root:
    python3 bench/targets.py /work/train/rb3/sl3.rec --decisions 1000"""
from __future__ import annotations

import argparse
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.model.evaluator import Probabilities, load_weights  # noqa: E402
from native import ffi, lib  # noqa: E402

REC_BYTES = 70   # board (50 bytes, row 0 on roll) + five float32 targets


def equity(p) -> float:
    """Cubeless money equity of five chances (ours or gnubg-nn's, the same order)."""
    return Probabilities(*p).equity


def decisions(path: str, limit: int):
    """The first `limit` decisions of a records file: lists of (board, target equity)."""
    with open(path, "rb") as fh:
        data = fh.read()
    with open(path + ".dec", "rb") as fh:
        counts = fh.read()
    if len(data) % REC_BYTES:
        raise SystemExit(f"{path}: {len(data)} bytes are not whole {REC_BYTES}-byte records")
    if sum(counts) != len(data) // REC_BYTES:
        raise SystemExit(f"{path}.dec counts {sum(counts)} records, the file holds "
                         f"{len(data) // REC_BYTES}")
    out, at = [], 0
    for c in counts[:limit]:
        group = []
        for k in range(at, at + c):
            rec = data[k * REC_BYTES:(k + 1) * REC_BYTES]
            group.append((list(struct.unpack_from("<50b", rec)),
                          equity(struct.unpack_from("<5f", rec, 50))))
        out.append(group)
        at += c
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", help="a records file of sldata gen (with its .dec beside it)")
    ap.add_argument("--decisions", type=int, default=500)
    ap.add_argument("--weights", default=None, help="our weights (default: the shipped file)")
    ap.add_argument("--judge-ply", type=int, default=2, help="gnubg's plies (0..3)")
    a = ap.parse_args(argv)
    try:
        import gnubg_nn
    except ImportError as missing:
        raise SystemExit("bench/targets.py needs the PyPI package gnubg-nn: "
                         "pip install gnubg-nn") from missing
    load_weights(a.weights)
    board, probs = ffi.new("int8_t[]", 50), ffi.new("float[]", 5)
    # gnubg's own 0-ply beside ours: what a 0-ply net can reach on the same records
    names = ("ours_0ply", "ours_1ply", "targets", "gnubg_0ply")
    abs_err = {n: 0.0 for n in names}
    diff_err = {n: 0.0 for n in names}
    lost = {n: 0.0 for n in names}
    n_pos = n_diff = n_choice = 0
    t0 = time.perf_counter()
    for group in decisions(a.records, a.decisions):
        rows = []
        for b, target in group:
            board[0:50] = b
            vals = {}
            for ply, name in ((0, "ours_0ply"), (1, "ours_1ply")):
                rc = lib.bg_evaluate(board, ply, ffi.NULL, probs)
                if rc != 0:
                    raise SystemExit(f"bg_evaluate refused a record's board ({rc})")
                vals[name] = lib.bg_equity(probs)
            vals["targets"] = target
            vals["gnubg_0ply"] = equity(gnubg_nn.probabilities([b[25:], b[:25]], 0))
            judge = equity(gnubg_nn.probabilities([b[25:], b[:25]], a.judge_ply))
            rows.append((vals, judge))
        for vals, judge in rows:
            for n in names:
                abs_err[n] += abs(vals[n] - judge)
        n_pos += len(rows)
        if len(rows) < 2:
            continue
        v0, j0 = rows[0]
        for vals, judge in rows[1:]:
            for n in names:
                diff_err[n] += abs((vals[n] - v0[n]) - (judge - j0))
            n_diff += 1
        # the records are the opponent's view: the mover picks the lowest value
        best_judge = min(j for _, j in rows)
        for n in names:
            pick = min(range(len(rows)), key=lambda i: rows[i][0][n])
            lost[n] += rows[pick][1] - best_judge
        n_choice += 1
    print(f"records: {n_pos} positions of {a.decisions} decisions, judge gnubg {a.judge_ply}-ply")
    for n in names:
        print(f"{n}_abs_error: {abs_err[n] / max(n_pos, 1):.5f} equity")
    for n in names:
        print(f"{n}_difference_error: {diff_err[n] / max(n_diff, 1):.5f} equity")
    for n in names:
        print(f"{n}_choice_loss: {lost[n] / max(n_choice, 1):.5f} equity per decision")
    print(f"wall_time: {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
