"""The C side compiles without a warning: every native/src/*.c with the installed build's flags
(native/build.py COMPILE_ARGS) and every native/tools/*.c with the tools' Makefile's, each with
-Wextra -Werror added (the installed build itself never fails on a warning); and the
sanitizer checks of native/tools (AddressSanitizer + UBSan, ThreadSanitizer), which build the
whole C side with -Wall -Wextra -Werror too, run briefly and find nothing."""
import os
import pathlib
import shutil
import subprocess

import pytest

from conftest import missing_tool
from native import build
from repo import REPO

NATIVE = REPO / "native"
CC = os.environ.get("CC", "gcc")
STRICT = ["-Wextra", "-Wunused-function", "-Werror"]     # the last -W wins over -Wno-...
TOOLS_FLAGS = ["-O3", "-std=gnu11", "-Wall", "-pthread"]   # the Makefile's, less -march


def compile_one(source: pathlib.Path, flags: list[str], tmp_path: pathlib.Path) -> str:
    """The compiler's complaints about one source (empty when it compiled cleanly)."""
    if shutil.which(CC) is None:
        missing_tool(f"no C compiler ({CC})")
    out = subprocess.run([CC, *flags, *STRICT, f"-I{NATIVE / 'src'}", f"-I{NATIVE}", "-c",
                          str(source), "-o", str(tmp_path / (source.stem + ".o"))],
                         capture_output=True, text=True)
    return out.stderr if out.returncode else out.stderr.strip()


@pytest.mark.parametrize("source", sorted((NATIVE / "src").glob("*.c")), ids=lambda p: p.name)
def test_every_engine_source_compiles_with_no_warning(source, tmp_path):
    assert compile_one(source, build.COMPILE_ARGS, tmp_path) == ""


@pytest.mark.parametrize("source", sorted((NATIVE / "tools").glob("*.c")), ids=lambda p: p.name)
def test_every_tool_source_compiles_with_no_warning(source, tmp_path):
    assert compile_one(source, TOOLS_FLAGS, tmp_path) == ""


def test_the_makefile_builds_the_tools_with_the_flags_checked_here():
    flags = next(line for line in (NATIVE / "tools" / "Makefile").read_text().splitlines()
                 if line.startswith("CFLAGS ="))
    assert all(flag in flags.split() for flag in TOOLS_FLAGS + ["-Wextra"]), flags


@pytest.mark.parametrize("script,count,says", [
    ("asan_check.sh", "600", "asan_ubsan_findings: none (exit 0)"),
    ("tsan_check.sh", "2", "tsan_findings: none (threadfuzz)"),   # levels 5 and 4
])
def test_the_sanitizer_checks_build_with_no_warning_and_find_nothing(script, count, says,
                                                                      tmp_path):
    if shutil.which(CC) is None:
        missing_tool(f"no C compiler ({CC})")
    text = (NATIVE / "tools" / script).read_text()
    assert "-Wall -Wextra -Werror" in text and "-fsanitize=" in text
    out = subprocess.run(["sh", str(NATIVE / "tools" / script), count], capture_output=True,
                         text=True, env=dict(os.environ, TMPDIR=str(tmp_path)), timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert says in out.stdout
