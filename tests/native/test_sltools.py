"""The supervised-training tools (native/tools: sldata, sltrain.py) do what their help says on
tiny runs: gen writes the best plays' results with our own search's values as targets, encode
turns records into the engine's inputs with the right output masks and class tags, sltrain
reads and writes the weights file (with or without a crashed net) byte for byte, learns
reproducibly, each net from the positions it judges, widens and grows a net so that it plays
as before, and refuses bad data with a clear message, writing nothing."""
import os
import pathlib
import struct
import subprocess
import sys

import numpy as np
import pytest

import conftest
from conftest import build_tools, crashed_position, in_contact, outside_module
from game.model import evaluator as ev
from native import ffi, lib

TOOLS = str(conftest.TOOLS)
sys.path.insert(0, TOOLS)
import sltrain  # noqa: E402

REC = 70   # board (50 bytes) + five float32 targets


@pytest.fixture(scope="module")
def sldata(tmp_path_factory):
    return build_tools(tmp_path_factory.mktemp("sltools")) / "sldata"


def run(tool, *args):
    return subprocess.run([str(tool), *map(str, args)], capture_output=True, text=True,
                          check=True)


def records(path):
    data = path.read_bytes()
    assert len(data) % REC == 0
    return [(struct.unpack_from("<50b", data, at), struct.unpack_from("<5f", data, at + 50))
            for at in range(0, len(data), REC)]


@pytest.fixture(scope="module")
def gen_data(sldata, tmp_path_factory):
    path = tmp_path_factory.mktemp("gen") / "d.rec"
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 60, "--seed", 4, "--ply", 1,
        "--top", 3, "--out", path)
    return path


def test_gen_targets_are_our_own_one_ply_values_with_impossible_chances_zero(gen_data):
    ev.load_weights()
    board, probs = ffi.new("int8_t[]", 50), ffi.new("float[]", 5)
    recs = records(gen_data)
    assert len(recs) == 60
    for b, target in recs:
        board[0:50] = b
        assert lib.bg_validate(board) == 0 and lib.bg_game_result(board) == 0
        assert lib.bg_evaluate(board, 1, ffi.NULL, probs) == 0
        me, opp = b[:25], b[25:]
        want = list(probs)
        if sum(me) < 15:
            want[3] = want[4] = 0.0     # the side on roll has borne off: it loses no gammon
        if sum(opp) < 15:
            want[1] = want[2] = 0.0
        # gammons and backgammons set to zero where impossible; the rest as the 1-ply search said
        for k in (0, 1, 3):
            assert target[k] == pytest.approx(want[k], abs=2e-5)


def test_gen_is_reproducible_and_writes_several_plays_of_a_decision(sldata, gen_data, tmp_path):
    decisions = {}
    for top in (3, 1):
        out = run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 60, "--seed", 4,
                  "--ply", 1, "--top", top, "--out", tmp_path / f"top{top}.rec").stdout
        decisions[top] = int(out.split(" from ")[1].split()[0])
    assert (tmp_path / "top3.rec").read_bytes() == gen_data.read_bytes()
    # one play a decision: a record each (a result in the bear-off database is not written)
    assert decisions[1] >= 60
    assert decisions[3] < decisions[1]


def test_encode_writes_inputs_targets_masks_and_classes(sldata, gen_data, tmp_path):
    out = run(sldata, "encode", "--out", tmp_path / "e", gen_data).stdout
    n_in = sltrain.data_inputs(str(tmp_path / "e"))
    assert f"{n_in} inputs" in out
    assert n_in == sltrain.read_weights(ev.WEIGHTS_PATH)[0]["contact"].n_in
    recs = records(gen_data)
    y = np.fromfile(tmp_path / "e.y", dtype=np.float32).reshape(-1, 5)
    m = np.fromfile(tmp_path / "e.m", dtype=np.uint8).reshape(-1, 5)
    c = np.fromfile(tmp_path / "e.c", dtype=np.uint8)
    assert len(y) == len(recs) == len(c)
    for (b, target), yy, mm, cc in zip(recs, y, m, c, strict=True):
        assert list(yy) == pytest.approx(list(target))
        assert mm[0] == 1                                  # winning is always possible
        assert mm[3] == (sum(b[:25]) == 15)                # losing a gammon needs 15 men on
        assert mm[1] == (sum(b[25:]) == 15)
        assert cc in (2, 3, 4)                             # race, contact or crashed
        assert (cc in (3, 4)) == in_contact(b)
        assert (cc == 4) == crashed_position(b)


def test_encode_and_eval_refuse_a_record_that_is_no_position_and_encode_writes_nothing(
        sldata, gen_data, tmp_path):
    good = gen_data.read_bytes()[:3 * REC]
    targets = struct.pack("<5f", 0.5, 0, 0, 0, 0)
    bad_boards = {
        "many": bytes([16] + [0] * 49),                       # 16 men on one point
        "negative": bytes([1, 0xFF] + [0] * 48),              # -1 men
        "shared": bytes([2] + [0] * 47 + [2, 0]),             # both sides on one point
    }
    for name, board in bad_boards.items():
        data = tmp_path / f"{name}.rec"
        data.write_bytes(good + board + targets + good)
        proc = subprocess.run([str(sldata), "encode", "--out", str(tmp_path / name), str(data)],
                              capture_output=True, text=True)
        assert proc.returncode == 1, name
        assert "record 4 is no position" in proc.stderr, name
        assert not list(tmp_path.glob(f"{name}.[xymcg]")), name
        proc = subprocess.run([str(sldata), "eval", "--weights", ev.WEIGHTS_PATH, str(data)],
                              capture_output=True, text=True)
        assert proc.returncode == 1 and "record 4 is no position" in proc.stderr, name
    # a partial record at the end is refused the same way, nothing written
    (tmp_path / "cut.rec").write_bytes(good + good[:REC - 3])
    proc = subprocess.run([str(sldata), "encode", "--out", str(tmp_path / "cut"),
                           str(tmp_path / "cut.rec")], capture_output=True, text=True)
    assert proc.returncode == 1 and "partial record" in proc.stderr
    assert not list(tmp_path.glob("cut.[xymcg]"))


def test_weights_file_round_trips_byte_for_byte(tmp_path):
    nets, games = sltrain.read_weights(ev.WEIGHTS_PATH)
    sltrain.write_weights(str(tmp_path / "w.wts"), nets, games)
    assert (tmp_path / "w.wts").read_bytes() == open(ev.WEIGHTS_PATH, "rb").read()
    # with and without a crashed net (versions 2 and 1), each read back as written
    grown = nets["contact"].grown(nets["contact"].n_hid + 3, np.random.default_rng(1))
    for crashed in (None, grown):
        sltrain.write_weights(str(tmp_path / "v.wts"), dict(nets, crashed=crashed), games)
        back, back_games = sltrain.read_weights(str(tmp_path / "v.wts"))
        assert back_games == games
        version = struct.unpack_from("<I", (tmp_path / "v.wts").read_bytes(), 8)[0]
        assert version == (2 if crashed else 1)
        for name in ("contact", "race", "crashed"):
            want = dict(nets, crashed=crashed)[name]
            assert (back[name] is None) == (want is None)
            if want is not None:
                assert np.array_equal(back[name].floats(), want.floats())
        assert ev.load_weights(str(tmp_path / "v.wts")) == games
    ev.load_weights()


def test_a_damaged_weights_file_is_refused(tmp_path):
    bad = bytearray(open(ev.WEIGHTS_PATH, "rb").read())
    bad[200] ^= 0x10
    (tmp_path / "bad.wts").write_bytes(bytes(bad))
    with pytest.raises(SystemExit, match="checksum"):
        sltrain.read_weights(str(tmp_path / "bad.wts"))


def pushed_start(sldata, tmp_path, positions: int, seed: int) -> dict:
    """Our 1-ply targets for `positions` contact positions (encoded as tmp_path/e) and
    tmp_path/start.wts: the shipped file with its contact net's output biases pushed off, so
    that there is something to learn whatever data the shipped net was itself trained on.
    Returns the start's nets."""
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", positions, "--seed", seed,
        "--ply", 1, "--only", "contact", "--out", tmp_path / "d.rec")
    run(sldata, "encode", "--out", tmp_path / "e", tmp_path / "d.rec")
    nets, games = sltrain.read_weights(ev.WEIGHTS_PATH)
    nets["contact"].b_out += 0.5
    sltrain.write_weights(str(tmp_path / "start.wts"), nets, games)
    return nets


def train_contact(tmp_path, name: str, lr: str, seed: str, *more: str) -> tuple[float, float]:
    """sltrain.py on tmp_path/e from start.wts into tmp_path/name, six small epochs: the
    held-out equity error at epoch 0 and the best one it reports."""
    out = subprocess.run(
        [sys.executable, os.path.join(TOOLS, "sltrain.py"), str(tmp_path / "e"), "--weights",
         str(tmp_path / "start.wts"), "--out", str(tmp_path / name), "--net", "contact",
         "--epochs", "6", "--batch", "32", "--lr", lr, "--holdout", "0.25", "--seed", seed,
         *more], capture_output=True, text=True, check=True).stdout
    first = float(out.split("epoch 0: held-out equity error ")[1].split()[0].rstrip(","))
    best = float(out.split("best held-out equity error ")[1].split()[0])
    return first, best


def test_training_lowers_the_error_on_its_data_and_is_reproducible(sldata, tmp_path):
    pushed_start(sldata, tmp_path, 400, 6)
    files = []
    for name in ("a.wts", "b.wts"):
        first, best = train_contact(tmp_path, name, "1e-3", "2")
        files.append((tmp_path / name).read_bytes())
    assert files[0] == files[1]
    assert best < first
    before, _ = sltrain.read_weights(ev.WEIGHTS_PATH)
    after, _ = sltrain.read_weights(str(tmp_path / "a.wts"))
    assert np.array_equal(before["race"].floats(), after["race"].floats())   # the others untouched
    assert (before["crashed"] is None) == (after["crashed"] is None)
    if before["crashed"] is not None:
        assert np.array_equal(before["crashed"].floats(), after["crashed"].floats())
    assert ev.load_weights(str(tmp_path / "a.wts")) > 0
    ev.load_weights()


def test_outputs_only_training_lowers_the_error_and_leaves_the_hidden_layer_as_it_was(
        sldata, tmp_path):
    start = pushed_start(sldata, tmp_path, 300, 7)["contact"]   # chances off, features as they were
    first, best = train_contact(tmp_path, "o.wts", "3e-3", "3", "--outputs-only")
    assert best < first
    after = sltrain.read_weights(str(tmp_path / "o.wts"))[0]["contact"]
    assert np.array_equal(start.w_in, after.w_in) and np.array_equal(start.b_hid, after.b_hid)
    assert not np.array_equal(start.b_out, after.b_out)


def test_widened_and_grown_nets_give_the_same_outputs(tmp_path):
    contact = sltrain.read_weights(ev.WEIGHTS_PATH)[0]["contact"]
    rng = np.random.default_rng(1)
    x = (rng.random((50, contact.n_in)) < 0.2).astype(np.float32)
    _, before = sltrain.forward(contact, x)
    per = contact.n_in // 2
    wide = contact.widened(contact.n_in + 8)
    xw = np.zeros((50, contact.n_in + 8), np.float32)
    xw[:, :per], xw[:, per + 4:2 * per + 4] = x[:, :per], x[:, per:]
    xw[:, per:per + 4] = xw[:, -4:] = 1.0                 # the new inputs say nothing yet
    _, after = sltrain.forward(wide.grown(contact.n_hid + 16, rng), xw)
    assert np.allclose(before, after, atol=1e-6)


def test_data_encoded_for_another_width_is_refused(sldata, gen_data, tmp_path):
    run(sldata, "encode", "--out", tmp_path / "e", gen_data)
    n_in = sltrain.data_inputs(str(tmp_path / "e"))
    with pytest.raises(SystemExit, match="encoded for another encoding"):
        sltrain.load_data([str(tmp_path / "e")], n_in + 2, (3,))
    (tmp_path / "e.x").write_bytes((tmp_path / "e.x").read_bytes()[:-4])
    with pytest.raises(SystemExit, match="do not divide"):
        sltrain.data_inputs(str(tmp_path / "e"))


def test_gen_refuses_bad_options_and_writes_nothing(sldata, tmp_path):
    for args in (["--ply", "3"], ["--top", "0"], ["--sample", "0"], ["--only", "bearoff"],
                 ["--only", "crash"], ["--only", "defenders"], ["--noise", "-0.1"],
                 ["--noise", "nan"], ["--noise", "3"]):
        proc = subprocess.run([str(sldata), "gen", "--weights", ev.WEIGHTS_PATH, "--out",
                               str(tmp_path / "x.rec"), *args], capture_output=True, text=True)
        assert proc.returncode == 2, args
        assert not (tmp_path / "x.rec").exists()


def test_noise_makes_club_players_games_and_none_leaves_the_clean_games_as_they_were(sldata,
                                                                                  gen_data,
                                                                                  tmp_path):
    # --noise 0 is the clean self-play bit for bit (its random stream is untouched)
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 60, "--seed", 4, "--ply", 1,
        "--top", 3, "--noise", 0, "--out", tmp_path / "clean.rec")
    assert (tmp_path / "clean.rec").read_bytes() == gen_data.read_bytes()
    # with noise the games go elsewhere, and each record is still a position in play
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 300, "--seed", 4, "--ply", 1,
        "--top", 1, "--explore", 0, "--noise", 0.5, "--out", tmp_path / "noisy.rec")
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 300, "--seed", 4, "--ply", 1,
        "--top", 1, "--explore", 0, "--out", tmp_path / "plain.rec")
    noisy, plain = records(tmp_path / "noisy.rec"), records(tmp_path / "plain.rec")
    board = ffi.new("int8_t[]", 50)
    for b, _ in noisy:
        board[0:50] = b
        assert lib.bg_validate(board) == 0 and lib.bg_game_result(board) == 0
    # --top 1: each record is the best 0-ply play's result, the opponent on roll; a clean
    # player's next position was its opponent's best play, a noisy player's often not, so
    # the noisy games' records are mostly positions the clean games never reach
    assert len({b for b, _ in noisy} - {b for b, _ in plain}) > len(noisy) // 2
    # noise is self-play's: decisions from a file are not played, so it is refused there
    decisions_file(tmp_path / "d.dec", 5, 1)
    proc = subprocess.run([str(sldata), "gen", "--weights", ev.WEIGHTS_PATH, "--from",
                           str(tmp_path / "d.dec"), "--noise", "0.1", "--out",
                           str(tmp_path / "x.rec")], capture_output=True, text=True)
    assert proc.returncode == 2 and not (tmp_path / "x.rec").exists()


def decisions_file(path, count, seed):
    """Decisions in sldata's --from layout (board, die1, die2), met on a seeded random walk of
    legal plays from the starting position."""
    import random
    rng = random.Random(seed)
    board, out = ffi.new("int8_t[]", 50), ffi.new("int8_t[]", 50 * lib.BG_MAX_PLAYS)
    swapped = ffi.new("int8_t[]", 50)
    steps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS * lib.BG_MAX_STEPS * lib.BG_STEP_FIELDS)
    nsteps = ffi.new("int8_t[]", lib.BG_MAX_PLAYS)
    lib.bg_start(board)
    chunks = []
    while len(chunks) < count:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        chunks.append(bytes(ffi.buffer(board)) + bytes((d1, d2)))
        n = lib.bg_legal_plays(board, d1, d2, out, steps, nsteps, lib.BG_MAX_PLAYS)
        k = rng.randrange(n)
        lib.bg_swap(out + 50 * k, swapped)
        board[0:50] = swapped[0:50]
        if lib.bg_game_result(board) != 0:
            lib.bg_start(board)
    path.write_bytes(b"".join(chunks))
    return chunks


def test_gen_from_a_file_writes_each_decisions_best_plays_as_level3_ranks_them(sldata, tmp_path):
    chunks = decisions_file(tmp_path / "d.dec", 12, seed=9)
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 1000, "--from",
        tmp_path / "d.dec", "--ply", 1, "--top", 3, "--margin", 0.12, "--out", tmp_path / "f.rec")
    recs = records(tmp_path / "f.rec")
    counts = list((tmp_path / "f.rec.dec").read_bytes())
    assert sum(counts) == len(recs) > 12
    ev.load_weights()
    board, swapped = ffi.new("int8_t[]", 50), ffi.new("int8_t[]", 50)
    plays = ffi.new("bg_play[]", lib.BG_MAX_PLAYS)
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": lib.BG_MAX_PLAYS})
    want = []   # per decision: the swapped results of level 3's best plays (none in bear-off)
    for c in chunks:
        board[0:50] = list(struct.unpack("<50b", c[:50]))
        n = lib.bg_rank_plays(board, c[50], c[51], 3, ffi.NULL, ffi.NULL, ranking)
        got = []
        for k in range(min(n, 3)):
            if k and plays[0].equity - plays[k].equity > 0.12:
                break
            lib.bg_swap(plays[k].board, swapped)
            top0 = max([i for i in range(25) if swapped[i]] or [-1])
            top1 = max([i for i in range(25) if swapped[25 + i]] or [-1])
            if top0 > 23 - top1 or top0 > 5 or top1 > 5:   # contact or race: written
                got.append(tuple(swapped[0:50]))
        if got:
            want.append(got)
    assert counts == [len(g) for g in want]
    assert [b for b, _ in recs] == [b for g in want for b in g]


def test_gen_from_a_damaged_file_says_which_decision_and_writes_nothing(sldata, tmp_path):
    chunks = decisions_file(tmp_path / "d.dec", 4, seed=2)
    cases = {
        "cut.dec": b"".join(chunks)[:-7],                                  # a partial decision
        "board.dec": chunks[0] + bytes([16] + [0] * 49) + b"\x03\x04",     # 16 men on one point
        "dice.dec": chunks[0] + chunks[1][:50] + b"\x07\x01",              # a die of 7
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        proc = subprocess.run([str(sldata), "gen", "--weights", ev.WEIGHTS_PATH, "--positions",
                               "500", "--from", str(tmp_path / name), "--ply", "1", "--out",
                               str(tmp_path / "x.rec")], capture_output=True, text=True)
        assert proc.returncode == 1, name
        assert ("partial decision" if name == "cut.dec" else "decision 2 of") in proc.stderr
        assert not (tmp_path / "x.rec").exists() and not (tmp_path / "x.rec.dec").exists()
    proc = subprocess.run([str(sldata), "gen", "--weights", ev.WEIGHTS_PATH, "--from",
                           str(tmp_path / "none.dec"), "--out", str(tmp_path / "x.rec")],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "cannot read" in proc.stderr
    assert not (tmp_path / "x.rec").exists()


def test_foreign_positions_writes_both_sides_decisions_reproducibly(tmp_path):
    outside_module("gnubg_nn")
    import foreign_positions
    for name in ("a.dec", "b.dec"):
        assert foreign_positions.main(["--games", "4", "--share", "1", "--seed", "5", "--out",
                                       str(tmp_path / name)]) == 0
    data = (tmp_path / "a.dec").read_bytes()
    assert data == (tmp_path / "b.dec").read_bytes() and len(data) % 52 == 0
    board = ffi.new("int8_t[]", 50)
    first_moves = 0
    for k in range(len(data) // 52):
        d = data[52 * k:52 * k + 52]
        board[0:50] = list(struct.unpack("<50b", d[:50]))
        assert lib.bg_validate(board) == 0 and lib.bg_game_result(board) == 0
        assert 1 <= d[50] <= 6 and 1 <= d[51] <= 6
        lib.bg_start(board)
        first_moves += d[:50] == bytes(ffi.buffer(board))
    assert first_moves == 4   # every decision of four games, the first of each among them


def test_few_positions_writes_seeded_decisions_of_the_few_men_class_from_both_sides(tmp_path):
    """few_positions.py: a side with 1-3 men in play, at least one of them back (bar, or the
    opponent's outfield or home), against 12-15 men, the two in contact; each a legal position
    still in play with two dice; the few-men side on roll in some and not in others; the same
    seed writes the same file, another seed another."""
    import few_positions
    for name, seed in (("a.dec", 5), ("b.dec", 5), ("c.dec", 6)):
        assert few_positions.main(["--count", "300", "--seed", str(seed), "--out",
                                   str(tmp_path / name)]) == 0
    data = (tmp_path / "a.dec").read_bytes()
    assert data == (tmp_path / "b.dec").read_bytes() != (tmp_path / "c.dec").read_bytes()
    assert len(data) == 300 * 52
    board = ffi.new("int8_t[]", 50)
    few_on_roll = 0
    for k in range(300):
        d = data[52 * k:52 * k + 52]
        b = struct.unpack("<50b", d[:50])
        board[0:50] = list(b)
        assert lib.bg_validate(board) == 0 and lib.bg_game_result(board) == 0
        assert 1 <= d[50] <= 6 and 1 <= d[51] <= 6 and in_contact(b)
        rows = (b[:25], b[25:])
        few = min(rows, key=sum)
        assert 1 <= sum(few) <= 3 and 12 <= sum(max(rows, key=sum)) <= 15
        assert any(few[12:25])        # a man still back: on the bar or on its 13- to 24-point
        few_on_roll += sum(b[:25]) <= 3
    assert 100 < few_on_roll < 200


def test_cut_decisions_keeps_whole_decisions_of_a_run_and_a_share_and_refuses_a_bad_cut(
        sldata, gen_data, tmp_path):
    """cut_decisions.py: --records A:B keeps a run's records when A and B fall between
    decisions, --share F:T then the decisions numbered [F*n, T*n) of those n, each whole, the
    .dec beside; a cut inside a decision, or a .dec that does not count the file, is refused
    and nothing is written."""
    import cut_decisions
    src = pathlib.Path(gen_data)
    data, dec = src.read_bytes(), (src.parent / (src.name + ".dec")).read_bytes()
    assert len(dec) >= 8 and max(dec) >= 2           # several decisions, some of 2+ plays
    split = sum(dec[:3])                              # the first three decisions' records
    out = tmp_path / "cut"
    assert cut_decisions.main([str(src), str(out), "--records", f"{split}:{len(data) // 70}",
                               "--share", "0:0.5"]) == 0
    rest = dec[3:]
    kept = rest[:int(0.5 * len(rest))]
    assert out.with_suffix(".dec").read_bytes() == kept
    assert out.read_bytes() == data[70 * split:70 * (split + sum(kept))]
    inside = next(i for i, k in enumerate(dec) if k >= 2)
    for args in (["--records", f"{sum(dec[:inside]) + 1}:{len(data) // 70}"],
                 ["--share", "0.5:0.2"]):
        with pytest.raises(SystemExit):
            cut_decisions.main([str(src), str(tmp_path / "bad"), *args])
        assert not (tmp_path / "bad").exists()
    (tmp_path / "short").write_bytes(data)
    (tmp_path / "short.dec").write_bytes(dec[:-1])
    with pytest.raises(SystemExit, match="counts"):
        cut_decisions.main([str(tmp_path / "short"), str(tmp_path / "bad")])


def rollout_records(sldata, tmp_path, name, *args, positions=40):
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", positions, "--seed", 12,
        "--only", "contact", "--out", tmp_path / name, *args)
    return records(tmp_path / name)


def test_one_ply_rollouts_with_the_luck_taken_out_are_exactly_the_one_ply_value(sldata, tmp_path):
    # one ply: the estimate is the result less its roll's luck, i.e. the mean over the rolls
    one_ply = rollout_records(sldata, tmp_path, "p1.rec", "--ply", 1)
    rolled = rollout_records(sldata, tmp_path, "r1.rec", "--rollout", 5, "--horizon", 1)
    assert [b for b, _ in rolled] == [b for b, _ in one_ply]
    for (_, want), (_, got) in zip(one_ply, rolled, strict=True):
        assert list(got) == pytest.approx(list(want), abs=3e-6)


def test_two_ply_rollouts_average_the_one_ply_values_after_each_first_rolls_best_play(sldata,
                                                                                     tmp_path):
    """36 trials of two plies: the first roll goes through all 36; the second roll's luck is
    taken out, so each trial gives the first roll's luck-free 1-ply value one ply on, in the
    start's view, and the first roll's luck cancels in the mean."""
    rolled = rollout_records(sldata, tmp_path, "r2.rec", "--rollout", 36, "--horizon", 2)
    ev.load_weights()
    board, plays = ffi.new("int8_t[]", 50), ffi.new("bg_play[]", lib.BG_MAX_PLAYS)
    ranking = ffi.new("bg_ranking *", {"plays": plays, "max_plays": lib.BG_MAX_PLAYS})
    swapped, probs = ffi.new("int8_t[]", 50), ffi.new("float[]", 5)
    for b, got in rolled[:6]:
        board[0:50] = b
        want = [0.0] * 5
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                assert lib.bg_rank_plays(board, d1, d2, 3, ffi.NULL, ffi.NULL, ranking) >= 1
                lib.bg_swap(plays[0].board, swapped)
                if lib.bg_game_result(swapped):
                    assert lib.bg_evaluate(swapped, 0, ffi.NULL, probs) == 0
                else:
                    assert lib.bg_evaluate(swapped, 1, ffi.NULL, probs) == 0
                p = list(probs)   # the opponent's view: back to the start's side on roll
                mine = [1 - p[0], p[3], p[4], p[1], p[2]]
                want = [w + m / 36 for w, m in zip(want, mine, strict=True)]
        assert list(got) == pytest.approx(want, abs=2e-5)


def test_rollout_targets_are_reproducible_and_bad_rollout_options_refused(sldata, tmp_path):
    a = rollout_records(sldata, tmp_path, "a.rec", "--rollout", 3, "--horizon", 6, positions=20)
    b = rollout_records(sldata, tmp_path, "b.rec", "--rollout", 3, "--horizon", 6, positions=20)
    assert a == b
    for args in (["--rollout", "-1"], ["--horizon", "0"]):
        proc = subprocess.run([str(sldata), "gen", "--weights", ev.WEIGHTS_PATH, "--out",
                               str(tmp_path / "x.rec"), *args], capture_output=True, text=True)
        assert proc.returncode == 2, args
        assert not (tmp_path / "x.rec").exists()


def test_gen_only_crashed_writes_contact_positions_where_a_side_is_crashed(sldata, tmp_path):
    path = tmp_path / "c.rec"
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 80, "--seed", 5, "--ply", 1,
        "--sample", 1, "--only", "crashed", "--out", path)
    got = records(path)
    assert len(got) == 80
    for b, _ in got:
        assert crashed_position(b)
    # the same run with every contact position keeps far fewer crashed ones
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 80, "--seed", 5, "--ply", 1,
        "--sample", 1, "--only", "contact", "--out", tmp_path / "all.rec")
    every = records(tmp_path / "all.rec")
    assert all(in_contact(b) for b, _ in every)
    assert sum(crashed_position(b) for b, _ in every) < len(every) // 2


def _sltrain(*args):
    return subprocess.run([sys.executable, os.path.join(TOOLS, "sltrain.py"), *map(str, args)],
                          capture_output=True, text=True)


def test_the_crashed_net_learns_from_crashed_positions_alone_and_the_others_stay(sldata, tmp_path):
    """--net crashed on a file without a crashed net starts one as a copy of the contact net,
    trains it on the crashed-tagged records only and writes a version-2 file whose contact and
    race nets are the start's, bit for bit; the game loads it. Contact training of that file
    then leaves the crashed records to the crashed net."""
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 300, "--seed", 8, "--ply", 1,
        "--sample", 1, "--only", "crashed", "--out", tmp_path / "c.rec")
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 300, "--seed", 8, "--ply", 1,
        "--only", "contact", "--out", tmp_path / "o.rec")
    for name in ("c", "o"):
        run(sldata, "encode", "--out", tmp_path / name, tmp_path / f"{name}.rec")
    nets, games = sltrain.read_weights(ev.WEIGHTS_PATH)
    nets["contact"].b_out += 0.5   # something to learn
    start = dict(nets, crashed=None)
    sltrain.write_weights(str(tmp_path / "start.wts"), start, games)
    proc = _sltrain(tmp_path / "c", tmp_path / "o", "--weights", tmp_path / "start.wts", "--out",
                    tmp_path / "k.wts", "--net", "crashed", "--epochs", 4, "--batch", 32,
                    "--holdout", 0.25, "--seed", 3)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    n_crashed = int(np.count_nonzero(np.fromfile(tmp_path / "c.c", np.uint8) == 4)
                    + np.count_nonzero(np.fromfile(tmp_path / "o.c", np.uint8) == 4))
    fit, held = proc.stdout.split(" training, ")[0], proc.stdout.split(", ")[1].split()[0]
    assert int(fit) + int(held) == n_crashed >= 300
    first = float(proc.stdout.split("epoch 0: held-out equity error ")[1].split(",")[0])
    best = float(proc.stdout.split("best held-out equity error ")[1].split()[0])
    assert best < first
    out, _ = sltrain.read_weights(str(tmp_path / "k.wts"))
    assert struct.unpack_from("<I", (tmp_path / "k.wts").read_bytes(), 8)[0] == 2
    for name in ("contact", "race"):
        assert np.array_equal(out[name].floats(), start[name].floats())
    assert not np.array_equal(out["crashed"].floats(), start["contact"].floats())
    assert ev.load_weights(str(tmp_path / "k.wts")) == games
    ev.load_weights()
    # contact training of a file with a crashed net: the crashed records are not its
    proc = _sltrain(tmp_path / "c", "--weights", tmp_path / "k.wts", "--out", tmp_path / "x.wts",
                    "--net", "contact", "--epochs", 1)
    assert proc.returncode != 0 and "only 0 contact positions" in proc.stdout + proc.stderr
    assert not (tmp_path / "x.wts").exists()


def test_crashed_training_on_data_without_crashed_positions_is_refused(sldata, tmp_path):
    run(sldata, "gen", "--weights", ev.WEIGHTS_PATH, "--positions", 200, "--seed", 4, "--ply", 1,
        "--only", "race", "--out", tmp_path / "r.rec")
    run(sldata, "encode", "--out", tmp_path / "r", tmp_path / "r.rec")
    proc = _sltrain(tmp_path / "r", "--weights", ev.WEIGHTS_PATH, "--out", tmp_path / "k.wts",
                    "--net", "crashed")
    assert proc.returncode != 0 and "only 0 crashed positions" in proc.stdout + proc.stderr
    assert not (tmp_path / "k.wts").exists()


def test_gen_only_hard_keeps_the_hard_position_benchs_four_classes_as_it_tests_them(sldata,
                                                                                   tmp_path):
    """--only hard: contact positions that pass one of bench/hard_positions.py's class tests
    (a prime, a back game, a closed board, a contact bear-off) for either side. The same
    self-play with every contact position kept holds the same games: filtered by Python's
    tests, its records are the hard run's, one for one (C and Python one definition)."""
    from game.model.position import Position
    hard = conftest.bench_module("hard_positions")

    def classes(b):
        return {k for k in hard.CLASS_TESTS if hard.in_class(k, Position(list(b)))}
    gen = ("gen", "--weights", ev.WEIGHTS_PATH, "--positions", 1000, "--seed", 6, "--ply", 1,
           "--sample", 1, "--noise", 0.12)
    run(sldata, *gen, "--only", "hard", "--out", tmp_path / "h.rec")
    got = [b for b, _ in records(tmp_path / "h.rec")]
    assert len(got) == 1000 and all(in_contact(b) and classes(b) for b in got)
    assert set().union(*(classes(b) for b in got)) == set(hard.CLASS_TESTS)
    run(sldata, *gen, "--only", "contact", "--out", tmp_path / "c.rec")
    every = [b for b, _ in records(tmp_path / "c.rec")]
    kept = [b for b in every if classes(b)]
    assert 50 < len(kept) < len(every) and kept == got[:len(kept)]


def test_gen_only_defender_keeps_positions_left_by_the_side_the_classes_boards_do_not_name(
        sldata, tmp_path):
    """--only defender: contact positions after a play of the side a hard class's boards do
    not name (primed, playing the back game, on the bar, holding against a bear-off): the
    same self-play's contact records filtered by bench/hard_positions.py's defends() are the
    defender run's, one for one, and each class is met."""
    from game.model.position import Position
    hard = conftest.bench_module("hard_positions")
    gen = ("gen", "--weights", ev.WEIGHTS_PATH, "--positions", 600, "--seed", 6, "--ply", 1,
           "--sample", 1, "--noise", 0.12)
    run(sldata, *gen, "--only", "defender", "--out", tmp_path / "d.rec")
    got = [b for b, _ in records(tmp_path / "d.rec")]
    assert len(got) == 600 and all(in_contact(b) and hard.defends(Position(list(b)))
                                   for b in got)
    assert set().union(*(hard.defends(Position(list(b))) for b in got)) == set(hard.CLASS_TESTS)
    run(sldata, *gen, "--only", "contact", "--out", tmp_path / "c.rec")
    every = [b for b, _ in records(tmp_path / "c.rec")]
    kept = [b for b in every if hard.defends(Position(list(b)))]
    assert 10 < len(kept) < len(every) and kept == got[:len(kept)]   # 26 of 600 (net41)


def test_gen_only_favourite_keeps_contact_positions_whose_side_on_roll_wins_55_to_92_percent(
        sldata, tmp_path):
    """--only favourite: the contact positions where a cube is turned, the side on roll winning
    55-92% by the net at 0-ply; the same self-play's contact records filtered by that test in
    Python are the favourite run's, one for one."""
    ev.load_weights()
    probs = ffi.new("float[]", 5)

    def win(b):
        assert lib.bg_evaluate(ffi.new("int8_t[]", list(b)), 0, ffi.NULL, probs) == 0
        return probs[0]
    gen = ("gen", "--weights", ev.WEIGHTS_PATH, "--positions", 300, "--seed", 7, "--ply", 1,
           "--sample", 1, "--noise", 0.12)
    run(sldata, *gen, "--only", "favourite", "--out", tmp_path / "f.rec")
    got = [b for b, _ in records(tmp_path / "f.rec")]
    assert len(got) == 300 and all(in_contact(b) and 0.55 <= win(b) <= 0.92 for b in got)
    run(sldata, *gen, "--only", "contact", "--out", tmp_path / "c.rec")
    every = [b for b, _ in records(tmp_path / "c.rec")]
    kept = [b for b in every if 0.55 <= win(b) <= 0.92]
    assert 20 < len(kept) < len(every) and kept == got[:len(kept)]


def test_gen_only_few_keeps_contact_positions_where_a_side_has_3_men_or_fewer_in_play(
        sldata, tmp_path):
    """--only few: contact positions where a side has at most 3 men in play (the rest off);
    the same self-play's crashed records (a side at most 6) filtered by that count in Python
    are the few run's, one for one."""
    def few(b):
        return min(sum(b[:25]), sum(b[25:])) <= 3
    gen = ("gen", "--weights", ev.WEIGHTS_PATH, "--seed", 8, "--ply", 1, "--sample", 1,
           "--noise", 0.12)
    run(sldata, *gen, "--positions", 10, "--only", "few", "--out", tmp_path / "f.rec")
    got = [b for b, _ in records(tmp_path / "f.rec")]
    assert len(got) == 10 and all(in_contact(b) and few(b) for b in got)
    run(sldata, *gen, "--positions", 1500, "--only", "crashed", "--out", tmp_path / "c.rec")
    every = [b for b, _ in records(tmp_path / "c.rec")]
    kept = [b for b in every if few(b)]
    assert 10 <= len(kept) < len(every) and kept[:10] == got    # 21 of 1,500 (net48)


def deep_contact(board) -> bool:
    """Each side has three or more men in the other's home board (or on the bar): no two
    plies can end contact, since a ply moves at most four men."""
    return sum(board[18:25]) >= 3 and sum(board[25 + 18:50]) >= 3


def test_a_rollout_cut_where_contact_ends_is_the_same_game_until_then_and_near_the_played_out(
        sldata, tmp_path):
    """--until race: each trial also ends at its first position where the sides can no longer
    meet, valued there by the race net (or the bear-off table). Two plies from deep contact
    never get there, so the targets are the uncut ones to the bit; played to the end, the
    cut ones stay near the played-out ones (the race net judges races well) and differ from
    them (the cut happened)."""
    common = ("--only", "contact", "--noise", 0.12)
    # two-ply rollouts are cheap: enough positions that some are deep (29 of 1,000 with net48,
    # none of the first 400; net44 had 7 of 400); two trials each, as the fact is an identity
    short = rollout_records(sldata, tmp_path, "s.rec", "--rollout", 2, *common, "--horizon", 2,
                            positions=1000)
    short_cut = rollout_records(sldata, tmp_path, "sc.rec", "--rollout", 2, *common,
                                "--horizon", 2, "--until", "race", positions=1000)
    deep = [k for k, (b, _) in enumerate(short) if deep_contact(b)]
    assert len(deep) >= 5
    for k in deep:
        assert short_cut[k] == short[k]
    # played out: the first 20 positions of the 40 this once had (their figures were 0.034
    # and 0.004 with net41; the first 20's are 0.009 and 0.002 now), 6 trials each
    full = rollout_records(sldata, tmp_path, "f.rec", "--rollout", 6, *common, "--horizon", 2000,
                           positions=20)
    full_cut = rollout_records(sldata, tmp_path, "fc.rec", "--rollout", 6, *common,
                               "--horizon", 2000, "--until", "race", positions=20)
    assert [b for b, _ in full_cut] == [b for b, _ in full]
    gaps = [abs(c[0] - f[0]) for (_, c), (_, f) in zip(full_cut, full, strict=True)]
    assert sum(g > 1e-6 for g in gaps) > len(gaps) // 2
    assert max(gaps) < 0.08 and sum(gaps) / len(gaps) < 0.015   # 0.034, 0.004 (net41)
    proc = subprocess.run([str(sldata), "gen", "--weights", ev.WEIGHTS_PATH, "--out",
                           str(tmp_path / "x.rec"), "--rollout", "6", "--until", "bear-off"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--until takes race" in proc.stderr
    assert not (tmp_path / "x.rec").exists()
