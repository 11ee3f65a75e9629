"""SIGTERM and SIGHUP (a `kill`, the terminal closing) ask the program to stop: save, then
leave cleanly, as closing the window does. The handler runs the save it was given once,
then raises SystemExit so `finally` blocks and the console's close path still run. Not the
save itself (savegame.Autosave) and not the window loop."""
from __future__ import annotations

import signal
import sys

_POSIX_ONLY = ("SIGTERM", "SIGHUP")
# SIGHUP is POSIX-only (Windows has no such signal), hence the look-up by name
STOP_SIGNALS = tuple(getattr(signal, n) for n in _POSIX_ONLY if hasattr(signal, n))
EXIT_STATUS = 0                     # a clean stop, as when the window is closed


def save_and_exit_on_signals(save, signals=STOP_SIGNALS, exit_status: int = EXIT_STATUS,
                             say=None):
    """From now on each of `signals` calls save() (once, even if more signals come while it
    runs; an OSError from it is reported, never raised) and then raises
    SystemExit(exit_status). Call from the main thread. Returns restore(), which puts the
    previous handlers back."""
    say = say or (lambda text: print(text, file=sys.stderr))
    previous = {number: signal.getsignal(number) for number in signals}
    state = {"stopping": False}

    def handler(number, frame):
        if state["stopping"]:              # a second signal while saving: the first wins
            return
        state["stopping"] = True
        try:
            save()
        except OSError as exc:
            say(f"the game could not be saved on {signal.Signals(number).name}: {exc}")
        raise SystemExit(exit_status)

    for number in signals:
        signal.signal(number, handler)

    def restore() -> None:
        for number, old in previous.items():
            signal.signal(number, old if old is not None else signal.SIG_DFL)
    return restore
