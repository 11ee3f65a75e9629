"""CI's player (issue 42): the INSTALLED console script, driven from outside as a player
would (keys through --keys-from, the game's saves read from --trace by tests/trace_player.py):
a whole seeded game to the game-over banner, R reviews it, X writes the .sgf, and GNU
Backgammon (gnubg -t) reads that file back; then a game killed with SIGKILL mid-turn is
offered again at the next start. Run with the installed game's own Python:
    VENV/bin/python .ci/player.py --exe VENV/bin/spectrum-backgammon --work DIR"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

CLONE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(CLONE / "tests"))          # the trace player, never the game's code

import game  # noqa: E402
from trace_player import Run, play_until  # noqa: E402

GAME_LIMIT_S = 600
REVIEW_LIMIT_S = 300
SETTINGS = {"cube": False, "who_starts": "human", "speed": "quick", "match_length": 25,
            "level": 1, "sound": False}


def say(text: str) -> None:
    print(f"player: {text}", flush=True)


def start(exe: str, folder: Path, seed: int) -> Run:
    env = dict(os.environ, SPECTRUM_BACKGAMMON_CONFIG_DIR=str(folder), HOME=str(folder),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("PYTHONPATH", None)
    return Run(folder, seed, [exe], env)


def whole_game_reviewed_and_exported(exe: str, folder: Path) -> Path:
    """A seeded game to its banner, R, then X until the .sgf is there; its path."""
    (folder / "settings.json").write_text(json.dumps(SETTINGS))
    run = start(exe, folder, seed=42)
    run.type("n")                                           # no instructions
    over = play_until(run, time.monotonic() + GAME_LIMIT_S,
                      until=lambda saved: saved["between_games"])
    if over is None:
        raise SystemExit(f"no game-over within {GAME_LIMIT_S} s: {run.stop(signal.SIGKILL)}")
    say(f"game over, score {over['score']}, after {len(run.saves())} saves")
    run.type("r")                                           # R at the banner: the review
    deadline = time.monotonic() + REVIEW_LIMIT_S
    while not list(folder.glob("*.sgf")):
        if time.monotonic() > deadline or run.process.poll() is not None:
            raise SystemExit(f"no .sgf written: {run.stop(signal.SIGKILL)}")
        time.sleep(8.0)
        run.type("x")                      # X on the summary (a key stops a review still going)
    time.sleep(1.0)
    run.type("q")
    err = run.stop(signal.SIGTERM)
    if run.process.returncode != 0 or "Traceback" in err:
        raise SystemExit(f"the game did not end cleanly ({run.process.returncode}): {err}")
    sgf = sorted(folder.glob("*.sgf"))[0]      # X typed again on the summary writes another
    say(f"review exported {sgf.name} ({sgf.stat().st_size} bytes)")
    return sgf


def gnubg_reads(sgf: Path, folder: Path) -> None:
    commands = folder / "gnubg-commands"
    mat = folder / "read-back.mat"
    commands.write_text(f"load match {sgf}\nexport match mat {mat}\n")
    gnubg = shutil.which("gnubg") or "/usr/games/gnubg"      # Debian puts it in /usr/games
    proc = subprocess.run([gnubg, "-t", "-q", "-c", str(commands)], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL, cwd=folder,
                          env=dict(os.environ, HOME=str(folder)))
    text = mat.read_text() if mat.exists() else ""
    moves = [line for line in text.splitlines() if ":" in line and line.strip()[:1].isdigit()]
    if proc.returncode != 0 or not moves or "Wins" not in text:
        raise SystemExit(f"gnubg could not read {sgf}: {proc.stdout}{proc.stderr}\n{text}")
    say(f"gnubg -t read it back: {len(moves)} move lines, the game won")


def killed_game_is_offered(exe: str, folder: Path) -> None:
    (folder / "settings.json").write_text(json.dumps(SETTINGS))
    run = start(exe, folder, seed=16)
    run.type("n")
    typed = play_until(run, time.monotonic() + GAME_LIMIT_S, until=lambda s: s["typed"])
    if typed is None:
        raise SystemExit(f"no step typed: {run.stop(signal.SIGKILL)}")
    run.stop(signal.SIGKILL)
    last = run.saves()[-1]
    again = start(exe, folder, seed=16)
    again.type("y")                                          # take the offer
    deadline = time.monotonic() + GAME_LIMIT_S
    while again.new_lines() is not None and not any(k == "offer" for k, _ in again.lines):
        if time.monotonic() > deadline or again.process.poll() is not None:
            raise SystemExit(f"no offer after SIGKILL: {again.stop(signal.SIGKILL)}")
        time.sleep(0.05)
    offer = next(facts for kind, facts in again.lines if kind == "offer")
    again.stop(signal.SIGKILL)
    if offer != last:
        raise SystemExit(f"offered {offer}, but the last save was {last}")
    say(f"killed with SIGKILL at {last['id']} with {last['typed']} typed: offered again")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", required=True)
    parser.add_argument("--work", type=Path, required=True)
    args = parser.parse_args()
    where = Path(game.__file__).resolve()
    if CLONE in where.parents:
        raise SystemExit(f"the game was imported from the clone ({where}), not the install")
    say(f"the installed game: {where.parent}")
    for part in ("game", "kill"):
        (args.work / part).mkdir(parents=True, exist_ok=True)
    sgf = whole_game_reviewed_and_exported(args.exe, args.work / "game")
    gnubg_reads(sgf, args.work / "game")
    killed_game_is_offered(args.exe, args.work / "kill")
    return 0


if __name__ == "__main__":
    sys.exit(main())
