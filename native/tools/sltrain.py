"""sltrain.py: supervised training of one of the evaluator's nets (contact, race or crashed)
toward the targets `sldata gen` wrote and `sldata encode` turned into input vectors:
mini-batch Adam on cross-entropy over the outputs a position can have, numpy only, seeded.
Each net learns from the positions it judges in play. Not the TD trainer (train.c) and not
part of the game. Run from the repo root:
    python3 native/tools/sltrain.py --weights START.wts --out OUT.wts --net contact DATA..."""
from __future__ import annotations

import argparse
import os
import struct
import sys
import time

import numpy as np

MAGIC = b"SPBGNET1"
VERSION, VERSION_CRASHED = 1, 2   # version 2 adds the crashed net (evalwts.c)
N_OUT = 5
HEADER = struct.Struct("<8s6I")   # magic, version, n_in, contact hidden, n_in, race hidden, games
CRASHED_HID = struct.Struct("<I")   # version 2: the crashed net's hidden units, after the header
NETS = ("contact", "race", "crashed")
# the encoded data's class tags (sldata encode: EV_RACE, EV_CONTACT, EV_CRASHED_TAG)
RACE, CONTACT, CRASHED = 2, 3, 4


def fnv1a(data: bytes) -> int:
    """The weights file's checksum (evalwts.c ev_fnv1a), over bytes."""
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


class Net:
    """One net as the C side holds it: w_in input-major [n_in, n_hid], w_out [5, n_hid]."""

    def __init__(self, w_in, b_hid, w_out, b_out):
        self.w_in = np.array(w_in, dtype=np.float32, order="C")
        self.b_hid = np.array(b_hid, dtype=np.float32)
        self.w_out = np.array(w_out, dtype=np.float32, order="C")
        self.b_out = np.array(b_out, dtype=np.float32)

    @property
    def n_in(self) -> int:
        return self.w_in.shape[0]

    @property
    def n_hid(self) -> int:
        return self.w_in.shape[1]

    def copy(self) -> Net:
        return Net(self.w_in.copy(), self.b_hid.copy(), self.w_out.copy(), self.b_out.copy())

    def floats(self) -> np.ndarray:
        return np.concatenate([self.w_in.ravel(), self.b_hid, self.w_out.ravel(), self.b_out])

    def widened(self, n_in: int) -> Net:
        """The same net for an encoding with more inputs a side (the old ones first in each
        side's block, as eval.c lays them out): the new inputs get zero weights, so it plays
        as before until trained."""
        if n_in == self.n_in:
            return self
        per_old, per_new = self.n_in // 2, n_in // 2
        if self.n_in % 2 or n_in % 2 or per_new < per_old:
            raise SystemExit(f"cannot widen a net of {self.n_in} inputs to {n_in}")
        w_in = np.zeros((n_in, self.n_hid), np.float32)
        for side in range(2):
            old = self.w_in[side * per_old:(side + 1) * per_old]
            w_in[side * per_new:side * per_new + per_old] = old
        return Net(w_in, self.b_hid, self.w_out, self.b_out)

    def grown(self, n_hid: int, rng: np.random.Generator) -> Net:
        """The same net with n_hid hidden units: the new ones get small random input weights
        and zero output weights, so it plays as before until trained."""
        extra = n_hid - self.n_hid
        if extra <= 0:
            return self
        w_in = np.concatenate([self.w_in, rng.uniform(-0.05, 0.05, (self.n_in, extra))], axis=1)
        b_hid = np.concatenate([self.b_hid, np.zeros(extra)])
        w_out = np.concatenate([self.w_out, np.zeros((N_OUT, extra))], axis=1)
        return Net(w_in, b_hid, w_out, self.b_out)


def read_weights(path: str):
    """({"contact", "race", "crashed": the nets, crashed None in a version-1 file}, games
    trained) from a weights file, its checksum verified."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < HEADER.size + 4:
        raise SystemExit(f"{path}: too short for a weights file ({len(data)} bytes)")
    magic, version, n_in, hc, rin, hr, games = HEADER.unpack_from(data)
    if magic != MAGIC or version not in (VERSION, VERSION_CRASHED) or rin != n_in:
        raise SystemExit(f"{path}: not a weights file of version {VERSION} or {VERSION_CRASHED}")
    (stored,) = struct.unpack_from("<I", data, len(data) - 4)
    if stored != fnv1a(data[:-4]):
        raise SystemExit(f"{path}: checksum does not match (damaged file)")
    hidden, start = [hc, hr], HEADER.size
    if version == VERSION_CRASHED:
        hidden.append(CRASHED_HID.unpack_from(data, start)[0])
        start += CRASHED_HID.size
    floats = np.frombuffer(data, dtype="<f4", offset=start, count=(len(data) - start - 4) // 4)
    nets, at = [], 0
    for nh in hidden:
        parts = []
        for size in (n_in * nh, nh, N_OUT * nh, N_OUT):
            parts.append(floats[at:at + size])
            at += size
        if at > len(floats):
            break
        nets.append(Net(parts[0].reshape(n_in, nh), parts[1], parts[2].reshape(N_OUT, nh),
                        parts[3]))
    if at != len(floats):
        raise SystemExit(f"{path}: size does not match its header")
    nets += [None] * (len(NETS) - len(nets))
    return dict(zip(NETS, nets, strict=True)), games


def write_weights(path: str, nets: dict, games: int) -> None:
    """Writes the file the C side reads (evalwts.c), to PATH.tmp first, then renamed over PATH:
    version 2 when nets has a crashed net, else version 1."""
    contact, race, crashed = (nets.get(k) for k in NETS)
    head = HEADER.pack(MAGIC, VERSION_CRASHED if crashed else VERSION, contact.n_in, contact.n_hid,
                       race.n_in, race.n_hid, games)
    if crashed:
        head += CRASHED_HID.pack(crashed.n_hid)
    body = head + b"".join(n.floats().astype("<f4").tobytes()
                           for n in (contact, race, crashed) if n)
    body += struct.pack("<I", fnv1a(body))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(body)
    os.replace(tmp, path)


def data_inputs(prefix: str) -> int:
    """Inputs a record of the encoded data under prefix has."""
    n = os.path.getsize(prefix + ".c")
    size = os.path.getsize(prefix + ".x")
    if n == 0 or size % (4 * n):
        raise SystemExit(f"{prefix}: {size} bytes of inputs do not divide into {n} records")
    return size // (4 * n)


def load_data(prefixes: list[str], n_in: int, classes: tuple[int, ...]):
    """Inputs, targets, output masks and decision numbers (unique across the prefixes; each
    record its own decision where the data has no .g file) of the records tagged with one of
    classes."""
    xs, ys, ms, gs = [], [], [], []
    next_group = 0
    for prefix in prefixes:
        c = np.fromfile(prefix + ".c", dtype=np.uint8)
        x = np.fromfile(prefix + ".x", dtype=np.float32)
        if x.size != c.size * n_in:
            raise SystemExit(f"{prefix}.x holds {x.size} floats, not {c.size} records of {n_in} "
                             f"inputs: encoded for another encoding?")
        if os.path.exists(prefix + ".g"):
            g = np.fromfile(prefix + ".g", dtype=np.uint32).astype(np.int64)
            if g.size != c.size:
                raise SystemExit(f"{prefix}.g holds {g.size} decisions, not {c.size}")
        else:
            g = np.arange(c.size, dtype=np.int64)
        keep = np.isin(c, classes)
        xs.append(x.reshape(-1, n_in)[keep])
        ys.append(np.fromfile(prefix + ".y", dtype=np.float32).reshape(-1, N_OUT)[keep])
        ms.append(np.fromfile(prefix + ".m", dtype=np.uint8).reshape(-1, N_OUT)[keep])
        gs.append(g[keep] + next_group)
        next_group += int(g.max()) + 1 if g.size else 0
    return (np.concatenate(xs), np.concatenate(ys), np.concatenate(ms).astype(np.float32),
            np.concatenate(gs))


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


def equity(p):
    return 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def forward(net: Net, x):
    h = sigmoid(x @ net.w_in + net.b_hid)
    return h, sigmoid(h @ net.w_out.T + net.b_out)


EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0], np.float32)   # of each output


def held_out_error(net: Net, x, y, m) -> float:
    """Mean |equity error| with the outputs a position cannot have set to zero (as in play)."""
    err = 0.0
    for i in range(0, len(x), 8192):
        _, p = forward(net, x[i:i + 8192])
        err += float(np.abs(equity(p * m[i:i + 8192]) - equity(y[i:i + 8192])).sum())
    return err / max(len(x), 1)


def decision_loss(net: Net, x, y, m, g):
    """(mean equity the net's choice gives away by the targets, share of decisions where it
    picks the targets' best) over the decisions of two or more records in x (nan when none)."""
    if len(x) == 0:
        return float("nan"), float("nan")
    e_net = np.concatenate([equity(forward(net, x[i:i + 8192])[1] * m[i:i + 8192])
                            for i in range(0, len(x), 8192)])
    e_tgt = equity(y)
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(g)])
    lost, same, n = 0.0, 0, 0
    for s0, k in zip(starts, sizes, strict=True):
        if k < 2:
            continue
        t = e_tgt[s0:s0 + k]
        pick = int(np.argmax(e_net[s0:s0 + k]))
        lost += float(t.max() - t[pick])
        same += int(t[pick] == t.max())
        n += 1
    return (lost / n, same / n) if n else (float("nan"), float("nan"))


class Adam:
    def __init__(self, shapes, beta1=0.9, beta2=0.999, eps=1e-8):
        self.m = [np.zeros(s, np.float32) for s in shapes]
        self.v = [np.zeros(s, np.float32) for s in shapes]
        self.b1, self.b2, self.eps, self.t = beta1, beta2, eps, 0

    def step(self, params, grads, lr):
        self.t += 1
        c1, c2 = 1 - self.b1 ** self.t, 1 - self.b2 ** self.t
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= lr * (m / c1) / (np.sqrt(v / c2) + self.eps)


def group_batches(g_order, starts, sizes, batch):
    """Index arrays of whole decisions, about `batch` records each, in the given order."""
    out, cur, n = [], [], 0
    for gi in g_order:
        cur.append(np.arange(starts[gi], starts[gi] + sizes[gi]))
        n += sizes[gi]
        if n >= batch:
            out.append(np.concatenate(cur))
            cur, n = [], 0
    if cur:
        out.append(np.concatenate(cur))
    return out


def batch_gradients(net: Net, xb, yb, mb, gb, pair: float):
    """One batch's summed loss and the gradients of its mean, as [w_in, b_hid, w_out, b_out]:
    cross-entropy on each output a position can have, plus (pair > 0) the pairwise term."""
    h, p = forward(net, xb)
    # cross-entropy on each output a position can have; dz = (p - y) on those
    dz = (p - yb) * mb
    xent = yb * np.log(p + 1e-7) + (1 - yb) * np.log(1 - p + 1e-7)
    loss = float(-(mb * xent).sum())
    if pair > 0:
        # each play's equity less its decision's mean, against the same of the targets
        _, inv = np.unique(gb, return_inverse=True)
        cnt = np.bincount(inv)
        e = equity(p * mb)
        t = equity(yb)
        d = (e - t)
        d = d - (np.bincount(inv, weights=d) / cnt)[inv]
        de = 2.0 * pair * d * (cnt[inv] > 1)
        dz += (de[:, None] * EQUITY_WEIGHTS * mb * p * (1 - p)).astype(np.float32)
    dz /= len(xb)
    g_wout = dz.T @ h
    g_bout = dz.sum(axis=0)
    da = (dz @ net.w_out) * h * (1 - h)
    g_win = xb.T @ da
    g_bhid = da.sum(axis=0)
    return loss, [g_win, g_bhid, g_wout, g_bout]


def train(net: Net, x, y, m, g, *, epochs, batch, lr0, lr_end, seed, hold_share, pair, log,
          outputs_only=False):
    """Mini-batch Adam on cross-entropy, plus (pair > 0) pair times the squared error of each
    play's equity relative to its decision's mean (the differences that choose the play).
    Decisions are kept whole: in a batch, and on one side of the held-out split.
    outputs_only: the hidden layer stays as it is; only the output layer learns (recalibrating
    the chances on features the net already has)."""
    rng = np.random.default_rng(seed)
    order = np.argsort(g, kind="stable")              # records of a decision together
    x, y, m, g = x[order], y[order], m[order], g[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(g)])
    groups = rng.permutation(len(starts))
    n_hold = int(len(groups) * hold_share)
    hold_groups, fit_groups = np.sort(groups[:n_hold]), groups[n_hold:]
    hold = np.concatenate([np.arange(starts[k], starts[k] + sizes[k]) for k in hold_groups]) \
        if n_hold else np.zeros(0, np.int64)
    xh, yh, mh, gh = x[hold], y[hold], m[hold], g[hold]
    best = held_out_error(net, xh, yh, mh)
    lost, same = decision_loss(net, xh, yh, mh, gh)
    log(f"{len(x) - len(hold)} training, {len(hold)} held-out positions ({n_hold} decisions); "
        f"epoch 0: held-out equity error {best:.5f}, choice loss {lost:.5f}, "
        f"same choice {same:.3f}")
    best_net = Net(net.w_in.copy(), net.b_hid.copy(), net.w_out.copy(), net.b_out.copy())
    learning = (2, 3) if outputs_only else (0, 1, 2, 3)   # of [w_in, b_hid, w_out, b_out]
    params = [(net.w_in, net.b_hid, net.w_out, net.b_out)[k] for k in learning]
    opt = Adam([p.shape for p in params])
    steps = epochs * max(1, int(sizes[fit_groups].sum()) // batch)
    step, lr = 0, lr0
    for epoch in range(1, epochs + 1):
        t0 = time.time()
        rng.shuffle(fit_groups)
        loss_sum, n_seen = 0.0, 0
        for idx in group_batches(fit_groups, starts, sizes, batch):
            loss, grads = batch_gradients(net, x[idx], y[idx], m[idx], g[idx], pair)
            loss_sum += loss
            n_seen += len(idx)
            lr = lr0 * (lr_end / lr0) ** min(step / max(steps - 1, 1), 1.0)
            opt.step(params, [grads[k] for k in learning], np.float32(lr))
            step += 1
        err = held_out_error(net, xh, yh, mh)
        lost, same = decision_loss(net, xh, yh, mh, gh)
        log(f"epoch {epoch}: lr {lr:.2e}, train loss {loss_sum / max(n_seen, 1):.5f}, held-out "
            f"equity error {err:.5f}, choice loss {lost:.5f}, same choice {same:.3f}, "
            f"{time.time() - t0:.0f} s")
        if err < best:
            best = err
            best_net = Net(net.w_in.copy(), net.b_hid.copy(), net.w_out.copy(), net.b_out.copy())
    return best_net, best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", help="prefixes written by `sldata encode`")
    ap.add_argument("--weights", required=True, help="the weights file to start from")
    ap.add_argument("--out", help="the weights file to write (the other net as it was)")
    ap.add_argument("--evaluate", action="store_true",
                    help="only report the net's equity error and choice loss on all the data")
    ap.add_argument("--net", choices=NETS, required=True,
                    help="crashed: a file without one starts it as a copy of its contact net")
    ap.add_argument("--hidden", type=int, default=0, help="grow the net to this many hidden units")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lr-end", type=float, default=1e-5)
    ap.add_argument("--holdout", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pair", type=float, default=0.0,
                    help="weight of the squared error of each play's equity relative to its "
                         "decision's mean (0: cross-entropy alone)")
    ap.add_argument("--outputs-only", action="store_true",
                    help="train the output layer alone; the hidden layer stays as it is")
    args = ap.parse_args(argv)
    nets, games = read_weights(args.weights)
    n_in = data_inputs(args.data[0])
    nets = {k: n.widened(n_in) if n else None for k, n in nets.items()}
    if args.net == "crashed" and nets["crashed"] is None:
        nets["crashed"] = nets["contact"].copy()
    net = nets[args.net]
    rng = np.random.default_rng(args.seed)
    if args.hidden:
        if args.hidden < net.n_hid or args.hidden > 512:
            raise SystemExit(f"--hidden must be between the net's {net.n_hid} and 512")
        net = net.grown(args.hidden, rng)
    # the positions the net judges in play: crashed ones go to the crashed net when there is one
    classes = {"race": (RACE,), "crashed": (CRASHED,),
               "contact": (CONTACT,) if nets["crashed"] else (CONTACT, CRASHED)}[args.net]
    x, y, m, g = load_data(args.data, net.n_in, classes)
    if args.evaluate:
        order = np.argsort(g, kind="stable")
        x, y, m, g = x[order], y[order], m[order], g[order]
        lost, same = decision_loss(net, x, y, m, g)
        print(f"{args.weights}: {len(x)} {args.net} positions, equity error "
              f"{held_out_error(net, x, y, m):.5f}, choice loss {lost:.5f}, same choice {same:.3f}")
        return 0
    if not args.out:
        raise SystemExit("--out is needed (or --evaluate)")
    if len(x) < 100:
        raise SystemExit(f"only {len(x)} {args.net} positions in the data")

    def log(msg):
        print(msg, flush=True)

    best, err = train(net, x, y, m, g, epochs=args.epochs, batch=args.batch, lr0=args.lr,
                      lr_end=args.lr_end, seed=args.seed, hold_share=args.holdout,
                      pair=args.pair, log=log, outputs_only=args.outputs_only)
    nets[args.net] = best
    write_weights(args.out, nets, games)
    log(f"best held-out equity error {err:.5f} -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
