"""Saving and resuming a match in progress; damaged saves set aside (game/files/savegame.py)."""
import json

import pytest

from game.files.savegame import SavedGame, discard_save, has_save, load_game, save_game
from game.files.settings import Settings
from game.model.match import COMPUTER, HUMAN, Match

START_ID = "4HPwATDgc/ABMA"        # gnubg's ID of the starting position


def match_in_progress():
    m = Match(5, names={HUMAN: "You", COMPUTER: "Spectrum"})
    m.start_game()
    m.start_turn(HUMAN)
    m.dice_rolled()
    m.record_move(HUMAN, (3, 1), "8/5 6/5")
    m.start_turn(COMPUTER)
    m.double(COMPUTER)
    m.take()
    m.dice_rolled()
    return m


def test_save_and_resume_restores_everything(config):
    m = match_in_progress()
    s = Settings(level=3, board_style="parchment")
    save_game(SavedGame(m, START_ID, COMPUTER, (6, 4), s, {"typed": ["x6"]}))
    assert has_save()

    saved, warning = load_game()
    assert warning is None
    assert saved.match.to_dict() == m.to_dict()
    assert (saved.position_id, saved.turn, saved.dice) == (START_ID, COMPUTER, (6, 4))
    assert saved.settings == s and saved.extra == {"typed": ["x6"]}
    assert (saved.match.cube_value, saved.match.cube_owner) == (2, HUMAN)
    assert not saved.match.can_double(COMPUTER).allowed      # it had rolled
    assert saved.match.record.games[0].actions[0].play == "8/5 6/5"


def test_save_before_rolling_keeps_no_dice(config):
    m = Match(None)
    m.start_game()
    m.start_turn(HUMAN)
    save_game(SavedGame(m, START_ID, HUMAN))
    saved, _ = load_game()
    assert saved.dice is None and saved.match.can_double(HUMAN).allowed


def test_no_save_means_a_fresh_start(config):
    said = []
    assert load_game(warn=said.append) == (None, None) and said == []
    assert not has_save()


def test_discard_removes_the_save(config):
    save_game(SavedGame(match_in_progress(), START_ID, COMPUTER))
    discard_save()
    assert not has_save()
    discard_save()                                  # twice is harmless


def good_save_text():
    return json.dumps(SavedGame(match_in_progress(), START_ID, COMPUTER, (2, 1)).to_dict())


def damage(text, how):
    data = json.loads(text)
    if how == "truncated":
        return text[: len(text) // 2]
    if how == "binary":
        return "\x00\xff garbage"
    if how == "not-ours":
        data["format"] = "something-else"
    elif how == "bad-position-id":
        data["position_id"] = "not an id!"
    elif how == "impossible-position":
        data["position_id"] = "//////////////"     # far more than 15 men a side
    elif how == "bad-dice":
        data["dice"] = [7, 1]
    elif how == "bad-turn":
        data["turn"] = "nobody"
    elif how == "bad-cube":
        data["match"]["cube_value"] = 3
    elif how == "bad-settings":
        data["settings"]["level"] = 11
    elif how == "bad-record":
        data["match"]["record"]["games"][0]["actions"][0]["dice"] = [9, 9]
    elif how == "wrong-types":
        data["match"] = ["a", "list"]
    return json.dumps(data)


@pytest.mark.parametrize("how", ["truncated", "binary", "not-ours", "bad-position-id",
                                 "impossible-position",
                                 "bad-dice", "bad-turn", "bad-cube", "bad-settings",
                                 "bad-record", "wrong-types"])
def test_damaged_save_file_set_aside_with_warning_and_fresh_start(config, how):
    config.mkdir(parents=True)
    path = config / "savegame.json"
    text = damage(good_save_text(), how)
    path.write_text(text)
    said = []
    saved, warning = load_game(warn=said.append)
    assert saved is None
    assert said == [warning] and "\n" not in warning and "starting a new game" in warning
    assert not path.exists()                        # out of the way for the next start
    kept = list(config.glob("savegame.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text() == text     # kept, not deleted
    assert kept[0].name in warning
    assert load_game(warn=None) == (None, None)     # the next start is clean


def test_two_damaged_saves_both_kept(config):
    config.mkdir(parents=True)
    path = config / "savegame.json"
    for n in range(2):
        path.write_text(f"broken {n}")
        load_game(warn=None)
    assert sorted(p.read_text() for p in config.glob("savegame.json.damaged-*")) == [
        "broken 0", "broken 1"]
