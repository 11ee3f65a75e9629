"""Our own 8x8 font for codes 32..127, drawn from scratch as text in roms/font.txt, and the
tool that writes it out as roms/font.asm (DEFB lines pasmo includes). Not the Sinclair font.
Each glyph is 7 rows of 7 columns: the cell's top row and left column stay blank."""
import pathlib

FONT_DRAWING = pathlib.Path(__file__).with_name("font.txt")
GLYPH_ROWS = GLYPH_COLS = 7          # rows/columns 1..7 of the 8x8 cell


class FontFileError(ValueError):
    """roms/font.txt is not a drawing of the 96 glyphs; the message names the line."""


def parse_drawing(text: str) -> dict:
    """font.txt -> {character: [7 rows of 7 '#'/'.']}: each glyph a line 'code name' and its
    rows; blank lines and '#' comments (at the start of a line) between glyphs are skipped."""
    glyphs, lines = {}, text.splitlines()
    number = 0
    while number < len(lines):
        head = lines[number].strip()
        number += 1
        if not head or head.startswith("# ") or head == "#":
            continue
        code = head.split()[0]
        if not code.isdigit() or not 32 <= int(code) < 128:
            raise FontFileError(f"{FONT_DRAWING.name} line {number}: not 'code name': {head!r}")
        rows = lines[number:number + GLYPH_ROWS]
        if len(rows) < GLYPH_ROWS or any(len(r) != GLYPH_COLS or set(r) - set("#.") for r in rows):
            raise FontFileError(f"{FONT_DRAWING.name} line {number + 1}: glyph {code} needs "
                                f"{GLYPH_ROWS} rows of {GLYPH_COLS} '#' or '.'")
        glyphs[chr(int(code))] = rows
        number += GLYPH_ROWS
    return glyphs


GLYPHS = parse_drawing(FONT_DRAWING.read_text(encoding="ascii"))


def glyph_bytes(char: str) -> bytes:
    """The 8 bytes of a glyph, top row first, bit 7 = left (always 0: column 0 is blank)."""
    return bytes([0] + [sum(1 << (6 - i) for i, c in enumerate(row) if c == "#")
                        for row in GLYPHS[char]])


def font_bytes() -> bytes:
    """768 bytes: codes 32..127 in order."""
    return b"".join(glyph_bytes(chr(code)) for code in range(32, 128))


def font_asm() -> str:
    lines = ["; roms/font.asm: our own 8x8 font, codes 32..127, 8 bytes each (top row first).",
             "; Written by roms/make_font.py from the drawings in roms/font.txt; "
             "do not edit by hand.", ""]
    for code in range(32, 128):
        data = ",".join(f"0{b:02X}h" for b in glyph_bytes(chr(code)))
        name = {32: "space", 96: "pound", 127: "copyright"}.get(code, chr(code))
        lines.append(f"        DEFB {data}    ; {code} {name}")
    return "\n".join(lines) + "\n"


def main() -> None:
    assert len(GLYPHS) == 96
    (pathlib.Path(__file__).parent / "font.asm").write_text(font_asm())


if __name__ == "__main__":
    main()
