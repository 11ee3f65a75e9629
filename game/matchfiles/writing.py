"""What the .mat and .sgf writers share: a player's name made writable (UTF-8 text gnubg and
our readers take back: no control characters, no lone surrogates, no bidi overrides, 31
characters at most), and the text put in place as every file is (spectrum/safe_write.py).
Not the formats themselves (matfile.py, sgf.py)."""
from __future__ import annotations

import os
import unicodedata

from spectrum import safe_write

UNWRITABLE = "?"                 # what stands for a character no file can hold
MAX_NAME_CHARS = 31              # of a name GNU Backgammon 1.07 keeps (it cuts the rest off)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def writable_name(name) -> str:
    """The name as a match file can hold it: control characters (tabs, line breaks, ESC)
    become spaces, lone surrogates (which UTF-8 cannot encode) and the bidi embedding,
    override and isolate marks (which reorder what a viewer shows) become UNWRITABLE, the
    spaces are collapsed, and the name is cut to the MAX_NAME_CHARS gnubg reads. Empty stays
    empty: each format says what then."""
    out = []
    for char in str(name):
        category = unicodedata.category(char)
        if category == "Cc":
            out.append(" ")
        elif category == "Cs" or char in BIDI_CONTROLS:
            out.append(UNWRITABLE)
        else:
            out.append(char)
    return " ".join("".join(out).split())[:MAX_NAME_CHARS].rstrip()


def write_text(path, text: str) -> str:
    """Write text (UTF-8, "\\n" line ends) as every file is written (spectrum/safe_write.py:
    a temporary file, fsynced, renamed over path; nothing left behind on a failure, the error
    raised: OSError for the disk, a UnicodeError for text that cannot be encoded, before any
    file is opened). Returns the path."""
    data = text.encode("utf-8")
    return os.fspath(safe_write.write_atomic(path, data))
