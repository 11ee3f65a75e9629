"""What a player installs (issue 42): the wheel built from the tracked files holds every
file the program reads at run time, all Python under spectrum/, game/, roms/ and native/
(a new folder without an __init__.py, or a data file no package-data pattern covers,
fails here), the ROM, the tape, the machine code, the weights; it is tagged for the stable
ABI (one wheel for every CPython from 3.11) and its version is game.__version__."""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import game
from game.model import evaluator
from game.zx import media
from repo import REPO

ROOT = REPO
PACKAGES = ("spectrum", "game", "roms", "native")
# Tracked files under the packages that the installed program never reads, each with why.
BUILD_ONLY = {
    "native/tools/": "the offline training tools and their logs, run from a clone",
    "native/src/": "the C sources: compiled into native._engine by the build",
    "native/bg.h": "the header: the build reads its cdef",
    "native/build.py": "the cffi builder, run by the build (shipped all the same)",
}


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", *PACKAGES], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return out.stdout.split()


def needed_at_run_time(path: str) -> bool:
    if path.endswith(".py"):
        return not path.startswith("native/tools/")
    return not any(path.startswith(prefix) for prefix in BUILD_ONLY)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """A wheel built from a copy of the tracked files alone (no in-place build, no
    untracked file can make it look complete), in an isolated build environment with the
    build requirements pyproject.toml names, as pip builds it for a player."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout")
    source = tmp_path_factory.mktemp("source")
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    for name in listed:
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out),
                            str(source)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    (built,) = out.glob("*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_holds_every_tracked_file_the_program_reads(wheel):
    shipped = set(wheel.namelist())
    missing = [path for path in tracked_files() if needed_at_run_time(path)
               and path not in shipped]
    assert not missing, f"tracked files the installed game needs but the wheel lacks: {missing}"


def test_the_wheel_holds_the_files_the_program_opens_by_path(wheel):
    """The paths the program builds at run time, each in the wheel."""
    shipped = set(wheel.namelist())
    opened = [media.ROM_PATH, media.TAPE_PATH, media.MCODE_PATH, media.MCODE_SYMBOLS,
              evaluator.WEIGHTS_PATH]
    import roms
    opened.append(roms.ROM_SYMBOLS)
    for path in opened:
        assert Path(path).relative_to(ROOT).as_posix() in shipped, path


def test_the_wheel_carries_the_compiled_engine_for_the_stable_abi(wheel):
    names = wheel.namelist()
    assert any(name.startswith("native/_engine") and name.endswith(".abi3.so") for name in names)
    (tag_line,) = [line for line in wheel.read(
        next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode().splitlines()
        if line.startswith("Tag:")]
    assert tag_line.split()[1].startswith("cp311-abi3-")


def test_the_wheel_is_named_for_the_one_version(wheel):
    assert Path(wheel.filename).name.startswith(f"spectrum_backgammon-{game.__version__}-")
    metadata = wheel.read(next(n for n in wheel.namelist() if n.endswith("METADATA"))).decode()
    assert f"Version: {game.__version__}" in metadata.splitlines()
    entry = wheel.read(next(n for n in wheel.namelist()
                            if n.endswith("entry_points.txt"))).decode()
    assert "spectrum-backgammon = game.main:main" in entry


def test_every_package_folder_is_a_package():
    """A folder of Python under the four packages without __init__.py would not be found
    by setuptools (and would not ship): the one exception is native/tools, run from a clone."""
    folders = {str(Path(path).parent) for path in tracked_files() if path.endswith(".py")}
    for folder in sorted(folders):
        if folder.startswith("native/tools"):
            continue
        assert (ROOT / folder / "__init__.py").exists(), f"{folder} has no __init__.py"
