"""`python -m spectrum.show`: a Spectrum48 in the window from the command line, on a ROM image
(--rom) or the test pattern (--test-pattern), with the window's options (--scale, --fast,
--headless N --screenshot FILE.png ...). Not the window (display.py) nor the game (game/main.py)."""
import argparse
import sys

from spectrum import display, window_options
from spectrum.quoting import say
from spectrum.window_options import TITLE

HELP = ("F1 the window's keys, F11 fullscreen, F12 screenshot, F10 fast/paced, F9 mute; "
        "Backspace = CAPS SHIFT+0, Shift = CAPS SHIFT, Ctrl/Alt = SYMBOL SHIFT, Esc = BREAK")


def main(argv: list[str] | None = None) -> int:
    """The machine in the window (or headless); 2 and one line on stderr for bad options."""
    parser = argparse.ArgumentParser(prog="python -m spectrum.show", description=HELP)
    parser.add_argument("--test-pattern", action="store_true",
                        help="show the colour/FLASH/border test pattern")
    parser.add_argument("--rom", default=None, help="ROM image (16,384 bytes)")
    window_options.add_arguments(parser)
    args = parser.parse_args(argv)
    from spectrum.machine import RomImageError, Spectrum48
    from spectrum.pattern_rom import pattern_machine
    try:
        options = window_options.from_args(args)
        if not (args.test_pattern or args.rom):
            raise RomImageError("give a ROM image with --rom, or --test-pattern")
        machine = pattern_machine() if args.test_pattern else Spectrum48(args.rom)
    except ValueError as exc:             # RomImageError is one
        say(f"{TITLE}: {exc}")
        return 2
    return display.run(machine, None, options)


if __name__ == "__main__":
    sys.exit(main())
