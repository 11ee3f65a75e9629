"""The ULA's picture: bitmap interleave, attribute colours, BRIGHT, FLASH phase, the border
painted per scanline from OUT timestamps; and port 0xFE's output logs."""
import numpy as np
import pytest

from spectrum import hw, ula


def blank_memory(attr=0x38):
    mem = np.zeros(hw.MEMORY_BYTES, np.uint8)
    mem[hw.ATTR_ADDR:hw.ATTR_ADDR + hw.ATTR_BYTES] = attr
    return mem


def rgb(colour, bright=0):
    return tuple(ula.PALETTE[bright * 8 + colour])


def screen(frame):
    return frame[ula.SCREEN_Y:ula.SCREEN_Y + 192, ula.SCREEN_X:ula.SCREEN_X + 256]


def test_bitmap_address_interleave_matches_the_formula_on_every_byte():
    """Light one byte at a time: its 8 pixels, and only those, show INK where the formula says."""
    seen = set()
    for y in range(192):
        for x_byte in range(32):
            addr = 0x4000 + 2048 * (y >> 6) + 256 * (y & 7) + 32 * ((y >> 3) & 7) + x_byte
            assert ula.bitmap_offset(x_byte, y) == addr - 0x4000
            assert ula.BITMAP_OFFSETS[y, x_byte] == addr - 0x4000
            seen.add(addr)
    assert seen == set(range(0x4000, 0x5800))
    assert ula.bitmap_offset(0, 1) == 0x100 and ula.bitmap_offset(0, 8) == 0x20
    assert ula.bitmap_offset(0, 64) == 0x800 and ula.bitmap_offset(31, 191) == 0x17FF


def test_rendered_bitmap_follows_the_interleave_for_every_byte():
    """Every bitmap byte gets a distinct value; the rendered ink pattern decodes back to it."""
    mem = blank_memory(attr=0x07)                       # ink white on paper black
    rng = np.random.default_rng(1)
    mem[0x4000:0x5800] = rng.integers(0, 256, 6144, dtype=np.uint8)
    frame = ula.render(mem, 0, 0, [])
    lit = screen(frame)[:, :, 0] != 0                    # (192, 256)
    packed = np.packbits(lit, axis=1)                    # (192, 32), bit 7 = leftmost
    for y in range(192):
        for x_byte in range(32):
            addr = 0x4000 + 2048 * (y >> 6) + 256 * (y & 7) + 32 * ((y >> 3) & 7) + x_byte
            assert packed[y, x_byte] == mem[addr]


@pytest.mark.parametrize("bright", [0, 1])
def test_attribute_ink_and_paper_colours(bright):
    mem = blank_memory()
    for cell in range(64):
        ink, paper = cell & 7, cell >> 3
        mem[hw.ATTR_ADDR + cell] = bright << 6 | paper << 3 | ink
        row, col = divmod(cell, 32)
        # top pixel line of the cell all ink, the rest paper
        mem[0x4000 + ula.bitmap_offset(col, row * 8)] = 0xFF
    frame = screen(ula.render(mem, 0, 0, []))
    for cell in range(64):
        ink, paper = cell & 7, cell >> 3
        row, col = divmod(cell, 32)
        assert tuple(frame[row * 8, col * 8 + 3]) == rgb(ink, bright)
        assert tuple(frame[row * 8 + 1, col * 8 + 3]) == rgb(paper, bright)


def test_palette_has_15_distinct_colours_with_fuse_levels():
    assert len({tuple(c) for c in ula.PALETTE}) == 15
    assert rgb(0, 1) == rgb(0) == (0, 0, 0)
    assert rgb(1) == (0, 0, 0xC0) and rgb(2) == (0xC0, 0, 0) and rgb(4) == (0, 0xC0, 0)
    assert rgb(7) == (0xC0, 0xC0, 0xC0)
    assert rgb(7, 1) == (255, 255, 255) and rgb(6, 1) == (255, 255, 0)


@pytest.mark.parametrize("frame_number, swapped", [(0, False), (15, False), (16, True),
                                                   (31, True), (32, False)])
def test_flash_swaps_ink_and_paper_every_16_frames(frame_number, swapped):
    mem = blank_memory()
    mem[hw.ATTR_ADDR] = 0x80 | 0x40 | 1 << 3 | 6        # FLASH BRIGHT, paper blue, ink yellow
    mem[hw.ATTR_ADDR + 1] = 1 << 3 | 6                  # same colours without FLASH
    mem[0x4000] = mem[0x4001] = 0xF0                    # left half ink
    frame = screen(ula.render(mem, frame_number, 0, []))
    ink, paper = (rgb(1, 1), rgb(6, 1)) if swapped else (rgb(6, 1), rgb(1, 1))
    assert tuple(frame[0, 0]) == ink and tuple(frame[0, 7]) == paper
    assert tuple(frame[0, 8]) == rgb(6) and tuple(frame[0, 15]) == rgb(1)   # never flashes


def test_border_without_outs_is_one_colour_all_round():
    frame = ula.render(blank_memory(), 0, 2, [])
    red = np.array(rgb(2))
    assert (frame[:24] == red).all() and (frame[216:] == red).all()
    assert (frame[:, :32] == red).all() and (frame[:, 288:] == red).all()
    assert (screen(frame) == np.array(rgb(7))).all()


def test_border_change_mid_frame_starts_at_the_right_scanline():
    """An OUT at the start of scanline 100 (T = 224*100 - 16, the line's first border pixel)
    turns image row 100 - 40 = 60 onwards; the rows above keep the old colour."""
    line = 100
    t = line * hw.TSTATES_PER_LINE - ula.LEFT_EDGE_TSTATES
    frame = ula.render(blank_memory(), 0, 1, [(t, 4)])
    row = line - ula.FIRST_SHOWN_LINE
    assert tuple(frame[row - 1, 0]) == rgb(1) and tuple(frame[row - 1, 319]) == rgb(1)
    assert tuple(frame[row, 0]) == rgb(4) and tuple(frame[row, 319]) == rgb(4)
    assert tuple(frame[239, 0]) == rgb(4)


def test_border_change_partway_along_a_line_splits_that_line():
    """OUT at 40 T into the top border's first shown line: 16 T left border + 24 T
    = pixel 80; 4-T (8-pixel) granularity."""
    t = ula.FIRST_SHOWN_LINE * hw.TSTATES_PER_LINE - ula.LEFT_EDGE_TSTATES + 40
    frame = ula.render(blank_memory(), 0, 0, [(t, 6)])
    assert tuple(frame[0, 79]) == rgb(0) and tuple(frame[0, 80]) == rgb(6)
    assert tuple(frame[1, 0]) == rgb(6)


def test_border_stripes_from_many_outs():
    """Alternating colours every 2 lines (as a loader might) give 2-line stripes."""
    changes = []
    for k in range(0, 120):
        line = ula.FIRST_SHOWN_LINE + 2 * k
        changes.append((line * hw.TSTATES_PER_LINE - ula.LEFT_EDGE_TSTATES, 2 if k % 2 else 5))
    frame = ula.render(blank_memory(), 0, 0, changes)
    colours = [tuple(frame[r, 0]) for r in range(0, 8)]
    assert colours == [rgb(5), rgb(5), rgb(2), rgb(2), rgb(5), rgb(5), rgb(2), rgb(2)]


def test_port_fe_out_logs_border_beeper_and_mic_changes():
    u = ula.Ula()
    u.port_out(0xFE, 0x02, 100)          # border red
    u.port_out(0xFE, 0x12, 200)          # + EAR
    u.port_out(0xFE, 0x1A, 300)          # + MIC
    u.port_out(0xFF, 0x07, 400)          # odd port: not the ULA
    u.port_out(0x00FE, 0x02, 500)        # EAR and MIC off
    u.end_frame()
    assert u.frame_border == (0, [(100, 2)])
    assert u.frame_ear == (0, [(200, 1), (500, 0)])
    assert u.frame_mic == (0, [(300, 1), (500, 0)])
    u.end_frame()
    assert u.frame_border == (2, []) and u.frame_ear == (0, [])


def test_outs_after_the_frame_end_belong_to_the_next_frame():
    u = ula.Ula()
    u.port_out(0xFE, 0x03, 69_880)
    u.port_out(0xFE, 0x04, 69_890)       # an instruction straddling the frame end
    u.end_frame()
    assert u.frame_border == (0, [(69_880, 3)])
    u.end_frame()
    assert u.frame_border == (3, [(2, 4)])


def test_port_fe_in_reads_bits_5_and_7_high_and_ear_from_last_out_without_tape():
    u = ula.Ula()
    assert u.port_in(0xFEFE, 0) == 0xBF
    u.port_out(0xFE, 0x10, 0)
    assert u.port_in(0xFEFE, 0) == 0xFF
    assert u.port_in(0xFEFF, 0) == 0xFF      # odd port: nobody answers
