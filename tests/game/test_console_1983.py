"""The 1983 rules at the console: --1983 and --rules, the window's title naming the rules,
--review refused under them with a clear line, and a saved FULL match named as kept (never
offered, never written over)."""
import json

import pytest

from game import main as console
from game.files import savegame
from game.files.settings import Settings
from game.model.match import Match
from game.zx.romcheck import machine_for


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    return tmp_path


def test_1983_and_rules_on_the_command_line():
    assert console.parse_args(["--1983"]).rules == "1983"
    assert console.parse_args(["--rules", "full"]).rules == "full"
    assert console.parse_args([]).rules is None
    for contradiction in (["--rules", "1984"], ["--1983", "--rules", "full"]):
        with pytest.raises(SystemExit):
            console.parse_args(contradiction)


def test_1983_on_the_command_line_rules_this_run_and_the_title_says_so(config):
    (config / "settings.json").write_text(json.dumps({"level": 2}))
    runner = console.Runner(machine_for(None, False), "instant", rules="1983", resume=False)
    assert runner.session.settings.rules_1983 and runner.title.endswith("- 1983 rules")
    assert json.loads((config / "settings.json").read_text()) == {"level": 2}   # not saved
    plain = console.Runner(machine_for(None, False), "instant", resume=False)
    assert plain.title.endswith("- FULL rules")


def test_1983_with_review_is_refused_in_one_line_and_nothing_opens(config, capsys):
    shot = config / "shot.png"
    code = console.main(["--1983", "--review", str(config / "games.mat"), "--tape", "instant",
                         "--screenshot", str(shot), "--frames", "10"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and not shot.exists()
    assert len(err) == 1 and "--review is not part of the 1983 rules" in err[0]


def test_1983_names_a_saved_full_match_with_a_cube_and_a_score_as_kept(config, capsys):
    m = Match(5)
    m.score = {"human": 2, "computer": 0}
    m.start_game()
    savegame.save_game(savegame.SavedGame(m, "4HPwATDgc/ABMA", "human", None, Settings()))
    raw = savegame.save_path().read_bytes()
    runner = console.Runner(machine_for(None, False), "instant", rules="1983")
    args = console.parse_args(["--1983"])
    assert console.rules_fit(args, runner)
    err = capsys.readouterr().err
    assert "score 2-0" in err and "doubling cube" in err and "kept for the FULL rules" in err
    assert savegame.save_path().read_bytes() == raw
    assert runner.session.keeping is None and runner.session.slot is not None
    full = console.Runner(machine_for(None, False), "instant", rules="full")
    assert console.rules_fit(console.parse_args([]), full) and capsys.readouterr().err == ""
    assert full.session.keeping is full.session.slot


def test_1983_says_a_settings_warning_on_the_console_not_on_the_1983_screen(config, capsys):
    (config / "settings.json").write_text(json.dumps({"level": 3, "rules": "1984"}))
    runner = console.Runner(machine_for(None, False), "instant", rules="1983", resume=False)
    err = capsys.readouterr().err
    assert "rules '1984'" in err and runner.session.settings.level == 3
    full = console.Runner(machine_for(None, False), "instant", resume=False)
    assert capsys.readouterr().err == "" and full.session.settings.rules == "full"
