"""A line of words fitted to the screen's 32 columns, and the hook that hears a line that did
not fit (the tests' check that no page loses words); a paragraph wrapped into such lines at
spaces; text put in the ROM's character set (a name's é as e). Not the words themselves."""
import unicodedata
from collections.abc import Callable

COLUMNS = 32
CUT_LISTENERS: list[Callable[[str], None]] = []    # each hears the whole of a line cut short


def fit(text: str, width: int = COLUMNS) -> str:
    """`text` cut to `width` columns; when that loses more than spaces, the listeners hear
    the whole line (the player only sees it cut)."""
    if len(text) > width and text[width:].strip():
        lost(text)
    return text[:width]


def lost(text: str) -> None:
    """Words a page had no room for (a line cut, rows past the last): the listeners hear
    them. The one rule: a line holds what its columns hold, and whatever does not fit is
    laid out again (wrapped, moved to another row), never dropped unheard."""
    for listener in CUT_LISTENERS:
        listener(text)


def wrap(paragraph: str, width: int = COLUMNS) -> list[str]:
    """Split a paragraph into lines of at most `width` columns, at spaces."""
    if not paragraph:
        return [""]
    lines, line = [], ""
    for word in paragraph.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


# letters NFKD does not take apart, spelled as ASCII (ß is ss, as a German would write it)
SPELLED = {"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o",
           "Ø": "O", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ł": "l",
           "Ł": "L", "ı": "i", "ħ": "h", "Ħ": "H", "‘": "'", "’": "'", "‚": ",", "“": '"',
           "”": '"', "„": '"', "–": "-", "—": "-", "…": "...", "«": "<<", "»": ">>"}


def rom_text(text: str) -> str:
    """`text` in the ROM's printable characters (32-127): an accented letter as its letter
    (é e, ü u; unicodedata's NFKD), a few as two (SPELLED), anything else (a control
    character, a letter of another script) as "?". Only for the screen: files keep the
    real text."""
    out = []
    for char in text:
        if 32 <= ord(char) < 128:
            out.append(char)
        elif char in SPELLED:
            out.append(SPELLED[char])
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", char) if 32 <= ord(c) < 127)
            out.append(base or "?")
    return "".join(out)
