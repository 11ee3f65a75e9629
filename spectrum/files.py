"""Reading and writing the small files the program keeps (tapes, settings, saves) safely:
only regular files are opened (a FIFO or a device never blocks the program), a size limit
is checked before anything is read, and writes go to a temporary file in the same folder,
flushed and fsynced, then renamed over the old file. Not what the files mean."""
import os
import pathlib
import stat
import tempfile


class FileRefused(OSError):
    """A path that is not a regular file, or a file bigger than the reader allows; the
    message says which, in words."""


def read_regular(path, max_bytes: int) -> bytes:
    """The whole of a regular file of at most max_bytes bytes. FileNotFoundError when
    there is none; FileRefused for a FIFO, device, socket or folder (opened without
    blocking and refused at once) or a file over the limit (refused before reading)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(os.fspath(path), flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"is not a regular file ({_kind(info.st_mode)})")
        if info.st_size > max_bytes:
            raise FileRefused(f"is {info.st_size:,} bytes, more than the {max_bytes:,} "
                              f"allowed")
        chunks, total = [], 0
        while True:                        # the file may grow while it is read
            chunk = os.read(fd, max_bytes + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise FileRefused(f"is more than the {max_bytes:,} bytes allowed")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a plain file"


def write_atomic(path, data: bytes, backup=None) -> pathlib.Path:
    """Write data to path so that a crash at any moment leaves either the old file or the
    new one, never half of one: a temporary file in the same folder, flushed and fsynced,
    then renamed over. With `backup` (a path), the old file is first renamed to it, so the
    previous version is kept until the new one is in place (and after)."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if backup is not None and path.is_file():
            os.replace(path, backup)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(path.parent)
    return path


def _sync_folder(folder: pathlib.Path) -> None:
    """Make the renames in a folder durable (POSIX; elsewhere the rename must do)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
