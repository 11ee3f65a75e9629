"""How every line that reaches a terminal quotes what it was given (a line of a file, a value of
a save, a typed word, a path, a name): escaped as repr escapes it, so it stays on one line and
can never move the cursor, clear the screen or retitle the window, and cut short, so a huge
input never makes a huge message; `say` prints such a line. Not the messages' words."""
from __future__ import annotations

import os
import sys

SHOWN_CHARS = 40                 # the most of a quoted part a message shows, quotes included
PATH_CHARS = 160                 # the most of a path a message shows (its start and its end)
LINE_CHARS = 400                 # the most of a whole line `say` prints


def quoted(value, limit: int = SHOWN_CHARS) -> str:
    """value's repr on one line, at most `limit` characters (a longer one ends in "...").
    Text and bytes are cut before repr sees them, so a 15 MB line costs no more than 40
    characters; any other object's repr is escaped onto one line as text's is."""
    if isinstance(value, (str, bytes, bytearray)):
        value = value[:limit]
    return _cut(escaped(repr(value), None), limit)


def escaped(text: str, limit: int | None = SHOWN_CHARS) -> str:
    """Text a message names without quotes (a player's name, a file's): each character
    that does not print (a line break, a control such as ESC, a format character such as
    a right-to-left override, a lone surrogate, an unassigned code) escaped as repr
    escapes it, so the message stays one line; cut to `limit` characters (None: not cut)."""
    if limit is not None:
        text = text[:limit + 1]               # one more than fits: then it ends in "..."
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return text if limit is None else _cut(text, limit)


def short_path(path, limit: int = PATH_CHARS) -> str:
    """A path as a message names it: escaped as `escaped` does, and when longer than `limit`
    its start and its end (the file's own name) kept with "..." between."""
    text = escaped(os.fsdecode(path) if isinstance(path, bytes) else str(path), None)
    if len(text) <= limit:
        return text
    tail = max(limit // 2, limit - 3 - limit // 3)
    return text[:limit - 3 - tail] + "..." + text[-tail:]


def os_words(exc: OSError) -> str:
    """An OSError in words without Python's "[Errno N]": the system's reason, with the file
    it names as a short path ("/home/x/...: Permission denied")."""
    reason = exc.strerror or str(exc) or exc.__class__.__name__
    name = exc.filename
    if name is None or not isinstance(name, (str, bytes, os.PathLike)):
        return escaped(reason, LINE_CHARS)
    return f"{short_path(name)}: {escaped(reason, LINE_CHARS)}"


def terminal_line(text: str, limit: int = LINE_CHARS) -> str:
    """The one form of every line written to a terminal: escaped and cut (see `escaped`)."""
    return escaped(text, limit)


def say(text: str, out=None) -> None:
    """Print one line to `out` (stderr by default) in its terminal form."""
    print(terminal_line(text), file=out or sys.stderr)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
