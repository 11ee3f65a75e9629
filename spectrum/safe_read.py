"""Reading a small file the program is given (a tape, the settings, a save) safely: only a
regular file is opened (a FIFO or a device never blocks the program) and its size limit is
checked before anything is read. Not the writing (spectrum/safe_write.py), not the formats."""
import os
import stat


class FileRefused(OSError):
    """A path that is not a regular file, or a file bigger than the reader allows; the
    message says which, in words."""


def read_regular(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The whole of a regular file of at most max_bytes bytes. FileNotFoundError when
    there is none; FileRefused for a FIFO, device, socket or folder (opened without
    blocking and refused at once) or a file over the limit (refused before reading)."""
    # O_NONBLOCK is POSIX's and O_BINARY Windows': each system has only one of them
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(os.fspath(path), flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"not a regular file: it is {_kind(info.st_mode)}")
        if info.st_size > max_bytes:
            raise FileRefused(f"{info.st_size:,} bytes, more than the {max_bytes:,} allowed")
        chunks, total = [], 0
        while True:                        # the file may grow while it is read
            chunk = os.read(fd, max_bytes + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise FileRefused(f"more than the {max_bytes:,} bytes allowed")
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
