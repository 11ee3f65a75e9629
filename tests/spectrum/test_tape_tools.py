"""Our .TAP and .TZX files as established Spectrum tools see them: Debian's tzxlist
(fuse-emulator-utils) and SkoolKit's tapinfo.py list the right names, types, lengths and
checksums. Skipped where a tool is missing, except in CI (.ci/run installs both)."""
import re

from game.zx import media
from spectrum import tape as T
from spectrum.tzx import write_tzx
from tape_listers import tapinfo, tzxlist
from tzx_cases import every_supported_tzx_block


def test_tzxlist_lists_backgammon_tap_with_names_lengths_and_passing_checksums():
    out = tzxlist(media.TAPE_PATH)
    blocks = T.read_tape(media.TAPE_PATH).blocks
    assert out.count("Block type 0x10 (Standard Speed Data)") == 6
    assert 'Program: "BACKGAMMON" LINE 10' in out
    assert 'Bytes: "bgscreen  " SCREEN$  16384, 6912' in out
    assert 'Bytes: "bgcode    " CODE  61440, 513' in out
    lengths = [int(n) for n in re.findall(r"Block length: (\d+) bytes", out)]
    assert lengths == [len(b.data) for b in blocks]
    sums = re.findall(r"Checksum: 0x([0-9a-f]{2}) \((\w+)\)", out)
    assert sums == [(f"{b.data[-1]:02x}", "PASS") for b in blocks]


def test_tapinfo_lists_backgammon_tap_blocks_and_the_basic_loader():
    out = tapinfo(media.TAPE_PATH)
    assert "Program: BACKGAMMON" in out and "LINE: 10" in out
    assert "Bytes: bgscreen" in out and "CODE: 16384,6912" in out
    assert "Bytes: bgcode" in out and "CODE: 61440,513" in out
    lengths = [int(n) for n in re.findall(r"Length: (\d+)", out)]
    assert lengths == [len(b.data) for b in T.read_tape(media.TAPE_PATH).blocks]


def test_both_tools_read_our_tzx_with_every_supported_block(tmp_path):
    path = tmp_path / "every.tzx"
    path.write_bytes(write_tzx(every_supported_tzx_block()))
    listed = tzxlist(path)
    for kind in ("0x30 (Comment)", "0x32 (Archive Info)", "0x10 (Standard Speed Data)",
                 "0x11 (Turbo Speed Data)", "0x20 (Pause)", "0x12 (Pure Tone)",
                 "0x13 (List of Pulses)", "0x14 (Pure Data)"):
        assert f"Block type {kind}" in listed
    assert 'Bytes: "tzxbytes  " CODE  32768, 4' in listed and "Checksum: 0x08 (PASS)" in listed
    assert "3223 pulses of 2168 tstates" in listed
    info = tapinfo(path)
    assert "Version: 1.20" in info
    for kind in ("Text description (0x30)", "Archive info (0x32)", "Standard speed data (0x10)",
                 "Turbo speed data (0x11)", "Pause (silence) (0x20)", "Pure tone (0x12)",
                 "Pulse sequence (0x13)", "Pure data (0x14)"):
        assert kind in info
    assert "Data: 255, 1, 2, 3, 4, 251" in info                    # flag, bytes, checksum
