"""How every error message quotes what it was given (a line of a file, a value of a save, a
typed word): escaped as repr escapes it, so it stays on one line whatever it holds, and cut to
SHOWN_CHARS characters, so a huge input never makes a huge message. Not the messages' words."""

SHOWN_CHARS = 40                 # the most of a quoted part a message shows, quotes included


def quoted(value: object, limit: int = SHOWN_CHARS) -> str:
    """value's repr on one line, at most `limit` characters (a longer one ends in "...").
    Text and bytes are cut before repr sees them, so a 15 MB line costs no more than 40
    characters; any other object's repr is escaped onto one line as text's is."""
    if isinstance(value, (str, bytes, bytearray)):
        value = value[:limit]
    return _cut(escaped(repr(value), None), limit)


def escaped(text: str, limit: int | None = SHOWN_CHARS) -> str:
    """Text a message names without quotes (a player's name, a file's): each character
    that does not print (a line break, a control, an unassigned code) escaped as repr
    escapes it, so the message stays one line; cut to `limit` characters (None: not cut)."""
    if limit is not None:
        text = text[:limit + 1]               # one more than fits: then it ends in "..."
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return text if limit is None else _cut(text, limit)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
