"""The console script `spectrum-backgammon`: parses the command line, builds the 48K, runs the
tape's loading sequence and then the program (game/program.py) in the window, frame by frame.
Not the game flow (game/program.py) and not the window (spectrum/display.py).
The game's modules are imported where they are first needed, so that --help and a bad option
answer at once, before pygame, numpy and the C engine are loaded."""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn

from spectrum.quoting import os_words, quoted, say, terminal_line
from spectrum.tape_modes import TAPE_MODES

if TYPE_CHECKING:     # for the annotations only: the game's modules load when they are used
    from game.interfaces import Frames
    from game.model.evaluator import CubeDecision
    from game.model.match import Match
    from game.model.match_terms import MatchTerms
    from game.model.position import Position
    from game.model.rules import Play
    from game.zx.basic import Basic
    from game.zx.romcheck import TapeFile
    from game.zx.usr import Level
    from spectrum.machine import Spectrum48
    from spectrum.safe_write import PathLike

    # the computer's chooser: (position, dice, the mover's terms) -> its play
    Chooser = Callable[[Position, Sequence[int], MatchTerms], Play]

TITLE = "Spectrum Backgammon"
HEADLESS = "to run without a window: spectrum-backgammon --screenshot FILE.png --frames N"
MOUSE_HELP = ("The mouse types what keys would:",
              "a point its letter, the bar Z,",
              "a die its number, the message",
              "line ENTER: K4 ENTER is three",
              "clicks (help page 3); a key word",
              "(Y, N, R...) its key, the cube D,",
              "the dice a throw.")
WAIT_KEY_FRAMES = 50             # "~" in --keys: a second's wait
INSTANT_BUDGET_S = 0.015         # wall time a displayed frame may spend loading, instantly
WARM_UPS: list = []              # weight-loading threads, joined before main() returns


MAX_SCALE = 10                   # --scale: 3,200 x 2,400 pixels, more than a 4K screen
MAX_FRAMES = 10_000_000          # --frames: over two days of the 48K's time
MAX_SEED = (1 << 64) - 1         # --seed: any 64-bit number


class Parser(argparse.ArgumentParser):
    """argparse, every error one line in the terminal's form (spectrum/quoting.py): a value
    quoted short by its check, an argument it does not know quoted short here."""

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: None = None) -> argparse.Namespace:   # (one form, no _N)
        known, extras = self.parse_known_args(args, namespace)
        if extras:
            shown = " ".join(quoted(extra) for extra in extras[:3])
            self.error(f"unrecognized arguments: {shown}{' ...' if len(extras) > 3 else ''}")
        return known

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {terminal_line(message)}\n")


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """argparse's type for a whole number from low to high: the one-line error names the
    range and quotes what was typed (short)."""
    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(high)) + 1
                and low <= int(text) <= high):
            raise argparse.ArgumentTypeError(
                f"{quoted(text)} is not a whole number from {low} to {high}")
        return int(text)
    return parse


def one_of(*choices: str) -> Callable[[str], str]:
    """argparse's type for one of `choices` (what was typed quoted short if it is not)."""
    def parse(text: str) -> str:
        if text not in choices:
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not one of {', '.join(choices)}")
        return text
    return parse


def setting(name: str) -> Callable[[str], object]:
    """argparse's type for an option the settings also hold (--level): the settings' own
    check (game/files/settings.py parse_option), imported only when the option is given."""
    def parse(text: str) -> object:
        from game.files.settings import SettingsError, parse_option
        try:
            return parse_option(name, text)
        except SettingsError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return parse


def tell(text: str) -> None:
    """One line on stderr, "Spectrum Backgammon: ...", in the terminal's form (quoting.say)."""
    say(f"{TITLE}: {text}")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    from game import __version__
    parser = Parser(prog="spectrum-backgammon",
                    description="CP Software's 1983 Backgammon on a 48K.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--scale", type=whole_number(1, MAX_SCALE), default=3,
                        help=f"whole-number window scale, 1 to {MAX_SCALE} (3)")
    parser.add_argument("--fullscreen", action="store_true", help="start fullscreen (F11)")
    parser.add_argument("--tape", type=one_of(*TAPE_MODES), default="fast",
                        metavar="{" + ",".join(TAPE_MODES) + "}",
                        help="how the tape loads: " + ", ".join(
                            f"{mode} ({means})" for mode, means in TAPE_MODES.items()))
    parser.add_argument("--screenshot", metavar="PATH", default=None,
                        help="no window: run --frames frames, write the screen to PATH, exit")
    parser.add_argument("--frames", type=whole_number(1, MAX_FRAMES), default=None, metavar="N",
                        help="frames to run headless, 1 to 10,000,000 (default 500 with "
                             "--screenshot); a headless run saves nothing")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=None,
                        help="seed the dice, 0 to 2**64-1 (replay a game)")
    parser.add_argument("--level", type=setting("level"), default=None,
                        help="the computer's level, 1 to 5, for this run")
    parser.add_argument("--mute", action="store_true", help="no sound (F9 toggles)")
    parser.add_argument("--wav", metavar="PATH", default=None, help="record the beeper")
    parser.add_argument("--rom", metavar="PATH", default=None,
                        help="boot this 48K ROM image instead of ours; type LOAD \"\" on it")
    parser.add_argument("--autoload", action="store_true", help="with --rom: type LOAD \"\" for me")
    parser.add_argument("--keys", default=None,
                        help="headless only: keys typed into the program, one each 4 frames "
                             "(\\n = ENTER, ~ = wait a second)")
    parser.add_argument("--keys-from", metavar="PATH", default=None,
                        help="for tests: keys typed as they are appended to PATH (as --keys, "
                             "a newline is ENTER); the frames run flat out")
    parser.add_argument("--review", metavar="FILE", default=None,
                        help="review the games of a .mat or .sgf match file (GNU Backgammon's, "
                             "a server's or ours) instead of playing")
    rules = parser.add_mutually_exclusive_group()
    rules.add_argument("--1983", dest="rules", action="store_const", const="1983",
                       help="the game as the 1983 inlay card has it: no cube, no score, no "
                            "commands (docs/INLAY.md); same as --rules 1983")
    rules.add_argument("--rules", type=setting("rules"), default=None, metavar="{1983,full}",
                       help="this run's rules, whatever the options say (the Rules option)")
    parser.add_argument("--trace", metavar="PATH", default=None,
                        help="for tests: a line appended to PATH at each save and at the "
                             "resume offer (gnubg IDs, scores, turn, dice, steps typed)")
    return parser.parse_args(argv)


def loading_sequence(machine: Spectrum48, mode: str, tape: TapeFile | None = None) -> Frames:
    """The tape loading (spectrum/loader.py) as a per-frame generator: LOAD "" through our
    ROM, the loader program, the machine code at its ORG. Yields once per frame. `tape`:
    media.tape_for the rules (None: the full game's)."""
    from game.zx import romcheck
    return romcheck.loading_sequence(machine, mode, tape)


class Runner:
    """on_frame for the display loop: first the loading sequence, then the program, one
    generator step per frame. Returns False to stop the window when the program ends."""

    def __init__(self, machine: Spectrum48, mode: str, seed: int | None = None,
                 level: int | None = None, keys: str | None = None, resume: bool = True,
                 keys_from: PathLike | None = None, trace: PathLike | None = None,
                 hurry: bool = False, rules: str | None = None, mute: bool = False) -> None:
        from game.files import rules1983, savegame
        from game.files.session import Session
        from game.files.settings import load_settings
        from game.model.dice import Dice
        from game.program import Run, program
        from game.zx import media
        from game.zx.basic import Basic
        from game.zx.usr import evaluator_cube, usr_cube
        self.machine = machine
        self.feed = open(keys_from, encoding="ascii", errors="replace", newline="") \
            if keys_from else None
        self.hurry = hurry
        self.basic = Basic(machine)
        settings, warning = load_settings(warn=None)
        if level is not None:
            settings.set("level", level)         # --level: this run (saved if options are)
        if rules is not None:
            settings.set("rules", rules)         # --1983, --rules: the same
        # the 1983 rules load a tape whose picture shows no cube (the card has none)
        self.loading: Frames | None = loading_sequence(machine, mode,
                                                       media.tape_for(settings.rules_1983))
        if warning and settings.rules_1983:      # the 1983 screen has no word for it
            tell(warning)
            warning = None
        if mute:
            settings.sound = False               # --mute: the same, as F9 is the same switch
        self.session = Session(settings, savegame.Autosave() if resume else None,
                               trace=trace_to(trace),
                               say=tell)
        chooser = computer_chooser(machine, self.basic, lambda: settings.level)
        cube = usr_cube(self.basic, lambda: settings.level) or evaluator_cube(settings)

        def cube_policy(position: Position, match: Match,
                        doubler: str) -> CubeDecision | None:
            for thread in WARM_UPS:              # the weights first (one load per process)
                thread.join()
            return cube(position, match, doubler)
        self.program = program(self.basic, Run(
            dice=Dice(seed), chooser=chooser, cube_policy=cube_policy, settings=settings,
            warning=warning, session=self.session, export_dir=os.getcwd(), resume=resume))
        self.title = rules1983.window_title(TITLE, settings)
        self.started = False
        self.keys = list((keys or "").replace("\\n", "\n"))
        self.wait_frames = 0
        self.holding = False

    def __call__(self, machine: Spectrum48) -> bool:
        if self.loading is not None:
            if self._load(machine):
                return True
            self.loading = None
        if self.holding:
            machine.keyboard.release_all()              # a typed key is held one frame
            self.holding = False
        if self.feed is not None:
            self.keys += self.feed.read()
        if self.keys or self.wait_frames:
            if self.wait_frames:
                self.wait_frames -= 1
            elif self.keys[0] == "~":
                self.keys.pop(0)
                self.wait_frames = WAIT_KEY_FRAMES
            elif machine.frame_count % 4 == 0:
                self.type_key(self.keys.pop(0))
        self.retitle()
        try:
            if not self.started:
                from game.zx.basic import rom_ready
                if not rom_ready(machine):
                    return True                  # the ROM is still starting up
                self.started = True
                next(self.program)
            else:
                self.program.send(None)
        except StopIteration:
            return False
        return True

    def retitle(self) -> None:
        """The window's title follows the Rules option (changed in the options, it names the
        rules the next game is played by)."""
        from game.files import rules1983
        title = rules1983.window_title(TITLE, self.session.settings)
        if title != self.title:
            self.title = title
            pygame = sys.modules.get("pygame")
            if pygame is not None and pygame.display.get_init() and pygame.display.get_surface():
                pygame.display.set_caption(title)

    def _load(self, machine: Spectrum48) -> bool:
        """One displayed frame of the loading sequence: True while it goes on. With `hurry`
        (the instant tape on our own ROM: nothing on the screen waits for a person), as
        many emulated frames as fit in INSTANT_BUDGET_S of wall time, their sound dropped,
        so the game's first question comes in a few displayed frames, not thirty."""
        deadline = time.perf_counter() + INSTANT_BUDGET_S
        while True:
            try:
                next(self.loading)      # type: ignore[arg-type]  # set: __call__ checks
            except StopIteration:
                return False
            if not self.hurry or time.perf_counter() > deadline:
                return True
            machine.run_frame()
            machine.ear_frames.clear()

    def click(self, x_px: int, y_px: int) -> str:
        """What a click on the screen types (game/board/clicks.py): at "Your move?" the
        board's answer (a point's letter, z, a die's number); the cube or the dice what the
        waiting scene says (Game.board_clicks: D at the cube stop); elsewhere a key word of
        the text under the pointer ("(Y/N)", "R roll out"), else ENTER on the message line."""
        from game.board import clicks, screen
        board_game = self.session.game
        if board_game is not None and board_game.prompt.entering:
            return clicks.key_at(board_game.table.screen, x_px, y_px)
        if board_game is not None and board_game.prompt.board_clicks:
            thing = clicks.board_thing_at(board_game.table.screen, x_px, y_px)
            key = board_game.prompt.board_clicks.get(thing)
            if key:
                return key
        key = clicks.text_key_at(self.machine.memory, x_px, y_px)
        return key or ("\n" if y_px // 8 == screen.MESSAGE_ROW else "")

    def sound_on(self) -> bool:
        """The options' Sound, which F9 in the window also switches."""
        return self.session.settings.sound

    def set_sound(self, on: bool) -> None:
        """F9: the options' Sound switched and kept (as the options page keeps it); a
        settings file that cannot be written is said on stderr, and the switch still holds."""
        from game.files.settings import settings_path
        settings = self.session.settings
        settings.sound = on
        self.basic.silent = not on
        try:
            settings.save(settings_path())
        except OSError as exc:
            tell(f"the options could not be saved ({os_words(exc)})")

    def type_key(self, ch: str) -> None:
        """Headless typing: hold the key in the matrix (the ROM scans it)."""
        from spectrum.keyboard import keys_for_char
        kb = self.machine.keyboard
        kb.set_pressed(keys_for_char(ch))           # punctuation with SYMBOL SHIFT
        self.holding = True


def computer_chooser(machine: Spectrum48, basic: Basic, level: Level | None) -> Chooser:
    """The computer's play through USR into the evaluator (game/zx/usr.py usr_chooser),
    else the engine's first legal play. The weights load in a thread meanwhile (about 3 s,
    while the tape loads), so the first move is not held up; C runs without the GIL."""
    import threading

    from game.files.settings import Settings
    from game.model import evaluator
    from game.zx import usr
    warm_up = threading.Thread(target=evaluator.ensure_loaded, name="weights", daemon=True)
    warm_up.start()
    WARM_UPS.append(warm_up)
    level = Settings.level if level is None else level   # a number, or a function
    return usr.usr_chooser(basic, level, warm_up) or usr.first_legal_play


def trace_to(path: PathLike | None) -> Callable[[str, dict], None] | None:
    """--trace: trace(kind, facts) appends "KIND {json}" to path, flushed at once; None
    without a path."""
    if not path:
        return None
    import json
    out = open(path, "a", encoding="utf-8")

    def trace(kind: str, facts: dict) -> None:
        out.write(f"{kind} {json.dumps(facts, sort_keys=True)}\n")
        out.flush()
    return trace


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        from game.zx.romcheck import machine_for
        from spectrum.machine import RomImageError
        machine = machine_for(args.rom, args.autoload)
        if machine is None:
            return 2
    except (ImportError, OSError) as exc:
        tell(f"the machine cannot start: {os_words(exc) if isinstance(exc, OSError) else exc}")
        return 2
    except RomImageError as exc:
        tell(str(exc))
        return 2
    from spectrum import display
    from spectrum.window_options import SoundSwitch, WindowOptions
    headless = None
    if args.screenshot:
        headless = args.frames if args.frames is not None else 500
    elif args.frames is not None:
        headless = args.frames
    try:
        runner = Runner(machine, args.tape, seed=args.seed, level=args.level,
                        keys=args.keys if args.screenshot else None, resume=headless is None,
                        keys_from=args.keys_from, trace=args.trace,
                        hurry=args.tape == "instant" and args.rom is None, rules=args.rules,
                        mute=args.mute)
    except OSError as exc:                       # --keys-from or --trace cannot be opened
        tell(os_words(exc))
        return 2
    from game.files import shutdown
    shutdown.save_and_exit_on_signals(lambda: save_on_close(runner))   # SIGTERM, SIGHUP
    try:
        if not rules_fit(args, runner):
            return 2
        from game.pages.import_pages import review_instead
        if args.review and not review_instead(runner, args.review, tell):
            return 2
        return display.run(machine, runner, WindowOptions(
            scale=args.scale, fullscreen=args.fullscreen, fast=bool(args.keys_from),
            mute=args.mute, headless_frames=headless, screenshot_path=args.screenshot,
            wav_path=args.wav, title=runner.title, on_click=runner.click, help_lines=MOUSE_HELP,
            headless_hint=HEADLESS, sound=SoundSwitch(runner.sound_on, runner.set_sound)))
    finally:
        rollouts = sys.modules.get("game.model.rollout")   # imported once a rollout was started
        if rollouts is not None:
            rollouts.stop_all()      # no rollout thread outlives the window
        while WARM_UPS:              # never leave the C evaluator loading behind our back
            WARM_UPS.pop().join()
        if headless is None:         # the window closed (or the program ended): keep the match
            save_on_close(runner)


def rules_fit(args: argparse.Namespace, runner: Runner) -> bool:
    """The 1983 rules (--1983, or the Rules option) have no review of a match file: False,
    said, with --review. A saved FULL match is kept for the FULL rules and said so."""
    if not runner.session.settings.rules_1983:
        return True
    if args.review:
        tell("--review is not part of the 1983 rules (the card has no review); leave out "
             "--1983, or give --rules full")
        return False
    from game.files import rules1983
    words = rules1983.kept_save_words() if runner.session.slot is not None else None
    if words:
        tell(words)
    return True


def save_on_close(runner: Runner) -> None:
    """The last autosave written once more for the next start (game/files/session.py), and
    what that file really holds said; a failure to write is reported (OSError, SaveError),
    never raised, and never called a save; said once, though a stop signal's close and the
    window's both come here."""
    words = runner.session.close()
    if words:
        tell(words)


if __name__ == "__main__":
    sys.exit(main())
