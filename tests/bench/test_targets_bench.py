"""bench/targets.py (how close our evaluations of sldata's records come to gnubg's 2-ply): it
reads a records file by its decisions, refuses one whose decision counts do not match, and on a
small file prints each figure once, the targets' error being exactly our own 1-ply's when the
targets are our own 1-ply values."""

import pytest

from conftest import bench_module, build_tools, outside_module
from game.model import evaluator as ev

targets = bench_module("targets")


@pytest.fixture(scope="module")
def one_ply_records(tmp_path_factory):
    import subprocess
    tools = build_tools(tmp_path_factory.mktemp("targets_tools"))
    path = tmp_path_factory.mktemp("targets") / "d.rec"
    subprocess.run([str(tools / "sldata"), "gen", "--weights", ev.WEIGHTS_PATH, "--positions",
                    "40", "--seed", "8", "--ply", "1", "--only", "contact", "--out", str(path)],
                   check=True, capture_output=True)
    return path


def test_decisions_follow_the_dec_counts_and_a_mismatch_is_refused(one_ply_records, tmp_path):
    groups = targets.decisions(str(one_ply_records), 1000)
    counts = list(open(str(one_ply_records) + ".dec", "rb").read())
    assert [len(g) for g in groups] == counts and sum(counts) == 40
    bad = tmp_path / "bad.rec"
    bad.write_bytes(one_ply_records.read_bytes())
    (tmp_path / "bad.rec.dec").write_bytes(bytes(counts[:-1]))
    with pytest.raises(SystemExit, match="counts"):
        targets.decisions(str(bad), 1000)
    (tmp_path / "bad.rec").write_bytes(one_ply_records.read_bytes()[:-3])
    with pytest.raises(SystemExit, match="whole"):
        targets.decisions(str(bad), 1000)


def test_one_ply_targets_score_as_our_one_ply(one_ply_records, capsys):
    outside_module("gnubg_nn")
    assert targets.main([str(one_ply_records), "--decisions", "6", "--judge-ply", "0"]) == 0
    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    for kind in ("abs_error", "difference_error", "choice_loss"):
        for who in ("ours_0ply", "ours_1ply", "targets", "gnubg_0ply"):
            assert f"{who}_{kind}" in lines
        # the records' targets are our own 1-ply values (float32 in the file: tiny rounding)
        assert float(lines[f"targets_{kind}"].split()[0]) == pytest.approx(
            float(lines[f"ours_1ply_{kind}"].split()[0]), abs=2e-4)
    # judged by gnubg 0-ply, gnubg 0-ply makes no error at all
    assert float(lines["gnubg_0ply_abs_error"].split()[0]) == 0.0
