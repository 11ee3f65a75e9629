"""The command line of rebuild_net.py: the run's seed and folder, and each stage's options with
their defaults, one function a stage. Not the stages themselves (rebuild_net.py's Run)."""
from __future__ import annotations

import argparse

GEN_PARTS = 2   # each round's positions come in this many seeded parts (--gen-parts' default)
MAX_GEN_PARTS = 10   # part j's seed is the round's seed + j, and rounds' seeds are 10 apart


def parser(description: str) -> argparse.ArgumentParser:
    """Every option of rebuild_net.py."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir", required=True, help="checkpoints, data and the log (outside git)")
    ap.add_argument("--start", default=None,
                    help="skip stage 1 and refine these weights (e.g. native/evaluator.wts)")
    self_play_options(ap)
    refine_options(ap)
    sl_options(ap)
    net_round_options(ap)
    ap.add_argument("--gnubg-games", type=int, default=20000,
                    help="games of the gnubg0 yardstick (0: none)")
    return ap


def self_play_options(ap: argparse.ArgumentParser) -> None:
    """Stages 1-3: TD self-play of both nets, then the race net and the contact net alone."""
    ap.add_argument("--td-games", type=int, default=2_000_000)
    ap.add_argument("--td-check", type=int, default=100_000)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--alpha", type=float, default=0.1)
    ap.add_argument("--alpha-end", type=float, default=0.01)
    ap.add_argument("--race-games", type=int, default=400_000)
    ap.add_argument("--race-alpha", type=float, default=0.005)
    ap.add_argument("--race-alpha-end", type=float, default=0.001)
    ap.add_argument("--contact-hidden", type=int, default=192,
                    help="the contact net's hidden units from stage 3 on")
    ap.add_argument("--contact-games", type=int, default=500_000)
    ap.add_argument("--contact-alpha", type=float, default=0.002)
    ap.add_argument("--contact-alpha-end", type=float, default=0.0003)


def refine_options(ap: argparse.ArgumentParser) -> None:
    """Stage 4: supervised rounds toward our own deeper search (refine gen and fit), and how
    any stage's round is kept (its duel)."""
    ap.add_argument("--rounds", type=int, default=0)
    ap.add_argument("--positions", type=int, default=20_000, help="new positions a round")
    ap.add_argument("--ply", type=int, default=2, choices=(1, 2),
                    help="search depth of a round's targets")
    ap.add_argument("--only", default="both", choices=("both", "contact", "race"),
                    help="the class of a round's positions")
    ap.add_argument("--window", type=int, default=1_000_000,
                    help="fit on the data of the last this many rounds")
    ap.add_argument("--fit-loss", default="mse", choices=("mse", "xent"))
    ap.add_argument("--jobs", type=int, default=1, help="refine gen processes at once")
    ap.add_argument("--gen-parts", type=int, default=GEN_PARTS,
                    help=f"seeded parts of each round's positions (1-{MAX_GEN_PARTS}; a stopped "
                         "run keeps whole parts, so more parts lose less; other counts make other "
                         "data, so a work folder keeps its first)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--fit-alpha", type=float, default=0.005)
    ap.add_argument("--fit-alpha-end", type=float, default=0.001)
    ap.add_argument("--duel-pairs", type=int, default=4000)
    ap.add_argument("--keep-on-mean", action="store_true",
                    help="keep a round whose duel mean is positive (default: its 95%% interval)")


def sl_options(ap: argparse.ArgumentParser) -> None:
    """Stage 5: supervised rounds of the contact net (sldata + sltrain.py)."""
    ap.add_argument("--sl-rounds", type=int, default=0,
                    help="rounds of stage 5 (supervised, sldata + sltrain.py)")
    ap.add_argument("--sl-positions", type=int, default=600_000, help="positions an SL round")
    ap.add_argument("--sl-top", type=int, default=5, help="plays of a decision written")
    ap.add_argument("--sl-margin", type=float, default=0.12,
                    help="... none more than this behind the best at 0-ply")
    ap.add_argument("--sl-ply", type=int, default=1, choices=(1, 2),
                    help="search depth of an SL round's targets")
    ap.add_argument("--sl-rollout", type=int, default=0,
                    help="targets from this many truncated rollouts a position (luck taken "
                         "out) in place of --sl-ply (0: --sl-ply)")
    ap.add_argument("--sl-horizon", type=int, default=8, help="plies of each rollout")
    ap.add_argument("--sl-foreign", type=int, default=0,
                    help="decisions from this many games of level 3 against gnubg 0-ply "
                         "(foreign_positions.py) instead of self-play (0: self-play)")
    ap.add_argument("--sl-foreign-share", type=float, default=0.12,
                    help="share of those games' decisions taken")
    ap.add_argument("--sl-epochs", type=int, default=8)
    ap.add_argument("--sl-lr", type=float, default=5e-4)
    ap.add_argument("--sl-lr-end", type=float, default=1e-5)
    ap.add_argument("--sl-pair", type=float, default=10.0,
                    help="weight of the pairwise term (each play's equity against its "
                         "decision's mean)")


def net_round_options(ap: argparse.ArgumentParser) -> None:
    """Stage 6: rounds of one net alone on its own kind of positions, in the plan's order."""
    ap.add_argument("--cr-rounds", type=int, default=0,
                    help="rounds of stage 6 for the crashed net "
                         "(sldata --only crashed + sltrain.py)")
    ap.add_argument("--cr-positions", type=int, default=240_000, help="positions a crashed round")
    ap.add_argument("--rs-rounds", type=int, default=0,
                    help="rounds of stage 6 for the race net (sldata --only race + sltrain.py)")
    ap.add_argument("--rs-positions", type=int, default=80_000, help="positions a race round")
    ap.add_argument("--ct-positions", type=int, default=160_000,
                    help="positions a contact round of stage 6 (only in --net-plan: ct)")
    ap.add_argument("--net-plan", default=None,
                    help="stage 6's rounds in order, e.g. cr,rs,rs,cr,ct (cr: the crashed net, "
                         "rs: the race net, ct: the contact net); default: --cr-rounds cr "
                         "then --rs-rounds rs")
    ap.add_argument("--net-keep", choices=("duel", "always"), default="duel",
                    help="stage 6 keeps a round when its duel's mean is above zero (duel), or "
                         "every round (always: a level-3 duel of 10,000 games cannot see a "
                         "gain of 0.002, which games against gnubg 0-ply pair by pair can)")
    ap.add_argument("--net-ply", type=int, default=2, choices=(1, 2),
                    help="search depth of stage 6's targets")
    ap.add_argument("--net-epochs", type=int, default=12)
    ap.add_argument("--net-lr", type=float, default=1e-3)
    ap.add_argument("--net-lr-end", type=float, default=1e-5)
