"""The board screen: 24 triangles lettered a..x in the places the inlay gives, the green bar,
men and counts, trays beside the board, dice with pips, and colours that keep to the 8 x 8
attribute grid (a cell holding a man holds nothing else)."""
from game.board import screen as S
from game.board.screen import view_of
from game.model.position import Position
from gamedriver import StandInMachine


def drawn(position: Position) -> StandInMachine:
    machine = StandInMachine()

    def text(row, col, words, attr_byte):
        for i, ch in enumerate(words):
            machine.grid[row][col + i] = ch
            machine.memory[S.attr_addr(col + i, row)] = attr_byte
    screen = S.Screen(machine.memory, text)
    screen.draw_board(view_of(position))
    machine.screen = screen
    return machine


def cell_bytes(memory, col, row):
    return [memory[S.bitmap_addr(col, row * 8 + k)] for k in range(8)]


def test_points_lettered_a_to_x_inner_tables_f_to_a_and_s_to_x():
    machine = drawn(Position.start())
    text = machine.screen_text()
    top, bottom = text[S.TOP_LETTER_ROW], text[S.BOTTOM_LETTER_ROW]
    assert top.split() == list("mnopqrzstuvwx")          # z marks the bar
    assert bottom.split() == list("lkjihgfedcba")
    # the human's inner table f..a is bottom right, the computer's s..x top right
    assert S.point_cell(1) == (25, False) and S.point_cell(6)[0] == S.RIGHT_HALF_COL
    assert S.point_cell(19) == (S.RIGHT_HALF_COL, True) and S.point_cell(24) == (25, True)


def test_the_bar_is_a_green_strip_down_the_centre():
    machine = drawn(Position.start())
    for row in range(S.BOTTOM_LETTER_ROW + 1):
        for col in range(S.BAR_COL, S.BAR_COL + S.BAR_COLS):
            assert (machine.memory[S.attr_addr(col, row)] >> 3) & 7 == S.GREEN


def test_white_men_on_human_points_black_men_on_computer_points_at_the_start():
    machine = drawn(Position.start())
    memory = machine.memory
    for point, ink in ((6, S.WHITE), (8, S.WHITE), (13, S.WHITE), (24, S.WHITE),
                       (1, S.BLACK), (12, S.BLACK), (17, S.BLACK), (19, S.BLACK)):
        col, is_top = S.point_cell(point)
        row = S.man_slot_row(is_top, 0)
        assert memory[S.attr_addr(col, row)] & 7 == ink, point


def test_colours_respect_the_attribute_grid_a_man_cell_holds_only_the_man():
    position = Position.from_points({6: 7, 8: 3, 13: 2, 24: 2, "bar": 1},
                                    {6: 5, 8: 3, 13: 5, "bar": 1})
    machine = drawn(position)
    memory = machine.memory
    view = view_of(position)
    for point in range(1, 25):
        col, is_top = S.point_cell(point)
        first = S.TOP_FIRST_ROW if is_top else S.BOTTOM_FIRST_ROW
        men_rows = set()
        for slot in range(min(abs(view.points[point]), S.MEN_SHOWN)):
            row = S.man_slot_row(is_top, slot)
            men_rows |= {row, row + 1}
        for row in range(first, first + S.HALF_ROWS):
            for c in (col, col + 1):
                a = memory[S.attr_addr(c, row)]
                label_row = S.man_slot_row(is_top, S.MEN_SHOWN - 1) + (0 if is_top else 1)
                if abs(view.points[point]) > S.MEN_SHOWN and row == label_row:
                    assert a in (S.attr(S.BLACK, S.WHITE), S.attr(S.WHITE, S.BLACK))
                    continue                               # the count, a label of its own
                assert (a >> 3) & 7 == S.BOARD_PAPER
                if row in men_rows:
                    assert a & 7 in (S.WHITE, S.BLACK)
                else:
                    assert a & 7 == S.point_ink(point)    # the triangle's own colour only


def test_more_men_than_fit_show_a_count():
    position = Position.from_points({6: 7, 8: 3, 13: 3, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    machine = drawn(position)
    col, is_top = S.point_cell(6)
    row = S.man_slot_row(is_top, S.MEN_SHOWN - 1)
    assert machine.screen_text()[row + 1][col:col + 2] == " 7"


def test_men_borne_off_shown_beside_the_board():
    position = Position.from_points({1: 2, 2: 3}, {1: 15 - 9})
    machine = drawn(position)
    memory = machine.memory
    rows_with_bars = [y for y in range(S.WHITE_TRAY_ROW * 8, (S.WHITE_TRAY_ROW + S.TRAY_ROWS) * 8)
                      if memory[S.bitmap_addr(S.TRAY_COL + 1, y)] == 0xFF]
    assert len(rows_with_bars) == 2 * 10                  # ten white men off, 2 lines each
    rows_black = [y for y in range(S.BLACK_TRAY_ROW * 8, (S.BLACK_TRAY_ROW + S.TRAY_ROWS) * 8)
                  if memory[S.bitmap_addr(S.TRAY_COL + 1, y)] == 0xFF]
    assert len(rows_black) == 2 * 9


def test_dice_are_drawn_with_pips_not_digits():
    for face in range(1, 7):
        machine = drawn(Position.start())
        machine.screen.draw_dice(face, 7 - face)
        for row, count in ((S.TOP_DIE_ROW, face), (S.BOTTOM_DIE_ROW, 7 - face)):
            lit = 0
            for c in range(S.DIE_COL, S.DIE_COL + S.DIE_CELLS):
                for y in range(row * 8 + 1, (row + S.DIE_CELLS) * 8 - 1):
                    byte = machine.memory[S.bitmap_addr(c, y)]
                    if c == S.DIE_COL:
                        byte &= 0x7F                     # the die's left edge
                    if c == S.DIE_COL + S.DIE_CELLS - 1:
                        byte &= 0xFE                     # its right edge
                    lit += bin(byte).count("1")
            assert lit == count * 12                      # a pip is 12 pixels
        assert "\0" not in "".join(machine.screen_text()[S.TOP_DIE_ROW])
        assert not any(ch.isdigit() for ch in machine.screen_text()[S.TOP_DIE_ROW][S.DIE_COL:])
