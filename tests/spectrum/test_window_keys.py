"""The window's own keys say what they did (issue 52 item 5): F9 is the options' Sound and
leaves a note over the message line, F10's FAST shows in the border for as long as it is on,
F12 names the PNG's full path (or why there is none), F11 back to a window gives the size
the player had; a window resized to 1 pixel goes on. The real game in a DisplayLoop
window, SDL's dummy drivers."""
import os

import numpy as np
import pygame
import pytest

from game.board import screen as S
from game.files.settings import load_settings
from spectrum import hw, overlay
from spectrum.ula import PALETTE
from windowdriver import SCALE, Player, window_config

SETTINGS = {"cube": False, "who_starts": "human", "sound": True}


@pytest.fixture
def config(tmp_path, monkeypatch):
    return window_config(tmp_path, monkeypatch, SETTINGS)


def window_rows(top_px, bottom_px):
    """The window's pixels (as array3d: x, y, rgb) between two frame rows, scaled."""
    picture = pygame.surfarray.array3d(pygame.display.get_surface())
    return picture[:, top_px * SCALE:bottom_px * SCALE]


def count_colour(pixels, colour) -> int:
    return int(np.all(pixels == PALETTE[colour], axis=2).sum())


def press(key):
    """Steps: the key pressed and let go, then a frame for the window to take it and draw."""
    def down_up(p):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0))
    return [down_up, lambda p: None]


def at_prompt_then(steps):
    """A script: at "Your move?", each step(p) in turn, one a frame after the last; a step
    may return "wait" to be run again next frame."""
    todo = list(steps)

    def script(p):
        if not p.at_move_prompt() or not todo:
            return bool(todo)
        if todo[0](p) != "wait":
            todo.pop(0)
        return True
    return script


def test_f9_is_the_options_sound_and_says_so_on_the_message_line(config):
    """F9 switches Settings.sound (saved in settings.json, as the options page saves it), the
    BEEPs and the beeper with it, and a note over the message line says which it now is;
    F9 again switches it back."""
    seen = {}
    note_top = overlay.NOTE_TOP_PX

    def look(name):
        def step(p):
            seen[name] = (p.runner.session.settings.sound, p.runner.basic.silent,
                          p.loop.beeper.muted, p.loop._marks()[0],
                          count_colour(window_rows(note_top, note_top + 8), overlay.NOTE_INK))
        return step
    player = Player(frames=3000)
    player.run(at_prompt_then([look("before"), *press(pygame.K_F9), look("off"),
                               *press(pygame.K_F9), look("on")]))
    assert seen["before"][:4] == (True, False, False, "")
    assert seen["off"][:4] == (False, True, True, "Sound OFF (F9 for on)")
    assert seen["on"][:4] == (True, False, False, "Sound ON (F9 for off)")
    assert seen["off"][4] > seen["before"][4] + 100          # the note's words are drawn
    settings, warning = load_settings(config / "settings.json", warn=None)
    assert warning is None and settings.sound is True


def test_f10_shows_fast_in_the_border_for_as_long_as_it_is_on(config):
    seen = []

    def look(p):
        corner = window_rows(0, 8)[:48 * SCALE]
        seen.append((p.loop.fast, count_colour(corner, overlay.NOTE_INK)))
    player = Player(frames=3000)
    player.run(at_prompt_then([look, *press(pygame.K_F10), look, look,
                               *press(pygame.K_F10), look]))
    assert [fast for fast, _blue in seen] == [True, False, False, True]   # the driver starts fast
    assert seen[0][1] > 100 and seen[1][1] == seen[2][1] == 0 and seen[3][1] > 100


def test_f12_names_the_full_path_and_an_unwritable_folder_is_said_not_crashed(
        config, tmp_path, monkeypatch, capsys):
    shots = tmp_path / "shots"
    shots.mkdir()
    monkeypatch.chdir(shots)
    notes = []
    player = Player(frames=3000)

    def gone(p):                     # the working folder removed under the program's feet
        (tmp_path / "gone").mkdir()
        os.chdir(tmp_path / "gone")
        os.rmdir(tmp_path / "gone")
    player.run(at_prompt_then([*press(pygame.K_F12),
                               lambda p: notes.append(p.loop._marks()[0]), gone,
                               *press(pygame.K_F12),
                               lambda p: notes.append(p.loop._marks()[0])]))
    assert len(player.loop.screenshots) == 1
    path = player.loop.screenshots[0]
    assert os.path.isabs(path) and notes[0] == f"Screenshot: {path}"
    assert os.path.getsize(path) > 1000
    assert notes[1] == "No screenshot: No such file or directory in the working folder"
    assert "No screenshot" in capsys.readouterr().err
    assert player.count < 3000 or player.game is not None       # the game went on


def test_a_long_path_keeps_its_file_name_in_the_note():
    lines = overlay.note_lines("Screenshot: /home/" + "a-long-folder-name/" * 12 +
                               "spectrum-20260101-120000.png")
    assert len(lines) == overlay.NOTE_LINES
    assert all(len(line) <= overlay.NOTE_COLUMNS for line in lines)
    assert lines[0].startswith("...") and lines[-1].endswith("spectrum-20260101-120000.png")


def test_f11_back_to_a_window_gives_the_size_the_player_had_and_1_pixel_goes_on(config):
    sizes = []

    def resize(size):
        def step(p):
            pygame.display.set_mode(size, pygame.RESIZABLE)
            pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0],
                                                 h=size[1]))
        return [step, lambda p: None]

    def look(p):
        sizes.append(pygame.display.get_surface().get_size())
    clicks = lambda p: [pygame.event.post(pygame.event.Event(  # noqa: E731
        pygame.MOUSEBUTTONDOWN, pos=pos, button=1)) for pos in ((0, 0), (1, 1), (5, 400))]
    player = Player(frames=3000)
    player.run(at_prompt_then([*resize((777, 555)), look, *press(pygame.K_F11), look,
                               *press(pygame.K_F11), look,
                               *resize((1, 1)), look, clicks, look,
                               *press(pygame.K_F11), *press(pygame.K_F11),
                               look]))
    assert sizes[0] == sizes[2] == (777, 555)
    assert sizes[3] == sizes[4] == (1, 1)                # the picture is cut, nothing breaks
    assert sizes[5] == (hw.FRAME_W, hw.FRAME_H)          # back: at least the whole picture
    assert player.game.prompt.entering


def test_the_message_row_is_where_the_notes_go():
    assert overlay.NOTE_TOP_PX == hw.BORDER_TOP_LINES + S.MESSAGE_ROW * 8


def test_a_folder_that_refuses_the_png_is_named_with_the_reason(tmp_path, monkeypatch, capsys):
    """A folder the PNG cannot be written in (as root no mode bit refuses it, so the refusal
    is the OS's answer to the save): the reason and the folder in the note and on stderr."""
    from spectrum import display
    from spectrum.pattern_rom import pattern_machine
    from spectrum.window_options import WindowOptions

    def refuse(frame, path, scale):
        raise PermissionError(13, "Permission denied", path)
    monkeypatch.setattr(display, "save_screenshot", refuse)
    monkeypatch.chdir(tmp_path)
    loop = display.DisplayLoop(pattern_machine(), options=WindowOptions(audio=False))
    words = loop._screenshot()
    assert words == f"No screenshot: Permission denied in {tmp_path}"
    assert words in capsys.readouterr().err and loop.screenshots == []
