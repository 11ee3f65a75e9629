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

import roms  # noqa: E402
from game.files.settings import STYLE_ORDER, Settings  # noqa: E402
from game.model import rules  # noqa: E402
from game.model.dice import Dice  # noqa: E402
from game.model.match import COMPUTER, HUMAN, Match  # noqa: E402
from game.model.position import Position  # noqa: E402
from game.program import Run, program  # noqa: E402
from game.zx import media, romcheck  # noqa: E402
from game.zx.basic import Basic, rom_ready  # noqa: E402
from game.zx.usr import usr_chooser  # noqa: E402
from gamedriver import CUBE_STOP, MachineDriver  # noqa: E402
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
    code at its ORG, as the console has them), running program() with a Run of these keywords.
    Keys, text() and until() as tests/gamedriver.py's MachineDriver."""

    def __init__(self, dice, level=LEVEL, rom=None, **options):
        self.machine = romcheck.machine_for(rom)
        run = romcheck.load_headless(self.machine, "instant")
        assert run.state == "done", run.error
        self.basic = Basic(self.machine)
        self.symbols = self.basic.sym
        for _ in range(200):
            if rom_ready(self.machine):
                break
            self.machine.run_frame()
        options.setdefault("ask_instructions", False)
        chooser = usr_chooser(self.basic, level)
        self.dice = dice if isinstance(dice, Dice) else Dice.scripted(list(dice))
        self.games, self.logs = [], []
        self.program = program(self.basic, Run(dice=self.dice, chooser=chooser,
                                               on_game=self.listen, **options))
        self.frames = 0
        self.frames_per_key = 4
        next(self.program)

    def wait_for(self, done, max_frames=3000):
        """Frames until done(); ENTER at each cube stop on the way, as until() does."""
        for _ in range(max_frames):
            if done():
                return
            if self.roll_at_stops and CUBE_STOP in self.message():
                self.type("\n")
                continue
            self.frame()
        raise AssertionError("never happened; screen:\n" + "\n".join(self.text()))

    def play_human_turn(self):
        """Type the first legal play of the roll, step by step, as a player would."""
        turn = self.game.state.turn
        play = rules.legal_plays(turn.start, turn.dice)[0]
        for made, step in enumerate(play.steps, 1):
            letter = Position.letter_of_index(step.from_index, turn.mover_is_human)
            self.run(4)                     # the prompt takes keys from its next frame
            self.type(f"{letter}{step.die}\n")
            self.wait_for(lambda made=made: len(turn.made) == made or turn.complete)


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
        scene.wait_for(lambda: scene.game and scene.game.state.turn
                       and not scene.game.state.turn.made
                       and "Your move?" in scene.message())
        done = len(scene.log) + 2
        scene.play_human_turn()
        # my play, then the computer's
        scene.wait_for(lambda done=done: len(scene.log) >= done)
    return scene


def illegal_move():
    scene = board_midgame()
    scene.until("Your move?", row=23)
    letter = next(ch for ch in "abcdefghijklmnopqrstuvwx"
                  if scene.game.state.turn.start.board[Position.index_of_letter(ch, True)] == 0)
    scene.type(f"{letter}{scene.game.state.turn.dice[0]}\n")     # a man who is not there
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


def resign_question():
    """QUIT at "Your move?" on a cube of 2: which resignation, or N to play on."""
    scene = cube_board()
    scene.type("QUIT\n")
    scene.until("Resign (cube 2)? N plays on", row=22)    # its two rows at once
    return scene


def resign_scored():
    """2 at the question: a gammon resigned at the cube of 2, accepted by level 5."""
    scene = resign_question()
    scene.type("2")
    scene.until("resign (", row=11)
    return scene


def mirrored():
    return at_your_move(match=owned_cube(4, COMPUTER), switch_directions=True)


def _style_scene(name):
    return rolled_to_your_move([5, 3], RICH, board_style=name)


def help_page():
    scene = at_your_move_start()
    scene.type("h\n")
    scene.until("KEYS  (1/4)")
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


def board_score_pips():
    """A 7-point match at 2-4 (you won a gammon, I won two gammons), your move: the score in
    the panel between your die and your tray, both sides' pips between the halves."""
    match = Match(7)
    for winner in (HUMAN, COMPUTER, COMPUTER):
        match.start_game()
        match.end_game(winner, "gammon")
    return rolled_to_your_move([6, 4], RICH, match=match)


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
    from spectrum.pattern_rom import pattern_machine
    machine = pattern_machine()
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
    for _ in zip(range(6000), load.frames(), strict=False):
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
    "board-score-pips": board_score_pips,
    "setup-board": setup_board,
    "resign-question": resign_question,
    "resign-scored": resign_scored,
    **{f"style-{name}": (lambda name=name: _style_scene(name)) for name in STYLE_ORDER},
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"which (default all): {', '.join(SCENES)}")
    parser.add_argument("--out", default=HERE, help="directory for the PNGs (docs/)")
    parser.add_argument("--check", action="store_true",
                        help="make them in a scratch folder and name each that differs in a "
                             "byte from docs/ (exit 1 if any): a change that meant to change "
                             "no screen changed none")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in SCENES]
    if unknown:
        parser.error(f"no such picture: {', '.join(unknown)}")
    out = tempfile.mkdtemp(prefix="sbg-docs-check-") if args.check else args.out
    os.makedirs(out, exist_ok=True)
    differ = []
    for name in args.names or SCENES:
        path = os.path.join(out, f"{name}.png")
        SCENES[name]().save_png(path, SCALE)
        if args.check and not same_bytes(path, os.path.join(HERE, f"{name}.png")):
            differ.append(name)
        print(path)
    if args.check:
        print(f"{len(args.names or SCENES) - len(differ)} byte-identical; differ: "
              f"{', '.join(differ) or 'none'}")
    return 1 if differ else 0


def same_bytes(path_a: str, path_b: str) -> bool:
    try:
        with open(path_a, "rb") as a, open(path_b, "rb") as b:
            return a.read() == b.read()
    except FileNotFoundError:
        return False


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
        turn = scene.game.state.turn if scene.game else None
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


# --- rollouts: R on the advice page (game/pages/rollout_pages.py)

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


SHOWN_TRIALS = 36                 # rollout-running: the games of each play done in the shot


class _PausedRollout:
    """A real rollout of SHOWN_TRIALS games that the progress page is told belongs to one of
    the trials asked for, still running once they are done: the answer after n games is the
    same bits whatever the total (game/model/rollout.py), so the page shows what a real one
    shows at that count, on every machine alike."""

    def __init__(self):
        from game.model.rollout import Rollout
        self.real, self.trials = Rollout(), 0

    def start(self, position, candidates, trials, *args, **kwargs):
        self.trials = trials
        self.real.start(position, candidates, SHOWN_TRIALS, *args, **kwargs)
        return self

    def progress(self):
        import dataclasses
        answer = self.real.result()
        return dataclasses.replace(answer, trials=self.trials, running=True)

    def stop(self):
        return self.real.stop()

    def close(self):
        self.real.close()


class _ShotClock:
    """The progress page's clock for the shot: 0 s at the rollout's start, 4 s at every later
    reading, so its speed line reads the same on every machine (a real one varies)."""

    def __init__(self):
        self.readings = 0

    def monotonic(self):
        self.readings += 1
        return 0.0 if self.readings == 1 else 4.0


def rollout_running():
    """The rich board's 5-3 plays rolled out: the progress page with SHOWN_TRIALS games of
    each done (their real figures), two cores and a fixed clock, so that the shot is the
    same bits on every machine."""
    from unittest import mock

    from game.pages import rollout_pages
    with mock.patch.object(rollout_pages, "Rollout", _PausedRollout), \
            mock.patch.object(rollout_pages, "default_threads", lambda: 2), \
            mock.patch.object(rollout_pages, "time", _ShotClock()):
        scene = rolling_out([5, 3], RICH)
        scene.until(f"Games {SHOWN_TRIALS} of", row=2)
        scene.run(12)                             # the page redrawn once more, whole
    return scene


def rollout_done():
    """A short race's 6-2 plays rolled out to the end: 1,296 games each, the result page."""
    scene = rolling_out([6, 2], SHORT_RACE)
    until_real_time(scene, lambda: "ROLLOUT RESULT" in scene.text()[0])
    return scene


def post_crawford_match():
    """A 5-point match after the Crawford game: I won two gammons (1-away), you won the
    Crawford game with a gammon (3-away)."""
    match = Match(5)
    for winner in (COMPUTER, COMPUTER, HUMAN):
        match.start_game()
        match.end_game(winner, "gammon")
    return match


def rollout_match():
    """A race at that score (tests/game/pages/test_rollout_match.py's, where level 5's play for the
    match is not its money play), your 3-2 plays rolled out at the match score to the end:
    1,296 games each, the result page with the score and the units."""
    scene = rolled_to_your_move([3, 2], Position.from_id("2Xk7AABmnoWAEQ").swapped(),
                                match=post_crawford_match())
    scene.type("a\n")
    scene.until("ADVICE", max_frames=6000)
    scene.type("r")
    scene.until("Rolls out")
    scene.type("\n")
    until_real_time(scene, lambda: "ROLLOUT RESULT" in scene.text()[0])
    return scene


SCENES.update({"rollout-running": rollout_running, "rollout-done": rollout_done,
               "rollout-match": rollout_match})


# --- --review FILE: a match GNU Backgammon played against itself (game/pages/import_pages.py)

def review_import():
    """`gnubg -t` plays a 7-point match against itself (tests/gnubg_selfplay.py) and exports
    it as .mat; --review's list of its games, on the machine as the console runs it."""
    from game.matchfiles.imports import read_match_file
    from game.pages.import_pages import review_program
    from gnubg_selfplay import self_play
    folder = tempfile.mkdtemp(prefix="sbg-docs-gnubg-")
    imported = read_match_file(self_play(folder, length=7, seed=14).mat)
    assert imported.problem is None, imported.problem
    scene = Scene([])                          # the machine with the tape loaded
    scene.program = review_program(scene.basic, imported, export_dir=folder, level=LEVEL)
    next(scene.program)
    scene.until("Game (1-", row=23)
    return scene


MARKED_GAME = 7          # the game of that match where level 5 marks plays (game 7: two ?)


def review_import_move():
    """Game MARKED_GAME of that match reviewed by level 5, at the first play it marks."""
    scene = review_import()
    scene.type(f"{MARKED_GAME}\n")
    scene.until("ENTER: moves", row=23, max_frames=60000)
    return first_marked(scene, MARKED_GAME)


def first_marked(scene, game: int):
    """From a review's summary page: ENTER, then on through the moves to the first marked."""
    scene.type("\n")
    seen = []
    for _ in range(200):
        scene.run(4)
        headline = scene.text()[11]
        if "REVIEW" in scene.text()[0] or headline in seen:
            break
        if "?" in headline:
            return scene
        seen.append(headline)
        scene.type("\n")
    raise AssertionError(f"no play marked in game {game}: " + " | ".join(seen))


SCENES.update({"review-import": review_import, "review-import-move": review_import_move})


# --- a match in EMG: gnubg against a noisy gnubg, reviewed with the MWC beside each error
NOISY = 0.05             # the second player's evaluation noise (bench/review_vs_gnubg.py's)
NOISY_SEED, NOISY_GAME = 5, 1


def review_match_emg():
    """A 7-point match gnubg played against itself, Bob with noise NOISY: game NOISY_GAME
    reviewed by level 5, its summary in EMG with the match chance lost."""
    from game.matchfiles.imports import read_match_file
    from game.pages.import_pages import review_program
    from gnubg_selfplay import self_play
    folder = tempfile.mkdtemp(prefix="sbg-docs-emg-")
    imported = read_match_file(self_play(folder, length=7, seed=NOISY_SEED, noise=NOISY).mat)
    assert imported.problem is None, imported.problem
    scene = Scene([])
    scene.program = review_program(scene.basic, imported, export_dir=folder, level=LEVEL)
    next(scene.program)
    scene.until("Game (1-", row=23)
    scene.type(f"{NOISY_GAME}\n")
    scene.until("ENTER: moves", row=23, max_frames=60000)
    return scene


def review_match_emg_move():
    """That review's first marked play: the error in EMG, the MWC beside, the depth."""
    return first_marked(review_match_emg(), NOISY_GAME)


SCENES.update({"review-match-emg": review_match_emg,
               "review-match-emg-move": review_match_emg_move})


# --- R on a review cube page in a match: rolled out at the score the review judged it at

# A race of 60 pips each, the side on roll ahead by its roll
# (tests/game/analysis/test_review.py's RACE_EVEN)
EVEN_RACE = "7u4OAADu7g4AAA"


def review_cube_rollout():
    """A 5-point match at 3-3 (2-away each) from that race: you double at once, I take. The
    review by level 5, ENTER to the double's page, R, ENTER: the cube actions rolled out at
    0-ply at the match score, to the end (1,296 games)."""
    from game.board import screen as S
    from game.model.record import MatchRecord
    from game.pages.review_pages import review_screen
    record = MatchRecord(5)
    record.start_game({HUMAN: 3, COMPUTER: 3}, start=EVEN_RACE)
    record.double(HUMAN, 2)
    record.take(COMPUTER)
    scene = Scene([])                          # the machine with the tape loaded
    screen = S.Screen(scene.basic.memory, scene.basic.print_at)
    scene.program = review_screen(scene.basic, screen, record, level=LEVEL)
    next(scene.program)
    scene.until("ENTER: moves", row=23, max_frames=6000)
    scene.type("\n")
    scene.until("You: double", row=11)
    scene.type("r")
    scene.until("Rolls out the cube actions:", row=2)
    scene.type("\n")
    until_real_time(scene, lambda: "ROLLOUT RESULT" in scene.text()[0])
    return scene


SCENES.update({"review-cube-rollout": review_cube_rollout})
# --- issue 44: the tutor, the chances, the dice on trial

def tutor_warning():
    """Tutor at ?: the opening 5-3 played as the review would mark ?? (its least error that
    does not round to 0.080, found by the review's own judgement), the warning before the
    turn ends."""
    from game.analysis import judge as review
    from game.analysis import verdicts
    from game.model import evaluator
    ranked = evaluator.ranked_plays(Position.start(), (5, 3), review.REVIEW_LEVEL)
    blunders = sorted((review.judged_play(ranked, c.play.after)[1], n)
                      for n, c in enumerate(ranked))
    play = ranked[next(n for loss, n in blunders if loss >= verdicts.BAD + 0.0005)].play
    scene = Scene([3, 5], settings=Settings(tutor="?"))
    for made, step in enumerate(play.steps, 1):
        scene.until("Your move?", row=23)
        scene.run(4)
        scene.type(f"{Position.letter_of_index(step.from_index, True)}{step.die}\n")
        scene.wait_for(lambda made=made: len(scene.game.state.turn.made) >= made)
    scene.wait_for(lambda: "better by" in scene.message())
    return scene


def tutor_missed_double():
    """Tutor at ?: you lead a race and press ENTER at "ENTER rolls, D doubles"; the race is
    the first of a few whose missed double the review would mark ?? (level 5 asked here),
    and the warning comes before the dice are thrown."""
    from game.analysis import judge as review
    from game.analysis import verdicts
    from game.analysis.cube_judgement import judge_no_double
    from game.model import evaluator
    from game.model.match_terms import MONEY
    trailer = {12: 2, 10: 2, 8: 3, 6: 3, 5: 2, 4: 2, 3: 1}
    for leader in ({8: 3, 6: 5, 5: 3, 4: 3, 3: 1}, {10: 1, 8: 3, 6: 4, 5: 3, 4: 3, 3: 1},
                   {10: 2, 8: 3, 6: 4, 5: 3, 4: 2, 3: 1}):
        start = Position.from_points(leader, trailer)
        _, loss = judge_no_double(lambda level, p=start: evaluator.cube_decision(p, level),
                                  MONEY, review.REVIEW_LEVEL)
        if verdicts.mark_for(loss) == "??":
            break
    scene = Scene([2, 1], start=start, settings=Settings(tutor="?", who_starts="human"))
    scene.until("ENTER rolls", row=23)
    scene.run(4)
    scene.type("\n")
    scene.wait_for(lambda: "better by" in scene.message())
    return scene


def advice_chances():
    """A on the rich board with 42: the best plays with each side's chances under each."""
    scene = rolled_to_your_move([4, 2], RICH)
    scene.type("a\n")
    scene.until("ADVICE")
    return scene


def demo_match_over():
    """A 3-point demo match (level 3 both sides, seeded dice) played to its end: the
    match-over page, T offered."""
    scene = Scene(Dice(1983), level=3, settings=Settings(
        players="computer-computer", match_length=3, who_starts="roll", speed="instant"))
    scene.wait_for(lambda: "Press any key" in scene.message(), max_frames=60000)
    scene.type(" ")
    scene.until("T: the dice")
    return scene


def dice_stats(page=1):
    """T on the match-over page: the dice on trial, page `page` of three."""
    scene = demo_match_over()
    scene.type("t")
    scene.until("THE DICE ON TRIAL (1/3)")
    for n in range(2, page + 1):
        scene.type("\n")
        scene.until(f"THE DICE ON TRIAL ({n}/3)")
    return scene


def review_chances():
    """A on the review's first move page: the best plays and the play made, with chances."""
    scene = reviewed_game()
    scene.type("\n")
    scene.run(8)
    scene.type("a")
    scene.until("REVIEW: TURN")
    return scene


SCENES.update({"tutor-warning": tutor_warning, "tutor-missed-double": tutor_missed_double,
               "advice-chances": advice_chances,
               "dice-stats": dice_stats, "dice-stats-tests": lambda: dice_stats(2),
               "dice-stats-luck": lambda: dice_stats(3), "review-chances": review_chances})


# --- the window as a desktop player has it: clicks and F1 (spectrum/display.py)

class WindowShot:
    """What the window showed (its whole surface, SCALE times the frame), for saving."""

    def __init__(self, pixels):
        self.pixels = pixels

    def save_png(self, path, scale=SCALE):
        import pygame
        assert self.pixels.get_size() == (320 * scale, 240 * scale)
        pygame.image.save(self.pixels, path)


def in_the_window(script, options=None, cube_policy=None):
    """A game in the window (seed 7 throws 3-2 to you; cube off, you start: or `options`),
    `script(player)` run before each frame and after each time the window is drawn (the
    machine waits while F1's box is up) until it returns a surface to keep. `cube_policy`:
    the computer's cube decisions scripted (windowdriver.Player.play_with)."""
    import json

    import pygame

    from windowdriver import Player
    settings = os.path.join(os.environ["SPECTRUM_BACKGAMMON_CONFIG_DIR"], "settings.json")
    with open(settings, "w") as out:
        json.dump(options or {"cube": False, "who_starts": "human", "sound": False}, out)
    kept = []

    def until_kept(player):
        shot = script(player)
        if shot is not None:
            kept.append(shot)
        return not kept
    player = Player()
    if cube_policy is not None:
        player.play_with(7, cube_policy, LEVEL, tempfile.mkdtemp(prefix="sbg-docs-"))
    drawn = player.loop._show

    def show_then_look(pygame_module):
        drawn(pygame_module)
        until_kept(player)
        if kept:
            pygame_module.event.post(pygame_module.event.Event(pygame_module.QUIT))
    player.loop._show = show_then_look
    try:
        player.run(until_kept)
    finally:
        os.remove(settings)
    del pygame
    return WindowShot(kept[0])


def mouse_move():
    """At "Your move?" with 3-2: a click on h, on the die showing 3, on the message line
    (h3 made: the man is on e), then on f and on the die showing 2: "Your move? f2"."""
    from game.board import screen as S
    clicks = []

    def script(player):
        import pygame
        if not player.at_move_prompt():
            return None
        screen = player.game.table.screen
        die = {face: (S.TOP_DIE_ROW if top else S.BOTTOM_DIE_ROW) + 1
               for top, (face, _black) in screen.dice.items() if face}
        die_col = screen.column(S.DIE_COL, S.DIE_CELLS) + 1
        if not clicks:
            clicks.append(player.count)
            player.click_cell(screen.point_cell(8)[0], 18)
            player.click_cell(die_col, die[3])
            player.click_cell(5, S.MESSAGE_ROW)
        elif len(clicks) == 1 and player.game.state.turn.made:
            clicks.append(player.count)
            player.click_cell(screen.point_cell(6)[0], 18)
            player.click_cell(die_col, die[2])
        elif len(clicks) == 2 and player.count > clicks[1] + 40:
            return pygame.display.get_surface().copy()
        return None
    return in_the_window(script)


def window_keys():
    """F1 at "Your move?": the window's own keys in a box over the board."""
    def script(player):
        import pygame
        if player.loop.showing_help:
            return pygame.display.get_surface().copy()
        if player.at_move_prompt():
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, mod=0))
        return None
    return in_the_window(script)


def fkey_notes():
    """F9 at "Your move?" (the window runs flat out, as F10 makes it): the note over the
    message line says the sound is on again, FAST shows in the border's corner."""
    pressed = []

    def script(player):
        import pygame
        if pressed and player.loop._marks()[0] and player.count > pressed[0] + 2:
            return pygame.display.get_surface().copy()
        if player.at_move_prompt() and not pressed:
            pressed.append(player.count)
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F9, mod=0))
        return None
    return in_the_window(script)


SCENES.update({"mouse-move": mouse_move, "window-keys": window_keys, "fkey-notes": fkey_notes})




# --- the 1983 rules (--1983): the inlay card's statements on the screen, for docs/INLAY.md

CARD = Settings(rules="1983")
# you have a man on the bar and the computer holds all six points of its inner table
CLOSED = Position.from_points({"bar": 2, 6: 4, 5: 3, 4: 3, 3: 3},
                              {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3})
# all your men home, the highest on c: a 6 takes it off (rule 8)
HOME = Position.from_points({1: 1, 2: 2, 3: 2}, {1: 5, 2: 5, 3: 5})


def inlay_opening():
    """The opening throw a double: the top die (the computer's) and the bottom (yours) alike."""
    scene = Scene([3, 3, 2, 5], settings=CARD)
    scene.until("Tie: press ENTER", row=23)
    return scene


def inlay_illegal():
    """An illegal entry (k4: no man on k) at the first move; ENTER to go on."""
    scene = Scene([1, 4], settings=CARD)
    scene.until("Your move?", row=23)
    scene.type("k4\n")
    scene.until("Press ENTER", row=23)
    return scene


def inlay_forfeit():
    """No man can enter from the bar: the turn is forfeited."""
    scene = Scene([1, 5], start=CLOSED, settings=CARD)
    scene.until("can't enter", row=23)
    return scene


def inlay_bearoff():
    """Rule 8: a 6 with no man on f takes the highest man (on c) off; the 1 is still to play."""
    scene = Scene([1, 6], start=HOME, settings=CARD)
    scene.until("Your move?", row=23)
    scene.type("c6\n")
    scene.wait_for(lambda: scene.game.state.turn.made and "Your move?" in scene.message())
    return scene


def inlay_quit():
    """QUIT at "Your move?": the game ends at once and a new one starts."""
    scene = Scene([1, 4, 6, 2], settings=CARD)
    scene.until("Your move?", row=23)
    scene.type("m4\nquit\n")
    scene.until("Game abandoned", row=23)
    return scene


SCENES.update({"inlay-opening": inlay_opening, "inlay-illegal": inlay_illegal,
               "inlay-forfeit": inlay_forfeit, "inlay-bearoff": inlay_bearoff,
               "inlay-quit": inlay_quit})


def yes_no_click():
    """The computer doubles before its first throw: "I double to 2. Take? (Y/N)", and the
    pointer (drawn on the picture: the window shows the desktop's own) on its Y, clicked:
    that click takes, as the key Y would (tests/game/test_whole_match.py plays it through)."""
    from game.board import clicks
    from game.board import screen as S
    from spectrum import hw
    from spectrum.screen_text import line_text

    def script(player):
        import pygame

        from windowdriver import SCALE as WINDOW_SCALE
        line = line_text(player.machine.memory, S.MESSAGE_ROW)
        if "Take? (Y/N)" not in line:
            return None
        col = next(first for first, _past, key in clicks.hot_keys(line) if key == "y")
        player.click_cell(col, S.MESSAGE_ROW)
        shot = pygame.display.get_surface().copy()
        x = (hw.BORDER_LEFT_PX + col * 8 + 4) * WINDOW_SCALE
        y = (hw.BORDER_TOP_LINES + S.MESSAGE_ROW * 8 + 4) * WINDOW_SCALE
        arrow = [(x, y), (x, y + 22), (x + 6, y + 16), (x + 11, y + 26), (x + 15, y + 24),
                 (x + 10, y + 14), (x + 17, y + 14)]
        pygame.draw.polygon(shot, (255, 255, 255), arrow)
        pygame.draw.polygon(shot, (0, 0, 0), arrow, 2)
        return shot
    return in_the_window(script, {"cube": True, "who_starts": "computer", "sound": False},
                         cube_policy=policy(double=True, take=True))


def cube_stop():
    """After the computer's opening play, the cube stop before your throw: "You: ENTER
    rolls, D doubles" (SPACE rolls too; a click on the cube doubles, on the dice rolls)."""
    scene = Scene([6, 4], settings=Settings(who_starts="computer"))
    scene.roll_at_stops = False
    scene.until("ENTER rolls", row=23)
    return scene


SCENES.update({"yes-no-click": yes_no_click, "cube-stop": cube_stop})


if __name__ == "__main__":
    sys.exit(main())
