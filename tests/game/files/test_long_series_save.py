"""A long money series saves and loads whole (issue 59's note: the save reached its 1 MiB at
about 160 games, 4.5 KB a game of JSON tables, and the series had to end there): the finished
games are packed (game/files/packed_games.py), a save of 2,000 games fits with room to spare;
a save of the old form still loads; a damaged pack, a result that is not its game's, or a
save that would still be too big is one line and the last good save is kept. Series built in
code (tests/long_series.py), as varied as real play."""
import base64
import json
import zlib

import pytest

from game.files import packed_games, savegame
from game.files.settings import Settings
from game.files.validate import MAX_FILE_BYTES
from game.model.match import HUMAN, GameResult, Match
from long_series import add_game, made_up_series

START_ID = "4HPwATDgc/ABMA"


def between_games(match: Match) -> savegame.SavedGame:
    return savegame.SavedGame(match, START_ID, HUMAN, extra={"between_games": True})


def same_series(a: Match, b: Match) -> bool:
    return (a.record.to_dict() == b.record.to_dict() and a.results == b.results
            and a.score == b.score and a.game_number == b.game_number)


def test_a_series_of_2000_games_saves_and_loads_whole_under_the_1_mib_limit(tmp_path):
    match = made_up_series(2000, seed=2000)
    path = savegame.write_save(tmp_path / "savegame.json", between_games(match))
    size = path.stat().st_size
    assert size < MAX_FILE_BYTES * 0.9 and size / 2000 < 450        # bytes a game
    loaded = savegame.read_save(path)
    assert same_series(loaded.match, match) and len(loaded.match.record.games) == 2000


def test_a_game_in_progress_after_the_packed_ones_comes_back_as_it_was(tmp_path):
    match = made_up_series(150, seed=3)
    match.start_game()
    match.start_turn(HUMAN)
    match.record_move(HUMAN, (6, 6), "bar/19* 19/13 13/7 7/1")
    match.double(HUMAN)
    saved = savegame.SavedGame(match, START_ID, HUMAN)
    loaded = savegame.read_save(savegame.write_save(tmp_path / "s.json", saved))
    assert same_series(loaded.match, match)
    assert loaded.match.in_game and loaded.match.offered_by == HUMAN


def test_a_save_of_the_old_form_every_game_as_tables_still_loads_whole(tmp_path):
    match = made_up_series(40, seed=1)
    old = {"format": savegame.FORMAT, "version": 1, "match": match.to_dict(),
           "position_id": START_ID, "turn": HUMAN, "dice": None,
           "settings": Settings().to_dict(), "extra": {"between_games": True}}
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    assert same_series(savegame.read_save(tmp_path / "old.json").match, match)


def packed_save(tmp_path, games: int = 3) -> dict:
    path = savegame.write_save(tmp_path / "s.json", between_games(made_up_series(games, 4)))
    return json.loads(path.read_text(encoding="utf-8"))


def refusal(data: dict) -> str:
    with pytest.raises(savegame.SaveError) as caught:
        savegame.SavedGame.from_dict(data)
    return str(caught.value)


@pytest.mark.parametrize(("line", "why"), [
    ("1 0 0 0 0 1 single 1 -|m031 8/5 6/5,w01", None),                  # a good one
    ("1 0 0 0 0 1 single 1 -|m031 8/5 6/25,w01", "is not a packed game"),  # no point 25
    ("1 0 0 0 0 1 single 1 -|m071 8/5,w01", "is not a packed game"),     # a die of 7
    ("1 0 0 0 0 1 single 3 -|w01", "a cube of 3"),
    ("1 0 0 0 0 1 single 1 -|m031 8/5 6/5\x1b[2J,w01", "is not a packed game"),
    ("1 0 0 0 0 1 single 1", "is not a packed game"),
])
def test_a_packed_game_line_is_read_back_only_when_whole(tmp_path, line, why):
    data = packed_save(tmp_path, games=0)
    data["match"]["record"]["played"] = [packed_games.squeezed(line)]
    if why is None:
        assert savegame.SavedGame.from_dict(data).match.record.games[0].actions[0].play \
            == "8/5 6/5"
        return
    words = refusal(data)
    assert words.startswith("match.record.played: game line 1") and why in words
    assert "\n" not in words and "\x1b" not in words


BOMB = base64.b64encode(zlib.compress(b"0" * (packed_games.MAX_CHUNK_BYTES + 1), 9)).decode()


@pytest.mark.parametrize(("chunk", "why"), [
    ("not base64!", "not packed games"), ("AAAA", "not packed games"),
    ("", "a chunk cut short"), ("eJwDAAAAAAE=", "not a packed game"),
    (BOMB, "a chunk of more than 4,194,304 bytes"),               # 4 MiB of zeros, 4 KB
    (packed_games.squeezed("\n".join(["x"] * 101)), "a chunk of 101 games")])
def test_a_damaged_chunk_is_refused_in_one_line_naming_it(tmp_path, chunk, why):
    data = packed_save(tmp_path)
    data["match"]["record"]["played"][0] = chunk
    words = refusal(data)
    assert words.startswith("match.record.played:") and why in words and "\n" not in words


def test_a_result_that_is_not_its_games_is_refused_by_name_and_nothing_written(tmp_path):
    match = made_up_series(2, seed=5)
    match.results[1] = GameResult(match.other(match.results[1].winner), "single", 1, 1)
    with pytest.raises(savegame.SaveError, match="match.record.played: game 2: its record"):
        savegame.write_save(tmp_path / "s.json", between_games(match))
    assert not (tmp_path / "s.json").exists()


def test_a_save_that_would_still_be_too_big_is_one_line_and_the_last_save_is_kept(
        tmp_path, monkeypatch):
    slot = savegame.Autosave(tmp_path / "savegame.json")
    match = made_up_series(20, seed=6)
    slot.write(between_games(match))
    monkeypatch.setattr(savegame, "MAX_FILE_BYTES", slot.path.stat().st_size + 100)
    add_game(match, __import__("random").Random(7), 120)
    with pytest.raises(savegame.SaveError) as caught:
        slot.write(between_games(match))
    words = str(caught.value)
    assert words.startswith("the save would be ") and words.endswith("the last save is kept")
    assert "\n" not in words
    assert savegame.read_save(slot.path).match.game_number == 20       # the last good save
    assert slot.last_saved.match.game_number == 20


def test_the_autosaves_remembered_packing_writes_what_a_fresh_packer_would(tmp_path):
    """The Autosave's Packer keeps the last write's lines and chunks: game after game, and
    past a chunk's hundred games, its bytes are a fresh Packer's, and they read back whole."""
    slot = savegame.Autosave(tmp_path / "savegame.json")
    match = made_up_series(95, seed=8)
    rng = __import__("random").Random(8)
    for _ in range(8):
        add_game(match, rng, 40)
        saved = between_games(match)
        slot.write(saved)
        fresh = json.loads(savegame.encode_save(saved))
        written = json.loads(slot.last)
        assert {**written, "saved_at": ""} == {**fresh, "saved_at": ""}
        assert same_series(slot.last_saved.match, match)
    assert len(written["match"]["record"]["played"]) == 2          # 103 games: two chunks
