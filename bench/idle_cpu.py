"""How much CPU the game burns doing nothing (not a test): the installed console script in a
real window on a virtual X screen (Xvfb), waiting at "Do you want instructions?" and at
"Your move?", and Fuse (Debian's fuse-emulator-sdl) at OpenSE BASIC's start-up screen in the
same run as the reference. Prints one figure a line: process CPU seconds per wall second.
Keys are typed into the window with xdotool as a player would; "Your move?" is known from the
game's --trace (a save on the human's turn with dice thrown and no step typed).
Run: python3 bench/idle_cpu.py [--exe PATH] [--seconds 10]"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xscreen import VirtualScreen, press, window_of  # noqa: E402

OPENSE_ROM = "/usr/share/spectrum-roms/opense.rom"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# cube off and the human starts, so the first prompt after the instructions is a move
SETTINGS = {"cube": False, "who_starts": "human"}


def cpu_seconds(pid: int) -> float:
    """utime + stime of the process (all its threads), from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def cores_per_second(pid: int, seconds: float) -> float:
    start_cpu, start_wall = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(pid) - start_cpu) / (time.monotonic() - start_wall)


def at_your_move(trace: Path) -> bool:
    for line in trace.read_text().splitlines():
        kind, _, body = line.partition(" ")
        if kind == "saved":
            facts = json.loads(body)
            if facts["turn"] == "human" and facts["dice"] and not facts["typed"]:
                return True
    return False


def measure_game(exe: str, screen: VirtualScreen, seconds: float, shots: Path | None) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="sbg-idle-"))
    (folder / "settings.json").write_text(json.dumps(SETTINGS))
    trace = folder / "trace"
    env = screen.env(HOME=str(folder), SPECTRUM_BACKGAMMON_CONFIG_DIR=str(folder),
                     SDL_AUDIODRIVER=os.environ.get("SDL_AUDIODRIVER", "dummy"))
    game = subprocess.Popen([exe, "--tape", "instant", "--seed", "7", "--trace", str(trace)],
                            cwd=shots or folder, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    figures = {}
    try:
        window = window_of(env, game.pid)
        time.sleep(3.0)                               # the instant tape and the ROM's start
        figures["instructions"] = cores_per_second(game.pid, seconds)
        if shots:
            press(env, window, "F12")
        press(env, window, "n")
        deadline = time.monotonic() + 60
        while not at_your_move(trace):
            if time.monotonic() > deadline or game.poll() is not None:
                raise SystemExit(f"the game never reached 'Your move?': {game.stderr.read()}")
            time.sleep(0.1)
        time.sleep(1.0)                               # the throw's beep and the message
        figures["your_move"] = cores_per_second(game.pid, seconds)
        if shots:
            press(env, window, "F12")
    finally:
        game.terminate()
        game.wait(timeout=30)
    return figures


def measure_fuse(screen: VirtualScreen, seconds: float) -> float | None:
    fuse = shutil.which("fuse-sdl")
    if not fuse or not Path(OPENSE_ROM).exists():
        return None
    home = tempfile.mkdtemp(prefix="fuse-idle-")
    process = subprocess.Popen([fuse, "--machine", "48", "--rom-48", OPENSE_ROM, "-g", "3x",
                                "--no-sound"], env=screen.env(HOME=home),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(4.0)                               # its window and the ROM's start-up
        figure = cores_per_second(process.pid, seconds)
        if process.poll() is not None:
            raise SystemExit(f"fuse-sdl ended (exit {process.returncode}) before it was measured")
        return figure
    finally:
        process.kill()                                # Fuse asks before it quits on SIGTERM
        process.wait(timeout=10)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", default=shutil.which("spectrum-backgammon")
                        or str(Path(sys.executable).with_name("spectrum-backgammon")),
                        help="the installed console script")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each measure")
    parser.add_argument("--shots", type=Path, default=None,
                        help="a folder for F12 screenshots taken at each prompt")
    args = parser.parse_args(argv)
    args.exe = os.path.abspath(args.exe)
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    if not Path(args.exe).exists():
        raise SystemExit(f"{args.exe}: no such console script (install the game first)")
    screen = VirtualScreen()
    try:
        ours = measure_game(args.exe, screen, args.seconds, args.shots)
        fuse = measure_fuse(screen, args.seconds)
    finally:
        screen.close()
    print(f"load_average_1min {os.getloadavg()[0]:.2f}")
    print(f"idle_instructions_prompt {ours['instructions']:.3f} cores")
    print(f"idle_your_move_prompt {ours['your_move']:.3f} cores")
    if fuse is None:
        print("fuse_opense_startup unavailable (fuse-emulator-sdl, opense-basic)")
    else:
        print(f"fuse_opense_startup {fuse:.3f} cores")
        print(f"ratio_your_move_over_fuse {ours['your_move'] / max(fuse, 1e-6):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
