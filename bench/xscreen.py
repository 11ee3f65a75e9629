"""A virtual X screen (Xvfb) for the benchmarks that start the installed game in a real
window, and the player's hands on it (keys typed with xdotool). Not a benchmark itself."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


class VirtualScreen:
    """An Xvfb display of its own for the run."""

    def __init__(self):
        for number in range(90, 140):
            if not Path(f"/tmp/.X11-unix/X{number}").exists() and \
                    not Path(f"/tmp/.X{number}-lock").exists():
                break
        self.display = f":{number}"
        self.process = subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1280x1024x24",
                                         "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("Xvfb did not start")
            time.sleep(0.05)

    def env(self, **extra) -> dict:
        env = dict(os.environ, DISPLAY=self.display, **extra)
        env.pop("SDL_VIDEODRIVER", None)        # a real (X11) window, not SDL's dummy
        return env

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def window_of(env: dict, pid: int, timeout_s: float = 60) -> str:
    """The X window id of process pid's window (xwininfo's tree, _NET_WM_PID by xprop):
    this xdotool's own search does not see SDL's windows without a window manager."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        tree = subprocess.run(["xwininfo", "-root", "-children"], env=env,
                              capture_output=True, text=True).stdout
        for line in tree.splitlines():
            if '"' not in line or not line.strip().startswith("0x"):
                continue
            window = line.split()[0]
            props = subprocess.run(["xprop", "-id", window, "_NET_WM_PID"], env=env,
                                   capture_output=True, text=True).stdout
            if props.strip().endswith(f"= {pid}"):
                return window
        time.sleep(0.2)
    raise SystemExit(f"process {pid} opened no window within {timeout_s} s")


def press(env: dict, window: str, key: str) -> None:
    """A key typed into the window as a player would (focus, then press and release)."""
    subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, capture_output=True)
    subprocess.run(["xdotool", "key", "--delay", "150", key], env=env, check=True)
