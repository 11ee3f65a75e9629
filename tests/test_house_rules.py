"""The house rules of game/ (docs/ARCHITECTURE.md): a short match loop in program.py, modules
and functions small enough to read alone, no branch that asks which machine or screen it was
given, no citation of a file outside the repository. Sizes are counted in source lines."""
import ast
import pathlib
import re

REPO = pathlib.Path(__file__).resolve().parent.parent
GAME = REPO / "game"
PROGRAM_MAX_LINES = 300
MODULE_MAX_LINES = 500
FUNCTION_MAX_LINES = 60


def game_modules():
    return sorted(GAME.rglob("*.py"))


def test_program_py_is_a_short_match_loop():
    lines = (GAME / "program.py").read_text().count("\n")
    assert lines < PROGRAM_MAX_LINES, f"game/program.py has {lines} lines"


def test_no_module_in_game_is_over_500_lines():
    long = {p.relative_to(REPO).as_posix(): p.read_text().count("\n") for p in game_modules()}
    assert {name: n for name, n in long.items() if n > MODULE_MAX_LINES} == {}


def test_no_function_in_game_is_over_60_lines():
    long = []
    for path in game_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > FUNCTION_MAX_LINES:
                    long.append(f"{path.relative_to(REPO).as_posix()}:{node.lineno} "
                                f"{node.name} ({length} lines)")
    assert long == []


def test_every_getattr_or_hasattr_in_game_says_why_in_a_comment():
    unexplained = []
    for path in game_modules():
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            if re.search(r"\b(getattr|hasattr)\(", line.split("#")[0]):
                nearby = lines[max(0, number - 2):number]      # this line or the one above
                if not any("#" in text for text in nearby):
                    unexplained.append(f"{path.relative_to(REPO).as_posix()}:{number}")
    assert unexplained == []


def test_no_source_or_readme_cites_the_design_notes_outside_the_repository():
    # the map is docs/ARCHITECTURE.md and docs/HARDWARE.md; only the test vectors (read by the
    # tests, never copied) stay in ../shared
    cited = []
    sources = [REPO / "README.md", *REPO.glob("docs/*.md")]
    for folder in ("game", "spectrum", "roms", "native", "bench"):
        sources += [p for p in (REPO / folder).rglob("*")
                    if p.suffix in (".py", ".c", ".h", ".asm", ".md")]
    for path in sources:
        if re.search(r"shared/(DESIGN|SPECTRUM)\.md|shared/seeds", path.read_text(errors="replace")):
            cited.append(path.relative_to(REPO).as_posix())
    assert cited == []
