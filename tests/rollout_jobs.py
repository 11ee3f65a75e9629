"""Rollout jobs and answers made in code for the rollout pages' tests: the opening's three
best 3-1 plays as a job, and a job rolled out at 0-ply, to its end or stopped after a few
games. Not a test."""
import time

from game.model import evaluator as ev
from game.model import rollout
from game.model.position import Position
from game.pages import rollout_pages as RS


def opening_job(trials):
    """The start position's three best plays of 3-1 (level 3), `trials` games each."""
    start = Position.start()
    plays = [c.play for c in ev.ranked_plays(start, (3, 1), 3, limit=3)]
    return RS.plays_job(start, plays, trials=trials)


def five_plays_answer(job, stop: bool):
    """`job` rolled out at 0-ply: to its end, or stopped once a few games are done."""
    with rollout.Rollout() as ro:
        ro.start(job.position, job.candidates, job.trials, 3, 0, job.seed, 2, terms=job.terms)
        if not stop:
            return ro.result()
        deadline = time.monotonic() + 30
        while ro.progress().trials_done < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        return ro.stop()
