"""The console script `spectrum-backgammon`: parses the command line and starts the machine.
Not the game flow (game/program.py) and not the window (spectrum/display.py)."""
import sys


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    print("Spectrum Backgammon: the machine is not wired up yet.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
