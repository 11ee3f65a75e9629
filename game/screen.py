"""All screen geometry of the game, once: board, points as triangles, men, bar, borne-off
trays, dice with pips, point letters and the message line, drawn into the 48K's screen
memory (pixels and attributes POKEd, text printed through game/basic.py). Not the game flow."""
from dataclasses import dataclass, field

# --- colours: Spectrum colour numbers (SPECTRUM.md §3) ---
BLACK, BLUE, RED, MAGENTA, GREEN, CYAN, YELLOW, WHITE = range(8)


def attr(ink: int, paper: int, bright: bool = False, flash: bool = False) -> int:
    """An attribute byte: FLASH bit 7, BRIGHT bit 6, PAPER bits 5-3, INK bits 2-0."""
    return (0x80 if flash else 0) | (0x40 if bright else 0) | (paper << 3) | ink


SCREEN_ADDR = 0x4000                 # display file (SPECTRUM.md §2)
ATTR_ADDR = 0x5800                   # attributes, 32 a row
COLS, ROWS = 32, 24                  # character cells

# --- the layout, in character cells ---
FRAME_COLS = (0, 27)                 # wooden sides of the board
LEFT_HALF_COL = 1                    # first column of the outer table (points l..g / m..r)
BAR_COL = 13                         # the bar: 2 columns, green, down the centre
BAR_COLS = 2
RIGHT_HALF_COL = 15                  # first column of the inner tables (f..a / s..x)
POINT_COLS = 2                       # a point is 2 cells (16 pixels) wide
PANEL_COL = 28                       # beside the board: trays and dice, cols 28-31
TOP_LETTER_ROW = 0
TOP_FIRST_ROW = 1                    # top points hang from row 1 ...
HALF_ROWS = 10                       # ... over 10 rows (5 men of 2 rows each)
BOTTOM_FIRST_ROW = 12                # bottom points stand on row 21
BOTTOM_LETTER_ROW = 22
MESSAGE_ROW = 23
TRIANGLE_PX = 72                     # triangle height in pixels (9 rows)
MAN_ROWS = 2                         # a man is 16 x 16 pixels
MEN_SHOWN = HALF_ROWS // MAN_ROWS    # 5 men fit on a point; more show a count

# trays of men borne off (panel columns 28-30) and the dice (3 x 3 cells)
TRAY_COL, TRAY_COLS = 28, 3
TRAY_ROWS = 6                        # 15 slim men, 3 pixels each = 45 px
BLACK_TRAY_ROW = 1                   # the computer's tray, top right
WHITE_TRAY_ROW = 16                  # the human's tray, bottom right (rows 16-21)
MAN_SLICE_PX = 3                     # a borne-off man seen edge-on: 2 px, 1 px gap
DIE_COL, DIE_CELLS = 28, 3
TOP_DIE_ROW = 7                      # the computer's die at the opening throw
BOTTOM_DIE_ROW = 12                  # the human's die at the opening throw

# --- colours of the board ---
FRAME = attr(BLACK, YELLOW)
BOARD_PAPER = BLUE
TRIANGLE_INKS = (RED, CYAN)          # alternate points
BAR = attr(WHITE, GREEN)
PANEL = attr(BLACK, YELLOW)
MESSAGE = attr(BLACK, WHITE)
WHITE_MAN_INK, BLACK_MAN_INK = WHITE, BLACK
WHITE_TRAY = attr(WHITE, BLUE)
BLACK_TRAY = attr(BLACK, CYAN)
WHITE_DIE = attr(BLACK, WHITE, bright=True)    # the human's dice: black pips on white
BLACK_DIE = attr(WHITE, BLACK, bright=True)    # the computer's: white pips on black
LETTERS = "abcdefghijklmnopqrstuvwx"           # point 1 (a) .. point 24 (x), human's side
BAR_LETTER = "z"

# A man, 16 x 16: a disc with a paper-coloured ring inside it so it reads as a counter.
MAN_GLYPH = (
    "................",
    ".....######.....",
    "...##########...",
    "..############..",
    "..###......###..",
    ".###.######.###.",
    ".###.######.###.",
    ".###.######.###.",
    ".###.######.###.",
    ".###.######.###.",
    ".###.######.###.",
    "..###......###..",
    "..############..",
    "...##########...",
    ".....######.....",
    "................",
)
PIP_GLYPH = (".##.", "####", "####", ".##.")
# pip centres on a 3 x 3 grid (column, row) for each face
PIP_SPOTS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def bitmap_addr(x_byte: int, y: int) -> int:
    """Address of the screen byte holding pixels 8*x_byte.. of pixel row y (SPECTRUM.md §2)."""
    return SCREEN_ADDR | (y >> 6) << 11 | (y & 7) << 8 | ((y >> 3) & 7) << 5 | x_byte


def attr_addr(col: int, row: int) -> int:
    return ATTR_ADDR + 32 * row + col


def point_cell(point: int) -> tuple[int, bool]:
    """(first column, is_top) of point 1..24 (a..x, the human's numbering).
    Bottom row, right to left: a..f then l..g beyond the bar; top row, left to right: m..x."""
    if not 1 <= point <= 24:
        raise ValueError(f"no point {point}")
    if point <= 6:
        return RIGHT_HALF_COL + (6 - point) * POINT_COLS, False
    if point <= 12:
        return LEFT_HALF_COL + (12 - point) * POINT_COLS, False
    if point <= 18:
        return LEFT_HALF_COL + (point - 13) * POINT_COLS, True
    return RIGHT_HALF_COL + (point - 19) * POINT_COLS, True


def point_ink(point: int) -> int:
    return TRIANGLE_INKS[point % 2]


def man_slot_row(is_top: bool, slot: int) -> int:
    """Top cell row of the man in stack slot 0.. (slot 0 at the board's edge)."""
    if is_top:
        return TOP_FIRST_ROW + slot * MAN_ROWS
    return BOTTOM_FIRST_ROW + HALF_ROWS - MAN_ROWS - slot * MAN_ROWS


@dataclass
class BoardView:
    """What the screen shows: points[1..24] signed (+ white/human men, - black/computer men),
    men on the bar and borne off per side. Index 0 of points is unused."""
    points: list[int] = field(default_factory=lambda: [0] * 25)
    bar_white: int = 0
    bar_black: int = 0
    off_white: int = 0
    off_black: int = 0


class Screen:
    """Draws on the machine. `mem` is the machine's 64K memory (anything indexable by
    address); `text(row, col, string, attr_byte)` prints through the ROM (game/basic.py)."""

    def __init__(self, mem, text):
        self.mem = mem
        self.text = text
        self.shown = BoardView()

    # ---------- low-level cells ----------
    def set_attr(self, col: int, row: int, value: int) -> None:
        self.mem[attr_addr(col, row)] = value

    def fill_cells(self, col: int, row: int, cols: int, rows: int, value: int,
                   pixels: int = 0) -> None:
        """Attributes of a block of cells, and their 8 pixel rows set to `pixels`."""
        for r in range(row, row + rows):
            for c in range(col, col + cols):
                self.mem[attr_addr(c, r)] = value
                for line in range(8):
                    self.mem[bitmap_addr(c, r * 8 + line)] = pixels

    def put_glyph(self, col: int, y: int, rows: tuple[str, ...]) -> None:
        """Write a bitmap ('#' = ink) whose top-left pixel is (8*col, y); full bytes."""
        for dy, line in enumerate(rows):
            for byte_i in range(0, len(line), 8):
                chunk = line[byte_i:byte_i + 8].ljust(8, ".")
                value = 0
                for bit, ch in enumerate(chunk):
                    if ch == "#":
                        value |= 0x80 >> bit
                self.mem[bitmap_addr(col + byte_i // 8, y + dy)] = value

    def or_pixels(self, x: int, y: int, rows: tuple[str, ...]) -> None:
        """OR a small bitmap in at any pixel position."""
        for dy, line in enumerate(rows):
            for dx, ch in enumerate(line):
                if ch == "#":
                    px = x + dx
                    self.mem[bitmap_addr(px >> 3, y + dy)] |= 0x80 >> (px & 7)

    # ---------- the board ----------
    def draw_board(self, view: BoardView | None = None) -> None:
        """The whole board screen: frame, 24 triangles, bar, letters, panel, message line."""
        for row in range(ROWS - 1):
            for col in FRAME_COLS:
                self.fill_cells(col, row, 1, 1, FRAME)
        self.fill_cells(LEFT_HALF_COL, TOP_LETTER_ROW, 26, 1, FRAME)
        self.fill_cells(LEFT_HALF_COL, BOTTOM_LETTER_ROW, 26, 1, FRAME)
        self.fill_cells(LEFT_HALF_COL, BOTTOM_FIRST_ROW - 1, 26, 1, attr(BLACK, BOARD_PAPER))
        self.fill_cells(BAR_COL, 0, BAR_COLS, BOTTOM_LETTER_ROW + 1, BAR)
        self.fill_cells(PANEL_COL, 0, COLS - PANEL_COL, ROWS - 1, PANEL)
        self.fill_cells(0, MESSAGE_ROW, COLS, 1, MESSAGE)
        for point in range(1, 25):
            self.draw_point(point, 0)
        self.draw_letters()
        self.text(TOP_LETTER_ROW, BAR_COL, BAR_LETTER + " ", BAR)
        self.fill_cells(TRAY_COL, BLACK_TRAY_ROW, TRAY_COLS, TRAY_ROWS, BLACK_TRAY)
        self.fill_cells(TRAY_COL, WHITE_TRAY_ROW, TRAY_COLS, TRAY_ROWS, WHITE_TRAY)
        self.shown = BoardView()
        self.show(view or BoardView())

    def draw_letters(self) -> None:
        for point in range(1, 25):
            col, is_top = point_cell(point)
            row = TOP_LETTER_ROW if is_top else BOTTOM_LETTER_ROW
            self.text(row, col, LETTERS[point - 1] + " ", FRAME)

    def triangle_rows(self, is_top: bool) -> list[str]:
        """The 16-pixel-wide triangle, one string per pixel row, base first."""
        rows = []
        for t in range(HALF_ROWS * 8):
            half_px = 8.0 * (1 - (t + 0.5) / TRIANGLE_PX) if t < TRIANGLE_PX else 0
            line = "".join("#" if abs(x - 7.5) < half_px else "." for x in range(16))
            rows.append(line)
        return rows if is_top else rows[::-1]

    def draw_point(self, point: int, men: int) -> None:
        """Redraw one point: its triangle, then `men` (+ white, - black) stacked from the edge."""
        col, is_top = point_cell(point)
        first_row = TOP_FIRST_ROW if is_top else BOTTOM_FIRST_ROW
        tri = attr(point_ink(point), BOARD_PAPER)
        self.fill_cells(col, first_row, POINT_COLS, HALF_ROWS, tri)
        self.put_glyph(col, first_row * 8, tuple(self.triangle_rows(is_top)))
        ink = WHITE_MAN_INK if men > 0 else BLACK_MAN_INK
        self.draw_stack(col, is_top, abs(men), ink, BOARD_PAPER)

    def draw_stack(self, col: int, is_top: bool, count: int, ink: int, paper: int) -> None:
        """Up to 5 men from the edge; above 5 the 5th place shows the count instead."""
        shown = count if count <= MEN_SHOWN else MEN_SHOWN - 1
        for slot in range(shown):
            row = man_slot_row(is_top, slot)
            self.fill_cells(col, row, POINT_COLS, MAN_ROWS, attr(ink, paper))
            self.put_glyph(col, row * 8, MAN_GLYPH)
        if count > MEN_SHOWN:
            row = man_slot_row(is_top, MEN_SHOWN - 1)
            label = attr(BLACK, WHITE) if ink == WHITE else attr(WHITE, BLACK)
            self.fill_cells(col, row, POINT_COLS, MAN_ROWS, attr(ink, paper))
            self.text(row + (0 if is_top else 1), col, f"{count:>2}", label)

    def draw_bar(self, white: int, black: int) -> None:
        """Men on the bar: the human's white men in the top half (they enter at s..x),
        the computer's black men in the bottom half (they enter at a..f)."""
        self.fill_cells(BAR_COL, TOP_FIRST_ROW, BAR_COLS, HALF_ROWS, BAR)
        self.fill_cells(BAR_COL, BOTTOM_FIRST_ROW, BAR_COLS, HALF_ROWS, BAR)
        self.draw_stack(BAR_COL, True, white, WHITE_MAN_INK, GREEN)
        self.draw_stack(BAR_COL, False, black, BLACK_MAN_INK, GREEN)

    def draw_tray(self, white: bool, count: int) -> None:
        """Men borne off, seen edge-on as slim bars: the computer's at the top right,
        stacking down; the human's at the bottom right, stacking up."""
        row = WHITE_TRAY_ROW if white else BLACK_TRAY_ROW
        self.fill_cells(TRAY_COL, row, TRAY_COLS, TRAY_ROWS, WHITE_TRAY if white else BLACK_TRAY)
        bottom_y = (row + TRAY_ROWS) * 8 - 2
        for i in range(count):
            y = bottom_y - i * MAN_SLICE_PX - 1 if white else row * 8 + 1 + i * MAN_SLICE_PX
            for dy in range(2):
                for c in range(TRAY_COLS):
                    left = c == 0
                    right = c == TRAY_COLS - 1
                    self.mem[bitmap_addr(TRAY_COL + c, y + dy)] = (
                        0x7F if left else 0xFE if right else 0xFF)

    def show(self, view: BoardView) -> None:
        """Bring the screen up to `view`, redrawing only what changed."""
        for point in range(1, 25):
            if view.points[point] != self.shown.points[point]:
                self.draw_point(point, view.points[point])
        if (view.bar_white, view.bar_black) != (self.shown.bar_white, self.shown.bar_black):
            self.draw_bar(view.bar_white, view.bar_black)
        if view.off_white != self.shown.off_white:
            self.draw_tray(True, view.off_white)
        if view.off_black != self.shown.off_black:
            self.draw_tray(False, view.off_black)
        self.shown = BoardView(list(view.points), view.bar_white, view.bar_black,
                               view.off_white, view.off_black)

    # ---------- dice ----------
    def draw_die(self, top: bool, face: int | None, black: bool) -> None:
        """A die 3 x 3 cells beside the board; `face` None clears it."""
        row = TOP_DIE_ROW if top else BOTTOM_DIE_ROW
        if face is None:
            self.fill_cells(DIE_COL, row, DIE_CELLS, DIE_CELLS, PANEL)
            return
        self.fill_cells(DIE_COL, row, DIE_CELLS, DIE_CELLS, BLACK_DIE if black else WHITE_DIE)
        size_px = DIE_CELLS * 8
        outline = []
        for y in range(size_px):
            if y in (0, size_px - 1):
                outline.append("." + "#" * (size_px - 2) + ".")
            else:
                outline.append("#" + "." * (size_px - 2) + "#")
        self.put_glyph(DIE_COL, row * 8, tuple(outline))
        for gx, gy in PIP_SPOTS[face]:
            self.or_pixels(DIE_COL * 8 + 4 + gx * 6, row * 8 + 4 + gy * 6, PIP_GLYPH)

    def draw_dice(self, top_face: int | None, bottom_face: int | None,
                  top_black: bool = True, bottom_black: bool = False) -> None:
        self.draw_die(True, top_face, top_black)
        self.draw_die(False, bottom_face, bottom_black)

    # ---------- the message line ----------
    def message(self, words: str) -> None:
        """Clear the message line and print `words` on it (cut to 32 columns)."""
        self.text(MESSAGE_ROW, 0, words[:COLS].ljust(COLS), MESSAGE)
