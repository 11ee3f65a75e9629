"""Disputed plays (part of a benchmark, not a test): where our review of a match and GNU
Backgammon's 2-ply analysis of it charge a play differently, gnubg's own cubeful rollouts
decide. For each play charged GAP EMG or more apart (the widest first, at most `most` a
player) it sets the position up in gnubg at the mover's score and cube, asks its 2-ply `hint`
(whose error for the play made should be the analysis's: that checks the set-up), and rolls
out, cubefully at that score, the play made, our best and gnubg's best. Not the review bench
itself, which runs it and judges its goals again with these rollouts:
python bench/review_vs_gnubg.py --keep FOLDER --disputes N (a kept match's gnubg work is
reused)."""

import os
import re
import sys
from collections import Counter
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cube_vs_gnubg import match_id  # noqa: E402
from game.analysis.verdicts import MoveReview  # noqa: E402
from game.model import rules  # noqa: E402
from game.model.match_terms import MatchTerms  # noqa: E402
from game.model.record import format_play  # noqa: E402
from rollout import run_gnubg  # noqa: E402

# a rollout's final figures: five chances, the cubeless and the cubeful equity, then their SEs
ROLLED = re.compile(r"Rollout done\. Printing final results\.\s+Current Position:\s+"
                    r"(?:[-+]?\d+\.\d+\s+){3}-\s+(?:[-+]?\d+\.\d+\s+){3}CL\s+[-+]?\d+\.\d+\s+"
                    r"CF\s+([-+]?\d+\.\d+)\s+\[(?:[-+]?\d+\.\d+\s+){3}-\s+(?:[-+]?\d+\.\d+\s+){3}"
                    r"CL\s+[-+]?\d+\.\d+\s+CF\s+([-+]?\d+\.\d+)\]")
# one play of a 2-ply hint: its rank, its words and its cubeful equity
GAP = 0.03          # EMG: plays charged this far apart are disputed
MOST = 6            # disputes rolled out a player, the widest first
TRIALS = 648        # games of each of gnubg's rollouts
# gnubg's rollout defaults (cubeful, 0-ply plays, variance reduction, quasi-random dice), but
# the cube turned at 0 plies inside them, not 2: a third of the time
ROLLOUT_SETTINGS = ("set rollout cubedecision plies 0",)
HINTED = re.compile(r"(\d+)\.\s+Cubeful \d-ply\s+(.+?)\s+Eq\.:\s+([-+]?\d+\.\d+)")


def set_up(terms: MatchTerms, on_roll_is_mover: bool) -> list[str]:
    """gnubg commands for the mover's `terms` as the review bench's matches are played (no
    Jacoby rule, no beavers): gnubg's player 1 is the mover, player 0 its opponent; the side
    on roll as asked (cube_vs_gnubg.match_id)."""
    return ["set jacoby off", "set beavers 0",
            f"set matchid {match_id(terms, 1 if on_roll_is_mover else 0)}"]


def signature(words: str) -> tuple:
    """A play's net movement, whatever way its words are written: the points men leave, the
    points they reach, the points hit ("13/7 7/1*", "13/7/1*" and "13/1*" are one play). A
    point is hit once a turn at most, so gnubg's "bar/21*(2)" is our "bar/21* bar/21"."""
    left, reached, hits = Counter(), Counter(), set()
    for part in words.split():
        times = 1
        found = re.fullmatch(r"(.+)\((\d)\)", part)
        if found:
            part, times = found.group(1), int(found.group(2))
        points = part.split("/")
        for point in points[1:]:
            if point.endswith("*"):
                hits.add(point.rstrip("*"))
        left[points[0]] += times
        reached[points[-1].rstrip("*")] += times
    through = left & reached
    return (tuple(sorted((left - through).items())), tuple(sorted((reached - through).items())),
            tuple(sorted(hits)))


def play_named(item: MoveReview, words: str):
    """The legal play of the item's roll that gnubg's `words` name, or None."""
    wanted = signature(words)
    found = [p for p in rules.legal_plays(item.before, item.dice)
             if signature(format_play(p.steps)) == wanted]
    return found[0] if len(found) == 1 else None


@dataclass
class Dispute:
    item: MoveReview
    ours: float                   # our charge (EMG)
    gnubg: float                  # gnubg 2-ply's, from its analysis
    hinted: float | None = None   # gnubg 2-ply's again, from its hint in our set-up
    rolled: float | None = None   # gnubg's cubeful rollout's (EMG)
    rolled_se: float = 0.0        # the SE of the play made's and the best's difference
    note: str = ""


# gnubg 2-ply for its hint, as its analysis judges; without a move filter set, gnubg 1.07's
# hint judged some positions at 0 plies (session 53: 23YDQAim7wEAAA 63's hint said 0.504
# where its analysis and its rollout said 0.611)
HINT_SETTINGS = ("set evaluation chequerplay evaluation plies 2",
                 "set evaluation chequerplay evaluation cubeful on",
                 "set evaluation movefilter 2 0 20 0 2.0",
                 "set evaluation movefilter 2 1 -1 0 0.0")


def gnubg_hint(item: MoveReview) -> str:
    lines = ["set player 0 human", "set player 1 human", "set output mwc off",
             *set_up(item.terms, True), f"set board {item.before.position_id}",
             f"set dice {item.dice[0]} {item.dice[1]}", *HINT_SETTINGS, "hint 20"]
    return run_gnubg(lines, 600)


def judge(dispute: Dispute, trials: int, seed: int, threads: int) -> None:
    """gnubg's 2-ply hint and cubeful rollouts of the dispute's plays (in place)."""
    item = dispute.item
    said = gnubg_hint(item)
    hints = [(int(n), words, float(eq)) for n, words, eq in HINTED.findall(said)]
    if not hints:
        dispute.note = "gnubg gave no hint"
        return
    named = [(play_named(item, words), equity) for _, words, equity in hints]
    by_after = {play.after: equity for play, equity in named if play is not None}
    played = item.played.play.after
    if played in by_after:
        dispute.hinted = max(0.0, hints[0][2] - by_after[played])
    gnubg_best = named[0][0]
    afters = [played, item.best.play.after]
    if gnubg_best is None:            # its claim cannot be rolled out: the dispute stays
        dispute.note = f"gnubg's best {hints[0][1]!r} not matched; not rolled out"   # open
        return
    afters.append(gnubg_best.after)
    afters = list(dict.fromkeys(afters))
    lines = ["set player 0 human", "set player 1 human", "set output mwc off",
             f"set rollout trials {trials}", f"set rollout seed {seed}", f"set threads {threads}",
             *ROLLOUT_SETTINGS]
    for after in afters:
        lines += [*set_up(item.terms, False), f"set board {after.swapped().position_id}",
                  "rollout"]
    said = run_gnubg(lines, 4 * 3600)
    rolled = ROLLED.findall(said)
    if len(rolled) != len(afters):
        dispute.note = f"gnubg rolled out {len(rolled)} of {len(afters)} plays"
        return
    values = [(-float(cf), float(se)) for cf, se in rolled]   # the mover's, not its opponent's
    best = max(range(len(values)), key=lambda k: values[k][0])
    dispute.rolled = values[best][0] - values[0][0]
    dispute.rolled_se = (values[best][1] ** 2 + values[0][1] ** 2) ** 0.5 if best else 0.0


def find(reviews: list, theirs: list, gap: float, most: int) -> list[Dispute]:
    """The plays of our `reviews` and gnubg's analysis `theirs` (review_vs_gnubg.gnubg_moves)
    charged `gap` or more apart, at most `most` a player, the widest first (a game whose move
    lists differ is left out, as the review bench leaves it)."""
    found = []
    for g_moves, review in zip(theirs, reviews, strict=False):
        items = [i for i in review.items if i.kind == "move"]
        if len(items) != len(g_moves):
            continue
        for (_, g_err, _), item in zip(g_moves, items, strict=True):
            if not item.forced and abs(item.loss - (g_err or 0.0)) >= gap:
                found.append(Dispute(item, item.loss, g_err or 0.0))
    kept = []
    for side in reviews[0].sides if reviews else ():
        mine = sorted((d for d in found if d.item.side == side),
                      key=lambda d: -abs(d.ours - d.gnubg))
        kept += mine[:most]
    return kept


def describe(dispute: Dispute, name: str) -> str:
    item, check = dispute.item, dispute.item.check
    how = ("quick" if check is None else f"{check.games} games" if check.games
           else f"{check.ply}-ply")
    rolled = ("none" if dispute.rolled is None
              else f"{dispute.rolled:.3f} +/- {1.96 * dispute.rolled_se:.3f}")
    hinted = "?" if dispute.hinted is None else f"{dispute.hinted:.3f}"
    return (f"dispute {name} {item.before.position_id} {item.dice[0]}{item.dice[1]} "
            f"{item.played.words!r}: ours {dispute.ours:.3f} EMG ({how}) | gnubg 2-ply "
            f"{dispute.gnubg:.3f} EMG (hint {hinted}) | gnubg rollout {rolled} EMG "
            f"{dispute.note}").rstrip()


def arbitrate(reviews: list, theirs: list, names: dict, gap: float, most: int, trials: int,
              seed: int = 1, threads: int = 2) -> tuple[list[str], dict]:
    """Every dispute judged by gnubg's rollouts: the lines to print, a dispute each, and per
    player name (`names`: side -> name) how much gnubg's rollouts move its total from gnubg
    2-ply's: {name: (disputes rolled out, the rollouts' charges less 2-ply's)}."""
    lines, moved = [], {}
    found = find(reviews, theirs, gap, most)
    for dispute in found:
        judge(dispute, trials, seed, threads)
        lines.append(describe(dispute, names[dispute.item.side]))
    for side, name in names.items():
        mine = [d for d in found if d.item.side == side and d.rolled is not None]
        moved[name] = (len(mine), sum(d.rolled - d.gnubg for d in mine))
    return lines, moved
