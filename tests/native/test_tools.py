"""The evaluator's offline tools (native/tools: train, refine) build and do what their help
says on tiny runs: a seeded run is reproducible, its weights file loads in the game, --widen
carries an older, narrower encoding over with the new inputs at zero, and refine's gen, fit,
duel and average write what they claim (a crashed net carried along and fitted on the
crashed positions alone), and rebuild_net.py's supervised rounds make the same data whatever
its --jobs. Weights files are built here in code."""
import argparse
import math
import os
import struct
import subprocess
import sys

import pytest

import conftest
from conftest import build_tools, crashed_position, in_contact, outside_module
from game.model import evaluator as ev
from native import ffi, lib

TOOLS = str(conftest.TOOLS)
HEADER = struct.Struct("<8s6I")          # magic, version, n_in, hid_c, n_in_race, hid_r, games


def fnv1a(data: bytes) -> int:
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def weights_file(n_in: int, hidden: int, values, games: int = 7) -> bytes:
    """A weights file in the evaluator's format whose floats come from values(k)."""
    floats = 2 * (n_in * hidden + hidden + 5 * hidden + 5)
    body = HEADER.pack(b"SPBGNET1", 1, n_in, hidden, n_in, hidden, games)
    body += struct.pack(f"<{floats}f", *(values(k) for k in range(floats)))
    return body + struct.pack("<I", fnv1a(body))


def read_net_floats(data: bytes):
    magic, version, n_in, hid_c, _, hid_r, games = HEADER.unpack_from(data)
    count = (len(data) - HEADER.size - 4) // 4
    return n_in, hid_c, struct.unpack_from(f"<{count}f", data, HEADER.size)


@pytest.fixture(scope="module")
def tools(tmp_path_factory):
    return build_tools(tmp_path_factory.mktemp("tools"))


def run(tools, *args, cwd=None):
    return subprocess.run([str(tools / args[0]), *map(str, args[1:])], capture_output=True,
                          text=True, check=True, cwd=cwd)


def test_a_seeded_training_run_is_reproducible_and_its_file_loads_in_the_game(tools, tmp_path):
    files = []
    for name in ("a.wts", "b.wts"):
        path = tmp_path / name
        run(tools, "train", "--games", 60, "--hidden", 8, "--seed", 3, "--check", 60,
            "--pairs", 5, "--out", path)
        files.append(path.read_bytes())
    assert files[0] == files[1]
    assert ev.load_weights(str(tmp_path / "a.wts")) == 60
    ev.load_weights()                                   # the shipped weights back


def test_a_training_run_stopped_at_a_checkpoint_and_continued_ends_in_the_same_file(tools,
                                                                                    tmp_path):
    common = ["--games", 90, "--hidden", 8, "--seed", 4, "--check", 30, "--pairs", 3]
    run(tools, "train", *common, "--out", tmp_path / "whole.wts")
    run(tools, "train", *common, "--stop-at", 30, "--out", tmp_path / "part.wts")
    assert HEADER.unpack_from((tmp_path / "part.wts").read_bytes())[6] == 30
    run(tools, "train", *common, "--continue", tmp_path / "part.wts",
        "--out", tmp_path / "part.wts")
    assert (tmp_path / "part.wts").read_bytes() == (tmp_path / "whole.wts").read_bytes()


def test_widen_puts_the_old_inputs_first_in_each_side_and_the_new_ones_at_zero(tools, tmp_path):
    shipped = open(ev.WEIGHTS_PATH, "rb").read()
    n_in, hidden, _ = read_net_floats(shipped)
    per_side, old_per_side, nh = n_in // 2, n_in // 2 - 3, 4
    old = weights_file(2 * old_per_side, nh, lambda k: ((k * 37) % 101) / 100.0 - 0.5)
    (tmp_path / "old.wts").write_bytes(old)
    run(tools, "train", "--widen", tmp_path / "old.wts", "--games", 1, "--alpha", 1e-30,
        "--alpha-end", 1e-30, "--check", 1, "--pairs", 1, "--out", tmp_path / "new.wts")
    _, _, before = read_net_floats(old)
    new_in, new_hidden, after = read_net_floats((tmp_path / "new.wts").read_bytes())
    assert (new_in, new_hidden) == (n_in, nh)
    for side in range(2):
        for k in range(per_side):
            row = after[(side * per_side + k) * nh:(side * per_side + k + 1) * nh]
            if k < old_per_side:
                j = side * old_per_side + k
                assert row == pytest.approx(before[j * nh:(j + 1) * nh], abs=1e-6)
            else:
                assert row == pytest.approx((0.0,) * nh, abs=1e-20)   # one step at 1e-30
    tail_old = before[2 * old_per_side * nh:2 * old_per_side * nh + 6 * nh + 5]
    tail_new = after[n_in * nh:n_in * nh + 6 * nh + 5]     # hidden biases and the outputs
    assert tail_new == pytest.approx(tail_old, abs=1e-6)


def test_widen_refuses_a_damaged_file(tools, tmp_path):
    bad = bytearray(open(ev.WEIGHTS_PATH, "rb").read())
    bad[100] ^= 0xFF
    (tmp_path / "bad.wts").write_bytes(bytes(bad))
    proc = subprocess.run([str(tools / "train"), "--widen", str(tmp_path / "bad.wts"), "--games",
                           "1", "--out", str(tmp_path / "x.wts")], capture_output=True, text=True)
    assert proc.returncode == 1 and "cannot widen" in proc.stderr
    assert not (tmp_path / "x.wts").exists()


def test_refine_gen_fit_duel_and_average(tools, tmp_path):
    shipped = ev.WEIGHTS_PATH
    run(tools, "refine", "gen", "--weights", shipped, "--positions", 40, "--seed", 2,
        "--out", tmp_path / "d.dat")
    assert (tmp_path / "d.dat").stat().st_size == 40 * (50 + 4 * 5)
    out = run(tools, "refine", "fit", "--weights", shipped, "--epochs", 1, "--out",
              tmp_path / "f.wts", tmp_path / "d.dat").stdout
    assert "held-out mse" in out
    assert ev.load_weights(str(tmp_path / "f.wts")) == lib.bg_weights_games() > 0
    ev.load_weights()
    duel = run(tools, "refine", "duel", "--weights", shipped, "--against", shipped, "--pairs",
               3).stdout
    assert "6 games, A (level 3) +0.000 ppg" in duel       # the same net both sides
    run(tools, "refine", "average", "--out", tmp_path / "avg.wts", shipped, shipped)
    assert (tmp_path / "avg.wts").read_bytes() == open(shipped, "rb").read()


def test_refine_duel_from_starts_plays_each_pair_from_its_start_and_refuses_a_bad_file(
        tools, tmp_path):
    """duel --from: each pair starts at the file's next position with its own first roll. From
    a start the side on roll wins at once (its last man on its 1-point), two different nets
    split every pair evenly; from the opening their pairs differ."""
    shipped = ev.WEIGHTS_PATH
    run(tools, "refine", "gen", "--weights", shipped, "--positions", 40, "--seed", 2,
        "--out", tmp_path / "d.dat")
    run(tools, "refine", "fit", "--weights", shipped, "--epochs", 1, "--alpha", 0.05, "--out",
        tmp_path / "f.wts", tmp_path / "d.dat")
    duel = ("refine", "duel", "--weights", tmp_path / "f.wts", "--against", shipped,
            "--pairs", 40, "--seed", 3)
    opening = run(tools, *duel).stdout       # two nets: pairs from the opening do not all tie
    assert "80 games" in opening and "95% CI [+0.000, +0.000]" not in opening
    board = [0] * 50
    board[0] = 1                     # the side on roll: one man left, on its 1-point
    board[25 + 5] = 15               # the other: all fifteen on its 6-point, none off
    (tmp_path / "won.dec").write_bytes(bytes(board) + bytes((6, 5)))
    won = run(tools, *duel, "--from", tmp_path / "won.dec").stdout
    assert "80 games, A (level 3) +0.000 ppg, 95% CI [+0.000, +0.000], A wins 0.500" in won
    over = [0] * 50
    over[25 + 5] = 15                # the side on roll has no man left: the game is over
    start = bytes(board) + bytes((6, 5))
    for name, data, says in (("part.dec", start[:-1], "ends in a partial start"),
                             ("over.dec", start + bytes(over) + bytes((1, 2)), "start 2 of"),
                             ("dice.dec", bytes(board) + bytes((7, 5)), "(bad dice)"),
                             ("none.dec", b"", "holds no start")):
        (tmp_path / name).write_bytes(data)
        proc = subprocess.run([os.path.join(tools, "refine"), *map(str, duel[1:]), "--from",
                               str(tmp_path / name)], capture_output=True, text=True)
        assert proc.returncode == 1 and says in proc.stderr and proc.stdout == "", name


def test_refine_fits_each_net_on_the_positions_it_judges_and_carries_the_crashed_net(tools,
                                                                                    tmp_path):
    """With a crashed net, refine fit sends crashed positions to it and the rest to the
    contact and race nets; average and --widen carry it; a file with one and a file without
    do not average."""
    k2, k1 = tmp_path / "k2.wts", tmp_path / "k1.wts"
    conftest.shipped_with_crashed(k2, lambda contact: contact.copy())
    conftest.shipped_with_crashed(k1, lambda contact: None)
    run(tools, "refine", "gen", "--weights", k2, "--positions", 400, "--seed", 3, "--ply", 1,
        "--sample", 1, "--out", tmp_path / "d.dat")
    data = (tmp_path / "d.dat").read_bytes()
    boards = [struct.unpack_from("<50b", data, k * 70) for k in range(len(data) // 70)]
    crashed = sum(crashed_position(b) for b in boards)
    contact = sum(in_contact(b) for b in boards) - crashed
    assert crashed > 0
    out = run(tools, "refine", "fit", "--weights", k2, "--epochs", 1, "--out", tmp_path / "f.wts",
              tmp_path / "d.dat").stdout
    race = len(boards) - contact - crashed
    assert f"fit: {contact} contact, {race} race, {crashed} crashed" in out
    assert "crashed epoch 1" in out
    assert ev.load_weights(str(tmp_path / "f.wts")) == lib.bg_weights_games()
    ev.load_weights()
    out = run(tools, "refine", "fit", "--weights", k1, "--epochs", 1, "--out", tmp_path / "g.wts",
              tmp_path / "d.dat").stdout
    assert f"fit: {contact + crashed} contact," in out and "crashed" not in out
    run(tools, "refine", "average", "--out", tmp_path / "avg.wts", k2, k2)
    assert (tmp_path / "avg.wts").read_bytes() == k2.read_bytes()
    proc = subprocess.run([str(tools / "refine"), "average", "--out", str(tmp_path / "mix.wts"),
                           str(k2), str(k1)], capture_output=True, text=True)
    assert proc.returncode == 1 and "another shape" in proc.stderr
    assert not (tmp_path / "mix.wts").exists()
    run(tools, "train", "--widen", k2, "--games", 0, "--out", tmp_path / "w.wts")
    assert (tmp_path / "w.wts").read_bytes() == k2.read_bytes()


@pytest.mark.parametrize("only,want_contact", [("race", False), ("contact", True)])
def test_refine_gen_only_keeps_positions_of_one_class(tools, tmp_path, only, want_contact):
    run(tools, "refine", "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 30, "--seed", 5,
        "--only", only, "--out", tmp_path / "d.dat")
    data = (tmp_path / "d.dat").read_bytes()
    boards = [struct.unpack_from("<50b", data, k * 70) for k in range(len(data) // 70)]
    assert len(boards) == 30
    assert all(in_contact(b) == want_contact for b in boards)


def test_refine_refuses_a_data_file_with_a_partial_record(tools, tmp_path):
    (tmp_path / "cut.dat").write_bytes(b"\0" * 69)
    proc = subprocess.run([str(tools / "refine"), "fit", "--weights", ev.WEIGHTS_PATH, "--out",
                           str(tmp_path / "f.wts"), str(tmp_path / "cut.dat")],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "partial record" in proc.stderr
    assert not (tmp_path / "f.wts").exists()


def _nets(data: bytes):
    """(contact floats, race floats) of a weights file, each net's block whole."""
    n_in, hid_c, floats = read_net_floats(data)
    size_c = n_in * hid_c + hid_c + 5 * hid_c + 5
    return floats[:size_c], floats[size_c:]


@pytest.fixture()
def small_net(tools, tmp_path):
    path = tmp_path / "base.wts"
    run(tools, "train", "--games", 20, "--hidden", 8, "--seed", 3, "--check", 20, "--pairs", 2,
        "--out", path)
    return path


@pytest.mark.parametrize("only,kept", [("race", 0), ("contact", 1)])
def test_training_one_net_leaves_the_other_exactly_as_it_was(tools, tmp_path, small_net, only,
                                                              kept):
    run(tools, "train", "--resume", small_net, "--only", only, "--loss", "xent", "--games", 30,
        "--seed", 5, "--check", 30, "--pairs", 2, "--out", tmp_path / "one.wts")
    before, after = _nets(small_net.read_bytes()), _nets((tmp_path / "one.wts").read_bytes())
    assert after[kept] == before[kept]
    assert after[1 - kept] != before[1 - kept]


def test_cross_entropy_and_squared_error_are_different_steps_each_reproducible(tools, tmp_path,
                                                                                small_net):
    files = {}
    for loss in ("mse", "xent", "xent"):
        out = tmp_path / f"{loss}.wts"
        run(tools, "train", "--resume", small_net, "--loss", loss, "--games", 20, "--seed", 6,
            "--check", 20, "--pairs", 2, "--out", out)
        files.setdefault(loss, set()).add(out.read_bytes())
    assert len(files["xent"]) == 1 and files["xent"] != files["mse"]


def test_a_run_resumed_from_a_trained_file_stopped_and_continued_with_first_ends_the_same(
        tools, tmp_path, small_net):
    common = ["--only", "contact", "--loss", "xent", "--games", 40, "--seed", 7, "--check", 20,
              "--pairs", 2]
    run(tools, "train", "--resume", small_net, *common, "--out", tmp_path / "whole.wts")
    run(tools, "train", "--resume", small_net, *common, "--stop-at", 20, "--out",
        tmp_path / "part.wts")
    assert (tmp_path / "part.wts").read_bytes() != (tmp_path / "whole.wts").read_bytes()
    run(tools, "train", "--continue", tmp_path / "part.wts", "--first", 21, *common, "--out",
        tmp_path / "part.wts")
    assert (tmp_path / "part.wts").read_bytes() == (tmp_path / "whole.wts").read_bytes()


def test_grow_contact_keeps_every_old_weight_and_adds_units_that_say_nothing(tools, tmp_path,
                                                                            small_net):
    run(tools, "train", "--resume", small_net, "--grow-contact", 12, "--games", 0, "--out",
        tmp_path / "grown.wts")
    old, new = small_net.read_bytes(), (tmp_path / "grown.wts").read_bytes()
    n_in, hid_c, _, hid_r = HEADER.unpack_from(new)[2:6]
    assert (hid_c, hid_r) == (12, 8)
    (old_c, old_r), (new_c, new_r) = _nets(old), _nets(new)
    assert new_r == old_r
    for i in range(n_in):                                   # input rows: old units first
        assert new_c[i * 12:i * 12 + 8] == old_c[i * 8:i * 8 + 8]
        assert any(new_c[i * 12 + 8:i * 12 + 12])           # the new units see the inputs
    w_out_new = new_c[n_in * 12 + 12:n_in * 12 + 12 + 5 * 12]
    w_out_old = old_c[n_in * 8 + 8:n_in * 8 + 8 + 5 * 8]
    for k in range(5):
        assert w_out_new[k * 12:k * 12 + 8] == w_out_old[k * 8:k * 8 + 8]
        assert w_out_new[k * 12 + 8:k * 12 + 12] == (0.0,) * 4   # ...but do not speak


@pytest.mark.parametrize("args,message", [
    (["--loss", "hinge"], "--loss takes mse or xent"),
    (["--only", "bearoff"], "--only takes contact or race"),
    (["--grow-contact", 4], "--grow-contact must be more than"),
])
def test_a_bad_training_option_is_refused_and_nothing_written(tools, tmp_path, small_net, args,
                                                             message):
    proc = subprocess.run([str(tools / "train"), "--resume", str(small_net), *map(str, args),
                           "--games", "1", "--out", str(tmp_path / "x.wts")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and message in proc.stderr
    assert not (tmp_path / "x.wts").exists()


def test_refine_fit_takes_either_loss_and_refuses_another(tools, tmp_path):
    run(tools, "refine", "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 30, "--seed", 8,
        "--out", tmp_path / "d.dat")
    fitted = {}
    for loss in ("mse", "xent"):
        run(tools, "refine", "fit", "--weights", ev.WEIGHTS_PATH, "--epochs", 1, "--loss", loss,
            "--out", tmp_path / f"{loss}.wts", tmp_path / "d.dat")
        fitted[loss] = (tmp_path / f"{loss}.wts").read_bytes()
    assert fitted["mse"] != fitted["xent"]
    proc = subprocess.run([str(tools / "refine"), "fit", "--weights", ev.WEIGHTS_PATH, "--loss",
                           "l1", "--out", str(tmp_path / "x.wts"), str(tmp_path / "d.dat")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--loss takes mse or xent" in proc.stderr
    assert not (tmp_path / "x.wts").exists()


def _rebuild_round(tmp_path, name: str, jobs: int) -> bytes:
    """One tiny supervised round of rebuild_net.py from the shipped file: contact positions
    with 1-ply targets, fitted on cross-entropy; returns the round's data file."""
    work = tmp_path / name
    subprocess.run([sys.executable, os.path.join(TOOLS, "rebuild_net.py"), "--seed", "3",
                    "--workdir", str(work), "--start", ev.WEIGHTS_PATH, "--race-games", "0",
                    "--contact-games", "0", "--rounds", "1", "--ply", "1", "--only", "contact",
                    "--positions", "41", "--epochs", "1", "--fit-loss", "xent", "--duel-pairs",
                    "10", "--gnubg-games", "0", "--jobs", str(jobs)],
                   check=True, capture_output=True, text=True)
    log = (work / "yardstick.log").read_text()
    assert "round 1: generating 41 positions (contact) with 1-ply targets" in log
    assert "round 1: fit on 1 data files (xent)" in log and "duel vs best" in log
    assert (work / "rounds_done").read_text() == "1"
    assert not [p for p in os.listdir(work) if ".part" in p or p.startswith("round1.dat.")]
    return (work / "round1.dat").read_bytes()


def test_rebuild_round_data_is_the_same_whatever_the_jobs_and_of_the_class_asked(tools,
                                                                                  tmp_path):
    one, two = _rebuild_round(tmp_path, "jobs1", 1), _rebuild_round(tmp_path, "jobs2", 2)
    assert one == two and len(one) == 41 * 70
    boards = [struct.unpack_from("<50b", one, k * 70) for k in range(41)]
    assert all(in_contact(b) for b in boards)


def test_refine_gen_ply0_targets_are_each_games_outcome_for_the_side_on_roll(tools, tmp_path):
    run(tools, "refine", "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 400, "--seed", 4,
        "--ply", 0, "--only", "contact", "--explore", 0, "--out", tmp_path / "d.dat")
    data = (tmp_path / "d.dat").read_bytes()
    assert len(data) == 400 * 70
    ev.load_weights()
    board, probs = ffi.new("int8_t[]", 50), ffi.new("float[]", 5)
    ours, outcomes = [], []
    for k in range(400):
        b = struct.unpack_from("<50b", data, k * 70)
        win, win_g, win_bg, lose_g, lose_bg = struct.unpack_from("<5f", data, k * 70 + 50)
        # an outcome, not an estimate: every chance 0 or 1, a gammon only with its win or loss
        assert {win, win_g, win_bg, lose_g, lose_bg} <= {0.0, 1.0}
        assert win_bg <= win_g <= win and lose_bg <= lose_g <= 1 - win
        assert in_contact(b)
        board[0:50] = b
        assert lib.bg_evaluate(board, 0, ffi.NULL, probs) == 0
        ours.append(lib.bg_equity(probs))
        outcomes.append(win * 1 + win_g + win_bg - (1 - win) - lose_g - lose_bg)
    # the net's equity for the side on roll predicts that side's result: a target seen from
    # the wrong side would turn this correlation negative
    n = len(ours)
    mo, mt = sum(ours) / n, sum(outcomes) / n
    cov = sum((a - mo) * (b - mt) for a, b in zip(ours, outcomes, strict=True))
    var_o = sum((a - mo) ** 2 for a in ours)
    var_t = sum((b - mt) ** 2 for b in outcomes)
    assert cov / math.sqrt(var_o * var_t) > 0.3


def test_rebuild_sl_round_trains_the_contact_net_toward_its_decisions_and_logs_the_duel(
        tools, tmp_path):
    """One tiny round of rebuild_net.py's stage 5 from the shipped file: the best plays of
    sampled decisions with 1-ply targets (sldata), then sltrain.py with the pairwise term; the
    round's data and its decision counts are the same whatever --jobs is."""
    datas = []
    for jobs in (1, 2):
        work = tmp_path / f"jobs{jobs}"
        subprocess.run([sys.executable, os.path.join(TOOLS, "rebuild_net.py"), "--seed", "3",
                        "--workdir", str(work), "--start", ev.WEIGHTS_PATH, "--race-games", "0",
                        "--contact-games", "0", "--sl-rounds", "1", "--sl-positions", "200",
                        "--sl-epochs", "1", "--duel-pairs", "10", "--gnubg-games", "0",
                        "--jobs", str(jobs)], check=True, capture_output=True, text=True)
        log = (work / "yardstick.log").read_text()
        assert "sl round 1: generating 200 positions (the best 5 plays within 0.12)" in log
        assert "sl round 1: held-out equity error" in log and "choice loss" in log
        assert "duel vs best" in log and (work / "best.wts").exists()
        assert (work / "sl_rounds_done").exists()
        assert not [p for p in os.listdir(work) if ".part" in p]
        data, dec = (work / "sl1.rec").read_bytes(), (work / "sl1.rec.dec").read_bytes()
        assert len(data) == 200 * 70 and sum(dec) == 200
        datas.append((data, dec))
    assert datas[0] == datas[1]


def test_rebuild_generation_stopped_midway_keeps_its_whole_parts_and_remakes_the_rest(
        tools, tmp_path, monkeypatch):
    """rebuild_net.py's seeded parts: a run stopped with part 0 whole and part 1 half written
    carries on from there, making part 1 only; the joined data and decision counts are the
    bytes of an uninterrupted run, and no part is left behind."""
    rebuild_net = _rebuild_net_module()
    assert rebuild_net.GEN_PARTS == 2

    def run_for(work):
        return rebuild_net.Run(argparse.Namespace(workdir=str(work), jobs=1, seed=3,
                                                  sl_positions=120, sl_ply=1, sl_top=5,
                                                  sl_rollout=0, sl_foreign=0,
                                                  sl_margin=0.12, gen_parts=2))

    whole = run_for(tmp_path / "whole")
    whole.sl_gen(ev.WEIGHTS_PATH, 1, whole.path("sl1.rec"))
    stopped = run_for(tmp_path / "stopped")
    data = stopped.path("sl1.rec")
    subprocess.run([str(tools / "sldata"), "gen", "--weights", ev.WEIGHTS_PATH,
                    "--positions", str(stopped._share(120, 0)), "--seed", "3510", "--ply", "1",
                    "--top", "5", "--margin", "0.12", "--out", data + ".0"], check=True,
                   capture_output=True)
    with open(data + ".1.part", "wb") as fh:
        fh.write(b"\x01" * 33)                       # cut off mid-record
    made = []
    popen = rebuild_net.subprocess.Popen

    def counting(cmd, *args, **kwargs):
        made.append(cmd[cmd.index("--out") + 1])
        return popen(cmd, *args, **kwargs)
    monkeypatch.setattr(rebuild_net.subprocess, "Popen", counting)
    stopped.sl_gen(ev.WEIGHTS_PATH, 1, data)
    assert made == [data + ".1.part"]
    for ext in ("", ".dec"):
        with open(whole.path("sl1.rec") + ext, "rb") as a, open(data + ext, "rb") as b:
            assert a.read() == b.read()
    assert sorted(os.listdir(tmp_path / "stopped")) == ["sl1.rec", "sl1.rec.dec"]


def test_rebuild_gen_parts_splits_a_round_into_that_many_seeded_parts(tools, tmp_path,
                                                                      monkeypatch):
    """--gen-parts 3: a round's positions come in three parts of a third each, part j seeded
    the round's seed + j, joined in order into one file with its decision counts."""
    rebuild_net = _rebuild_net_module()
    run_ = rebuild_net.Run(argparse.Namespace(workdir=str(tmp_path), jobs=2, seed=3,
                                              sl_positions=100, sl_ply=1, sl_top=5,
                                              sl_rollout=0, sl_foreign=0, sl_margin=0.12,
                                              gen_parts=3))
    made = []
    popen = rebuild_net.subprocess.Popen

    def counting(cmd, *args, **kwargs):
        made.append((cmd[cmd.index("--seed") + 1], cmd[cmd.index("--positions") + 1]))
        return popen(cmd, *args, **kwargs)
    monkeypatch.setattr(rebuild_net.subprocess, "Popen", counting)
    run_.sl_gen(ev.WEIGHTS_PATH, 1, run_.path("sl1.rec"))
    assert made == [("3510", "34"), ("3511", "33"), ("3512", "33")]
    data, dec = (tmp_path / "sl1.rec").read_bytes(), (tmp_path / "sl1.rec.dec").read_bytes()
    assert len(data) == 100 * 70 and sum(dec) == 100
    assert sorted(os.listdir(tmp_path)) == ["sl1.rec", "sl1.rec.dec"]


def test_rebuild_work_folder_keeps_its_gen_parts_and_refuses_another(tmp_path):
    """Other parts would be other data: a folder records its --gen-parts and a resume with
    another count stops with a message naming the right one; a folder from before the
    option (a log, no record) made two; an out-of-range count is refused before any work."""
    rebuild_net = _rebuild_net_module()

    def run_in(work, parts):
        return rebuild_net.Run(argparse.Namespace(workdir=str(work), gen_parts=parts))
    fresh = tmp_path / "fresh"
    run_in(fresh, 4).check_parts()
    assert (fresh / "gen_parts").read_text() == "4"
    run_in(fresh, 4).check_parts()
    with pytest.raises(SystemExit, match="--gen-parts 4"):
        run_in(fresh, 2).check_parts()
    old = tmp_path / "old"
    old.mkdir()
    (old / "yardstick.log").write_text("2026-11-27 08:36:00 rebuild_net --seed 21\n")
    with pytest.raises(SystemExit, match="--gen-parts 2"):
        run_in(old, 5).check_parts()
    assert not (old / "gen_parts").exists()
    run_in(old, 2).check_parts()
    assert (old / "gen_parts").read_text() == "2"
    proc = subprocess.run([sys.executable, os.path.join(TOOLS, "rebuild_net.py"), "--workdir",
                           str(tmp_path / "bad"), "--gen-parts", "11"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--gen-parts 11: give 1 to 10" in proc.stderr
    assert not (tmp_path / "bad").exists()


def test_rebuild_sl_data_from_games_against_gnubg_with_rollout_targets(tools, tmp_path):
    """rebuild_net.py's stage 5 with --sl-foreign and --sl-rollout: each part's decisions come
    from games of level 3 against gnubg 0-ply (foreign_positions.py), the targets from
    luck-free truncated rollouts; the data are the same whatever --jobs is, and the decision
    files are gone afterwards."""
    outside_module("gnubg_nn")
    rebuild_net = _rebuild_net_module()
    datas = []
    for jobs in (1, 2):
        work = tmp_path / f"jobs{jobs}"
        run_ = rebuild_net.Run(argparse.Namespace(
            workdir=str(work), jobs=jobs, seed=4, sl_positions=30, sl_ply=1, sl_top=3,
            sl_margin=0.12, sl_rollout=2, sl_horizon=2, sl_foreign=4, sl_foreign_share=0.5,
            gen_parts=2))
        run_.sl_gen(ev.WEIGHTS_PATH, 1, run_.path("sl1.rec"))
        data, dec = (work / "sl1.rec").read_bytes(), (work / "sl1.rec.dec").read_bytes()
        assert len(data) == 30 * 70 and sum(dec) == 30
        assert not [p for p in os.listdir(work) if ".from" in p or ".part" in p]
        datas.append((data, dec))
    assert datas[0] == datas[1]


def test_rebuild_net_rounds_start_a_crashed_net_then_train_the_race_net(tools, tmp_path):
    """One tiny round of each half of rebuild_net.py's stage 6 from the shipped file: crashed
    decisions with 1-ply targets, sltrain.py --net crashed (the candidate a version-2 file
    that loads), then race decisions and sltrain.py --net race."""
    work = tmp_path / "cr"
    subprocess.run([sys.executable, os.path.join(TOOLS, "rebuild_net.py"), "--seed", "4",
                    "--workdir", str(work), "--start", ev.WEIGHTS_PATH, "--race-games", "0",
                    "--contact-games", "0", "--cr-rounds", "1", "--cr-positions", "150",
                    "--rs-rounds", "1", "--rs-positions", "120",
                    "--net-ply", "1", "--net-epochs", "1", "--duel-pairs", "5", "--gnubg-games",
                    "0", "--jobs", "2"], check=True, capture_output=True, text=True)
    log = (work / "yardstick.log").read_text()
    assert "cr round 1: generating 150 crashed positions (the best 5 plays within 0.12)" in log
    assert "cr round 1: held-out equity error" in log and "duel vs best" in log
    done = (work / "net_plan_done").read_text().split(",")
    assert [t.rstrip("!") for t in done] == ["cr", "rs"] and (work / "best.wts").exists()
    assert sum((work / "cr1.rec.dec").read_bytes()) == 150
    assert not [p for p in os.listdir(work) if ".part" in p or p.endswith(".x")]
    cand = (work / "cr1.wts").read_bytes()
    assert struct.unpack_from("<I", cand, 8)[0] == 2
    assert ev.load_weights(str(work / "cr1.wts")) > 0
    ev.load_weights()
    assert "rs round 1: generating 120 race positions" in log and "rs round 1: held-out" in log
    assert sum((work / "rs1.rec.dec").read_bytes()) == 120 and (work / "rs1.wts").exists()


def _rebuild_net_module():
    sys.path.insert(0, TOOLS)
    try:
        import rebuild_net
    finally:
        sys.path.remove(TOOLS)
    return rebuild_net


def _plan_run(rebuild_net, work, **over):
    args = dict(workdir=str(work), jobs=2, seed=7, net_plan=None, cr_rounds=0, rs_rounds=0,
                cr_positions=40, rs_positions=30, ct_positions=50, sl_rounds=0, sl_top=5,
                sl_margin=0.12, net_ply=2, net_epochs=12, net_lr=1e-3, net_lr_end=1e-5,
                duel_pairs=5, gnubg_games=0, net_keep="duel", gen_parts=2)
    args.update(over)
    return rebuild_net.Run(argparse.Namespace(**args))


def _fake_sltrain(calls):
    """A stand-in for Run._sltrain: notes (net, the data prefixes' names, the start file's
    bytes) in calls and writes the candidate's own name as its bytes."""
    def sltrain(prefixes, start, out, net, *rest):
        calls.append(("train", net, [os.path.basename(p) for p in prefixes],
                      open(start, "rb").read()))
        with open(out, "wb") as fh:
            fh.write(os.path.basename(out).encode())
        return "fit"
    return sltrain


def test_rebuild_net_plan_runs_its_rounds_in_order_and_skips_a_net_whose_round_lost(
        tmp_path, monkeypatch):
    """Stage 6 with --net-plan cr,rs,cr,rs,ct: each round generates its own net's positions
    from the best net so far, seeded by that net's round number whatever the order, and trains
    on that net's rounds so far; when the crashed round 1 loses its duel, the plan's later
    crashed round is skipped and the race and contact rounds still run (the state file says
    which)."""
    rebuild_net = _rebuild_net_module()
    work = tmp_path / "plan"
    start = tmp_path / "start.wts"
    start.write_bytes(b"start")
    calls = []
    run_ = _plan_run(rebuild_net, work, net_plan="cr,rs,cr,rs,ct")

    def gen_parts(data, tool, argv_for_part, exts=("",)):
        argv = argv_for_part(0, data + ".0.part")
        calls.append(("gen", os.path.basename(data), argv[argv.index("--seed") + 1],
                      argv[argv.index("--only") + 1], "--sample" in argv,
                      open(argv[argv.index("--weights") + 1], "rb").read()))
        for ext in exts:
            open(data + ext, "wb").close()

    duels = iter([-0.01, +0.02, +0.03, +0.04])
    monkeypatch.setattr(run_, "_gen_parts", gen_parts)
    monkeypatch.setattr(run_, "_sltrain", _fake_sltrain(calls))
    monkeypatch.setattr(run_, "tool", lambda *argv: None)
    monkeypatch.setattr(run_, "duel", lambda a, b, seed: (next(duels), -1.0, 1.0))
    best = run_.net_rounds(str(start))
    assert calls == [
        ("gen", "cr1.rec", "7910", "crashed", True, b"start"),
        ("train", "crashed", ["cr1"], b"start"),
        ("gen", "rs1.rec", "7960", "race", False, b"start"),
        ("train", "race", ["rs1"], b"start"),
        ("gen", "rs2.rec", "7970", "race", False, b"rs1.wts"),
        ("train", "race", ["rs1", "rs2"], b"rs1.wts"),
        ("gen", "ct1.rec", "7860", "contact", False, b"rs2.wts"),
        ("train", "contact", ["ct1"], b"rs2.wts"),
    ]
    assert open(best, "rb").read() == b"ct1.wts"
    assert (work / "net_plan_done").read_text() == "cr!,rs,cr!,rs,ct"
    log = (work / "yardstick.log").read_text()
    assert "cr round 1: fit; duel vs best -0.010" in log
    assert "not kept, no more crashed rounds" in log
    assert "cr round 2: skipped (an earlier crashed round was not kept)" in log
    # the same command again finds the plan done and does nothing more
    calls.clear()
    assert open(_plan_run(rebuild_net, work, net_plan="cr,rs,cr,rs,ct").net_rounds(
        str(start)), "rb").read() == b"ct1.wts"
    assert calls == []


def test_rebuild_net_plan_goes_on_from_an_older_work_folder(tmp_path, monkeypatch):
    """A work folder of the per-net state files (one crashed, two race rounds done, the crashed
    stage first) reads as the plan cr,rs,rs done, its best the race stage's; a plan that does
    not begin that way, or names an unknown net, is refused with a clear message and the
    folder left as it was."""
    rebuild_net = _rebuild_net_module()
    work = tmp_path / "old"
    work.mkdir()
    (work / "cr_rounds_done").write_text("1")
    (work / "rs_rounds_done").write_text("2")
    (work / "cr_best.wts").write_bytes(b"crashed best")
    (work / "rs_best.wts").write_bytes(b"race best")
    before = sorted(os.listdir(work))
    with pytest.raises(SystemExit, match="has done cr,rs,rs, which does not begin the plan "
                                         "rs,cr"):
        _plan_run(rebuild_net, work, net_plan="rs,cr").net_rounds("unused")
    with pytest.raises(SystemExit, match="'bg' is not a round"):
        _plan_run(rebuild_net, work, net_plan="cr,bg").net_rounds("unused")
    assert sorted(os.listdir(work)) == before
    run_ = _plan_run(rebuild_net, work, cr_rounds=2, rs_rounds=2)
    assert run_.plan() == ["cr", "cr", "rs", "rs"]
    with pytest.raises(SystemExit, match="which does not begin the plan cr,cr,rs,rs"):
        run_.net_rounds("unused")
    calls = []

    def gen_parts(data, tool, argv_for_part, exts=("",)):
        argv = argv_for_part(1, data + ".1.part")
        calls.append((os.path.basename(data), argv[argv.index("--seed") + 1],
                      open(argv[argv.index("--weights") + 1], "rb").read()))
        for ext in exts:
            open(data + ext, "wb").close()

    run_ = _plan_run(rebuild_net, work, net_plan="cr,rs,rs,cr")
    monkeypatch.setattr(run_, "_gen_parts", gen_parts)
    monkeypatch.setattr(run_, "_sltrain", lambda prefixes, *rest: calls.append(
        [os.path.basename(p) for p in prefixes]) or "fit")
    monkeypatch.setattr(run_, "tool", lambda *argv: None)
    monkeypatch.setattr(run_, "duel", lambda a, b, seed: (-0.001, -1.0, 1.0))
    (work / "cr1.rec").write_bytes(b"")
    run_.net_rounds("unused")
    assert calls == [("cr2.rec", "7921", b"race best"), ["cr1", "cr2"]]
    assert (work / "net_plan_done").read_text() == "cr,rs,rs,cr!"


def test_rebuild_net_keep_always_keeps_a_round_that_lost_its_duel(tmp_path, monkeypatch):
    """--net-keep always: a stage-6 round that loses its duel still becomes the best net and
    the same net's next round runs from it (the log says why it was kept)."""
    rebuild_net = _rebuild_net_module()
    work = tmp_path / "always"
    start = tmp_path / "start.wts"
    start.write_bytes(b"start")
    calls = []
    run_ = _plan_run(rebuild_net, work, net_plan="cr,cr", net_keep="always")
    monkeypatch.setattr(run_, "_gen_parts", lambda data, *rest, exts=("",): [
        open(data + ext, "wb").close() for ext in exts])
    monkeypatch.setattr(run_, "_sltrain", _fake_sltrain(calls))
    monkeypatch.setattr(run_, "tool", lambda *argv: None)
    monkeypatch.setattr(run_, "duel", lambda a, b, seed: (-0.002, -0.01, +0.006))
    assert open(run_.net_rounds(str(start)), "rb").read() == b"cr2.wts"
    assert [start for *_, start in calls] == [b"start", b"cr1.wts"]
    assert (work / "net_plan_done").read_text() == "cr,cr"
    log = (work / "yardstick.log").read_text()
    assert log.count("kept (--net-keep always)") == 2
    # --gnubg-games 0: no yardstick asked for, so no "cr round 1: " line with nothing after it
    assert not [line for line in log.splitlines() if line.rstrip().endswith(":")]


def test_rebuild_yardstick_without_gnubg_nn_says_so_in_the_log_line(tmp_path, monkeypatch):
    """A rebuild run by a python without gnubg-nn writes why its round has no gnubg0 figure,
    not an empty line; --gnubg-games 0 asks for none and gets none."""
    rebuild_net = _rebuild_net_module()
    monkeypatch.setitem(sys.modules, "gnubg_nn", None)   # import gnubg_nn raises ImportError
    note = _plan_run(rebuild_net, tmp_path, gnubg_games=20).gnubg_yardstick("any.wts")
    assert note.startswith("no gnubg0 yardstick:") and "pip install gnubg-nn" in note
    assert _plan_run(rebuild_net, tmp_path, gnubg_games=0).gnubg_yardstick("any.wts") == ""
