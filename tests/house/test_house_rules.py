"""The house rules of the program's code (docs/ARCHITECTURE.md) in game/, spectrum/, roms/ and
native/tools/: a short match loop in program.py, modules and functions small enough to read
alone, a getattr or hasattr only with a comment saying why it looks a name up, no citation of a
file outside the repository. Sizes are counted in source lines. Not the linters
(tests/house/test_lint.py) and not the layer order (tests/house/test_layers.py)."""
import ast
import pathlib
import re

import pytest

from repo import REPO

GAME = REPO / "game"
PROGRAM_MAX_LINES = 300
GAME_MODULE_MAX_LINES = 500          # game/ keeps its first, tighter limit
MODULE_MAX_LINES = 600
FUNCTION_MAX_LINES = 60
HOUSE = ("game", "spectrum", "roms", "native/tools")
# Functions that may be longer, each named ("folder/module.py:function") with the reason: tables
# of data written as code, or generated code. None is, today.
LONG_BY_NATURE: dict[str, str] = {}
# A reason is a comment of at least this many words (not a bare '#', not one word).
REASON_MIN_WORDS = 3


def house_modules(*folders: str) -> list[pathlib.Path]:
    return sorted(p for folder in (folders or HOUSE) for p in (REPO / folder).rglob("*.py"))


def name_of(path: pathlib.Path) -> str:
    return path.relative_to(REPO).as_posix()


def long_functions(path: pathlib.Path, limit: int = FUNCTION_MAX_LINES) -> dict[str, int]:
    """'folder/module.py:function' -> its length in lines, for each function over the limit."""
    long = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                long[f"{name_of(path)}:{node.name}"] = length
    return long


def gives_a_reason(comment: str) -> bool:
    """A comment that says something: REASON_MIN_WORDS words or more."""
    return len(re.findall(r"[A-Za-z][A-Za-z'-]*", comment.lstrip("#"))) >= REASON_MIN_WORDS


def unexplained_lookups(lines: list[str]) -> list[int]:
    """Line numbers of a getattr( or hasattr( whose line, or the comment lines right above it,
    give no reason."""
    unexplained = []
    for number, line in enumerate(lines, 1):
        code, _, trailing = line.partition("#")
        if not re.search(r"\b(getattr|hasattr)\(", code):
            continue
        comments = [trailing] if trailing else []
        above = number - 2
        while above >= 0 and lines[above].strip().startswith("#"):
            comments.append(lines[above].strip())
            above -= 1
        if not any(gives_a_reason(text) for text in comments):
            unexplained.append(number)
    return unexplained


def test_program_py_is_a_short_match_loop():
    lines = (GAME / "program.py").read_text().count("\n")
    assert lines < PROGRAM_MAX_LINES, f"game/program.py has {lines} lines"


def test_no_module_in_game_is_over_500_lines():
    sizes = {name_of(p): p.read_text().count("\n") for p in house_modules("game")}
    assert {name: n for name, n in sizes.items() if n > GAME_MODULE_MAX_LINES} == {}


def test_no_module_of_the_house_is_over_600_lines():
    sizes = {name_of(p): p.read_text().count("\n") for p in house_modules()}
    assert {name: n for name, n in sizes.items() if n > MODULE_MAX_LINES} == {}


def test_no_function_of_the_house_is_over_60_lines_unless_named_with_its_reason():
    long = {}
    for path in house_modules():
        long.update(long_functions(path))
    assert {name: n for name, n in long.items() if name not in LONG_BY_NATURE} == {}
    # an exception that is no longer needed goes: each one named is still long
    assert set(LONG_BY_NATURE) <= set(long)


def test_every_getattr_or_hasattr_of_the_house_says_why_in_a_comment():
    unexplained = [f"{name_of(path)}:{number}" for path in house_modules()
                   for number in unexplained_lookups(path.read_text().splitlines())]
    assert unexplained == []


@pytest.mark.parametrize("source,unexplained", [
    (["x = getattr(a, name)"], [1]),
    (["x = getattr(a, name)  #"], [1]),
    (["x = getattr(a, name)  # (above)"], [1]),
    (["# see below", "x = getattr(a, name)"], [2]),
    (["x = getattr(a, name)  # the option named by the menu's row"], []),
    (["# O_DIRECTORY exists on POSIX only", "fd = getattr(os, 'O_DIRECTORY', 0)"], []),
    (["# the register pairs by name,", "# as the table lists them", "v = getattr(cpu, r)"], []),
    (["# the option named by the menu's row", "y = 1", "x = getattr(a, name)"], [3]),
])
def test_the_getattr_rule_wants_words_not_just_a_hash(source, unexplained):
    assert unexplained_lookups(source) == unexplained


def test_no_source_or_readme_cites_the_design_notes_outside_the_repository():
    # the map is docs/ARCHITECTURE.md and docs/HARDWARE.md; only the test vectors (read by the
    # tests, never copied) stay in ../shared
    cited = []
    sources = [REPO / "README.md", *REPO.glob("docs/*.md")]
    for folder in ("game", "spectrum", "roms", "native", "bench"):
        sources += [p for p in (REPO / folder).rglob("*")
                    if p.suffix in (".py", ".c", ".h", ".asm", ".md")]
    outside = re.compile(r"shared/(DESIGN|SPECTRUM)\.md|shared/seeds")
    for path in sources:
        if outside.search(path.read_text(errors="replace")):
            cited.append(path.relative_to(REPO).as_posix())
    assert cited == []


# The sides' names against the computer ("You", "Me"; "you", "me") are words.py's
# (SIDE_NAMES, SIDE_WORDS, DEFAULT_NAMES, DEFAULT_WORDS). board/screen.py sits below the words
# in the layer order and keeps its first numbers' names, which scenes/turn_loop.py replaces
# with say("who") before the board is drawn.
NAMES_WRITTEN = re.compile(r"""\(\s*["'][Yy]ou["']\s*,\s*["'][Mm]e["']"""
                           r"""|["']human["']\s*:\s*["'][Yy]ou["']""")
NAMES_HOMES = {"game/words.py", "game/board/screen.py"}


def test_the_sides_names_are_written_once_in_words_py():
    written = {name_of(p): NAMES_WRITTEN.findall(p.read_text()) for p in house_modules("game")}
    assert {name: hits for name, hits in written.items()
            if hits and name not in NAMES_HOMES} == {}
    assert NAMES_WRITTEN.search('names=("You", "Me")') and NAMES_WRITTEN.search("{'human': 'you'")


# The scenes' Game (game/scenes/state.py) is the parameter `board_game`, typed `Game`: a value
# named `game` would shadow the game package, and an untyped one hides its parts from mypy.
GAME_TYPES = {"Game", "Game | None"}


def game_name_faults(source: str) -> list[str]:
    """'line: what' for each argument or name called `game`, and each `board_game` argument
    not typed Game (or Game | None)."""
    faults = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.arg) and node.arg == "game" \
                or isinstance(node, ast.Name) and node.id == "game":
            faults.append(f"{node.lineno}: game")
        elif isinstance(node, ast.arg) and node.arg == "board_game" and (
                node.annotation is None or ast.unparse(node.annotation) not in GAME_TYPES):
            faults.append(f"{node.lineno}: board_game untyped")
    return faults


def test_the_scenes_name_their_game_board_game_and_type_it():
    paths = [*house_modules("game/scenes"), GAME / "program.py", GAME / "main.py"]
    faults = {name_of(p): game_name_faults(p.read_text()) for p in paths}
    assert {name: found for name, found in faults.items() if found} == {}


@pytest.mark.parametrize("source,faults", [
    ("def f(game): pass", ["1: game"]),
    ("def f(x):\n    game = x", ["2: game"]),
    ("def f(board_game): pass", ["1: board_game untyped"]),
    ("def f(board_game: Any): pass", ["1: board_game untyped"]),
    ("def f(board_game: Game, g: Game | None = None): pass", []),
    ("def f(board_game: Game | None = None): pass", []),
    ("from game import menus\nx = game_state.game", []),
])
def test_the_game_name_rule_finds_a_shadow_and_an_untyped_game(source, faults):
    assert game_name_faults(source) == faults
