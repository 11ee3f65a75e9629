"""All screen geometry of the game, once: board, points as triangles, men, bar, borne-off
trays, dice with pips, the doubling cube, point letters and the message line, drawn into the
48K's screen memory (pixels and attributes POKEd, text printed through game/zx/basic.py), in any
board style of game/files/settings.py, mirrored or not, tokens swapped or not. Not the game flow."""
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from game.board import glyphs, numbers
from game.board.glyphs import CUBE_COLS, CUBE_ROWS, CUBE_VALUES, HOLLOW_MAN_GLYPH, MAN_GLYPH
from game.board.lines import COLUMNS, fit
from game.board.palette import Palette, attr, contrast
from game.files.settings import BoardStyle, Settings
from game.model.position import BAR as BAR_INDEX
from game.model.position import BAR_LETTER, MEN_PER_SIDE, POINT_LETTERS, ROW_LEN, Position
from spectrum.hw import ATTR_ADDR, BLACK, BLUE, CYAN, GREEN, RED, SCREEN_ADDR, WHITE, YELLOW

COLS, ROWS = COLUMNS, 24             # character cells
WIDTH_PX = 8 * COLS

# --- the layout, in character cells (the unmirrored board; see Screen.set_mirrored) ---
FRAME_COLS = (0, 27)                 # wooden sides of the board
LEFT_HALF_COL = 1                    # first column of the outer table (points l..g / m..r)
BAR_COL = 13                         # the bar: 2 columns, green, down the centre
BAR_COLS = 2
RIGHT_HALF_COL = 15                  # first column of the inner tables (f..a / s..x)
POINT_COLS = 2                       # a point is 2 cells (16 pixels) wide
PANEL_COL = 28                       # beside the board: trays, dice, cube, cols 28-31
TOP_LETTER_ROW = 0
TOP_FIRST_ROW = 1                    # top points hang from row 1 ...
HALF_ROWS = 10                       # ... over 10 rows (5 men of 2 rows each)
BOTTOM_FIRST_ROW = 12                # bottom points stand on row 21
BOTTOM_LETTER_ROW = 22
MESSAGE_ROW = 23
PAGE_LINES = ROWS - 3                # a text page's lines, between its title bar and footer
TRIANGLE_PX = 72                     # triangle height in pixels (9 rows)
MAN_ROWS = 2                         # a man is 16 x 16 pixels
MEN_SHOWN = HALF_ROWS // MAN_ROWS    # 5 men fit on a point; more show a count

# The panel, top to bottom: the cube when the computer (black) owns it (rows 0-1), the
# computer's tray (2-6), the top die (7-9), the cube in the centre (10-11), the bottom die
# (12-14), the human's tray (16-20), the cube when the human (white) owns it (21-22).
TRAY_COL, TRAY_COLS = 28, 3
TRAY_ROWS = 5                        # 40 px: 15 slim men, 2 px each, packed closer past 13
BLACK_TRAY_ROW = 2                   # the computer's tray, top right
WHITE_TRAY_ROW = 16                  # the human's tray, bottom right (rows 16-20)
MAN_SLICE_PX = 3                     # a borne-off man seen edge-on: 2 px, 1 px gap
DIE_COL, DIE_CELLS = 28, 3
TOP_DIE_ROW = 7                      # the computer's die at the opening throw
BOTTOM_DIE_ROW = 12                  # the human's die at the opening throw
CUBE_COL = 28                        # the doubling cube (glyphs.py: its size)
CUBE_ROW = {None: 10, "computer": 0, "human": 21}
OWNER_SIDES = {None: None, "centre": None, "center": None, "human": "human",
               "computer": "computer", "white": "human", "black": "computer"}

# --- colours of the classic (1983) board; a Screen takes its own from its style ---
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
CUBE = attr(BLACK, YELLOW)                     # a black cube, figures in the panel's paper


def bitmap_addr(x_byte: int, y: int) -> int:
    """Address of the screen byte holding pixels 8*x_byte.. of pixel row y
    (docs/HARDWARE.md §2)."""
    return SCREEN_ADDR | (y >> 6) << 11 | (y & 7) << 8 | ((y >> 3) & 7) << 5 | x_byte


def attr_addr(col: int, row: int) -> int:
    return ATTR_ADDR + 32 * row + col


def mirror_col(col: int, cols: int = 1) -> int:
    """The first column of a block `cols` wide at `col`, once the board is mirrored."""
    return COLS - col - cols


def point_cell(point: int, mirrored: bool = False) -> tuple[int, bool]:
    """(first column, is_top) of point 1..24 (a..x, the human's numbering).
    Bottom row, right to left: a..f then l..g beyond the bar; top row, left to right: m..x.
    Mirrored: bottom row left to right a..f, bar, g..l; top row x..s, bar, r..m."""
    if not 1 <= point <= 24:
        raise ValueError(f"no point {point}")
    if point <= 6:
        col, top = RIGHT_HALF_COL + (6 - point) * POINT_COLS, False
    elif point <= 12:
        col, top = LEFT_HALF_COL + (12 - point) * POINT_COLS, False
    elif point <= 18:
        col, top = LEFT_HALF_COL + (point - 13) * POINT_COLS, True
    else:
        col, top = RIGHT_HALF_COL + (point - 19) * POINT_COLS, True
    return (mirror_col(col, POINT_COLS) if mirrored else col), top


def point_ink(point: int) -> int:
    """The classic board's colour of a point's triangle."""
    return TRIANGLE_INKS[point % 2]


def man_slot_row(is_top: bool, slot: int) -> int:
    """Top cell row of the man in stack slot 0.. (slot 0 at the board's edge)."""
    if is_top:
        return TOP_FIRST_ROW + slot * MAN_ROWS
    return BOTTOM_FIRST_ROW + HALF_ROWS - MAN_ROWS - slot * MAN_ROWS


def cube_side(owner: str | None) -> str | None:
    """None (centred), "human" or "computer"; "white" and "black" (two players) are the
    human's and the computer's sides of the board."""
    try:
        return OWNER_SIDES[owner]
    except (KeyError, TypeError):
        raise ValueError(f"no cube owner {owner!r}: "
                         "None, human, computer, white or black") from None


def cube_cell(owner: str | None, mirrored: bool = False) -> tuple[int, int]:
    """(first column, first row) of the cube's 3 x 2 cells for an owner (None = centred)."""
    row = CUBE_ROW[cube_side(owner)]
    return (mirror_col(CUBE_COL, CUBE_COLS) if mirrored else CUBE_COL), row


def read_cube(mem: bytearray, mirrored: bool = False) -> tuple[int, str | None] | None:
    """What the screen in `mem` shows of the cube: (value, owner side) with the side None
    (centred), "human" or "computer"; None when no cube is drawn. Reads the cells' pixels."""
    for side, row in CUBE_ROW.items():
        col = mirror_col(CUBE_COL, CUBE_COLS) if mirrored else CUBE_COL
        found = bytes(mem[bitmap_addr(col + c, (row + r) * 8 + k)]
                      for r in range(CUBE_ROWS) for c in range(CUBE_COLS) for k in range(8))
        for value in CUBE_VALUES:
            if found == glyphs.cube_bytes(value):
                return value, side
    return None


@dataclass
class BoardView:
    """What the screen shows: points[1..24] signed (+ white/human men, - black/computer men),
    men on the bar and borne off per side. Index 0 of points is unused."""
    points: list[int] = field(default_factory=lambda: [0] * 25)
    bar_white: int = 0
    bar_black: int = 0
    off_white: int = 0
    off_black: int = 0


def view_of(position: Position) -> BoardView:
    """What the screen shows of a position held with the HUMAN on roll (row 0 = white)."""
    return view_of_counts(position.board)


def view_of_counts(board: Sequence[int]) -> BoardView:
    """The same for 50 counts in the position's layout that need not be a possible position
    yet (a board being set up): the men not on a row are borne off."""
    points = [0] * 25
    for p in range(1, 25):
        white = board[p - 1]
        black = board[ROW_LEN + 24 - p]
        points[p] = white if white else -black
    white_bar, black_bar = board[BAR_INDEX], board[ROW_LEN + BAR_INDEX]
    return BoardView(points, white_bar, black_bar, MEN_PER_SIDE - sum(board[:ROW_LEN]),
                     MEN_PER_SIDE - sum(board[ROW_LEN:]))


class Screen:
    """Draws on the machine. `mem` is the machine's 64K memory (anything indexable by
    address); `text(row, col, string, attr_byte)` prints through the ROM (game/zx/basic.py).
    `style` is a board style (a name in game/files/settings.py's BOARD_STYLES or a BoardStyle;
    classic by default). Every drawing method takes the unmirrored board's cells: when the
    board is mirrored (set_mirrored) they land mirrored, text reading left to right."""

    def __init__(self, mem: bytearray, text: Callable[[int, int, str, int], None],
                 style: str | BoardStyle | None = None, mirrored: bool = False,
                 tokens_swapped: bool = False) -> None:
        self.mem = mem
        self.print_at = text
        self.shown = BoardView()
        self.style = style
        self.mirrored = bool(mirrored)
        self.tokens_swapped = bool(tokens_swapped)
        self.palette = Palette.of(style, self.tokens_swapped)
        self.cube: tuple | None = None   # (value, side) on the board, or None
        # top/bottom: (face, black)
        self.dice: dict[bool, tuple[int | None, bool]] = {True: (None, True), False: (None, False)}
        self.last_message: str | None = None
        self.board_drawn = False
        self.numbers_shown = True        # the score and pips (numbers.py; an option)
        self.numbers: tuple = ("You", "Me", None)   # bottom's name, top's, (score) or None
        self.numbers_drawn: tuple | None = None     # what numbers.draw last drew

    # ---------- options: style, tokens, directions ----------
    def set_style(self, style: str | BoardStyle | None) -> None:
        """Draw in another board style (a name in settings.BOARD_STYLES or a BoardStyle);
        the board on screen, if any, is redrawn in it."""
        before = self.palette
        self.palette = Palette.of(style, self.tokens_swapped)
        self.style = style
        self._redraw_if_changed(before, self.mirrored)

    def set_tokens_swapped(self, swapped: bool) -> None:
        """Swap the colours of the two sides' men (and of their dice and trays)."""
        before = self.palette
        self.tokens_swapped = bool(swapped)
        self.palette = Palette.of(self.style, self.tokens_swapped)
        self._redraw_if_changed(before, self.mirrored)

    def set_mirrored(self, mirrored: bool) -> None:
        """Mirror the board left-right: the human's home board bottom left, the panel on the
        left; point letters stay with their points, so 'a' is bottom left."""
        before = self.mirrored
        self.mirrored = bool(mirrored)
        self._redraw_if_changed(self.palette, before)

    def apply_settings(self, settings: Settings) -> None:
        """Take board_style, switch_tokens and switch_directions from a game/files/settings.py
        Settings at once (one redraw, none when nothing changed)."""
        before = self.palette, self.mirrored
        self.style = settings.board_style
        self.tokens_swapped = bool(settings.switch_tokens)
        self.mirrored = bool(settings.switch_directions)
        self.palette = Palette.of(self.style, self.tokens_swapped)
        self.numbers_shown = bool(settings.score_pips) and not settings.rules_1983
        self._redraw_if_changed(*before)

    def _redraw_if_changed(self, palette: "Palette", mirrored: bool) -> None:
        """Redraw a board on screen whose colours or direction have just changed."""
        if self.board_drawn and (palette, mirrored) != (self.palette, self.mirrored):
            self.redraw()

    def redraw(self) -> None:
        """The whole board again as it stands: men, dice, cube and the last message."""
        dice, cube, words = dict(self.dice), self.cube, self.last_message
        self.draw_board(self.shown)
        for top, (face, black) in dice.items():
            if face is not None:
                self.draw_die(top, face, black)
        if cube is not None:
            self.draw_cube(*cube)
        if words is not None:
            self.message(words)

    @property
    def panel_attr(self) -> int:
        """The colours of the panel beside the board (for words printed there)."""
        return self.palette.frame_attr

    def point_cell(self, point: int) -> tuple[int, bool]:
        """(first column on screen, is_top) of a point as this screen draws it."""
        return point_cell(point, self.mirrored)

    def point_ink(self, point: int) -> int:
        return self.palette.points[point % 2]

    def column(self, col: int, cols: int = 1) -> int:
        """Where a block `cols` wide at the unmirrored board's `col` is on screen."""
        return mirror_col(col, cols) if self.mirrored else col

    # ---------- low-level cells (unmirrored board coordinates) ----------
    def text(self, row: int, col: int, words: str, attr_byte: int) -> None:
        """PRINT AT through the ROM; on a mirrored board the words move with the board but
        still read left to right. The message line is not the board: it never moves."""
        if row < MESSAGE_ROW:
            col = self.column(col, len(words))
        self.print_at(row, col, words, attr_byte)

    def set_attr(self, col: int, row: int, value: int) -> None:
        self.mem[attr_addr(self.column(col), row)] = value

    def fill_cells(self, col: int, row: int, cols: int, rows: int, value: int,
                   pixels: int = 0) -> None:
        """Attributes of a block of cells, and their 8 pixel rows set to `pixels`."""
        col = self.column(col, cols)
        for r in range(row, row + rows):
            for c in range(col, col + cols):
                self.mem[attr_addr(c, r)] = value
                for line in range(8):
                    self.mem[bitmap_addr(c, r * 8 + line)] = pixels

    def put_glyph(self, col: int, y: int, rows: tuple[str, ...], flip: bool = True) -> None:
        """Write a bitmap ('#' = ink) whose top-left pixel is (8*col, y); full bytes.
        Mirrored, it lands mirrored, its pixels flipped too unless `flip` is False."""
        width = max(len(line) for line in rows)
        width_bytes = (width + 7) // 8
        col = self.column(col, width_bytes)
        for dy, line in enumerate(rows):
            line = line.ljust(8 * width_bytes, ".")
            if self.mirrored and flip:
                line = line[::-1]
            for byte_i in range(width_bytes):
                chunk = line[8 * byte_i:8 * byte_i + 8]
                value = 0
                for bit, ch in enumerate(chunk):
                    if ch == "#":
                        value |= 0x80 >> bit
                self.mem[bitmap_addr(col + byte_i, y + dy)] = value

    def or_pixels(self, x: int, y: int, rows: tuple[str, ...]) -> None:
        """OR a small bitmap in at any pixel position (mirrored with the board)."""
        width = max(len(line) for line in rows)
        if self.mirrored:
            x = WIDTH_PX - x - width
            rows = tuple(line.ljust(width, ".")[::-1] for line in rows)
        for dy, line in enumerate(rows):
            for dx, ch in enumerate(line):
                if ch == "#":
                    px = x + dx
                    self.mem[bitmap_addr(px >> 3, y + dy)] |= 0x80 >> (px & 7)

    # ---------- the board ----------
    def draw_board(self, view: BoardView | None = None) -> None:
        """The whole board screen: frame, 24 triangles, bar, letters, panel, message line."""
        pal = self.palette
        frame = pal.frame_attr
        bar = pal.a(pal.bar_ink, pal.bar)
        for row in range(ROWS - 1):
            for col in FRAME_COLS:
                self.fill_cells(col, row, 1, 1, frame)
        self.fill_cells(LEFT_HALF_COL, TOP_LETTER_ROW, 26, 1, frame)
        self.fill_cells(LEFT_HALF_COL, BOTTOM_LETTER_ROW, 26, 1, frame)
        self.fill_cells(LEFT_HALF_COL, BOTTOM_FIRST_ROW - 1, 26, 1, pal.a(BLACK, pal.board))
        self.fill_cells(BAR_COL, 0, BAR_COLS, BOTTOM_LETTER_ROW + 1, bar)
        self.fill_cells(PANEL_COL, 0, COLS - PANEL_COL, ROWS - 1, frame)
        self.fill_cells(0, MESSAGE_ROW, COLS, 1, MESSAGE)
        for point in range(1, 25):
            self.draw_point(point, 0)
        self.draw_letters()
        self.text(TOP_LETTER_ROW, BAR_COL, BAR_LETTER + " ", bar)
        self.draw_tray(False, 0)
        self.draw_tray(True, 0)
        self.shown = BoardView()
        self.cube = None
        self.dice = {True: (None, True), False: (None, False)}
        self.last_message = None
        self.board_drawn = True
        self.numbers_drawn = None        # numbers.draw: what the gap and panel show
        self.show(view or BoardView())

    def draw_letters(self) -> None:
        for point in range(1, 25):
            col, is_top = point_cell(point)
            row = TOP_LETTER_ROW if is_top else BOTTOM_LETTER_ROW
            self.text(row, col, POINT_LETTERS[point - 1] + " ", self.palette.frame_attr)

    def triangle_rows(self, is_top: bool) -> list[str]:
        """The 16-pixel-wide triangle, one string per pixel row, base first (in a style
        whose points are all one colour, a pixel narrower each side so they stay apart)."""
        base_px = 8.0 if self.palette.points[0] != self.palette.points[1] else 7.0
        rows = []
        for t in range(HALF_ROWS * 8):
            half_px = base_px * (1 - (t + 0.5) / TRIANGLE_PX) if t < TRIANGLE_PX else 0
            line = "".join("#" if abs(x - 7.5) < half_px else "." for x in range(16))
            rows.append(line)
        return rows if is_top else rows[::-1]

    def draw_point(self, point: int, men: int) -> None:
        """Redraw one point: its triangle, then `men` (+ white, - black) stacked from the edge."""
        col, is_top = point_cell(point)
        first_row = TOP_FIRST_ROW if is_top else BOTTOM_FIRST_ROW
        tri = self.palette.a(self.point_ink(point), self.palette.board)
        self.fill_cells(col, first_row, POINT_COLS, HALF_ROWS, tri)
        self.put_glyph(col, first_row * 8, tuple(self.triangle_rows(is_top)))
        ink = self.palette.men(men > 0)
        self.draw_stack(col, is_top, abs(men), ink, self.palette.board)

    def draw_stack(self, col: int, is_top: bool, count: int, ink: int, paper: int) -> None:
        """Up to 5 men from the edge; above 5 the 5th place shows the count instead. A man the
        colour of the paper is drawn hollow: outlined in the contrasting colour."""
        shown = count if count <= MEN_SHOWN else MEN_SHOWN - 1
        man = attr(ink, paper, self.palette.bright)
        glyph: tuple[str, ...] = MAN_GLYPH
        if ink == paper:
            man, glyph = attr(contrast(paper), paper, self.palette.bright), HOLLOW_MAN_GLYPH
        for slot in range(shown):
            row = man_slot_row(is_top, slot)
            self.fill_cells(col, row, POINT_COLS, MAN_ROWS, man)
            self.put_glyph(col, row * 8, glyph)
        if count > MEN_SHOWN:
            row = man_slot_row(is_top, MEN_SHOWN - 1)
            label = attr(contrast(ink), ink, self.palette.bright)
            self.fill_cells(col, row, POINT_COLS, MAN_ROWS, man)
            self.text(row + (0 if is_top else 1), col, f"{count:>2}", label)

    def draw_bar(self, white: int, black: int) -> None:
        """Men on the bar: the human's white men in the top half (they enter at s..x),
        the computer's black men in the bottom half (they enter at a..f)."""
        pal = self.palette
        bar = pal.a(pal.bar_ink, pal.bar)
        self.fill_cells(BAR_COL, TOP_FIRST_ROW, BAR_COLS, HALF_ROWS, bar)
        self.fill_cells(BAR_COL, BOTTOM_FIRST_ROW, BAR_COLS, HALF_ROWS, bar)
        self.draw_stack(BAR_COL, True, white, pal.men(True), pal.bar)
        self.draw_stack(BAR_COL, False, black, pal.men(False), pal.bar)

    def draw_tray(self, white: bool, count: int) -> None:
        """Men borne off, seen edge-on as slim bars 2 px thick: the computer's at the top
        right, stacking down; the human's at the bottom right, stacking up. Past 13 men they
        pack closer so 15 fit."""
        pal = self.palette
        row = WHITE_TRAY_ROW if white else BLACK_TRAY_ROW
        tray = pal.a(pal.men(white), pal.human_tray if white else pal.computer_tray)
        self.fill_cells(TRAY_COL, row, TRAY_COLS, TRAY_ROWS, tray)
        room_px = TRAY_ROWS * 8 - 2 - 2                    # a 1 px margin at each end
        step = MAN_SLICE_PX if count <= 1 or (count - 1) * MAN_SLICE_PX <= room_px \
            else room_px / (count - 1)
        width = 8 * TRAY_COLS
        slice_rows = ("." + "#" * (width - 2) + ".",) * 2
        if (pal.human_tray if white else pal.computer_tray) == pal.frame:
            # a tray of the panel's own paper would vanish when empty: outline it in ink
            edge, side = "#" * width, "#" + "." * (width - 2) + "#"
            self.put_glyph(TRAY_COL, row * 8, (edge,) + (side,) * (TRAY_ROWS * 8 - 2) + (edge,))
            slice_rows = ("#" * width,) * 2
        for i in range(count):
            offset = round(i * step)
            y = (row + TRAY_ROWS) * 8 - 3 - offset if white else row * 8 + 1 + offset
            self.put_glyph(TRAY_COL, y, slice_rows)

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
        numbers.draw(self)

    # ---------- dice ----------
    def draw_die(self, top: bool, face: int | None, black: bool) -> None:
        """A die 3 x 3 cells beside the board; `face` None clears it. `black`: the die of the
        computer's (black) side, else the human's; each in the colour of its side's men."""
        row = TOP_DIE_ROW if top else BOTTOM_DIE_ROW
        self.dice[top] = (face, black)
        if face is None:
            self.fill_cells(DIE_COL, row, DIE_CELLS, DIE_CELLS, self.palette.frame_attr)
            return
        self.fill_cells(DIE_COL, row, DIE_CELLS, DIE_CELLS, self.palette.die_attr(not black))
        size_px = DIE_CELLS * 8
        outline = []
        for y in range(size_px):
            if y in (0, size_px - 1):
                outline.append("." + "#" * (size_px - 2) + ".")
            else:
                outline.append("#" + "." * (size_px - 2) + "#")
        self.put_glyph(DIE_COL, row * 8, tuple(outline))
        for gx, gy in glyphs.PIP_SPOTS[face]:
            self.or_pixels(DIE_COL * 8 + 4 + gx * 6, row * 8 + 4 + gy * 6, glyphs.PIP_GLYPH)

    def draw_dice(self, top_face: int | None, bottom_face: int | None,
                  top_black: bool = True, bottom_black: bool = False) -> None:
        self.draw_die(True, top_face, top_black)
        self.draw_die(False, bottom_face, bottom_black)

    # ---------- the doubling cube ----------
    def draw_cube(self, value: int | None, owner: str | None = None) -> None:
        """The doubling cube beside the board, showing `value` (1, 2, 4 .. 64): centred
        between the dice when no one owns it (owner None), by the bottom tray when the human
        (or "white") owns it, by the top tray for the computer (or "black"). The cube is
        moved, not copied: it is cleared where it was. `value` None clears it."""
        if value is None:
            self.clear_cube()
            return
        side = cube_side(owner)
        glyph = glyphs.cube_glyph(value)
        self.clear_cube()
        col, row = CUBE_COL, CUBE_ROW[side]
        pal = self.palette
        self.fill_cells(col, row, CUBE_COLS, CUBE_ROWS, pal.a(pal.cube_ink, pal.frame))
        self.put_glyph(col, row * 8, glyph, flip=False)
        self.cube = (value, side)

    def clear_cube(self) -> None:
        """Take the cube off the board (the cube switched off, or before it moves)."""
        if self.cube is not None:
            row = CUBE_ROW[self.cube[1]]
            self.fill_cells(CUBE_COL, row, CUBE_COLS, CUBE_ROWS, self.palette.frame_attr)
        self.cube = None

    def read_cube(self) -> tuple[int, str | None] | None:
        """(value, side) of the cube as the screen shows it, read from the pixels; or None."""
        return read_cube(self.mem, self.mirrored)

    # ---------- the message line ----------
    def message(self, words: str) -> None:
        """Clear the message line and print `words` on it (cut to 32 columns)."""
        self.last_message = words
        self.print_at(MESSAGE_ROW, 0, fit(words).ljust(COLS), MESSAGE)
