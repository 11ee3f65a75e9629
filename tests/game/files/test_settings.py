"""The options and their file in the config directory (game/files/settings.py)."""
import json

import pytest

from game.files import settings as st
from game.files.settings import BOARD_STYLES, Settings, SettingsError, load_settings


def test_defaults_match_the_1987_presets_and_the_1983_look():
    s = Settings()
    assert (s.level, s.cube, s.sound, s.speed) == (5, True, True, "steps")
    assert s.match_length is None and s.who_starts == "roll"
    assert not s.confirm_turn and s.board_style == "classic" and s.players == "human-computer"
    assert not (s.switch_directions or s.switch_tokens or s.set_dice)


def test_settings_persist_across_a_restart(config):
    s = Settings()
    s.set("level", 2)
    s.set("cube", False)
    s.set("speed", "instant")
    s.set("match_length", 7)
    s.set("who_starts", "computer")
    s.set("board_style", "midnight")
    s.set("switch_tokens", True)
    path = s.save()
    assert path == config / "settings.json"

    restarted, warning = load_settings()            # a new object reading the file
    assert warning is None
    assert restarted == s
    assert restarted.style.name == "midnight"


def test_missing_file_gives_defaults_silently(config):
    said = []
    s, warning = load_settings(warn=said.append)
    assert s == Settings() and warning is None and said == []


@pytest.mark.parametrize("content", ["{not json", '{"level": 9}', '[1, 2]',
                                     '{"match_length": 26}', '{"speed": "warp"}', "\x00\x01"])
def test_damaged_settings_file_gives_defaults_one_line_warning_and_file_kept(config, content):
    config.mkdir(parents=True)
    path = config / "settings.json"
    path.write_text(content)
    said = []
    s, warning = load_settings(warn=said.append)
    assert s == Settings()
    assert said == [warning] and "\n" not in warning and "default" in warning
    assert path.read_text() == content             # kept, not deleted or rewritten


def test_unknown_keys_from_a_newer_version_are_ignored(config):
    config.mkdir(parents=True)
    (config / "settings.json").write_text(json.dumps({"level": 3, "hologram": True}))
    s, warning = load_settings()
    assert s.level == 3 and warning is None


def test_xdg_config_home_used_when_no_override(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv(st.CONFIG_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert st.settings_path() == tmp_path / "spectrum-backgammon" / "settings.json"


def test_home_config_used_without_xdg(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv(st.CONFIG_ENV, raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert st.config_dir() == tmp_path / ".config" / "spectrum-backgammon"


@pytest.mark.parametrize("name,value", [("level", 0), ("level", 6), ("cube", "yes"),
                                        ("speed", "slow"), ("match_length", 0),
                                        ("match_length", 26), ("match_length", "abc"),
                                        ("who_starts", "dog"), ("board_style", "plaid"),
                                        ("players", "cat-dog"), ("colour", 1)])
def test_bad_option_refused_and_nothing_changes(name, value):
    s = Settings()
    before = s.to_dict()
    with pytest.raises(SettingsError):
        s.set(name, value)
    assert s.to_dict() == before


def test_level_changeable_one_to_five():
    s = Settings()
    for level in range(1, 6):
        s.set("level", level)
        assert s.level == level


def test_at_least_four_board_styles_within_the_spectrum_palette():
    assert len(BOARD_STYLES) >= 4
    for style in BOARD_STYLES.values():
        colours = [style.frame, style.board, *style.points, style.bar, style.white_men,
                   style.black_men]
        assert all(c in range(8) for c in colours)
        assert style.white_men != style.black_men          # the two sides stay apart


def test_classic_style_is_the_1983_board():
    classic = BOARD_STYLES["classic"]
    assert (classic.frame, classic.board, classic.points, classic.bar) == (
        st.YELLOW, st.BLUE, (st.RED, st.CYAN), st.GREEN)   # the green bar of the inlay


def test_next_style_cycles_through_all():
    s = Settings()
    seen = {s.next_style() for _ in BOARD_STYLES}
    assert seen == set(BOARD_STYLES) and s.board_style == "classic"


def test_menu_lines_fit_the_32_column_screen_one_key_each():
    lines = Settings(match_length=25, players="computer-computer").menu_lines()
    assert len({key for key, _, _ in lines}) == len(lines) == len(st.OPTIONS)
    assert all(len(text) <= 32 and text.startswith(key) for key, _, text in lines)
    texts = [text for _, _, text in lines]
    assert any(t.endswith("25") for t in texts) and any(t.endswith("DEMO") for t in texts)


def test_cycle_steps_through_choices_and_wraps():
    s = Settings()
    assert [s.cycle("speed") for _ in range(3)] == ["quick", "instant", "steps"]
    assert s.cycle("cube") is False and s.value_text("cube") == "OFF"
    assert s.cycle("level") == 1                   # 5 wraps round to 1
    with pytest.raises(SettingsError):
        s.cycle("match_length")                    # typed, not stepped


def test_match_length_typed_in_the_menu():
    s = Settings()
    s.set("match_length", "7")
    assert s.match_length == 7 and s.value_text("match_length") == "7"
    s.set("match_length", "U")
    assert s.match_length is None and s.value_text("match_length") == "UNLIMITED"
