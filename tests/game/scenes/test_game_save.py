"""Save and resume (issues 9 and 16): the match in progress is saved at the start of every
turn and after every typed step (game/files/session.py, into a savegame.Autosave slot), written
again when the window closes, and offered at the next start with the typed steps made
again; a damaged save is set aside (kept) with a warning, its backup offered if whole."""
import json
import sys

import pytest

from game.files import savegame
from game.files.session import Session, save_session
from game.files.settings import Settings
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, Match
from gamedriver import GameDriver

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
    half_turn = session.game.state.position

    resumed = Session(settings)
    driver2 = GameDriver(dice=Dice.scripted([]), settings=settings, session=resumed,
                         resume=True)
    driver2.until("Resume saved game 0-2? (Y/N)")
    driver2.type("y")
    driver2.until("Your move?")
    state = driver2.game.state
    assert state.position == half_turn               # where it was: h3 made again, same dice
    assert state.turn.dice == (3, 1) and len(state.turn.made) == 1
    assert state.match.length == 5 and state.match.score == {HUMAN: 0, COMPUTER: 2}
    saved, _ = savegame.load_game(warn=None)         # replaced by the resumed game, not gone
    assert saved.extra["typed"] == [list(state.turn.made[0])]
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
    why = failure.strerror if isinstance(failure, OSError) else str(failure)
    assert "could not be saved" in err and why in err and err.count("\n") == 1


# ---------------------------------------------------------------- issue 16: autosave
def _config(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    return savegame.save_path()


def test_the_match_is_saved_at_each_turn_and_each_step_without_closing_the_window(
        tmp_path, monkeypatch):
    path = _config(tmp_path, monkeypatch)
    session = Session(Settings(), savegame.Autosave())
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS + [6, 5]), session=session)
    driver.until("Your move?")
    saved = savegame.read_save(path)
    assert (saved.turn, saved.dice, saved.extra["typed"]) == (HUMAN, (3, 1), [])
    driver.type("h3\n")
    driver.until("Your move?")
    assert savegame.read_save(path).extra["typed"] == [list(session.game.state.turn.made[0])]
    driver.type("f1\n")
    driver.until("I play")                           # the computer's turn, its dice saved
    saved = savegame.read_save(path)
    assert (saved.turn, saved.dice) == (COMPUTER, (6, 5))
    assert saved.match.record.games[-1].actions[-1].play == "8/5 6/5"   # h3 f1, recorded


def test_a_resumed_turn_is_where_it_was_with_the_typed_steps_made_again(tmp_path, monkeypatch):
    _config(tmp_path, monkeypatch)
    session = Session(Settings(), savegame.Autosave())
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), session=session)
    driver.until("Your move?")
    driver.type("h3\n")
    driver.until("Your move?")
    half_turn = session.game.state.position                # killed here: nothing else written
    again = GameDriver(dice=Dice.scripted([]), session=Session(Settings()), resume=True)
    again.until("Resume saved game? (Y/N)")
    again.type("y")
    again.until("Your move?")
    assert again.game.state.position == half_turn and again.game.state.turn.dice_left == (1,)
    again.type("f1\n")
    again.until("I play")


def test_on_resume_the_save_is_replaced_never_deleted(tmp_path, monkeypatch):
    path = _config(tmp_path, monkeypatch)
    session = Session(Settings(), savegame.Autosave())
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), session=session)
    driver.until("Your move?")
    before = path.read_bytes()
    again = GameDriver(dice=Dice.scripted([]), session=Session(Settings()), resume=True)
    again.until("Resume saved game? (Y/N)")
    assert path.read_bytes() == before               # offered, not taken away
    again.frame(ord("y"))
    for _ in range(200):                             # a kill at any frame finds the match
        assert savegame.read_save(path).turn == HUMAN
        if "Your move?" in again.message():
            break
        again.frame()
    assert savegame.read_save(path).dice == (3, 1)


def test_a_save_whose_turn_is_null_is_kept_aside_and_a_new_game_starts_without_a_crash(
        tmp_path, monkeypatch):
    path = _config(tmp_path, monkeypatch)
    session = Session(Settings())
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), session=session)
    driver.until("Your move?")
    data = session.snapshot().to_dict()
    data["turn"] = None                              # issue 16: accepted, deleted, MatchError
    path.write_text(json.dumps(data))
    again = GameDriver(dice=Dice.scripted(HUMAN_STARTS), resume=True)
    again.until("Saved game damaged: set aside")
    again.until("The opening throw")
    again.until("Your move?")
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("savegame.json.damaged-")]
    assert len(kept) == 1 and json.loads(kept[0].read_text())["turn"] is None


def test_a_damaged_save_with_a_whole_backup_offers_the_backup(tmp_path, monkeypatch):
    path = _config(tmp_path, monkeypatch)
    session = Session(Settings(), savegame.Autosave())
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), session=session)
    driver.until("Your move?")                       # the dice saved (the backup: no dice)
    driver.type("h3\n")
    driver.until("Your move?")                       # the step saved; the backup has the dice
    path.write_text(path.read_text()[:40])           # a torn write
    again = GameDriver(dice=Dice.scripted([]), resume=True)
    again.until("Save damaged: backup offered")
    again.until("Resume saved game? (Y/N)")
    again.type("y")
    again.until("Your move?")
    assert again.game.state.turn.dice == (3, 1) and not again.game.state.turn.made


def last_man_game(settings: Settings) -> GameDriver:
    """The human to bear off its last man with a 6 (a gammon, 2 points), autosaving."""
    from game.model.position import Position
    last = Position.from_points({1: 1}, {1: 5, 2: 5, 3: 5})
    driver = GameDriver(dice=Dice.scripted([1, 6]), start=last, settings=settings,
                        session=Session(settings, savegame.Autosave()))
    driver.until("Your move?")
    return driver


def test_between_games_the_match_is_saved_with_its_new_score_and_resumed_there(
        tmp_path, monkeypatch):
    path = _config(tmp_path, monkeypatch)
    settings = Settings(match_length=5)
    driver = last_man_game(settings)
    driver.type("a6\n")
    driver.until("Press any key for a new game")     # killed here: the score is kept
    saved = savegame.read_save(path)
    assert saved.extra["between_games"] and saved.match.score == {HUMAN: 2, COMPUTER: 0}
    again = GameDriver(dice=Dice.scripted(HUMAN_STARTS), settings=settings, resume=True)
    again.until("Resume saved game 2-0? (Y/N)")
    again.type("y")
    again.until("The opening throw")
    again.until("Your move?")
    assert again.game.state.match.score == {HUMAN: 2, COMPUTER: 0}
    assert again.game.state.match.game_number == 2


def test_the_end_of_the_match_forgets_its_save(tmp_path, monkeypatch):
    _config(tmp_path, monkeypatch)
    driver = last_man_game(Settings(match_length=1))
    assert savegame.has_save()
    driver.type("a6\n")
    driver.until("YOU WIN")
    assert not savegame.has_save()


def test_a_save_that_cannot_be_written_is_said_once_and_play_goes_on(tmp_path, monkeypatch):
    _config(tmp_path, monkeypatch)
    said = []
    session = Session(Settings(), savegame.Autosave(), say=said.append)

    def disk_full(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(savegame, "_write_raw", disk_full)
    driver = GameDriver(dice=Dice.scripted(HUMAN_STARTS), session=session)
    driver.until("Your move?")
    driver.type("h3\n")
    driver.until("Your move?")
    driver.type("f1\n")
    driver.until("I play")
    assert len(said) == 1 and "No space left on device" in said[0]
