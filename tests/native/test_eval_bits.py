"""The evaluator's 0-ply answers for a fixed set of positions (random legal games from the start,
made here from a seed: contact, crashed, race and bear-off positions, men on the bar) are the
bits pinned below for the shipped weights. A change to the encoder (native/src/eval.c), the
net or the bear-off database that was meant to change nothing must leave them as they are."""
import hashlib
import struct

from game.model import evaluator as ev
from native import ffi, lib
from shared_cases import positions_from_play as _positions_from_play

POSITIONS, SEED = 3000, 43
# the weights file's FNV-1a checksum (its last four bytes) and the digest of the answers
PINNED_WEIGHTS = 0x108BF69D
PINNED_SHA256 = "511b1265a83ab0513ff4bc5ada1428d1a8c519a968bd396dc92e913c58cd56c8"


def weights_checksum() -> int:
    with open(ev.WEIGHTS_PATH, "rb") as fh:
        return struct.unpack("<I", fh.read()[-4:])[0]


def answers_digest(positions) -> str:
    """sha256 of the float32 answers (BG_N_PROBS a position) of bg_evaluate_many."""
    boards = ffi.new("int8_t[]", [c for p in positions for c in p.board])
    out = ffi.new("float[]", len(positions) * lib.BG_N_PROBS)
    assert lib.bg_evaluate_many(boards, len(positions), out) == len(positions)
    return hashlib.sha256(ffi.buffer(out)[:]).hexdigest()


def test_the_shipped_net_judges_a_fixed_set_of_positions_to_the_pinned_bits():
    ev.ensure_loaded()
    checksum = weights_checksum()
    assert checksum == PINNED_WEIGHTS, (
        f"the shipped weights changed ({checksum:08x}, pinned {PINNED_WEIGHTS:08x}): if on "
        f"purpose, pin their answers again (PINNED_WEIGHTS and PINNED_SHA256 here)")
    positions = _positions_from_play(POSITIONS, seed=SEED)
    assert answers_digest(positions) == PINNED_SHA256
    lib.bg_nn_avx2(0)                            # the net's generic path gives the same bits
    try:
        assert answers_digest(positions) == PINNED_SHA256
    finally:
        lib.bg_nn_avx2(1)                        # the default: AVX2 where the CPU has it


def rearmost(row) -> int:
    return max((i for i in range(25) if row[i]), default=-1)


def test_the_pinned_set_holds_every_kind_of_position():
    kinds = {"contact": 0, "crashed": 0, "race": 0, "bear-off": 0, "bar": 0}
    for p in _positions_from_play(POSITIONS, seed=SEED):
        mine, theirs = rearmost(p.mover), rearmost(p.opponent)
        if mine + theirs >= 23:
            kinds["contact"] += 1
            kinds["crashed"] += min(sum(p.mover), sum(p.opponent)) <= 6
        elif mine <= 5 and theirs <= 5:
            kinds["bear-off"] += 1
        else:
            kinds["race"] += 1
        kinds["bar"] += bool(p.mover[24] or p.opponent[24])
    assert all(kinds.values()), kinds
