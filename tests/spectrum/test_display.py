"""The window and its headless twin: the screenshot option writes a 320x240 x scale PNG whose
pixels are the rendered frame; keys reach the matrix; closing is clean; no display is one
line on stderr; the test pattern shows 15 colours, FLASH and a striped border; the options
are one frozen WindowOptions."""
import dataclasses
import os
import subprocess
import sys

import numpy as np
import pygame
import pytest

from repo import REPO, TESTS
from spectrum import display, hw, show, ula
from spectrum.pattern_rom import pattern_machine
from spectrum.typist import TYPE_GAP_FRAMES, TYPE_HOLD_FRAMES
from spectrum.window_options import SoundSwitch, WindowOptions


@pytest.fixture
def test_pattern():
    return pattern_machine()


def load_png(path):
    image = pygame.image.load(str(path))
    return np.transpose(pygame.surfarray.array3d(image), (1, 0, 2)), image.get_size()


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_headless_screenshot_is_320x240_times_scale_and_matches_the_frame(tmp_path, test_pattern,
                                                                          scale):
    path = tmp_path / "shot.png"
    options = WindowOptions(headless_frames=3, screenshot_path=path, scale=scale)
    assert display.run(test_pattern, None, options) == 0
    pixels, size = load_png(path)
    assert size == (320 * scale, 240 * scale)
    frame = test_pattern.render()
    assert np.array_equal(pixels, frame.repeat(scale, axis=0).repeat(scale, axis=1))


def test_command_line_headless_test_pattern_writes_the_png(tmp_path, test_pattern):
    path = tmp_path / "tp.png"
    rc = show.main(["--test-pattern", "--headless", "2", "--screenshot", str(path),
                       "--scale", "1"])
    assert rc == 0
    _pixels, size = load_png(path)
    assert size == (320, 240)


def test_test_pattern_shows_15_colours_flash_and_a_striped_border(test_pattern):
    m = test_pattern
    for _ in range(17):
        m.run_frame()
    frame = m.render()
    colours = {tuple(c) for c in frame.reshape(-1, 3)}
    assert {tuple(c) for c in ula.PALETTE} <= colours
    border_rows = {tuple(frame[row, 0]) for row in range(240)}
    assert len(border_rows) >= 5                             # horizontal bands in the border
    flash_now = m.render()[ula.SCREEN_Y + 12 * 8, ula.SCREEN_X]
    steady = ula.render(m.mem, 0, 0, [])[ula.SCREEN_Y + 12 * 8, ula.SCREEN_X]
    assert tuple(flash_now) != tuple(steady)                 # frame 16: FLASH cells swapped


def test_window_title_keys_and_clean_close(test_pattern):
    seen = []

    def on_frame(m):
        if len(seen) == 0:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0))
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0))
        elif len(seen) == 2:
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_a, mod=0))
        elif len(seen) == 12:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        seen.append((m.keyboard.is_pressed("A"), m.keyboard.is_pressed("CAPS SHIFT"),
                     m.keyboard.is_pressed("0"), pygame.display.get_caption()[0]))
        return len(seen) < 50

    loop = display.DisplayLoop(test_pattern, on_frame, WindowOptions(
        scale=1, fast=True, title="Spectrum Backgammon"))         # the caller's title
    assert loop.run_window() == 0
    hold, gap = TYPE_HOLD_FRAMES, TYPE_GAP_FRAMES
    # two keys pressed together are two strokes, one after the other, each held `hold` frames
    assert [s[:3] for s in seen[1:1 + hold]] == [(True, False, False)] * hold
    assert seen[1 + hold][:3] == (False, False, False)
    assert seen[1 + hold + gap][:3] == (False, True, True)         # DELETE: CAPS SHIFT + 0
    assert seen[1][3] == "Spectrum Backgammon"
    assert len(seen) == 13                                   # QUIT ended the loop at once
    assert not pygame.display.get_init()


def test_screenshot_key_saves_a_png(tmp_path, test_pattern, monkeypatch):
    monkeypatch.chdir(tmp_path)
    count = []

    def on_frame(m):
        count.append(1)
        if len(count) == 2:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0))
        return len(count) < 4

    loop = display.DisplayLoop(test_pattern, on_frame, WindowOptions(scale=2, fast=True))
    assert loop.run_window() == 0
    assert len(loop.screenshots) == 1
    _pixels, size = load_png(tmp_path / loop.screenshots[0])
    assert size == (640, 480)


def test_two_screenshots_in_one_second_are_two_files(tmp_path, test_pattern, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(display.time, "strftime", lambda fmt: "spectrum-20261129-103952")
    count = []

    def on_frame(m):
        count.append(1)
        if len(count) in (2, 3):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0))
        return len(count) < 5

    loop = display.DisplayLoop(test_pattern, on_frame, WindowOptions(scale=1, fast=True))
    assert loop.run_window() == 0
    assert [os.path.basename(p) for p in loop.screenshots] == [
        "spectrum-20261129-103952.png", "spectrum-20261129-103952-2.png"]
    assert sorted(os.listdir(tmp_path)) == ["spectrum-20261129-103952-2.png",
                                            "spectrum-20261129-103952.png"]


def test_paced_mode_runs_at_50_hz(test_pattern):
    import time
    frames = []

    def on_frame(m):
        frames.append(time.perf_counter())
        return len(frames) < 12

    display.DisplayLoop(test_pattern, on_frame, WindowOptions(scale=1, mute=True)).run_window()
    # paced: never ahead of the 48K's 50.08 Hz clock, counted from the first frame (a frame
    # a busy host made late is caught up at once, so two frames may come closer than 20 ms,
    # but none comes before its time; how fast a busy machine keeps up is bench/frame.py's)
    frame_s = 1 / hw.FRAME_HZ
    for k, at_s in enumerate(frames[1:], start=1):
        assert at_s - frames[0] >= (k - 1) * frame_s, f"frame {k} came early"


def test_no_display_is_one_line_not_a_traceback_and_exit_code_1(tmp_path):
    """No video driver: one line saying so and how to run headless, exit code 1."""
    code = (f"import sys; sys.path.insert(0, {str(TESTS)!r}); "
            "from spectrum import display, pattern_rom; "
            "sys.exit(display.run(pattern_rom.pattern_machine()))")
    env = dict(os.environ, SDL_VIDEODRIVER="nosuchdriver")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                            timeout=60, cwd=str(REPO))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no display available" in lines[0] and "--headless" in lines[0]


def test_headless_works_without_any_display(tmp_path):
    code = (f"import sys; sys.path.insert(0, {str(TESTS)!r}); "
            "from spectrum import display, pattern_rom, window_options; "
            "sys.exit(display.run(pattern_rom.pattern_machine(), None, "
            "window_options.WindowOptions(headless_frames=2, "
            f"screenshot_path={str(tmp_path / 'h.png')!r}, scale=1)))")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["SDL_VIDEODRIVER"] = "nosuchdriver"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                            timeout=60, cwd=str(REPO))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "h.png").exists()


def test_scale_must_be_positive(capsys, test_pattern):
    assert show.main(["--test-pattern", "--scale", "0", "--headless", "1"]) == 2
    assert "--scale" in capsys.readouterr().err


def test_window_options_are_frozen_and_refuse_a_scale_under_1():
    options = WindowOptions(help_lines=["a", "b"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.fast = True                                  # type: ignore[misc]
    assert options.help_lines == ("a", "b")
    with pytest.raises(ValueError, match="at least 1"):
        WindowOptions(scale=0)


def test_headless_runs_mute_and_never_touches_the_callers_sound_switch(tmp_path, test_pattern):
    """The sound switch is the window's F9: with no window it is neither read nor turned, and
    the beeper stays quiet whatever the options said."""
    asked = []
    switch = SoundSwitch(is_on=lambda: asked.append("is_on") or True,
                         turn=lambda on: asked.append(("turn", on)))
    seen = []

    def on_frame(m):
        seen.append(m.frame_count)
    options = WindowOptions(headless_frames=3, screenshot_path=tmp_path / "s.png", sound=switch)
    assert display.run(test_pattern, on_frame, options) == 0
    assert len(seen) == 3 and asked == [] and (tmp_path / "s.png").exists()
