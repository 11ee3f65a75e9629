"""A move typed as one burst of key events (issue 59 item 7): F10, then at once h3 ENTER h2
ENTER, every KEYDOWN and KEYUP posted together while F10's note shows, plays both steps, as
the same burst does at 50 Hz. (The ENTERs the finding lost never reached the window: xdotool
`type` sends a newline as the Linefeed keysym, for which SDL 2 makes no event at all; a
Return, `\\r` to xdotool, arrives as K_RETURN.) The real game in a real DisplayLoop window,
SDL's dummy drivers."""
import pygame
import pytest

from game.board import screen as S
from spectrum.screen_text import line_text
from windowdriver import Player, window_config

SETTINGS = {"cube": False, "who_starts": "human", "sound": True}
BURST = "h3\nh2\n"              # seed 7 throws the person 3-2 at the first "Your move?"


@pytest.fixture
def config(tmp_path, monkeypatch):
    return window_config(tmp_path, monkeypatch, SETTINGS)


def post_burst(text: str) -> None:
    """Every key of text pressed and let go, all posted at once (one frame's events)."""
    for ch in text:
        key = pygame.K_RETURN if ch == "\n" else pygame.key.key_code(ch)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0,
                                             unicode="\r" if ch == "\n" else ch))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0))


def burst_script(f10: bool, seen: dict):
    """At the first "Your move?" (the window at 50 Hz): F10 if asked, then next frame the
    burst; then watch the person's steps until the computer's turn shows."""
    def script(p):
        if "burst_at" not in seen:
            if not p.at_move_prompt():
                return True
            if "f10" not in seen:
                p.loop.fast = False
                seen["f10"] = f10
                if f10:
                    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10, mod=0))
                    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_F10, mod=0))
                return True
            seen["note"], seen["fast"] = p.loop._marks()
            p.game.on_event = seen.setdefault("events", []).append     # what the game did
            post_burst(BURST)
            seen["burst_at"] = p.count
            return True
        seen["line"] = line_text(p.machine.memory, S.MESSAGE_ROW)
        return "Your move?" in seen["line"]      # (called once the keys have all been typed)
    return script


@pytest.mark.parametrize("f10", [True, False], ids=["F10 then the burst", "50 Hz"])
def test_a_move_typed_as_one_burst_with_its_enters_plays_both_steps(config, f10):
    seen: dict = {}
    Player(frames=4000).run(burst_script(f10, seen))
    assert seen["fast"] is f10
    assert seen["note"] == ("Fast: F10 again for 50 Hz" if f10 else "")    # the note showed
    assert seen["events"][0] == "human 32 h3 h2"     # both steps, each taken at its ENTER
    assert "Your move?" not in seen["line"]
