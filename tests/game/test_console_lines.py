"""What the console script says, replayed from outside (issue 59 items 8, 11, 15): the real
`python -m game.main` in a subprocess with a scratch config folder, SDL's dummy drivers and
the instant tape. A bad number or choice on the command line is refused in one argparse line
naming what is allowed (exit 2), quoted short however long; a config "folder" that is a file
is said in words, once while playing and once at the close, and the close says what the next
start offers; a save whose name holds ESC sequences prints none of them."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from game.files.savegame import SavedGame
from game.model.match import HUMAN, Match
from repo import REPO
from trace_player import POLL_S, Run

START_LIMIT_S = 90
BAD_OPTIONS = [("--level", "9", "1 to 5"), ("--level", "0", "1 to 5"),
               ("--level", "-5", "1 to 5"), ("--level", "6", "1 to 5"),
               ("--level", "9" * 20, "1 to 5"), ("--level", "3.0", "1 to 5"),
               ("--scale", "0", "1 to 10"), ("--scale", "1000", "1 to 10"),
               ("--frames", "-1", "1 to 10000000"), ("--seed", "-3", "0 to "),
               ("--tape", "slow", "fast, real, instant"), ("--rules", "1984", "full, 1983"),
               ("--rules", "x" * 100_000, "full, 1983")]


def console(args, folder, **kw):
    env = dict(os.environ, SPECTRUM_BACKGAMMON_CONFIG_DIR=str(folder / "cfg"),
               HOME=str(folder), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(kw.pop("env", {}))
    return subprocess.run([sys.executable, "-m", "game.main", *args], env=env, cwd=folder,
                          capture_output=True, text=True, timeout=120, **kw)


@pytest.mark.parametrize("option,value,allowed", BAD_OPTIONS,
                         ids=[f"{o}={v[:8]}" for o, v, _ in BAD_OPTIONS])
def test_a_bad_number_or_choice_on_the_command_line_is_one_short_line_and_exit_2(
        tmp_path, option, value, allowed):
    done = console([option, value], tmp_path)
    last = done.stderr.splitlines()[-1]
    assert done.returncode == 2 and done.stdout == ""
    assert last.startswith(f"spectrum-backgammon: error: argument {option}: ")
    assert allowed in last and len(last) < 160 and len(done.stderr) < 1200
    assert not (tmp_path / "cfg").exists()             # refused before anything was touched


def test_unknown_arguments_are_quoted_short(tmp_path):
    done = console(["--bogus", "y" * 100_000, "\x1b[2J", "c", "d"], tmp_path)
    last = done.stderr.splitlines()[-1]
    assert done.returncode == 2 and last.isprintable() and len(done.stderr) < 1200
    assert "'--bogus'" in last and "'\\x1b[2J'" in last and last.endswith("...")


def play_until_a_save(run: Run, kind: str = "saving") -> None:
    deadline = time.monotonic() + START_LIMIT_S
    while not any(k == kind for k, _ in run.lines):
        assert time.monotonic() < deadline and run.process.poll() is None, run.lines
        run.new_lines()
        time.sleep(POLL_S)


def start(folder, cfg, first_keys: str) -> Run:
    env = dict(os.environ, SPECTRUM_BACKGAMMON_CONFIG_DIR=str(cfg), HOME=str(folder),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = Run(folder, 5, [sys.executable, "-m", "game.main"], env,
              options=("--tape", "instant", "--mute", "--level", "1"))
    run.type(first_keys)
    return run


def test_a_config_folder_that_is_a_file_is_said_once_in_play_and_once_at_the_close(tmp_path):
    blocked = tmp_path / "cfg"
    blocked.write_text("a file where the folder should be")
    run = start(tmp_path, blocked, "~~~~n")
    try:
        play_until_a_save(run, "unsaved")          # the failure said in play, then the stop
    finally:
        err = run.stop(signal.SIGTERM)
    lines = err.splitlines()
    assert run.process.returncode == 0 and "Traceback" not in err
    assert len(lines) == 2 and "Errno" not in err, err
    assert lines[0].endswith(f"could not be saved (play goes on): {blocked}: a file, not a folder")
    assert lines[1] == (f"Spectrum Backgammon: the game could not be saved ({blocked}: a file, "
                        f"not a folder); no saved game is offered at the next start")


def test_a_save_whose_name_clears_the_screen_prints_no_escape_and_is_played_on(tmp_path):
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    m = Match(None, names={HUMAN: "Bad\x1b[2JName\x1b]0;owned\x07"})
    m.start_game()
    m.start_turn(HUMAN)
    m.dice_rolled()
    saved = SavedGame(m, "4HPwATDgc/ABMA", HUMAN, (3, 1), extra={"held": "bottom"})
    (cfg / "savegame.json").write_text(json.dumps(saved.to_dict()))
    run = start(tmp_path, cfg, "y")
    try:
        play_until_a_save(run, "saved")
    finally:
        err = run.stop(signal.SIGTERM)
    assert run.process.returncode == 0 and "\x1b" not in err and "\x07" not in err
    lines = err.splitlines()
    assert all(line.isprintable() for line in lines) and len(lines) == 2, err
    assert "read as 'Bad[2JName]0;owned'" in lines[0]
    assert lines[1].endswith("holds game 1, score 0-0, Bad[2JName]0;owned to play; it is "
                             "offered at the next start")
    assert "\x1b" not in (cfg / "savegame.json").read_text()
