"""Hard positions benchmark (not a test): 48 positions of the four classes where our rollouts
part from GNU Backgammon's (issue 58: a prime, a back game, a closed board with gammon
chances, a contact bear-off), 12 a class, rolled out by our engine and compared with gnubg
rollouts stored in bench/results/hard_positions_gnubg.json; beside them our 0-ply and 2-ply
evaluations. Not a judge of plays and not a training set: one figure a line, per position and
per class, and per class the goal line "class NAME within 3 SE: yes/no".

The positions are ours, built in code: 24 hand-made boards (BOARDS, six a class), each taken
with either side on roll. Each passes its class's test (in_class) for one side or the other:
prime: five or more points in a row within its 3- to 11-points, reaching the 7-point or
higher, an opposing man behind them; back game: two or more points held in the other's home
board, 50 or more pips behind in the race; closed board: five or six home-board points made,
an opposing man on the bar, none of theirs off; contact bear-off: every man home, an opposing
man still on that home board or the bar. A position may pass a second test too (a closed
board bearing off is a contact bear-off as well).

The references: gnubg 1.07 `gnubg -t` rollouts, cubeless money, chequer play 0-ply
cubeless, variance reduction on, quasi-random dice (rotate), no truncation, no bear-off
database truncation (bench/rollout.py's SETTINGS), in parts of --part-trials games with the
seeds --seeds, pooled by trials. Ours: game/model/rollout.py at level 3 (0-ply) with the luck
taken out, cubeless (as bench/rollout.py), the same trials, --seed. A row is the side on
roll's; a class's means are for the side its boards' words name (the primer, the side bearing
in against a back game, the closed board's, the side bearing off), so that the two sides'
errors do not cancel. SE of a difference: the root of the squared SEs; z = difference / SE.

Run: python3 bench/hard_positions.py [--weights FILE] [--trials N] [--classes prime ...]
     python3 bench/hard_positions.py --refresh-gnubg [--seeds 1 2] [--part-trials 648]
     (a refresh keeps the parts already stored: a stopped one resumes; --fresh starts over)"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import sys
import time
from typing import NamedTuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.rollout import SETTINGS, run_gnubg  # noqa: E402
from game.model import evaluator  # noqa: E402
from game.model.position import Position  # noqa: E402
from game.model.rollout import CUBE_ACTIONS, Z95, Rollout, default_threads  # noqa: E402

REFERENCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                          "hard_positions_gnubg.json")
FIGURES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity")
GOAL_SE = 3.0                 # a class's mean difference within this many SEs of gnubg's
MIN_POSITIONS, MIN_PER_CLASS = 40, 10

# Each board: (the first side's men, the second side's, a few words). Each side counts its own
# points 1..24 ("bar": its bar); the words speak of the first side's structure.
BOARDS: dict[str, tuple[tuple[dict, dict, str], ...]] = {
    "prime": (
        ({4: 2, 5: 2, 6: 3, 7: 2, 8: 2, 9: 2, 13: 2}, {24: 2, 13: 3, 8: 2, 6: 4, 5: 2, 4: 2},
         "a full 4-to-9 prime against an anchor on its 1-point"),
        ({4: 2, 5: 2, 6: 3, 7: 2, 8: 3, 11: 1, 13: 2},
         {24: 1, 23: 1, 13: 4, 8: 3, 6: 3, 5: 1, 3: 2},
         "a 4-to-8 prime, two split men behind it"),
        ({3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 13: 3}, {24: 2, 14: 2, 13: 2, 6: 4, 5: 2, 4: 3},
         "a full 3-to-8 prime, two men on its 1-point"),
        ({2: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 13: 3}, {24: 2, 22: 1, 11: 2, 6: 5, 4: 3, 3: 2},
         "a 5-to-9 prime and the 2-point, three men behind it"),
        ({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 23: 2, 13: 1},
         {4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 10: 1, 24: 2, 22: 2},
         "prime against prime: 4-to-9 against 4-to-8, two men trapped each"),
        ({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 2: 1, 13: 2},
         {"bar": 1, 24: 1, 13: 3, 8: 3, 6: 4, 5: 3},
         "a full 4-to-9 prime, a man on the bar and one on its 1-point"),
    ),
    "back_game": (
        ({6: 4, 5: 3, 4: 3, 2: 2, 8: 2, 11: 1}, {24: 2, 22: 3, 13: 2, 8: 3, 6: 3, 7: 2},
         "bearing in against a 1-3 back game"),
        ({6: 4, 5: 3, 4: 3, 8: 2, 9: 2, 10: 1}, {23: 2, 22: 3, 13: 3, 11: 1, 8: 2, 6: 3, 5: 1},
         "bearing in against a 2-3 back game"),
        ({6: 4, 5: 3, 3: 2, 8: 3, 9: 1, 11: 2}, {23: 2, 21: 2, 13: 4, 8: 2, 6: 3, 4: 2},
         "bearing in with a blot against a 2-4 back game"),
        ({6: 4, 4: 3, 2: 2, 7: 2, 8: 2, 10: 2}, {22: 2, 20: 3, 13: 3, 8: 2, 6: 3, 3: 2},
         "bearing in against a 3-5 back game"),
        ({6: 3, 5: 3, 4: 3, 2: 2, 7: 2, 9: 1, 10: 1},
         {"bar": 1, 24: 2, 22: 2, 17: 1, 13: 2, 8: 2, 6: 3, 4: 2},
         "two blots against a 1-3 back game with a man on the bar"),
        ({6: 3, 5: 3, 4: 3, 8: 2, 7: 2, 11: 2}, {23: 3, 22: 2, 12: 2, 9: 2, 6: 3, 5: 3},
         "bearing in against a 2-3 back game with five men back"),
    ),
    "closed_board": (
        ({1: 2, 2: 2, 3: 2, 4: 2, 5: 3, 6: 2, 8: 2},
         {"bar": 2, 13: 3, 11: 1, 8: 2, 6: 3, 4: 2, 3: 2},
         "a closed board, two men on the bar"),
        ({2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 9: 2, 10: 2}, {"bar": 1, 24: 1, 13: 5, 8: 3, 6: 3, 5: 2},
         "a five-point board, a man on the bar and one on its 1-point"),
        ({1: 2, 2: 2, 3: 3, 4: 3, 5: 2, 6: 2}, {"bar": 1, 18: 2, 13: 4, 8: 4, 6: 2, 4: 2},
         "a closed board, one off, a man on the bar"),
        ({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1, 8: 2}, {"bar": 3, 13: 4, 6: 4, 4: 2, 2: 2},
         "a closed board, three men on the bar"),
        ({1: 2, 2: 2, 3: 2, 4: 3, 5: 2, 6: 2, 11: 2}, {"bar": 2, 16: 2, 13: 3, 8: 3, 6: 3, 5: 2},
         "a closed board, two men on the bar and two more back"),
        ({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, {"bar": 2, 13: 3, 8: 4, 6: 3, 5: 3},
         "a closed board, three off, two men on the bar"),
    ),
    "contact_bearoff": (
        ({6: 4, 5: 3, 4: 3, 3: 2, 2: 1}, {24: 2, 6: 4, 5: 3, 4: 3, 3: 3},
         "bearing off, two off, against an ace-point anchor"),
        ({6: 3, 5: 3, 4: 2, 3: 2, 2: 2}, {24: 2, 13: 2, 8: 3, 6: 4, 5: 2, 4: 2},
         "bearing off, three off, against an ace-point game"),
        ({6: 5, 5: 4, 4: 2, 2: 2}, {22: 2, 8: 2, 6: 5, 5: 3, 4: 3},
         "bearing off, two off, against an anchor on its 3-point"),
        ({6: 3, 5: 3, 4: 3, 3: 2, 2: 2}, {24: 1, 6: 4, 5: 4, 4: 3, 3: 2, 2: 1},
         "bearing off, two off, against one man on its 1-point"),
        ({6: 4, 5: 4, 4: 3, 3: 2}, {24: 2, 23: 2, 9: 2, 6: 4, 5: 3, 4: 2},
         "bearing off, two off, against its 1- and 2-points held"),
        ({6: 3, 5: 3, 4: 4, 2: 2, 1: 1}, {22: 2, 7: 2, 6: 4, 5: 3, 4: 2, 3: 2},
         "bearing off, two off, a blot on its 1-point, against a 3-point anchor"),
    ),
}
CLASSES = tuple(BOARDS)


class HardPosition(NamedTuple):
    position_id: str
    klass: str
    description: str
    sign: int    # +1: the board's first side (the one the words describe) on roll; -1: not


def hard_positions() -> list[HardPosition]:
    """Every board with its first side on roll, then with the second side on roll."""
    found = []
    for klass, boards in BOARDS.items():
        for first, second, words in boards:
            position = Position.from_points(first, second)
            found.append(HardPosition(position.position_id, klass, f"{words}; it is on roll", 1))
            found.append(HardPosition(position.swapped().position_id, klass,
                                      f"{words}; the other side is on roll", -1))
    return found


def _made(row) -> list[bool]:
    return [count >= 2 for count in row[:24]]


def _prime(row, other, _behind_pips: int) -> bool:
    """Five or more of `row`'s points in a row within its 3..11, reaching its 7-point or
    higher (so not a closed home board), an opposing man behind them."""
    made = _made(row)
    for start in range(2, 11):
        length = 0
        while start + length < 11 and made[start + length]:
            length += 1
        # the other side's men on row's points below `start`: other's points 24-start+1..24
        if length >= 5 and start + length > 6 and (
                other[24] or any(other[23 - p] for p in range(start))):
            return True
    return False


def _back_game(row, _other, behind_pips: int) -> bool:
    held = sum(1 for p in range(18, 24) if row[p] >= 2)   # row's 19..24 = other's home
    return held >= 2 and behind_pips >= 50


def _closed_board(row, other, _behind_pips: int) -> bool:
    return sum(_made(row)[:6]) >= 5 and other[24] > 0 and sum(other) == 15


def _contact_bearoff(row, other, _behind_pips: int) -> bool:
    home = sum(row[:6]) == sum(row) and row[24] == 0
    return home and (other[24] > 0 or any(other[18:24]))


CLASS_TESTS = {"prime": _prime, "back_game": _back_game, "closed_board": _closed_board,
               "contact_bearoff": _contact_bearoff}


# The side each class's boards do not name: primed, playing the back game, on the bar against
# the closed board, holding a point against the bear-off. row: that side's, behind_pips: its
# pips less the other's (native/tools/sldata.c's --only defender is the same test).
DEFENDER_TESTS = {
    "prime": lambda row, other, behind_pips: _prime(other, row, -behind_pips),
    "back_game": _back_game,
    "closed_board": lambda row, other, behind_pips: _closed_board(other, row, -behind_pips),
    "contact_bearoff": lambda row, other, behind_pips: _contact_bearoff(other, row, -behind_pips),
}


def defends(position: Position) -> set[str]:
    """The classes whose other side is the position's opponent (the side that just moved,
    in a position after a play)."""
    pips, other_pips = position.pips()
    return {klass for klass, test in DEFENDER_TESTS.items()
            if test(position.opponent, position.mover, other_pips - pips)}


def in_class(klass: str, position: Position) -> bool:
    """The class's test (the module's docstring), for either side of the position."""
    test, (pips, other_pips) = CLASS_TESTS[klass], position.pips()
    return (test(position.mover, position.opponent, pips - other_pips)
            or test(position.opponent, position.mover, other_pips - pips))


# ---- the references: gnubg's rollouts ---------------------------------------------------

_SIX = r"\s+".join([r"([-+]?\d+\.\d+)"] * 3 + ["-"] + [r"([-+]?\d+\.\d+)"] * 3)
GNUBG_RESULT = re.compile(r"Rollout done\. Printing final results\.\s+Current Position:\s+"
                          + _SIX + r"\s+CL\s+([-+]?\d+\.\d+)\s+\[" + _SIX
                          + r"\s+CL\s+([-+]?\d+\.\d+)\]")


def gnubg_part(position_id: str, trials: int, seed: int, threads: int) -> dict:
    """One gnubg rollout of the position (the side on roll before its roll): its five chances
    and cubeless equity with their SEs (fractions, points), the trials and the seed."""
    setup = ["set player 0 human", "set player 1 human", "new game", "set turn 1",
             f"set board {position_id}", f"set rollout trials {trials}",
             f"set rollout seed {seed}", f"set threads {threads}", *SETTINGS]
    t0 = time.perf_counter()
    text = run_gnubg(setup + ["rollout"], 4 * 3600)
    mean, se = read_gnubg(text, position_id)
    return {"seed": seed, "trials": trials, "seconds": round(time.perf_counter() - t0, 1),
            "mean": mean, "se": se}


def read_gnubg(text: str, position_id: str) -> tuple[dict, dict]:
    """gnubg's printed final result as (means, SEs) by FIGURES."""
    match = GNUBG_RESULT.search(text)
    if not match:
        raise SystemExit(f"gnubg gave no rollout result for {position_id}: {text[-300:]!r}")
    v = [float(x) for x in match.groups()]
    # gnubg prints: win, win gammon, win backgammon - lose, lose gammon, lose backgammon, CL
    means = (v[0], v[1], v[2], v[4], v[5], v[6])
    ses = (v[7], v[8], v[9], v[11], v[12], v[13])
    return dict(zip(FIGURES, means, strict=True)), dict(zip(FIGURES, ses, strict=True))


def pooled(parts: list[dict]) -> tuple[int, dict, dict]:
    """(trials, means, SEs) of independent parts pooled by their trials."""
    total = sum(part["trials"] for part in parts)
    mean = {f: sum(p["trials"] * p["mean"][f] for p in parts) / total for f in FIGURES}
    se = {f: math.sqrt(sum((p["trials"] * p["se"][f]) ** 2 for p in parts)) / total
          for f in FIGURES}
    return total, mean, se


class ReferencesError(SystemExit):
    """A references file that cannot be read or is not well-formed (its one-line reason)."""


def _number(value, where: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value):
        raise ReferencesError(f"{where} is not a number: {value!r}")
    return float(value)


def _check_entry(entry, at: str) -> dict:
    if not isinstance(entry, dict):
        raise ReferencesError(f"{at} is not an object")
    for key in ("id", "class", "description", "trials", "mean", "se", "parts"):
        if key not in entry:
            raise ReferencesError(f"{at} has no '{key}'")
    try:
        Position.from_id(entry["id"])
    except Exception as exc:                # noqa: BLE001 - any refusal is the file's fault
        raise ReferencesError(f"{at}: {exc}") from None
    if entry["class"] not in CLASSES:
        raise ReferencesError(f"{at}: class {entry['class']!r} is not one of {CLASSES}")
    if not isinstance(entry["trials"], int) or entry["trials"] < 1:
        raise ReferencesError(f"{at}: trials {entry['trials']!r} is not a positive count")
    for key in ("mean", "se"):
        if not isinstance(entry[key], dict):
            raise ReferencesError(f"{at}: '{key}' is not an object")
        for figure in FIGURES:
            value = _number(entry[key].get(figure), f"{at}: {key} {figure}")
            if key == "se" and value < 0:
                raise ReferencesError(f"{at}: se {figure} is negative")
    return entry


def load_references(path: str = REFERENCES) -> dict[str, dict]:
    """Position ID -> its stored entry; a missing, damaged or incomplete file is refused with
    a one-line reason (ReferencesError, a SystemExit)."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise ReferencesError(f"{path} is missing: make it with --refresh-gnubg") from None
    except (OSError, ValueError) as exc:
        reason = str(exc).splitlines()[0]
        raise ReferencesError(f"{path} cannot be read as JSON: {reason}") from None
    entries = data.get("positions") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ReferencesError(f"{path} has no list of 'positions'")
    found: dict[str, dict] = {}
    for number, entry in enumerate(entries, 1):
        entry = _check_entry(entry, f"{path}: position {number}")
        if entry["id"] in found:
            raise ReferencesError(f"{path}: position {number} ({entry['id']}) is there twice")
        found[entry["id"]] = entry
    counts = {klass: sum(e["class"] == klass for e in found.values()) for klass in CLASSES}
    if len(found) < MIN_POSITIONS or min(counts.values()) < MIN_PER_CLASS:
        raise ReferencesError(f"{path} holds {len(found)} positions ({counts}): the bench wants "
                              f"{MIN_POSITIONS}+, {MIN_PER_CLASS}+ a class")
    return found


def write_json(path: str, data: dict) -> None:
    """The file replaced whole (written aside, then renamed): a stopped run leaves the old."""
    with open(path + ".part", "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
    os.replace(path + ".part", path)


def refresh_gnubg(path: str, seeds: list[int], part_trials: int, threads: int,
                  fresh: bool, classes: list[str]) -> None:
    """The gnubg parts of the classes' positions (in that order), one per seed, saved after
    each part (so a stopped refresh resumes from the file: stored parts of part_trials games
    are kept, whatever their seed; other classes' positions are kept as they are)."""
    settings = {"gnubg": "GNU Backgammon 1.07, gnubg -t", "cube": "cubeless money",
                "commands": list(SETTINGS), "seeds": seeds, "part_trials": part_trials}
    old: dict[str, dict] = {}
    if not fresh and os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            old = {e["id"]: e for e in json.load(fh).get("positions", [])}
    entries = []
    for hard in hard_positions():
        parts = [p for p in old.get(hard.position_id, {}).get("parts", [])
                 if p["trials"] == part_trials or hard.klass not in classes]
        entries.append({"id": hard.position_id, "class": hard.klass,
                        "description": hard.description, "parts": parts})
    for seed, klass in ((seed, klass) for seed in seeds for klass in classes):
        for entry in entries:
            if entry["class"] != klass or any(p["seed"] == seed for p in entry["parts"]):
                continue
            part = gnubg_part(entry["id"], part_trials, seed, threads)
            entry["parts"].append(part)
            print(f"gnubg {entry['id']} seed {seed}: {part['mean']['equity']:+.4f} "
                  f"+/- {part['se']['equity']:.4f} SE, {part['seconds']} s", flush=True)
            write_json(path, {"settings": settings,
                              "positions": [_pooled_entry(e) for e in entries if e["parts"]]})


def _pooled_entry(entry: dict) -> dict:
    trials, mean, se = pooled(entry["parts"])
    return {"id": entry["id"], "class": entry["class"], "description": entry["description"],
            "trials": trials, "mean": mean, "se": se, "parts": entry["parts"]}


# ---- ours against the references --------------------------------------------------------

class Compared(NamedTuple):
    hard: HardPosition
    ours: float          # our rollout's cubeless equity, points
    ours_se: float
    gnubg: float         # gnubg's stored rollout
    gnubg_se: float
    ply0: float          # our net's 0-ply and 2-ply equities (no SE: evaluations)
    ply2: float

    @property
    def diff(self) -> float:
        return self.ours - self.gnubg

    @property
    def diff_se(self) -> float:
        return math.hypot(self.ours_se, self.gnubg_se)


def our_rollout(position: Position, trials: int, seed: int, threads: int) -> tuple[float, float]:
    """(equity, SE) of our cubeless 0-ply rollout with the luck taken out."""
    with Rollout() as rollout:
        answer = rollout.start(position, CUBE_ACTIONS, trials, seed=seed,
                               threads=threads).result()
    equity = answer.candidates[0].equity
    return equity.mean, equity.interval / Z95


def z_text(diff: float, se: float) -> str:
    # gnubg prints four places: below that a difference in SEs means nothing
    return f"{diff / se:+6.1f}" if se >= 1e-4 else "     -"


def weights_digest(path: str | None) -> str:
    with open(path or evaluator.WEIGHTS_PATH, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:16]


def ours_of(hard: HardPosition, trials: int, seed: int, threads: int, digest: str,
            saved: dict[str, dict]) -> dict:
    """Our figures of one position (rollout, SE, 0-ply, 2-ply): the saved ones when they were
    made with these weights, trials and seed, else made now (and added to `saved`)."""
    key = hard.position_id
    old = saved.get(key)
    if old and (old["weights"], old["trials"], old["seed"]) == (digest, trials, seed):
        return old
    position = Position.from_id(key)
    t0 = time.perf_counter()
    equity, se = our_rollout(position, trials, seed, threads)
    saved[key] = {"id": key, "weights": digest, "trials": trials, "seed": seed,
                  "equity": equity, "se": se, "seconds": round(time.perf_counter() - t0, 1),
                  "ply0": evaluator.evaluate(position, 0).equity,
                  "ply2": evaluator.evaluate(position, 2).equity}
    return saved[key]


def load_ours(path: str | None) -> dict[str, dict]:
    try:
        with open(path or "", encoding="utf-8") as fh:
            return {e["id"]: e for e in json.load(fh)["positions"]}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SystemExit(f"{path} is not a file of our rollouts: {exc}") from None


def print_class(klass: str, rows: list[Compared]) -> bool:
    """The class's figures, one a line, each difference for the side the boards' words name
    (the primer, the side bearing in against a back game, the closed board's owner, the side
    bearing off; on roll or not); True when its mean difference is within GOAL_SE."""
    n = len(rows)
    mean = sum(r.hard.sign * r.diff for r in rows) / n
    se = math.sqrt(sum(r.diff_se ** 2 for r in rows)) / n
    within = abs(mean) <= GOAL_SE * se
    print(f"{klass}_positions: {n}")
    print(f"{klass}_rollout_mean_diff: {mean:+.4f} points (SE {se:.4f}, z {z_text(mean, se)})")
    print(f"{klass}_rollout_mean_abs_diff: {sum(abs(r.diff) for r in rows) / n:.4f} points")
    for name, value in (("0ply", lambda r: r.ply0), ("2ply", lambda r: r.ply2)):
        diffs = [r.hard.sign * (value(r) - r.gnubg) for r in rows]
        print(f"{klass}_{name}_mean_diff: {sum(diffs) / n:+.4f} points (vs gnubg's rollout)")
        print(f"{klass}_{name}_mean_abs_diff: {sum(map(abs, diffs)) / n:.4f} points")
    print(f"class {klass} within {GOAL_SE:g} SE: {'yes' if within else 'no'}")
    return within


def run(references: dict[str, dict], hards: list[HardPosition], trials: int | None, seed: int,
        threads: int, weights: str | None = None, ours_path: str | None = None) -> bool:
    """Every position compared, then every class; True when every class is within GOAL_SE.
    ours_path: a file of our figures, read where they fit and written after each position."""
    missing = [h.position_id for h in hards if h.position_id not in references]
    if missing:
        raise ReferencesError(f"no gnubg reference for {len(missing)} positions (first "
                              f"{missing[0]}): run --refresh-gnubg")
    digest, saved = weights_digest(weights), load_ours(ours_path)
    print("each row: the side on roll's equities; side +1: the board's first side on roll")
    print(f"{'position':14} {'class':15} {'side':>4} {'ours':>8} {'SE':>6} {'gnubg':>8} {'SE':>6} "
          f"{'diff':>8} {'SE':>6} {'z':>6} {'0-ply':>8} {'2-ply':>8}")
    rows, games, seconds = [], 0, 0.0
    for hard in hards:
        reference = references[hard.position_id]
        mine = ours_of(hard, trials or reference["trials"], seed, threads, digest, saved)
        if ours_path:
            write_json(ours_path, {"positions": list(saved.values())})
        games, seconds = games + mine["trials"], seconds + mine["seconds"]
        row = Compared(hard, mine["equity"], mine["se"], reference["mean"]["equity"],
                       reference["se"]["equity"], mine["ply0"], mine["ply2"])
        rows.append(row)
        print(f"{hard.position_id:14} {hard.klass:15} {hard.sign:+4d} {row.ours:+.4f} "
              f"{row.ours_se:.4f} {row.gnubg:+.4f} {row.gnubg_se:.4f} {row.diff:+.4f} "
              f"{row.diff_se:.4f} {z_text(row.diff, row.diff_se)} {row.ply0:+.4f} "
              f"{row.ply2:+.4f}", flush=True)
    print(f"our_rollout_games: {games} games")
    print(f"our_rollout_wall_speed: {games / max(seconds, 1e-9) / threads:.1f} games/s a "
          f"thread, by the wall clock on the machine as it was (the 0- and 2-ply included)")
    verdicts = [print_class(k, [r for r in rows if r.hard.klass == k])
                for k in CLASSES if any(r.hard.klass == k for r in rows)]
    print(f"all classes within {GOAL_SE:g} SE: {'yes' if all(verdicts) else 'no'}")
    return all(verdicts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--references", default=REFERENCES)
    ap.add_argument("--refresh-gnubg", action="store_true")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--part-trials", type=int, default=648)
    ap.add_argument("--threads", type=int, default=default_threads())
    ap.add_argument("--weights", default=None,
                    help="our weights file (default: the shipped native/evaluator.wts)")
    ap.add_argument("--trials", type=int, default=None,
                    help="our rollout's trials (default: each reference's own)")
    ap.add_argument("--seed", type=int, default=1, help="our rollout's seed")
    ap.add_argument("--ours", default=None,
                    help="a JSON file of our figures: reused where the weights, trials and "
                         "seed match, written after each position (a stopped run resumes)")
    ap.add_argument("--classes", nargs="+", choices=CLASSES, default=list(CLASSES),
                    help="the classes to run (a refresh: to make, in this order)")
    ap.add_argument("--limit", type=int, default=None, help="first N positions of each class")
    args = ap.parse_args(argv)
    if args.refresh_gnubg:
        refresh_gnubg(args.references, args.seeds, args.part_trials, args.threads, args.fresh,
                      args.classes)
        return 0
    references = load_references(args.references)
    games = evaluator.load_weights(args.weights)
    hards = [h for h in hard_positions() if h.klass in args.classes]
    if args.limit is not None:
        hards = [h for k in args.classes for h in [x for x in hards if x.klass == k][:args.limit]]
    print(f"weights: {args.weights or evaluator.WEIGHTS_PATH} ({games} self-play games)")
    print(f"references: {os.path.relpath(args.references)}\nthreads: {args.threads}\n"
          f"our_seed: {args.seed}")
    return 0 if run(references, hards, args.trials, args.seed, args.threads, args.weights,
                    args.ours) else 1


if __name__ == "__main__":
    sys.exit(main())
