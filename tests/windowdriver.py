"""The console's Runner in a real DisplayLoop window (SDL's dummy driver in tests, or a
real one), driven by a script that posts pygame events before each frame: keys, clicks and
the window's own keys, as a desktop player's hands would. Used by
tests/spectrum/test_window_player.py and docs/make_docs.py. Not a test."""
import json

import pygame

from game import main as console
from spectrum import display, hw
from spectrum.window_options import SoundSwitch, WindowOptions

SCALE = 2


class Player:
    """The console's Runner in a DisplayLoop window; `script(player)` runs before each
    frame and may post events; stops after `frames` frames or when script returns False."""

    def __init__(self, seed=7, frames=3000, keys="n", **runner_options):
        """keys: typed by the console first ("n": no instructions); runner_options: more of
        the console's Runner (level=, rules=, resume=)."""
        from game.zx.romcheck import machine_for
        self.machine = machine_for(None, False)
        runner_options.setdefault("resume", False)
        self.runner = console.Runner(self.machine, "instant", seed=seed, keys=keys,
                                     **runner_options)
        self.frames = frames
        self.count = 0
        self.typing = ""                 # keys to post, one KEYDOWN/KEYUP pair at a time
        self.held = None
        self.loop = display.DisplayLoop(self.machine, self.on_frame, WindowOptions(
            scale=SCALE, fast=True, mute=True, audio=False, on_click=self.runner.click,
            help_lines=console.MOUSE_HELP,
            sound=SoundSwitch(self.runner.sound_on, self.runner.set_sound)))

    def play_with(self, seed, cube_policy, level, export_dir):
        """The program run again from its start with the computer's cube decisions from
        `cube_policy` (program.Run's) and its plays through USR at `level`, the dice from
        `seed`, exports into `export_dir`; the window, the session and the clicks as before."""
        from game.model.dice import Dice
        from game.program import Run, program
        runner = self.runner
        settings = runner.session.settings
        settings.level = level
        runner.program = program(runner.basic, Run(
            dice=Dice(seed), chooser=console.computer_chooser(self.machine, runner.basic, level),
            cube_policy=cube_policy, settings=settings, session=runner.session,
            export_dir=str(export_dir)))

    def on_frame(self, machine):
        self.count += 1
        if self.count >= self.frames:
            return False
        if not self.busy and self.script(self) is False:
            return False
        self.post_keys()
        return self.runner(machine)

    def type(self, text: str) -> None:
        """Keys pressed and let go as a player's hands would (ENTER for a newline): a key
        down for two frames, up for two, posted as pygame events."""
        self.typing += text

    @property
    def busy(self) -> bool:
        """Keys still on their way: to be posted, held, or queued as strokes in the window
        (a stroke takes 8 frames; the script waits for them before it reads the screen)."""
        return bool(self.typing) or self.held is not None or self.loop.typist.busy

    def post_keys(self) -> None:
        if self.count % 2:
            return
        if self.held is not None:
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=self.held, mod=0))
            self.held = None
        elif self.typing:
            ch, self.typing = self.typing[0], self.typing[1:]
            key = pygame.K_RETURN if ch == "\n" else pygame.key.key_code(ch.lower())
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0,
                                                 unicode="" if ch == "\n" else ch))
            self.held = key

    def run(self, script):
        self.script = script
        assert self.loop.run_window() == 0

    @property
    def game(self):
        return self.runner.session.game

    def at_move_prompt(self):
        return self.game is not None and self.game.prompt.entering

    def click_cell(self, col, row, button=1):
        """A click in the middle of character cell (col, row) of the Spectrum's screen."""
        x = (hw.BORDER_LEFT_PX + col * 8 + 4) * SCALE
        y = (hw.BORDER_TOP_LINES + row * 8 + 4) * SCALE
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=button))


def window_config(tmp_path, monkeypatch, settings: dict):
    """A test's own options folder (tmp_path) holding `settings` as the player's options file,
    and SDL's dummy window and sound: what each window test sets up before its Player starts."""
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    (tmp_path / "settings.json").write_text(json.dumps(settings))
    return tmp_path
