"""The scripts outside the packages (docs/make_docs.py, bench/*.py, native/build.py) import names
from game/, spectrum/, roms/ and native/ that still exist, also in the imports they make inside
functions: no test runs them whole (the docs take minutes, the benchmarks longer), so a renamed
or removed name would otherwise show only when a developer runs one."""
import ast
import importlib

import pytest

from repo import REPO

OURS = ("game", "spectrum", "roms", "native")
SCRIPTS = sorted([REPO / "docs" / "make_docs.py", REPO / "native" / "build.py",
                  *(REPO / "bench").glob("*.py")])


def imported_names(path) -> list[tuple[int, str, str]]:
    """(line, module, name) for every `from OUR.module import name` in the file, at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in OURS:
            found.extend((node.lineno, node.module, alias.name) for alias in node.names)
    return found


def missing_names(path) -> list[str]:
    missing = []
    for line, module_name, name in imported_names(path):
        module = importlib.import_module(module_name)
        if not hasattr(module, name):
            try:
                importlib.import_module(f"{module_name}.{name}")     # a submodule
            except ModuleNotFoundError:
                missing.append(f"{path.name}:{line}: {module_name} has no {name}")
    return missing


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_name_a_script_imports_from_our_packages_exists(path):
    assert missing_names(path) == []


def test_the_check_finds_a_name_that_is_gone(tmp_path):
    script = tmp_path / "old_script.py"
    script.write_text("def shot():\n    from game.analysis.cube_judgement import CubeTerms\n"
                      "    from game.model.match_terms import MONEY\n")
    assert missing_names(script) == ["old_script.py:2: game.analysis.cube_judgement has no "
                                     "CubeTerms"]
