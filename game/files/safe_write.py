"""Writing the player's files (settings, saves) safely: to a temporary file in the same
folder, flushed and fsynced, then renamed over the old file; a damaged file kept aside,
never deleted. Not what the files mean, and not the reading (spectrum/safe_read.py)."""
import errno
import glob
import os
import pathlib
import stat
import sys
import tempfile
import time

from spectrum.quoting import short_path
from spectrum.safe_read import read_regular

COPY_BYTES = 1 << 20                # keep_aside copies files up to this size, renames others
# Windows refuses to replace a file another program holds open (a virus scanner or a sync tool
# reading the save just written) or one marked read-only: such a refusal is tried again, with
# these pauses between, then reported.
REPLACE_PAUSES_S = (0.05, 0.1, 0.2, 0.4, 0.8)


class NotAFolder(NotADirectoryError):
    """A folder for the player's files cannot be made: a file has its name (or the name of a
    folder above it); filename is that file's path."""


def make_folder(folder) -> pathlib.Path:
    """The folder, made with its parents if need be; NotAFolder when a file stands where
    it or a folder above it should be (not Python's "[Errno 17] File exists")."""
    folder = pathlib.Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next((each for each in (folder, *folder.parents)
                         if os.path.lexists(each) and not each.is_dir()), folder)
        raise NotAFolder(errno.ENOTDIR, "a file, not a folder", str(blocking)) from None
    return folder


class ReplaceRefused(PermissionError):
    """A file could not be replaced (Windows: open in another program, or read-only); the
    message, one line, names the file and what to do."""


def replace_retrying(source, target) -> None:
    """os.replace, tried again after each of REPLACE_PAUSES_S on Windows while the system
    refuses it; then ReplaceRefused. Elsewhere a refusal is final at once (a rename there is
    never blocked by a reader)."""
    pauses = REPLACE_PAUSES_S if sys.platform == "win32" else ()
    for pause_s in (*pauses, None):
        try:
            os.replace(source, target)
            return
        except PermissionError as exc:
            if pause_s is None:
                raise ReplaceRefused(
                    f"{short_path(target)} could not be replaced ({exc.strerror or exc}): it is "
                    f"read-only or another program has it open; close that program or clear "
                    f"the read-only mark, and it is saved again at the next turn") from exc
            time.sleep(pause_s)


def write_atomic(path, data: bytes, backup=None) -> pathlib.Path:
    """Write data to path so that a crash at any moment leaves either the old file or the
    new one, never half of one: a temporary file in the same folder, flushed and fsynced,
    then renamed over. With `backup` (a path), the old file is first renamed to it, so the
    previous version is kept until the new one is in place (and after)."""
    path = pathlib.Path(path)
    make_folder(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if backup is not None and path.is_file():
            replace_retrying(path, backup)
        replace_retrying(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(path.parent)
    return path


def sweep_temporary(path) -> int:
    """Remove the temporary files write_atomic(path) leaves when its process is killed in
    mid-write (NAME.*.tmp beside it); call at start-up, when no write is under way.
    Returns how many went."""
    path = pathlib.Path(path)
    swept = 0
    for tmp in path.parent.glob(f"{glob.escape(path.name)}.*.tmp"):
        try:
            tmp.unlink()
            swept += 1
        except OSError:
            pass
    return swept


def _sync_folder(folder: pathlib.Path) -> None:
    """Make the renames in a folder durable (POSIX; elsewhere the rename must do)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))  # O_DIRECTORY: POSIX only
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def keep_aside(path, label: str = "damaged", copy: bool = False) -> pathlib.Path:
    """Keep a file out of the way: renamed NAME.damaged-YYYYmmdd-HHMMSS (numbered -2, -3...
    if that exists). With `copy`, a regular file of at most COPY_BYTES stays where it is
    and a copy goes aside instead, unless a copy kept before holds the same bytes (then
    that copy is returned). Returns the kept path; OSError if it cannot be done."""
    path = pathlib.Path(path)
    info = os.lstat(path)
    if copy and stat.S_ISREG(info.st_mode) and info.st_size <= COPY_BYTES:
        raw = read_regular(path, COPY_BYTES)
        for old in sorted(path.parent.glob(f"{glob.escape(path.name)}.{label}-*")):
            if old.is_file() and old.stat().st_size == len(raw) and old.read_bytes() == raw:
                return old
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while os.path.lexists(target):
        n += 1
        target = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    if copy and stat.S_ISREG(info.st_mode) and info.st_size <= COPY_BYTES:
        with open(target, "xb") as out:         # a new name: nothing to replace atomically
            out.write(raw)
    else:
        os.replace(path, target)
    return target
