"""What the .mat and .sgf writers share: a player's name made writable (UTF-8 text gnubg and
our readers take back: no control characters, no lone surrogates, no bidi overrides, 31
characters at most), and the text put in place as every file is (spectrum/safe_write.py).
Not the formats themselves (matfile.py, sgf.py)."""
from __future__ import annotations

import os
import unicodedata

from spectrum import safe_write
from spectrum.safe_write import PathLike

UNWRITABLE = "?"                 # what stands for a character no file can hold
MAX_NAME_CHARS = 31              # of a name GNU Backgammon 1.07 keeps (it cuts the rest off)
SPACES = frozenset(("Cc", "Zs", "Zl", "Zp"))   # what stands between words: made a space


def writable_name(name: object) -> str:
    """The name as a match file can hold it, by the one rule for names (game/model/names.py:
    every character prints): line and other separators and control characters (tabs, line
    breaks, ESC, a no-break space) become spaces, every other character that does not print
    (a lone surrogate, which UTF-8 cannot encode; a bidi embedding, override or isolate mark,
    which reorders what a viewer shows; a private-use or unassigned code) becomes UNWRITABLE,
    the spaces are collapsed, and the name is cut to the MAX_NAME_CHARS gnubg reads. Empty
    stays empty: each format says what then."""
    out = []
    for char in str(name):
        if char.isprintable():
            out.append(char)
        elif unicodedata.category(char) in SPACES:
            out.append(" ")
        else:
            out.append(UNWRITABLE)
    return " ".join("".join(out).split())[:MAX_NAME_CHARS].rstrip()


def write_text(path: PathLike, text: str) -> str:
    """Write text (UTF-8, "\\n" line ends) as every file is written (spectrum/safe_write.py:
    a temporary file, fsynced, renamed over path; nothing left behind on a failure, the error
    raised: OSError for the disk, a UnicodeError for text that cannot be encoded, before any
    file is opened). Returns the path."""
    data = text.encode("utf-8")
    return os.fspath(safe_write.write_atomic(path, data))
