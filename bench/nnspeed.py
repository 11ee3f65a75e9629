"""Benchmark of the network's forward pass alone (native/src/nn.c nn_forward), old against new
in one run: random nets of the encoding's inputs and 128 .. 512 hidden units, and the shipped
contact net, fed real encoded positions (level-3 self-play, contact and race only), timed inside C.
Each pass first copies its position's inputs into a fresh local array, as the evaluator's
encoding leaves them just before the pass; that copy alone is timed too (input_copy) and is
inside every figure. "old" is bench/nn_forward_old.c, a verbatim copy of the pass before the
blocked rewrite (git 09f2522); "new" is the engine's nn_forward (AVX2 path where the CPU has
it), "new_generic" the same with the AVX2 path switched off (nn_use_avx2(0)). All are
compiled here into a throw-away cffi module with the engine's flags (-O3 -std=c11), beside
every native/src/*.c. Each figure is the best of --rounds timings, old and new taken in
turn, so a busy machine slows both alike. Prints one figure a line with its unit.
Not a test: it never passes or fails."""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from cffi import FFI  # noqa: E402

from bench.evalspeed import sample_positions  # noqa: E402
from native import build  # noqa: E402

HIDDEN = (128, 192, 256, 384, 512)
CDEF = """
void nb_random_net(int n_hid, uint64_t seed);
int nb_shipped_net(const uint8_t *data, long len, int contact);
int nb_encode(const int8_t *boards, int n, int only_contact, float *out_in);
void nb_run(const float *ins, int n, int repeats, int which, float *out_probs);
int nn_use_avx2(int allow);
int nb_n_in(void);
"""
HARNESS = r"""
#include <string.h>
#include "eval.h"
void nn_forward_old(const nn_net *net, const float *in, nn_trace *tr);
static nn_net nb_net;
int nb_n_in(void) { return EV_N_IN; }   /* inputs of the encoding built here */
static nn_trace nb_tr;

/* random weights, and random biases too (nn_init_random leaves them at zero) */
void nb_random_net(int n_hid, uint64_t seed) {
    nn_init_random(&nb_net, EV_N_IN, n_hid, seed);
    uint64_t s = seed * 2654435761u + 1;
    for (int h = 0; h < n_hid; h++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        nb_net.b_hid[h] = (float)((s >> 40) & 0xFFFF) / 65536.0f - 0.5f;
    }
    for (int k = 0; k < NN_OUT; k++) nb_net.b_out[k] = 0.1f * (float)(k - 2);
}

/* the shipped weights' contact (1) or race (0) net as the one timed: 0 or an error */
int nb_shipped_net(const uint8_t *data, long len, int contact) {
    static ev_weights w;
    int rc = ev_wts_parse(&w, data, len);
    if (rc == 0) nb_net = contact ? w.contact : w.race;
    return rc;
}

/* the encoded inputs of the boards a net would see (contact and race, or contact only when
 * only_contact): how many */
int nb_encode(const int8_t *boards, int n, int only_contact, float *out_in) {
    int kept = 0;
    for (int i = 0; i < n; i++) {
        mg_board b;
        memcpy(&b, boards + (size_t)i * 50, sizeof b);
        int cls = ev_class(&b);
        if (cls == EV_CONTACT || (cls == EV_RACE && !only_contact))
            ev_encode(&b, out_in + (size_t)kept++ * EV_N_IN);
    }
    return kept;
}

/* `repeats` passes over the n inputs with the old (which 0) or the new (1) forward pass, or
 * (2) only the copy of the inputs each pass starts with; the outputs of the last go to
 * out_probs[n * NN_OUT] */
void nb_run(const float *ins, int n, int repeats, int which, float *out_probs) {
    for (int r = 0; r < repeats; r++)
        for (int i = 0; i < n; i++) {
            float in[EV_N_IN];
            memcpy(in, ins + (size_t)i * EV_N_IN, sizeof in);
            if (which == 1) nn_forward(&nb_net, in, &nb_tr);
            else if (which == 0) nn_forward_old(&nb_net, in, &nb_tr);
            else nb_tr.out[0] = in[i % EV_N_IN];
            if (r == repeats - 1)
                memcpy(out_probs + (size_t)i * NN_OUT, nb_tr.out, sizeof nb_tr.out);
        }
}
"""


def build_module(tmpdir: str):
    """Compile the harness with every engine source and the old pass; import it."""
    ffibuilder = FFI()
    ffibuilder.cdef(CDEF)
    sources = [os.path.join(ROOT, s) for s in build.c_sources()]
    sources.append(os.path.join(ROOT, "bench", "nn_forward_old.c"))
    ffibuilder.set_source("_nnbench", HARNESS, sources=sources,
                          include_dirs=[os.path.join(ROOT, "native"),
                                        os.path.join(ROOT, "native", "src")],
                          extra_compile_args=["-O3", "-std=c11", "-Wno-unused-function"])
    path = ffibuilder.compile(tmpdir=tmpdir, verbose=False)
    spec = importlib.util.spec_from_file_location("_nnbench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ffi, module.lib


def timed(lib, ins, n: int, which: int, out, repeats: int) -> float:
    """One timing: ns per pass."""
    t = time.perf_counter()
    lib.nb_run(ins, n, repeats, which, out)
    return (time.perf_counter() - t) / (repeats * n) * 1e9


def old_new_generic(lib, ins, n, outs, rounds: int, target_s: float):
    """Best ns per pass of the old pass, the new one and the new one's generic path, timed in
    turn `rounds` times so that a busy machine weighs on all three alike."""
    lib.nb_run(ins, n, 1, 0, outs[0])                 # warm the caches and the tables
    t = time.perf_counter()
    lib.nb_run(ins, n, 1, 0, outs[0])
    repeats = max(1, int(target_s / max(time.perf_counter() - t, 1e-9)))
    best = [float("inf")] * 3
    for _ in range(rounds):
        best[0] = min(best[0], timed(lib, ins, n, 0, outs[0], repeats))
        best[1] = min(best[1], timed(lib, ins, n, 1, outs[1], repeats))
        lib.nn_use_avx2(0)
        best[2] = min(best[2], timed(lib, ins, n, 1, outs[1], repeats))
        lib.nn_use_avx2(1)
    return best


def report(name: str, lib, ins, n, outs, args) -> None:
    old, new, generic = old_new_generic(lib, ins, n, outs, args.rounds, args.seconds)
    diff = max(abs(outs[0][i] - outs[1][i]) for i in range(n * 5))
    print(f"forward_{name}_old: {old:,.0f} ns")
    print(f"forward_{name}_new: {new:,.0f} ns")
    print(f"forward_{name}_new_generic: {generic:,.0f} ns")
    print(f"forward_{name}_speedup: {old / new:.2f} x")
    print(f"forward_{name}_max_output_diff: {diff:.2e} (old vs new)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--rounds", type=int, default=7, help="timings per figure (the best is kept)")
    ap.add_argument("--seconds", type=float, default=0.1, help="length of one timing")
    args = ap.parse_args()
    from game.model.evaluator import WEIGHTS_PATH, load_weights
    load_weights(None)                 # the sampling plays level 3 with the shipped nets
    sample = sample_positions(args.positions, args.seed)
    with tempfile.TemporaryDirectory() as tmpdir:
        ffi, lib = build_module(tmpdir)
        boards = ffi.new("int8_t[]", [c for b, _, _ in sample for c in b])
        n_in = lib.nb_n_in()
        ins = ffi.new("float[]", len(sample) * n_in)
        n = lib.nb_encode(boards, len(sample), 0, ins)
        outs = (ffi.new("float[]", n * 5), ffi.new("float[]", n * 5))
        nonzero = sum(1 for i in range(n * n_in) if ins[i] != 0.0)
        print(f"positions: {n} encoded (contact and race)")
        print(f"nonzero_inputs_mean: {nonzero / n:.1f} of {n_in}")
        print(f"avx2_path: {'yes' if lib.nn_use_avx2(1) else 'no'}")
        copy = min(timed(lib, ins, n, 2, outs[0], 200) for _ in range(args.rounds))
        print(f"input_copy: {copy:,.0f} ns (inside every figure below)")
        for hid in HIDDEN:
            lib.nb_random_net(hid, 1000 + hid)
            report(f"h{hid}", lib, ins, n, outs, args)
        with open(WEIGHTS_PATH, "rb") as fh:
            data = fh.read()
        assert lib.nb_shipped_net(data, len(data), 1) == 0
        n = lib.nb_encode(boards, len(sample), 1, ins)
        report("shipped_contact_h192", lib, ins, n, outs, args)


if __name__ == "__main__":
    main()
