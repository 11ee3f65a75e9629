"""The game's tape and the loading sequence: backgammon.tap rebuilds byte for byte; it
loads through the ROM's Z80 loader into exactly the bytes the instant trap gives; a hand-
built TZX with every supported block does the same; the screen shows "Program: BACKGAMMON"
and the stripes; "Wait until machine code loaded" leaves the loading picture unscrolled; a
damaged block gives "R Tape loading error" and a retry; a key skips."""
import pathlib
import time

import pytest

import roms
from game.zx import make_tape, media
from game.zx.media import load_headless
from loading_picture import MESSAGE, PICTURE_LINES_KEPT, picture_lines_shown
from screentext import find_text, screen_text  # noqa: E402
from spectrum import hw
from spectrum import tape as T
from spectrum.loader import TapeLoader, decode_program, encode_line, install_tape
from spectrum.machine import Spectrum48
from spectrum.tape_blocks import Block, header_payload, make_tap_block, standard_block
from spectrum.tape_player import TapePlayer
from spectrum.tzx import read_tzx, write_tzx
from tzx_cases import every_supported_tzx_block

SYM = roms.rom_symbols()
MC = media.mcode_symbols()


def loaded_bytes(m) -> dict:
    prog = m.peek_word(SYM["PROG"])
    hdr = SYM["HDR_BUF"]
    return {"screen": bytes(m.memory[0x4000:0x5B00]),
            "program": bytes(m.memory[prog:prog + 200]),
            "mcode": bytes(m.memory[MC["USR_ENTRY"]:MC["MCODE_END"]]),
            "header": bytes(m.memory[hdr:hdr + 17])}


@pytest.fixture(scope="module")
def instant_run():
    m = Spectrum48(roms.ROM_PATH)
    loader = load_headless(m, "instant")
    return m, loader


@pytest.fixture(scope="module")
def real_run():
    """The game's tape through the ROM's Z80 loader ("real": one emulated frame a step, every
    frame seen): (machine, loader, what the frames showed, wall seconds)."""
    m = Spectrum48(roms.ROM_PATH)
    seen = {"typed": False, "program_line": False, "pilot": False, "data": False}

    def watch(loader):
        if not seen["typed"]:                       # (the screen is read only until seen)
            seen["typed"] = find_text(m, 'LOAD ""') == (23, 0)
        if not seen["program_line"]:
            seen["program_line"] = find_text(m, "Program: BACKGAMMON") == (0, 0)
        colours = {c for _, c in m.ula.frame_border[1]}
        seen["pilot"] |= {2, 5} <= colours
        seen["data"] |= {1, 6} <= colours

    started = time.perf_counter()
    loader = load_headless(m, "real", on_frame=watch, max_frames=20_000)
    return m, loader, seen, time.perf_counter() - started


def test_backgammon_tap_rebuilds_byte_for_byte():
    assert make_tape.build_tape() == pathlib.Path(media.TAPE_PATH).read_bytes()


def test_backgammon_tap_holds_program_screen_and_code_files():
    blocks = T.read_tape(media.TAPE_PATH).blocks
    assert [b.describe() for b in blocks[0::2]] == [
        "Program: BACKGAMMON", "Bytes: bgscreen  ", "Bytes: bgcode    "]
    assert len(blocks[3].data) == hw.SCREEN_BYTES + 2
    assert blocks[5].data[1:-1] == media.load_mcode()
    listing = decode_program(blocks[1].data[1:-1])
    assert [n for n, _ in listing] == [10, 20, 30, 40, 50]
    assert ("kw", "SCREEN$") in listing[1][1][0] and ("kw", "CODE") in listing[3][1][0]


def test_loading_picture_uses_one_ink_and_paper_per_cell_and_shows_the_title():
    screen = make_tape.loading_picture()
    assert len(screen) == hw.SCREEN_BYTES
    memory = bytearray(65536)
    memory[0x4000:0x5B00] = screen
    memory[23606:23608] = (roms.rom_symbols()["FONT"] - 256).to_bytes(2, "little")
    memory[:0x4000] = roms.load_rom()
    assert "for the 48K ZX Spectrum" in screen_text(memory)[2]
    attrs = screen[6144:]
    assert len(set(attrs)) > 6                                     # a picture, not a blank


def test_instant_mode_loads_the_whole_tape_in_a_few_frames(instant_run):
    m, loader = instant_run
    assert loader.state == "done" and loader.headers == ["BACKGAMMON", "bgscreen", "bgcode"]
    assert loader.frames_run < 100
    assert find_text(m, MESSAGE) == (PICTURE_LINES_KEPT, 1)
    assert find_text(m, "Bytes: bgcode") == (22, 0)
    assert m.peek_word(SYM["RAMTOP"]) == MC["USR_ENTRY"] - 1       # CLEAR 61439 ran
    assert m.memory[MC["USR_ENTRY"]] == 0xC9


@pytest.mark.parametrize("mode", ["instant", "real"])
def test_wait_message_leaves_the_pictures_top_20_lines_unscrolled_on_our_rom(mode, request):
    m, loader = request.getfixturevalue(f"{mode}_run")[:2]
    assert loader.state == "done", loader.error
    assert bytes(m.memory[MC["USR_ENTRY"]:MC["MCODE_END"]]) == media.load_mcode()
    assert picture_lines_shown(m)[:PICTURE_LINES_KEPT] == list(range(PICTURE_LINES_KEPT))
    assert find_text(m, MESSAGE) == (PICTURE_LINES_KEPT, 1)
    assert find_text(m, "Bytes: bgcode") == (22, 0)          # our ROM's own line, below it


def test_backgammon_tap_through_the_z80_loader_gives_the_trap_bytes(instant_run, real_run):
    m, loader, seen, wall_s = real_run
    assert loader.state == "done", loader.error
    assert loaded_bytes(m) == loaded_bytes(instant_run[0])
    assert seen == {"typed": True, "program_line": True, "pilot": True, "data": True}
    assert loader.player.tape_tstates > 60 * hw.CPU_HZ             # the whole tape played
    print(f"real load: {wall_s:.1f} s wall for {loader.frames_run} frames")   # bench, not test


def test_hand_built_tzx_loads_through_the_z80_loader_like_the_trap():
    raw = write_tzx(every_supported_tzx_block())
    requests = [(0x00, 17, 0x9000), (0xFF, 4, 0x9100), (0xFF, 9, 0x9200)]
    results = []
    for instant in (False, True):
        m = Spectrum48(roms.ROM_PATH)
        for _ in range(20):
            m.run_frame()
        player = TapePlayer(read_tzx(raw).blocks)
        install_tape(m, player, SYM, instant=instant)
        player.play()
        flags = []
        for flag, length, dest in requests:
            regs = m.call(SYM["LD_BYTES"], max_frames=1500, ix=dest, de=length, a=flag, f=0x01)
            flags.append((regs["f"] & 1, regs["a"]))
        results.append((flags, bytes(m.memory[0x9000:0x9300])))
    assert results[0] == results[1]
    assert results[0][0] == [(1, 0)] * 3
    assert results[0][1][0x200:0x209] == b"pure data"


STOP_BLOCKS = {"20h pause 0": Block(0x20, pause_ms=0),
               "2Ah stop if 48K": Block(0x2A, pause_ms=0)}


def stop_the_tape_blocks(stop=STOP_BLOCKS["20h pause 0"]):
    """Two data files with a TZX "stop the tape" block between them, as read back from a
    TZX file (so the reader keeps the block)."""
    blocks = [standard_block(make_tap_block(0xFF, b"first file"), pause_ms=100), stop,
              standard_block(make_tap_block(0xFF, b"second file"))]
    return T.read_tape(write_tzx(blocks), "stop.tzx").blocks


@pytest.mark.parametrize("stop", STOP_BLOCKS.values(), ids=STOP_BLOCKS.keys())
def test_tzx_stop_the_tape_block_stops_the_tape_until_the_next_load(stop):
    blocks = stop_the_tape_blocks(stop)
    assert [b.block_id for b in blocks] == [0x10, stop.block_id, 0x10]
    m = Spectrum48(roms.ROM_PATH)
    for _ in range(20):
        m.run_frame()
    player = TapePlayer(blocks)
    install_tape(m, player, SYM)
    player.play()
    first = m.call(SYM["LD_BYTES"], max_frames=500, ix=0x9000, de=10, a=0xFF, f=0x01)
    assert first["f"] & 1 and bytes(m.memory[0x9000:0x900A]) == b"first file"
    for _ in range(30):                             # the 100 ms pause, then the stop
        m.run_frame()
    assert not player.playing and player.stopped_by_tape
    assert player.tape_tstates == player.stop_tstates[0] == player.block_end_tstates[1]
    ear_before = player.ear_at(0)
    for _ in range(100):                            # two seconds: the tape stands still
        m.run_frame()
    assert player.tape_tstates == player.stop_tstates[0] and player.ear_at(0) == ear_before
    second = m.call(SYM["LD_BYTES"], max_frames=500, ix=0x9100, de=11, a=0xFF, f=0x01)
    assert second["f"] & 1 and bytes(m.memory[0x9100:0x910B]) == b"second file"
    assert player.playing and not player.stopped_by_tape


def test_a_stop_inside_a_frame_hides_the_edges_after_it():
    blocks = [Block(0x12, pause_ms=0, pulses_tstates=(1000,) * 10), Block(0x20, pause_ms=0),
              Block(0x12, pause_ms=0, pulses_tstates=(1000,) * 10)]
    player = TapePlayer(blocks)
    player.play()
    stop = player.stop_tstates[0]
    assert stop == 10_000
    level_at_stop = player.ear_at(stop)
    assert player.ear_at(stop + 5_000) == level_at_stop     # later edges wait for the resume
    assert player.next_edge_tstates(stop) is None
    player.end_frame(69_888)
    assert player.tape_tstates == stop and not player.playing
    assert player.resume(2_000)                     # played on 2,000 T into a frame
    assert player.ear_at(2_000 + 500) == level_at_stop and \
        player.ear_at(2_000 + 1_000) != level_at_stop   # the next block's first edge, on time
    assert not player.resume()                      # only a stopped tape resumes


def test_instant_loading_passes_a_stop_the_tape_block():
    m = Spectrum48(roms.ROM_PATH)
    for _ in range(20):
        m.run_frame()
    player = TapePlayer(stop_the_tape_blocks())
    install_tape(m, player, SYM, instant=True)
    player.play()
    for dest, length, data in ((0x9000, 10, b"first file"), (0x9100, 11, b"second file")):
        regs = m.call(SYM["LD_BYTES"], max_frames=50, ix=dest, de=length, a=0xFF, f=0x01)
        assert regs["f"] & 1 and bytes(m.memory[dest:dest + length]) == data


def damaged_tape():
    """The game's tape without its loading picture (the loader program without LOAD "" SCREEN$:
    22 s of tape, not 70), one bit of the machine code flipped, checksum kept."""
    blocks = make_tape.tape_blocks()
    code_start = MC["USR_ENTRY"]
    listing = [line for line in make_tape.loader_listing(code_start) if "SCREEN$" not in line[1]]
    program = b"".join(encode_line(number, items) for number, items in listing)
    blocks[0:4] = [
        standard_block(make_tap_block(0x00, header_payload(
            0, make_tape.PROGRAM_NAME, len(program), make_tape.AUTOSTART_LINE, len(program)))),
        standard_block(make_tap_block(0xFF, program))]
    code = bytearray(blocks[3].data)
    code[300] ^= 0x10
    blocks[3] = standard_block(bytes(code))
    return blocks


class _SeenEnough(Exception):
    """Ends a headless load once a test has seen what it came for."""


def test_damaged_block_shows_r_tape_loading_error_and_a_key_retries():
    m = Spectrum48(roms.ROM_PATH)
    events, seen = [], []

    def on_frame(loader):
        seen[:] = [loader]
        if loader.state == "error" and (not events or events[-1] == "retry"):
            events.append("error")
            assert find_text(m, "R Tape loading error") == (23, 0)
            assert find_text(m, "Press a key to try again") == (22, 0)
            m.keyboard.press("Y")
            if len(events) == 3:
                raise _SeenEnough                     # error, retry, error: no need to go on
        elif loader.state == "error" and events[-1] == "error" and m.peek(SYM["FLAGS"]) & 0x20 == 0:
            m.keyboard.release_all()                  # the ROM has seen the key
        elif loader.state == "loading" and events and events[-1] == "error":
            events.append("retry")

    with pytest.raises(_SeenEnough):
        load_headless(m, "fast", tape=damaged_tape(), on_frame=on_frame, max_frames=4000)
    loader = seen[0]
    assert events == ["error", "retry", "error"]
    assert not loader.skipped                         # the retry key did not skip the load
    assert loader.headers == ["BACKGAMMON"]           # the program loaded, the code did not


def test_damaged_block_is_caught_by_the_z80_loader_too():
    m = Spectrum48(roms.ROM_PATH)
    blocks = damaged_tape()[2:4]               # the code's header and its damaged data
    player = TapePlayer(blocks)
    for _ in range(20):
        m.run_frame()
    install_tape(m, player, SYM)
    player.play()
    regs = m.call(SYM["LOAD_FILE"], max_frames=4000, a=3, hl=MC["USR_ENTRY"])
    assert not regs["f"] & 1 and m.peek(SYM["ERR_NR"]) == SYM["ERR_TAPE"]
    assert find_text(m, "R Tape loading error") == (23, 0)


def test_any_key_skips_to_the_end_of_the_load(instant_run):
    m = Spectrum48(roms.ROM_PATH)
    pressed = []

    def on_frame(loader):
        if loader.frames_run > 400 and not pressed:
            m.keyboard.press("K")
            pressed.append(loader.frames_run)
        elif pressed and loader.frames_run > pressed[0] + 2:
            m.keyboard.release_all()

    loader = load_headless(m, "real", on_frame=on_frame, max_frames=2000)
    assert loader.state == "done" and loader.skipped
    assert loader.frames_run < 500                  # real time would be over 3,100 frames
    assert loaded_bytes(m) == loaded_bytes(instant_run[0])


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="fast, real, instant"):
        TapeLoader(Spectrum48(roms.ROM_PATH), None, "turbo", SYM)
