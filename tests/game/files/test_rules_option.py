"""The Rules option (FULL / 1983): saved and read back like every option, cycled in the menu,
an unknown value in the file read as the default with a warning (the other options kept), and
the options a 1983 game is played with (game/files/rules1983.py)."""
import json

import pytest

from game.files import rules1983, savegame
from game.files.settings import Settings, SettingsError, load_settings, short_words
from game.model.match import Match


def test_rules_default_is_full_and_the_switch_is_off():
    s = Settings()
    assert s.rules == "full" and not s.rules_1983
    assert Settings(rules="1983").rules_1983


def test_rules_option_saved_and_read_back(config):
    s = Settings(level=2)
    s.set("rules", "1983")
    s.save()
    restarted, warning = load_settings()
    assert warning is None and restarted.rules_1983 and restarted.level == 2


def test_rules_option_cycles_full_1983_in_the_menu_on_its_own_key():
    s = Settings()
    rules_line = {name: (key, line) for key, name, line in s.menu_lines()}["rules"]
    key, line = rules_line
    assert key == "E" and line.endswith("FULL") and len(line) <= 32
    assert s.cycle("rules") == "1983"
    assert {name: line for _, name, line in s.menu_lines()}["rules"].endswith("1983")
    assert s.cycle("rules") == "full"


@pytest.mark.parametrize("value", ["1984", "FULL", "", 1983, None, True, ["1983"]])
def test_unknown_rules_value_gives_the_default_and_a_warning_other_options_kept(config, value):
    config.mkdir(parents=True)
    path = config / "settings.json"
    content = json.dumps({"level": 2, "cube": False, "rules": value})
    path.write_text(content)
    said = []
    s, warning = load_settings(warn=said.append)
    assert s.rules == "full" and s.level == 2 and s.cube is False
    assert said == [warning] and "\n" not in warning and "rules" in warning
    assert short_words(warning) == "Unknown rules: FULL rules"
    assert path.read_text() == content             # not set aside: nothing else is wrong
    assert sorted(p.name for p in config.iterdir()) == ["settings.json"]


def test_unknown_rules_value_with_another_damage_is_still_a_damaged_file(config):
    config.mkdir(parents=True)
    (config / "settings.json").write_text(json.dumps({"level": 9, "rules": "1984"}))
    s, warning = load_settings(warn=None)
    assert s == Settings() and "damaged" in warning


def test_set_refuses_an_unknown_rules_value_and_keeps_the_old():
    s = Settings(rules="1983")
    with pytest.raises(SettingsError):
        s.set("rules", "1985")
    assert s.rules == "1983"


def test_1983_rules_play_with_the_cards_options_and_keep_the_players_own():
    own = Settings(rules="1983", level=2, cube=True, match_length=7, who_starts="human",
                   confirm_turn=True, board_style="midnight", switch_directions=True,
                   switch_tokens=True, set_dice=True, players="human-human", tutor="??",
                   speed="instant", sound=False)
    played = rules1983.played(own)
    assert not played.cube and played.match_length is None and played.who_starts == "roll"
    assert not (played.confirm_turn or played.switch_directions or played.switch_tokens
                or played.set_dice)
    assert (played.board_style, played.players, played.tutor, played.speed) == \
        ("classic", "human-computer", "off", "steps")
    assert played.level == 2 and played.sound is False and played.rules_1983
    assert own.cube and own.match_length == 7 and own.tutor == "??"    # FULL's, kept
    full = Settings(cube=True)
    assert rules1983.played(full) is full


def test_window_title_names_the_rules():
    assert rules1983.window_title("SB", Settings()) == "SB - FULL rules"
    assert rules1983.window_title("SB", Settings(rules="1983")) == "SB - 1983 rules"


def test_a_saved_full_match_with_a_cube_and_a_score_is_named_as_kept(tmp_path):
    path = tmp_path / "savegame.json"
    assert rules1983.kept_save_words(path) is None
    m = Match(5)
    m.score = {"human": 3, "computer": 1}
    m.start_game()
    m.cube_value, m.cube_owner = 2, "human"
    saved = savegame.SavedGame(m, "4HPwATDgc/ABMA", "human", None, Settings())
    savegame.save_game(saved, path)
    raw = path.read_bytes()
    words = rules1983.kept_save_words(path)
    assert "score 3-1" in words and "cube at 2" in words and "kept" in words
    assert "--rules full" in words and path.read_bytes() == raw
