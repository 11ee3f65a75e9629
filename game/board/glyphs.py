"""The game's pixel art as rows of '#' (ink) and '.' (paper): a man, a die's pips, the
doubling cube and its figures; and the cube's cells as bytes for screen memory. Where
they are drawn is game/board/screen.py's business, not this module's."""
from functools import cache

CUBE_COLS, CUBE_ROWS = 3, 2          # the doubling cube: 24 x 16 pixels
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)

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


def _hollow(glyph: tuple[str, ...]) -> tuple[str, ...]:
    """The same counter drawn for a man the colour of the paper under it: its outline and
    its inner ring in ink, the rest left as paper."""
    disc = [[ch == "#" or (0 < line.find("#") <= x <= line.rfind("#")) for x, ch in
             enumerate(line)] for line in glyph]
    rows = []
    for y, line in enumerate(glyph):
        out = []
        for x in range(len(line)):
            inside = disc[y][x]
            edge = inside and any(not (0 <= y + dy < len(glyph) and 0 <= x + dx < len(line))
                                  or not disc[y + dy][x + dx]
                                  for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            out.append("#" if edge or (inside and line[x] == ".") else ".")
        rows.append("".join(out))
    return tuple(rows)


HOLLOW_MAN_GLYPH = _hollow(MAN_GLYPH)
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
# the cube's figures, 5 x 9 with strokes 2 px wide where they run up and down
CUBE_DIGITS = {
    "1": ("..##.", ".###.", "####.", "..##.", "..##.", "..##.", "..##.", "..##.", "#####"),
    "2": (".###.", "##.##", "...##", "...##", "..##.", ".##..", "##...", "##...", "#####"),
    "3": ("####.", "...##", "...##", "...##", ".###.", "...##", "...##", "...##", "####."),
    "4": ("...##", "..###", ".#.##", "#..##", "#..##", "#####", "...##", "...##", "...##"),
    "6": (".###.", "##...", "##...", "####.", "##.##", "##.##", "##.##", "##.##", ".###."),
    "8": (".###.", "##.##", "##.##", "##.##", ".###.", "##.##", "##.##", "##.##", ".###."),
}


def cube_glyph(value: int) -> tuple[str, ...]:
    """The cube's 24 x 16 pixels: a block in ink with rounded corners, a pixel of paper
    round it so it stands apart from the dice, and the value cut out of it in paper."""
    if value not in CUBE_VALUES:
        raise ValueError(f"a cube shows 1, 2, 4 .. 64, not {value!r}")
    width, height = 8 * CUBE_COLS, 8 * CUBE_ROWS
    rows = [["."] * width for _ in range(height)]
    for y in range(1, height - 1):
        for x in range(1, width - 1):
            corner = (y in (1, height - 2)) and (x in (1, width - 2))
            rows[y][x] = "." if corner else "#"
    figures = [CUBE_DIGITS[d] for d in str(value)]
    text_w = 6 * len(figures) - 1
    x0, y0 = (width - text_w + 1) // 2, (height - 9 + 1) // 2
    for i, digit in enumerate(figures):
        for dy, line in enumerate(digit):
            for dx, ch in enumerate(line):
                if ch == "#":
                    rows[y0 + dy][x0 + 6 * i + dx] = "."
    return tuple("".join(r) for r in rows)


def _cell_bytes(rows: tuple[str, ...], col_in: int, row_in: int) -> bytes:
    """The 8 bytes of one cell (col_in, row_in) of a bitmap given as '#' strings."""
    out = []
    for line in rows[8 * row_in:8 * row_in + 8]:
        chunk = line[8 * col_in:8 * col_in + 8].ljust(8, ".")
        out.append(sum(0x80 >> b for b, ch in enumerate(chunk) if ch == "#"))
    return bytes(out)


@cache
def cube_bytes(value: int) -> bytes:
    """The cube's 6 cells as they sit in screen memory, cell by cell (8 bytes each), for
    a value: what read_cube looks for."""
    glyph = cube_glyph(value)
    return b"".join(_cell_bytes(glyph, c, r) for r in range(CUBE_ROWS) for c in range(CUBE_COLS))
