"""A whole match as a person plays it (issue 52): the console's Runner in a real DisplayLoop
window (SDL's dummy driver), from the first question to the match-over page and the .mat
export, with real KEYDOWN/KEYUP events held in host time or with mouse clicks alone. A
3-point match with the cube: a double offered at the cube stop and taken, a redouble
dropped, the Crawford game (no stop in it); the score on the match-over page is the one
GNU Backgammon reads from the exported .mat. Seeded dice, the computer at level 1 through
USR, its cube decisions scripted, so each run is the same match."""
import json

import pytest

from game.board import screen as S
from spectrum.screen_text import screen_text
from whole_match_player import (
    HOLD_FRAMES,
    SEED,
    SETTINGS,
    Hands,
    Seen,
    page_score_is_gnubgs,
    play_match,
)
from windowdriver import Player, window_config


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                  # the .mat is exported where the game runs
    return window_config(tmp_path, monkeypatch, SETTINGS)


def check_the_match(seen: Seen, player: Player, config) -> None:
    """The cube went as scripted and the page's score is gnubg's."""
    assert seen.doubled and seen.dropped
    games = {number for number, _crawford in seen.stops}
    assert 1 in games                                    # the double, at the first game's stop
    assert not any(crawford for _number, crawford in seen.stops)   # no stop in the Crawford game
    assert seen.crawford_turns                           # the Crawford game was played
    page_score_is_gnubgs(seen, player, config)


def test_a_three_point_match_with_the_cube_played_at_the_keys(config):
    seen, player = play_match(config, mouse=False)
    assert seen.keys_pressed == len(seen.held_frames) > 0     # each key pressed was let go ...
    assert min(seen.held_frames) >= HOLD_FRAMES[0]            # ... held 2 frames at least
    check_the_match(seen, player, config)


def test_the_same_match_with_the_mouse_alone(config):
    seen, player = play_match(config, mouse=True)
    assert seen.keys_pressed == 0
    check_the_match(seen, player, config)


def test_the_options_rows_and_key_line_answer_clicks(config):
    """O at "Your move?" (typed), then clicks only: the row "G Cube stop" steps the option
    to WHEN CLOSE, back, and to WHEN CLOSE again; the footer's "ENTER to play on" leaves,
    and the settings file has WHEN CLOSE."""
    from game.files.settings import MENU_KEYS
    from game.pages.options_page import HINT_ROW, OPTION_FIRST_ROW
    player = Player(seed=SEED, frames=3000)
    hands = Hands(player, mouse=True)
    state = {"asked": False, "clicked": 0, "seen": []}
    row = OPTION_FIRST_ROW + MENU_KEYS.index("G")

    def script(p):
        if hands.busy():
            return True
        lines = screen_text(p.machine.memory)
        if p.at_move_prompt() and not state["asked"]:
            state["asked"] = True
            hands.press("o\n")
        elif lines[0].strip() == "OPTIONS" and state["clicked"] < 3:
            state["seen"].append(lines[row].split()[-2:])
            state["clicked"] += 1
            hands.click(4, row)                      # on "Cube stop", left of its value
        elif lines[0].strip() == "OPTIONS":
            state["seen"].append(lines[row].split()[-2:])
            hands.answer("\n", lines[S.ROWS - 1], S.ROWS - 1)
            state["clicked"] += 1
        elif state["clicked"] > 3 and p.at_move_prompt():
            return False
        return True
    player.run(script)
    assert row < HINT_ROW
    assert state["seen"] == [["stop", "ALWAYS"], ["WHEN", "CLOSE"], ["stop", "ALWAYS"],
                             ["WHEN", "CLOSE"]]
    assert json.loads((config / "settings.json").read_text())["cube_stop"] == "close"
    assert hands.seen.keys_pressed == 2                   # O and ENTER; the rest clicks


# The resignations, the game typed at F10 speed and the money session: test_whole_match_resign.py
