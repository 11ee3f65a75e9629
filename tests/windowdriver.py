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

    def __init__(self, seed=7, frames=3000):
        from game.zx.romcheck import machine_for
        self.machine = machine_for(None, False)
        self.runner = console.Runner(self.machine, "instant", seed=seed, resume=False,
                                     keys="n")        # no instructions
        self.frames = frames
        self.count = 0
        self.loop = display.DisplayLoop(self.machine, self.on_frame, scale=SCALE, fast=True,
                                        mute=True, audio=False, on_click=self.runner.click,
                                        help_lines=console.MOUSE_HELP,
                                        sound_on=self.runner.sound_on,
                                        set_sound=self.runner.set_sound)

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
