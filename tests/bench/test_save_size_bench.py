"""bench/save_size.py (a long money series' save, old form against packed): on a tiny seeded
series it plays whole games as the record keeps them, the old form it measures is format 1
as the reader still takes it, and it prints each figure once with its unit."""
import random

from conftest import bench_module
from game.files import savegame
from game.files.validate import parse_json
from game.model.match import HUMAN, Match

save_size = bench_module("save_size")


def test_the_old_form_it_measures_is_a_format_1_save_the_reader_takes(capsys):
    match = Match(None)
    rng = random.Random(1)
    for _ in range(3):
        save_size.play_game(match, rng)
    assert match.game_number == 3 and all(g.finished for g in match.record.games)
    saved = savegame.SavedGame(match, save_size.START_ID, HUMAN, extra={"between_games": True})
    old = save_size.old_form(saved)
    assert b'"version":1' in old
    again = savegame.SavedGame.from_dict(parse_json(old, savegame.SaveError)).match
    assert again.record.to_dict() == match.record.to_dict()
    save_size.measure(match, 3)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6 and all(line.startswith("3 games: ") for line in lines)
    assert sum("bytes a game" in line for line in lines) == 2
    assert sum(line.endswith(" s") for line in lines) == 3
