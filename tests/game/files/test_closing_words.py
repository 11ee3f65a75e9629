"""What the close says (issue 59 items 8 and 15, game/files/session.py Session.close): one
line, once, though a stop signal's close and the window's both come; when nothing could be
saved in the whole run, why, and which save the next start offers instead; a path in it short,
however long the config folder's name."""
import errno
import sys
from types import SimpleNamespace

import pytest

from game import main
from game.files import savegame
from game.files.session import Session, saved_words
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from gamedriver import GameDriver
from spectrum.quoting import LINE_CHARS, PATH_CHARS

HUMAN_STARTS = [1, 3]                # the opening throw: I throw 1, you 3, so you play 3-1


def a_session_at_your_move(monkeypatch, folder, said=None):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(folder))
    settings = Settings()
    session = Session(settings, savegame.Autosave(),
                      say=said.append if said is not None else None)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), settings=settings, session=session)
    driver.until("Your move?")
    return driver, session


def closing(session, capsys) -> list[str]:
    capsys.readouterr()
    runner = SimpleNamespace(session=session)
    main.save_on_close(runner)                   # the stop signal's close
    main.save_on_close(runner)                   # then the window's
    return capsys.readouterr().err.splitlines()


def a_save_from_before(folder) -> savegame.SavedGame:
    m = Match(None)
    m.start_game()
    m.start_turn(HUMAN)
    m.end_game(COMPUTER, "gammon")
    saved = savegame.SavedGame(m, "4HPwATDgc/ABMA", HUMAN, extra={"between_games": True})
    savegame.save_game(saved, folder / savegame.SAVE_FILE)
    return savegame.read_save(folder / savegame.SAVE_FILE)


def test_a_run_that_could_never_save_says_why_at_the_close_and_what_the_next_start_offers(
        tmp_path, monkeypatch, capsys):
    before = a_save_from_before(tmp_path)
    said: list = []
    driver, session = a_session_at_your_move(monkeypatch, tmp_path, said)
    assert said == [] and savegame.read_save().match.game_number == 1
    session.slot.last = session.slot.last_saved = None       # as if no save had been written
    session.settings.level = 9                   # a state no save may hold, set behind the check
    savegame.save_game(before)                   # and the file holds the save from before
    driver.type("h3\n")
    lines = closing(session, capsys)
    assert len(said) == 1 and "settings.level: 9 is not a whole number from 1 to 5" in said[0]
    assert lines == [f"Spectrum Backgammon: the game could not be saved (settings.level: 9 is "
                     f"not a whole number from 1 to 5); {tmp_path / 'savegame.json'} holds "
                     f"{saved_words(before)}, saved before; it is offered at the next start"]


def test_the_close_is_said_once_though_the_signal_and_the_window_both_close(
        tmp_path, monkeypatch, capsys):
    _driver, session = a_session_at_your_move(monkeypatch, tmp_path)
    lines = closing(session, capsys)
    assert len(lines) == 1 and lines[0].startswith("Spectrum Backgammon: game saved: ")


def test_a_failed_save_with_a_5000_character_config_path_is_said_short_and_once_at_close(
        tmp_path, monkeypatch, capsys):
    deep = tmp_path.joinpath(*["d" * 200] * 25)
    said: list = []
    _driver, session = a_session_at_your_move(monkeypatch, deep, said)
    assert len(said) == 1 and "could not be saved (play goes on)" in said[0]
    assert len(said[0]) < PATH_CHARS + 120 and "Errno" not in said[0]
    lines = closing(session, capsys)
    assert len(lines) == 1 and len(lines[0]) <= LINE_CHARS, lines
    assert "could not be saved (" in lines[0] and "no saved game is offered" in lines[0]
    assert errno.errorcode[errno.ENAMETOOLONG] not in lines[0]
    assert "File name too long" in lines[0] and len(lines[0]) < PATH_CHARS + 120


def test_a_config_folder_that_is_a_file_is_said_to_be_not_a_folder(tmp_path, monkeypatch,
                                                                     capsys):
    blocked = tmp_path / "config"
    blocked.write_text("a file")
    said: list = []
    _driver, session = a_session_at_your_move(monkeypatch, blocked, said)
    assert said == [f"the game could not be saved (play goes on): {blocked}: a file, not a "
                    f"folder"]
    session.say = lambda text: print(text, file=sys.stderr)
    lines = closing(session, capsys)
    assert lines == [f"Spectrum Backgammon: the game could not be saved ({blocked}: a file, not "
                     f"a folder); no saved game is offered at the next start"]


class StopInTheWrite(Exception):
    """What the stop signal's handler raises (SystemExit) when it comes mid-write."""


def test_a_stop_signal_in_the_middle_of_the_first_save_still_saves_that_state_at_the_close(
        tmp_path, monkeypatch, capsys):
    # the stop signal comes after "saving" is traced and before the slot has written a byte:
    # the close writes that state (it was the latest) and says so; it is never silent
    _driver, session = a_session_at_your_move(monkeypatch, tmp_path)
    session.slot.forget()                        # as if no save had been written yet
    real_write = session.slot.write

    def cut_short(saved):
        session.slot.write = real_write          # the close's write goes through
        raise StopInTheWrite
    session.slot.write = cut_short
    with pytest.raises(StopInTheWrite):
        session.autosave()
    assert not savegame.has_save() and session.unwritten is not None
    lines = closing(session, capsys)
    assert len(lines) == 1 and lines[0].startswith("Spectrum Backgammon: game saved: "), lines
    assert savegame.read_save().position_id == session.snapshot().position_id


def test_a_stop_signal_in_the_middle_of_a_save_that_cannot_be_written_says_why_at_the_close(
        tmp_path, monkeypatch, capsys):
    blocked = tmp_path / "config"
    blocked.write_text("a file")
    said: list = []
    _driver, session = a_session_at_your_move(monkeypatch, blocked, said)
    session.failed, session.problem = False, None    # as if the first save were in flight
    session.slot.last = session.slot.last_saved = None

    def cut_short(saved):
        raise StopInTheWrite
    session.slot.write = cut_short
    with pytest.raises(StopInTheWrite):
        session.autosave()
    del session.slot.write                       # the close's write is the real one: it fails
    lines = closing(session, capsys)
    assert lines == [f"Spectrum Backgammon: the game could not be saved ({blocked}: a file, not "
                     f"a folder); no saved game is offered at the next start"]


def test_a_latest_state_that_cannot_be_written_at_the_close_is_never_called_saved(
        tmp_path, monkeypatch, capsys):
    # the latest state's write fails (in play and again at the close) while the last state
    # written can be written again: the close names what the file holds and says the latest
    # could not be saved, not "game saved"
    said: list = []
    _driver, session = a_session_at_your_move(monkeypatch, tmp_path, said)
    kept = session.slot.last_saved

    def disk_full(saved):
        raise OSError(28, "No space left on device")
    session.slot.write = disk_full
    session.autosave()
    assert len(said) == 1 and session.unwritten is not None
    lines = closing(session, capsys)
    assert lines == [f"Spectrum Backgammon: the latest state could not be saved (No space left "
                     f"on device): {tmp_path / 'savegame.json'} holds {saved_words(kept)}; it "
                     f"is offered at the next start"]
    assert savegame.read_save().position_id == kept.position_id
