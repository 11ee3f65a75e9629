"""bench/hard_positions.py's positions and its stored gnubg references (no rollouts here: CI
time): every position valid, not over and of its class; the references file well-formed and
holding exactly the bench's positions; a damaged file refused with a one-line reason; gnubg's
printed rollout read figure by figure; parts pooled by their trials."""
import copy
import json
import math

import pytest

from conftest import bench_module
from game.model import rules
from game.model.position import Position

bench = bench_module("hard_positions")


def test_forty_or_more_positions_ten_or_more_a_class_each_valid_not_over_and_of_its_class():
    hards = bench.hard_positions()
    assert len(hards) >= 40 and len({h.position_id for h in hards}) == len(hards)
    for klass in bench.CLASSES:
        assert sum(h.klass == klass for h in hards) >= 10, klass
    for hard in hards:
        position = Position.from_id(hard.position_id)       # bg_validate runs in Position
        assert rules.game_result(position) == 0, hard
        assert bench.in_class(hard.klass, position), hard
        assert hard.description


def test_the_class_tests_tell_the_start_from_a_prime_and_a_closed_board_from_a_prime():
    start = Position.start()
    assert not any(bench.in_class(klass, start) for klass in bench.CLASSES)
    closed = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 3, 6: 2, 8: 2},
                                  {"bar": 2, 13: 3, 11: 1, 8: 2, 6: 3, 4: 2, 3: 2})
    assert bench.in_class("closed_board", closed) and not bench.in_class("prime", closed)
    # the same prime with nobody behind it is no prime position
    free = Position.from_points({4: 2, 5: 2, 6: 3, 7: 2, 8: 2, 9: 2, 13: 2},
                                {13: 5, 8: 2, 6: 4, 5: 2, 4: 2})
    assert not bench.in_class("prime", free)


@pytest.fixture(scope="module")
def stored():
    return bench.load_references()


def test_the_stored_references_are_the_bench_positions_with_trials_and_standard_errors(stored):
    assert set(stored) == {h.position_id for h in bench.hard_positions()}
    for hard in bench.hard_positions():
        entry = stored[hard.position_id]
        assert entry["class"] == hard.klass
        assert entry["trials"] >= 648 and entry["trials"] == sum(p["trials"]
                                                                 for p in entry["parts"])
        assert len({p["seed"] for p in entry["parts"]}) == len(entry["parts"])
        for figure in bench.FIGURES:
            assert entry["se"][figure] >= 0
        # a rollout of a contact position has a spread: its equity's SE is not zero
        assert entry["se"]["equity"] > 0
        mean = entry["mean"]
        assert 0 <= mean["lose_backgammon"] <= mean["lose_gammon"] <= 1 - mean["win"]
        assert 0 <= mean["win_backgammon"] <= mean["win_gammon"] <= mean["win"] <= 1
        # the equity is the chances' (gnubg prints four places)
        from_chances = (2 * mean["win"] - 1 + mean["win_gammon"] - mean["lose_gammon"]
                        + mean["win_backgammon"] - mean["lose_backgammon"])
        assert mean["equity"] == pytest.approx(from_chances, abs=1e-3)


def _damaged(tmp_path, stored_file, damage):
    data = json.loads(stored_file.read_text())
    damage(data)
    path = tmp_path / "refs.json"
    path.write_text(json.dumps(data))
    return path


def _drop_se(data):
    del data["positions"][3]["se"]


def _bad_id(data):
    data["positions"][0]["id"] = "not-an-id!!!!!"


def _bad_class(data):
    data["positions"][5]["class"] = "race"


def _nan_equity(data):
    data["positions"][7]["mean"]["equity"] = "x"


def _too_few(data):
    data["positions"] = data["positions"][:39]


def _twice(data):
    data["positions"][1] = copy.deepcopy(data["positions"][0])


@pytest.mark.parametrize("damage,words", [
    (_drop_se, "has no 'se'"), (_bad_id, "not a position ID"), (_bad_class, "class 'race'"),
    (_nan_equity, "mean equity is not a number"), (_too_few, "holds 39 positions"),
    (_twice, "is there twice"),
])
def test_a_damaged_references_file_is_refused_with_a_one_line_reason(tmp_path, damage, words):
    import pathlib
    path = _damaged(tmp_path, pathlib.Path(bench.REFERENCES), damage)
    with pytest.raises(bench.ReferencesError) as refused:
        bench.load_references(str(path))
    message = str(refused.value)
    assert words in message and "\n" not in message and str(path) in message


def test_a_truncated_or_missing_references_file_is_refused_with_a_one_line_reason(tmp_path):
    import pathlib
    path = tmp_path / "cut.json"
    path.write_text(pathlib.Path(bench.REFERENCES).read_text()[:500])
    for target, words in ((path, "cannot be read as JSON"),
                          (tmp_path / "none.json", "is missing")):
        with pytest.raises(bench.ReferencesError) as refused:
            bench.load_references(str(target))
        assert words in str(refused.value) and "\n" not in str(refused.value)


# gnubg 1.07's last lines of a rollout (36 games of the bench's first position)
GNUBG_PRINTED = """Rollout done. Printing final results.

Current Position:
  0.8172 0.1347 0.0070 - 0.1828 0.0143 0.0005 CL +0.7614
 [0.0116 0.0075 0.0021 - 0.0116 0.0029 0.0002 CL  0.0276] 1r
Full cubeless rollout with variance reduction
"""


def test_gnubgs_printed_rollout_is_read_as_five_chances_and_the_equity_with_their_errors():
    mean, se = bench.read_gnubg("...\n" + GNUBG_PRINTED, "2J7BATDYbhsGAA")
    assert [mean[f] for f in bench.FIGURES] == [0.8172, 0.1347, 0.0070, 0.0143, 0.0005, 0.7614]
    assert [se[f] for f in bench.FIGURES] == [0.0116, 0.0075, 0.0021, 0.0029, 0.0002, 0.0276]
    with pytest.raises(SystemExit, match="no rollout result for 2J7BATDYbhsGAA"):
        bench.read_gnubg(GNUBG_PRINTED.replace("Rollout done", "Rollout stopped"),
                         "2J7BATDYbhsGAA")


def test_two_equal_parts_pool_to_their_mean_with_the_error_over_root_two():
    part = {"trials": 648, "mean": dict.fromkeys(bench.FIGURES, 0.25),
            "se": dict.fromkeys(bench.FIGURES, 0.01)}
    other = {"trials": 648, "mean": dict.fromkeys(bench.FIGURES, 0.35),
             "se": dict.fromkeys(bench.FIGURES, 0.01)}
    trials, mean, se = bench.pooled([part, other])
    assert trials == 1296
    assert mean["equity"] == pytest.approx(0.30)
    assert se["equity"] == pytest.approx(0.01 / math.sqrt(2))


def test_a_class_mean_is_for_the_boards_first_side_so_the_two_sides_errors_do_not_cancel(
        capsys):
    """Each board comes with either side on roll; an engine that overrates the primer by 0.05
    is 0.05 off for the primer whichever side is on roll, and outside 3 SE."""
    hards = [h for h in bench.hard_positions() if h.klass == "prime"][:2]
    assert [h.sign for h in hards] == [1, -1]
    rows = [bench.Compared(hards[0], 0.55, 0.005, 0.50, 0.005, 0.6, 0.6),
            bench.Compared(hards[1], -0.55, 0.005, -0.50, 0.005, -0.6, -0.6)]
    assert bench.print_class("prime", rows) is False
    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert lines["prime_rollout_mean_diff"].startswith("+0.0500 points (SE 0.0050")
    assert lines["prime_0ply_mean_diff"].startswith("+0.1000 points")
    assert lines["class prime within 3 SE"] == "no"
