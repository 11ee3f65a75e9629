"""bench/strength.py's luck-adjusted figure: each roll's luck (our 0-ply net's best play with
the roll thrown, less its mean over the rolls that could have come) has mean zero, so the
adjusted ppg estimates the same thing as the raw one, with less spread. No gnubg-nn needed:
our own levels play."""
import json
import statistics
import subprocess
import sys

import pytest

from conftest import REPO, bench_module
from game.model import evaluator as ev
from game.model.position import Position
from shared_cases import positions_from_play as _positions_from_play

strength = bench_module("strength")


@pytest.fixture(scope="module")
def luck():
    ev.ensure_loaded()
    return strength.Luck()


def _luck_of(luck, board, dice, opening=False) -> float:
    luck.new_game()
    luck.roll(0, board, *dice, opening)
    return luck.sums[0]


def test_a_turns_luck_averages_to_zero_over_its_36_rolls(luck):
    for pos in _positions_from_play(12, seed=41):
        board = list(pos.as_c())
        total = sum(_luck_of(luck, board, (d1, d2)) for d1 in range(1, 7) for d2 in range(1, 7))
        assert abs(total / 36) < 1e-5


def test_the_opening_rolls_luck_averages_to_zero_over_the_30_non_doubles(luck):
    board = list(Position.start().as_c())
    values = [_luck_of(luck, board, (d1, d2), opening=True)
              for d1 in range(1, 7) for d2 in range(1, 7) if d1 != d2]
    assert abs(statistics.fmean(values)) < 1e-6
    assert max(values) - min(values) > 0.05   # 3-1 and 6-5 are not the same roll


def test_a_good_roll_is_lucky_and_a_bad_one_unlucky(luck):
    # the mover has one man on the bar against a five-point board with the 2-point open
    pos = Position.from_points({"bar": 1, 6: 5, 8: 3, 13: 6},
                               {1: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3, 13: 2})
    board = list(pos.as_c())
    assert _luck_of(luck, board, (2, 2)) > 0 > _luck_of(luck, board, (6, 6))


def test_taking_the_luck_out_narrows_the_spread_and_keeps_the_mean(tmp_path, capsys,
                                                                    monkeypatch):
    out = tmp_path / "pairs.json"
    # level 3 against level 2 (the same net with a small fixed error a position): what is
    # left after the luck is the two players' difference, small beside the dice. Against the
    # level-1 heuristic the heuristic's own blunders stay in the spread (about 0.7 of it over
    # 200 pairs), so a 60-pair figure there says more about the seed than about the luck.
    monkeypatch.setattr("sys.argv", ["strength.py", "level3", "level2", "--games", "120",
                                     "--seed", "7", "--save", str(out)])
    strength.main()
    text = capsys.readouterr().out
    figure = {line.split(":")[0]: line.split(":")[1].split()[0]
              for line in text.splitlines() if ":" in line}
    sd, fair_sd = float(figure["pair_mean_sd"]), float(figure["pair_mean_sd_luck_adjusted"])
    assert fair_sd < 0.5 * sd
    saved = json.loads(out.read_text())
    assert len(saved["luck_adjusted_pairs"]) == len(saved["pairs"]) == 60
    raw = statistics.fmean((a + b) / 2 for a, b in saved["pairs"])
    fair = statistics.fmean((a + b) / 2 for a, b in saved["luck_adjusted_pairs"])
    half = 1.96 * sd / 60 ** 0.5
    assert abs(raw - fair) < half   # the same quantity: the luck's mean is zero
    assert fair > 0.1               # the net beats its own version with errors added


def test_pooling_a_chunk_without_the_luck_reports_the_raw_figures_alone(tmp_path, capsys,
                                                                         monkeypatch):
    with_luck, without = tmp_path / "a.json", tmp_path / "b.json"
    with_luck.write_text(json.dumps({"players": ["level3", "level1"], "seed": 1,
                                     "pairs": [[1, 2], [-1, 1]],
                                     "luck_adjusted_pairs": [[0.5, 0.25], [0.0, 0.5]]}))
    without.write_text(json.dumps({"players": ["level3", "level1"], "seed": 2,
                                   "pairs": [[1, -1]]}))
    monkeypatch.setattr("sys.argv", ["strength.py", "level3", "level1", "--pool", str(with_luck)])
    strength.main()
    text = capsys.readouterr().out
    assert "ppg_luck_adjusted_level3: +0.312" in text
    monkeypatch.setattr("sys.argv", ["strength.py", "level3", "level1", "--pool", str(with_luck),
                                     str(without)])
    strength.main()
    text = capsys.readouterr().out
    assert "(no luck-adjusted results)" in text and "luck_adjusted" not in text.replace(
        "(no luck-adjusted results)", "")
    assert "games: 6 (3 duplicate-dice pairs)" in text


def _saved(path, first, seed, pairs, fair=None, second="gnubg0", pair_index=None):
    data = {"players": [first, second], "seed": seed, "pairs": pairs}
    if fair is not None:
        data["luck_adjusted_pairs"] = fair
    if pair_index is not None:
        data["pair_index"] = pair_index
    path.write_text(json.dumps(data))
    return str(path)


def test_compare_takes_two_runs_on_the_same_dice_pair_by_pair(tmp_path, capsys, monkeypatch):
    a = _saved(tmp_path / "a.json", "level5p3", 50, [[1, -1], [2, 1], [1, 1]],
               [[0.5, 0.0], [0.25, 0.25], [0.0, 0.5]])
    b = _saved(tmp_path / "b.json", "level5", 50, [[1, -1], [1, 1]], [[0.25, 0.0], [0.0, 0.25]])
    monkeypatch.setattr("sys.argv", ["strength.py", "--compare", a, b])
    strength.main()
    text = capsys.readouterr().out
    # the two pairs both played: differences 0 and +0.5 raw, +0.125 and +0.125 adjusted
    assert "ppg_difference: +0.250" in text and "(4 games each)" in text
    assert "ppg_difference_luck_adjusted: +0.125 [+0.125, +0.125]" in text


def test_a_saved_run_keeps_its_pairs_in_dice_order_whatever_its_jobs(tmp_path):
    # with --jobs 2 each process plays every second pair; the file lists them as one process
    # would, so two runs of one seed line up pair by pair however they were split
    runs = {}
    for jobs in (1, 2):   # the script itself: its worker processes import it by path
        out = tmp_path / f"jobs{jobs}.json"
        subprocess.run([sys.executable, str(REPO / "bench" / "strength.py"), "level3", "level1",
                        "--games", "10", "--seed", "11", "--jobs", str(jobs), "--no-luck",
                        "--save", str(out)], check=True, cwd=REPO, capture_output=True)
        runs[jobs] = json.loads(out.read_text())
    assert runs[1]["pair_index"] == runs[2]["pair_index"] == [0, 1, 2, 3, 4]
    assert runs[1]["pairs"] == runs[2]["pairs"]
    assert len(set(map(tuple, runs[1]["pairs"]))) > 1   # not one result five times


def test_compare_matches_pairs_by_their_number_not_their_place_in_the_file(tmp_path, capsys,
                                                                          monkeypatch):
    a = _saved(tmp_path / "a.json", "level5", 50, [[1, 1], [-2, -2], [1, -1]],
               [[0.5, 0.5], [-1.0, -1.0], [0.0, 0.0]], pair_index=[0, 1, 2])
    # b played pairs 2 and 0 only and saved them in that order: on the same dice each pair
    # a quarter point better than a's raw, a quarter worse with the luck out
    b = _saved(tmp_path / "b.json", "level4", 50, [[1.25, -0.75], [1.25, 1.25]],
               [[-0.25, -0.25], [0.25, 0.25]], pair_index=[2, 0])
    monkeypatch.setattr("sys.argv", ["strength.py", "--compare", a, b])
    strength.main()
    text = capsys.readouterr().out
    assert "ppg_difference: -0.250 [-0.250, -0.250] points per game (4 games each)" in text
    assert "ppg_difference_luck_adjusted: +0.250 [+0.250, +0.250]" in text
    assert "pairing: by position" not in text


def test_compare_of_files_without_pair_numbers_says_it_pairs_by_position(tmp_path, capsys,
                                                                       monkeypatch):
    a = _saved(tmp_path / "a.json", "level5", 50, [[1, 1], [0, 0]])
    b = _saved(tmp_path / "b.json", "level4", 50, [[0, 0], [0, 0]])
    monkeypatch.setattr("sys.argv", ["strength.py", "--compare", a, b])
    strength.main()
    text = capsys.readouterr().out
    assert "pairing: by position" in text and "same --jobs" in text
    assert "ppg_difference: +0.500" in text


@pytest.mark.parametrize("seed_b, second_b, message", [
    (51, "gnubg0", "not the same dice"), (50, "pubeval", "not the same opponent")])
def test_compare_refuses_runs_that_did_not_share_the_dice_or_the_opponent(
        tmp_path, monkeypatch, seed_b, second_b, message):
    a = _saved(tmp_path / "a.json", "level5", 50, [[1, 1], [0, 1]])
    b = _saved(tmp_path / "b.json", "level4", seed_b, [[1, 1], [0, 1]], second=second_b)
    monkeypatch.setattr("sys.argv", ["strength.py", "--compare", a, b])
    with pytest.raises(SystemExit, match=message):
        strength.main()


def test_two_players_are_needed_unless_comparing(monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["strength.py", "level3"])
    with pytest.raises(SystemExit):
        strength.main()
    assert "name two players" in capsys.readouterr().err
