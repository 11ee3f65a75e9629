"""Established Spectrum tools listing a tape file, for the tests that hold our .TAP and .TZX
files against them: Debian's tzxlist (fuse-emulator-utils) and SkoolKit's tapinfo.py. A tool
that is missing skips the test (fails it in CI: conftest.missing_tool). Not a test."""
import shutil
import subprocess
import sys

from conftest import missing_tool


def require(found: bool, what: str) -> None:
    if not found:
        missing_tool(f"{what} is not installed (.ci/run installs it)")


def tzxlist(path) -> str:
    require(shutil.which("tzxlist") is not None, "tzxlist (fuse-emulator-utils)")
    return subprocess.run(["tzxlist", str(path)], check=True, capture_output=True,
                          text=True).stdout


def tapinfo(path) -> str:
    try:
        import skoolkit  # noqa: F401 - imported only to learn whether it is installed
    except ImportError:
        require(False, "SkoolKit (pip install skoolkit)")
    code = "import sys; from skoolkit.tapinfo import main; main(sys.argv[1:])"
    return subprocess.run([sys.executable, "-c", code, str(path)], check=True,
                          capture_output=True, text=True).stdout
