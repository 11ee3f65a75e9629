"""The screen as the beam draws it: each bitmap and attribute byte shows what memory held when
the ULA fetched it (a write before the fetch is seen, one at or after it is not), attributes
fetched again on every pixel line (multicolour), the frame's screen-write log rolling over
with the frame, and the floating bus on odd ports. Logs are built here exactly as the CPU
appends them: (tstates, addr, old_byte), memory changed to the new byte."""
import numpy as np
import pytest

from spectrum import hw, ula
from spectrum.machine import Spectrum48

HALT_ROM = b"\xf3\x76".ljust(hw.ROM_BYTES, b"\0")       # DI; HALT: the CPU idles all frame


def halted_machine():
    """A Spectrum48 idling in HALT, paper white and ink black all over."""
    m = Spectrum48(HALT_ROM)
    m.load(hw.ATTR_ADDR, bytes([0x38]) * hw.ATTR_BYTES)
    return m


def blank_memory(attr=0x38):
    mem = np.zeros(hw.MEMORY_BYTES, np.uint8)
    mem[hw.ATTR_ADDR:hw.ATTR_ADDR + hw.ATTR_BYTES] = attr
    return mem


def write(mem, log, tstates, addr, value):
    """What the contended CPU does for a screen write: log the old byte, then store."""
    log.append((tstates, addr, int(mem[addr])))
    mem[addr] = value


def bitmap_addr(x_byte, y):
    return hw.SCREEN_ADDR + ula.bitmap_offset(x_byte, y)


def attr_addr(x_byte, y):
    return hw.ATTR_ADDR + (y >> 3) * 32 + x_byte


def pixels(frame, x_byte, y):
    """The 8 RGB pixels of byte x_byte on display row y."""
    row = ula.SCREEN_Y + y
    return frame[row, ula.SCREEN_X + 8 * x_byte:ula.SCREEN_X + 8 * x_byte + 8]


def rgb(colour, bright=0):
    return ula.PALETTE[bright * 8 + colour]


# --- the fetch times ---

def test_fetch_times_follow_the_ula_sequence_bitmap_attr_bitmap_attr_then_4_idle():
    assert ula.BITMAP_FETCH_TSTATES[0, 0] == hw.ULA_FIRST_FETCH_TSTATES == 14_338
    assert ula.ATTR_FETCH_TSTATES[0, 0] == 14_339
    assert ula.BITMAP_FETCH_TSTATES[0, 1] == 14_340 and ula.ATTR_FETCH_TSTATES[0, 1] == 14_341
    assert ula.BITMAP_FETCH_TSTATES[0, 2] == 14_346                 # after 4 idle T
    assert ula.BITMAP_FETCH_TSTATES[0, 31] == 14_338 + 8 * 15 + 2
    assert ula.BITMAP_FETCH_TSTATES[1, 0] == 14_338 + 224
    assert ula.BITMAP_FETCH_TSTATES[191, 31] == 14_338 + 224 * 191 + 122
    fetches = np.concatenate([ula.BITMAP_FETCH_TSTATES.ravel(), ula.ATTR_FETCH_TSTATES.ravel()])
    assert len(set(fetches.tolist())) == 2 * 192 * 32               # never two at once


@pytest.mark.parametrize("x_byte, y", [(0, 0), (1, 0), (31, 0), (0, 7), (17, 100), (31, 191)])
@pytest.mark.parametrize("offset, seen", [(-1, True), (0, False), (1, False)])
def test_a_bitmap_write_is_seen_by_the_fetch_only_if_it_comes_before_it(x_byte, y, offset, seen):
    """A write 1 T before the fetch shows on that line; one at or after it does not."""
    mem, log = blank_memory(), []
    fetch = int(ula.BITMAP_FETCH_TSTATES[y, x_byte])
    write(mem, log, fetch + offset, bitmap_addr(x_byte, y), 0xFF)
    bitmap, attrs = ula.screen_as_fetched(mem, log)
    assert bitmap[y, x_byte] == (0xFF if seen else 0x00)
    changed = np.argwhere(bitmap != 0)
    assert changed.tolist() == ([[y, x_byte]] if seen else [])
    assert (attrs == 0x38).all()
    frame = ula.render(mem, 0, 0, [], screen_writes=log)
    assert (pixels(frame, x_byte, y) == rgb(hw.BLACK if seen else hw.WHITE)).all()


@pytest.mark.parametrize("x_byte, y", [(0, 0), (1, 8), (30, 95), (31, 191)])
@pytest.mark.parametrize("offset, seen", [(-1, True), (0, False), (1, False)])
def test_an_attribute_write_is_seen_from_the_first_fetch_after_it(x_byte, y, offset, seen):
    mem, log = blank_memory(), []
    fetch = int(ula.ATTR_FETCH_TSTATES[y, x_byte])
    write(mem, log, fetch + offset, attr_addr(x_byte, y), hw.RED << 3)
    _bitmap, attrs = ula.screen_as_fetched(mem, log)
    row_top = y & ~7
    # the pixel lines of that character row fetched before y never see it; those after all do
    assert (attrs[row_top:y, x_byte] == 0x38).all()
    assert attrs[y, x_byte] == (hw.RED << 3 if seen else 0x38)
    assert (attrs[y + 1:row_top + 8, x_byte] == hw.RED << 3).all()
    frame = ula.render(mem, 0, 0, [], screen_writes=log)
    assert (pixels(frame, x_byte, y) == rgb(hw.RED if seen else hw.WHITE)).all()


def test_the_bitmap_and_attribute_of_one_cell_are_fetched_1_tstate_apart():
    """A write between a cell's bitmap fetch and its attribute fetch: old pixels, new colour."""
    mem, log = blank_memory(), []
    t = int(ula.BITMAP_FETCH_TSTATES[40, 9]) + 1
    assert t == ula.ATTR_FETCH_TSTATES[40, 9]
    write(mem, log, t - 1, bitmap_addr(9, 40), 0xAA)       # at the bitmap fetch: not seen
    write(mem, log, t - 1, attr_addr(9, 40), 0x07)         # before the attribute fetch: seen
    bitmap, attrs = ula.screen_as_fetched(mem, log)
    assert bitmap[40, 9] == 0x00 and attrs[40, 9] == 0x07


def test_multicolour_an_attribute_changed_between_pixel_lines_splits_the_cell():
    """Paper changed after line 3 of character row 5 was fetched: lines 40-43 keep the old
    paper, lines 44-47 show the new one; other cells are untouched."""
    mem, log = blank_memory(hw.BLUE << 3), []
    cell = attr_addr(12, 40)
    write(mem, log, int(ula.ATTR_FETCH_TSTATES[43, 12]) + 5, cell, hw.YELLOW << 3)
    frame = ula.render(mem, 0, 0, [], screen_writes=log)
    for y in range(40, 44):
        assert (pixels(frame, 12, y) == rgb(hw.BLUE)).all()
    for y in range(44, 48):
        assert (pixels(frame, 12, y) == rgb(hw.YELLOW)).all()
    assert (pixels(frame, 11, 44) == rgb(hw.BLUE)).all()
    assert (pixels(frame, 13, 44) == rgb(hw.BLUE)).all()


def test_multicolour_an_attribute_rewritten_on_every_pixel_line_gives_8_colours_in_one_cell():
    mem, log = blank_memory(0), []
    cell = attr_addr(3, 64)
    for line in range(8):                                   # just before each line's fetch
        write(mem, log, int(ula.ATTR_FETCH_TSTATES[64 + line, 3]) - 1, cell, line << 3)
    frame = ula.render(mem, 0, 0, [], screen_writes=log)
    for line in range(8):
        assert (pixels(frame, 3, 64 + line) == rgb(line)).all()


def test_flash_still_swaps_a_multicoloured_cell_line_by_line():
    mem, log = blank_memory(), []
    cell = attr_addr(0, 0)
    mem[cell] = hw.BLUE << 3 | hw.YELLOW                    # lines 0-3: no FLASH
    write(mem, log, int(ula.ATTR_FETCH_TSTATES[4, 0]) - 10, cell, 0x80 | hw.BLUE << 3 | hw.YELLOW)
    frame = ula.render(mem, 16, 0, [], screen_writes=log)   # a frame where FLASH is swapped
    assert (pixels(frame, 0, 3) == rgb(hw.BLUE)).all()      # paper, not flashing
    assert (pixels(frame, 0, 4) == rgb(hw.YELLOW)).all()    # paper shown as ink: flashing


def test_writes_before_the_screen_show_everywhere_and_writes_after_it_nowhere():
    """T 1,000 (top border time) is before every fetch; T 60,000 (bottom border) after all."""
    mem, log = blank_memory(), []
    write(mem, log, 1_000, attr_addr(0, 0), hw.GREEN << 3)
    write(mem, log, 60_000, attr_addr(31, 191), hw.RED << 3)
    write(mem, log, 60_001, bitmap_addr(31, 191), 0xFF)
    bitmap, attrs = ula.screen_as_fetched(mem, log)
    assert (attrs[0:8, 0] == hw.GREEN << 3).all()
    assert (attrs[184:192, 31] == 0x38).all() and bitmap[191, 31] == 0


def test_several_writes_to_one_byte_each_fetch_sees_the_latest_before_it():
    mem, log = blank_memory(), []
    addr = attr_addr(5, 16)
    fetch = ula.ATTR_FETCH_TSTATES[16:24, 5].astype(int)
    write(mem, log, fetch[1] - 2, addr, 0x01)               # seen by lines 17...
    write(mem, log, fetch[1], addr, 0x02)                   # ...but line 17 fetches before this
    write(mem, log, fetch[5] - 1, addr, 0x03)               # lines 21-23
    _bitmap, attrs = ula.screen_as_fetched(mem, log)
    assert attrs[16:24, 5].tolist() == [0x38, 0x01, 0x02, 0x02, 0x02, 0x03, 0x03, 0x03]


def test_writes_logged_outside_the_screen_are_ignored():
    mem, log = blank_memory(), [(20_000, 0x5B00, 7), (20_000, 0x3FFF, 7)]
    bitmap, attrs = ula.screen_as_fetched(mem, log)
    assert (bitmap == 0).all() and (attrs == 0x38).all()


# --- the fast path is today's picture ---

def reference_screen(mem, frame_number=0):
    """The 256 x 192 picture straight from the rules of docs/HARDWARE.md §2-3, cell by cell."""
    out = np.empty((192, 256, 3), np.uint8)
    swapped = (frame_number // hw.FLASH_PERIOD_FRAMES) & 1
    for y in range(192):
        for x_byte in range(32):
            byte = int(mem[bitmap_addr(x_byte, y)])
            attr = int(mem[attr_addr(x_byte, y)])
            bright = attr >> 6 & 1
            ink, paper = attr & 7, attr >> 3 & 7
            if attr & 0x80 and swapped:
                ink, paper = paper, ink
            for bit in range(8):
                lit = byte >> (7 - bit) & 1
                out[y, 8 * x_byte + bit] = rgb(ink if lit else paper, bright)
    return out


@pytest.mark.parametrize("frame_number", [0, 16])
def test_an_empty_log_renders_memory_as_it_is(frame_number):
    rng = np.random.default_rng(7)
    mem = blank_memory()
    mem[hw.SCREEN_ADDR:hw.SCREEN_ADDR + hw.SCREEN_BYTES] = rng.integers(0, 256, hw.SCREEN_BYTES)
    frame = ula.render(mem, frame_number, 0, [])
    assert np.array_equal(frame[ula.SCREEN_Y:ula.SCREEN_Y + 192, ula.SCREEN_X:ula.SCREEN_X + 256],
                          reference_screen(mem, frame_number))
    # the log path with writes that change nothing draws the same picture
    log = [(t, hw.SCREEN_ADDR + (t * 7919) % hw.SCREEN_BYTES, 0) for t in range(14_000, 60_000, 50)]
    log = [(t, addr, int(mem[addr])) for t, addr, _old in log]
    assert np.array_equal(ula.render(mem, frame_number, 0, [], screen_writes=log), frame)


# --- the floating bus ---

def test_bus_address_at_the_first_fetches_and_the_idle_tstates():
    first = hw.ULA_FIRST_FETCH_TSTATES
    expected = [0x4000, 0x5800, 0x4001, 0x5801, None, None, None, None, 0x4002, 0x5802]
    assert [ula.bus_address(first + k) for k in range(10)] == expected
    assert ula.bus_address(first - 1) is None and ula.bus_address(0) is None
    assert ([ula.bus_address(first + 120 + k) for k in range(5)]
            == [0x401E, 0x581E, 0x401F, 0x581F, None])
    assert all(ula.bus_address(first + k) is None for k in range(128, 224))   # border + retrace
    assert ula.bus_address(first + 224) == 0x4100                             # line 1
    assert ula.bus_address(first + 224 * 8 + 1) == 0x5820                     # row 1's attributes
    assert ula.bus_address(first + 224 * 191) == 0x57E0
    assert ula.bus_address(first + 224 * 191 + 1) == 0x5AE0
    assert ula.bus_address(first + 224 * 192) is None                         # below the screen
    assert ula.bus_address(hw.TSTATES_PER_FRAME + 5) is None                  # an overrun


def test_the_floating_bus_carries_exactly_the_bytes_the_renderer_fetches():
    """Every T-state of a frame: 12,288 fetches, each at the time and address the renderer uses."""
    on_bus = {t: ula.bus_address(t) for t in range(hw.TSTATES_PER_FRAME)}
    fetched = {t: a for t, a in on_bus.items() if a is not None}
    assert len(fetched) == 2 * 192 * 32
    for y in range(192):
        for x_byte in range(32):
            assert fetched[int(ula.BITMAP_FETCH_TSTATES[y, x_byte])] == bitmap_addr(x_byte, y)
            assert fetched[int(ula.ATTR_FETCH_TSTATES[y, x_byte])] == attr_addr(x_byte, y)


def test_an_odd_port_reads_the_byte_the_ula_is_fetching_and_ff_when_idle():
    memory = bytearray(hw.MEMORY_BYTES)
    memory[0x4000], memory[0x5800], memory[0x4001], memory[0x5801] = 0x11, 0x22, 0x33, 0x44
    memory[0x57E0], memory[0x5AE0] = 0x55, 0x66
    u = ula.Ula(memory)
    first = hw.ULA_FIRST_FETCH_TSTATES - hw.PORT_SAMPLE_TSTATES      # the T-state port_in gets then
    assert [u.port_in(0x00FF, first + k) for k in range(8)] == [0x11, 0x22, 0x33, 0x44] + [0xFF] * 4
    assert u.port_in(0x40FF, first + 224 * 191) == 0x55
    assert u.port_in(0xFFFF, first + 224 * 191 + 1) == 0x66
    assert u.port_in(0x001F, first - 1) == 0xFF                          # top border
    assert u.port_in(0x001F, first + 200) == 0xFF                        # right border / retrace
    assert u.port_in(0x001F, first + 224 * 192) == 0xFF                  # bottom border
    assert u.port_in(0xFEFE, first) == 0xBF                              # even: keyboard + EAR
    assert ula.Ula().port_in(0x00FF, first) == 0xFF                      # a ULA with no memory


def test_the_machine_floating_bus_reads_the_machine_memory():
    first = hw.ULA_FIRST_FETCH_TSTATES - hw.PORT_SAMPLE_TSTATES
    m = Spectrum48(HALT_ROM)
    m.poke(0x4000, 0x5A)
    assert m.ula.port_in(0x00FF, first) == 0x5A
    m.poke(0x4000, 0xA5)
    assert m.ula.port_in(0x00FF, first) == 0xA5
    m.reset()
    assert m.ula.port_in(0x00FF, first) == 0x00


# --- the machine: the frame's log ---

def test_the_machine_builds_its_cpu_contended_with_a_screen_write_log():
    m = Spectrum48(HALT_ROM)
    assert m.cpu.contended is True and m.cpu.screen_writes == []


def test_the_log_rolls_over_at_the_frame_end_and_an_overrun_write_moves_to_the_next_frame():
    m = halted_machine()
    m.run_frame()
    log = m.cpu.screen_writes
    line_20 = attr_addr(0, 20)
    write(m.mem, log, int(ula.ATTR_FETCH_TSTATES[20, 0]), line_20, hw.RED << 3)   # mid-row 2
    # straddles the end
    write(m.mem, log, hw.TSTATES_PER_FRAME + 2, attr_addr(1, 0), hw.GREEN << 3)
    m.run_frame()
    assert m.cpu.screen_writes is log                          # the CPU keeps its list object
    assert m.ula.frame_screen_writes == [(int(ula.ATTR_FETCH_TSTATES[20, 0]), line_20, 0x38)]
    assert log == [(2, attr_addr(1, 0), 0x38)]
    frame = m.render()
    assert (pixels(frame, 0, 19) == rgb(hw.WHITE)).all()
    assert (pixels(frame, 0, 20) == rgb(hw.WHITE)).all()
    assert (pixels(frame, 0, 21) == rgb(hw.RED)).all()
    assert (pixels(frame, 1, 0) == rgb(hw.WHITE)).all()        # the overrun write: next frame
    m.run_frame()
    assert m.ula.frame_screen_writes == [(2, attr_addr(1, 0), 0x38)] and log == []
    frame = m.render()
    assert (pixels(frame, 0, 16) == rgb(hw.RED)).all()
    assert (pixels(frame, 1, 0) == rgb(hw.GREEN)).all()
    m.run_frame()
    assert m.ula.frame_screen_writes == []


def test_writes_made_after_the_last_frame_ended_show_from_the_next_frame():
    """As a call() run between frames would leave them: logged in the current frame."""
    m = halted_machine()
    m.run_frame()
    before = m.render().copy()
    log = m.cpu.screen_writes
    write(m.mem, log, 100, bitmap_addr(4, 4), 0xFF)
    write(m.mem, log, 200, bitmap_addr(4, 4), 0x0F)            # the first old byte is the one shown
    write(m.mem, log, 300, attr_addr(4, 4), hw.WHITE << 3 | hw.RED)
    assert np.array_equal(m.render(), before)
    m.run_frame()
    after = m.render()
    assert (pixels(after, 4, 4)[:4] == rgb(hw.WHITE)).all()
    assert (pixels(after, 4, 4)[4:] == rgb(hw.RED)).all()


def test_reset_forgets_both_logs():
    m = halted_machine()
    log = m.cpu.screen_writes
    write(m.mem, log, 20_000, attr_addr(0, 0), 0)
    m.run_frame()
    write(m.mem, log, 30_000, attr_addr(0, 0), 0)
    m.reset()
    assert m.ula.frame_screen_writes == [] and m.cpu.screen_writes == []
    assert m.cpu.screen_writes is log


def test_with_no_screen_writes_the_machine_renders_memory_as_it_is():
    m = Spectrum48(HALT_ROM)
    rng = np.random.default_rng(3)
    m.load(hw.SCREEN_ADDR, rng.integers(0, 256, hw.SCREEN_BYTES, dtype=np.uint8).tobytes())
    for _ in range(3):
        m.run_frame()
    start, changes = m.ula.frame_border
    assert np.array_equal(m.render(), ula.render(m.mem, 2, start, changes))


# --- end to end: a program that races the beam ---

# IM 1 handler: paper green into row 12's first attribute at once (before the beam is on the
# screen), then a delay loop of 1,406 passes of 26 T to about T-state 36,615, between the
# fetches of that attribute for pixel lines 99 (T 36,516) and 100 (T 36,740), then paper red.
RACING_ROM = """
        di
        im 1
        ld sp, 0
        ld hl, 0x5800
        ld de, 0x5801
        ld bc, 767
        ld (hl), 0x38
        ldir
        ei
idle:   halt
        jr idle
        ds 0x38 - $
        ld a, 0x20
        ld (0x5800 + 32 * 12), a
        ld bc, 1406
wait:   dec bc
        ld a, b
        or c
        jr nz, wait
        ld a, 0x10
        ld (0x5800 + 32 * 12), a
        ei
        ret
"""


def test_a_program_that_changes_an_attribute_mid_row_shows_two_colours_in_the_cell():
    from pasmo_rom import assemble
    m = Spectrum48(assemble(RACING_ROM))
    for _ in range(3):
        m.run_frame()
    log = m.ula.frame_screen_writes
    cell = attr_addr(0, 96)
    assert [(addr, old) for _t, addr, old in log] == [(cell, 0x10), (cell, 0x20)]
    assert log[0][0] < ula.ATTR_FETCH_TSTATES[96, 0]
    assert ula.ATTR_FETCH_TSTATES[99, 0] < log[1][0] < ula.ATTR_FETCH_TSTATES[100, 0]
    frame = m.render()
    for y in range(96, 100):
        assert (pixels(frame, 0, y) == rgb(hw.GREEN)).all()
    for y in range(100, 104):
        assert (pixels(frame, 0, y) == rgb(hw.RED)).all()
    assert m.peek(cell) == 0x10


def test_in_a_ff_started_at_14328_in_uncontended_code_reads_the_first_bitmap_byte_as_in_fuse():
    """The whole chain on the machine: the CPU's port T-state, the sampling 2 T later, the fetch
    table."""
    m = Spectrum48(HALT_ROM)
    m.poke(0x4000, 0x5A)
    m.poke(0x5800, 0x3C)
    got = []
    for start in (14_327, 14_328, 14_329):
        m.load(0x8000, bytes([0x3E, 0x00, 0xDB, 0xFF, 0x76]))      # LD A,0; IN A,(0xFF); HALT
        cpu = m.cpu
        # LD A,n takes 7 T: IN starts at start
        cpu.pc, cpu.tstates, cpu.halted = 0x8000, start - 7, 0
        cpu.step()
        cpu.step()
        got.append(cpu.a)
    assert got == [0xFF, 0x5A, 0x3C]
