"""A rollout stopped before its first trial ends (game/model/rollout.py): it has no games, and
every figure it gives is nan, which RolloutProgress.has_games says, so no page shows one as
an equity. At 2-ply a trial takes seconds; the stop comes at once."""
import math

from game.model import evaluator as ev
from game.model.position import Position
from game.model.rollout import Rollout


def test_a_rollout_stopped_before_its_first_trial_has_no_games_and_no_figures():
    ev.ensure_loaded()
    start = Position.start()
    plays = [c.play for c in ev.ranked_plays(start, (3, 1), 3, limit=2)]
    with Rollout() as rollout:
        rollout.start(start, plays, trials=1296, level=5, threads=1)
        answer = rollout.stop()
    assert answer.trials_done == 0 and not answer.has_games and not answer.finished
    figures = answer.candidates[0]
    assert math.isnan(figures.equity.mean) and math.isnan(figures.win_pct.mean)
