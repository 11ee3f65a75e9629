"""SIGTERM and SIGHUP (a `kill`, the terminal closing; Ctrl+Break on Windows) ask the program
to stop: save, then leave cleanly, as closing the window does. The handler runs the save it
was given once, then raises SystemExit so `finally` blocks and the console's close path still
run. Not the save itself (savegame.Autosave) and not the window loop."""
from __future__ import annotations

import signal
from collections.abc import Callable, Iterable
from types import FrameType, ModuleType

from spectrum.quoting import os_words
from spectrum.quoting import say as quoting_say

# Each where the platform has it, hence the look-up by name: SIGHUP is POSIX only, SIGBREAK
# (Ctrl+Break in a console) Windows only; SIGTERM is on both.
STOP_SIGNAL_NAMES = ("SIGTERM", "SIGHUP", "SIGBREAK")


def stop_signals(module: ModuleType = signal) -> tuple:
    """The stop signals this platform's signal module has."""
    # by name: a signal this platform lacks is no attribute of its signal module
    return tuple(getattr(module, name) for name in STOP_SIGNAL_NAMES if hasattr(module, name))


STOP_SIGNALS = stop_signals()
EXIT_STATUS = 0                     # a clean stop, as when the window is closed


def save_and_exit_on_signals(save: Callable[[], object], signals: Iterable[int] | None = None,
                             exit_status: int = EXIT_STATUS,
                             say: Callable[[str], None] | None = None) -> Callable[[], None]:
    """From now on each of `signals` (by default this platform's stop signals) calls save()
    (once, even if more signals come while it runs; an OSError from it is reported, never
    raised) and then raises SystemExit(exit_status). Call from the main thread. Returns
    restore(), which puts the previous handlers back."""
    say = say or quoting_say
    signals = stop_signals() if signals is None else signals
    previous = {number: signal.getsignal(number) for number in signals}
    state = {"stopping": False}

    def handler(number: int, frame: FrameType | None) -> None:
        if state["stopping"]:              # a second signal while saving: the first wins
            return
        state["stopping"] = True
        try:
            save()
        except OSError as exc:
            say(f"the game could not be saved on {signal.Signals(number).name}: "
                f"{os_words(exc)}")
        raise SystemExit(exit_status)

    for number in signals:
        signal.signal(number, handler)

    def restore() -> None:
        for number, old in previous.items():
            signal.signal(number, old if old is not None else signal.SIG_DFL)
    return restore
