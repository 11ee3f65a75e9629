"""The match exported for analysis (game/files/export.py): only its finished games go into the
.mat file, named for the time, in the folder given; with none finished, or a folder that cannot
be written, the words say why and no file is left."""
import re

from game.files.export import export_match
from game.matchfiles.matfile import parse_mat
from game.model.match import HUMAN, Match


def one_game_finished_and_one_begun() -> Match:
    m = Match(None)
    m.start_game()
    m.start_turn(HUMAN)
    m.record_move(HUMAN, (3, 1), "8/5 6/5")
    m.end_game(HUMAN)
    m.start_game()                                # the second game, not finished
    m.start_turn(HUMAN)
    m.record_move(HUMAN, (6, 5), "24/13")
    return m


def test_export_writes_only_the_finished_games_in_a_file_named_for_the_time(tmp_path):
    words = export_match(one_game_finished_and_one_begun().record, str(tmp_path))
    name = re.fullmatch(r"Saved (match-\d{8}-\d{6}\.mat)", words).group(1)
    assert [p.name for p in tmp_path.iterdir()] == [name]
    assert len(parse_mat((tmp_path / name).read_text()).games) == 1


def test_export_with_no_game_finished_says_so_and_writes_nothing(tmp_path):
    m = Match(None)
    m.start_game()
    assert export_match(m.record, str(tmp_path)) == "No finished game to export"
    assert list(tmp_path.iterdir()) == []


def test_export_into_a_folder_that_is_a_file_says_why_not_and_leaves_nothing(tmp_path):
    not_a_folder = tmp_path / "plain-file"
    not_a_folder.write_text("")
    words = export_match(one_game_finished_and_one_begun().record, str(not_a_folder))
    assert words.startswith("Not saved: ") and "\n" not in words
    assert [p.name for p in tmp_path.iterdir()] == ["plain-file"]
