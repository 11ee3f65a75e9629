"""How fast the installed game starts (not a test): wall seconds from the command to "Do you
want instructions?" in a real window on a virtual X screen (Xvfb), with --tape instant and
--tape fast (the prompt is known from the game's --trace); the import time of game.main and
of what the start pulls in (python -X importtime); and the first computer move on a loaded
48K through USR (the Z80's first compiles, the weights loaded) against the second.
Prints one figure a line with its unit. Run: python3 bench/startup.py [--exe PATH] [--runs 3]"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xscreen import VirtualScreen  # noqa: E402

PROMPT_LIMIT_S = 120

# Run inside the installed game's interpreter: the real loading of the tape on our ROM,
# then the computer's move through the USR door at the default level, timed twice.
FIRST_MOVE = r"""
import json, time
t0 = time.perf_counter()
from game.model import evaluator
from game.zx import media
from game.zx.basic import Basic
from game.model.position import Position
from game.files.settings import Settings
from game.zx.usr import usr_chooser
machine = media.new_machine()
media.load_headless(machine, "instant")
basic = Basic(machine)
t1 = time.perf_counter()
evaluator.ensure_loaded()
t2 = time.perf_counter()
choose = usr_chooser(basic, Settings.level)
reply = choose(Position.start(), (3, 1)).after.swapped()    # an opening: no search to speak of
t3 = time.perf_counter()
later = choose(reply, (6, 4)).after.swapped()               # the first move that searches
t4 = time.perf_counter()
choose(later, (5, 2))
t5 = time.perf_counter()
print(json.dumps({"machine_and_tape_s": t1 - t0, "weights_s": t2 - t1,
                  "opening_move_s": t3 - t2, "first_searched_move_s": t4 - t3,
                  "second_searched_move_s": t5 - t4}))
"""


def interpreter_of(exe: str) -> str:
    """The Python a console script runs on (its #! line)."""
    first = Path(exe).read_text(errors="replace").splitlines()[0]
    return first[2:].strip() if first.startswith("#!") else sys.executable


def seconds_to_prompt(exe: str, screen: VirtualScreen, mode: str) -> float:
    folder = Path(tempfile.mkdtemp(prefix="sbg-start-"))
    trace = folder / "trace"
    trace.write_text("")
    env = screen.env(HOME=str(folder), SPECTRUM_BACKGAMMON_CONFIG_DIR=str(folder),
                     SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"))
    started = time.monotonic()
    game = subprocess.Popen([exe, "--tape", mode, "--trace", str(trace)], cwd=folder, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        while '"instructions"' not in trace.read_text():
            if game.poll() is not None or time.monotonic() - started > PROMPT_LIMIT_S:
                raise SystemExit(f"--tape {mode}: no instructions prompt ({game.stderr.read()})")
            time.sleep(0.01)
        return time.monotonic() - started
    finally:
        game.terminate()
        game.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


def import_times(python: str, code: str) -> dict:
    """module -> cumulative import microseconds, from python -X importtime."""
    out = subprocess.run([python, "-X", "importtime", "-c", code], capture_output=True,
                         text=True, env=dict(os.environ, SDL_VIDEODRIVER="dummy"),
                         cwd=tempfile.gettempdir())
    times = {}
    for line in out.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = (part.strip() for part in line[12:].split("|"))
            if cumulative.isdigit():
                times[name] = int(cumulative)
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", default=shutil.which("spectrum-backgammon")
                        or str(Path(sys.executable).with_name("spectrum-backgammon")),
                        help="the installed console script")
    parser.add_argument("--runs", type=int, default=3, help="starts timed per tape mode")
    args = parser.parse_args(argv)
    args.exe = os.path.abspath(args.exe)
    if not Path(args.exe).exists():
        raise SystemExit(f"{args.exe}: no such console script (install the game first)")
    python = interpreter_of(args.exe)
    print(f"load_average_1min {os.getloadavg()[0]:.2f}")
    screen = VirtualScreen()
    try:
        for mode in ("instant", "fast"):
            runs = [seconds_to_prompt(args.exe, screen, mode) for _ in range(args.runs)]
            print(f"start_to_instructions_{mode} {statistics.median(runs):.2f} s "
                  f"(median of {len(runs)}, max {max(runs):.2f})")
    finally:
        screen.close()
    main_us = import_times(python, "import game.main").get("game.main")
    print(f"import_game_main {main_us / 1000:.1f} ms")
    pulled = import_times(python, "import game.main as m, spectrum.display, game.program, "
                                  "game.romcheck, native")
    for name in ("pygame", "numpy", "native", "game.program", "game.romcheck",
                 "spectrum.display"):
        if name in pulled:
            print(f"import_{name.replace('.', '_')} {pulled[name] / 1000:.1f} ms")
    first = subprocess.run([python, "-c", FIRST_MOVE], capture_output=True, text=True,
                           env=dict(os.environ, SDL_VIDEODRIVER="dummy"),
                           cwd=tempfile.gettempdir())     # the installed game, not a checkout
    if first.returncode != 0:
        raise SystemExit(f"the first-move run failed: {first.stderr}")
    for name, seconds in json.loads(first.stdout.splitlines()[-1]).items():
        print(f"{name.removesuffix('_s')} {seconds * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
