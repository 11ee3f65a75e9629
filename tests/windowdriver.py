"""The console's Runner in a real DisplayLoop window (SDL's dummy driver in tests, or a
real one), driven by a script that posts pygame events before each frame: keys, clicks and
the window's own keys, as a desktop player's hands would. Used by
tests/spectrum/test_window_player.py and docs/make_docs.py. Not a test."""
import pygame

from game import main as console
from spectrum import display, hw

SCALE = 2


class Player:
    """The console's Runner in a DisplayLoop window; `script(player)` runs before each
    frame and may post events; stops after `frames` frames or when script returns False."""

    def __init__(self, seed=7, frames=3000, keys="n"):
        """`keys`: typed headless before anything else ("n": no instructions; "" leaves
        the question to the script)."""
        from game.zx.romcheck import machine_for
        self.machine = machine_for(None, False)
        self.runner = console.Runner(self.machine, "instant", seed=seed, resume=False,
                                     keys=keys)
        self.frames = frames
        self.count = 0
        self.loop = display.DisplayLoop(self.machine, self.on_frame, scale=SCALE, fast=True,
                                        mute=True, audio=False, on_click=self.runner.click,
                                        help_lines=console.MOUSE_HELP)

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
        if self.count >= self.frames or self.script(self) is False:
            return False
        return self.runner(machine)

    def run(self, script):
        self.script = script
        assert self.loop.run_window() == 0

    @property
    def game(self):
        return self.runner.session.game

    def at_move_prompt(self):
        return self.game is not None and self.game.entering

    def click_cell(self, col, row, button=1):
        """A click in the middle of character cell (col, row) of the Spectrum's screen."""
        x = (hw.BORDER_LEFT_PX + col * 8 + 4) * SCALE
        y = (hw.BORDER_TOP_LINES + row * 8 + 4) * SCALE
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=button))
