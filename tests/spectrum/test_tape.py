"""spectrum/tape.py: .TAP and .TZX round trips, every supported TZX block, the pulse
stream's standard timings, and bad input (clear TapeError or a skipped block with a
warning, never a crash, the machine's memory untouched)."""
import warnings

import pytest

import roms
from spectrum import hw
from spectrum import tape as T
from spectrum.tape_blocks import (
    Block,
    TapeError,
    TapeWarning,
    checksum,
    header_payload,
    make_tap_block,
    standard_block,
)
from spectrum.tape_player import TapePlayer, block_pulses
from spectrum.tape_trap import instant_ld_bytes
from spectrum.tzx import read_tzx, write_tzx
from tzx_cases import every_supported_tzx_block


def header_block(name="TEST", length=5, file_type=3, start=32768):
    header = header_payload(file_type, name, length, start, 32768)
    return standard_block(make_tap_block(0x00, header))


def data_block(payload=b"hello"):
    return standard_block(make_tap_block(0xFF, payload))


def test_tap_written_and_read_back_gives_the_same_blocks():
    blocks = [header_block(), data_block(), data_block(bytes(range(256)) * 3)]
    raw = T.write_tap(blocks)
    assert raw[:2] == (19).to_bytes(2, "little")
    back = T.read_tap(raw)
    assert [b.data for b in back.blocks] == [b.data for b in blocks]
    assert back.warnings == []
    assert T.write_tap(back.blocks) == raw


def test_make_tap_block_ends_with_the_xor_of_flag_and_payload():
    block = make_tap_block(0xFF, b"\x01\x02\x04")
    assert block == b"\xff\x01\x02\x04" + bytes([0xFF ^ 1 ^ 2 ^ 4])
    assert checksum(block) == 0


def test_tzx_with_each_supported_block_reads_back_the_same():
    blocks = every_supported_tzx_block()
    raw = write_tzx(blocks)
    assert raw[:10] == b"ZXTape!\x1a\x01\x14"
    back = read_tzx(raw)
    assert [b.block_id for b in back.blocks] == [0x30, 0x32, 0x10, 0x11, 0x20, 0x12, 0x13, 0x14]
    for a, b in zip(blocks, back.blocks, strict=True):
        assert (a.data, a.pause_ms, a.text, a.archive, a.pulses_tstates) == \
               (b.data, b.pause_ms, b.text, b.archive, b.pulses_tstates)
    assert write_tzx(back.blocks) == raw


def test_standard_block_pulses_follow_the_rom_timings():
    header = block_pulses(header_block())
    assert len(header) == 8063 + 2 + 19 * 8 * 2
    assert set(header[:8063]) == {2168} and list(header[8063:8065]) == [667, 735]
    data = block_pulses(data_block(b"\x80"))
    bits = data[3223 + 2:]
    assert list(bits[:4]) == [1710, 1710, 1710, 1710]             # flag 0xFF: ones
    assert len(data) == 3223 + 2 + 3 * 16
    assert list(block_pulses(data_block(b"\x80"))[3225 + 16:3225 + 20]) == [1710, 1710, 855, 855]


def test_player_feeds_edges_frame_by_frame():
    player = TapePlayer([data_block(b"x")])
    assert player.ear_at(100) == 0                                # stopped: no edges
    player.play()
    levels = [player.ear_at(t) for t in (0, 2167, 2168, 4336)]
    assert levels == [1, 1, 0, 1]
    player.end_frame(hw.TSTATES_PER_FRAME)
    assert player.tape_tstates == hw.TSTATES_PER_FRAME
    last_edge = player.edge_tstates[-1]
    assert player.length_tstates == last_edge + hw.BLOCK_PAUSE_MS * hw.CPU_HZ // 1000


# ---------------------------------------------------------------- bad input
def test_truncated_tap_is_a_clear_error():
    raw = T.write_tap([header_block(), data_block()])
    with pytest.raises(TapeError, match="block 2 .* 7 bytes long but only 3"):
        T.read_tap(raw[:-4])
    with pytest.raises(TapeError, match="truncated"):
        T.read_tap(raw + b"\x05")


def test_zero_length_tap_block_is_skipped_with_a_warning():
    raw = T.write_tap([header_block()]) + b"\x00\x00" + T.write_tap([data_block()])
    with pytest.warns(TapeWarning, match="block 2 .* zero length"):
        tape = T.read_tap(raw)
    assert len(tape.blocks) == 2


def test_tzx_with_an_unknown_version_is_refused():
    raw = bytearray(write_tzx([data_block()]))
    raw[8] = 2
    with pytest.raises(TapeError, match="version 2.20 is unknown"):
        read_tzx(bytes(raw))
    with pytest.raises(TapeError, match="not a TZX"):
        read_tzx(b"ZXTaps!\x1a\x01\x14")


def test_tzx_block_longer_than_its_file_is_a_clear_error():
    raw = write_tzx([data_block(b"0123456789")])
    with pytest.raises(TapeError, match=r"block 1 \(10h\).*needs 16 bytes but only 14 remain"):
        read_tzx(raw[:-2])


def test_unsupported_tzx_block_is_skipped_with_a_warning_naming_it():
    raw = bytearray(write_tzx([data_block()]))
    raw[10:10] = bytes([0x21, 3]) + b"grp" + bytes([0x22])        # group start, group end
    raw += bytes([0x35]) + b"CUSTOMINFO\x00\x00\x00\x00\x00\x00" + (2).to_bytes(4, "little") + b"ab"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tape = read_tzx(bytes(raw))
    messages = [str(w.message) for w in caught]
    assert any("21h" in m for m in messages) and any("22h" in m for m in messages)
    assert any("35h" in m for m in messages)
    assert [b.block_id for b in tape.blocks] == [0x10]


def test_zero_length_tzx_data_block_is_skipped_with_a_warning():
    raw = write_tzx([Block(0x10, b"", 1000), data_block()])
    with pytest.warns(TapeWarning, match="zero length"):
        tape = read_tzx(raw)
    assert len(tape.blocks) == 1


def test_bad_tape_file_leaves_the_machine_memory_untouched(tmp_path):
    from spectrum.loader import TapeLoader
    from spectrum.machine import Spectrum48
    m = Spectrum48(roms.ROM_PATH)
    for _ in range(20):
        m.run_frame()
    before = bytes(m.memory)
    bad = tmp_path / "bad.tap"
    bad.write_bytes(T.write_tap([header_block(), data_block()])[:-3])
    with pytest.raises(TapeError, match="bad.tap"):
        TapeLoader(m, str(bad), "instant", roms.rom_symbols())
    assert bytes(m.memory) == before
    with pytest.raises(TapeError, match="cannot be read"):
        T.read_tape(tmp_path / "missing.tzx")


def test_instant_trap_with_no_matching_block_reports_the_tape_ran_out():
    class Cpu:
        a, ix, de, sp, tstates, f, iff1, iff2, pc = 0xFF, 0x8000, 5, 0xFF00, 0, 0, 0, 0, 0
    memory = bytearray(65536)
    memory[0xFF00:0xFF02] = b"\x34\x12"
    cpu = Cpu()
    instant_ld_bytes(cpu, memory, TapePlayer([header_block()]))
    assert cpu.a == 3 and not cpu.f & 1 and cpu.pc == 0x1234 and cpu.sp == 0xFF02
    assert memory[0x8000:0x8005] == bytes(5)
