"""Rebuilds the evaluator's weights from a seed, in stages, logging a yardstick over time.
Stage 1: TD(0) self-play from random weights (train, squared error); stage 2: the race net
alone, more TD self-play on cross-entropy (which lets outputs near 0 or 1 - gammons and
backgammons in races - still learn); stage 3: the contact net alone, the same; stage 4:
rounds of supervised fitting toward our own search's targets one or two rolls deeper (refine
gen --ply 1|2, contact, race or both, then fit on the last rounds' data on squared error or
cross-entropy; none by default, as they measured no gain against gnubg 0-ply); each round's
net is kept only when it beats the one before in a duplicate-dice duel at level 3 (refine
duel); stage 5: rounds of supervised training of the contact net with a proper optimizer
(sldata gen: the best few plays' results of sampled self-play decisions, with our own 1-ply
values as targets; sltrain.py: mini-batch Adam on cross-entropy plus a pairwise term on the
equities of each decision's plays), each round's data from the best net so far, a round kept
while it wins its duel; stage 6: rounds of the same for one net on its own kind of positions,
a third net that judges crashed positions (sldata gen --only crashed, sltrain.py --net
crashed) and the race net, in the order --net-plan gives (cr,rs,rs,cr...); none by default.
Never gnubg's weights or outputs as targets: gnubg 0-ply (the optional gnubg-nn package,
through bench/strength.py) is only a yardstick in the log.
Not the game and not a test. Every step is seeded, so a run is reproducible on one machine
and compiler; stopped at any point, the same command resumes from its checkpoints:

    nice -n 19 python3 native/tools/rebuild_net.py --seed 1 --workdir /work/train/rebuild-s1

The log is WORKDIR/yardstick.log; WORKDIR/best.wts is the current best file."""
from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import time

from rebuild_options import GEN_PARTS, MAX_GEN_PARTS, parser

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GAMES_AT = 28   # byte offset of the games-trained count in a weights file (evalwts.c header)
N_IN_AT = 12    # byte offset of the contact net's input count
HID_C_AT = 16   # ... and of its hidden units


def header_field(path: str, at: int) -> int:
    with open(path, "rb") as fh:
        head = fh.read(at + 4)
    return struct.unpack_from("<I", head, at)[0]


def games_trained(path: str) -> int:
    return header_field(path, GAMES_AT)


def inputs_of(path: str) -> int:
    return header_field(path, N_IN_AT)


class Run:
    def __init__(self, args):
        self.args = args
        self.dir = args.workdir
        os.makedirs(self.dir, exist_ok=True)
        self.log_path = os.path.join(self.dir, "yardstick.log")
        self.t0 = time.time()
        self.parts = args.gen_parts

    def check_parts(self) -> None:
        """A work folder keeps one --gen-parts for good (state file gen_parts; a folder from
        before the option, with a log and no such file, made GEN_PARTS): other parts would be
        other data, so resuming with another count is refused before anything is made."""
        state = self.path("gen_parts")
        recorded = os.path.exists(state)
        if recorded:
            made = int(open(state).read())
        else:
            made = GEN_PARTS if os.path.exists(self.log_path) else self.parts
        if made != self.parts:
            raise SystemExit(f"rebuild_net: the work folder {self.dir} makes each round in "
                             f"{made} parts; resume it with --gen-parts {made}, or use another "
                             f"--workdir for {self.parts}")
        if not recorded:
            self._write_state("gen_parts", str(made))

    def path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def log(self, line: str) -> None:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
        with open(self.log_path, "a") as fh:
            fh.write(f"{stamp} {line}\n")
        print(f"{stamp} {line}", flush=True)

    def tool(self, *argv) -> str:
        cmd = [os.path.join(HERE, argv[0])] + [str(a) for a in argv[1:]]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"rebuild_net: {' '.join(cmd)} failed ({proc.returncode}):\n"
                             f"{proc.stdout}")
        return proc.stdout

    def duel(self, a: str, b: str, seed: int) -> tuple[float, float, float]:
        out = self.tool("refine", "duel", "--weights", a, "--against", b, "--pairs",
                        self.args.duel_pairs, "--level", 3, "--seed", seed)
        m = re.search(r"A \(level 3\) ([-+0-9.]+) ppg, 95% CI \[([-+0-9.]+), ([-+0-9.]+)\]", out)
        if not m:
            raise SystemExit(f"rebuild_net: cannot read the duel's answer:\n{out}")
        return tuple(float(x) for x in m.groups())

    def gnubg_yardstick(self, weights: str) -> str:
        """level 3 with these weights against gnubg 0-ply; '' when --gnubg-games is 0, a note
        saying so when this python has no gnubg-nn."""
        if self.args.gnubg_games <= 0:
            return ""
        try:
            import gnubg_nn  # noqa: F401 - imported only to learn whether it is installed
        except ImportError:
            return f"no gnubg0 yardstick: {sys.executable} has no gnubg-nn (pip install gnubg-nn)"
        cmd = [sys.executable, os.path.join(ROOT, "bench", "strength.py"), "level3", "gnubg0",
               "--games", str(self.args.gnubg_games), "--seed", "77", "--weights", weights,
               "--no-luck"]   # the raw figure, comparable with the log's earlier lines
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              cwd=ROOT)
        ppg = re.search(r"ppg_level3: ([-+0-9.]+)", proc.stdout)
        ci = re.search(r"ppg_95ci: \[([-+0-9.]+), ([-+0-9.]+)\]", proc.stdout)
        if not (ppg and ci):
            return f"gnubg0 yardstick failed: {proc.stdout.strip()[-200:]}"
        return (f"level3 vs gnubg0 {ppg.group(1)} ppg [{ci.group(1)}, {ci.group(2)}] "
                f"({self.args.gnubg_games} games)")

    # ---- stage 1 ------------------------------------------------------------------------

    def td(self) -> str:
        a = self.args
        out = self.path("td.wts")
        if a.start:
            if not os.path.exists(out):
                self.tool("train", "--widen", a.start, "--games", 0, "--out", out + ".part")
                os.replace(out + ".part", out)
                self.log(f"td: start from {a.start} ({games_trained(out)} games, "
                         f"{inputs_of(a.start)} inputs widened to {inputs_of(out)}), no TD stage")
            return out
        done = games_trained(out) if os.path.exists(out) else 0
        if done >= a.td_games:
            return out
        common = ["--games", a.td_games, "--seed", a.seed, "--hidden", a.hidden, "--alpha",
                  a.alpha, "--alpha-end", a.alpha_end, "--check", a.td_check, "--pairs", 200,
                  "--out", out, "--log", self.path("td_log.txt")]
        self.log(f"td: {'continue at ' + str(done) if done else 'start'} of {a.td_games} games, "
                 f"seed {a.seed}, hidden {a.hidden}, alpha {a.alpha}->{a.alpha_end}")
        if done:
            self.tool("train", "--continue", out, *common)
        else:
            self.tool("train", *common)
        self.log(f"td: done, {games_trained(out)} games. {self.gnubg_yardstick(out)}")
        return out

    # ---- stages 2 and 3 -----------------------------------------------------------------

    def one_net(self, name: str, base: str, games: int, alpha: float, alpha_end: float,
                seed: int, grow: int = 0) -> str:
        """More TD self-play for one net (name: race or contact) on cross-entropy, resumable:
        its checkpoint carries on with --continue. grow: the contact net's hidden units are
        first raised to this many (new units silent until trained)."""
        out = self.path(f"{name}.wts")
        if games <= 0:
            return base
        start = games_trained(base)
        done = games_trained(out) - start if os.path.exists(out) else 0
        if os.path.exists(out) and done >= games:
            return out
        common = ["--only", name, "--loss", "xent", "--games", games, "--seed", seed,
                  "--alpha", alpha, "--alpha-end", alpha_end, "--check", 50_000, "--pairs", 50,
                  "--out", out, "--log", self.path(f"{name}_log.txt")]
        self.log(f"{name}: {'continue at ' + str(done) if done > 0 else 'start'} of {games} "
                 f"games from {os.path.basename(base)}, seed {seed}, cross-entropy, "
                 f"alpha {alpha}->{alpha_end}")
        if done > 0:   # the games after the checkpoint, as the uninterrupted run plays them
            self.tool("train", "--continue", out, "--first", done + 1, *common)
        else:
            hidden = header_field(base, HID_C_AT)
            more = ["--grow-contact", grow] if grow > hidden else []
            if more:
                self.log(f"{name}: the contact net grown from {hidden} to {grow} hidden units")
            self.tool("train", "--resume", base, *more, *common)
        self.log(f"{name}: done, {games_trained(out)} games. {self.gnubg_yardstick(out)}")
        return out

    # ---- stage 4 ------------------------------------------------------------------------

    def _gen_parts(self, data: str, tool: str, argv_for_part, exts=("",)) -> None:
        """DATA in self.parts seeded parts (the same data whatever --jobs is): the missing parts
        made --jobs at once by `tool` with argv_for_part(j, out), each renamed from its .part
        name when whole (with its side files, one per extension in exts), then joined in
        order into DATA (and DATA+ext) and the parts deleted. A stopped run keeps whole parts."""
        a = self.args
        parts = [f"{data}.{j}" for j in range(self.parts)]
        todo = [j for j in range(self.parts) if not os.path.exists(parts[j])]
        while todo:
            batch, todo = todo[:max(1, a.jobs)], todo[max(1, a.jobs):]
            procs = []
            for j in batch:
                cmd = [os.path.join(HERE, tool), *argv_for_part(j, parts[j] + ".part")]
                procs.append((j, cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                                       stderr=subprocess.DEVNULL, text=True)))
            for j, cmd, proc in procs:
                out, _ = proc.communicate()
                if proc.returncode != 0:
                    raise SystemExit(f"rebuild_net: {' '.join(cmd)} failed ({proc.returncode}):"
                                     f"\n{out}")
                for ext in exts[::-1]:    # the main file last: its name marks the part whole
                    os.replace(parts[j] + ".part" + ext, parts[j] + ext)
        for ext in exts:
            with open(data + ext + ".part", "wb") as fh:
                for j in range(self.parts):
                    with open(parts[j] + ext, "rb") as src:
                        shutil.copyfileobj(src, fh)
        for ext in exts[::-1]:
            os.replace(data + ext + ".part", data + ext)
        for j in range(self.parts):
            for ext in exts:
                os.remove(parts[j] + ext)

    def _share(self, total: int, j: int) -> int:
        """Positions of part j when `total` are split into self.parts parts."""
        return total // self.parts + (j < total % self.parts)

    def _rounds_done(self, name: str, base: str, best: str) -> int:
        """Rounds of a stage already done (its state file NAME in the work folder); before
        the first, the stage's best net is its starting net."""
        state = self.path(name)
        done = int(open(state).read()) if os.path.exists(state) else 0
        if done == 0:
            shutil.copyfile(base, best)
        return done

    def _round_done(self, name: str, k: int) -> None:
        """Round k of a stage is done: its state file says so, written whole or not at all."""
        self._write_state(name, str(k))

    def gen(self, weights: str, k: int, data: str) -> None:
        """Round k's positions (refine gen, --ply targets), in seeded parts."""
        a = self.args
        only = [] if a.only == "both" else ["--only", a.only]
        self._gen_parts(data, "refine", lambda j, out: [
            "gen", "--weights", weights, "--positions", str(self._share(a.positions, j)),
            "--seed", str(a.seed * 1000 + k * 10 + j), "--ply", str(a.ply), "--explore", "0.1",
            *only, "--out", out])

    def refine(self, base: str) -> str:
        a = self.args
        best = self.path("best.wts")
        for k in range(self._rounds_done("rounds_done", base, best) + 1, a.rounds + 1):
            data = self.path(f"round{k}.dat")
            if not os.path.exists(data):
                self.log(f"round {k}: generating {a.positions} positions ({a.only}) with "
                         f"{a.ply}-ply targets")
                self.gen(best, k, data)
            cand = self.path(f"round{k}.wts")
            datas = [self.path(f"round{j}.dat") for j in range(max(1, k - a.window + 1), k + 1)]
            fit = self.tool("refine", "fit", "--weights", best, "--out", cand, "--epochs",
                            a.epochs, "--alpha", a.fit_alpha, "--alpha-end", a.fit_alpha_end,
                            "--loss", a.fit_loss, "--seed", a.seed * 1000 + k, *datas)
            errs = re.findall(r"(contact|race) epoch (\d+).*equity error ([0-9.]+)", fit)
            first = {n: e for n, ep, e in errs if ep == "0"}
            last = {n: e for n, ep, e in errs}
            ppg, lo, hi = self.duel(cand, best, seed=a.seed * 1000 + k)
            kept = lo > 0 or (ppg > 0 and a.keep_on_mean)
            self.log(f"round {k}: fit on {len(datas)} data files ({a.fit_loss}); held-out "
                     f"equity error contact {first.get('contact')}->{last.get('contact')}, race "
                     f"{first.get('race')}->{last.get('race')}; duel vs best {ppg:+.3f} ppg "
                     f"[{lo:+.3f}, {hi:+.3f}] ({2 * a.duel_pairs} games): "
                     f"{'kept' if kept else 'not kept'}")
            if kept:
                shutil.copyfile(cand, best)
                self.log(f"round {k}: {self.gnubg_yardstick(best)}")
            self._round_done("rounds_done", k)
        return best if a.rounds > 0 else base

    # ---- stage 5 ------------------------------------------------------------------------

    def sl_gen(self, weights: str, k: int, data: str) -> None:
        """SL round k's decisions (sldata gen: the best plays' results with --sl-ply targets,
        or --sl-rollout truncated rollouts of --sl-horizon plies), in seeded parts, with their
        decision counts (DATA.dec). With --sl-foreign G, each part's decisions are those met
        in G/(--gen-parts) games of level 3 (these weights) against gnubg 0-ply
        (foreign_positions.py, gnubg-nn needed), not self-play."""
        a = self.args
        foreign = a.sl_foreign
        target = (["--rollout", str(a.sl_rollout), "--horizon", str(a.sl_horizon)]
                  if a.sl_rollout else ["--ply", str(a.sl_ply)])
        froms = [f"{data}.{j}.from" for j in range(self.parts)]
        if foreign:
            for j in range(self.parts):
                if os.path.exists(f"{data}.{j}") or os.path.exists(froms[j]):
                    continue
                cmd = [sys.executable, os.path.join(HERE, "foreign_positions.py"), "--games",
                       str(self._share(foreign, j)), "--share", str(a.sl_foreign_share),
                       "--seed", str(a.seed * 1000 + 700 + k * 10 + j), "--jobs",
                       str(max(1, a.jobs)), "--weights", weights, "--out", froms[j] + ".part"]
                proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True)
                if proc.returncode != 0:
                    raise SystemExit(f"rebuild_net: {' '.join(cmd)} failed "
                                     f"({proc.returncode}):\n{proc.stdout}")
                os.replace(froms[j] + ".part", froms[j])
        self._gen_parts(data, "sldata", lambda j, out: [
            "gen", "--weights", weights, "--positions", str(self._share(a.sl_positions, j)),
            "--seed", str(a.seed * 1000 + 500 + k * 10 + j), *target, "--top",
            str(a.sl_top), "--margin", str(a.sl_margin),
            *(["--from", froms[j]] if foreign else []), "--out", out], exts=("", ".dec"))
        for path in froms:
            if os.path.exists(path):
                os.remove(path)

    def sl(self, base: str) -> str:
        """Rounds of supervised training of the contact net toward our own 1-ply (or 2-ply)
        values of the best plays' results (sldata, sltrain.py: cross-entropy plus the pairwise
        term on each decision's plays), each from the data of the best net so far; a round is kept
        when it beats that net in a duplicate-dice duel at level 3 (its mean), else the stage
        ends."""
        a = self.args
        if a.sl_rounds <= 0:
            return base
        best = self.path("sl_best.wts")
        for k in range(self._rounds_done("sl_rounds_done", base, best) + 1, a.sl_rounds + 1):
            data = self.path(f"sl{k}.rec")
            if not os.path.exists(data):
                what = (f"{a.sl_rollout} rollouts of {a.sl_horizon} plies as targets"
                        if a.sl_rollout else f"{a.sl_ply}-ply targets")
                where = (f", decisions from {a.sl_foreign} games against gnubg0"
                         if a.sl_foreign else "")
                self.log(f"sl round {k}: generating {a.sl_positions} positions (the best "
                         f"{a.sl_top} plays within {a.sl_margin}) with {what}{where}")
                self.sl_gen(best, k, data)
            prefix = self.path(f"sl{k}")
            self.tool("sldata", "encode", "--out", prefix, data)
            cand = self.path(f"sl{k}.wts")
            fit = self._sltrain([prefix], best, cand, "contact", a.sl_epochs, a.sl_lr,
                                a.sl_lr_end, a.seed * 1000 + 500 + k)
            if not self._keep(f"sl round {k}", fit, cand, best, a.seed * 1000 + 500 + k,
                              "sl_rounds_done", k, a.sl_rounds):
                break
        return best

    def _sltrain(self, prefixes: list[str], start: str, out: str, net: str, epochs: int,
                 lr: float, lr_end: float, seed: int) -> str:
        """sltrain.py on the encoded data under prefixes (their large .x files removed after);
        the held-out figures before and after, for the log."""
        a = self.args
        cmd = [sys.executable, os.path.join(HERE, "sltrain.py"), *prefixes, "--weights", start,
               "--out", out, "--net", net, "--epochs", str(epochs), "--lr", str(lr),
               "--lr-end", str(lr_end), "--pair", str(a.sl_pair), "--seed", str(seed)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for prefix in prefixes:
            os.remove(prefix + ".x")   # the inputs are large; encode makes them again
        if proc.returncode != 0:
            raise SystemExit(f"rebuild_net: sltrain failed ({proc.returncode}):\n{proc.stdout}")
        # "nan" when no held-out decision has two plays (tiny rounds)
        first = re.search(r"epoch 0: held-out equity error ([0-9.]+), choice loss ([0-9.]+|nan)",
                          proc.stdout)
        last = re.findall(r"epoch \d+: lr .* held-out equity error ([0-9.]+), choice loss "
                          r"([0-9.]+|nan)", proc.stdout)
        return (f"held-out equity error {first.group(1)}->{last[-1][0]}, choice loss "
                f"{first.group(2)}->{last[-1][1]}")

    def _judge(self, label: str, fit: str, cand: str, best: str, seed: int, lost: str,
               always: bool = False) -> bool:
        """The candidate duels the best so far at level 3 and replaces it when the duel's mean
        is positive (or always); the log says which (`lost`: what a round not kept means), and
        after a kept round gives the gnubg0 yardstick."""
        ppg, lo, hi = self.duel(cand, best, seed=seed)
        kept = ppg > 0 or always
        verdict = ("kept" if ppg > 0 else "kept (--net-keep always)" if kept
                   else f"not kept, {lost}")
        self.log(f"{label}: {fit}; duel vs best {ppg:+.3f} ppg [{lo:+.3f}, {hi:+.3f}] "
                 f"({2 * self.args.duel_pairs} games): {verdict}")
        if kept:
            shutil.copyfile(cand, best)
            yardstick = self.gnubg_yardstick(best)
            if yardstick:   # none asked for (--gnubg-games 0): no line
                self.log(f"{label}: {yardstick}")
        return kept

    def _keep(self, label: str, fit: str, cand: str, best: str, seed: int, state: str, k: int,
              rounds: int) -> bool:
        """Round k's candidate is judged (_judge); when it is not kept the stage (state file
        `state`, `rounds` rounds) ends."""
        kept = self._judge(label, fit, cand, best, seed, "the stage ends")
        self._round_done(state, k if kept else rounds)
        return kept

    # ---- stage 6 ------------------------------------------------------------------------

    # a round's tag: its net, seed offset, and the option giving its positions
    NET_STAGES = {"cr": ("crashed", 900, "cr_positions"), "rs": ("race", 950, "rs_positions"),
                  "ct": ("contact", 850, "ct_positions")}

    def plan(self) -> list[str]:
        """Stage 6's rounds in order, each "cr" (the crashed net), "rs" (the race net) or "ct"
        (the contact net): --net-plan, else --cr-rounds of the crashed net then --rs-rounds
        of the race net."""
        a = self.args
        if a.net_plan:
            plan = [t.strip() for t in a.net_plan.split(",") if t.strip()]
            bad = [t for t in plan if t not in self.NET_STAGES]
            if bad:
                raise SystemExit(f"rebuild_net: --net-plan {a.net_plan!r}: {bad[0]!r} is not "
                                 f"a round (cr: the crashed net, rs: the race net, ct: the "
                                 f"contact net)")
            return plan
        return ["cr"] * a.cr_rounds + ["rs"] * a.rs_rounds

    def _plan_done(self, plan: list[str], base: str, best: str) -> list[str]:
        """Stage 6's rounds already done, in order (state file net_plan_done: "cr", "rs", or
        with "!" when the round was not kept), which must begin the plan; before the first,
        the stage's best net is its starting net. A work folder of the older per-net state
        files (cr_rounds_done, rs_rounds_done: the crashed rounds ran first) is read as
        that many rounds of each, its best the last stage's."""
        state = self.path("net_plan_done")
        source = None   # where the stage's best comes from when the state is new
        if os.path.exists(state):
            done = [t for t in open(state).read().split(",") if t]
        else:
            counts = {}
            for tag in ("cr", "rs"):
                old = self.path(f"{tag}_rounds_done")
                counts[tag] = int(open(old).read()) if os.path.exists(old) else 0
            done = ["cr"] * counts["cr"] + ["rs"] * counts["rs"]
            source = (base if not done else
                      self.path("rs_best.wts" if counts["rs"] else "cr_best.wts"))
        if [t.rstrip("!") for t in done] != plan[:len(done)]:
            raise SystemExit(f"rebuild_net: the work folder's stage 6 has done "
                             f"{','.join(done)}, which does not begin the plan "
                             f"{','.join(plan)}; use another --workdir or that plan")
        if source is not None:
            shutil.copyfile(source, best)
            if done:
                self._write_state("net_plan_done", ",".join(done))
        return done

    def _write_state(self, name: str, text: str) -> None:
        """State file NAME holds text, written whole or not at all."""
        state = self.path(name)
        with open(state + ".tmp", "w") as fh:
            fh.write(text)
        os.replace(state + ".tmp", state)

    def net_rounds(self, base: str) -> str:
        """Stage 6: rounds of one net alone on the positions it judges, in the plan's order:
        the crashed net (the contact positions ev_crashed picks out, as gnubg's published
        crashed class; --cr-positions a round), the race net (--rs-positions) or the contact
        net (--ct-positions; a file with a crashed net leaves the crashed ones to it). Each
        round's decisions of that kind come from self-play of the best net so far (sldata gen
        --only NET; every crashed decision, crashed positions being rare, else sldata's
        sample) with --net-ply targets; sltrain.py --net NET trains from the best net on that
        net's rounds' data so far and on stage 5's positions of that kind (a file without a
        crashed net starts it as a copy of its contact net); a round is kept when it beats the
        best so far in its duel (or always, with --net-keep always), else that net's later
        rounds in the plan are skipped. A net's K-th round writes tagK.* (crK.rec, rsK.wts,
        ...), seeded seed*1000 + offset + K*10 whatever the order."""
        a = self.args
        plan = self.plan()
        if not plan:
            return base
        best = self.path("net_best.wts")
        done = self._plan_done(plan, base, best)
        for i in range(len(done), len(plan)):
            tag = plan[i]
            net, offset, positions_arg = self.NET_STAGES[tag]
            k = plan[:i + 1].count(tag)
            if tag + "!" in done:
                self.log(f"{tag} round {k}: skipped (an earlier {net} round was not kept)")
                done.append(tag + "!")
                self._write_state("net_plan_done", ",".join(done))
                continue
            positions = getattr(a, positions_arg)      # the option NET_STAGES names for the net
            data = self.path(f"{tag}{k}.rec")
            seed = a.seed * 1000 + offset + k * 10
            if not os.path.exists(data):
                self.log(f"{tag} round {k}: generating {positions} {net} positions (the "
                         f"best {a.sl_top} plays within {a.sl_margin}) with {a.net_ply}-ply "
                         f"targets")
                self._net_gen(data, best, net, positions, seed)
            recs = [self.path(f"{tag}{j}.rec") for j in range(1, k + 1)]
            recs += [p for p in (self.path(f"sl{j}.rec") for j in range(1, a.sl_rounds + 1))
                     if os.path.exists(p)]
            prefixes = []
            for rec in recs:
                prefixes.append(rec[:-len(".rec")])
                self.tool("sldata", "encode", "--out", prefixes[-1], rec)
            cand = self.path(f"{tag}{k}.wts")
            fit = self._sltrain(prefixes, best, cand, net, a.net_epochs, a.net_lr,
                                a.net_lr_end, a.seed * 1000 + offset + k)
            kept = self._judge(f"{tag} round {k}", fit, cand, best, a.seed * 1000 + offset + k,
                               f"no more {net} rounds", always=a.net_keep == "always")
            done.append(tag if kept else tag + "!")
            self._write_state("net_plan_done", ",".join(done))
        return best


    def _net_gen(self, data: str, best: str, net: str, positions: int, seed: int) -> None:
        """A stage-6 round's decisions of that net's kind, from self-play of best (sldata gen
        --only NET, in seeded parts)."""
        a = self.args

        def argv_for_part(j, out):
            return ["gen", "--weights", best, "--positions", str(self._share(positions, j)),
                    "--seed", str(seed + j), "--ply", str(a.net_ply), "--only", net,
                    *(["--sample", "1"] if net == "crashed" else []), "--top", str(a.sl_top),
                    "--margin", str(a.sl_margin), "--out", out]
        self._gen_parts(data, "sldata", argv_for_part, exts=("", ".dec"))


def main() -> int:
    ap = parser(__doc__.splitlines()[0])
    args = ap.parse_args()
    if not 1 <= args.gen_parts <= MAX_GEN_PARTS:
        ap.error(f"--gen-parts {args.gen_parts}: give 1 to {MAX_GEN_PARTS}")
    subprocess.run(["make", "-s", "-C", HERE, "train", "refine", "sldata"], check=True)
    run = Run(args)
    run.check_parts()
    run.log(f"rebuild_net {' '.join(sys.argv[1:])}")
    base = run.td()
    base = run.one_net("race", base, args.race_games, args.race_alpha, args.race_alpha_end,
                       args.seed * 100 + 45, args.contact_hidden)
    base = run.one_net("contact", base, args.contact_games, args.contact_alpha,
                       args.contact_alpha_end, args.seed * 100 + 48, args.contact_hidden)
    base = run.refine(base)
    base = run.sl(base)
    base = run.net_rounds(base)
    if base != run.path("best.wts"):
        shutil.copyfile(base, run.path("best.wts"))
    run.log(f"done: {run.path('best.wts')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
