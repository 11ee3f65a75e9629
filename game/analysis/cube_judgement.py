"""How a cube decision is judged, for the review (game/analysis/judge.py) and the tutor
(game/scenes/tutor.py) alike, at the doubler's MatchTerms (the match score, or money play per
unit of cube: scale): what each action gives away (in EMG at a match score: in_emg), and
the screen that looks at a roll without a double closely only when it is close. Pure logic:
no replay, no screen."""
from __future__ import annotations

from collections.abc import Callable

from game.model import evaluator
from game.model.match_equity import Emg
from game.model.match_terms import MatchTerms
from game.model.rollout import CubeFigures

CUBE_SCREEN_LEVEL = 4            # a cube left alone is looked at by 1-ply first ...
CLOSE_CUBE = 0.16                # ... and by the judging level when doubling gives away less
                                 # than this, in EMG (GNU Backgammon's "close" cube decision)


def cube_verdict(decision: evaluator.CubeDecision | CubeFigures) -> str:
    """The proper cube action in words, e.g. "Double, take" or "Too good to double" (play on
    for the gammon; short enough for "Proper: ...." on a 32-column page)."""
    if decision.too_good:
        return "Too good to double"
    if decision.double:
        return "Double, take" if decision.take else "Double, pass"
    return "No double, take" if decision.take else "No double, pass"


def in_emg(decision: evaluator.CubeDecision, terms: MatchTerms) -> evaluator.CubeDecision:
    """A decision at `terms` (money: normalized per unit of cube, returned as it is; match:
    2 x mwc - 1) with its equities in EMG, as GNU Backgammon judges a cube (the losses and
    the close cut-off are taken in these units)."""
    emg = Emg.at(terms)
    if emg is None:
        return decision
    return evaluator.CubeDecision(
        decision.double, decision.take, decision.too_good, emg.of(decision.no_double_equity),
        emg.of(decision.double_take_equity), emg.of(decision.double_pass_equity),
        decision.win, decision.win_gammon, decision.lose_gammon)


def close_cube(decision: evaluator.CubeDecision) -> bool:
    """Worth a closer look (judge_no_double) and counted as a decision (GNU Backgammon's
    "close or actual"): the doubler should double, or doubling is within CLOSE_CUBE of not
    doubling; `decision` in EMG (in_emg)."""
    take_side = min(decision.double_take_equity, decision.double_pass_equity)
    return decision.double or abs(decision.no_double_equity - take_side) < CLOSE_CUBE


def normalized(decision: evaluator.CubeDecision, scale: int) -> evaluator.CubeDecision:
    """A money cube decision per unit of cube: its equities divided by `scale` (the cube's
    value), so that its losses compare with the plays'."""
    if scale == 1:
        return decision
    return evaluator.CubeDecision(
        decision.double, decision.take, decision.too_good,
        decision.no_double_equity / scale, decision.double_take_equity / scale,
        decision.double_pass_equity / scale, decision.win, decision.win_gammon,
        decision.lose_gammon)


def cube_loss(kind: str, decision: evaluator.CubeDecision) -> float:
    """What a cube action ("double", "no double", "take" or "drop") gives away against level
    5's `decision` (the doubler's equities): 0 for the proper one, never negative."""
    nd, dt, dp = (decision.no_double_equity, decision.double_take_equity,
                  decision.double_pass_equity)
    if kind == "double":
        loss = max(nd, min(dt, dp)) - min(dt, dp)
    elif kind == "no double":
        loss = max(nd, min(dt, dp)) - nd
    elif kind == "take":
        loss = dt - min(dt, dp)             # the taker's equity is -dt, at best -min
    else:
        loss = dp - min(dt, dp)
    return max(0.0, loss)


def worth_a_look(raw: evaluator.CubeDecision, terms: MatchTerms) -> bool:
    """The cheap screen: is the doubler's decision at CUBE_SCREEN_LEVEL (`raw`, as the
    evaluator gave it at `terms`) close (close_cube)? In EMG at a match score; money play
    screens the cube's own equities, as it always has (its summaries unchanged). The review,
    the tutor and the cube stop's WHEN CLOSE all screen by this."""
    return close_cube(raw if terms.judged.money else in_emg(normalized(raw, terms.scale),
                                                            terms))


def judge_no_double(decide: Callable[[int], evaluator.CubeDecision], terms: MatchTerms,
                    level: int) -> tuple[evaluator.CubeDecision, float]:
    """A side that could double and rolled instead, judged as the review and the tutor
    (game/scenes/tutor.py) both judge it: `decide(level)` is the doubler's
    evaluator.CubeDecision at a level, at `terms`. The cheap screen at CUBE_SCREEN_LEVEL
    first; only a close one (close_cube, in EMG) is asked of `level`. Returns (the decision
    normalized by the terms' scale, cube_loss "no double" of it in EMG, 0.0 when not close)."""
    raw = decide(CUBE_SCREEN_LEVEL)
    quick = normalized(raw, terms.scale)
    if not worth_a_look(raw, terms):
        return quick, 0.0
    decision = normalized(decide(level), terms.scale)
    return decision, cube_loss("no double", in_emg(decision, terms))
