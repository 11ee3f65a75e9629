"""Valid tapes that instant mode loads, loaded as a player sees them too (issue 42): the real
and fast loaders play a TZX that starts with a 2Ah "stop the tape if 48K" block and one with
eight minutes of pauses before its first block; a tape that stops and never gives a file
ends in the loading-error state, never an exception; and LD_BYTES' VERIFY (carry clear) done
by the instant trap compares, as our ROM's own edge-timed LD_BYTES does. After the odd blocks
comes the game's tape without its loading picture (its program and machine code: 22 s of tape
where the whole is 70; the loading picture's own loading is tests/spectrum/test_loader.py's)."""
import pytest

import roms
from game.zx import make_tape, media
from spectrum import tape as T
from spectrum.loader import LOADING_ERROR, encode_line, install_tape
from spectrum.machine import Spectrum48
from spectrum.tape_blocks import Block, Tape, header_payload, make_tap_block, standard_block
from spectrum.tape_player import TapePlayer
from spectrum.tape_trap import LD_OK, LD_VERIFY_FAILED
from spectrum.tzx import write_tzx

SYM = roms.rom_symbols()
MINUTE_MS = 60_000


CODE_START = media.mcode_symbols()["USR_ENTRY"]


def game_tape_after(*first) -> Tape:
    """The game's tape without its loading picture (the loader program without its LOAD ""
    SCREEN$, then the machine code's header and data) with these blocks before it, written as a
    TZX and read back."""
    listing = [line for line in make_tape.loader_listing(CODE_START) if "SCREEN$" not in line[1]]
    program = b"".join(encode_line(number, items) for number, items in listing)
    game = make_tape.tape_blocks()
    blocks = list(first) + [
        standard_block(make_tap_block(0x00, header_payload(
            0, make_tape.PROGRAM_NAME, len(program), make_tape.AUTOSTART_LINE, len(program)))),
        standard_block(make_tap_block(0xFF, program)), *game[4:]]
    return T.read_tape(write_tzx(blocks), "odd.tzx")


GAME_LOADED = ("done", None, ["BACKGAMMON", "bgcode"], True)


def how_it_loaded(machine, loader):
    """(state, error, headers read, the machine code in memory byte for byte)"""
    code = media.load_mcode()
    in_memory = bytes(machine.memory[CODE_START:CODE_START + len(code)]) == code
    return loader.state, loader.error, loader.headers, in_memory


@pytest.mark.parametrize("mode", ["real", "fast"])
def test_a_tzx_that_starts_with_stop_if_48k_loads_through_the_z80_loader(mode):
    machine = media.new_machine()
    loader = media.load_headless(machine, mode, game_tape_after(Block(0x2A, pause_ms=0)))
    assert how_it_loaded(machine, loader) == GAME_LOADED


@pytest.mark.parametrize("mode", ["real", "fast"])
def test_eight_minutes_of_pauses_before_the_first_block_are_played_through(mode):
    pauses = [Block(0x20, pause_ms=MINUTE_MS) for _ in range(8)]
    machine = media.new_machine()
    loader = media.load_headless(machine, mode, game_tape_after(*pauses), max_frames=40_000)
    assert how_it_loaded(machine, loader) == GAME_LOADED
    assert loader.frames_run > 8 * 60 * 50                  # the pauses were waited out


@pytest.mark.parametrize("mode", ["real", "fast"])
def test_a_tape_that_stops_and_has_no_file_ends_in_the_loading_error_state(mode):
    tape = T.read_tape(write_tzx([Block(0x2A, pause_ms=0)]), "stop-only.tzx")
    loader = media.load_headless(media.new_machine(), mode, tape)
    assert (loader.state, loader.error) == ("error", LOADING_ERROR)


def verify_run(instant: bool, memory_bytes: bytes):
    """LD_BYTES called with carry clear (VERIFY) on a block holding b"backgammon", memory at
    0x9000 holding memory_bytes: (carry, A, IX, DE, memory after)."""
    m = Spectrum48(roms.ROM_PATH)
    for _ in range(20):
        m.run_frame()
    m.load(0x9000, memory_bytes)
    block = standard_block(make_tap_block(0xFF, b"backgammon"))
    player = TapePlayer([block])
    install_tape(m, player, SYM, instant=instant)
    player.play()
    regs = m.call(SYM["LD_BYTES"], max_frames=500, ix=0x9000, de=10, a=0xFF, f=0x00)
    return regs["f"] & 1, regs["a"], regs["ix"], regs["de"], bytes(m.memory[0x9000:0x900A])


@pytest.mark.parametrize("held", [b"backgammon", b"backGammon", b"xxxxxxxxxx"])
def test_verify_compares_and_writes_nothing_as_our_rom_loader_does(held):
    instant, real = verify_run(True, held), verify_run(False, held)
    assert instant == real
    carry, a, ix, de, after = instant
    assert after == held                                    # VERIFY never writes
    if held == b"backgammon":
        assert (carry, a, de) == (1, LD_OK, 0)
    else:
        differs = next(k for k in range(10) if held[k] != b"backgammon"[k])
        assert (carry, a, ix, de) == (0, LD_VERIFY_FAILED, 0x9000 + differs, 10 - differs)
