"""What the .mat and .sgf writers share: a player's name made writable (UTF-8 text gnubg and
our readers take back: no control characters, no lone surrogates, no bidi overrides, 31
characters at most), and the text put in
place through a temporary file that is removed whatever goes wrong. Not the formats themselves
(matfile.py, sgf.py); game/files/safe_write.py, a layer above, keeps the player's own files."""
from __future__ import annotations

import os
import unicodedata

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
    """Write text (UTF-8, "\\n" line ends) to a temporary file beside path, then rename it
    over path; on any failure the temporary file is removed and the error raised (OSError
    for the disk; text that cannot be encoded is the caller's fault, a UnicodeError).
    Returns the path."""
    path = os.fspath(path)
    data = text.encode("utf-8")
    tmp = path + ".tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    return path
