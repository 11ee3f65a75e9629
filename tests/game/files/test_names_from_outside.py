"""One rule for a player's name from outside (issue 59 items 10 and 11, game/model/names.py):
a save whose names hold an ESC sequence (a screen cleared, a window retitled), a right-to-left
override or a lone surrogate is read with the name cleaned, said in one printable line, so the
closing line, the screen and the .mat export never get those characters; a save's plays and
start IDs are held to the record's own forms. Saves built here in code."""
import json

import pytest

from game.files import savegame
from game.files.savegame import SavedGame, SaveError, load_game, read_save
from game.files.session import Session, saved_words
from game.files.settings import Settings
from game.matchfiles import matfile
from game.model.match import HUMAN, Match
from game.model.names import MAX_NAME_CHARS, clean_name, name_problem

START_ID = "4HPwATDgc/ABMA"
HOSTILE = {"clear screen": ("Bad\x1b[2JName", "Bad[2JName"),
           "retitle": ("\x1b]0;owned\x07Eve", "]0;ownedEve"),
           "right-to-left": ("Eve\u202elivE", "EvelivE"),
           "lone surrogate": ("Bad\ud800Name", "BadName"),
           "line break": ("Ann\r\nBee", "Ann Bee"),
           "only controls": ("\x1b\x07", "Human")}


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    return tmp_path


def saved_with_name(name: str) -> dict:
    """A save's JSON value (a finished game, packed, then the game in progress with a move,
    the human to play) with the human so named, as a hand-made file would hold it."""
    m = Match(None)
    m.start_game()
    m.start_turn(HUMAN)
    m.record_move(HUMAN, (3, 1), "8/5 6/5")
    m.end_game(HUMAN)
    m.start_game()
    m.start_turn(HUMAN)
    m.record_move(HUMAN, (3, 1), "8/5 6/5")        # the game in progress: its entries as tables
    m.start_turn(HUMAN)
    data = SavedGame(m, START_ID, HUMAN).to_dict()
    data["match"]["record"]["names"][HUMAN] = name
    return data


def write_raw(config, data) -> None:
    (config / "savegame.json").write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize("what", HOSTILE, ids=list(HOSTILE))
def test_the_save_reader_cleans_a_name_that_does_not_print_and_says_so_in_one_line(
        config, what):
    name, cleaned = HOSTILE[what]
    write_raw(config, saved_with_name(name))
    said = []
    saved, warning = load_game(warn=said.append)
    assert warning is None and saved.match.record.names[HUMAN] == cleaned
    assert name_problem(cleaned) is None
    assert len(said) == 1 and said[0].isprintable() and f"read as '{cleaned}'" in said[0]
    assert (config / "savegame.json").exists()            # nothing set aside: only cleaned


@pytest.mark.parametrize("what", HOSTILE, ids=list(HOSTILE))
def test_the_closing_line_of_a_save_with_such_a_name_prints_no_control_character(
        config, what, capsys):
    from types import SimpleNamespace

    from game import main
    write_raw(config, saved_with_name(HOSTILE[what][0]))
    saved, _ = load_game(warn=None)
    session = Session(Settings(), savegame.Autosave())
    session.slot.write(saved)
    main.save_on_close(SimpleNamespace(session=session))
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err[:-1].isprintable()
    assert f"holds {saved_words(saved)}" in err and "game saved" in err


def test_a_name_cleaned_from_a_save_exports_to_a_mat_file(config, tmp_path):
    write_raw(config, saved_with_name("Bad\ud800Name"))
    saved, _ = load_game(warn=None)
    out = tmp_path / "out.mat"
    matfile.write_mat(saved.match.record, out, games=[1])
    assert "BadName" in out.read_text(encoding="utf-8")
    assert not list(tmp_path.glob("*.tmp"))


def test_a_config_folder_with_an_escape_in_its_name_is_quoted_in_the_closing_line(
        tmp_path, monkeypatch, capsys):
    from types import SimpleNamespace

    from game import main
    folder = tmp_path / "odd\x1b]0;owned\x07folder"
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(folder))
    session = Session(Settings(), savegame.Autosave())
    session.slot.write(SavedGame.from_dict(saved_with_name("You")))
    main.save_on_close(SimpleNamespace(session=session))
    err = capsys.readouterr().err
    assert err[:-1].isprintable() and "odd\\x1b]0;owned\\x07folder" in err


def test_the_rule_allows_an_ordinary_name_whole_and_cleans_only_what_does_not_print():
    for name in ("Jörg Müller", "Zoë", "Łukasz", "李", "O'Brien-Smith", "x" * MAX_NAME_CHARS):
        assert name_problem(name) is None and clean_name(name, "D") == name
    assert name_problem("x" * (MAX_NAME_CHARS + 1)) and name_problem("  ") and name_problem(7)
    assert clean_name("  a \t b  ", "D") == "a b" and clean_name("", "D") == "D"


@pytest.mark.parametrize("field,value", [("play", "\x1b[2J"), ("play", "8/5 6/5\n"),
                                         ("start", "\x1b[2J" * 4)])
def test_a_saved_play_or_start_that_is_not_one_is_refused_by_name(config, field, value):
    data = saved_with_name("You")
    game = data["match"]["record"]["games"][0]
    if field == "play":
        game["actions"][0]["play"] = value
    else:
        game["start"] = value
    write_raw(config, data)
    if value == "8/5 6/5\n":                 # white space about a play is no harm: kept
        assert read_save().match.record.games[0].actions[0].play == "8/5 6/5"
        return
    with pytest.raises(SaveError) as refused:
        read_save()
    assert str(refused.value).isprintable() and "\\x1b" in str(refused.value)
