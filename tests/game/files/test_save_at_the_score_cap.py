"""A save never claims what it did not do (issue 49 item 8). A money score stops at
match.MAX_SCORE (32,767: the 15 bits gnubg's match ID holds), so the win that reaches it is
saved like any other and the banner says the score goes no higher; the message on closing
names the state the file really holds; a state the save refuses is never called saved."""
import sys
from types import SimpleNamespace

from game import main
from game.files import savegame
from game.files.session import Session, saved_words
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, MAX_SCORE
from game.model.position import Position
from game.words import SCORE_CAPPED
from gamedriver import GameDriver

AT_THE_CAP = {HUMAN: MAX_SCORE, COMPUTER: MAX_SCORE}


def backgammon_to_bear_off(tmp_path, monkeypatch, said):
    """A money session, the human to bear off his last man with a 6 while a man of the
    computer's is on the bar (a backgammon: 3 points), every turn autosaved."""
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    settings = Settings()
    session = Session(settings, savegame.Autosave(), say=said.append)
    last = Position.from_points({1: 1}, {"bar": 1, 1: 5, 2: 5, 3: 4})
    driver = GameDriver(dice=Dice.scripted([1, 6]), start=last, settings=settings,
                        session=session)
    driver.until("Your move?")
    return driver, session


def closing_words(session, capsys) -> str:
    capsys.readouterr()
    main.save_on_close(SimpleNamespace(session=session))
    return capsys.readouterr().err


def test_a_money_win_at_32767_all_is_saved_at_the_cap_and_the_close_names_that_save(
        tmp_path, monkeypatch, capsys):
    said = []
    driver, session = backgammon_to_bear_off(tmp_path, monkeypatch, said)
    driver.game.state.match.score.update(AT_THE_CAP)
    driver.type("a6\n")
    driver.until(SCORE_CAPPED)                       # said under the banner
    result = driver.game.state.match.results[-1]
    assert (result.winner, result.points) == (HUMAN, 3) and said == []
    saved = savegame.read_save()                     # the state after the win, not before
    assert saved.extra["between_games"] and saved.match.score == AT_THE_CAP
    assert saved.match.results[-1].points == 3
    err = closing_words(session, capsys)
    assert err.startswith("Spectrum Backgammon: game saved: ")
    assert "game 1, score 32767-32767, between games; it is offered at the next start" in err


def test_a_win_one_short_of_the_cap_adds_only_what_fits(tmp_path, monkeypatch, capsys):
    driver, session = backgammon_to_bear_off(tmp_path, monkeypatch, [])
    driver.game.state.match.score.update({HUMAN: MAX_SCORE - 1, COMPUTER: 0})
    driver.type("a6\n")
    driver.until(SCORE_CAPPED)
    assert savegame.read_save().match.score == {HUMAN: MAX_SCORE, COMPUTER: 0}
    assert "score 32767-0, between games" in closing_words(session, capsys)


def test_below_the_cap_the_banner_says_nothing_of_it(tmp_path, monkeypatch):
    driver, _session = backgammon_to_bear_off(tmp_path, monkeypatch, [])
    driver.game.state.match.score.update({HUMAN: MAX_SCORE - 3, COMPUTER: 0})
    driver.type("a6\n")
    driver.until("Press any key for a new game")
    assert driver.game.state.match.score[HUMAN] == MAX_SCORE
    driver.game.state.match.score[HUMAN] = MAX_SCORE - 1      # a later look: below the cap again
    assert not driver.game.state.match.score_capped


def test_a_state_the_save_refuses_is_never_called_saved_on_closing(tmp_path, monkeypatch,
                                                                   capsys):
    said = []
    driver, session = backgammon_to_bear_off(tmp_path, monkeypatch, said)
    before = savegame.read_save()                    # the turn's start, score 0-0
    driver.game.state.match.score[COMPUTER] = MAX_SCORE + 3   # past what a save may hold
    driver.type("a6\n")
    driver.until("Press any key for a new game")
    assert len(said) == 1 and f"{MAX_SCORE + 3} is not a whole number" in said[0]
    err = closing_words(session, capsys)
    assert "game saved" not in err
    assert "the latest state could not be saved (match.score.computer: " in err
    to_play = before.match.record.names[HUMAN]
    assert f"holds game 1, score 0-0, {to_play} to play; it is offered at the next start" in err
    assert savegame.read_save().to_dict() == before.to_dict()


def test_a_write_that_fails_on_closing_claims_only_what_the_file_from_before_holds(
        tmp_path, monkeypatch, capsys):
    said = []
    driver, session = backgammon_to_bear_off(tmp_path, monkeypatch, said)
    session.say = lambda text: print(text, file=sys.stderr)

    def disk_full(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(savegame, "_write_raw", disk_full)
    before = savegame.read_save()                    # the turn's start, written before
    err = closing_words(session, capsys)
    assert "could not be saved (No space left on device)" in err and "game saved" not in err
    assert f"holds {saved_words(before)}, saved before; it is offered at the next start" in err
    assert err.count("\n") == 1                      # said once
