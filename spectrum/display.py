"""The pygame window around a Spectrum48: integer scaling, fullscreen, screenshots, PC keys
-> the Spectrum key matrix, 50.08 Hz pacing (or flat out), the beeper; also a headless mode.
What the caller asks of it is one WindowOptions (window_options.py). Not the emulation itself
(machine.py, ula.py), not the test pattern (pattern_rom.py), not a command line (show.py)."""
import dataclasses
import os
import sys
import time
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from spectrum import hw
from spectrum.quoting import say, short_path
from spectrum.typist import Typist
from spectrum.window_options import DEFAULT_SCALE, OnFrame, WindowOptions

if TYPE_CHECKING:
    from spectrum.machine import Spectrum48

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
DEFAULTS = WindowOptions()     # a plain window: scale 3, paced, the beeper on
MAX_CATCH_UP_FRAMES = 5        # further behind than this, pacing starts afresh instead of rushing

NOTE_S = 2.0                   # a window key's note stays this long (host seconds)

# Keys of the window itself (never passed to the machine); F1 shows them in the window
WINDOW_HELP = ("F1   this box",
               "F9   sound off / on",
               "F10  fast / 50 Hz",
               "F11  full screen / window",
               "F12  screenshot (a PNG here)",
               "",
               "Shift = CAPS SHIFT",
               "Ctrl, Alt = SYMBOL SHIFT",
               "Backspace = DELETE, Esc = BREAK")


def pc_key_map(pygame: ModuleType) -> dict[int, tuple[str, ...]]:
    """pygame key code -> the Spectrum keys it holds down."""
    # pygame names a key's code K_a .. K_z, K_0 .. K_9, K_KP0 .. K_KP9: looked up by that name
    keys: dict[int, tuple[str, ...]] = {getattr(pygame, f"K_{c}"): (c.upper(),)
                                        for c in "abcdefghijklmnopqrstuvwxyz"}
    keys.update({getattr(pygame, f"K_{d}"): (d,) for d in "0123456789"})     # K_0 .. K_9 by name
    keys.update({getattr(pygame, f"K_KP{d}"): (d,) for d in "0123456789"})   # the keypad's too
    keys.update({
        pygame.K_RETURN: ("ENTER",), pygame.K_KP_ENTER: ("ENTER",),
        pygame.K_SPACE: ("SPACE",),
        pygame.K_BACKSPACE: ("CAPS SHIFT", "0"),                 # DELETE
        pygame.K_LSHIFT: ("CAPS SHIFT",), pygame.K_RSHIFT: ("CAPS SHIFT",),
        pygame.K_LCTRL: ("SYMBOL SHIFT",), pygame.K_RCTRL: ("SYMBOL SHIFT",),
        pygame.K_LALT: ("SYMBOL SHIFT",), pygame.K_RALT: ("SYMBOL SHIFT",),
        pygame.K_ESCAPE: ("CAPS SHIFT", "SPACE"),                # BREAK
        pygame.K_LEFT: ("CAPS SHIFT", "5"), pygame.K_DOWN: ("CAPS SHIFT", "6"),
        pygame.K_UP: ("CAPS SHIFT", "7"), pygame.K_RIGHT: ("CAPS SHIFT", "8"),
        pygame.K_COMMA: ("SYMBOL SHIFT", "N"), pygame.K_PERIOD: ("SYMBOL SHIFT", "M"),
        pygame.K_MINUS: ("SYMBOL SHIFT", "J"), pygame.K_SLASH: ("SYMBOL SHIFT", "V"),
        pygame.K_KP_MINUS: ("SYMBOL SHIFT", "J"), pygame.K_KP_PLUS: ("SYMBOL SHIFT", "K"),
        pygame.K_EQUALS: ("SYMBOL SHIFT", "L"), pygame.K_SEMICOLON: ("SYMBOL SHIFT", "O"),
    })
    return keys


def symbol_keys(char: str) -> tuple[str, str] | None:
    """A PC key that typed a symbol ("?" is Shift+/ on a PC) is SYMBOL SHIFT + the Spectrum
    key that has that symbol; None for letters, digits and keys that type nothing."""
    from spectrum.keyboard import SYMBOL_KEYS
    if char and char in SYMBOL_KEYS:
        return ("SYMBOL SHIFT", SYMBOL_KEYS[char])
    return None


def _pygame() -> ModuleType:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    return pygame


def frame_surface(frame: np.ndarray, scale: int = 1) -> Any:
    """A pygame Surface of the (240, 320, 3) frame, enlarged `scale` times (whole pixels)."""
    pygame = _pygame()
    frame = np.ascontiguousarray(frame, dtype=np.uint8)
    if scale != 1:
        frame = np.ascontiguousarray(frame.repeat(scale, axis=0).repeat(scale, axis=1))
    height, width = frame.shape[:2]
    # frombuffer shares the array; copy() gives the Surface its own pixels
    return pygame.image.frombuffer(frame.tobytes(), (width, height), "RGB").copy()


def save_screenshot(frame: np.ndarray, path: str | os.PathLike[str],
                    scale: int = DEFAULT_SCALE) -> str:
    """Write the frame as a (320*scale) x (240*scale) PNG; returns the path."""
    pygame = _pygame()
    path = os.fspath(path)
    pygame.image.save(frame_surface(frame, scale), path)
    return path


class DisplayLoop:
    """Runs a machine frame by frame, shown as `options` (a WindowOptions) ask. `on_frame(machine)`
    (optional) is called before each frame and may return False to stop. Attributes `fast` and
    `beeper.muted` can be changed while it runs (e.g. fast while a tape loads). Each window key
    leaves a note over the screen's last row for NOTE_S seconds (`note`), and "FAST" shows in
    the border while the machine runs flat out."""

    def __init__(self, machine: "Spectrum48", on_frame: OnFrame | None = None,
                 options: WindowOptions = DEFAULTS) -> None:
        from spectrum.audio import Beeper
        self.machine = machine
        self.on_frame = on_frame
        self.options = options
        self.fast = options.fast                # F10 turns it
        self.fullscreen = options.fullscreen    # F11 turns it
        self.beeper = Beeper(enabled=False, muted=options.mute,
                             record=options.wav_path is not None)
        self.frame = np.zeros((hw.FRAME_H, hw.FRAME_W, 3), np.uint8)
        self.screenshots: list[str] = []
        self.showing_help = False   # F1's box is up: the machine waits under it
        self.typist = Typist()
        self._shown: np.ndarray | None = None   # the picture in the window (None: draw it whole)
        self.window_size = None     # the size the player gave the window (F11 goes back to it)
        self._note = ("", 0.0)      # (words, host s until which they show)
        self._marks_shown = ("", False)

    def note(self, words: str) -> None:
        """Show `words` over the screen's last row (where a 48K program's messages go) for
        NOTE_S seconds of host time."""
        self._note = (words, time.perf_counter() + NOTE_S)

    def _marks(self) -> tuple:
        """(the note showing, whether FAST shows): what is drawn over the frame."""
        words, until_s = self._note
        return (words if time.perf_counter() < until_s else "", self.fast)

    def step(self) -> bool:
        """One frame: the program's turn, the CPU's 69,888 T, render, beeper."""
        if self.on_frame is not None and self.on_frame(self.machine) is False:
            return False
        sound = self.options.sound
        if sound is not None and self.beeper.muted == sound.is_on():
            self.beeper.set_muted(not self.beeper.muted)   # the caller's switch changed (options)
        self.machine.run_frame()
        self.machine.render(out=self.frame)
        ear_frames = self.machine.ear_frames
        while ear_frames:
            self.beeper.push(ear_frames.popleft(), play=not self.fast)
        return True

    def run_headless(self, frames: int,
                     screenshot_path: str | os.PathLike[str] | None = None) -> int:
        """No window: run `frames` frames flat out, then write the screenshot if asked."""
        for _ in range(frames):
            if not self.step():
                break
        if screenshot_path:
            save_screenshot(self.frame, screenshot_path, self.options.scale)
        self._finish()
        return 0

    def run_window(self) -> int:
        """The window until it is closed or on_frame says stop: 0; no display: one line
        on stderr and 1."""
        pygame = _pygame()
        try:
            self._open(pygame)
        except pygame.error as exc:
            message = str(exc) or "SDL could not open a window"
            say(f"{self.options.title}: no display available ({message}); "
                f"{self.options.headless_hint}")
            self._finish()
            return 1
        keymap = pc_key_map(pygame)
        deadline = time.perf_counter()
        try:
            while self._events(pygame, keymap):
                if not self.showing_help:
                    self.typist.frame(self.machine.keyboard)
                    if not self.step():
                        break
                self._show(pygame)
                deadline = self._pace(deadline, paced=not self.fast or self.showing_help)
        except KeyboardInterrupt:
            pass
        finally:
            self._finish()
            pygame.display.quit()
        return 0

    def _open(self, pygame: ModuleType) -> None:
        from spectrum.audio import _quiet_stderr
        with _quiet_stderr():           # SDL's probing of X11/Wayland chatters on fd 2
            pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
            # SDL fell back to drawing nowhere: to the user that is no display at all
            raise pygame.error(f"SDL found no screen and fell back to its {driver} driver")
        self._set_mode(pygame)
        if self.options.audio:           # the mixer opens once a window is up
            self.beeper.open()

    @staticmethod
    def _pace(deadline: float, paced: bool) -> float:
        """Sleep to the next 50.08 Hz frame (not when running flat out); the new deadline."""
        if not paced:
            return time.perf_counter()
        deadline += 1.0 / hw.FRAME_HZ
        wait_s = deadline - time.perf_counter()
        if wait_s > 0:
            time.sleep(wait_s)
        elif wait_s < -MAX_CATCH_UP_FRAMES / hw.FRAME_HZ:
            deadline = time.perf_counter()
        return deadline

    def _events(self, pygame: ModuleType, keymap: dict[int, tuple[str, ...]]) -> bool:
        """Every waiting event handled; False once the window is closed."""
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return False
            if event.type == pygame.KEYDOWN:
                self._key_down(pygame, event, keymap)
            elif event.type == pygame.KEYUP:
                self.typist.release(event.key)
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self._click(event.pos)
            elif event.type in _window_events(pygame):
                self._shown = None                         # exposed or resized: draw it whole
                # WINDOWFOCUSLOST only exists with SDL 2: older pygame builds lack it
                if event.type == getattr(pygame, "WINDOWFOCUSLOST", -1):
                    self.typist.release_all()
        return True

    def _key_down(self, pygame: ModuleType, event: Any,
                  keymap: dict[int, tuple[str, ...]]) -> None:
        if self._window_key(pygame, event.key):            # F1, F9-F12: the window's own
            return
        if self.showing_help:                              # any other key takes the box away
            self._toggle_help()
            return
        # a key event posted by hand (tests, the mouse) may carry no unicode text at all
        names = symbol_keys(getattr(event, "unicode", "")) or keymap.get(event.key)
        if names:
            self.typist.press(event.key, names)

    def _click(self, pos: tuple[int, int]) -> None:
        """A click on the Spectrum's screen types what the caller says it stands for; a
        click under the F1 box closes it; a click on the border types nothing."""
        if self.showing_help:
            self._toggle_help()
            return
        at = self._screen_point(pos)
        if at is not None and self.options.on_click is not None:
            self.typist.type(self.options.on_click(*at) or "")

    def _screen_point(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """Window pixel -> (x, y) on the 256 x 192 screen, or None off it."""
        scale, (left, top) = self._layout(self.window.get_size())
        x_px = (pos[0] - left) // scale - hw.BORDER_LEFT_PX
        y_px = (pos[1] - top) // scale - hw.BORDER_TOP_LINES
        if 0 <= x_px < hw.SCREEN_W and 0 <= y_px < hw.SCREEN_H:
            return x_px, y_px
        return None

    def _toggle_help(self) -> None:
        self.showing_help = not self.showing_help
        self._shown = None

    def _window_key(self, pygame: ModuleType, key: int) -> bool:
        if key == pygame.K_F1:
            self._toggle_help()
        elif key == pygame.K_F11:
            if not self.fullscreen:                        # the size to come back to
                self.window_size = pygame.display.get_surface().get_size()
            self.fullscreen = not self.fullscreen
            self._set_mode(pygame)
            self.note("Full screen: F11 for a window" if self.fullscreen else "A window (F11)")
        elif key == pygame.K_F12:
            self.note(self._screenshot())
        elif key == pygame.K_F10:
            self.fast = not self.fast
            self.note("Fast: F10 again for 50 Hz" if self.fast else "50 Hz, as a 48K (F10)")
        elif key == pygame.K_F9:
            self._switch_sound()
        else:
            return False
        return True

    def _switch_sound(self) -> None:
        """F9: the caller's sound switch if it gave one, else the beeper's mute."""
        sound = self.options.sound
        if sound is not None:
            sound.turn(not sound.is_on())
            muted = not sound.is_on()
        else:
            muted = not self.beeper.muted
        self.beeper.set_muted(muted)
        self.note("Sound OFF (F9 for on)" if muted else "Sound ON (F9 for off)")

    def _screenshot(self) -> str:
        """F12: the frame as a PNG in the working folder; the words that say where, or why not.
        Named by the second it was taken; another in the same second gets -2, -3, ... (none
        is written over)."""
        stamp = time.strftime("spectrum-%Y%m%d-%H%M%S")
        path = f"{stamp}.png"
        try:
            path = os.path.abspath(path)          # OSError if the working folder is gone
            taken = 1
            while os.path.exists(path):
                taken += 1
                path = os.path.abspath(f"{stamp}-{taken}.png")
            save_screenshot(self.frame, path, self.options.scale)
        except (OSError, _pygame().error) as exc:
            folder = os.path.dirname(path) or "the working folder"
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            words = f"No screenshot: {reason} in {short_path(folder)}"
            say(f"{self.options.title}: {words}")
            return words
        self.screenshots.append(path)
        say(f"screenshot: {short_path(path)}", sys.stdout)
        return f"Screenshot: {path}"

    def _set_mode(self, pygame: ModuleType) -> None:
        if self.fullscreen:
            self.window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            scale = self.options.scale
            width, height = self.window_size or (hw.FRAME_W * scale, hw.FRAME_H * scale)
            # the size the player had, but never less than the picture at scale 1
            size = (max(width, hw.FRAME_W), max(height, hw.FRAME_H))
            self.window = pygame.display.set_mode(size, pygame.RESIZABLE)
            if self.window.get_size() != size:     # SDL 2 keeps the full screen's size the
                self.window = pygame.display.set_mode(size, pygame.RESIZABLE)   # first time
        pygame.display.set_caption(self.options.title)
        self._shown = None

    @staticmethod
    def _layout(size: tuple[int, int]) -> tuple[int, tuple[int, int]]:
        """(whole-number scale, top-left corner) of the picture centred in a window."""
        width, height = size
        scale = max(1, min(width // hw.FRAME_W, height // hw.FRAME_H))
        return scale, ((width - hw.FRAME_W * scale) // 2, (height - hw.FRAME_H * scale) // 2)

    def _show(self, pygame: ModuleType) -> None:
        """Put the picture in the window: whole after a change of size or exposure, else
        only the rectangle that differs from what the window shows, and nothing at all
        (no conversion, scaling or flip) when the frame is the one already there."""
        marks = self._marks()
        if self._shown is not None and not self.showing_help and \
                not self.machine.ula.frame_changed and marks == self._marks_shown:
            return
        picture = self._help_picture() if self.showing_help else self.frame
        if any(marks):
            from spectrum import overlay
            picture = overlay.with_marks(picture, overlay.rom_font(self.machine.memory), *marks)
        self._marks_shown = marks
        self.window = pygame.display.get_surface()
        scale, (left, top) = self._layout(self.window.get_size())
        box: tuple[int, int, int, int] | None = (0, hw.FRAME_H, 0, hw.FRAME_W)
        if self._shown is None:
            self.window.fill((0, 0, 0))
        else:
            box = changed_box(self._shown, picture)
        if box is None:
            return
        y0, y1, x0, x1 = box
        part = np.ascontiguousarray(picture[y0:y1, x0:x1])
        small = pygame.image.frombuffer(part, (x1 - x0, y1 - y0), "RGB")
        scaled = pygame.transform.scale(small, ((x1 - x0) * scale, (y1 - y0) * scale))
        rect = self.window.blit(scaled, (left + x0 * scale, top + y0 * scale))
        if self._shown is None:
            self._shown = picture.copy()
            pygame.display.flip()
        else:
            self._shown[y0:y1, x0:x1] = part
            pygame.display.update(rect)

    def _help_picture(self) -> np.ndarray:
        from spectrum import overlay
        help_lines = self.options.help_lines
        lines = [*WINDOW_HELP, *([""] + list(help_lines) if help_lines else []),
                 "", "F1 or any key: back"]
        return overlay.with_box(self.frame, overlay.rom_font(self.machine.memory),
                                "THE WINDOW'S KEYS", lines)

    def _finish(self) -> None:
        if self.options.wav_path:
            self.beeper.save_wav(self.options.wav_path)


def changed_box(old: np.ndarray, new: np.ndarray) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) bounding the pixels where two frames differ, or None.
    The rows are found 8 bytes at a time (a row is 320 x 3 bytes), then the columns only
    within them: a FLASHing cursor costs a small part of a whole-frame compare."""
    height = old.shape[0]
    rows = np.flatnonzero((old.reshape(height, -1).view(np.uint64)
                           != new.reshape(height, -1).view(np.uint64)).any(axis=1))
    if not len(rows):
        return None
    top, bottom = int(rows[0]), int(rows[-1]) + 1
    columns = np.flatnonzero((old[top:bottom] != new[top:bottom]).any(axis=(0, 2)))
    return top, bottom, int(columns[0]), int(columns[-1]) + 1


def _window_events(pygame: ModuleType) -> tuple[int, ...]:
    """The events after which the window must be drawn whole (or keys let go)."""
    names = ("VIDEOEXPOSE", "VIDEORESIZE", "WINDOWEXPOSED", "WINDOWRESIZED",
             "WINDOWSIZECHANGED", "WINDOWMAXIMIZED", "WINDOWRESTORED", "WINDOWFOCUSLOST")
    # the VIDEO* events are SDL 1's, the WINDOW* SDL 2's: each build has only some of them
    return tuple(getattr(pygame, name) for name in names if hasattr(pygame, name))


def run(machine: "Spectrum48", on_frame: OnFrame | None = None,
        options: WindowOptions = DEFAULTS) -> int:
    """Show the machine in a window until it is closed (or on_frame returns False); with
    `options.headless_frames` run that many frames without a window (and without sound)
    instead. Returns an exit code (1: no display)."""
    if options.headless:
        options = dataclasses.replace(options, mute=True, audio=False, sound=None)
        loop = DisplayLoop(machine, on_frame, options)
        return loop.run_headless(options.headless_frames or 0, options.screenshot_path)
    return DisplayLoop(machine, on_frame, options).run_window()
