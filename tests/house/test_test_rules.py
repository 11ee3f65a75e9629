"""The house rules of the tests themselves (tests/README.md): no test module imports another
test module (what tests share lives in a helper module at tests/ top level, or in a
conftest.py fixture), and every test holds an assertion of its own rather than leaning on a
driver that raises. A test module is tests/**/test_*.py; every other .py under tests/ is a
helper. Not the linters (tests/house/test_lint.py)."""
import ast
import pathlib

import pytest

from repo import TESTS

# the calls that check on a test's behalf: pytest.raises(...), pytest.warns(...),
# pytest.fail(...) and pytest.deprecated_call(...)
ASSERTING_CALLS = {"raises", "warns", "fail", "deprecated_call"}


def all_test_modules() -> list[pathlib.Path]:
    return sorted(TESTS.rglob("test_*.py"))


def name_of(path: pathlib.Path) -> str:
    return path.relative_to(TESTS).as_posix()


def imports_of_test_modules(source: str, test_names: set[str]) -> list[str]:
    """'line: module' for each import in `source` of a module named in `test_names` (by the
    last part of its dotted name), anywhere in it: at the top, in a function, from a
    package, or through importlib.import_module / __import__ with the name written out."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):          # the module, or a module from a package
            package = "." * node.level + (node.module or "")
            joint = "" if package.endswith(".") else "."
            names = [package] + [f"{package}{joint}{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.Call) and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str) \
                and (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"
                     or isinstance(node.func, ast.Name) and node.func.id == "__import__"):
            names = [node.args[0].value]
        else:
            continue
        found += [f"{node.lineno}: {name}" for name in names
                  if name.rpartition(".")[2] in test_names]
    return found


def is_fixture(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated @pytest.fixture or @pytest.fixture(...) (or a bare @fixture)."""
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if ast.unparse(target) in ("pytest.fixture", "fixture"):
            return True
    return False


def asserts_itself(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """An assert statement, or one of pytest's ASSERTING_CALLS, in the function's own body
    (functions defined inside it included: they are its own code); a helper called from it
    does not count, however much it asserts."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assert):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ASSERTING_CALLS \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "pytest":
            return True
    return False


def unasserted_tests(source: str) -> list[str]:
    """'line: name' of each test pytest collects from `source` (a test_* function at the top,
    or in a Test* class; fixtures named test_* are not tests) that does not assert itself."""
    tree = ast.parse(source)
    functions = [node for node in tree.body
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for cls in (node for node in tree.body if isinstance(node, ast.ClassDef)):
        if cls.name.startswith("Test"):
            functions += [node for node in cls.body
                          if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return [f"{f.lineno}: {f.name}" for f in functions
            if f.name.startswith("test") and not is_fixture(f) and not asserts_itself(f)]


def test_no_test_module_imports_another_test_module():
    names = {path.stem for path in all_test_modules()}
    found = {name_of(path): imports_of_test_modules(path.read_text(), names)
             for path in sorted(TESTS.rglob("*.py"))}      # the helpers too: no back door
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_no_test_is_without_an_assertion_of_its_own():
    found = {name_of(path): unasserted_tests(path.read_text())
             for path in all_test_modules()}
    assert {name: hits for name, hits in found.items() if hits} == {}


@pytest.mark.parametrize("source,found", [
    ("from test_review import one_game", ["1: test_review"]),
    ("import test_tape\nimport repo", ["1: test_tape"]),
    ("def f():\n    from test_review_screen import Driver as D", ["2: test_review_screen"]),
    ("import importlib\nm = importlib.import_module('test_tape')", ["2: test_tape"]),
    ("m = __import__('tests.spectrum.test_tape')", ["1: tests.spectrum.test_tape"]),
    ("from review_records import one_game\nimport test_helpers_not_ours", []),
    ("from tests.game import test_review", ["1: tests.game.test_review"]),
    ("from . import test_tape", ["1: .test_tape"]),
])
def test_the_import_rule_finds_a_test_module_imported_however(source, found):
    names = {"test_review", "test_tape", "test_review_screen"}
    assert imports_of_test_modules(source, names) == found


@pytest.mark.parametrize("source,found", [
    ("def test_a():\n    driver.until('words')", ["1: test_a"]),
    ("def test_a():\n    check_the_match()\n\ndef check_the_match():\n    assert 1",
     ["1: test_a"]),
    ("class TestA:\n    def test_b(self):\n        run()", ["2: test_b"]),
    ("async def test_a():\n    await run()", ["1: test_a"]),
    ("def test_a():\n    assert run() == 1", []),
    ("def test_a():\n    with pytest.raises(ValueError):\n        run()", []),
    ("def test_a():\n    if not run():\n        pytest.fail('no run')", []),
    ("def test_a():\n    def script(p):\n        assert p\n    run(script)", []),
    ("@pytest.fixture\ndef test_pattern():\n    return make()", []),
    ("@pytest.fixture(scope='module')\ndef test_data():\n    return make()", []),
    ("def helper():\n    run()\n\nclass Other:\n    def test_x(self):\n        run()", []),
])
def test_the_assertion_rule_finds_a_test_that_leans_on_a_driver(source, found):
    assert unasserted_tests(source) == found
