"""A line of words fitted to the screen's 32 columns, and the hook that hears a line that did
not fit (the tests' check that no page loses words). Not the words themselves."""
from collections.abc import Callable

COLUMNS = 32
CUT_LISTENERS: list[Callable[[str], None]] = []    # each hears the whole of a line cut short


def fit(text: str, width: int = COLUMNS) -> str:
    """`text` cut to `width` columns; when that loses more than spaces, the listeners hear
    the whole line (the player only sees it cut)."""
    if len(text) > width and text[width:].strip():
        for listener in CUT_LISTENERS:
            listener(text)
    return text[:width]
