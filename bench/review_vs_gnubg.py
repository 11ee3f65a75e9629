"""Benchmark (not a test): our review (game/analysis/judge.py, level 5) against GNU Backgammon's
analysis of the same games. `gnubg -t` plays N 7-point matches against itself at 0-ply (one
player with evaluation noise drawn between 0.04 and 0.06) and a money session, analyses them
(`analyse match`, `show statistics match`, at --plies), and we review the same .sgf through
game/matchfiles/imports.py. Prints, per player side by side, one figure a line with its unit:
error totals (EMG), marks, rating bands, cube decisions counted, luck, and the per-move
correlation of the errors and the luck; then whether the goals of issue 48 hold:
    every player's rating within one band of gnubg's;
    the clean player's error total at most 1.3 x gnubg's + 0.05 (issue 58);
    the noisy player's error total within 15% of gnubg's;
    cube decisions counted at most 2 x gnubg's "close or actual" + 4.
With --disputes N, the N plays a player that the two charge most differently are then rolled
out by gnubg (bench/disputed_plays.py) and the two total goals are judged again against
gnubg's totals with those plays' rolled-out errors; the goals as written are printed first.
Run from the repo root: python bench/review_vs_gnubg.py --matches 3 --money-games 8"""

import argparse
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import disputed_plays  # noqa: E402
from game.analysis.cube_judgement import in_emg  # noqa: E402
from game.analysis.judge import Reviewer  # noqa: E402
from game.analysis.verdicts import RATINGS, SideSummary  # noqa: E402
from game.matchfiles.imports import read_match_file  # noqa: E402

NAMES = ("Alice", "Bob")               # Bob is the noisy one
NOISE = (0.04, 0.06)
BANDS = [name for _, name in RATINGS]
GOAL_TOTAL_SHARE = 0.15                # the noisy player's total within 15% of gnubg's
GOAL_CUBE_FACTOR, GOAL_CUBE_EXTRA = 2, 4
GOAL_CLEAN_FACTOR, GOAL_CLEAN_EXTRA = 1.3, 0.05   # the clean player's total at most this
TIE = 0.001                            # doubling and not doubling this close: the same


def gnubg_binary() -> str:
    found = shutil.which("gnubg") or "/usr/games/gnubg"
    if not os.path.exists(found):
        raise SystemExit("GNU Backgammon (gnubg) is not installed")
    return found


def gnubg_script(length: int, seed: int, noise: float, plies: int, folder: str,
                 games: int) -> list[str]:
    """Self-play at 0-ply (player 1 with noise), the game saved, analysed, its statistics
    shown and the analysed match saved. Length 0: a money session of `games` games."""
    lines = ["set jacoby off", "set beavers 0", f"set seed {seed}",
             f"set defaultnames {NAMES[0]} {NAMES[1]}",
             f"set automatic game {'on' if length else 'off'}"]
    for player in (0, 1):
        lines += [f"set player {player} gnubg",
                  f"set player {player} chequerplay evaluation plies 0",
                  f"set player {player} cubedecision evaluation plies 0"]
    lines += [f"set player 1 chequerplay evaluation noise {noise:.4f}",
              f"set player 1 cubedecision evaluation noise {noise:.4f}", "set display off"]
    lines += [f"new match {length}"] if length else \
        ["new session"] + ["new game"] * (games - 1)
    lines += [f"save match {folder}/played.sgf",
              f"set analysis chequerplay evaluation plies {plies}",
              f"set analysis cubedecision evaluation plies {plies}",
              "analyse match", "show statistics match", f"save match {folder}/analysed.sgf"]
    return lines


@dataclass
class Player:
    """One player's figures, from gnubg's statistics or from our review."""
    error: float = 0.0                 # EMG
    moves: int = 0                     # unforced
    marked: tuple = (0, 0, 0)          # doubtful, bad, very bad (ours: ?, ??, -)
    cube_close: int = 0
    rating: str = "N/A"
    luck: float = 0.0                  # EMG (gnubg); ours: EMG in a match, money: cubeless points
    per_move: list = field(default_factory=list)   # (error EMG, luck) per move, in order


def _row(text: str, label: str) -> list[str]:
    """The two columns after `label` in gnubg's statistics table (the first such row)."""
    for line in text.splitlines():
        if line.startswith(label):
            rest = line[len(label):]
            return re.findall(r"[-+]?\d+\.\d+|[-+]?\d+", rest)
    raise ValueError(f"gnubg printed no '{label}' row")


def _section(text: str, title: str) -> str:
    start = text.index(title)
    return text[start:]


def gnubg_players(said: str) -> dict:
    """{player name: Player} from `show statistics match` (player 0, then 1: the noisy one)."""
    chequer = _section(said, "Chequerplay statistics")
    cube = _section(said, "Cube statistics")
    overall = _section(said, "Overall statistics")
    luck = _section(said, "Luck statistics")
    out = {}
    for k, name in enumerate(NAMES):
        p = Player()
        p.moves = int(_row(chequer, "Unforced moves")[k])
        p.marked = tuple(int(_row(chequer, f"Moves marked {m}")[k])
                         for m in ("doubtful", "bad", "very bad"))
        p.cube_close = int(_row(cube, "Close or actual cube decisions")[k])
        p.error = -float(_row(overall, "Error total EMG")[2 * k])
        p.luck = float(_row(luck, "Luck total EMG")[2 * k])
        ratings = re.search(r"Overall rating\s+(.+?)\s{2,}(.+?)\s*$", overall, re.M)
        p.rating = ratings.group(1 + k).strip() if ratings else "N/A"
        out[name] = p
    return out


GAME_RE = re.compile(r"\(;FF\[4\]")
NODE_RE = re.compile(r";([BW])\[(\d)(\d)[a-z]*\]([^;]*)")
CHOSEN_RE = re.compile(r"(?<![A-Z])A\[(\d+)\]((?:\[[^]]*\])+)")
ENTRY_RE = re.compile(r"\[\S+ E ver 3 (?:\S+ ){5}(\S+) ")
LUCK_RE = re.compile(r"LU\[([-+0-9.e]+)\]")


def gnubg_moves(sgf_text: str) -> list[list]:
    """Per game, per move node in order: (side letter, gnubg's error in EMG or None, luck
    or None), from the analysed .sgf's A[] (the play made, then each play's equity) and LU[]."""
    games = []
    for chunk in GAME_RE.split(sgf_text)[1:]:
        moves = []
        for node in NODE_RE.finditer(chunk):
            error, props = None, node.group(4)
            chosen = CHOSEN_RE.search(props)
            if chosen:
                scores = [float(v) for v in ENTRY_RE.findall(chosen.group(2))]
                if scores:
                    error = scores[0] - scores[int(chosen.group(1))]
            luck = LUCK_RE.search(props)
            moves.append((node.group(1), error, float(luck.group(1)) if luck else None))
        games.append(moves)
    return games


ACTION_RE = re.compile(r";[BW]\[([^]]*)\]([^;]*)")
DA_RE = re.compile(r"DA\[E ver 3 ([^]]*)\]")


def gnubg_cubes(sgf_text: str) -> list[dict]:
    """Per game, {action number: (no double, double/take)} of each node gnubg gave a cube
    analysis (DA[]: the cubeful equities, money points per unit of cube or match chances)."""
    games = []
    for chunk in GAME_RE.split(sgf_text)[1:]:
        found = {}
        for number, node in enumerate(ACTION_RE.finditer(chunk), start=1):
            da = DA_RE.search(node.group(2))
            if da:
                numbers = [float(v) for v in da.group(1).split()[4:18]]
                found[number] = (numbers[6], numbers[13])
        games.append(found)
    return games


def cube_differences(gnubg_games: list[dict], reviews: list) -> list[str]:
    """Money cube decisions where the two programs' proper actions differ: each with both
    programs' no double and double/take (points per unit of cube) and what we charged."""
    lines = []
    for found, review in zip(gnubg_games, reviews, strict=False):
        for item in review.items:
            if item.kind == "move" or item.number not in found or not item.terms.money:
                continue
            g_nd, g_dt = found[item.number]
            d = in_emg(item.decision, item.terms)
            ours_gap = min(d.double_take_equity, d.double_pass_equity) - d.no_double_equity
            if (ours_gap > TIE) != (min(g_dt, 1.0) - g_nd > TIE):
                lines.append(
                    f"cube game {review.game.number} entry {item.number} {item.kind} "
                    f"{item.before.position_id} cube {item.cube_value}: ours no double "
                    f"{d.no_double_equity:+.3f} double/take {d.double_take_equity:+.3f} "
                    f"charged {item.loss:.3f} | gnubg no double {g_nd:+.3f} double/take "
                    f"{g_dt:+.3f} points per unit of cube")
    return lines


def our_players(path: str, level: int, checked: bool = True) -> tuple[dict, list[list], list]:
    """{player name: Player} from our review of every game of the file (its first side is
    gnubg's player 0, White), per game the moves' (error, luck) in order, and the reviews."""
    imported = read_match_file(path)
    if imported.problem is not None:
        raise SystemExit(f"our import refused {path}: {imported.problem}")
    record = imported.record
    totals = {side: SideSummary() for side in record.sides}
    per_game, reviews = [], []
    for game in record.games:
        review = Reviewer(record, game.number, level=level, checked=checked).run()
        reviews.append(review)
        for side, s in review.summary().items():
            t = totals[side]
            for name in ("moves", "move_error", "cube_decisions", "cube_error", "luck",
                         "rolls", "doubtful", "bad"):
                setattr(t, name, getattr(t, name) + getattr(s, name))
        per_game.append([(i.side, i.loss, i.luck) for i in review.items if i.kind == "move"])
    out = {}
    for name, side in zip(NAMES, record.sides, strict=True):
        t = totals[side]
        out[name] = Player(t.total_error, t.moves, (t.doubtful, t.bad, 0),
                           t.cube_decisions, t.rating, t.luck)
    return out, per_game, reviews


def correlation(pairs: list) -> float:
    pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
    if len(pairs) < 3:
        return float("nan")
    xs, ys = zip(*pairs, strict=True)
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def move_pairs(theirs: list[list], ours: list[list]) -> tuple[list, list, int]:
    """(error pairs, luck pairs, games skipped) of the moves both list, game by game (a game
    whose move counts differ is skipped)."""
    errors, lucks, skipped = [], [], 0
    for g_moves, o_moves in zip(theirs, ours, strict=False):
        if len(g_moves) != len(o_moves):
            skipped += 1
            continue
        for (_, g_err, g_luck), (_, o_err, o_luck) in zip(g_moves, o_moves, strict=True):
            errors.append((g_err, o_err))
            lucks.append((g_luck, o_luck))
    return errors, lucks, skipped


@dataclass
class Outcome:
    """A match or session: both programs' figures and the per-move pairs."""
    label: str
    gnubg: dict
    ours: dict
    errors: list
    lucks: list
    skipped: int
    cube_differences: list = field(default_factory=list)
    noisy: str = NAMES[1]
    review_s: tuple = (0.0, 0.0)       # our review of all its games: wall, CPU seconds
    reviews: list = field(default_factory=list)        # our reviews, a game each
    gnubg_per_move: list = field(default_factory=list)  # gnubg_moves of its analysis


def _gnubg_play_and_analyse(length: int, seed: int, noise: float, plies: int, folder: str,
                            games: int) -> str:
    """gnubg plays and analyses into `folder`; what it printed."""
    script = "".join(f"{line}\n" for line in gnubg_script(length, seed, noise, plies, folder,
                                                            games))
    proc = subprocess.run([gnubg_binary(), "-t", "-q"], input=script, capture_output=True,
                          text=True, cwd=folder, env=dict(os.environ, HOME=folder),
                          timeout=3600)
    said = proc.stdout + proc.stderr
    if proc.returncode != 0 or not os.path.exists(os.path.join(folder, "analysed.sgf")):
        raise SystemExit(f"gnubg failed (exit {proc.returncode}):\n{said[-2000:]}")
    return said


def run_one(label: str, length: int, seed: int, noise: float, plies: int, level: int,
            games: int, keep: str | None = None, checked: bool = True) -> Outcome:
    folder = keep or tempfile.mkdtemp(prefix="sbg-review-vs-gnubg-")
    os.makedirs(folder, exist_ok=True)
    analysed = os.path.join(folder, "analysed.sgf")
    kept_said = os.path.join(folder, "gnubg-said.txt")
    if keep and os.path.exists(analysed) and os.path.exists(kept_said):
        with open(kept_said, encoding="utf-8") as fh:   # gnubg's work of an earlier run
            said = fh.read()
    else:
        said = _gnubg_play_and_analyse(length, seed, noise, plies, folder, games)
        with open(kept_said, "w", encoding="utf-8") as fh:
            fh.write(said)
    theirs = gnubg_players(said)
    wall, cpu = time.perf_counter(), time.process_time()
    ours, our_moves, reviews = our_players(os.path.join(folder, "played.sgf"), level, checked)
    review_s = (time.perf_counter() - wall, time.process_time() - cpu)
    with open(analysed, encoding="utf-8") as fh:
        text = fh.read()
    errors, lucks, skipped = move_pairs(gnubg_moves(text), our_moves)
    if keep is None:
        shutil.rmtree(folder, ignore_errors=True)
    return Outcome(label, theirs, ours, errors, lucks, skipped,
                   cube_differences(gnubg_cubes(text), reviews), review_s=review_s,
                   reviews=reviews, gnubg_per_move=gnubg_moves(text))


def band_gap(a: str, b: str) -> int:
    if a not in BANDS or b not in BANDS:
        return 0 if a == b else 99
    return abs(BANDS.index(a) - BANDS.index(b))


def goals(o: Outcome) -> dict:
    """{goal: held} for one match or session."""
    out = {}
    for name in NAMES:
        out[f"{name} rating within one band"] = band_gap(o.ours[name].rating,
                                                         o.gnubg[name].rating) <= 1
        limit = GOAL_CUBE_FACTOR * o.gnubg[name].cube_close + GOAL_CUBE_EXTRA
        out[f"{name} cube decisions <= 2 x gnubg's + 4"] = o.ours[name].cube_close <= limit
    out[f"{o.noisy} (noisy) total within 15%"] = noisy_total_holds(o.ours[o.noisy].error,
                                                                   o.gnubg[o.noisy].error)
    clean = NAMES[0]
    out[f"{clean} (clean) total <= 1.3 x gnubg's + 0.05"] = (
        o.ours[clean].error <= clean_total_limit(o.gnubg[clean].error))
    return out


def noisy_total_holds(ours: float, gnubg: float) -> bool:
    """The noisy player's goal: our error total within 15% of gnubg's."""
    return abs(ours - gnubg) <= GOAL_TOTAL_SHARE * abs(gnubg)


def clean_total_limit(gnubg: float) -> float:
    """The clean player's goal: our error total at most this, by gnubg's total."""
    return GOAL_CLEAN_FACTOR * gnubg + GOAL_CLEAN_EXTRA


def report(o: Outcome) -> list[str]:
    lines = [f"== {o.label}"]
    for name in NAMES:
        g, us = o.gnubg[name], o.ours[name]
        unit = "EMG" if "match" in o.label else "points per unit of cube"
        luck_unit = "EMG" if "match" in o.label else "cubeless money points"
        lines += [
            f"{name} error total: ours {us.error:.3f} {unit} | gnubg {g.error:.3f} {unit}",
            f"{name} unforced moves: ours {us.moves} moves | gnubg {g.moves} moves",
            f"{name} marked ?/doubtful: ours {us.marked[0]} moves | gnubg {g.marked[0]} moves",
            f"{name} marked ??/bad+very bad: ours {us.marked[1]} moves | "
            f"gnubg {g.marked[1] + g.marked[2]} moves",
            f"{name} cube decisions counted: ours {us.cube_close} decisions | "
            f"gnubg {g.cube_close} decisions (close or actual)",
            f"{name} rating: ours {us.rating} | gnubg {g.rating}",
            f"{name} luck: ours {us.luck:+.3f} {luck_unit} | gnubg {g.luck:+.3f} EMG"]
    lines += [f"per-move error correlation: {correlation(o.errors):.3f} (Pearson r, "
              f"{len(o.errors)} moves)",
              f"per-move luck correlation: {correlation(o.lucks):.3f} (Pearson r, "
              f"{len(o.lucks)} moves)",
              f"games skipped for unequal move lists: {o.skipped} games",
              f"money cube decisions judged the other way: {len(o.cube_differences)} "
              f"decisions", *o.cube_differences,
              f"our review: {o.review_s[0]:.1f} s wall, {o.review_s[1]:.1f} s CPU "
              f"({sum(p.moves for p in o.ours.values())} unforced moves)"]
    for goal, held in goals(o).items():
        lines.append(f"goal {goal}: {'holds' if held else 'MISSED'}")
    return lines


def judge_disputes(o: Outcome, most: int) -> dict:
    """The plays the two reviews charge most differently rolled out by gnubg
    (disputed_plays.py), printed; the two total goals judged again against gnubg's totals with
    those plays' rolled-out errors, printed and returned."""
    names = dict(zip(o.reviews[0].sides, NAMES, strict=True)) if o.reviews else {}
    lines, moved = disputed_plays.arbitrate(o.reviews, o.gnubg_per_move, names,
                                            disputed_plays.GAP, most, disputed_plays.TRIALS)
    out = {}
    for name in names.values():
        count, shift = moved[name]
        judged, us = o.gnubg[name].error + shift, o.ours[name].error
        lines.append(f"{name} error total: ours {us:.3f} EMG | gnubg 2-ply "
                     f"{o.gnubg[name].error:.3f} EMG | gnubg with {count} disputed plays "
                     f"rolled out {judged:.3f} EMG")
        if name == o.noisy:
            share = (us - judged) / judged if judged else float("inf")
            key = f"{name} (noisy) total within 15%, gnubg's disputes rolled out"
            out[key] = noisy_total_holds(us, judged)
            lines.append(f"goal {key}: {'holds' if out[key] else 'MISSED'} ({share:+.1%})")
        else:
            limit = clean_total_limit(judged)
            key = f"{name} (clean) total <= 1.3 x gnubg's + 0.05, gnubg's disputes rolled out"
            out[key] = us <= limit
            lines.append(f"goal {key}: {'holds' if out[key] else 'MISSED'} "
                         f"({us:.3f} EMG against {limit:.3f} EMG)")
    for line in lines:
        print(line)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=3, help="7-point matches (default 3)")
    ap.add_argument("--length", type=int, default=7, help="match length (default 7)")
    ap.add_argument("--money-games", type=int, default=8, help="money session games (0: none)")
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--plies", type=int, default=2, help="gnubg's analysis plies (default 2)")
    ap.add_argument("--level", type=int, default=5, help="our review level (default 5)")
    ap.add_argument("--keep", help="folder to keep the files in (one sub-folder each); gnubg's "
                    "work found there from an earlier run is used again")
    ap.add_argument("--quick", action="store_true",
                    help="our review QUICK (no checked errors), as before issue 58")
    ap.add_argument("--disputes", type=int, default=0, metavar="N",
                    help="then gnubg's cubeful rollouts judge the N plays a player that "
                    "our review and gnubg's analysis charge most differently "
                    "(bench/disputed_plays.py); the goals as written stand beside")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    jobs = [(f"match {k + 1} ({args.length} points)", args.length) for k in range(args.matches)]
    if args.money_games:
        jobs.append((f"money session ({args.money_games} games)", 0))
    held_all = held_rolled = True
    for k, (label, length) in enumerate(jobs):
        noise = rng.uniform(*NOISE)
        seed = rng.randrange(1, 10 ** 6)
        keep = os.path.join(args.keep, f"{k + 1}") if args.keep else None
        started = time.perf_counter()
        outcome = run_one(f"{label}, {NAMES[1]} noise {noise:.3f}, gnubg seed {seed}", length,
                          seed, noise, args.plies, args.level, args.money_games, keep,
                          not args.quick)
        for line in report(outcome):
            print(line)
        if args.disputes:
            rolled = judge_disputes(outcome, args.disputes)
            kept = {k: v for k, v in goals(outcome).items() if "total" not in k}
            held_rolled &= all(kept.values()) and all(rolled.values())
        print(f"time: {time.perf_counter() - started:.1f} s")
        held_all &= all(goals(outcome).values())
        sys.stdout.flush()
    print(f"all goals: {'hold' if held_all else 'MISSED'}")
    if args.disputes:
        print(f"all goals, gnubg's disputed plays rolled out: "
              f"{'hold' if held_rolled else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
