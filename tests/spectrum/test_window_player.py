"""The window as a desktop player uses it (issue 42): a frame that did not change is not
converted, scaled or flipped, and a change redraws only its rectangle; F1 shows the window's
own keys over the screen and any key takes them away; the mouse types what keys would (a
point's letter, z on the bar, a die's number, ENTER on the message line), so a move can be
made with clicks; a resized window keeps whole-number scaling, centred; clicks anywhere and
floods of clicks and keys never crash. The real game on the real machine, SDL's dummy
drivers."""
import random
import time
from itertools import pairwise

import numpy as np
import pygame
import pytest

from game.board import clicks
from game.board import screen as S
from game.model.position import Position
from screentext import text_at
from spectrum import display, hw
from spectrum.typist import TYPE_GAP_FRAMES, TYPE_HOLD_FRAMES, Typist
from windowdriver import SCALE, Player, window_config

SETTINGS = {"cube": False, "who_starts": "human", "sound": False}


@pytest.fixture
def config(tmp_path, monkeypatch):
    return window_config(tmp_path, monkeypatch, SETTINGS)


def test_key_at_names_each_point_the_bar_a_die_and_the_message_line():
    screen = S.Screen(bytearray(65536), lambda *args: None)
    screen.dice = {True: (3, True), False: (5, False)}
    for mirrored in (False, True):
        screen.mirrored = mirrored
        for point in range(1, 25):
            col, top = screen.point_cell(point)
            for row in ((1, 5, 10) if top else (12, 17, 22)):
                assert clicks.key_at(screen, col * 8 + 3, row * 8 + 2) == S.POINT_LETTERS[point - 1]
        bar = screen.column(S.BAR_COL, S.BAR_COLS)
        assert clicks.key_at(screen, bar * 8, 40) == clicks.key_at(screen, bar * 8 + 15, 150) == "z"
        die = screen.column(S.DIE_COL, S.DIE_CELLS)
        assert clicks.key_at(screen, die * 8 + 1, S.TOP_DIE_ROW * 8 + 1) == "3"
        assert clicks.key_at(screen, die * 8 + 23, S.BOTTOM_DIE_ROW * 8 + 23) == "5"
        assert clicks.key_at(screen, 120, S.MESSAGE_ROW * 8 + 3) == "\n"
        assert clicks.key_at(screen, 120, 11 * 8 + 3) == ""            # between the two halves
    screen.dice = {True: (None, True), False: (None, False)}
    assert clicks.key_at(screen, die * 8 + 1, S.TOP_DIE_ROW * 8 + 1) == ""   # no die shown there


def test_two_clicks_and_a_click_on_the_message_line_make_a_step(config):
    """Seed 7 throws 3-2 to the human: click point h, the die showing 3, the message line:
    the man on h moves to e, as "h3" typed at the keys would."""
    player = Player()
    state = {"clicked": False}

    def script(p):
        if p.at_move_prompt() and not state["clicked"]:
            h_col, _top = p.game.table.screen.point_cell(8)
            die_col = p.game.table.screen.column(S.DIE_COL, S.DIE_CELLS)
            face_rows = {face: (S.TOP_DIE_ROW if top else S.BOTTOM_DIE_ROW)
                         for top, (face, _black) in p.game.table.screen.dice.items()}
            p.click_cell(h_col, 18)
            p.click_cell(die_col + 1, face_rows[3] + 1)
            p.click_cell(5, S.MESSAGE_ROW)
            state["clicked"] = True
        elif state["clicked"] and p.game.state.turn is not None and p.game.state.turn.made:
            state["made"] = list(p.game.state.turn.made)
            return False
        return True
    player.run(script)
    assert state["made"] == [(Position.index_of_letter("h"), 3)]


def test_clicks_anywhere_and_floods_of_clicks_and_keys_never_crash(config):
    rng = random.Random(42)

    def script(p):
        for _ in range(rng.randint(0, 3)):
            pos = (rng.randint(-5, 330 * SCALE), rng.randint(-5, 250 * SCALE))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos,
                                                 button=rng.choice((1, 1, 2, 3))))
        if rng.random() < 0.3:
            key = rng.choice((pygame.K_a, pygame.K_RETURN, pygame.K_4, pygame.K_h, pygame.K_n))
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0))
        return True
    player = Player(frames=1500)
    player.run(script)
    assert player.count == 1500                       # the program ran on to the end


def test_an_unchanged_frame_is_not_drawn_again_and_a_change_redraws_its_rectangle(
        config, monkeypatch):
    """Waiting at "Your move?", frames pass with nothing drawn but the cursor's FLASH
    (every 16 frames), and each of those redraws only the cursor's cell."""
    updates = []
    monkeypatch.setattr(pygame.display, "flip", lambda: updates.append("whole"))
    monkeypatch.setattr(pygame.display, "update", lambda rect=None: updates.append(rect))
    seen = {"waiting": 0}

    def script(p):
        if p.at_move_prompt():
            if seen["waiting"] == 0:
                updates.clear()
            seen["waiting"] += 1
            return seen["waiting"] <= 160
        return True
    Player().run(script)
    assert updates and "whole" not in updates
    assert len(updates) <= 160 // hw.FLASH_PERIOD_FRAMES + 2         # the FLASH, no more
    for rect in updates:                                 # one character cell, scaled
        assert rect.width <= 8 * SCALE and rect.height <= 8 * SCALE


def test_f1_shows_the_window_keys_over_the_screen_and_any_key_takes_them_away(config):
    """F1 at "Your move?": the box is drawn over the screen and the machine waits under it
    (no frame runs); a key (SPACE, sent 0.3 s later by SDL's timer) takes it away and is
    not typed into the game."""
    shown = {}

    def script(p):
        if p.at_move_prompt() and "before" not in shown:
            shown["before"] = pygame.surfarray.array3d(pygame.display.get_surface()).copy()
            shown["frame"] = p.machine.frame_count
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, mod=0))
            pygame.time.set_timer(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE,
                                                     mod=0), 300, loops=1)
        elif "before" in shown and "frames_under_box" not in shown:
            shown["frames_under_box"] = p.machine.frame_count - shown["frame"]
            shown["space"] = p.machine.keyboard.is_pressed("SPACE")
        return "after" not in shown
    player = Player()
    real_show = player.loop._show

    def show_and_look(pygame_module):
        real_show(pygame_module)
        picture = pygame.surfarray.array3d(pygame.display.get_surface()).copy()
        if player.loop.showing_help and "box" not in shown:
            shown["box"] = picture
        elif "box" in shown and "after" not in shown and not player.loop.showing_help:
            shown["after"] = picture
    player.loop._show = show_and_look
    player.run(script)

    def bright_blue(picture):                   # the box's title bar is BRIGHT blue paper
        return int(np.all(picture == [0, 0, hw.BRIGHT_LEVEL], axis=2).sum())
    assert bright_blue(shown["box"]) > 100 * 8 * SCALE * SCALE
    assert bright_blue(shown["before"]) == bright_blue(shown["after"]) == 0
    assert shown["frames_under_box"] == 1        # the frame after F1 was the next one run
    assert not shown["space"]                    # the key closed the box and did nothing else


def test_a_resized_window_keeps_whole_number_scaling_centred():
    assert display.DisplayLoop._layout((1000, 800)) == (3, ((1000 - 960) // 2, (800 - 720) // 2))
    assert display.DisplayLoop._layout((700, 500)) == (2, (30, 10))
    assert display.DisplayLoop._layout((100, 100)) == (1, (-110, -70))


class Matrix:
    """What the typist sets, frame by frame."""

    def __init__(self):
        self.seen = []

    def set_pressed(self, names):
        self.seen.append(tuple(names))

    def strokes(self, name):
        """How many times `name` went down."""
        pressed = [name in names for names in self.seen]
        return sum(1 for before, now in pairwise([False, *pressed]) if now and not before)


class Clock:
    def __init__(self):
        self.now_s = 0.0

    def __call__(self):
        return self.now_s


@pytest.mark.parametrize("frames_per_host_s", [50, 2000])      # paced, and flat out (F10)
def test_a_pc_key_is_one_stroke_of_the_same_frames_whatever_the_speed(frames_per_host_s):
    """A key held 0.1 s of host time is held TYPE_HOLD_FRAMES emulated frames, once, at
    50 Hz and at 2,000 frames a second; one pressed and let go between two frames too."""
    clock, keys = Clock(), Matrix()
    typist = Typist(clock)
    typist.press("k5", ("5",))
    for frame in range(frames_per_host_s):                     # one host second
        clock.now_s = frame / frames_per_host_s
        if clock.now_s >= 0.1:
            typist.release("k5")
        typist.frame(keys)
    assert keys.strokes("5") == 1
    assert sum("5" in names for names in keys.seen) == TYPE_HOLD_FRAMES
    typist.press("kn", ("N",))
    typist.release("kn")                                       # before the next frame
    for _ in range(10):
        typist.frame(keys)
    assert keys.strokes("N") == 1


@pytest.mark.parametrize("frames_per_host_s", [50, 2000])
def test_a_held_pc_key_repeats_after_the_48k_delay_in_host_time(frames_per_host_s):
    """Held 0.6 s: one character. Held 1.25 s: the first, then from 0.7 s (REPDEL) one every
    0.1 s (REPPER) flat out; at 50 Hz as often as a stroke and its gap allow (8 frames)."""
    for held_s, flat_out, paced in ((0.6, 1, 1), (1.25, 7, 5)):
        clock, keys = Clock(), Matrix()
        typist = Typist(clock)
        typist.press("k5", ("5",))
        for frame in range(2 * frames_per_host_s):
            clock.now_s = frame / frames_per_host_s
            if clock.now_s >= held_s:
                typist.release("k5")
            typist.frame(keys)
        assert keys.strokes("5") == (flat_out if frames_per_host_s > 50 else paced)


def test_shift_held_with_a_key_shifts_its_stroke_and_a_lost_focus_lets_all_go():
    clock, keys = Clock(), Matrix()
    typist = Typist(clock)
    typist.press("shift", ("CAPS SHIFT",))
    typist.press("a", ("A",))
    typist.release("shift")                        # let go before the stroke was typed
    typist.frame(keys)
    assert set(keys.seen[-1]) == {"CAPS SHIFT", "A"}
    typist.press("ctrl", ("SYMBOL SHIFT",))
    typist.release_all()
    for _ in range(20):
        typist.frame(keys)
    assert keys.seen[-1] == ()


def typed(line):
    """What was typed after "Your move? " (the ROM's cursor, an L or C, taken off)."""
    text = line.split("? ", 1)[1].rstrip()
    return text[:-1] if text[-1:] in ("L", "C") else text


def hold_keys(keys_and_holds_s, fast):
    """A script: at "Your move?" each (pygame key, host seconds) is pressed with a real
    KEYDOWN and let go with a KEYUP that long after, the loop at `fast` (F10 pressed to
    change it, as a player would); the message line read before the last key and after."""
    state = {"todo": list(keys_and_holds_s)}

    def script(p):
        if not p.at_move_prompt() and "typing" not in state:
            return True
        state["typing"] = True
        if p.loop.fast != fast:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10, mod=0))
        now_s = time.perf_counter()
        if "up_at" in state:
            if now_s < state["up_at"]:
                return True
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=state.pop("key"), mod=0))
            del state["up_at"]
            state["settle_until"] = now_s + 0.3
            return True
        if now_s < state.get("settle_until", 0):
            return True
        if not state["todo"]:
            state["after"] = text_at(p.machine, S.MESSAGE_ROW, 0, 32)
            return False
        if len(state["todo"]) == 1:
            state["before"] = text_at(p.machine, S.MESSAGE_ROW, 0, 32)
        key, hold_s = state["todo"].pop(0)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        state.update(key=key, up_at=now_s + hold_s)
        return True
    return state, script


@pytest.mark.parametrize("fast", [False, True])
def test_h3_typed_with_real_key_holds_is_h3_at_50_hz_and_flat_out(config, fast):
    """Issue 52 finding 2: h, 3, ENTER, each held 0.1 s of host time, make the step h3 (seed
    7 throws 3-2) at 50 Hz and with F10 on: no "333..." and no ENTER repeated."""
    state, script = hold_keys([(pygame.K_h, 0.1), (pygame.K_3, 0.1), (pygame.K_RETURN, 0.1)],
                              fast)
    player = Player(frames=10**7)
    player.run(script)
    assert typed(state["before"]) == "h3"
    assert player.game.state.turn.made == [(Position.index_of_letter("h"), 3)]
    assert "Type" not in state["after"]                   # ENTER was taken once, not again


@pytest.mark.parametrize("fast", [False, True])
def test_a_key_held_a_second_repeats_the_same_at_both_speeds(config, fast):
    """DELETE (Backspace) held 1.0 s after "h" rubs it out and repeats, harmlessly; then h
    held 0.3 s is one h however many frames ran meanwhile."""
    state, script = hold_keys([(pygame.K_h, 0.1), (pygame.K_BACKSPACE, 1.0), (pygame.K_h, 0.3)],
                              fast)
    Player(frames=10**7).run(script)
    assert typed(state["after"]) == "h"


def test_f10_pressed_while_a_key_is_held_types_it_once(config):
    """F10 (to fast and back) while h is held 0.4 s: still one h."""
    state = {}

    def script(p):
        if not p.at_move_prompt():
            return True
        now_s = time.perf_counter()
        if "down_at" not in state:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=0))
            state["down_at"] = now_s
        elif now_s - state["down_at"] > 0.1 and state.setdefault("f10", 0) < 2 and \
                now_s - state["down_at"] > 0.1 + 0.1 * state["f10"]:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10, mod=0))
            state["f10"] += 1
        elif now_s - state["down_at"] > 0.4 and "up" not in state:
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_h, mod=0))
            state["up"] = now_s
        elif "up" in state and now_s - state["up"] > 0.3:
            state["line"] = text_at(p.machine, S.MESSAGE_ROW, 0, 32)
            return False
        return True
    Player(frames=10**7).run(script)
    assert state["f10"] == 2 and typed(state["line"]) == "h"


def test_typed_characters_are_each_held_then_let_go():
    typist = Typist()

    class Keys:
        def set_pressed(self, names):
            self.seen.append(tuple(names))
    keys = Keys()
    keys.seen = []
    typist.type("k4\n?")
    for _ in range(40):
        typist.frame(keys)
    pressed = [names for names in keys.seen if names]
    runs = [pressed[0]] + [b for a, b in pairwise(pressed) if a != b]
    assert runs == [("K",), ("4",), ("ENTER",), ("SYMBOL SHIFT", "C")]
    assert keys.seen[TYPE_HOLD_FRAMES] == ()             # let go in between
    assert keys.seen[TYPE_HOLD_FRAMES + TYPE_GAP_FRAMES] == ("4",)


def test_the_game_with_no_display_says_so_in_one_line_with_how_to_run_headless(tmp_path):
    """The console script where SDL has no video driver: one line naming the problem and
    the headless options, exit code 1, no traceback."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, SDL_VIDEODRIVER="nosuchdriver",
               SPECTRUM_BACKGAMMON_CONFIG_DIR=str(tmp_path))
    result = subprocess.run([sys.executable, "-c",
                             "import sys; from game.main import main; sys.exit(main())",
                             "--tape", "instant"], env=env, capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(lines) == 1 and "no display available" in lines[0]
    assert "--screenshot FILE.png --frames N" in lines[0]
