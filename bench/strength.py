"""Strength benchmark (not a test): duplicate-dice cubeless money games between two players,
each one of our levels 1..5 (level5p2/level5p3: level 5 with its deepest ply set, so the
two searches can meet; level5rTxH: level 5 rolling out its closest candidates T times, H
plies deep), pubeval or gnubg0 (GNU Backgammon's 0-ply net; gnubg1 and gnubg2 its own 1- and
2-ply search), all from the PyPI package gnubg-nn, an optional bench dependency used here
only, never in the game. Each dice sequence is played twice with the sides swapped. Prints
one figure a line: points per game for the first player with a 95% interval, the same with
each roll's luck taken out (a second, narrower estimate of the same figure), win and gammon
rates, time per move. Run from the repo root with the python3 that has gnubg-nn:
    python3 bench/strength.py level5 gnubg0 --games 2000 --jobs 2"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from game.model.search_settings import SearchSettings  # noqa: E402
from native import ffi, lib  # noqa: E402

BOARD_LEN = 50
MAX_MOVES = 2000   # a game that long is stuck: scored as unfinished (0)


class OurLevel:
    """One of our levels; plies 2 or 3 is level 5's deepest ply in its own search settings
    (so level5p2 and level5p3 can meet in one process), 0 the default; rollouts (trials,
    horizon) its rollouts of its closest candidates (None: the default, none); work_budget
    (positions, 0: the default) its work budget. Each player's settings go with its calls."""
    def __init__(self, level: int, plies: int = 0, rollouts: tuple[int, int] | None = None):
        self.level = level
        self.plies = plies
        self.rollouts = rollouts
        self.name = f"level{level}" + (f"p{plies}" if plies else "")
        if rollouts:
            self.name += f"r{rollouts[0]}x{rollouts[1]}"
        self.board = ffi.new("int8_t[]", BOARD_LEN)
        self.plays = ffi.new("bg_play[]", 1)
        self.ranking = ffi.new("bg_ranking *", {"plays": self.plays, "max_plays": 1})
        self.set_work_budget(0)

    def set_work_budget(self, positions: int) -> None:
        """The work budget of this player's search (0: the default)."""
        fields: dict[str, int] = {}
        if self.plies:
            fields["plies"] = self.plies
        if self.rollouts:
            fields["roll_trials"], fields["roll_horizon_plies"] = self.rollouts
        if positions:
            fields["work_budget_positions"] = positions
        self.search = SearchSettings(**fields)
        self.c_search = self.search.as_c()

    def choose(self, board: list[int], die1: int, die2: int) -> list[int]:
        self.board[0:BOARD_LEN] = board
        n = lib.bg_rank_plays(self.board, die1, die2, self.level, ffi.NULL, self.c_search,
                              self.ranking)
        if n < 1:
            raise RuntimeError(f"bg_rank_plays failed with {n} on {board} {die1}{die2}")
        return list(self.plays[0].board)


class PubEval:
    """pubeval's choice, applied to our board layout (gnubg lists the side on roll second)."""
    name = "pubeval"

    def __init__(self):
        self.best = _gnubg_module(self.name).pub_best_move

    def choose(self, board: list[int], die1: int, die2: int) -> list[int]:
        me, op = list(board[:25]), list(board[25:])
        move = self.best([op, me], die1, die2)
        for i in range(0, len(move), 2):
            frm, to = move[i], move[i + 1]
            me[frm] -= 1
            if to >= 0:
                me[to] += 1
                if op[23 - to] == 1:
                    op[23 - to] = 0
                    op[24] += 1
        return me + op


class GnubgRejected(RuntimeError):
    """gnubg-nn refused a position or answered with a play our rules do not allow."""


def _gnubg_module(player: str):
    try:
        import gnubg_nn
    except ImportError:
        raise SystemExit(f"{player} needs the PyPI package gnubg-nn (an optional bench "
                         f"dependency): pip install gnubg-nn") from None
    return gnubg_nn


def apply_gnubg_move(board: list[int], move) -> list[int]:
    """Our board after a gnubg-nn move: (from, to) pairs on the mover's points 1..24, from 25
    = the bar, to 0 = borne off."""
    me, op = list(board[:25]), list(board[25:])
    for frm, to in move:
        if not (1 <= frm <= 25 and 0 <= to < frm) or me[frm - 1] < 1:
            raise ValueError(f"step {frm}/{to}")
        me[frm - 1] -= 1
        if to > 0:
            me[to - 1] += 1
            if op[24 - to] == 1:
                op[24 - to] = 0
                op[24] += 1
    return me + op


class Gnubg0:
    """GNU Backgammon's choice (cubeless money) through gnubg-nn: its 0-ply net, or with
    plies 1 or 2 its own search (gnubg1, gnubg2: a yardstick for what two plies give its net).
    Its answer is checked against our legal plays, and a position it refuses or a play our
    rules do not allow stops the run with the position ID and the dice (GnubgRejected), never
    a silent wrong game."""

    def __init__(self, plies: int = 0):
        self.plies = plies
        self.name = f"gnubg{plies}"
        self.gnubg = _gnubg_module(self.name)
        self.c_board = ffi.new("int8_t[]", BOARD_LEN)
        self.plays = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * BOARD_LEN)
        self.steps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_MAX_STEPS * lib.BG_STEP_FIELDS)
        self.nsteps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS)

    def _where(self, board, die1, die2) -> str:
        from game.model.position import Position
        try:
            pid = Position(tuple(board)).position_id
        except Exception:   # a board that is not even a position: show the counts
            pid = f"board {list(board)}"
        return f"position {pid}, dice {die1}{die2}"

    def choose(self, board: list[int], die1: int, die2: int) -> list[int]:
        self.c_board[0:BOARD_LEN] = board
        code = lib.bg_validate(self.c_board)
        if code != 0:
            raise GnubgRejected(f"{self.name} cannot be asked about "
                                f"{self._where(board, die1, die2)}: not a possible position "
                                f"(BG_POS code {-code})")
        try:
            move = self.gnubg.best_move([list(board[25:]), list(board[:25])], die1, die2,
                                        self.plies)
        except Exception as exc:   # gnubg-nn raises its own types for boards it refuses
            raise GnubgRejected(f"gnubg-nn rejected {self._where(board, die1, die2)}: "
                                f"{type(exc).__name__}: {exc}") from None
        try:
            after = apply_gnubg_move(board, move)
        except (ValueError, TypeError, IndexError) as exc:
            raise GnubgRejected(f"gnubg-nn answered {move!r} for "
                                f"{self._where(board, die1, die2)}, which cannot be made "
                                f"({exc})") from None
        if list(after) not in self.legal_afters(board, die1, die2):
            raise GnubgRejected(f"gnubg-nn answered {move!r} for "
                                f"{self._where(board, die1, die2)}, which is not a legal play")
        return after

    def legal_afters(self, board: list[int], die1: int, die2: int) -> list[list[int]]:
        """The board after each of our legal plays of the roll (this player's buffers)."""
        self.c_board[0:BOARD_LEN] = board
        n = lib.bg_legal_plays(self.c_board, die1, die2, self.plays, self.steps, self.nsteps,
                               lib.BG_MAX_PLAYS)
        return [list(self.plays[i * BOARD_LEN:(i + 1) * BOARD_LEN]) for i in range(n)]


def make_player(name: str):
    if name == "pubeval":
        return PubEval()
    if name in ("gnubg0", "gnubg1", "gnubg2"):
        return Gnubg0(int(name[-1]))
    if name.startswith("level") and name[5:].isdigit() and 1 <= int(name[5:]) <= 5:
        return OurLevel(int(name[5:]))
    if name in ("level5p2", "level5p3"):
        return OurLevel(5, int(name[-1]))
    rolled = re.fullmatch(r"level5r(\d+)x(\d+)", name)
    if rolled and 1 <= int(rolled[1]) <= 3600 and 1 <= int(rolled[2]) <= 50:
        return OurLevel(5, 0, (int(rolled[1]), int(rolled[2])))
    raise SystemExit(f"unknown player {name!r}: level1..level5, level5p2 or level5p3 (level 5 "
                     f"searching 2 or 3 plies deep), level5rTxH (level 5 rolling out its "
                     f"closest candidates T times, H plies deep), pubeval or gnubg0 (gnubg1, "
                     f"gnubg2: gnubg's own 1- and 2-ply search)")


def make_players(names, weights: str, net: bool = False):
    """The named players, with our weights loaded when one of our net levels is among them
    (or net: the luck is judged by it)."""
    players = [make_player(n) for n in names]
    if net or any(isinstance(p, OurLevel) and p.level > 1 for p in players):
        from game.model.evaluator import load_weights
        load_weights(weights)
    return players


class Luck:
    """Each roll's luck for the side that threw it, judged by our 0-ply net: the equity of the
    roll's best 0-ply play less the mean of that over the rolls that could have come (the 36
    of a turn, which is exactly bg_evaluate at 1-ply; the 30 non-doubles of the opening roll).
    Whatever the net, a roll's luck has mean zero given the game so far, so a game's points
    less the luck of both sides keep their expected value and (the better the net judges)
    spread less: the same ppg measured with fewer games. Not a player."""

    def __init__(self):
        self.board = ffi.new("int8_t[]", BOARD_LEN)
        self.plays = ffi.new("bg_play[]", 1)
        self.ranking = ffi.new("bg_ranking *", {"plays": self.plays, "max_plays": 1})
        self.probs = ffi.new("float[]", lib.BG_N_PROBS)
        self.new_game()
        lib.bg_start(self.board)
        start = list(self.board[0:BOARD_LEN])
        self.opening = {(d1, d2): self._best(start, d1, d2)
                        for d1 in range(1, 7) for d2 in range(1, 7) if d1 != d2}
        self.opening_mean = statistics.fmean(self.opening.values())

    def _best(self, board: list[int], die1: int, die2: int) -> float:
        self.board[0:BOARD_LEN] = board
        n = lib.bg_rank_plays(self.board, die1, die2, 3, ffi.NULL, ffi.NULL, self.ranking)
        if n < 1:
            raise RuntimeError(f"bg_rank_plays failed with {n} judging the luck of {die1}{die2}")
        return self.plays[0].equity

    def new_game(self) -> None:
        """Both sides' luck back to zero, for a game starting."""
        self.sums = [0.0, 0.0]

    def roll(self, side: int, board: list[int], die1: int, die2: int, opening: bool) -> None:
        """Adds the luck of this roll to sums[side] (board: the thrower on roll, row 0)."""
        if opening:
            self.sums[side] += self.opening[(die1, die2)] - self.opening_mean
            return
        self.board[0:BOARD_LEN] = board
        code = lib.bg_evaluate(self.board, 1, ffi.NULL, self.probs)
        if code < 0:
            raise RuntimeError(f"bg_evaluate failed with {code} judging the luck")
        mean = lib.bg_equity(self.probs)
        self.sums[side] += self._best(board, die1, die2) - mean

    def against_first(self) -> float:
        """The luck of the game so far for players[0], net of players[1]'s."""
        return self.sums[0] - self.sums[1]


def swap(board: list[int]) -> list[int]:
    return board[25:] + board[:25]


def play_game(players, seed: int, first: int, times, luck: Luck | None = None):
    """One game; players[first] moves first. Returns points won by players[0] (+/-1..3). With
    a Luck, its sums are this game's luck of each side when it returns."""
    rng = random.Random(seed)
    if luck:
        luck.new_game()
    board = ffi.new("int8_t[]", BOARD_LEN)
    lib.bg_start(board)
    pos = list(board[0:BOARD_LEN])
    side = first
    while True:
        die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
        if die1 != die2:
            break
    for move in range(MAX_MOVES):
        if luck:
            luck.roll(side, pos, die1, die2, move == 0)
        t0 = time.perf_counter()
        after = players[side].choose(pos, die1, die2)
        times[side].append(time.perf_counter() - t0)
        board[0:BOARD_LEN] = after
        result = lib.bg_game_result(board)
        if result:
            pts = abs(result)
            return pts if side == 0 else -pts
        pos = swap(after)
        side ^= 1
        die1, die2 = rng.randint(1, 6), rng.randint(1, 6)
    return 0


def run_pairs(args):
    """Plays the pairs of these seeds: (pairs, luck-adjusted pairs or None, move times, the
    error that stopped the run or None)."""
    names, seeds, work_budget, deadline, weights, with_luck = args
    players = make_players(names, weights, net=with_luck)
    for player in players:
        if work_budget and isinstance(player, OurLevel):
            player.set_work_budget(work_budget)
    luck = Luck() if with_luck else None
    times = ([], [])
    results, adjusted = [], [] if luck else None
    for seed in seeds:
        if deadline and time.time() > deadline:
            break
        try:
            pair, fair = [], []
            for first in (0, 1):
                pair.append(play_game(players, seed, first, times, luck))
                if luck:
                    fair.append(round(pair[-1] - luck.against_first(), 6))
        except GnubgRejected as exc:   # the pairs played so far are kept and reported
            return results, adjusted, times, f"pair seed {seed}: {exc}"
        results.append(tuple(pair))
        if luck:
            adjusted.append(tuple(fair))
    return results, adjusted, times, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("player_a", nargs="?")
    ap.add_argument("player_b", nargs="?")
    ap.add_argument("--games", type=int, default=400, help="games (rounded up to pairs)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--work-budget", type=int, default=0,
                    help="level-5 work budget in positions evaluated (0: the default)")
    ap.add_argument("--weights", default=None,
                    help="weights file for our levels (default: the shipped native/evaluator.wts)")
    ap.add_argument("--max-minutes", type=float, default=0,
                    help="stop starting new pairs after this long (the games played are reported)")
    ap.add_argument("--save", default=None,
                    help="also write each pair's two results (first player's points) to this "
                         "JSON file")
    ap.add_argument("--no-luck", action="store_true",
                    help="do not judge each roll's luck (no luck-adjusted figure; a little faster)")
    ap.add_argument("--compare", nargs=2, metavar=("A_JSON", "B_JSON"), default=None,
                    help="pair by pair, two --save runs of one seed against the same opponent "
                         "(the same dice): the first player's ppg in A less that in B")
    ap.add_argument("--pool", nargs="+", metavar="JSON", default=None,
                    help="report on pairs saved by earlier --save runs together (no games played)")
    args = ap.parse_args()
    if args.compare:
        return compare_report(*args.compare)
    if not args.player_b:
        ap.error("name two players (or --compare two saved runs)")
    if args.work_budget and not lib.BG_BUDGET_MIN <= args.work_budget <= lib.BG_BUDGET_MAX:
        ap.error(f"--work-budget is 0 (the default) or {lib.BG_BUDGET_MIN:,} to "
                 f"{lib.BG_BUDGET_MAX:,} positions, not {args.work_budget:,}")
    if args.pool:
        return pool_report(args.pool, (args.player_a, args.player_b))
    pairs = (args.games + 1) // 2
    seeds = [args.seed * 1_000_003 + i for i in range(pairs)]
    chunks = [seeds[i::args.jobs] for i in range(args.jobs)]
    names = (args.player_a, args.player_b)
    t0 = time.perf_counter()
    deadline = time.time() + 60 * args.max_minutes if args.max_minutes else 0
    work = [(names, c, args.work_budget, deadline, args.weights, not args.no_luck)
            for c in chunks if c]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            parts = pool.map(run_pairs, work)
    else:
        parts = [run_pairs(w) for w in work]
    wall = time.perf_counter() - t0
    # chunk j played pairs j, j + jobs, j + 2 * jobs ...: put them back in pair order, so a
    # saved run lines up pair by pair with any other run of the seed whatever its --jobs
    order = sorted((j + k * args.jobs, j, k) for j, (part, _, _, _) in enumerate(parts)
                   for k in range(len(part)))
    index = [i for i, _, _ in order]
    results = [parts[j][0][k] for _, j, k in order]
    adjusted = None if args.no_luck else [parts[j][1][k] for _, j, k in order]
    times = ([t for _, _, tm, _ in parts for t in tm[0]],
             [t for _, _, tm, _ in parts for t in tm[1]])
    errors = [err for _, _, _, err in parts if err]
    if args.save:
        saved = {"players": names, "seed": args.seed, "pair_index": index, "pairs": results}
        if adjusted is not None:
            saved["luck_adjusted_pairs"] = adjusted
        with open(args.save, "w") as f:
            json.dump(saved, f)
    if report(names, results, adjusted):
        for side, name in enumerate(names):
            ts = times[side]
            if ts:
                print(f"move_time_{name}_mean: {statistics.fmean(ts) * 1000:.2f} ms")
                print(f"move_time_{name}_median: {statistics.median(ts) * 1000:.2f} ms")
                print(f"move_time_{name}_max: {max(ts) * 1000:.2f} ms")
    print(f"wall_time: {wall:.1f} s")
    if errors:
        for err in errors:
            print(f"stopped: {err}", file=sys.stderr)
        raise SystemExit(f"{len(errors)} job(s) stopped early on a position gnubg-nn rejected; "
                         f"the {len(results)} pairs finished before are reported above")


def pool_report(paths, names):
    """Pairs saved by --save runs (independent seeds, the same two players) as one sample."""
    results, adjusted = [], []
    for path in paths:
        with open(path) as f:
            saved = json.load(f)
        if tuple(saved["players"]) != tuple(names):
            raise SystemExit(f"{path} holds {saved['players']}, not {list(names)}")
        results += [tuple(pair) for pair in saved["pairs"]]
        fair = saved.get("luck_adjusted_pairs")
        if adjusted is not None and fair is not None and len(fair) == len(saved["pairs"]):
            adjusted += [tuple(pair) for pair in fair]
        else:
            adjusted = None   # a chunk without the luck: the raw figures alone
        print(f"pooled: {path} seed {saved['seed']}, {len(saved['pairs'])} pairs"
              + ("" if fair is not None else " (no luck-adjusted results)"))
    report(names, results, adjusted)


def compare_report(path_a: str, path_b: str) -> None:
    """Two --save runs on the same dice (one seed, the same second player): the difference of
    their first players' results pair by pair, raw and with the luck taken out, over the pairs
    both finished. The shared dice make the difference far tighter than two separate runs."""
    runs = []
    for path in (path_a, path_b):
        with open(path) as f:
            runs.append(json.load(f))
    a, b = runs
    if a["seed"] != b["seed"]:
        raise SystemExit(f"{path_a} has seed {a['seed']} and {path_b} seed {b['seed']}: "
                         f"not the same dice")
    if a["players"][1] != b["players"][1]:
        raise SystemExit(f"{path_a} plays against {a['players'][1]} and {path_b} against "
                         f"{b['players'][1]}: not the same opponent")
    print(f"players: {a['players'][0]} less {b['players'][0]}, each vs {a['players'][1]}, "
          f"seed {a['seed']}")
    old = [path for path, run in ((path_a, a), (path_b, b)) if "pair_index" not in run]
    if old:   # saved before runs kept their pair numbers: the order is the one they were saved in
        print(f"pairing: by position ({', '.join(old)} without pair_index: right only if both "
              f"runs used the same --jobs and --games)")
    for key, label in (("pairs", "ppg_difference"),
                       ("luck_adjusted_pairs", "ppg_difference_luck_adjusted")):
        if key not in a or key not in b:
            continue
        common = _pairs_in_common(a, b, key)
        if len(common) < 2:
            raise SystemExit("fewer than two pairs in common")
        diff, half, _ = _mean_and_half([(x + y) / 2 - (u + v) / 2
                                        for (x, y), (u, v) in common])
        print(f"{label}: {diff:+.3f} [{diff - half:+.3f}, {diff + half:+.3f}] points per game "
              f"({2 * len(common)} games each)")


def _pairs_in_common(a: dict, b: dict, key: str) -> list:
    """[(a's pair, b's pair)] on the same dice: matched by pair number where both runs saved
    them, else by position."""
    if "pair_index" in a and "pair_index" in b:
        theirs = dict(zip(b["pair_index"], b[key], strict=True))
        return [(pair, theirs[i]) for i, pair in zip(a["pair_index"], a[key], strict=True)
                if i in theirs]
    n = min(len(a[key]), len(b[key]))
    return list(zip(a[key][:n], b[key][:n], strict=True))


def _mean_and_half(values) -> tuple[float, float, float]:
    """Mean, half the 95% interval and standard deviation of per-pair means."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan"), float("nan")
    sd = statistics.stdev(values)
    return mean, 1.96 * sd / math.sqrt(len(values)), sd


def report(names, results, adjusted=None) -> bool:
    """The figures of duplicate-dice pairs (first player's points, and the same with the luck
    taken out when given); False when none."""
    games = [g for pair in results for g in pair]
    pair_means = [(a + b) / 2 for a, b in results]
    if not pair_means:
        print(f"players: {names[0]} vs {names[1]}")
        print("games: 0 (the time limit came first)")
        return False
    ppg, half, sd = _mean_and_half(pair_means)
    n = len(games)
    print(f"players: {names[0]} vs {names[1]}")
    print(f"games: {n} ({len(results)} duplicate-dice pairs)")
    print(f"ppg_{names[0]}: {ppg:+.3f} points per game")
    print(f"ppg_95ci: [{ppg - half:+.3f}, {ppg + half:+.3f}] points per game")
    print(f"pair_mean_sd: {sd:.4f} points")
    if adjusted:
        fair, fair_half, fair_sd = _mean_and_half([(a + b) / 2 for a, b in adjusted])
        print(f"ppg_luck_adjusted_{names[0]}: {fair:+.3f} points per game")
        print(f"ppg_luck_adjusted_95ci: [{fair - fair_half:+.3f}, {fair + fair_half:+.3f}] "
              f"points per game")
        print(f"pair_mean_sd_luck_adjusted: {fair_sd:.4f} points")
    print(f"win_rate_{names[0]}: {sum(g > 0 for g in games) / n:.3f}")
    print(f"gammon_rate_{names[0]}_wins: {sum(g >= 2 for g in games) / n:.3f} of games")
    print(f"gammon_rate_{names[0]}_losses: {sum(g <= -2 for g in games) / n:.3f} of games")
    print(f"backgammons_{names[0]}_wins: {sum(g >= 3 for g in games) / n:.3f} of games")
    print(f"unfinished_games: {sum(g == 0 for g in games)}")
    return True


if __name__ == "__main__":
    main()
