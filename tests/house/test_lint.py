"""The linters hold the house style (pyproject.toml configures both): ruff (pyflakes,
pycodestyle at 100 columns, import order, bugbear, pyupgrade) over every Python file of the
repository, and mypy over game/ and spectrum/ (every function annotated and its body checked;
strict on game/interfaces.py and the modules that take its Protocols), each with no finding.
Not the sizes and the getattr rule (tests/house/test_house_rules.py) and not the C warnings
(tests/native/test_c_warnings.py)."""
import subprocess
import sys

from repo import REPO


def run_tool(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *argv], cwd=REPO, capture_output=True,
                          text=True, timeout=600)


def test_ruff_finds_nothing():
    out = run_tool("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_finds_nothing():
    # the cache stays out of the clone (a fresh one each run costs a few seconds)
    out = run_tool("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success: no issues found" in out.stdout
