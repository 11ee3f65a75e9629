"""The board's options on screen: the doubling cube (centred at 1, then by its owner's tray),
the board styles of game/files/settings.py drawn without attribute clash, the two sides' colours
swapped, and the board mirrored with the letters following the men."""
import pytest

import roms
from game.board import screen as S
from game.board.glyphs import CUBE_DIGITS
from game.board.screen import view_of
from game.files.settings import BOARD_STYLES, STYLE_ORDER, Settings
from game.model.position import Position
from gamedriver import StandInMachine

BUSY = Position.from_points({6: 7, 8: 3, 13: 2, 3: 1, "bar": 1},
                            {6: 5, 8: 3, 13: 4, 21: 1, "bar": 1})      # one black man off


def glyph(ch: str) -> bytes:
    """The tests' stand-in font: a character's code in its six middle pixel rows (a space
    blank), so what was printed can be read back from the pixels, and is gone when a cell
    is drawn over (the stand-in machine's text grid would keep it)."""
    return bytes(8) if ch == " " else bytes([0] + [ord(ch)] * 6 + [0])


def drawn(position=None, **options):
    machine = StandInMachine()

    def text(row, col, words, attr_byte):
        for i, ch in enumerate(words):
            machine.memory[S.attr_addr(col + i, row)] = attr_byte
            for k, byte in enumerate(glyph(ch)):
                machine.memory[S.bitmap_addr(col + i, row * 8 + k)] = byte
    screen = S.Screen(machine.memory, text, **options)
    screen.draw_board(view_of(position or Position.start()))
    machine.screen = screen
    return machine


def screen_text(machine) -> list[str]:
    lines = []
    for row in range(S.ROWS):
        line = ""
        for col in range(S.COLS):
            found = cell(machine, col, row)
            line += found[1:2].decode() if found == glyph(chr(found[1])) and found[1] > 32 \
                else " "
        lines.append(line)
    return lines


def attr_at(machine, col, row):
    return machine.memory[S.attr_addr(col, row)]


def ink(a):
    return a & 7


def paper(a):
    return (a >> 3) & 7


def cell(machine, col, row):
    return bytes(machine.memory[S.bitmap_addr(col, row * 8 + k)] for k in range(8))


def figures_in_cube(machine, col, row):
    """The cube's figures read from its pixels: each paper pixel inside the inked body is
    part of a figure; matched column by column against the 5 x 9 figures."""
    width, height = 8 * S.CUBE_COLS, 8 * S.CUBE_ROWS
    bits = [[bool(machine.memory[S.bitmap_addr(col + x // 8, row * 8 + y)] & (0x80 >> (x % 8)))
             for x in range(width)] for y in range(height)]
    holes = [[not bits[y][x] for x in range(2, width - 2)] for y in range(2, height - 2)]
    columns = [x for x in range(len(holes[0])) if any(line[x] for line in holes)]
    if not columns:
        return ""
    left, text = columns[0], ""
    while left <= columns[-1]:
        found = None
        for figure, glyph in CUBE_DIGITS.items():
            top = next(y for y in range(len(holes)) if any(holes[y][left:left + 5]))
            if all(holes[top + dy][left + dx] == (ch == "#")
                   for dy, line in enumerate(glyph) for dx, ch in enumerate(line)):
                found = figure
        assert found, f"no figure at column {left}"
        text += found
        left += 6
    return text


# ---------- the doubling cube ----------
def test_cube_starts_centred_between_the_dice_showing_1():
    machine = drawn()
    screen = machine.screen
    screen.draw_dice(3, 5, False, False)
    screen.draw_cube(1, None)
    col, row = S.cube_cell(None)
    assert row == S.TOP_DIE_ROW + S.DIE_CELLS and row + S.CUBE_ROWS == S.BOTTOM_DIE_ROW
    assert screen.read_cube() == (1, None)
    assert figures_in_cube(machine, col, row) == "1"
    for c in range(col, col + S.CUBE_COLS):
        for r in range(row, row + S.CUBE_ROWS):
            assert attr_at(machine, c, r) == S.CUBE          # one attribute: no clash
    # the dice are untouched by it
    assert attr_at(machine, S.DIE_COL, S.TOP_DIE_ROW) == S.WHITE_DIE
    assert attr_at(machine, S.DIE_COL, S.BOTTOM_DIE_ROW) == S.WHITE_DIE


@pytest.mark.parametrize("owner, side, row", [("human", "human", 21), ("white", "human", 21),
                                              ("computer", "computer", 0),
                                              ("black", "computer", 0)])
def test_a_taken_cube_moves_to_the_owners_side(owner, side, row):
    machine = drawn()
    screen = machine.screen
    screen.draw_cube(1, None)
    screen.draw_cube(2, owner)
    assert screen.read_cube() == (2, side)
    assert S.cube_cell(owner)[1] == row
    assert figures_in_cube(machine, S.CUBE_COL, row) == "2"
    # the centre is empty panel again: the cube moved, it was not copied
    c0, r0 = S.cube_cell(None)
    for c in range(c0, c0 + S.CUBE_COLS):
        for r in range(r0, r0 + S.CUBE_ROWS):
            assert attr_at(machine, c, r) == S.PANEL and cell(machine, c, r) == bytes(8)
    # the human's cube sits below the human's tray (bottom), the computer's above its own
    if side == "human":
        assert row >= S.WHITE_TRAY_ROW + S.TRAY_ROWS
    else:
        assert row + S.CUBE_ROWS <= S.BLACK_TRAY_ROW


@pytest.mark.parametrize("value", S.CUBE_VALUES)
def test_every_cube_value_is_readable_in_every_place(value):
    for owner in (None, "human", "computer"):
        machine = drawn()
        machine.screen.draw_cube(value, owner)
        col, row = S.cube_cell(owner)
        assert figures_in_cube(machine, col, row) == str(value)
        assert S.read_cube(machine.memory) == (value, owner)


def test_cube_is_cleared_and_refuses_what_no_cube_shows():
    machine = drawn()
    screen = machine.screen
    screen.draw_cube(8, "computer")
    screen.clear_cube()
    assert screen.read_cube() is None and screen.cube is None
    screen.draw_cube(16, "human")
    screen.draw_cube(None)
    assert screen.read_cube() is None
    col, row = S.cube_cell("human")
    assert all(cell(machine, c, r) == bytes(8) for c in range(col, col + 3)
               for r in range(row, row + 2))
    with pytest.raises(ValueError):
        screen.draw_cube(3, None)
    with pytest.raises(ValueError):
        screen.draw_cube(2, "nobody")


def test_fifteen_men_fit_in_a_tray_beside_the_owned_cube():
    machine = drawn(Position.from_points({1: 1}, {1: 1}))
    screen = machine.screen
    screen.draw_cube(4, "human")
    for white, row in ((True, S.WHITE_TRAY_ROW), (False, S.BLACK_TRAY_ROW)):
        screen.draw_tray(white, 15)
        full = [y for y in range(row * 8, (row + S.TRAY_ROWS) * 8)
                if machine.memory[S.bitmap_addr(S.TRAY_COL + 1, y)] == 0xFF]
        assert len(full) == 2 * 15                        # every man, none merged
    assert screen.read_cube() == (4, "human")             # the trays left the cube alone


# ---------- board styles ----------
def check_no_clash(machine, palette, view):
    """The clash check of test_game_screen.py for any palette: in the points' cells a cell
    holds either a man (the man's ink, the board's paper), a count label, or its triangle in
    the triangle's own ink; and every cell showing pixels shows them in a colour of their own
    (ink differs from paper)."""
    men_inks = {palette.human_men, palette.computer_men, S.contrast(palette.board)}
    for point in range(1, 25):
        col, is_top = S.point_cell(point)
        first = S.TOP_FIRST_ROW if is_top else S.BOTTOM_FIRST_ROW
        count = abs(view.points[point])
        men_rows = set()
        for slot in range(min(count, S.MEN_SHOWN)):
            row = S.man_slot_row(is_top, slot)
            men_rows |= {row, row + 1}
        label_row = S.man_slot_row(is_top, S.MEN_SHOWN - 1) + (0 if is_top else 1)
        for row in range(first, first + S.HALF_ROWS):
            for c in (col, col + 1):
                a = attr_at(machine, c, row)
                if count > S.MEN_SHOWN and row == label_row:
                    assert paper(a) in men_inks and ink(a) == S.contrast(paper(a))
                    continue
                assert paper(a) == palette.board, (palette.name, point, row)
                if row in men_rows:
                    assert ink(a) in men_inks
                else:
                    assert ink(a) == palette.points[point % 2]
    for row in range(S.ROWS):
        for col in range(S.COLS):
            a = attr_at(machine, col, row)
            if any(cell(machine, col, row)):
                assert ink(a) != paper(a), (palette.name, col, row)


@pytest.mark.parametrize("name", STYLE_ORDER)
def test_every_style_draws_its_settings_colours_without_clash(name):
    machine = drawn(BUSY, style=name)
    screen = machine.screen
    screen.draw_dice(6, 2, True, True)
    screen.draw_cube(2, "computer")
    style = BOARD_STYLES[name]
    pal = screen.palette
    # the colours come from game/files/settings.py
    assert paper(attr_at(machine, 0, 5)) == style.frame
    assert paper(attr_at(machine, S.BAR_COL, 11)) == style.bar
    col, is_top = S.point_cell(6)
    assert ink(attr_at(machine, col, S.man_slot_row(is_top, 0))) in (
        style.white_men, S.contrast(style.board))
    col, is_top = S.point_cell(1)
    tri = attr_at(machine, col, S.TOP_FIRST_ROW if is_top else S.BOTTOM_FIRST_ROW)
    assert (paper(tri), ink(tri)) == (style.board, style.points[1])
    assert bool(attr_at(machine, 0, 5) & 0x40) == style.bright
    check_no_clash(machine, pal, view_of(BUSY))
    assert screen.read_cube() == (2, "computer")
    assert screen_text(machine)[S.BOTTOM_LETTER_ROW].split() == list("lkjihgfedcba")


def test_styles_look_different_from_each_other():
    looks = set()
    for name in STYLE_ORDER:
        machine = drawn(BUSY, style=name)
        looks.add(bytes(machine.memory[S.ATTR_ADDR:S.ATTR_ADDR + 768]))
    assert len(looks) == len(STYLE_ORDER)


def test_the_1983_look_is_the_default():
    plain = drawn(BUSY)
    classic = drawn(BUSY, style="classic")
    assert plain.memory == classic.memory
    assert attr_at(plain, 0, 5) == S.FRAME and paper(attr_at(plain, 1, 11)) == S.BOARD_PAPER


def test_a_man_the_colour_of_the_board_is_drawn_outlined():
    machine = drawn(Position.start(), style="mono")        # white men on a white board
    col, is_top = S.point_cell(6)
    row = S.man_slot_row(is_top, 0)
    a = attr_at(machine, col, row)
    assert paper(a) == S.WHITE and ink(a) == S.BLACK
    glyph_left = S.HOLLOW_MAN_GLYPH
    got = [machine.memory[S.bitmap_addr(col, row * 8 + k)] for k in range(16)]
    want = [int(line[:8].replace("#", "1").replace(".", "0"), 2) for line in glyph_left]
    assert got == want


@pytest.mark.parametrize("name", STYLE_ORDER)
def test_an_empty_tray_can_be_seen_in_every_style(name):
    machine = drawn(Position.start(), style=name)
    frame_paper = paper(S.Palette.of(name).frame_attr)
    for row0 in (S.WHITE_TRAY_ROW, S.BLACK_TRAY_ROW):
        cells = [(col, row) for col in range(S.TRAY_COL, S.TRAY_COL + S.TRAY_COLS)
                 for row in range(row0, row0 + S.TRAY_ROWS)]
        own_paper = any(paper(attr_at(machine, c, r)) != frame_paper for c, r in cells)
        outlined = all(machine.memory[S.bitmap_addr(S.TRAY_COL, row0 * 8 + k)] & 0x80
                       for k in range(8 * S.TRAY_ROWS))
        assert own_paper or outlined, (name, row0)


def test_set_style_redraws_what_is_on_the_board():
    machine = drawn(BUSY)
    screen = machine.screen
    screen.draw_dice(4, 1, False, False)
    screen.draw_cube(2, "human")
    screen.message("Your move?")
    screen.set_style("midnight")
    assert paper(attr_at(machine, 0, 5)) == BOARD_STYLES["midnight"].frame
    assert screen.read_cube() == (2, "human")
    assert screen.dice == {True: (4, False), False: (1, False)}
    assert paper(attr_at(machine, S.DIE_COL, S.TOP_DIE_ROW)) == S.WHITE
    assert screen_text(machine)[S.MESSAGE_ROW].startswith("Your move?")
    check_no_clash(machine, screen.palette, view_of(BUSY))
    with pytest.raises(ValueError):
        screen.set_style("paisley")


# ---------- switch tokens ----------
def test_swapped_tokens_draw_the_humans_men_in_the_other_colour():
    plain, swapped = drawn(Position.start()), drawn(Position.start(), tokens_swapped=True)
    for point, human in ((6, True), (8, True), (13, True), (24, True),
                         (1, False), (12, False), (17, False), (19, False)):
        col, is_top = S.point_cell(point)
        row = S.man_slot_row(is_top, 0)
        assert ink(attr_at(plain, col, row)) == (S.WHITE if human else S.BLACK)
        assert ink(attr_at(swapped, col, row)) == (S.BLACK if human else S.WHITE)
    swapped.screen.draw_dice(5, 3, False, False)          # the human's dice: his men's colour
    assert paper(attr_at(swapped, S.DIE_COL, S.BOTTOM_DIE_ROW)) == S.BLACK
    swapped.screen.draw_tray(True, 3)                     # his tray: the black men's tray
    assert attr_at(swapped, S.TRAY_COL, S.WHITE_TRAY_ROW) == S.BLACK_TRAY
    assert attr_at(plain, S.TRAY_COL, S.WHITE_TRAY_ROW) == S.WHITE_TRAY


def test_swapping_tokens_on_the_board_redraws_it():
    machine = drawn(Position.start())
    col, is_top = S.point_cell(6)
    row = S.man_slot_row(is_top, 0)
    machine.screen.set_tokens_swapped(True)
    assert ink(attr_at(machine, col, row)) == S.BLACK
    machine.screen.set_tokens_swapped(False)
    assert ink(attr_at(machine, col, row)) == S.WHITE


# ---------- switch directions ----------
def test_mirrored_board_puts_a_at_bottom_left_and_the_letters_with_their_points():
    machine = drawn(Position.start(), mirrored=True)
    lines = screen_text(machine)
    assert lines[S.BOTTOM_LETTER_ROW].split() == list("abcdefghijkl")
    assert lines[S.TOP_LETTER_ROW].split() == list("xwvutszrqponm")
    first = min(i for i, ch in enumerate(lines[S.BOTTOM_LETTER_ROW]) if ch != " ")
    assert lines[S.BOTTOM_LETTER_ROW][first] == "a"
    for point in range(1, 25):
        col, is_top = machine.screen.point_cell(point)
        row = S.TOP_LETTER_ROW if is_top else S.BOTTOM_LETTER_ROW
        assert lines[row][col] == S.POINT_LETTERS[point - 1]
    assert S.point_cell(1, mirrored=True) == (5, False)
    assert S.point_cell(24, mirrored=True) == (5, True)


def test_mirrored_board_is_the_plain_board_reflected():
    view = view_of(BUSY)
    plain, mirrored = drawn(BUSY), drawn(BUSY, mirrored=True)
    for machine in (plain, mirrored):
        machine.screen.draw_dice(2, 6, False, True)
        machine.screen.draw_cube(4, "computer")
    for point in range(1, 25):                            # the men stand on mirrored cells
        col, is_top = S.point_cell(point, mirrored=True)
        pcol, _ = S.point_cell(point)
        assert col == 30 - pcol
        for slot in range(min(abs(view.points[point]), S.MEN_SHOWN)):
            row = S.man_slot_row(is_top, slot)
            assert attr_at(mirrored, col, row) == attr_at(plain, pcol, row)
            assert ink(attr_at(mirrored, col, row)) == (S.WHITE if view.points[point] > 0
                                                         else S.BLACK)
    mirrored_text, plain_text = screen_text(mirrored), screen_text(plain)
    text_cells = {(c, r) for r in range(S.ROWS) for c in range(S.COLS)
                  if mirrored_text[r][c] != " " or plain_text[r][31 - c] != " "}
    cube_col, cube_row = mirrored.screen.column(S.CUBE_COL, S.CUBE_COLS), S.CUBE_ROW["computer"]
    cube_cells = {(c, r) for c in range(cube_col, cube_col + S.CUBE_COLS)
                  for r in range(cube_row, cube_row + S.CUBE_ROWS)}
    for row in range(S.MESSAGE_ROW):
        for col in range(S.COLS):
            assert attr_at(mirrored, col, row) == attr_at(plain, 31 - col, row), (col, row)
            if (col, row) in text_cells or (col, row) in cube_cells:
                continue
            flipped = bytes(int(f"{b:08b}"[::-1], 2) for b in cell(plain, 31 - col, row))
            assert cell(mirrored, col, row) == flipped, (col, row)
    # the cube reads the right way round, on the computer's side of the mirrored panel
    assert mirrored.screen.read_cube() == (4, "computer")
    assert figures_in_cube(mirrored, cube_col, cube_row) == "4"
    assert cube_col == S.COLS - S.CUBE_COL - S.CUBE_COLS == 1     # the panel is on the left


def test_settings_switch_all_three_at_once():
    machine = drawn(BUSY)
    machine.screen.draw_cube(1, None)
    machine.screen.apply_settings(Settings(board_style="tournament", switch_tokens=True,
                                           switch_directions=True))
    screen = machine.screen
    assert screen.mirrored and screen.tokens_swapped and screen.palette.name == "tournament"
    col, is_top = screen.point_cell(6)
    assert ink(attr_at(machine, col, S.man_slot_row(is_top, 0))) == S.BLACK
    assert screen_text(machine)[S.BOTTOM_LETTER_ROW].split() == list("abcdefghijkl")
    assert screen.read_cube() == (1, None)
    assert paper(screen.panel_attr) == BOARD_STYLES["tournament"].frame


def test_the_message_line_does_not_move_with_a_mirrored_board():
    machine = drawn(Position.start(), mirrored=True)
    machine.screen.message("Your move?")
    machine.screen.text(S.MESSAGE_ROW, S.COLS - 9, "D doubles", S.MESSAGE)
    line = screen_text(machine)[S.MESSAGE_ROW]
    assert line.startswith("Your move?") and line.endswith("D doubles")
    machine.screen.text(S.BLACK_TRAY_ROW, S.PANEL_COL, "B 15", machine.screen.panel_attr)
    assert screen_text(machine)[S.BLACK_TRAY_ROW][:4] == "B 15"   # the panel is on the left


def test_on_the_real_machine_the_rom_font_letters_follow_a_mirrored_board():
    """Printed through our ROM on the Spectrum48 and read back with tests/screentext.py."""
    import screentext
    from game.zx.basic import Basic, rom_ready
    from gamedriver import rom_symbols
    from spectrum.machine import Spectrum48
    machine, symbols = Spectrum48(roms.ROM_PATH), rom_symbols()
    for _ in range(200):
        machine.run_frame()
        if rom_ready(machine):
            break
    basic = Basic(machine, symbols)
    screen = S.Screen(basic.memory, basic.print_at, style="midnight", mirrored=True,
                      tokens_swapped=True)
    screen.draw_board(view_of(BUSY))
    screen.draw_cube(64, "human")
    screen.message("Your move?")
    lines = screentext.screen_text(machine.memory)
    board = slice(S.COLS - S.PANEL_COL, S.COLS)             # the panel (and cube) at the left
    assert lines[S.BOTTOM_LETTER_ROW][board].split() == list("abcdefghijkl")
    assert lines[S.TOP_LETTER_ROW][board].split() == list("xwvutszrqponm")
    col, is_top = S.point_cell(6, mirrored=True)             # 7 men: the count shows
    assert lines[S.man_slot_row(is_top, S.MEN_SHOWN - 1) + 1][col:col + 2] == " 7"
    assert lines[S.MESSAGE_ROW].startswith("Your move?")
    assert S.read_cube(machine.memory, mirrored=True) == (64, "human")


def test_unchanged_options_leave_the_screen_alone():
    machine = drawn(BUSY, style="parchment")
    screen = machine.screen
    screen.text(S.BOTTOM_FIRST_ROW - 1, 0, "A BANNER".center(S.COLS), S.MESSAGE)
    before = bytes(machine.memory[0x4000:0x5B00])
    screen.apply_settings(Settings(board_style="parchment"))
    screen.set_style("parchment")
    screen.set_mirrored(False)
    screen.set_tokens_swapped(False)
    assert bytes(machine.memory[0x4000:0x5B00]) == before
