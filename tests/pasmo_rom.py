"""A 16 KiB ROM image assembled in code from Z80 source (org 0) through pasmo, for the
machine's and the beam's tests; pasmo missing skips the test (fails it in CI). Not a test."""
import os
import pathlib
import shutil
import subprocess
import tempfile

from conftest import missing_tool
from spectrum import hw


def assemble(source: str) -> bytes:
    """A 16 KiB ROM from Z80 source (org 0), through pasmo."""
    if shutil.which("pasmo") is None:
        missing_tool("pasmo is not installed (apt-get install pasmo)")
    with tempfile.TemporaryDirectory() as tmp:
        asm, out = os.path.join(tmp, "rom.asm"), os.path.join(tmp, "rom.bin")
        pathlib.Path(asm).write_text("        org 0\n" + source)
        subprocess.run(["pasmo", asm, out], check=True, capture_output=True)
        code = pathlib.Path(out).read_bytes()
    return code.ljust(hw.ROM_BYTES, b"\0")
