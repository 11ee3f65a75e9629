"""spectrum/tape.py against damaged and strange input (issue 16): every TZX 1.20 block id
has its own length (a short block at the end is valid), other formats are refused by name,
runs of empty blocks are one warning, the block and pulse limits hold, only regular files
are opened, the writer names the field it refuses, and any bytes give a tape or a
TapeError. Fixtures are built here in code, from the TZX 1.20 specification."""
import os
import re
import threading
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from repo import TESTS
from spectrum import tape as T
from spectrum import tape_blocks, tzx
from spectrum.tape_blocks import (
    STOP_IF_48K,
    Block,
    TapeError,
    TapeWarning,
    make_tap_block,
    standard_block,
)
from spectrum.tape_player import TapePlayer, block_pulses
from spectrum.tzx import TZX_SIGNATURE, read_tzx, write_tzx

TZX_HEAD = TZX_SIGNATURE + bytes([1, 20])


def data_10h(payload=b"hello") -> bytes:
    """A 10h block (id included) holding a standard data block."""
    data = make_tap_block(0xFF, payload)
    return bytes([0x10]) + (1000).to_bytes(2, "little") + len(data).to_bytes(2, "little") + data


def read_quietly(raw, reader=T.read_tape):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TapeWarning)
        return reader(raw)


def le(value, size):
    return value.to_bytes(size, "little")


# Each block id with a body written out by hand from the TZX 1.20 specification (the
# bytes after the id), independently of the reader's layout table. tzxlist (libspectrum)
# reads those it knows (15h, 19h, 21h-25h, 28h, 2Ah, 2Bh, 31h, 33h, 35h, 5Ah) the same way.
SPEC_BODIES = {
    0x15: le(79, 2) + le(0, 2) + bytes([8]) + le(3, 3) + b"\xaa\xbb\xcc",   # direct recording
    0x16: le(2, 4) + b"c6",                          # C64 ROM data (1.13): DWORD length
    0x17: le(3, 4) + b"c64",                         # C64 turbo data (1.13): DWORD length
    0x18: le(11, 4) + le(0, 2) + le(44100, 3) + bytes([1]) + le(0, 4) + b"\x01",  # CSW
    0x19: le(14, 4) + le(0, 2) + le(0, 4) + bytes([0, 0]) + le(0, 4) + bytes([0, 0]),
                                                     # generalized data, no symbols
    0x21: bytes([5]) + b"group",                     # group start: a name of 5
    0x22: b"",                                       # group end: nothing
    0x23: le(1, 2),                                  # jump: a signed WORD
    0x24: le(3, 2),                                  # loop start: repetitions
    0x25: b"",                                       # loop end: nothing
    0x26: le(2, 2) + le(1, 2) + le(2, 2),            # call sequence: N WORDs
    0x27: b"",                                       # return from sequence: nothing
    0x28: le(4, 2) + bytes([1]) + le(1, 2) + bytes([0]),   # select block: WORD length
    0x2A: le(0, 4),                                  # stop if 48K: DWORD length 0
    0x2B: le(1, 4) + bytes([1]),                     # set signal level: DWORD length 1
    0x31: bytes([5, 3]) + b"msg",                    # message: time, N, text
    0x33: bytes([2]) + bytes([0, 0, 1]) + bytes([0, 1, 3]),   # hardware: N triples
    0x34: bytes(8),                                  # emulation info (1.13): 8 bytes
    0x35: b"POKEs     " + b"      " + le(3, 4) + b"xyz",    # custom info: 16 + DWORD
    0x40: bytes([0]) + le(4, 3) + b"snap",           # snapshot (1.13): 3-byte length
    0x5A: b"XTape!\x1a\x01\x14",                     # glue: 9 bytes
    0x4B: le(6, 4) + b"future",                      # an id after 1.20: DWORD length
}


@pytest.mark.parametrize("block_id", sorted(set(SPEC_BODIES) - {STOP_IF_48K}),
                         ids=lambda i: f"{i:02X}h")
def test_each_tzx_block_id_is_passed_over_by_its_own_1_20_length(block_id):
    raw = TZX_HEAD + bytes([block_id]) + SPEC_BODIES[block_id] + data_10h(b"after")
    with pytest.warns(TapeWarning, match=f"{block_id:02X}h"):
        tape = read_tzx(raw)
    assert [b.data[1:-1] for b in tape.blocks] == [b"after"]     # found where it should be


@pytest.mark.parametrize("block_id", [0x15, 0x19, 0x21, 0x22, 0x23, 0x24, 0x25, 0x28, 0x2A,
                                      0x2B, 0x31, 0x33, 0x35, 0x5A], ids=lambda i: f"{i:02X}h")
def test_tzxlist_reads_the_spec_bodies_the_same_way(tmp_path, block_id):
    """An independent reader (libspectrum) finds the data block after each body too."""
    from tape_listers import tzxlist
    path = tmp_path / "one.tzx"
    path.write_bytes(TZX_HEAD + bytes([block_id]) + SPEC_BODIES[block_id] + data_10h(b"after"))
    listing = tzxlist(path)
    assert "Block type 0x10 (Standard Speed Data)" in listing
    assert "error" not in listing.lower()


@pytest.mark.parametrize("block_id", [0x22, 0x25, 0x27], ids=lambda i: f"{i:02X}h")
def test_a_short_skipped_block_as_the_last_block_is_valid(block_id):
    raw = TZX_HEAD + data_10h() + bytes([block_id]) + SPEC_BODIES[block_id]
    tape = read_quietly(raw, read_tzx)
    assert len(tape.blocks) == 1 and tape.warnings[-1].endswith("not supported: skipped")


@pytest.mark.parametrize("after", [b"", data_10h(b"after")], ids=["last", "before data"])
def test_a_stop_if_48k_block_is_kept_as_a_stop_by_its_1_20_length(after):
    raw = TZX_HEAD + data_10h() + bytes([STOP_IF_48K]) + SPEC_BODIES[STOP_IF_48K] + after
    tape = read_quietly(raw, read_tzx)
    assert [b.block_id for b in tape.blocks] == [0x10, STOP_IF_48K] + [0x10] * bool(after)
    assert TapePlayer(tape.blocks).stop_tstates == [TapePlayer(tape.blocks[:1]).length_tstates]
    assert read_tzx(write_tzx(tape.blocks)).blocks == tape.blocks     # written back whole


@pytest.mark.parametrize("name,raw", [
    # built like libspectrum's loop.tzx, loop2.tzx and loopend.tzx test files
    ("loop", bytes([0x24]) + le(2, 2) + data_10h() + bytes([0x25])),
    ("loop2", bytes([0x24]) + le(2, 2) + data_10h() + bytes([0x25, 0x24]) + le(3, 2)
     + data_10h(b"two") + bytes([0x25])),
    ("loopend", data_10h() + bytes([0x25])),
])
def test_tapes_ending_in_a_loop_end_block_read(name, raw):
    tape = read_quietly(TZX_HEAD + raw, read_tzx)
    assert tape.blocks and all(b.block_id == 0x10 for b in tape.blocks)


def test_a_block_cut_short_in_its_length_field_is_still_truncated():
    with pytest.raises(TapeError, match=r"\(35h\).*its header needs 20 bytes but only 3"):
        read_tzx(TZX_HEAD + data_10h() + bytes([0x35]) + b"POK")


@pytest.mark.parametrize("start,kind", [
    (b"PZXT\x08\x00\x00\x00\x01\x00", "PZX"),
    (b"Compressed Square Wave\x1a\x02\x00", "CSW"),
    (b"ZXST\x01\x04\x00\x00", "SZX snapshot"),
    (b"PK\x03\x04\x14\x00", "ZIP archive"),
    (b"\x1f\x8b\x08\x00", "gzip archive"),
    (b"RIFF\x24\x00\x00\x00WAVEfmt ", "RIFF/WAV audio"),
])
def test_other_tape_formats_are_refused_by_name(start, kind):
    with pytest.raises(TapeError, match=rf"not a TAP or TZX file \({kind}\)"):
        T.read_tape(start + bytes(64), "odd.tap")


def test_ten_mib_of_zero_bytes_is_one_summarised_warning_and_no_blocks():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tape = T.read_tape(bytes(10 * 1024 * 1024), "zeros.tap")
    assert tape.blocks == [] and len(caught) == 1 and len(tape.warnings) == 1
    assert tape.warnings[0] == ("zeros.tap: blocks 1 to 5242880 at offsets 0 to 10485758 "
                                "have zero length: skipped (5242880 blocks)")


def test_runs_of_empty_blocks_between_real_ones_are_one_warning_each():
    one = T.write_tap([make_tap_block(0xFF, b"x")])
    tape = read_quietly(b"\x00\x00" * 3 + one + b"\x00\x00" + one, T.read_tap)
    assert len(tape.blocks) == 2
    assert tape.warnings == [
        "TAP file: blocks 1 to 3 at offsets 0 to 4 have zero length: skipped (3 blocks)",
        "TAP file: block 5 at offset 11 has zero length: skipped"]


def test_a_tzx_run_of_unsupported_blocks_is_one_warning():
    tape = read_quietly(TZX_HEAD + bytes([0x22]) * 1000 + data_10h(), read_tzx)
    assert len(tape.blocks) == 1 and len(tape.warnings) == 1
    assert "blocks 1 to 1000 (TZX block 22h)" in tape.warnings[0]


def test_more_blocks_than_the_limit_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(tape_blocks, "MAX_BLOCKS", 50)
    one = T.write_tap([b"\xff"])
    assert len(T.read_tap(one * 50).blocks) == 50
    with pytest.raises(TapeError, match="more than 50 blocks"):
        T.read_tap(one * 51)
    with pytest.raises(TapeError, match="more than 50 blocks"):
        read_quietly(TZX_HEAD + bytes([0x22]) * 51, read_tzx)


def test_more_pulses_than_the_limit_is_a_clear_error_before_they_are_made(monkeypatch):
    monkeypatch.setattr(tape_blocks, "MAX_TAPE_PULSES", 100_000)
    tone = bytes([0x12]) + le(2168, 2) + le(65535, 2)          # 65535 pulses for 5 bytes
    assert len(read_tzx(TZX_HEAD + tone).blocks) == 1
    with pytest.raises(TapeError, match="block 2 takes the tape past 100,000 pulses"):
        read_tzx(TZX_HEAD + tone * 2)


def test_a_fifo_at_the_tape_path_is_refused_at_once_never_blocks(tmp_path):
    fifo = tmp_path / "tape.tap"
    os.mkfifo(fifo)
    result = []
    reader = threading.Thread(target=lambda: result.append(_error_of(T.read_tape, fifo)),
                              daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():                  # unblock the reader before failing
        with open(fifo, "wb"):
            pass
        pytest.fail("read_tape blocked on a FIFO")
    assert "not a regular file: it is a FIFO" in result[0]


def test_a_folder_at_the_tape_path_is_refused(tmp_path):
    with pytest.raises(TapeError, match="not a regular file"):
        T.read_tape(tmp_path)


def _error_of(call, *args):
    try:
        call(*args)
    except TapeError as exc:
        return str(exc)
    return "no error"


# ---------------------------------------------------------------- the writer
@pytest.mark.parametrize("block,field", [
    (Block(0x10, b"\xff\x00\xff", pause_ms=70000), "pause_ms"),
    (Block(0x10, b"\xff\x00\xff", pause_ms=1.5), "pause_ms"),
    (Block(0x10, b"\xff" * 65536), "data"),
    (Block(0x10, "text, not bytes"), "data"),
    (Block(0x10, b"\xff\x00\xff", pilot_tstates=2000), "pilot_tstates"),
    (Block(0x11, b"\xff\x00\xff", pilot_tstates=-1), "pilot_tstates"),
    (Block(0x11, b"\xff\x00\xff", sync2_tstates=1 << 16), "sync2_tstates"),
    (Block(0x11, b"\xff\x00\xff", pilot_pulses=70000), "pilot_pulses"),
    (Block(0x11, b"\xff\x00\xff", used_bits=0), "used_bits"),
    (Block(0x14, b"\xff\x00\xff", used_bits=9), "used_bits"),
    (Block(0x14, b"\xff\x00\xff", bit0_tstates=True), "bit0_tstates"),
    (Block(0x12, pause_ms=0, pulses_tstates=()), "pulses_tstates"),
    (Block(0x12, pause_ms=0, pulses_tstates=(100, 200)), "pulses_tstates"),
    (Block(0x12, pause_ms=0, pulses_tstates=(1 << 16,)), "pulses_tstates[0]"),
    (Block(0x12, pulses_tstates=(100,)), "pause_ms"),
    (Block(0x13, pause_ms=0, pulses_tstates=(100,) * 256), "pulses_tstates"),
    (Block(0x13, pause_ms=0, pulses_tstates=(100, -5)), "pulses_tstates[1]"),
    (Block(0x20, pause_ms=-1), "pause_ms"),
    (Block(0x30, pause_ms=0, text="5 \u20ac"), "text"),
    (Block(0x30, pause_ms=0, text="x" * 256), "text"),
    (Block(0x30, pause_ms=0, text=None), "text"),
    (Block(0x32, pause_ms=0, archive=((300, "id too big"),)), "archive[0] id"),
    (Block(0x32, pause_ms=0, archive=((0, "ok"), (1, "\u0100"))), "archive[1] text"),
    (Block(0x32, pause_ms=0, archive=((0,),)), "archive[0]"),
    (Block(0x32, pause_ms=0, archive=tuple((i, "y" * 255) for i in range(255))), "archive"),
    (Block(0x99), "block_id"),
])
def test_the_tzx_writer_refuses_a_bad_field_by_name(block, field):
    with pytest.raises(TapeError, match=rf"TZX block 2 \(.*\): {re.escape(field)}: "):
        write_tzx([standard_block(make_tap_block(0xFF, b"ok")), block])


def test_the_tap_writer_refuses_a_bad_block_by_name():
    with pytest.raises(TapeError, match="TAP block 1: data: a TAP block holds 1 to 65535"):
        T.write_tap([b""])
    with pytest.raises(TapeError, match="TAP block 2: data: bytes, not"):
        T.write_tap([b"\xff", 12])
    with pytest.raises(TapeError, match="TAP block 1: TZX block 20h has no place"):
        T.write_tap([Block(0x20)])
    with pytest.raises(TapeError, match="TAP block 1: data: bytes, not int"):
        T.write_tap([Block(0x10, 12)])
    with pytest.raises(TapeError, match="TAP block 1: block_id None has no place"):
        T.write_tap([Block(None, b"\xff")])


def test_a_12h_tone_of_no_pulses_is_passed_over_and_the_rest_rewrites():
    raw = TZX_HEAD + bytes([0x12]) + le(2168, 2) + le(0, 2) + data_10h()
    with pytest.warns(TapeWarning, match=r"block 1 \(12h\) .* zero length"):
        tape = read_tzx(raw)
    assert read_tzx(write_tzx(tape.blocks)).blocks == tape.blocks


def test_used_bits_over_eight_in_a_file_is_a_clear_error():
    data = make_tap_block(0xFF, b"ab")
    body = le(855, 2) + le(1710, 2) + bytes([9]) + le(0, 2) + le(len(data), 3) + data
    with pytest.raises(TapeError, match="9 bits used in the last byte"):
        read_tzx(TZX_HEAD + bytes([0x14]) + body)


# ---------------------------------------------------------------- any bytes at all
ANY = settings(deadline=1000, suppress_health_check=[HealthCheck.too_slow])


@ANY
@given(st.binary(max_size=600))
def test_any_bytes_give_a_tape_or_a_tape_error(raw):
    assert tape_or_error_faults(raw) == []


@ANY
@given(st.lists(st.sampled_from(sorted(set(tzx._TZX_LAYOUT) | {0x4B})), max_size=6),
       st.lists(st.binary(max_size=40), max_size=6))
def test_any_tzx_block_ids_with_any_bodies_give_a_tape_or_a_tape_error(ids, bodies):
    raw = TZX_HEAD + b"".join(bytes([i]) + b for i, b in zip(ids, bodies + [b""] * 6, strict=False))
    assert tape_or_error_faults(raw) == []


@ANY
@given(st.binary(max_size=400))
def test_any_bytes_after_a_tzx_signature_give_a_tape_or_a_tape_error(body):
    assert tape_or_error_faults(TZX_HEAD + body) == []


def tape_or_error_faults(raw) -> list[str]:
    """What is wrong with reading `raw`: nothing ([]) when it gives a TapeError of one line, or
    a tape of Blocks that writes back and reads again as the same blocks, each one played."""
    try:
        tape = read_quietly(raw)
    except TapeError as exc:
        return [] if str(exc).isprintable() else [f"not one line: {exc}"]   # whatever the bytes
    faults = [f"not a Block: {b!r}" for b in tape.blocks if not isinstance(b, Block)]
    if raw[:8] == TZX_SIGNATURE:                  # whatever it kept, it can write back
        again = read_quietly(write_tzx(tape.blocks), read_tzx).blocks
    else:
        again = T.read_tap(T.write_tap(tape.blocks)).blocks
    for block in tape.blocks:
        block_pulses(block)                       # and every block it kept can be played
    return faults + ([] if again == tape.blocks else ["written back, it reads otherwise"])


# ---------------------------------------------------------------- the real-mode loader
def test_real_mode_ends_a_tape_with_nothing_loadable_as_instant_mode_does():
    import sys
    sys.path.insert(0, str(TESTS))
    import roms
    from screentext import find_text
    from spectrum.loader import LOADING_ERROR, load_headless
    from spectrum.machine import Spectrum48
    blocks = [standard_block(make_tap_block(0xFF, b"data, but no header"))]
    screens = {}
    for mode in ("instant", "real"):
        m = Spectrum48(roms.ROM_PATH)
        loader = load_headless(m, mode, blocks, roms.rom_symbols(), max_frames=3000)
        assert (loader.state, loader.error) == ("error", LOADING_ERROR)
        screens[mode] = find_text(m, "R Tape loading error")
    assert screens == {"instant": (23, 0), "real": (23, 0)}
    assert loader.frames_run < 400          # the tape's ~4 s, then a second: not 20,000


ODD = (st.integers(-2, 70000) | st.floats(allow_nan=True) | st.booleans() | st.none()
       | st.text(max_size=3))
BLOCKS = st.builds(
    Block,
    block_id=st.sampled_from(sorted(tzx._TZX_LAYOUT)) | ODD,
    data=st.binary(max_size=20) | ODD,
    pause_ms=ODD, pilot_tstates=ODD, pilot_pulses=ODD, sync1_tstates=ODD,
    sync2_tstates=ODD, bit0_tstates=ODD, bit1_tstates=ODD, used_bits=ODD,
    pulses_tstates=st.lists(ODD, max_size=4).map(tuple) | ODD,
    text=st.text(max_size=8) | ODD,
    archive=st.lists(st.tuples(ODD, st.text(max_size=4) | ODD), max_size=3).map(tuple) | ODD)


@ANY
@given(st.lists(BLOCKS, max_size=3))
def test_the_writers_give_a_file_or_a_tape_error_for_any_field_values(blocks):
    for write, read in ((write_tzx, read_tzx), (T.write_tap, T.read_tap)):
        try:
            raw = write(blocks)
        except TapeError as exc:
            assert str(exc).isprintable(), str(exc)  # one line, whatever the fields hold
            continue
        assert len(read_quietly(raw, read).blocks) <= len(blocks)
