"""A money series stops at the most a save holds (issue 59 item 14, game/model/match.py
MAX_GAMES and MAX_RECORD_ENTRIES), as the score stops at 32,767: the game that reaches the cap
ends the series with its words under the banner and on the match-over page, the export is
offered, and a new series starts; a save of a full series is refused by name;
a record at the entry cap of moves as varied as real ones still fits a save with room for a
game more."""
import random

from game.files import savegame
from game.files.session import Session
from game.files.settings import Settings
from game.files.validate import MAX_FILE_BYTES
from game.model.dice import Dice
from game.model.match import COMPUTER, HUMAN, MAX_GAMES, MAX_RECORD_ENTRIES, Match
from game.model.position import Position
from game.words import SERIES_FULL
from gamedriver import GameDriver
from long_series import add_game, made_up_series

START_ID = "4HPwATDgc/ABMA"
LONGEST_PLAY = "bar/22* 22/18* 18/14* 14/10*"      # the most characters a move's play holds


def last_game_to_bear_off(tmp_path, monkeypatch, game_number: int, said: list):
    """A money session at game `game_number`, the human to bear off his last man with a 6,
    every turn autosaved (a hand-made series: only such a save reaches the cap)."""
    monkeypatch.setenv("SPECTRUM_BACKGAMMON_CONFIG_DIR", str(tmp_path))
    settings = Settings()
    session = Session(settings, savegame.Autosave(), say=said.append)
    last = Position.from_points({1: 1}, {6: 5, 5: 5, 4: 5})
    driver = GameDriver(dice=Dice.scripted([1, 6]), start=last, settings=settings,
                        session=session)
    driver.until("Your move?")
    match = driver.game.state.match
    match.game_number = game_number
    return driver, match


def test_the_game_that_reaches_game_100000_ends_the_series_and_says_so(tmp_path, monkeypatch):
    said: list = []
    driver, match = last_game_to_bear_off(tmp_path, monkeypatch, MAX_GAMES, said)
    assert not match.is_over                     # the last game is played
    driver.type("a6\n")
    driver.until(SERIES_FULL)                    # under the banner
    assert match.series_full and match.is_over and said == []
    assert savegame.read_save() is None          # over: nothing to offer, as after a match
    driver.type("\n")
    driver.until("THE SERIES IS OVER")
    driver.type("\n")
    driver.until("Export the match (.mat)?")
    driver.type("n")
    driver.until("throw", max_frames=5_000)           # a new series: its opening throw
    fresh = driver.game.state.match
    assert fresh is not match and fresh.game_number == 1 and fresh.score == {HUMAN: 0,
                                                                             COMPUTER: 0}


def test_one_game_short_of_the_cap_the_series_goes_on_and_is_saved(tmp_path, monkeypatch):
    driver, match = last_game_to_bear_off(tmp_path, monkeypatch, MAX_GAMES - 1, [])
    driver.type("a6\n")
    driver.until("Press any key for a new game")
    assert not match.series_full
    saved = savegame.read_save()
    assert saved.extra["between_games"] and saved.match.game_number == MAX_GAMES - 1


def test_a_save_of_a_full_series_is_refused_by_name_and_nothing_else_is(tmp_path):
    m = Match(None)
    m.start_game()
    m.start_turn(HUMAN)
    m.end_game(HUMAN)
    m.game_number = MAX_GAMES
    saved = savegame.SavedGame(m, START_ID, HUMAN, extra={"between_games": True})
    try:
        savegame.encode_save(saved)
        raise AssertionError("a full series was saved")
    except savegame.SaveError as exc:
        assert str(exc).startswith("match.game_number: the series is over at game 100000")
    m.game_number = MAX_GAMES - 1
    assert savegame.encode_save(saved)


def full_record_match() -> Match:
    """A money series whose record holds MAX_RECORD_ENTRIES entries of made-up turns as varied
    as real ones (tests/long_series.py: seeded dice and points, so they pack no smaller than
    real games), between games."""
    m = made_up_series(0, seed=59)
    rng = random.Random(59)
    while m.record.entries < MAX_RECORD_ENTRIES:
        add_game(m, rng, rng.randint(29, 87))
    return m


def test_a_series_at_its_entry_cap_of_varied_moves_still_fits_a_save_with_room_to_spare():
    m = full_record_match()
    assert m.series_full and m.is_over
    last = m.record.games.pop()                  # as the save of the game before it
    m.results.pop()
    m.game_number -= 1
    assert not m.series_full
    raw = savegame.encode_save(savegame.SavedGame(m, START_ID, HUMAN,
                                                  extra={"between_games": True}))
    room_for_a_game = 500 * (len(LONGEST_PLAY) + 80)      # a game of 500 of the longest moves
    assert len(raw) + room_for_a_game < MAX_FILE_BYTES     # in progress, as JSON tables
    assert len(last.actions) < 500
