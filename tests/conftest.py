"""Shared test set-up: headless SDL, where ../shared (the FUSE vectors, the seeds) lives, the
offline tools built once at a time (the suite runs in parallel workers), and calls run in
threads at once."""
import fcntl
import importlib
import importlib.util
import os
import pathlib
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import NoReturn

import pytest
from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# settings and autosaves of this test process go to a folder of its own, never the user's
os.environ.setdefault("SPECTRUM_BACKGAMMON_CONFIG_DIR", tempfile.mkdtemp(prefix="sbg-config-"))

# Property tests: the default run and CI replay one fixed set of examples (derandomize: the
# same draws on every run, no example database), so a submission's CI never fails on a bug that
# was always there. `pytest --hypothesis-profile=explore` is the run a developer makes on purpose
# (new draws each time, many more of them, found failures kept in .hypothesis/): every example
# it finds goes into the test as an explicit @example (tests/README.md).
settings.register_profile("ci", max_examples=300, derandomize=True, database=None,
                          print_blob=True)
settings.register_profile("explore", max_examples=20_000, derandomize=False, print_blob=True)
settings.load_profile("ci")          # the plugin's --hypothesis-profile, when given, comes after

REPO = pathlib.Path(__file__).resolve().parent.parent
SHARED = pathlib.Path(os.environ.get("SPECTRUM_SHARED", REPO.parent / "shared"))
REQUIRE_SHARED = os.environ.get("SPECTRUM_REQUIRE_SHARED") == "1"
IN_CI = REQUIRE_SHARED or os.environ.get("CI") == "true"


@pytest.fixture
def config(tmp_path, monkeypatch):
    """The test's own options and save folder, `tmp_path/cfg`, not made yet (the program makes
    it when it first writes there). A test module may define its own `config` instead."""
    from game.files.folders import CONFIG_ENV
    folder = tmp_path / "cfg"
    monkeypatch.setenv(CONFIG_ENV, str(folder))
    return folder


def missing_tool(message: str) -> NoReturn:
    """A system tool or an outside package a test needs is not there: a skip on a developer's
    machine, a failure in CI (where .ci/run and the test extra install it). Never for our own
    code or files: a test of ours that cannot run fails."""
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


def outside_module(name: str):
    """An outside package the test extra installs (gnubg_nn, skoolkit), or missing_tool."""
    try:
        return importlib.import_module(name)
    except ImportError:
        missing_tool(f"{name} is not installed (pip install -e .[test] brings it)")


def shared_path(*parts: str) -> pathlib.Path:
    """A file under ../shared; skips the test when it is absent, unless CI requires it."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        msg = (f"{path} is missing: put the project's shared/ folder beside the checkout "
               f"(or set SPECTRUM_SHARED to its path)")
        missing_tool(msg)
    return path


def bench_module(name: str):
    """bench/NAME.py loaded as a fresh module (bench/ holds scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"{name}_bench", REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def at_once(fn, shares: list) -> list:
    """fn(share) for every share, each in a thread of its own, all running together; the
    results in the order of the shares (an exception in a thread is raised here)."""
    with ThreadPoolExecutor(len(shares)) as pool:
        return list(pool.map(fn, shares))


TOOLS = REPO / "native" / "tools"
ALL_TOOLS = ("train", "refine", "sldata")


def build_tools(dest: pathlib.Path) -> pathlib.Path:
    """native/tools' programs made (all of them, under a lock: parallel workers and
    rebuild_net.py's own make never write one binary at once) and copied into dest."""
    if not shutil.which("make") or not shutil.which(os.environ.get("CC", "gcc")):
        missing_tool("make and a C compiler are needed to build native/tools")
    with open(TOOLS / "Makefile", "rb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            subprocess.run(["make", "-s", "-C", str(TOOLS), *ALL_TOOLS], check=True)
            for name in ALL_TOOLS:
                shutil.copy(TOOLS / name, dest / name)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return dest


def side_crashed(row) -> bool:
    """A side (25 counts, the ace point first, the bar last) down to its last few men in play,
    as GNU Backgammon's published classes count them: at most 6 men on the board, not counting
    all but one of a stack on the ace point, or on the ace and deuce points together (written
    here from that description, apart from eval.c's)."""
    in_play = sum(row)
    ace, deuce = row[0], row[1]
    if in_play <= 6:
        return True
    if ace > 1:
        return in_play - ace <= 6 or (deuce > 1 and in_play - ace - deuce + 1 <= 6)
    return in_play - (deuce - 1) <= 6


def in_contact(board) -> bool:
    """The two sides of a 50-count board (mover's row first) can still meet."""
    mine = max((i for i in range(25) if board[i]), default=-1)
    theirs = max((i for i in range(25) if board[25 + i]), default=-1)
    return mine > 23 - theirs


def crashed_position(board) -> bool:
    """A 50-count board the crashed net judges: contact, and a side crashed."""
    return in_contact(board) and (side_crashed(board[:25]) or side_crashed(board[25:]))


def shipped_with_crashed(path: pathlib.Path, crashed_of) -> bytes:
    """Writes the shipped weights file's nets to path with crashed_of(its contact net) as the
    crashed net (None: none, a version-1 file), through sltrain.py; returns the bytes."""
    import sys
    sys.path.insert(0, str(TOOLS))
    import sltrain
    from game.model import evaluator
    nets, games = sltrain.read_weights(evaluator.WEIGHTS_PATH)
    sltrain.write_weights(str(path), dict(nets, crashed=crashed_of(nets["contact"])), games)
    return path.read_bytes()
