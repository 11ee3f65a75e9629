"""Valid tapes that instant mode loads, loaded as a player sees them too (issue 42): the real
and fast loaders play a TZX that starts with a 2Ah "stop the tape if 48K" block and one with
eight minutes of pauses before its first block; a tape that stops and never gives a file
ends in the loading-error state, never an exception; and LD_BYTES' VERIFY (carry clear) done
by the instant trap compares, as our ROM's own edge-timed LD_BYTES does."""
import pytest

import roms
from game.zx import media
from spectrum import tape as T
from spectrum.loader import LOADING_ERROR, install_tape
from spectrum.machine import Spectrum48
from spectrum.tape_blocks import Block, Tape, make_tap_block, standard_block
from spectrum.tape_player import TapePlayer
from spectrum.tape_trap import LD_OK, LD_VERIFY_FAILED
from spectrum.tzx import write_tzx

SYM = roms.rom_symbols()
MINUTE_MS = 60_000


def game_tape_after(*first) -> Tape:
    """The game's tape with these blocks before it, written as a TZX and read back."""
    blocks = list(first) + T.read_tape(media.TAPE_PATH).blocks
    return T.read_tape(write_tzx(blocks), "odd.tzx")


@pytest.mark.parametrize("mode", ["real", "fast"])
def test_a_tzx_that_starts_with_stop_if_48k_loads_through_the_z80_loader(mode):
    loader = media.load_headless(media.new_machine(), mode,
                                 game_tape_after(Block(0x2A, pause_ms=0)))
    assert (loader.state, loader.error) == ("done", None)
    assert loader.headers[0] == "BACKGAMMON"


@pytest.mark.parametrize("mode", ["real", "fast"])
def test_eight_minutes_of_pauses_before_the_first_block_are_played_through(mode):
    pauses = [Block(0x20, pause_ms=MINUTE_MS) for _ in range(8)]
    loader = media.load_headless(media.new_machine(), mode, game_tape_after(*pauses),
                                 max_frames=40_000)
    assert (loader.state, loader.error) == ("done", None)
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
