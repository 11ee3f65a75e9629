"""Saves that read but say something that cannot be played on (issue 42) are refused by name,
as a damaged save is: sides swapped (the keys would move the computer's men), a match already
won, a turn that is not the side on roll, a game where a side has no men left; and a settings
or save file holding just JSON's null is damaged, not "no file". Saves built here in code."""
import json

import pytest

from game.files import settings as gs
from game.files.savegame import Autosave, SavedGame, SaveError, load_game, write_save
from game.files.settings import Settings, load_settings
from game.model.match import BLACK, COMPUTER, HUMAN, WHITE, Match
from game.model.position import Position

START_ID = "4HPwATDgc/ABMA"


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv(gs.CONFIG_ENV, str(tmp_path))
    return tmp_path


def in_game(length=5, sides=(HUMAN, COMPUTER)) -> Match:
    m = Match(length, sides=sides)
    m.start_game()
    m.start_turn(sides[0])
    return m


def as_dict(match, turn=HUMAN, position_id=START_ID, settings=None) -> dict:
    data = SavedGame(in_game(), START_ID, HUMAN, None, settings or Settings()).to_dict()
    data["match"] = match.to_dict()
    data["turn"], data["position_id"] = turn, position_id
    return data


def test_a_save_whose_sides_are_swapped_is_refused_by_name():
    with pytest.raises(SaveError, match=r"^match.sides: \['computer', 'human'\] are not the "
                                        r"sides of human-computer play"):
        SavedGame.from_dict(as_dict(in_game(sides=(COMPUTER, HUMAN)), turn=COMPUTER))


def test_two_players_sides_must_be_white_and_black_and_are_read():
    two = Settings(players="human-human")
    saved = SavedGame.from_dict(as_dict(in_game(sides=(WHITE, BLACK)), turn=WHITE,
                                        settings=two))
    assert saved.match.sides == (WHITE, BLACK)
    with pytest.raises(SaveError, match="^match.sides: "):
        SavedGame.from_dict(as_dict(in_game(), settings=two))


def test_a_save_whose_score_has_already_won_its_match_is_refused():
    m = in_game(length=5)
    m.score = {HUMAN: 9, COMPUTER: 7}
    with pytest.raises(SaveError, match="^match.score: 9-7 has already won the match to 5$"):
        SavedGame.from_dict(as_dict(m))


def test_a_save_whose_turn_is_not_the_side_on_roll_is_refused():
    with pytest.raises(SaveError, match=r"^turn: computer is not the side on roll \(human\)$"):
        SavedGame.from_dict(as_dict(in_game(), turn=COMPUTER))


def test_a_save_where_a_side_has_no_men_left_is_refused():
    over = Position.from_points({}, {6: 15}).position_id        # the mover has borne all off
    with pytest.raises(SaveError, match="a side has no men left"):
        SavedGame.from_dict(as_dict(in_game(), position_id=over))


def test_such_a_save_on_disk_is_named_set_aside_and_not_resumed(config):
    good = SavedGame.from_dict(as_dict(in_game()))
    write_save(None, good)
    path = config / "savegame.json"
    data = json.loads(path.read_text())
    data["match"]["sides"] = [COMPUTER, HUMAN]
    path.write_text(json.dumps(data))
    (config / "savegame.json.bak").unlink(missing_ok=True)     # no backup to fall back to
    said = []
    saved, warning = load_game(warn=said.append)
    assert saved is None and "match.sides" in warning and said
    assert list(config.glob("savegame.json.damaged-*"))


@pytest.mark.parametrize("name", ["settings.json", "savegame.json"])
def test_a_file_holding_just_null_is_damaged_not_absent(config, name):
    (config / name).write_text("null\n")
    if name == "settings.json":
        settings, warning = load_settings(warn=None)
        assert settings == Settings()
    else:
        saved, warning = load_game(warn=None)
        assert saved is None
    assert warning and "holds null" in warning
    assert list(config.glob(f"{name}.damaged-*"))


def test_a_config_folder_that_cannot_be_written_is_said_once_and_play_goes_on(
        tmp_path, monkeypatch, capsys):
    """The options folder under a file (so no user, root included, can make or read it):
    the start says the options cannot be read, the first turn says the game cannot be
    saved, once, and the game is played on to "Your move?" all the same."""
    import screentext
    from windowdriver import Player
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(gs.CONFIG_ENV, str(blocker / "spectrum-backgammon"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    seen = []

    def script(player):
        line = screentext.screen_text(player.machine.memory)[23].strip()
        if not seen or seen[-1] != line:
            seen.append(line)
        return not line.startswith("Your move?")
    player = Player(seed=3, frames=3000)
    player.runner.keys = list("~~~~~~n")            # after the start's warning: no instructions
    player.runner.session.slot = Autosave()        # saving on, as in a window
    player.run(script)
    assert "Options unreadable: defaults" in seen
    assert seen.count("Cannot save: play goes on") == 1
    assert seen[-1].startswith("Your move?")
    err = capsys.readouterr().err
    assert err.count("could not be saved (play goes on)") == 1
