"""Regenerates every PNG in docs/ from code: the real Spectrum48 on our ROM, the tape loaded
as the console loads it, then game/program.py driven by scripted keys and dice, the screen
rendered by spectrum/ula.py at 2x. Not a test. Run: python docs/make_docs.py [NAME ...]."""
import argparse
import os
import sys
import tempfile
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]
# options and saves go to a scratch directory: the menus show the defaults, never the user's
os.environ["SPECTRUM_BACKGAMMON_CONFIG_DIR"] = tempfile.mkdtemp(prefix="sbg-docs-")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from gamedriver import MachineDriver  # noqa: E402

import roms  # noqa: E402
from game.zx import media  # noqa: E402
from game.model import rules  # noqa: E402
from game.zx.basic import Basic, rom_ready  # noqa: E402
from game.model.dice import Dice  # noqa: E402
from game.model.match import COMPUTER, HUMAN, Match  # noqa: E402
from game.model.position import Position  # noqa: E402
from game.zx import romcheck  # noqa: E402
from game.program import program  # noqa: E402
from game.zx.usr import usr_chooser  # noqa: E402
from game.files.settings import STYLE_ORDER, Settings  # noqa: E402
from spectrum.machine import Spectrum48  # noqa: E402

LEVEL = 5                                 # the computer's level, as the console's default
SCALE = 2                                 # 640 x 480 PNGs

# A board with something everywhere: a white man on the bar, two black men borne off,
# stacks of six (a count label), blots (human on roll, counting from each side's own 1-point)
RICH = Position.from_points({6: 6, 8: 2, 13: 3, 24: 1, 5: 2, "bar": 1},
                            {6: 4, 7: 2, 8: 3, 13: 2, 21: 1, 3: 1})
# Men on both bars and tall stacks with counts
BAR = Position.from_points({6: 7, 8: 3, 13: 3, "bar": 2},
                           {6: 6, 8: 3, 13: 3, 24: 2, "bar": 1})
# The computer one roll from a gammon: its last man on its 1-point, none of yours off
GAMMON = Position.from_points({13: 5, 8: 5, 6: 5}, {1: 1})


class Scene(MachineDriver):
    """The machine after LOAD "" (instant tape: the loader's BORDER/PAPER/INK and the machine
    code at its ORG, as the console has them), running program() with these keywords.
    Keys, text() and until() as tests/gamedriver.py's MachineDriver."""

    def __init__(self, dice, level=LEVEL, rom=None, **options):
        self.machine = romcheck.machine_for(rom)
        run = romcheck.load_headless(self.machine, "instant")
        assert run.state == "done", run.error
        self.basic = Basic(self.machine)
        self.symbols = self.basic.sym
        for _ in range(200):
            if rom_ready(self.machine, self.symbols):
                break
            self.machine.run_frame()
        options.setdefault("ask_instructions", False)
        chooser = usr_chooser(self.basic, level)
        self.dice = dice if isinstance(dice, Dice) else Dice.scripted(list(dice))
        self.games = []
        self.program = program(self.basic, self.dice, chooser=chooser, games=self.games,
                               **options)
        self.frames = 0
        self.frames_per_key = 4
        next(self.program)

    def wait_for(self, done, max_frames=3000):
        for _ in range(max_frames):
            if done():
                return
            self.frame()
        raise AssertionError("never happened; screen:\n" + "\n".join(self.text()))

    def play_human_turn(self):
        """Type the first legal play of the roll, step by step, as a player would."""
        turn = self.game.turn
        play = rules.legal_plays(turn.start, turn.dice)[0]
        for made, step in enumerate(play.steps, 1):
            letter = Position.letter_of_index(step.from_index, turn.mover_is_human)
            self.run(4)                     # the prompt takes keys from its next frame
            self.type(f"{letter}{step.die}\n")
            self.wait_for(lambda: len(turn.made) == made or turn.complete)


def policy(double: bool, take: bool):
    """A scripted cube decision for the computer (the evaluator's own is shown in play)."""
    return lambda position, match, doubler: SimpleNamespace(double=double, take=take,
                                                           too_good=False)


def owned_cube(value, owner):
    match = Match(None)
    match.start_game()
    match.cube_value, match.cube_owner = value, owner
    return match


# --- the scenes: each returns a driver at the moment to save ---

def instructions():
    scene = Scene([], ask_instructions=True)
    scene.until("(Y/N)")
    scene.type("y")
    scene.until("THE AIM")
    return scene


def board_midgame():
    """A game against the evaluator through USR: three turns each, the computer's play shown."""
    scene = Scene(Dice(1983))
    for _ in range(3):
        scene.wait_for(lambda: scene.game and scene.game.turn and not scene.game.turn.made
                       and "Your move?" in scene.message())
        done = len(scene.game.log) + 2
        scene.play_human_turn()
        scene.wait_for(lambda: len(scene.game.log) >= done)   # my play, then the computer's
    return scene


def illegal_move():
    scene = board_midgame()
    scene.until("Your move?", row=23)
    letter = next(ch for ch in "abcdefghijklmnopqrstuvwx"
                  if scene.game.turn.start.board[Position.index_of_letter(ch, True)] == 0)
    scene.type(f"{letter}{scene.game.turn.dice[0]}\n")     # a man who is not there
    scene.until("Press ENTER", row=23)
    return scene


def board_bar():
    return rolled_to_your_move([4, 2], BAR)


def game_over():
    scene = Scene([2, 1], start=GAMMON, settings=Settings(who_starts="computer"))
    scene.until("Press any key for a new game", row=23)
    return scene


def cube():
    scene = Scene([3, 1], start=Position.start(), settings=Settings(who_starts="human"),
                  cube_policy=policy(double=False, take=True))
    scene.until("ENTER rolls", row=23)
    scene.type("d")
    scene.until("I take", row=23)
    return scene


def double_offer():
    scene = Scene([5, 3], start=RICH, match=owned_cube(2, COMPUTER),
                  settings=Settings(who_starts="computer"),
                  cube_policy=policy(double=True, take=True))
    scene.until("Take? (Y/N)", row=23)
    return scene


def cube_advice():
    """A at the redouble's "Take?": the evaluator's view of the cube on a page."""
    scene = double_offer()
    scene.type("a")
    scene.until("CUBE ADVICE")
    return scene


def rolled_to_your_move(dice, start, match=None, **settings):
    """The human starts; at "ENTER rolls, D doubles" (it may double first) ENTER rolls,
    then "Your move?"."""
    scene = Scene(list(dice), start=start, match=match,
                  settings=Settings(who_starts="human", **settings))
    scene.until("ENTER rolls", row=23)
    scene.type("\n")
    scene.until("Your move?", row=23)
    return scene


def at_your_move(dice=(5, 3), start=RICH, match=None, **settings):
    scene = Scene(list(dice), start=start, match=match,
                  settings=Settings(who_starts="human", **settings))
    scene.until("Your move?", row=23)
    return scene


def cube_board():
    return rolled_to_your_move([5, 3], RICH, match=owned_cube(2, HUMAN))


def mirrored():
    return at_your_move(match=owned_cube(4, COMPUTER), switch_directions=True)


def _style_scene(name):
    return rolled_to_your_move([5, 3], RICH, board_style=name)


def help_page():
    scene = at_your_move_start()
    scene.type("h\n")
    scene.until("KEYS  (1/3)")
    return scene


def advice():
    """A on the rich board with 53: level 5's best plays, the deepest-judged first."""
    scene = rolled_to_your_move([5, 3], RICH)
    scene.type("a\n")
    scene.until("ADVICE")
    return scene


def options_menu():
    scene = at_your_move_start()
    scene.type("o\n")
    scene.until("OPTIONS")
    return scene


def at_your_move_start():
    """The first "Your move?" of a game from the start, the human having won the throw."""
    scene = Scene([1, 3])
    scene.until("Your move?", row=23)
    return scene


def score():
    """A 3-point match at the Crawford game: you won game 1 on a cube of 2."""
    match = Match(3)
    match.start_game()
    match.start_turn(HUMAN)
    match.double(HUMAN)
    match.take()
    match.end_game(HUMAN, 1)
    scene = Scene([1, 3], match=match)
    scene.until("Your move?", row=23)
    scene.type("s\n")
    scene.until("SCORE")
    return scene


def setup_board():
    """Between games: O, then S in the options, a few entries, one being typed."""
    scene = Scene([1, 3], start=Position.from_points({1: 1}, {6: 10}))
    scene.until("Your move?", row=23)
    scene.type("a1\n")
    scene.until("Press any key for a new game", row=23)
    scene.type("o")
    scene.until("OPTIONS")
    scene.type("s")
    scene.until("SET UP A BOARD")
    scene.type("\n")
    for entry in ("W M3", "B L3"):               # two men off each 13-point
        scene.until("Set up?", row=23)
        scene.type(entry + "\n")
    scene.until("Set up?", row=23)
    scene.type("W K3")
    return scene


def loading(stop):
    """The real pulse stream through the ROM's loader, stopped where stop(machine) says."""
    machine = Spectrum48(roms.ROM_PATH)
    seen = []

    def on_frame(run):
        if not seen and stop(machine):
            seen.append(True)
            run.skip()
    media.load_headless(machine, "real", on_frame=on_frame, max_frames=6000)
    return machine


def loading_midway():
    grabbed = []

    def stop(machine):
        # half the picture's bitmap in (LD_BYTES's IX walks through the screen)
        if 0x4000 + 0x0C00 <= machine.cpu.ix < 0x5800:
            grabbed.append(machine.render().copy())
            return True
        return False
    loading(stop)
    return Frame(grabbed[0])


def loading_done():
    grabbed = []
    mcode = Basic(Spectrum48(roms.ROM_PATH)).addr("USR_ENTRY")

    def stop(machine):
        if mcode + 0x100 <= machine.cpu.ix < mcode + 0x200:   # the machine code half in
            grabbed.append(machine.render().copy())
            return True
        return False
    loading(stop)
    return Frame(grabbed[0])


class Frame:
    """A rendered frame kept for saving (the machine went on after it was taken)."""

    def __init__(self, rgb):
        self.rgb = rgb

    def save_png(self, path, scale=SCALE):
        save_rgb(self.rgb, path, scale)


def save_rgb(rgb, path, scale=SCALE):
    import pygame
    rgb = rgb.repeat(scale, 0).repeat(scale, 1)
    pygame.image.save(pygame.surfarray.make_surface(rgb.transpose(1, 0, 2).copy()), path)


def test_pattern():
    from spectrum.display import test_pattern_machine
    machine = test_pattern_machine()
    for _ in range(20):                 # past the beep; the FLASH row in its swapped phase
        machine.run_frame()
    return Frame(machine.render().copy())


OPENSE_ROM = os.environ.get("SPECTRUM_OPENSE_ROM", "/usr/share/spectrum-roms/opense.rom")


def started(rom=None):
    """A ROM's own start-up screen, at its prompt (our ROM, or another's image file)."""
    machine = Spectrum48(roms.ROM_PATH if rom is None else romcheck.read_rom_image(rom))
    romcheck.boot_to_prompt(machine, rom or "our ROM")
    return Frame(machine.render().copy())


def opense_game():
    """--rom opense.rom: the same opening as on our ROM, in OpenSE BASIC's font."""
    scene = Scene((4, 1), rom=OPENSE_ROM)
    scene.until("Your move?", row=23)
    return scene


def opense_loading():
    """OpenSE's own loader half through the machine code, its own messages on the screen."""
    machine = romcheck.machine_for(OPENSE_ROM, autoload=True)
    mcode = Basic(machine).addr("USR_ENTRY")
    load = romcheck.ForeignLoad(machine, "real", autoload=True)
    for _ in zip(range(6000), load.frames()):
        machine.run_frame()
        if mcode + 0x100 <= machine.cpu.ix < mcode + 0x200:
            break
    return Frame(machine.render().copy())


SCENES = {
    "rom-startup": started,
    "opense-loading": opense_loading,
    "opense-startup": lambda: started(OPENSE_ROM),
    "opense-game": opense_game,
    "loading-midway": loading_midway,
    "loading-done": loading_done,
    "test-pattern": test_pattern,
    "instructions": instructions,
    "board-midgame": board_midgame,
    "illegal-move": illegal_move,
    "board-bar": board_bar,
    "game-over": game_over,
    "cube": cube,
    "double-offer": double_offer,
    "cube-advice": cube_advice,
    "cube-board": cube_board,
    "mirrored": mirrored,
    "help": help_page,
    "options-menu": options_menu,
    "advice": advice,
    "score": score,
    "setup-board": setup_board,
    **{f"style-{name}": (lambda name=name: _style_scene(name)) for name in STYLE_ORDER},
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"which (default all): {', '.join(SCENES)}")
    parser.add_argument("--out", default=HERE, help="directory for the PNGs (docs/)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in SCENES]
    if unknown:
        parser.error(f"no such picture: {', '.join(unknown)}")
    os.makedirs(args.out, exist_ok=True)
    for name in args.names or SCENES:
        path = os.path.join(args.out, f"{name}.png")
        SCENES[name]().save_png(path, SCALE)
        print(path)
    return 0


# --- the game review: R at the game-over banner (game/scenes/game_over.py)

def reviewed_game():
    """A game played to its end from the start on the real machine (you type the engine's
    first legal play each turn, level 5 answers through USR), then R at the banner; the
    scene stops at the review's summary page."""
    scene = Scene(Dice(1984), settings=Settings(speed="instant"))
    for _ in range(4000):
        message = scene.message()
        if "Press any key for a new game" in message or "R review the game" in message:
            break
        turn = scene.game.turn if scene.game else None
        if "Your move?" in message and turn is not None and not turn.made:
            scene.play_human_turn()
        elif "ENTER" in message:
            scene.type("\n")
        else:
            scene.run(5)
    else:
        raise AssertionError("the game did not end:\n" + "\n".join(scene.text()))
    scene.type("r")
    scene.until("ENTER: moves", row=23, max_frames=6000)
    return scene


def review_move():
    """The review's move pages from the start: the first of your moves marked ?? (else ?)."""
    scene = reviewed_game()
    scene.type("\n")
    pages = []
    for _ in range(80):
        scene.run(4)
        headline = scene.text()[11]
        if "REVIEW" in scene.text()[0] or headline in pages:
            break                                  # back on the summary: all were seen
        pages.append(headline)
        if "??" in headline:
            return scene
        scene.type("\n")
    marked = next((n for n, line in enumerate(pages) if "?" in line), None)
    if marked is None:
        raise AssertionError("no move of yours marked ? or ?? in the review")
    scene.type("\n")
    for _ in range(marked):
        scene.run(4)
        scene.type("\n")
    scene.run(4)
    return scene


SCENES.update({"review-summary": reviewed_game, "review": review_move})


# --- rollouts: R on the advice page (game/review/rollout_pages.py)

# A short race, you to play 6-2 (91 pips against 82): the five best plays are close
SHORT_RACE = Position.from_points({9: 2, 8: 2, 7: 1, 6: 3, 5: 2, 4: 2, 3: 1, 11: 1},
                                  {6: 3, 5: 3, 4: 2, 3: 2, 2: 1, 8: 2, 10: 1, 7: 1})


def until_real_time(scene, done, seconds=3600):
    """Frames until done(); the rollout's threads run in real time, so this waits in it."""
    import time
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("never happened; screen:\n" + "\n".join(scene.text()))
        scene.frame()


def rolling_out(dice, start):
    """A at "Your move?", R on the advice page, ENTER: 0-ply games."""
    scene = rolled_to_your_move(dice, start)
    scene.type("a\n")
    scene.until("ADVICE", max_frames=6000)
    scene.type("r")
    scene.until("Rolls out")
    scene.type("\n")
    return scene


def rollout_running():
    """The rich board's 5-3 plays rolled out: the progress page with a few dozen games of
    each done (the count and the speed shown depend on the machine)."""
    scene = rolling_out([5, 3], RICH)

    def games_done():
        words = scene.text()[2].split()
        return words[:1] == ["Games"] and int(words[1].replace(",", "")) >= 36
    until_real_time(scene, games_done)
    scene.run(12)                                 # the page redrawn once more, whole
    return scene


def rollout_done():
    """A short race's 6-2 plays rolled out to the end: 1,296 games each, the result page."""
    scene = rolling_out([6, 2], SHORT_RACE)
    until_real_time(scene, lambda: "ROLLOUT RESULT" in scene.text()[0])
    return scene


SCENES.update({"rollout-running": rollout_running, "rollout-done": rollout_done})


if __name__ == "__main__":
    sys.exit(main())
