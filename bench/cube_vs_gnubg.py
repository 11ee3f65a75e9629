"""Benchmark (not a test): our cube decisions (game/model/evaluator.cube_decision at level 5,
the 2-ply cubeful search of native/src/cubeful.c, or with --our-plies 3 its 3-ply search, the
review's check) against GNU Backgammon's `hint` at 2-ply (--plies: another depth),
with gnubg's 0-ply beside as a yardstick. Positions come from gnubg self-play 7-point matches
(one a seed, both sides 0-ply): the turns where the side on roll wins 60-90% (our 0-ply
cubeless chances), a seeded sample of them. Each is judged at six kinds of terms (money
centred; money, the roller owning 2; 7-point 3-away/3-away, 2-away/4-away, 4-away/2-away;
post-Crawford 3-away/1-away). Prints by kind and in all, one figure a line with its unit:
the same verdict as gnubg 2-ply, the cost of the verdict by gnubg 2-ply's equities, the mean
and maximum |no double gap| and |double/take gap|, the gap of the chances' cubeless money
equity to gnubg 2-ply's (mean absolute, and signed: a lean of the net for the side on roll;
backgammons left out on both sides, since our decision does not carry them), and the time per
decision (gnubg's from one process for all its hints, less the same process without them).
Units: EMG, each program in its own: gnubg prints its EMG (`set output mwc off`, from its
default table, Kazaross-XG2), ours is our 2*mwc-1 put in EMG by our own table
(game/model/match_equity.Emg, met.c, within 0.5% of Kazaross-XG2); money equities per unit
of cube. Money is gnubg's money with `set jacoby off` and `set beavers 0`.
Seeds, chosen before any tuning: the working set 5701 5702 5703 (looked at while building);
the held-out set 5791 5792 5793 (run only at the end, never tuned on).
Measured at issue 57's end (24 positions x 6 kinds each, gnubg 1.07): the working set, same
verdict 137/144 (95.1%; gnubg 0-ply 131), mean |ND gap| 0.026, |DT gap| 0.063 EMG, one verdict
costing over 0.05 (0.057); the held-out set, 126/144 (87.5%; gnubg 0-ply 124), 0.060, 0.145,
four over 0.05 (max 0.121), where our 2-ply chances are 0.047 points from gnubg 2-ply's
(gnubg 0-ply's 0.020): the net's chances, more than the cube, part them there. (Cubeless gaps
quoted before session 47 counted gnubg's backgammons and left ours out; since then both leave
them out.)
3 plies (issue 57's last items, the working set, one run each, 144 decisions): against gnubg
2-ply, our 2-ply 137 same, ND 0.026, DT 0.063; our 3-ply 135, 0.031, 0.068. Against gnubg
3-ply (--plies 3): our 2-ply 137, 0.028, 0.058; our 3-ply 137, 0.024, 0.062; the check it
replaced (3-ply chances through the formula) 131, 0.055, 0.109.
Session 44 (net44; bench/results/issue57_s44_cube.txt): fresh seeds 8858 9643 7455, 141/144
the same verdict (gnubg 0-ply 133), none costing over 0.05, |ND gap| 0.029, |DT gap| 0.068 EMG;
net41 on the same positions 139, 0.040, 0.089.
To compare two weights files on the same decisions, pair by pair: --weights FILE judges with
that file while the positions are still drawn by the shipped weights' band (so every file is
judged on one set), and --save-ids FILE / --ids FILE write the drawn position IDs and read them
back (one a line; a bad line is refused, naming it, and nothing is judged).
--rollouts TRIALS then rolls out each position whose verdict differs at any term, cubeless, by
us and by gnubg (bench/rollout.py's settings): which chances the verdicts stood on, ours or
gnubg 2-ply's, are nearer gnubg's rollout (session 55's fresh set: gnubg 2-ply's, 0.024 points
from it against our 0.060; our rollouts within 0.01 of gnubg's but on a blitz and a crashed board).
Run from the repo root: python bench/cube_vs_gnubg.py --seeds 5701 5702 5703"""

import argparse
import base64
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.analysis.cube_judgement import in_emg, normalized  # noqa: E402
from game.analysis.replay import replay  # noqa: E402
from game.errors import PositionIdError  # noqa: E402
from game.matchfiles.imports import read_match_file  # noqa: E402
from game.model import evaluator  # noqa: E402
from game.model.match_terms import MatchTerms  # noqa: E402
from game.model.position import Position  # noqa: E402
from game.model.rollout import CUBE_ACTIONS, Rollout, default_threads  # noqa: E402
from game.model.search_settings import DEFAULT_SEARCH, SearchSettings  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rollout import gnubg_rollout  # noqa: E402  (bench/rollout.py)

WORKING_SEEDS = (5701, 5702, 5703)
HELD_OUT_SEEDS = (5791, 5792, 5793)
KINDS = (("money centred", MatchTerms()),
         ("money, roller owns 2", MatchTerms(cube_value=2, cube_owner=1)),
         ("7pt 3-away/3-away", MatchTerms(length=7, away_me=3, away_opp=3)),
         ("7pt 2-away/4-away", MatchTerms(length=7, away_me=2, away_opp=4)),
         ("7pt 4-away/2-away", MatchTerms(length=7, away_me=4, away_opp=2)),
         ("post-Crawford 3-away/1-away", MatchTerms(length=7, away_me=3, away_opp=1,
                                                    crawford=2)))
WIN_BAND = (0.60, 0.90)
GOAL_SAME, GOAL_ND, GOAL_DT, GOAL_COST = 0.95, 0.035, 0.05, 0.05
VERDICTS = ("no double", "double/take", "double/pass", "too good")


def gnubg_binary() -> str:
    found = shutil.which("gnubg") or "/usr/games/gnubg"
    if not os.path.exists(found):
        raise SystemExit("GNU Backgammon (gnubg) is not installed")
    return found


def run_gnubg(lines: list[str], folder: str, timeout_s: int = 3600) -> tuple[str, float]:
    """gnubg -t on these command lines (on its standard input, so that a computer player
    finishes its turns before the next line) in `folder` (its own HOME): what it printed and
    the wall time in seconds."""
    start = time.perf_counter()
    proc = subprocess.run([gnubg_binary(), "-t", "-q"], input="".join(f"{ln}\n" for ln in lines),
                          capture_output=True, text=True, timeout=timeout_s, cwd=folder,
                          env=dict(os.environ, HOME=folder))
    return proc.stdout + proc.stderr, time.perf_counter() - start


def gnubg_selfplay_lines(seed: int, sgf: str, length: int = 7) -> list[str]:
    """gnubg -t's commands for a seeded self-play match of its 0-ply player (chequer and
    cube), saved as sgf."""
    lines = ["set jacoby off", "set beavers 0", f"set seed {seed}", "set automatic game on"]
    for player in (0, 1):
        lines += [f"set player {player} gnubg",
                  f"set player {player} chequerplay evaluation plies 0",
                  f"set player {player} cubedecision evaluation plies 0"]
    return lines + ["set display off", f"new match {length}", f"save match {sgf}"]


def self_play_positions(seed: int, folder: str, length: int = 7) -> list[str]:
    """Position IDs (side on roll, before its roll) of every turn of a gnubg self-play match."""
    sgf = os.path.join(folder, f"selfplay{seed}.sgf")
    said, _ = run_gnubg(gnubg_selfplay_lines(seed, sgf, length), folder)
    if not os.path.exists(sgf):
        raise RuntimeError(f"gnubg did not write the match:\n{said[-2000:]}")
    imported = read_match_file(sgf)
    ids = []
    for game in imported.games:
        for turn in replay(imported.record, game):
            if turn.action.kind == "move":
                ids.append(turn.before.position_id)
    return ids


def draw_positions(seeds, folder: str, count: int) -> list[str]:
    """`count` positions (as even a share per seed as there are) where the side on roll wins
    WIN_BAND of its games by our 0-ply chances, drawn with each seed."""
    chosen: list[str] = []
    for k, seed in enumerate(seeds):
        want = (count * (k + 1)) // len(seeds) - len(chosen)
        band = sorted({pid for pid in self_play_positions(seed, folder)
                       if WIN_BAND[0] <= evaluator.evaluate(pid, 0).win <= WIN_BAND[1]})
        chosen += random.Random(seed).sample(band, min(want, len(band)))
    return chosen


def read_ids(path: str) -> list[str]:
    """The position IDs in a --save-ids file, one a line (blank lines and # comments skipped).
    SystemExit naming the file and line for one that is not a position ID."""
    ids = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                Position.from_id(text)
            except PositionIdError as exc:
                raise SystemExit(f"{path} line {n}: {exc}") from None
            ids.append(text)
    if not ids:
        raise SystemExit(f"{path} holds no position IDs")
    return ids


def match_id(terms: MatchTerms, on_roll: int = 1) -> str:
    """gnubg's match ID for these terms, the roller player 1, the player `on_roll` on roll (1:
    the roller, 0: its opponent), no dice rolled."""
    bits: list[int] = []

    def put(value: int, n: int):
        bits.extend((value >> i) & 1 for i in range(n))
    owner = {0: 3, 1: 1, 2: 0}[terms.cube_owner]
    put(terms.cube_value.bit_length() - 1, 4)
    put(owner, 2)
    put(on_roll, 1)                         # dice owner: the side on roll
    put(1 if terms.crawford == 1 else 0, 1)
    put(1, 3)                               # game playing
    put(on_roll, 1)                         # turn: the side on roll
    put(0, 1 + 2 + 3 + 3)                   # no double offered, no resignation, no dice
    put(terms.length, 15)
    put(terms.length - terms.away_opp if terms.length else 0, 15)
    put(terms.length - terms.away_me if terms.length else 0, 15)
    put(1, 6)                               # as gnubg writes it with the Jacoby rule off
    data = bytes(sum(bits[8 * k + i] << i for i in range(8)) for k in range(9))
    return base64.b64encode(data).decode()


@dataclass
class Judged:
    """One decision: the verdict and equities in EMG for the side on roll."""
    verdict: str
    nd: float
    dt: float
    dp: float
    cubeless: float = 0.0   # money equity of the chances it judged by (the cube aside)
    chances: tuple = ()     # gnubg's: win, win gammon, win backgammon, lose gammon, lose
    #                         backgammon, as evaluator.cube_decision_for takes them


CUBEFUL = re.compile(r"^\s*\d\. (No double|No redouble|Double, take|Redouble, take|"
                     r"Double, pass|Redouble, pass)\s+([+-]\d+\.\d+)", re.M)
PROPER = re.compile(r"Proper cube action: (.*)")
CHANCES = re.compile(r"^\s+(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)",
                     re.M)


def gnubg_verdict(words: str) -> str:
    if words.startswith("Too good"):
        return "too good"
    if words.startswith("No ") or words.startswith("Never"):
        return "no double"
    return "double/pass" if "pass" in words else "double/take"


def parse_hints(said: str) -> list[Judged]:
    """Every cube analysis gnubg printed, in order."""
    out = []
    for block in said.split("Cube analysis")[1:]:
        eq = {}
        for name, value in CUBEFUL.findall(block):
            key = "nd" if name.startswith("No") else ("dt" if "take" in name else "dp")
            eq[key] = float(value)
        proper = PROPER.search(block)
        w, wg, wbg, lose, lg, lbg = (float(x) for x in CHANCES.search(block).groups())
        out.append(Judged(gnubg_verdict(proper.group(1).strip()), eq["nd"], eq["dt"], eq["dp"],
                          w - lose + wg - lg, (w, wg, wbg, lg, lbg)))   # as ours: no backgammons
    return out


def hint_lines(ids: list[str], plies: int, hint: bool = True) -> list[str]:
    lines = ["set jacoby off", "set beavers 0", "set output mwc off", "set player 0 human",
             "set player 1 human", f"set evaluation cubedecision evaluation plies {plies}"]
    for pid in ids:
        for _, terms in KINDS:
            lines += [f"set matchid {match_id(terms)}", f"set board {pid}"]
            if hint:
                lines.append("hint")
    return lines


def gnubg_judged(ids: list[str], plies: int, folder: str) -> tuple[list[Judged], float]:
    """gnubg's decisions (by position, then kind) and its time per decision in seconds."""
    said, wall = run_gnubg(hint_lines(ids, plies), folder)
    _, base = run_gnubg(hint_lines(ids, plies, hint=False), folder)
    judged = parse_hints(said)
    if len(judged) != len(ids) * len(KINDS):
        raise RuntimeError(f"gnubg gave {len(judged)} cube analyses for "
                           f"{len(ids) * len(KINDS)} decisions:\n{said[-3000:]}")
    return judged, max(wall - base, 0.0) / len(judged)


def our_verdict(d) -> str:
    if d.too_good:
        return "too good"
    if d.double:
        return "double/take" if d.take else "double/pass"
    return "no double"


def emg(decision, terms: MatchTerms):
    """A decision of ours in the bench's units: EMG at a match score, money per unit of cube."""
    return in_emg(normalized(decision, terms.cube_value) if terms.money else decision, terms)


def ours_judged(pid: str, terms: MatchTerms, level: int,
                search: SearchSettings = DEFAULT_SEARCH) -> tuple[Judged, float]:
    start = time.perf_counter()
    d = evaluator.cube_decision(pid, level, terms, search)
    seconds = time.perf_counter() - start
    cubeless = money_points(d.win, d.win_gammon, d.lose_gammon)
    d = emg(d, terms)
    return Judged(our_verdict(d), d.no_double_equity, d.double_take_equity,
                  d.double_pass_equity, cubeless), seconds


def verdict_cost(verdict: str, ref: Judged) -> float:
    """What a verdict loses by the reference's equities: the doubler's part (its action
    against the reference's best) and, when it doubles, the taker's (take or pass)."""
    take_side = min(ref.dt, ref.dp)
    best = max(ref.nd, take_side)
    if verdict in ("no double", "too good"):
        return best - ref.nd
    taker = ref.dt - ref.dp if verdict == "double/take" else ref.dp - ref.dt
    return best - take_side + max(taker, 0.0)


@dataclass
class Row:
    kind: str
    ours: Judged
    two: Judged
    zero: Judged
    seconds: float
    deep: Judged | None = None      # gnubg searching deeper (--deeper), when asked


def played_dt(label: str, rows: list[Row], ref: str) -> str:
    """The |DT gap| of the decisions whose double/take the reference would see played: not
    those it calls too good, where the take is only a figure of the cube theory (a doubled
    gammonish game) and the gap is widest (session 54's fresh set: 0.130 EMG there, 0.055
    elsewhere). Beside the goal's mean over all, never instead of it."""
    kept = [r for r in rows if r.two.verdict != "too good"]
    if not kept:
        return f"{label} |DT gap| where {ref} is not too good: no such decision"
    return (f"{label} |DT gap| where {ref} is not too good: mean "
            f"{statistics.mean(abs(r.ours.dt - r.two.dt) for r in kept):.3f} EMG over "
            f"{len(kept)} decisions | gnubg 0-ply mean "
            f"{statistics.mean(abs(r.zero.dt - r.two.dt) for r in kept):.3f} EMG")


def summary(label: str, rows: list[Row], gnubg_s: float, ref: str = "gnubg 2-ply") -> list[str]:
    n = len(rows)
    same = sum(r.ours.verdict == r.two.verdict for r in rows)
    same0 = sum(r.zero.verdict == r.two.verdict for r in rows)
    costs = [verdict_cost(r.ours.verdict, r.two) for r in rows]
    nd = [abs(r.ours.nd - r.two.nd) for r in rows]
    dt = [abs(r.ours.dt - r.two.dt) for r in rows]
    nd0 = [abs(r.zero.nd - r.two.nd) for r in rows]
    dt0 = [abs(r.zero.dt - r.two.dt) for r in rows]
    return [f"-- {label}: {n} decisions",
            f"{label} same verdict as {ref}: {same} decisions ({100 * same / n:.1f}%)"
            f" | gnubg 0-ply {same0} ({100 * same0 / n:.1f}%)",
            f"{label} verdict cost by {ref}: total {sum(costs):.3f} EMG, max "
            f"{max(costs):.3f} EMG, over {GOAL_COST}: {sum(c > GOAL_COST for c in costs)} "
            f"decisions",
            f"{label} |ND gap|: mean {statistics.mean(nd):.3f} EMG, max {max(nd):.3f} EMG"
            f" | gnubg 0-ply mean {statistics.mean(nd0):.3f} EMG",
            f"{label} |DT gap|: mean {statistics.mean(dt):.3f} EMG, max {max(dt):.3f} EMG"
            f" | gnubg 0-ply mean {statistics.mean(dt0):.3f} EMG",
            played_dt(label, rows, ref),
            f"{label} |cubeless gap| (the chances' money equity, the cube aside): mean "
            f"{statistics.mean(abs(r.ours.cubeless - r.two.cubeless) for r in rows):.3f} points"
            f" | gnubg 0-ply mean "
            f"{statistics.mean(abs(r.zero.cubeless - r.two.cubeless) for r in rows):.3f} points",
            f"{label} cubeless gap, signed (the side on roll's chances less {ref}'s): mean "
            f"{statistics.mean(r.ours.cubeless - r.two.cubeless for r in rows):+.3f} points"
            f" | gnubg 0-ply mean "
            f"{statistics.mean(r.zero.cubeless - r.two.cubeless for r in rows):+.3f} points",
            f"{label} time per decision: ours median "
            f"{1000 * statistics.median(r.seconds for r in rows):.1f} ms, mean "
            f"{1000 * statistics.mean(r.seconds for r in rows):.1f} ms | {ref} mean "
            f"{1000 * gnubg_s:.1f} ms"]


def deeper_lines(label: str, rows: list[Row], plies: int, ref: str) -> list[str]:
    """The referee's own steadiness: ours, the reference's and gnubg 0-ply's verdicts and
    gaps measured against gnubg searching deeper (each row's `deep`, `--deeper`). Where the
    reference and its deeper search part as often as we part from the reference, the goals'
    last few points are the reference's noise, not ours. Beside the goals, never instead of
    them."""
    if any(r.deep is None for r in rows):
        raise ValueError("every row needs its deeper judgement")
    deeper = f"gnubg {plies}-ply"
    n = len(rows)

    def same(pick) -> str:
        k = sum(pick(r).verdict == r.deep.verdict for r in rows)
        return f"{k} ({100 * k / n:.1f}%)"

    def gap(pick, key) -> str:
        gaps = [abs(getattr(pick(r), key) - getattr(r.deep, key)) for r in rows]
        return f"{statistics.mean(gaps):.3f}"

    ours, two, zero = (lambda r: r.ours), (lambda r: r.two), (lambda r: r.zero)
    return [f"{label} same verdict as {deeper}: ours {same(ours)} | {ref} {same(two)} | "
            f"gnubg 0-ply {same(zero)}",
            f"{label} mean |ND gap| to {deeper}: ours {gap(ours, 'nd')} | {ref} "
            f"{gap(two, 'nd')} | gnubg 0-ply {gap(zero, 'nd')} EMG",
            f"{label} mean |DT gap| to {deeper}: ours {gap(ours, 'dt')} | {ref} "
            f"{gap(two, 'dt')} | gnubg 0-ply {gap(zero, 'dt')} EMG"]


def goals(rows: list[Row], gnubg_s: float) -> list[str]:
    n = len(rows)
    checks = [
        ("same verdict >= 95%",
         sum(r.ours.verdict == r.two.verdict for r in rows) >= GOAL_SAME * n),
        ("mean |ND gap| <= 0.035 EMG",
         statistics.mean(abs(r.ours.nd - r.two.nd) for r in rows) <= GOAL_ND),
        ("mean |DT gap| <= 0.05 EMG",
         statistics.mean(abs(r.ours.dt - r.two.dt) for r in rows) <= GOAL_DT),
        ("no verdict costing over 0.05 EMG",
         all(verdict_cost(r.ours.verdict, r.two) <= GOAL_COST for r in rows)),
        ("median decision no slower than gnubg's mean hint",
         statistics.median(r.seconds for r in rows) <= gnubg_s)]
    out = [f"goal {name}: {'holds' if ok else 'MISSED'}" for name, ok in checks]
    return out + [f"all goals: {'hold' if all(ok for _, ok in checks) else 'MISSED'}"]


def disputed(ids: list[str], rows: list[Row]) -> list[tuple[str, Row]]:
    """The positions whose verdict by us and by the reference differ at one or more of the
    six terms, each with its money-centred row (the chances a cubeless rollout judges)."""
    per = len(KINDS)
    out = []
    for i, pid in enumerate(ids):
        mine = rows[i * per:(i + 1) * per]
        if any(r.ours.verdict != r.two.verdict for r in mine):
            out.append((pid, mine[0]))
    return out


def money_points(win: float, win_gammon: float, lose_gammon: float) -> float:
    """The cubeless money equity of chances, backgammons left out (as the rows' cubeless)."""
    return 2 * win - 1 + win_gammon - lose_gammon


def rollout_lines(found: list[tuple[str, Row]], trials: int, seed: int,
                  ref: str) -> list[str]:
    """Each disputed position rolled out, cubeless, by us (level 3, the luck taken out) and
    by gnubg (0-ply, bench/rollout.py's settings), the same trials and seed: which chances
    the verdicts stood on, ours or the reference's, are nearer gnubg's rollout. Money points
    for the side on roll, backgammons left out; the +/- is the equity's 95% half-interval
    (SE for gnubg's), backgammons in. gnubg judges here; its figures are no target."""
    if not found:
        return ["disputed positions rolled out: none (every verdict the same)"]
    threads = default_threads()
    lines, ours_off, ref_off, ro_off = [], [], [], []
    for pid, row in found:
        position = Position.from_id(pid)
        with Rollout() as rollout:
            mine = rollout.start(position, CUBE_ACTIONS, trials, seed=seed,
                                 threads=threads).result().candidates[0]
        c = mine.chances
        ours_ro = money_points(c.win, c.win_gammon, c.lose_gammon)
        theirs = gnubg_rollout(position, trials, seed, threads, 3600)
        w, wg, _, lose, lg, _ = theirs.chances
        gnubg_ro = w - lose + wg - lg                 # as parse_hints reads gnubg's chances
        ours_off.append(row.ours.cubeless - gnubg_ro)
        ref_off.append(row.two.cubeless - gnubg_ro)
        ro_off.append(ours_ro - gnubg_ro)
        lines.append(f"{pid} disputed: ours {row.ours.cubeless:+.3f}, {ref} "
                     f"{row.two.cubeless:+.3f} | rollouts: ours {ours_ro:+.3f} +/- "
                     f"{mine.equity.interval:.3f}, gnubg {gnubg_ro:+.3f} (SE "
                     f"{theirs.se:.3f}) points")
    n = len(found)
    return lines + [
        f"disputed positions rolled out: {n} positions, {trials} games each, seed {seed}",
        f"disputed |ours - gnubg rollout|: mean {statistics.mean(map(abs, ours_off)):.3f} "
        f"points (signed {statistics.mean(ours_off):+.3f}) | {ref} mean "
        f"{statistics.mean(map(abs, ref_off)):.3f} (signed {statistics.mean(ref_off):+.3f})",
        f"disputed |our rollout - gnubg rollout|: mean {statistics.mean(map(abs, ro_off)):.3f}"
        f" points (signed {statistics.mean(ro_off):+.3f})"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(WORKING_SEEDS))
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--plies", type=int, default=2, help="gnubg's reference plies")
    ap.add_argument("--our-plies", type=int, default=2, choices=(2, 3),
                    help="level 5's cubeful search plies (3: the review's check)")
    ap.add_argument("--show", action="store_true", help="print every decision")
    ap.add_argument("--weights", help="judge with this weights file (positions are still "
                    "drawn by the shipped weights)")
    ap.add_argument("--ids", help="judge these position IDs (a --save-ids file) instead of "
                    "drawing them")
    ap.add_argument("--save-ids", help="write the drawn position IDs to this file")
    ap.add_argument("--rollouts", type=int, default=0, metavar="TRIALS",
                    help="then roll out (ours and gnubg's, cubeless) each position whose "
                    "verdict differs at any term: whose chances are nearer gnubg's rollout")
    ap.add_argument("--rollout-seed", type=int, default=1)
    ap.add_argument("--deeper", type=int, default=0, metavar="PLIES",
                    help="also judge by gnubg at PLIES (e.g. 3) and print how near ours, the "
                    "reference and gnubg 0-ply come to it: the referee's own steadiness")
    args = ap.parse_args(argv)
    evaluator.ensure_loaded()
    with tempfile.TemporaryDirectory() as folder:
        ids = read_ids(args.ids) if args.ids else draw_positions(args.seeds, folder,
                                                                 args.positions)
        if args.save_ids:
            with open(args.save_ids, "w", encoding="utf-8") as fh:
                fh.write("".join(f"{pid}\n" for pid in ids))
        if args.weights:
            evaluator.load_weights(args.weights)
        two, gnubg_s = gnubg_judged(ids, args.plies, folder)
        zero, _ = gnubg_judged(ids, 0, folder)
        deep = gnubg_judged(ids, args.deeper, folder)[0] if args.deeper else []
    rows = []
    for i, pid in enumerate(ids):
        for k, (kind, terms) in enumerate(KINDS):
            ours, seconds = ours_judged(pid, terms, args.level,
                                        SearchSettings(plies=args.our_plies))
            j = i * len(KINDS) + k
            rows.append(Row(kind, ours, two[j], zero[j], seconds, deep[j] if deep else None))
            if args.show:
                r = rows[-1]
                print(f"{pid} {kind}: ours {ours.verdict} {ours.nd:+.3f} {ours.dt:+.3f} | "
                      f"gnubg {r.two.verdict} {r.two.nd:+.3f} {r.two.dt:+.3f}")
    source = f"ids {args.ids}" if args.ids else f"seeds {' '.join(map(str, args.seeds))}"
    judge = f", weights {args.weights}" if args.weights else ""
    print(f"== {source}: {len(ids)} positions{judge}, level "
          f"{args.level} ({args.our_plies}-ply cubeful) against gnubg {args.plies}-ply")
    ref = f"gnubg {args.plies}-ply"
    for kind, _ in KINDS:
        print("\n".join(summary(kind, [r for r in rows if r.kind == kind], gnubg_s, ref)))
    print("\n".join(summary("all", rows, gnubg_s, ref)))
    print("\n".join(goals(rows, gnubg_s)))
    if deep:
        for kind, _ in KINDS:
            print("\n".join(deeper_lines(kind, [r for r in rows if r.kind == kind],
                                          args.deeper, ref)))
        print("\n".join(deeper_lines("all", rows, args.deeper, ref)))
    if args.rollouts:
        print("\n".join(rollout_lines(disputed(ids, rows), args.rollouts, args.rollout_seed,
                                       ref)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
