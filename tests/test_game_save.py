"""Save and resume (issues 9 and 16): the match in progress is saved at the start of every
turn and after every typed step (game/session.py, into a savegame.Autosave slot), written
again when the window closes, and offered at the next start with the typed steps made
again; a damaged save is set aside (kept) with a warning, its backup offered if whole."""
import sys

import pytest
from gamedriver import GameDriver

from game import savegame
from game.dice import Dice
from game.match import COMPUTER, HUMAN, Match
from game.session import Session, save_session
from game.settings import Settings

HUMAN_STARTS = [1, 3]


def test_save_on_leaving_and_resume_at_the_next_start(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    settings = Settings(match_length=5)
    session = Session(settings)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), settings=settings, session=session)
    driver.until("Your move?")
    driver.type("h3\n")                              # half a turn typed, then the window shuts
    driver.until("Your move?")
    session.match.score[COMPUTER] = 2                # as if earlier games were played
    path = save_session(session)
    assert path and path.exists()
    half_turn = session.game.position

    resumed = Session(settings)
    driver2 = GameDriver(dice=Dice.scripted([]), settings=settings, session=resumed,
                         resume=True)
    driver2.until("Resume saved game 0-2? (Y/N)")
    driver2.type("y")
    driver2.until("Your move?")
    game = driver2.game
    assert game.position == half_turn                # where it was: h3 made again, same dice
    assert game.turn.dice == (3, 1) and len(game.turn.made) == 1
    assert game.match.length == 5 and game.match.score == {HUMAN: 0, COMPUTER: 2}
    saved, _ = savegame.load_game(warn=None)         # replaced by the resumed game, not gone
    assert saved.extra["typed"] == [list(game.turn.made[0])]
    driver2.type("f1\n")
    driver2.until("I play")                          # and the game goes on


def test_no_to_resume_starts_fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    session = Session(Settings())
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), session=session)
    driver.until("Your move?")
    assert save_session(session)
    driver2 = GameDriver(dice=Dice.scripted(HUMAN_STARTS), resume=True)
    driver2.until("Resume saved game? (Y/N)")
    driver2.type("n")
    driver2.until("The opening throw")
    assert not savegame.has_save()


def test_nothing_to_save_between_games(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    session = Session(Settings())
    match = Match(None)
    session.match = match
    assert save_session(session) is None and not savegame.has_save()


def test_a_damaged_save_is_set_aside_with_a_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    (tmp_path / "savegame.json").write_text('{"format": "nonsense"')
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), resume=True)
    driver.until("Saved game damaged: set aside")
    driver.until("The opening throw")
    driver.until("Your move?")
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("savegame.json.damaged")]
    assert len(kept) == 1 and kept[0].read_text() == '{"format": "nonsense"'


def test_the_console_writes_the_last_save_again_when_the_window_closes(tmp_path, monkeypatch,
                                                                      capsys):
    from types import SimpleNamespace

    from game import main
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    session = Session(Settings(), savegame.Autosave())
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), session=session)
    driver.until("Your move?")
    assert savegame.has_save()                       # the autosave at the turn's start
    for each in tmp_path.iterdir():
        each.unlink()
    main.save_on_close(SimpleNamespace(session=session))
    assert "offered at the next start" in capsys.readouterr().err
    saved, warning = savegame.load_game(warn=None)
    assert warning is None and saved.turn == HUMAN and saved.dice == (3, 1)


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"),
                                     savegame.SaveError("turn: null is not one of ...")],
                         ids=["OSError", "SaveError"])
def test_a_save_that_fails_on_closing_is_reported_never_raised(tmp_path, monkeypatch, capsys,
                                                               failure):
    from types import SimpleNamespace

    from game import main
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    session = Session(Settings(), savegame.Autosave(),
                      say=lambda text: print(text, file=sys.stderr))
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), session=session)
    driver.until("Your move?")

    def refuse(*args):
        raise failure
    monkeypatch.setattr(savegame, "_write_raw", refuse)
    main.save_on_close(SimpleNamespace(session=session))
    err = capsys.readouterr().err
    assert "could not be saved" in err and str(failure) in err
