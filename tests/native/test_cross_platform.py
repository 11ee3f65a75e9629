"""The C side builds for where players are, and gives the same answers there (issue 51):
native/src cross-compiles with `zig cc` for macOS (x86-64 and ARM), Windows and ARM Linux with
no warning; native/tools/selftest.c built with mingw-w64 (Win32 threads) and run under wine
prints the same line of hashes as the gcc build here. Not a run on a real Windows or Mac.
Outside CI each part skips when its tool is absent (zig: the `ziglang` test extra; mingw-w64
and wine: the Debian packages .ci/run installs); in CI an absent tool fails."""
import glob
import importlib.util
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import missing_tool
from native import build
from repo import REPO

NATIVE = REPO / "native"
ZIG_TARGETS = ("x86_64-macos", "aarch64-macos", "x86_64-windows-gnu", "aarch64-linux-gnu")
# Warnings come from clang's front end, so -O0 finds the same ones as -O3, in half the time.
ZIG_FLAGS = ["-std=c11", "-O0", "-Wall", "-Wextra", "-Werror"]
# The self-test as a player's build makes it: the installed build's flags less its warnings
# switches and -pthread (the mingw-w64 build must take threads.h's Win32 path), at -O1.
SELFTEST_FLAGS = ["-O1", "-std=c11", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror"]
SELFTEST_LINE = re.compile(r"^selftest positions=\d+ ply0=[0-9a-f]{16} ply2=[0-9a-f]{16} "
                           r"rollout\(\d+ trials, 2 threads\)=[0-9a-f]{16}$")
MINGW = "x86_64-w64-mingw32-gcc"


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        missing_tool(f"{name} is not installed (Debian: see .ci/run's package list)")
    return path


def zig() -> str:
    spec = importlib.util.find_spec("ziglang")
    if spec is None or not spec.submodule_search_locations:
        missing_tool("zig is not installed (pip install ziglang: the test extra)")
    return os.path.join(spec.submodule_search_locations[0], "zig")


def selftest_tree(tmp_path):
    """A folder with only what the self-test needs, laid out as native/ is: the sources,
    bg.h, tools/selftest.c and the weights file."""
    tree = tmp_path / "native"
    shutil.copytree(NATIVE / "src", tree / "src")
    (tree / "tools").mkdir()
    shutil.copy(NATIVE / "tools" / "selftest.c", tree / "tools")
    for name in ("bg.h", "evaluator.wts"):
        shutil.copy(NATIVE / name, tree)
    return tree


def build_selftest(compiler: str, tree, exe_name: str, extra: list[str]) -> str:
    sources = sorted(os.path.relpath(p, tree) for p in glob.glob(str(tree / "src" / "*.c")))
    out = subprocess.run([compiler, *SELFTEST_FLAGS, "-Isrc", "-I.", "tools/selftest.c", *sources,
                          "-lm", *extra, "-o", exe_name], cwd=tree, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return str(tree / exe_name)


@pytest.fixture(scope="module")
def gcc_selftest(tmp_path_factory):
    tree = selftest_tree(tmp_path_factory.mktemp("gcc"))
    return tree, build_selftest(tool("gcc"), tree, "selftest", ["-pthread"])


@pytest.fixture(scope="module")
def gcc_line(gcc_selftest):
    tree, exe = gcc_selftest
    line = run_line([exe], tree)
    assert SELFTEST_LINE.match(line), line
    return line


def run_line(cmd: list[str], cwd, env=None) -> str:
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return out.stdout.strip()


def test_threads_h_is_the_only_thread_layer():
    """Only native/src/threads.h names POSIX or Win32 threads (the tools use it too)."""
    for path in sorted([*(NATIVE / "src").glob("*.[ch]"), *(NATIVE / "tools").glob("*.[ch]")]):
        text = path.read_text()
        includes = re.findall(r"#\s*include\s*<(pthread\.h|windows\.h|process\.h)>", text)
        assert (path.name == "threads.h") == bool(includes), (path.name, includes)
        if path.name != "threads.h":
            assert "pthread_" not in text, path.name


def test_build_flags_follow_the_compiler():
    assert build.compiler_family("win32", "") == "msvc"
    assert build.compiler_family("win32", "gcc") == "gcc"   # mingw asked for by name
    assert build.compiler_family("darwin", "") == build.compiler_family("linux", "") == "gcc"
    msvc_compile, msvc_link = build.build_args("msvc")
    assert "/O2" in msvc_compile and not any("pthread" in f for f in msvc_compile + msvc_link)
    assert not any(f.startswith("-") for f in msvc_compile)
    gcc_compile, gcc_link = build.build_args("gcc")
    assert "-O3" in gcc_compile and "-pthread" in gcc_compile and "-pthread" in gcc_link
    assert "-ffp-contract=off" in gcc_compile


def test_native_src_cross_compiles_for_every_target_with_no_warning(tmp_path):
    compiler = zig()
    cache = tmp_path / "zig-cache"
    env = dict(os.environ, ZIG_GLOBAL_CACHE_DIR=str(cache), ZIG_LOCAL_CACHE_DIR=str(cache))
    jobs = [(target, source) for target in ZIG_TARGETS
            for source in sorted((NATIVE / "src").glob("*.c"))]

    def compile_one(job):
        target, source = job
        out = subprocess.run([compiler, "cc", "-target", target, *ZIG_FLAGS,
                              f"-I{NATIVE / 'src'}", f"-I{NATIVE}", "-c", str(source),
                              "-o", str(tmp_path / f"{target}-{source.stem}.o")],
                             capture_output=True, text=True, env=env, timeout=600)
        return f"{target} {source.name}: {out.stderr.strip()}" if out.returncode else ""

    with ThreadPoolExecutor(4) as pool:
        complaints = [c for c in pool.map(compile_one, jobs) if c]
    assert not complaints, "\n".join(complaints)[-4000:]


def test_selftest_line_is_the_same_under_wine_as_with_gcc(gcc_selftest, gcc_line, tmp_path):
    """The Win32 thread path (mingw-w64, no -pthread) and msvcrt's maths give the bits of
    Linux's; and here the network's AVX2 path gives those of its generic path."""
    wine = tool("wine")
    tree = selftest_tree(tmp_path)
    exe = build_selftest(tool(MINGW), tree, "selftest.exe", [])
    gcc_tree, gcc_exe = gcc_selftest
    # wine's own start (a fresh prefix: some seconds) is paid once, here
    env = dict(os.environ, WINEPREFIX=str(tmp_path / "wine"), WINEDEBUG="-all",
               WINEDLLOVERRIDES="mscoree,mshtml=")
    with ThreadPoolExecutor(2) as pool:
        generic, windows = pool.map(lambda cmd_cwd_env: run_line(*cmd_cwd_env), [
            ([gcc_exe, "--generic"], gcc_tree, None), ([wine, exe], tree, env)])
    subprocess.run([shutil.which("wineserver") or "wineserver", "-k"], env=env,
                   capture_output=True, timeout=60)
    assert generic == gcc_line
    assert windows == gcc_line, f"mingw-w64 under wine: {windows}\ngcc here:            {gcc_line}"


def test_plain_c_bit_counts_give_the_same_line(gcc_line, tmp_path):
    """bits.h's plain C (what MSVC compiles, having no GCC builtins) answers as the builtins."""
    tree = selftest_tree(tmp_path)
    exe = build_selftest(tool("gcc"), tree, "selftest", ["-pthread", "-DBG_PORTABLE_BITS"])
    assert run_line([exe], tree) == gcc_line


def test_selftest_without_its_weights_says_so_in_one_line(gcc_selftest, tmp_path):
    _, exe = gcc_selftest
    out = subprocess.run([exe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0
    assert out.stdout.count("\n") == 1 and out.stderr == ""
    assert "evaluator.wts" in out.stdout and "cannot open" in out.stdout


def test_selftest_refuses_a_cut_weights_file_in_one_line(gcc_selftest, tmp_path):
    _, exe = gcc_selftest
    cut = tmp_path / "cut weights.wts"   # a space in the name too
    cut.write_bytes((NATIVE / "evaluator.wts").read_bytes()[:1000])
    out = subprocess.run([exe, str(cut)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode != 0 and out.stdout.count("\n") == 1
    assert "was refused" in out.stdout and str(cut) in out.stdout
