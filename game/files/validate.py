"""The one validation layer for the JSON files the game reads (settings, saves): a size and
a nesting limit checked before parsing, numbers Python should not build (5,000 digits,
1e400, Infinity, NaN) kept as text, then exact types and ranges field by field, each
failure one line naming the field and the value. Not what the values mean in play."""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from spectrum import safe_read
from spectrum.quoting import escaped, quoted
from spectrum.safe_write import PathLike

MAX_FILE_BYTES = 1 << 20            # 1 MiB: a save of a long match is a few tens of KiB
MAX_DEPTH = 32                      # our files nest 6 deep
MAX_INT_DIGITS = 15                 # longer integers are never a real value of ours
_SPECIAL = re.compile(r'["\\\[\]{}]')

# A value as json.loads gives it (a dict, list, str, int, float, bool, None, or an OddNumber
# here): Any, as its type is what the checks below find out
Json = Any
# A check of one JSON value at a field: check(value, field) gives the value, or raises Invalid
Check = Callable[[Json, str], Json]


class OddNumber:
    """A JSON number kept as its text because it is no value of ours: an integer of more
    than MAX_INT_DIGITS digits, a float beyond range (1e400), Infinity or NaN. Every check
    refuses it, naming it by its text."""
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        digits = sum(c.isdigit() for c in self.text)
        if len(self.text) <= 24:
            return self.text
        return f"{self.text[:8]}...{self.text[-4:]} ({digits:,} digits)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OddNumber) and other.text == self.text

    __hash__ = None     # type: ignore[assignment]  # compared by its text, never hashed


def show(value: object) -> str:
    """A value as one short line for an error message (never a huge conversion)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 15:
        return f"a number of {int(value.bit_length() * math.log10(2)) + 1:,} digits"
    if value is None or isinstance(value, bool):
        return json.dumps(value)                # as the file has it: null, true, false
    if isinstance(value, (list, dict)):
        return f"a {'list' if isinstance(value, list) else 'table'} of {len(value)}"
    return quoted(value)


def show_field(field: str) -> str:
    """A field's dotted name as one short line: a key from the file may hold any character."""
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in field)
    return text if len(text) <= 80 else text[:77] + "..."


def _int(text: str) -> int | OddNumber:
    return int(text) if len(text.lstrip("-")) <= MAX_INT_DIGITS else OddNumber(text)


def _float(text: str) -> float | OddNumber:
    value = float(text)
    return value if math.isfinite(value) else OddNumber(text)


def parse_json(raw: bytes, error: type[Exception]) -> Json:
    """The JSON value in raw (UTF-8), or `error` (an exception class) raised with one line:
    too big, not UTF-8, nested too deep, or not JSON (with the line of the mistake)."""
    if len(raw) > MAX_FILE_BYTES:
        raise error(f"file: {len(raw):,} bytes, more than the {MAX_FILE_BYTES:,} allowed")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"file: not UTF-8 text (byte {exc.start})") from None
    if _nests_deeper(text, MAX_DEPTH):
        raise error(f"file: nested more than {MAX_DEPTH} deep")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=OddNumber)
    except json.JSONDecodeError as exc:
        raise error(f"file: not JSON (line {exc.lineno}: {exc.msg})") from None
    except (ValueError, RecursionError) as exc:      # a depth the count above missed
        raise error(f"file: not JSON ({exc.__class__.__name__})") from None


def _nests_deeper(text: str, limit: int) -> bool:
    """Whether the lists and tables of a JSON text nest deeper than limit (brackets inside
    strings do not count); one pass over the special characters only."""
    depth, in_string, escaped_at = 0, False, -1
    for found in _SPECIAL.finditer(text):
        c, at = found.group(), found.start()
        if in_string:
            if c == "\\" and at != escaped_at:
                escaped_at = at + 1
            elif c == '"' and at != escaped_at:
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False


# ---------------------------------------------------------------- the checks
class Invalid(Exception):
    """One field's problem; the readers turn it into their own error type."""

    def __init__(self, field: str, value: object, why: str) -> None:
        super().__init__(f"{show_field(field)}: {show(value)} {why}")
        self.field, self.value, self.why = field, value, why


def whole(low: int, high: int) -> Check:
    """An int (not a bool, not a float) from low to high."""
    def check(value: Json, field: str) -> int:
        if type(value) is not int or not low <= value <= high:
            raise Invalid(field, value, f"is not a whole number from {low} to {high}")
        return value
    return check


def flag(value: Json, field: str) -> bool:
    if type(value) is not bool:
        raise Invalid(field, value, "is not true or false")
    return value


def one_of(*choices: str | None) -> Check:
    def check(value: Json, field: str) -> str | None:
        if type(value) not in (str, type(None)) or value not in choices:
            names = ", ".join("null" if c is None else escaped(str(c)) for c in choices)
            raise Invalid(field, value, f"is not one of {names}")
        return value
    return check


def text(max_length: int = 200) -> Check:
    def check(value: Json, field: str) -> str:
        if type(value) is not str or len(value) > max_length:
            raise Invalid(field, value, f"is not a text of at most {max_length} characters")
        return value
    return check


def maybe(inner: Check) -> Check:
    """null, or what inner allows."""
    return lambda value, field: None if value is None else inner(value, field)


def list_of(inner: Check, min_length: int = 0, max_length: int = 10_000) -> Check:
    def check(value: Json, field: str) -> list:
        if type(value) is not list or not min_length <= len(value) <= max_length:
            size = (f"{min_length}" if min_length == max_length
                    else f"{min_length} to {max_length}")
            raise Invalid(field, value, f"is not a list of {size} entries")
        return [inner(item, f"{field}[{i}]") for i, item in enumerate(value)]
    return check


def table(entries: dict[str, Check], optional: Sequence[str] = (),
          others: bool = True) -> Check:
    """A JSON object with these keys (each checked by its entry); keys in `optional` may be
    missing; unknown keys are passed over if `others` (a newer version's), else refused."""
    def check(value: Json, field: str) -> dict:
        if type(value) is not dict:
            raise Invalid(field, value, "is not a table")
        for key, inner in entries.items():
            where = f"{field}.{key}" if field else key
            if key in value:
                inner(value[key], where)
            elif key not in optional:
                raise Invalid(where, None, "is missing")
        if not others:
            for key in value:
                if key not in entries:
                    raise Invalid(f"{field}.{key}" if field else key, value[key],
                                  "is not an entry of this table")
        return value
    return check


def keyed_by(keys: Sequence[str] | Callable[[], Sequence[str]], inner: Check) -> Check:
    """A JSON object whose keys are exactly `keys` (a list, or a function of nothing giving
    one), each value checked by inner."""
    def check(value: Json, field: str) -> dict:
        wanted = keys() if callable(keys) else keys
        if type(value) is not dict or sorted(value) != sorted(wanted):
            raise Invalid(field, value, f"is not a table of {', '.join(map(escaped, wanted))}")
        for key in wanted:
            inner(value[key], f"{field}.{key}")
        return value
    return check


def plain(value: Json, field: str) -> Json:
    """Any JSON value built of ordinary numbers, texts, true/false/null, lists and tables
    (free room such as a save's "extra"): no OddNumber anywhere."""
    if isinstance(value, OddNumber):
        raise Invalid(field, value, "is not a number this program can use")
    if isinstance(value, list):
        for i, item in enumerate(value):
            plain(item, f"{field}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            plain(item, f"{field}.{key}")
    return value


def read_json_file(path: PathLike, error: type[Exception],
                   unreadable: type[Exception] | None = None) -> Json:
    """The JSON value of the file at path, or None when there is no file; `error` (an
    exception class) raised with one line for anything else: not a regular file, too big
    (refused before reading), unreadable, not JSON, nested too deep, or just null.
    `unreadable` (a subclass of `error`), if given, is raised instead when the operating
    system would not let the file be read (the file may be whole)."""
    try:
        raw = safe_read.read_regular(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        return None
    except safe_read.FileRefused as exc:         # a FIFO, a folder, too big: damaged
        raise error(f"file: cannot be read ({exc})") from None
    except OSError as exc:
        raise (unreadable or error)(f"file: cannot be read ({exc.strerror or exc})") from None
    value = parse_json(raw, error)
    if value is None:                  # JSON's null is a file with nothing in it, not no file
        raise error("file: holds null, not the table of entries it should")
    return value


def checked(check: Check, value: Json, field: str, error: type[Exception]) -> Json:
    """check(value, field), an Invalid turned into `error` (one line naming the field)."""
    try:
        return check(value, field)
    except Invalid as exc:
        raise error(str(exc)) from None
