"""The real game killed and started again (issue 16): the console script's own code path
(game.main, SDL's dummy drivers, the instant tape, a seeded game) in a subprocess, keys fed
through --keys-from by a player here that reads the game's --trace (each save's gnubg
position and match IDs, turn, dice, steps typed) and types a legal step when it is the
human's turn. SIGKILL lands at random moments (mid-turn, mid-computer-move, mid-save); each
next start offers the match at the turn it was at, with the same gnubg IDs, never a
traceback. SIGTERM saves and exits 0."""
import json
import os
import random
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from game.files import savegame
from game.files.session import facts
from repo import REPO
from trace_player import POLL_S, Run, play_until

ROOT = REPO
KILLS = 16                           # 8 a lane, the first 8 of the 12 each had at 24: every
                                     # kind of moment, and the very kills after a typed step
                                     # (2 a lane, 0.03-0.29 s on) that land on the human's turn
SEED = 16
START_LIMIT_S = 60                   # a start that never saves is a failure, not a hang
# cube off, the human starts with its own throw: the only prompts are moves and new games
OPTIONS = {"cube": False, "who_starts": "human", "speed": "quick", "match_length": 25,
           "level": 1, "sound": False}


STARTED: list = []                   # every process started here, killed if a test fails


@pytest.fixture(autouse=True)
def no_process_left_behind():
    yield
    while STARTED:
        process = STARTED.pop()
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=60)


def start_run(folder: Path, seed: int) -> Run:
    """The console script's own code path from this checkout, SDL's dummy drivers."""
    env = dict(os.environ, SPECTRUM_BACKGAMMON_CONFIG_DIR=str(folder),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = Run(folder, seed, [sys.executable, "-c",
                             "import sys; from game.main import main; sys.exit(main())"], env)
    STARTED.append(run.process)
    return run


def expected_offers(lines, before: list) -> list[dict]:
    """The saves the next start may offer: the last one written whole in this run (else
    what the run started with); if the kill came in the middle of a save, that one or
    the one before it."""
    saving = [facts for kind, facts in lines if kind == "saving"]
    saved = [facts for kind, facts in lines if kind == "saved"][-1:] or before
    if lines and lines[-1][0] == "saving":
        return [saving[-1]] + saved
    return saved


def start_and_check(folder: Path, seed: int, before: list, kill_at_s: float | None = None):
    """Start the game; with a match saved, check the offer is one of `before` (gnubg IDs,
    turn, dice, steps typed) and take it up: the resumed game's first save is the same.
    Returns the Run once it has saved, or after kill_at_s seconds (then killed) if sooner."""
    run = start_run(folder, seed)
    run.type("y" if savegame.has_save(folder / savegame.SAVE_FILE) else "n")
    started = time.monotonic()
    deadline = started + START_LIMIT_S
    while not any(kind == "saved" for kind, _ in run.lines):
        if kill_at_s is not None and time.monotonic() > started + kill_at_s:
            break                                 # to be killed while starting
        assert time.monotonic() < deadline and run.process.poll() is None, \
            f"no save after the start: {run.lines} {run.stop(signal.SIGKILL)}"
        run.new_lines()
        time.sleep(POLL_S)
    offers = [facts for kind, facts in run.lines if kind == "offer"]
    saved = [facts for kind, facts in run.lines if kind == "saved"]
    assert len(offers) == (1 if before else 0) or not saved, (offers, before)
    if offers:
        assert offers[0] in before, (offers, before)
        if saved and not offers[0]["between_games"]:
            assert saved[0] == offers[0]          # the resumed game written again, as it was
    return run


def kill_again_and_again(folder: Path, kills: int, rnd: random.Random, landed: dict,
                         seen: set) -> None:
    """One match started, played and SIGKILLed `kills` times at random moments: while it
    starts (before its first save), soon after, part-way through the human's typing, or
    seconds later (the computer has its weights and moves); each start checked."""
    (folder / "settings.json").write_text(json.dumps(OPTIONS))
    before: list = []
    for kill in range(kills):
        plan = kill % 5
        run = start_and_check(folder, SEED + kill, before,
                              rnd.uniform(0.1, 1.5) if plan == 0 else None)
        if plan == 2:                             # once the human has typed a step
            play_until(run, time.monotonic() + START_LIMIT_S, lambda saved: saved["typed"])
        play_until(run, time.monotonic() + (rnd.uniform(1.5, 4.0) if plan == 1 else
                                            rnd.uniform(0.0, 0.3) if plan == 2 else
                                            0.0 if plan == 0 else rnd.uniform(0.2, 1.2)))
        err = run.stop(signal.SIGKILL)
        assert "Traceback" not in err and run.process.returncode == -signal.SIGKILL, err
        landed[where_killed(run.lines)] += 1
        seen.update(json.dumps(facts) for kind, facts in run.lines if kind == "saved")
        before = expected_offers(run.lines, before)
        assert not list(folder.glob("*.damaged-*"))


def where_killed(lines) -> str:
    if not any(kind == "saved" for kind, _ in lines):
        return "starting"
    kind, last = lines[-1]
    if kind == "saving":
        return "mid-save"
    return "between games" if last["between_games"] else f"{last['turn']}'s turn"


def test_a_game_killed_at_16_random_moments_resumes_at_the_turn_it_was_at(tmp_path):
    """SIGKILL at 16 random moments of real games (the console, the real 48K, USR into C;
    two matches side by side, one for each core): each next start offers the match at the
    turn it was at (the same gnubg position and match IDs: scores, dice; the steps typed
    made again), never a traceback."""
    landed = {"starting": 0, "mid-save": 0, "human's turn": 0, "computer's turn": 0,
              "between games": 0}
    seen: set = set()
    failures = []

    def lane(n):
        folder = tmp_path / f"match{n}"
        folder.mkdir()
        try:
            kill_again_and_again(folder, KILLS // 2, random.Random(SEED + n), landed, seen)
        except BaseException as exc:            # the lane's failure, reported below
            failures.append(exc)
    lanes = [threading.Thread(target=lane, args=(n,)) for n in range(2)]
    for each in lanes:
        each.start()
    for each in lanes:
        each.join()
    if failures:
        raise failures[0]
    print(f"kills landed: {landed}; {len(seen)} different saves")
    assert sum(landed.values()) == KILLS
    assert landed["starting"] and landed["human's turn"] and landed["computer's turn"]
    assert len(seen) > KILLS                     # the games went on from kill to kill


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_stop_signal_to_the_real_game_saves_the_turn_and_exits_0(tmp_path, name):
    """SIGTERM or SIGHUP part-way through the human's turn: the last save is written again,
    the program says so and exits 0 (as closing the window), the next start offers it."""
    (tmp_path / "settings.json").write_text(json.dumps(OPTIONS))
    run = start_and_check(tmp_path, SEED, [])
    play_until(run, time.monotonic() + START_LIMIT_S, lambda saved: saved["typed"])
    assert run.lines[-1][1]["typed"], run.lines       # waiting at "Your move?", a step made
    time.sleep(0.2)
    assert run.new_lines() == []
    os.unlink(tmp_path / savegame.SAVE_FILE)          # only the signal's save brings it back
    err = run.stop(getattr(signal, name))
    assert run.process.returncode == 0 and "Traceback" not in err, err
    assert "offered at the next start" in err
    last = run.lines[-1][1]
    saved, warning = savegame.load_game(tmp_path / savegame.SAVE_FILE, warn=None)
    assert warning is None and facts(saved) == last
    again = start_and_check(tmp_path, SEED, [last])
    again.stop(signal.SIGKILL)
