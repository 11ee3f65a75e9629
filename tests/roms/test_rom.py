"""Our own ROM: the image re-assembles byte for byte, the symbols Python reads, the font's
shape, reset and system variables, the IM 1 keyboard scan, RST 10h printing with control
codes, scrolling, BORDER, the standard entry points' register conventions (KEY-SCAN, CL-ALL,
CL-SET, CHAN-OPEN), BEEPER's 48K timing, and LD_BYTES (load and verify) on real pulse trains."""
import pathlib
import shutil
import subprocess
from itertools import pairwise

import pytest

import roms
from conftest import missing_tool
from game.zx import media, rom48
from roms.make_font import GLYPHS, font_bytes
from screentext import find_text, screen_text  # noqa: E402
from spectrum import hw
from spectrum.loader import install_tape
from spectrum.machine import Spectrum48
from spectrum.tape_blocks import Block, make_tap_block
from spectrum.tape_player import TapePlayer

SYM = roms.rom_symbols()


def need_pasmo():
    if shutil.which("pasmo") is None:
        missing_tool("pasmo is not installed (.ci/run installs it)")


def assemble(source: pathlib.Path, tmp_path) -> tuple:
    out, sym = tmp_path / "out.bin", tmp_path / "out.sym"
    subprocess.run(["pasmo", "--bin", source.name, str(out), str(sym)], cwd=source.parent,
                   check=True, capture_output=True)
    return out.read_bytes(), sym.read_text()


def booted() -> Spectrum48:
    m = Spectrum48(roms.ROM_PATH)
    for _ in range(30):
        m.run_frame()
    assert SYM["IDLE"] <= m.cpu.pc < SYM["IDLE_END"]
    return m


# ---------------------------------------------------------------- the image and symbols
def test_rom_source_reassembles_to_the_committed_image_byte_for_byte(tmp_path):
    need_pasmo()
    image, sym = assemble(pathlib.Path(roms.ROM_SOURCE), tmp_path)
    assert len(image) == hw.ROM_BYTES
    assert image == roms.load_rom()
    assert roms.parse_symbols(sym) == SYM


def test_mcode_reassembles_and_exports_usr_entry_and_params(tmp_path):
    need_pasmo()
    image, sym = assemble(pathlib.Path(media.MCODE_SOURCE), tmp_path)
    assert image == media.load_mcode()
    symbols = roms.parse_symbols(sym)
    assert symbols == media.mcode_symbols()
    assert symbols["USR_ENTRY"] == 0xF000 and image[0] == 0xC9          # a single RET
    assert symbols["PARAMS"] == symbols["USR_ENTRY"] + 1
    assert symbols["MCODE_END"] - symbols["PARAMS"] == 512


def test_system_variables_sit_at_their_usual_48k_addresses():
    usual = {"KSTATE": 23552, "LAST_K": 23560, "REPDEL": 23561, "REPPER": 23562,
             "CHARS": 23606, "ERR_NR": 23610, "FLAGS": 23611, "BORDCR": 23624,
             "FRAMES": 23672, "UDG": 23675, "DF_CC": 23684, "S_POSN": 23688,
             "ATTR_P": 23693, "MASK_P": 23694, "ATTR_T": 23695, "MASK_T": 23696,
             "P_FLAG": 23697, "RAMTOP": 23730, "P_RAMT": 23732}
    assert {name: SYM[name] for name in usual} == usual
    assert SYM["IM1_HANDLER"] == hw.IM1_VECTOR and SYM["NMI_HANDLER"] == hw.NMI_VECTOR
    assert SYM["PRINT_RST"] == 0x10 and SYM["FONT"] == SYM["FONT_END"] - 768


def test_the_standard_entry_points_the_game_uses_are_where_the_48k_has_them():
    for name in ("KEY_SCAN", "KEYBOARD", "BEEPER", "LD_BYTES", "CL_ALL", "CL_SET", "CHAN_OPEN"):
        assert SYM[name] == rom48.ENTRY_POINTS[name], name
    assert SYM["PRINT_RST"] == rom48.RST_PRINT_A and SYM["IM1_HANDLER"] == rom48.IM1_MASK_INT
    for name, address in rom48.SYSTEM_VARIABLES.items():
        if name in SYM:
            assert SYM[name] == address, name


def test_between_the_entry_points_the_rom_is_empty():
    """Up to CHAN-OPEN, only the restarts, the IM 1 and NMI handlers and a JP at each
    standard entry point hold code: every other byte is FFh (nothing to call by mistake)."""
    image = roms.load_rom()
    used = set(range(0, 4)) | set(range(0x08, 0x0B)) | set(range(0x10, 0x13))
    used |= set(range(SYM["IM1_HANDLER"], SYM["NMI_HANDLER"] + 2))
    for address in rom48.ENTRY_POINTS.values():
        if address not in (rom48.RST_PRINT_A, rom48.IM1_MASK_INT, rom48.CLS):
            assert image[address] == 0xC3, hex(address)                   # JP to our routine
            used |= set(range(address, address + 3))
    assert image[rom48.CLS] == 0xFF                                       # no CLS at 0D6Bh
    stray = [hex(a) for a in range(rom48.CHAN_OPEN + 3) if a not in used and image[a] != 0xFF]
    assert stray == []


def test_missing_or_wrong_sized_rom_image_gives_an_error_naming_the_file(tmp_path):
    with pytest.raises(roms.RomFileError, match="nothere.bin"):
        roms.load_rom(str(tmp_path / "nothere.bin"))
    short = tmp_path / "short.bin"
    short.write_bytes(bytes(100))
    with pytest.raises(roms.RomFileError, match=r"short\.bin.*100 bytes.*16384"):
        roms.load_rom(str(short))


def test_symbol_parser_rejects_a_line_that_is_not_pasmo_output():
    assert roms.parse_symbols("FOO\t\tEQU 0ABCDH\nBAR EQU 00000H\n") == {"FOO": 0xABCD, "BAR": 0}
    with pytest.raises(roms.RomFileError, match="line 2"):
        roms.parse_symbols("FOO\t\tEQU 0ABCDH\nnonsense\n")


# ---------------------------------------------------------------- the font
def test_font_has_96_glyphs_with_top_row_and_left_column_blank():
    data = font_bytes()
    assert len(GLYPHS) == 96 and len(data) == 768
    assert roms.load_rom()[SYM["FONT"]:SYM["FONT_END"]] == data
    for code in range(32, 128):
        glyph = data[8 * (code - 32):8 * (code - 31)]
        assert glyph[0] == 0, chr(code)
        assert all(row & 0x80 == 0 for row in glyph), chr(code)


def test_every_printable_glyph_is_drawn_and_distinct():
    data = font_bytes()
    glyphs = [data[i:i + 8] for i in range(8, 768, 8)]         # 33..127
    assert all(any(g) for g in glyphs)
    assert len(set(glyphs)) == len(glyphs)


# ---------------------------------------------------------------- reset and interrupts
def test_reset_sets_system_variables_and_counts_frames():
    m = booted()
    assert m.peek_word(SYM["CHARS"]) == SYM["FONT"] - 256 == 15360
    assert m.peek_word(SYM["UDG"]) == hw.UDG_DEFAULT
    assert m.peek_word(SYM["RAMTOP"]) == hw.RAMTOP_DEFAULT
    assert m.peek(SYM["ATTR_P"]) == hw.DEFAULT_ATTR and m.peek(SYM["BORDCR"]) == 56
    assert (m.peek(SYM["REPDEL"]), m.peek(SYM["REPPER"])) == (35, 5)
    assert m.peek(SYM["ERR_NR"]) == 0xFF
    # the UDGs start as copies of A..U
    udg = m.peek_word(SYM["UDG"])
    assert bytes(m.memory[udg:udg + 8]) == font_bytes()[8 * 33:8 * 34]
    frames = m.peek_word(SYM["FRAMES"])
    for _ in range(10):
        m.run_frame()
    assert m.peek_word(SYM["FRAMES"]) == frames + 10
    assert find_text(m, "Spectrum Backgammon ROM") == (23, 2)


def test_im1_puts_a_new_key_in_last_k_sets_flags_bit5_and_repeats_after_repdel():
    m = booted()
    m.poke(SYM["FLAGS"], 0)
    m.keyboard.press("A")
    m.run_frame()
    assert m.peek(SYM["LAST_K"]) == ord("a") and m.peek(SYM["FLAGS"]) & 0x20
    m.poke(SYM["FLAGS"], 0)
    for _ in range(33):
        m.run_frame()
    assert not m.peek(SYM["FLAGS"]) & 0x20                       # not yet: REPDEL is 35
    for _ in range(2):
        m.run_frame()
    assert m.peek(SYM["FLAGS"]) & 0x20                           # the first repeat
    m.keyboard.release_all()
    m.keyboard.press("CAPS SHIFT")
    m.keyboard.press("Q")
    m.run_frame()
    assert m.peek(SYM["LAST_K"]) == ord("Q")
    m.keyboard.release_all()
    m.keyboard.press("SYMBOL SHIFT")
    m.keyboard.press("L")
    m.run_frame()
    assert m.peek(SYM["LAST_K"]) == ord("=")
    m.keyboard.release_all()
    m.keyboard.press("ENTER")
    m.run_frame()
    assert m.peek(SYM["LAST_K"]) == 13


# ---------------------------------------------------------------- printing
def pr(m, data: bytes) -> None:
    m.load(SYM["HOST_BUF"], data)
    m.call(SYM["PR_STRING"], hl=SYM["HOST_BUF"], bc=len(data))


def attr_at(m, line, column):
    return m.peek(0x5800 + 32 * line + column)


def test_print_handles_at_ink_paper_bright_flash_and_inverse():
    m = booted()
    m.call(SYM["CLS"])
    pr(m, bytes([22, 5, 3, 16, 2, 17, 6, 19, 1, 18, 1]) + b"Hi" + bytes([20, 1]) + b"There")
    assert find_text(m, "HiThere") == (5, 3)
    assert attr_at(m, 5, 3) == 0x80 | 0x40 | 6 << 3 | 2
    assert bytes(m.memory[0x4000 + 5 * 32 + 5:][:1]) != b""      # inverse cells read back too
    assert screen_text(m)[5][5] == "T"
    top = m.peek(0x4000 + (5 & 7) * 32 + 5 + 256)                 # pixel row 1 of 'T' inverted
    assert top == font_bytes()[8 * (ord("T") - 32) + 1] ^ 0xFF
    pr(m, bytes([22, 23, 31]) + b"ab")                            # wraps past line 23: scrolls
    lines = screen_text(m)
    assert lines[22][31] == "a" and lines[23][0] == "b" and lines[4][3:10] == "HiThere"


def test_enter_moves_to_the_next_line_and_udgs_print_from_the_udg_address():
    m = booted()
    m.call(SYM["CLS"])
    pr(m, b"one\rtwo" + bytes([144]))
    lines = screen_text(m)
    assert lines[0].startswith("one") and lines[1].startswith("twoA")   # UDG A = copy of 'A'


def test_border_sets_the_border_and_bordcr():
    m = booted()
    m.call(SYM["BORDER"], a=1)
    assert m.ula.border == 1 and m.peek(SYM["BORDCR"]) == 1 * 8 + 7
    m.call(SYM["BORDER"], a=6)
    assert m.ula.border == 6 and m.peek(SYM["BORDCR"]) == 6 * 8


def speaker_changes(m, routine):
    """(T-state, level) of each change of the speaker bit while routine() runs."""
    edges, out = [], m.ula.port_out
    level = None

    def spy(port, value, tstates):
        nonlocal level
        if not port & 1 and (value & 0x10) != level:
            level = value & 0x10
            edges.append((tstates + m.frame_count * hw.TSTATES_PER_FRAME, level >> 4))
        out(port, value, tstates)
    m.cpu.port_out = spy
    try:
        routine()
    finally:
        m.cpu.port_out = out
    return edges


@pytest.mark.parametrize("hl", [0, 1, 2, 3, 4, 7, 63, 64, 255, 256, 257, 1000, 16383, 40000])
def test_beeper_half_cycles_last_118_plus_4_t_per_count_and_de_plus_1_cycles_sound(hl):
    m = booted()
    de = 3
    changes = speaker_changes(m, lambda: m.call(rom48.BEEPER, hl=hl, de=de))
    assert [level for _, level in changes] == [1, 0] * (de + 1)       # first half high
    halves = {b - a for (a, _), (b, _) in pairwise(changes)}
    # each OUT to the ULA waits 0-6 T while the ULA fetches the screen (I/O contention): a half
    # cycle lasts its nominal T-states plus that wait, never less
    nominal = rom48.BEEPER_HALF_FIXED_T + rom48.BEEPER_HALF_PER_COUNT_T * hl
    assert halves <= set(range(nominal, nominal + max(hw.CONTENTION_DELAYS) + 1)), (halves, nominal)


def test_beeper_leaves_interrupts_on():
    m = booted()
    assert m.call(rom48.BEEPER, hl=10, de=0)["iff1"] == 1


# ---------------------------------------------------------------- the standard entry points
def scan(m, *keys):
    m.keyboard.release_all()
    for key in keys:
        m.keyboard.press(key)
    regs = m.call(rom48.KEY_SCAN)
    m.keyboard.release_all()
    return regs["d"], regs["e"], bool(regs["f"] & 0x40)


def test_key_scan_gives_key_values_shift_in_d_and_zero_for_a_valid_combination():
    m = booted()
    assert scan(m) == (0xFF, 0xFF, True)
    assert scan(m, "B") == (0xFF, 0x00, True)                      # 27h - row 7 - 8 * 4
    assert scan(m, "1") == (0xFF, 0x24, True)
    assert scan(m, "ENTER") == (0xFF, 0x21, True)
    assert scan(m, "CAPS SHIFT") == (0xFF, 0x27, True)             # a shift alone is in E
    assert scan(m, "CAPS SHIFT", "Q") == (0x27, 0x25, True)
    assert scan(m, "SYMBOL SHIFT", "M") == (0x18, 0x10, True)
    assert scan(m, "SYMBOL SHIFT", "B") == (0x18, 0x00, True)      # found after the shift
    assert scan(m, "CAPS SHIFT", "SYMBOL SHIFT") == (0x27, 0x18, True)
    assert scan(m, "A", "S")[2] is False                           # two keys, no shift
    assert scan(m, "CAPS SHIFT", "A", "S")[2] is False             # three keys


def pr_codes(m, codes: bytes) -> None:
    for code in codes:
        m.call(rom48.RST_PRINT_A, a=code)


def test_cl_set_puts_the_print_position_on_line_23_and_chan_open_drops_a_pending_code():
    m = booted()
    m.call(rom48.CL_ALL)
    m.call(rom48.CL_SET, b=24 - 23, c=33 - 5)
    pr_codes(m, b"low")
    assert find_text(m, "low") == (23, 5)
    pr_codes(m, bytes([22]))                                       # AT waiting for its line
    m.call(rom48.CHAN_OPEN, a=rom48.STREAM_UPPER_SCREEN)
    pr_codes(m, b"Q")
    assert screen_text(m)[23][8] == "Q"


def test_cl_all_clears_to_attr_p_leaves_the_border_and_homes_the_print_position():
    m = booted()
    m.call(SYM["BORDER"], a=2)
    pr_codes(m, bytes([22, 10, 10]) + b"x")
    m.poke(rom48.ATTR_P, 0x0E)
    m.call(rom48.CL_ALL)
    assert set(m.memory[0x4000:0x5800]) == {0} and set(m.memory[0x5800:0x5B00]) == {0x0E}
    assert m.ula.border == 2
    pr_codes(m, b"h")
    assert find_text(m, "h") == (0, 0)


# ---------------------------------------------------------------- LD_BYTES on pulse trains
def load_block(m, block: Block, length: int, flag: int, dest: int = 0x8000, load=True):
    player = TapePlayer([block])
    install_tape(m, player, SYM)
    player.play()
    return m.call(rom48.LD_BYTES, max_frames=600, ix=dest, de=length, a=flag, f=0x01 if load else 0)


@pytest.mark.parametrize("scale", [0.85, 1.0, 1.2])
def test_ld_bytes_loads_pulse_trains_from_15_percent_short_to_20_percent_long(scale):
    m = booted()
    payload = bytes(range(256))[::7] + b"\xff" * 8 + b"\x00" * 8
    block = Block(0x11, make_tap_block(0xFF, payload), pilot_pulses=800, pause_ms=50)
    for name in ("pilot_tstates", "sync1_tstates", "sync2_tstates", "bit0_tstates", "bit1_tstates"):
        setattr(block, name, round(getattr(block, name) * scale))
    regs = load_block(m, block, len(payload), 0xFF)
    assert regs["f"] & 1 and regs["a"] == 0
    assert bytes(m.memory[0x8000:0x8000 + len(payload)]) == payload
    assert regs["ix"] == 0x8000 + len(payload) and regs["de"] == 0
    assert m.ula.border == m.peek(SYM["BORDCR"]) >> 3 & 7         # border put back


def test_ld_bytes_detects_a_damaged_checksum():
    m = booted()
    data = bytearray(make_tap_block(0xFF, b"backgammon"))
    data[-1] ^= 0x55
    regs = load_block(m, Block(0x11, bytes(data), pilot_pulses=800, pause_ms=50), 10, 0xFF)
    assert not regs["f"] & 1 and regs["a"] == SYM["LDERR_CHECKSUM"]


def test_ld_bytes_passes_over_a_block_with_another_flag():
    m = booted()
    blocks = [Block(0x11, make_tap_block(0x00, b"header-ish"), pilot_pulses=800, pause_ms=50),
              Block(0x11, make_tap_block(0xFF, b"the data!!"), pilot_pulses=800, pause_ms=50)]
    player = TapePlayer(blocks)
    install_tape(m, player, SYM)
    player.play()
    regs = m.call(SYM["LD_BYTES"], max_frames=600, ix=0x8000, de=10, a=0xFF, f=0x01)
    assert regs["f"] & 1 and bytes(m.memory[0x8000:0x800A]) == b"the data!!"


def test_ld_bytes_with_carry_clear_verifies_instead_of_loading():
    m = booted()
    payload = b"verify me!"
    block = Block(0x11, make_tap_block(0xFF, payload), pilot_pulses=800, pause_ms=50)
    m.load(0x8000, payload)
    regs = load_block(m, block, len(payload), 0xFF, load=False)
    assert regs["f"] & 1
    m.load(0x8000, b"verify mE!")
    regs = load_block(m, block, len(payload), 0xFF, load=False)
    assert not regs["f"] & 1 and regs["a"] == SYM["LDERR_VERIFY"]
    assert bytes(m.memory[0x8000:0x800A]) == b"verify mE!"             # nothing stored


def test_space_breaks_ld_bytes():
    m = booted()
    player = TapePlayer([])
    install_tape(m, player, SYM)
    m.keyboard.press("SPACE")
    regs = m.call(SYM["LD_BYTES"], max_frames=10, ix=0x8000, de=10, a=0xFF, f=0x01)
    assert not regs["f"] & 1 and regs["a"] == SYM["LDERR_BREAK"]


def test_a_damaged_font_drawing_is_refused_naming_its_line():
    from roms.make_font import FontFileError, parse_drawing
    assert parse_drawing("33 !\n" + "..##...\n" * 7)["!"] == ["..##..."] * 7
    with pytest.raises(FontFileError, match="line 3: glyph 33 needs 7 rows of 7"):
        parse_drawing("# a comment\n33 !\n..##..\n" + "..##...\n" * 6)
    with pytest.raises(FontFileError, match="line 1: not 'code name'"):
        parse_drawing("bang !\n")


def test_font_asm_is_what_make_font_writes():
    from roms.make_font import font_asm
    assert (pathlib.Path(roms.ROM_DIR) / "font.asm").read_text() == font_asm()
