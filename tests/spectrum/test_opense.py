"""The game on a genuine replacement 48K ROM, OpenSE BASIC (Debian's opense-basic): it passes
--rom's checks and boots to its own copyright line; LOAD "" is typed key by key on the
emulated keyboard; its own loader reads the tape's edges (real timing, not the instant
trap); then the game runs to "Your move?", takes a legal and an illegal entry and QUIT, with
the screen read back from screen memory; and the board after the same seeded opening is the
same, byte for byte, as on our ROM. Its BEEPER has the timing game/zx/rom48.py gives. The
tape's "Wait until machine code loaded" leaves the loading picture unscrolled on it, and on
the Sinclair 48K ROM as SkoolKit's tap2sna.py loads our tape.
Skipped when the ROM (or SkoolKit) is absent, unless SPECTRUM_REQUIRE_SHARED=1 (CI installs it)."""
import os
import subprocess
import sys
from itertools import pairwise

import pytest

import roms
from conftest import missing_tool
from game.model.dice import Dice
from game.zx import media, rom48, romcheck
from gamedriver import MachineDriver
from loading_picture import MESSAGE, PICTURE_LINES_KEPT, picture_lines_shown
from screentext import find_text, screen_text
from spectrum import hw
from spectrum.machine import Spectrum48

OPENSE_ROM = os.environ.get("SPECTRUM_OPENSE_ROM", "/usr/share/spectrum-roms/opense.rom")
OPENING = (1, 4)                          # "You start with 4 and 1"
FRAMES_PER_KEY = 12                       # 6 down, 6 up: the 48K's KEYBOARD sees the same key
                                          # again only after 5 frames without it
FONT_COPY = 0xE000                        # free RAM for a copy of OpenSE's font


@pytest.fixture(scope="module")
def opense_path():
    if not os.path.exists(OPENSE_ROM):
        missing_tool(f"{OPENSE_ROM} is not installed (apt-get install opense-basic; "
                     f".ci/run installs it)")
    return OPENSE_ROM


@pytest.fixture(scope="module")
def loaded(opense_path):
    """OpenSE booted, LOAD "" typed by the autoloader, the tape read by OpenSE's LD-BYTES
    from the pulses ("real" mode: one emulated frame per step, edges at their T-states)."""
    machine = romcheck.machine_for(opense_path, autoload=True)
    frames_before = machine.frame_count
    load = romcheck.load_headless(machine, "real", max_frames=6000)
    assert load.state == "done", load.error
    return machine, load, machine.frame_count - frames_before, screen_text(machine)


@pytest.fixture(scope="module")
def at_your_move(loaded):
    machine, *_ = loaded
    driver = MachineDriver(dice=Dice.scripted(list(OPENING)), machine=machine,
                           frames_per_key=FRAMES_PER_KEY)
    driver.until("Your move?", max_frames=900)
    return driver, bytes(machine.memory[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES])


def test_opense_passes_the_checks_and_boots_to_its_own_copyright_line(opense_path):
    machine = Spectrum48(romcheck.read_rom_image(opense_path))
    frames = romcheck.boot_to_prompt(machine, opense_path)
    assert frames < romcheck.BOOT_LIMIT_FRAMES
    assert "Nine Tiles Networks" in screen_text(machine)[23]
    romcheck.check_prints(machine, opense_path)
    assert "Nine Tiles Networks" in screen_text(machine)[23]      # the check put RAM back


def test_load_typed_letter_by_letter_and_the_tape_read_from_its_edges(loaded):
    machine, load, frames, text = loaded
    assert load.typed == romcheck.LETTER_TYPING          # OpenSE spells keywords out
    assert load.loads == 6                               # three headers, three data blocks
    assert rom48.LD_SAMPLE in load._traps                # its loader is the 48K's own loop
    tape_frames = load.player.length_tstates / hw.TSTATES_PER_FRAME
    assert frames >= tape_frames > 3000                  # the tape's own time, not a trap's
    code = media.load_mcode()
    start = media.mcode_symbols()["USR_ENTRY"]
    assert bytes(machine.memory[start:start + len(code)]) == code
    assert any("Wait until machine code loaded" in line for line in text)
    assert any("bgcode" in line for line in text)       # OpenSE's own "Code: bgcode"


def test_wait_message_leaves_the_pictures_top_20_lines_unscrolled_on_opense(loaded):
    machine, load, *_ = loaded                 # real edge timing, the code block loaded
    assert load.code_loaded()
    assert picture_lines_shown(machine)[:PICTURE_LINES_KEPT] == list(range(PICTURE_LINES_KEPT))
    assert find_text(machine, MESSAGE) == (PICTURE_LINES_KEPT, 1)
    assert find_text(machine, "Code: bgcode") == (PICTURE_LINES_KEPT + 1, 0)   # OpenSE's own


def test_the_game_takes_entries_on_opense(at_your_move):
    driver, _ = at_your_move
    driver.type("k4\n")
    driver.until("No man on k. Press ENTER", max_frames=200)
    driver.type("\n")
    driver.until("Your move?", max_frames=200)
    before = driver.game.state.position
    driver.type("4M\n")
    driver.run(3)
    assert driver.game.state.position != before
    driver.type("F1\n")
    driver.until("I play", max_frames=900)
    driver.until("Your move?", max_frames=900)
    driver.resign_single(max_frames=900)
    driver.until("The opening throw", max_frames=300)
    assert len(driver.games) == 2


def test_board_after_the_same_opening_is_byte_for_byte_our_roms(loaded, at_your_move):
    """Our ROM's game, with CHARS at a RAM copy of OpenSE's font (a system variable both
    ROMs' RST 10h honour), against OpenSE's: every pixel byte and attribute the same."""
    opense_machine = loaded[0]
    _, opense_screen = at_your_move
    chars = opense_machine.peek_word(rom48.CHARS)
    font = bytes(opense_machine.memory[chars + 256:chars + 256 + 768])
    ours = Spectrum48(roms.ROM_PATH)
    for _ in range(50):
        ours.run_frame()
    ours.load(FONT_COPY, font)
    ours.poke_word(rom48.CHARS, FONT_COPY - 256)
    driver = MachineDriver(dice=Dice.scripted(list(OPENING)), machine=ours)
    driver.until("Your move?", max_frames=900)
    our_screen = bytes(ours.memory[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES])
    different = [i for i in range(hw.SCREEN_BYTES) if our_screen[i] != opense_screen[i]]
    assert different == [], (f"{len(different)} bytes differ, "
                             f"first at {hw.SCREEN_ADDR + different[0]:#06x}")
    assert find_text(ours, "Your move?") == (23, 0)


def test_opense_beeper_has_the_timing_the_game_computes_with(opense_path):
    machine = Spectrum48(romcheck.read_rom_image(opense_path))
    romcheck.boot_to_prompt(machine, opense_path)
    changes, out = [], machine.ula.port_out

    def spy(port, value, tstates):
        if not port & 1 and (not changes or changes[-1][1] != value & 0x10):
            changes.append((tstates + machine.frame_count * hw.TSTATES_PER_FRAME, value & 0x10))
        out(port, value, tstates)
    machine.cpu.port_out = spy
    de, hl = rom48.beeper_registers(100, 440)
    machine.call(rom48.BEEPER, de=de, hl=hl)
    halves = {b[0] - a[0] for a, b in pairwise(changes)}
    # plus the I/O wait, 0-6 T
    nominal = rom48.BEEPER_HALF_FIXED_T + rom48.BEEPER_HALF_PER_COUNT_T * hl
    assert nominal in halves
    assert halves <= set(range(nominal, nominal + max(hw.CONTENTION_DELAYS) + 1))
    assert len(changes) == 2 * (de + 1)


def test_a_tape_loading_error_is_reported_by_the_rom_and_the_tape_rewound(opense_path):
    from spectrum import tape as T
    from spectrum.tape_blocks import standard_block
    blocks = T.read_tape(media.TAPE_PATH).blocks
    damaged = bytearray(blocks[-1].data)
    damaged[100] ^= 0xFF                                   # the code block's checksum fails
    blocks[-1] = standard_block(bytes(damaged))
    machine = romcheck.machine_for(opense_path, autoload=True)
    load = romcheck.ForeignLoad(machine, "instant", T.write_tap(blocks), autoload=True)
    frames = load.frames()
    for _ in range(3000):
        next(frames)
        machine.run_frame()
        if load.state == "error":
            break
    assert (load.state, load.error, load.rewinds) == ("error", romcheck.NOT_LOADED, 1)
    assert any("loading error" in line.lower() for line in screen_text(machine)[21:])  # its own
    assert not load.code_loaded() and machine.cpu.pc < hw.ROM_BYTES   # the game has not begun
    assert load.player.tape_tstates <= 0 and not load.player.playing     # rewound, stopped


def sinclair_rom_path():
    """The 48K ROM image SkoolKit ships for its tape tools (a test dependency), if there."""
    try:
        import skoolkit
    except ImportError:
        return None
    path = os.path.join(os.path.dirname(skoolkit.__file__), "resources", "48.rom")
    return path if os.path.exists(path) else None


def test_the_48k_rom_takes_load_the_keyword_way_and_runs_the_same_game():
    """The Sinclair ROM itself (from SkoolKit, never shipped here): J, SYMBOL SHIFT+P twice,
    ENTER; its loader (instant here: OpenSE shows the edges); then the same opening screen
    as on our ROM: its text rows and every attribute (the pixels differ by font)."""
    path = sinclair_rom_path()
    if path is None:
        missing_tool("SkoolKit (with resources/48.rom) is not installed (pip install skoolkit)")
    machine = romcheck.machine_for(path, autoload=True)
    load = romcheck.load_headless(machine, "instant", max_frames=3000)
    assert load.state == "done", load.error
    assert load.typed == romcheck.KEYWORD_TYPING
    assert any("Bytes: bgcode" in line for line in screen_text(machine))
    theirs = MachineDriver(dice=Dice.scripted(list(OPENING)), machine=machine,
                           frames_per_key=FRAMES_PER_KEY)
    theirs.until("Your move?", max_frames=900)
    ours = MachineDriver(dice=Dice.scripted(list(OPENING)))
    ours.until("Your move?", max_frames=900)
    text_rows = (0, 22, 23)                    # the point letters and the message line
    assert [theirs.text()[r] for r in text_rows] == [ours.text()[r] for r in text_rows]
    attrs = slice(hw.ATTR_ADDR, hw.ATTR_ADDR + hw.ATTR_BYTES)
    assert machine.memory[attrs] == ours.machine.memory[attrs]
    theirs.type("k4\n")
    theirs.until("No man on k. Press ENTER", max_frames=200)


def test_wait_message_leaves_the_pictures_top_20_lines_unscrolled_on_the_48k_rom(tmp_path):
    """SkoolKit's tap2sna.py types LOAD "" on its own 48K (the Sinclair ROM it ships) and runs
    our tape to the loader program's end; the snapshot's screen, read through that ROM's font."""
    path = sinclair_rom_path()
    if path is None:
        missing_tool("SkoolKit (with resources/48.rom) is not installed (pip install skoolkit)")
    from skoolkit.snapshot import get_snapshot
    snapshot = tmp_path / "loaded.z80"
    run = "import sys; from skoolkit.tap2sna import main; main(sys.argv[1:])"
    done = subprocess.run([sys.executable, "-c", run, media.TAPE_PATH, str(snapshot)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and snapshot.exists(), done.stdout + done.stderr
    memory = bytearray(get_snapshot(str(snapshot)))          # 64K, its ROM left blank
    with open(path, "rb") as rom:
        memory[:hw.ROM_BYTES] = rom.read()
    code = media.load_mcode()
    start = media.mcode_symbols()["USR_ENTRY"]
    assert bytes(memory[start:start + len(code)]) == code
    assert picture_lines_shown(memory)[:PICTURE_LINES_KEPT] == list(range(PICTURE_LINES_KEPT))
    assert find_text(memory, MESSAGE) == (PICTURE_LINES_KEPT, 1)
    assert find_text(memory, "Bytes: bgcode") == (PICTURE_LINES_KEPT + 1, 0)
    assert find_text(memory, "0 OK, 50:1") == (23, 0)       # the program ran to its end
