"""What a caller asks of the window around a Spectrum48, as one frozen WindowOptions: its size,
speed and sound at the start, headless running, its title, what a click types, the F1 lines, and
the caller's sound switch; the callbacks typed; and the window's command-line options. Not the
window loop itself (spectrum/display.py)."""
import argparse
import dataclasses
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spectrum.machine import Spectrum48

TITLE = "ZX Spectrum 48K"         # the window's title unless the caller names one
DEFAULT_SCALE = 3
HEADLESS = "run without a window with --headless N --screenshot FILE.png"

OnFrame = Callable[["Spectrum48"], bool | None]   # before each frame; False stops the loop
OnClick = Callable[[int, int], str]     # (x, y) on the 256 x 192 screen -> the text it types


@dataclasses.dataclass(frozen=True)
class SoundSwitch:
    """The caller's own sound switch, which F9 turns and the beeper follows (the game's
    options' Sound): `is_on()` reads it, `turn(on)` sets it."""
    is_on: Callable[[], bool]
    turn: Callable[[bool], None]


@dataclasses.dataclass(frozen=True)
class WindowOptions:
    """How to show a machine. `fast` and `fullscreen` are only how it starts (F10, F11 change
    them in the loop); `headless_frames` runs that many frames with no window (no sound) and
    writes `screenshot_path`; `wav_path` records the beeper; `audio` False never opens the
    mixer; `on_click` turns a click into typed text; `help_lines` go under the window's own
    keys in F1's box; `headless_hint` says, when no window can open, how to run without one;
    `sound` makes F9 the caller's switch (without it F9 mutes the beeper)."""
    scale: int = DEFAULT_SCALE
    fullscreen: bool = False
    fast: bool = False
    mute: bool = False
    audio: bool = True
    headless_frames: int | None = None
    screenshot_path: str | os.PathLike[str] | None = None
    wav_path: str | os.PathLike[str] | None = None
    title: str = TITLE
    on_click: OnClick | None = None
    help_lines: tuple[str, ...] = ()
    headless_hint: str = HEADLESS
    sound: SoundSwitch | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.scale, int) or self.scale < 1:
            raise ValueError(f"the window's scale must be a whole number of at least 1, "
                             f"not {self.scale!r}")
        object.__setattr__(self, "help_lines", tuple(self.help_lines))

    @property
    def headless(self) -> bool:
        return self.headless_frames is not None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The window's command-line options, for any entry point that shows a machine."""
    parser.add_argument("--scale", type=int, default=DEFAULT_SCALE,
                        help=f"whole-number window scale (default {DEFAULT_SCALE})")
    parser.add_argument("--fullscreen", action="store_true", help="start fullscreen (F11 toggles)")
    parser.add_argument("--fast", action="store_true", help="run as fast as possible (F10 toggles)")
    parser.add_argument("--mute", action="store_true", help="no sound (F9 toggles)")
    parser.add_argument("--headless", type=int, metavar="N", default=None,
                        help="no window: run N frames, then write --screenshot and exit")
    parser.add_argument("--screenshot", metavar="FILE.png", default=None,
                        help="with --headless: where to write the last frame")
    parser.add_argument("--wav", metavar="FILE.wav", default=None,
                        help="also record the beeper to this WAV file")


def from_args(args: argparse.Namespace) -> WindowOptions:
    """The options add_arguments read; ValueError (one line) for a scale under 1."""
    if args.scale < 1:
        raise ValueError("--scale must be a whole number of at least 1")
    screenshot = args.screenshot
    if args.headless is not None and screenshot is None:
        screenshot = "spectrum-headless.png"
    return WindowOptions(scale=args.scale, fullscreen=args.fullscreen, fast=args.fast,
                         mute=args.mute, headless_frames=args.headless,
                         screenshot_path=screenshot, wav_path=args.wav)
