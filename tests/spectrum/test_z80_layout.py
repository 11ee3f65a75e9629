"""The Z80 core's files stay readable alone (issue 43): no module of spectrum/z80*.py over 600
lines, no function there over 60, no line over 100 columns in them, their tests and their
benchmarks. Sizes are counted in source lines."""
import ast

from repo import REPO

MODULE_MAX_LINES = 600
FUNCTION_MAX_LINES = 60
LINE_MAX_COLUMNS = 100
# Functions that are tables of data written as code may be longer, named here with the reason.
# (None is, today: the opcode tables are module-level data, one row an opcode.)
LONG_TABLES: dict[str, str] = {}


def core_modules():
    return sorted((REPO / "spectrum").glob("z80*.py"))


def z80_files():
    return core_modules() + sorted((REPO / "tests" / "spectrum").glob("test_z80_*.py")) \
        + sorted((REPO / "bench").glob("z80_*.py"))


def test_no_z80_module_is_over_600_lines():
    sizes = {p.name: p.read_text().count("\n") for p in core_modules()}
    assert {name: n for name, n in sizes.items() if n > MODULE_MAX_LINES} == {}


def test_no_z80_function_is_over_60_lines():
    long = []
    for path in core_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > FUNCTION_MAX_LINES and f"{path.stem}.{node.name}" not in LONG_TABLES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({length} lines)")
    assert long == []


def test_no_line_in_the_z80_files_is_over_100_columns():
    wide = [f"{p.relative_to(REPO)}:{n}" for p in z80_files()
            for n, line in enumerate(p.read_text().splitlines(), 1) if len(line) > LINE_MAX_COLUMNS]
    assert wide == []


def test_every_z80_module_says_what_it_is_first():
    for path in core_modules():
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and len(doc.split()) >= 15, path.name
