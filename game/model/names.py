"""The one rule for a player's name that comes from outside (a save, a .mat or .sgf file): at
most MAX_NAME_CHARS characters, each one that prints, so no control (ESC, a line break), no
format character (a right-to-left override), no lone surrogate, no unassigned code. Not where
names are shown (that is each screen's and each file's business)."""
from __future__ import annotations

from spectrum.quoting import quoted

MAX_NAME_CHARS = 40              # a save's names, and the longest a file's name is kept


def name_problem(name: object) -> str | None:
    """Why `name` is not a name the rule allows, in words ("holds ESC (\\x1b), which does not
    print"), or None when it is one."""
    if type(name) is not str:
        return "is not a text"
    if not name.strip():
        return "is empty"
    if len(name) > MAX_NAME_CHARS:
        return f"is longer than {MAX_NAME_CHARS} characters"
    odd = next((ch for ch in name if not ch.isprintable()), None)
    if odd is not None:
        return f"holds the character {ascii(odd)[1:-1]}, which does not print"
    return None


def clean_name(name: str, default: str) -> str:
    """The name the rule allows nearest to `name`: runs of white space (tabs, line breaks)
    made one space, every other character that does not print left out, cut to
    MAX_NAME_CHARS; `default` when nothing is left."""
    words = " ".join(str(name).split())
    kept = "".join(ch for ch in words if ch.isprintable())
    kept = " ".join(kept.split())[:MAX_NAME_CHARS].strip()
    return kept or default


def name_note(field: str, name: object, cleaned: str) -> str:
    """The one line that says a name was cleaned: what it held and what it became."""
    return (f"{field}: {quoted(name)} {name_problem(name) or 'was changed'}; "
            f"read as {quoted(cleaned)}")
