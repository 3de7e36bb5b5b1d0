"""Files that survive a power cut, and files read without trusting them.

Writing: ``atomic_write_text`` writes a temporary file in the same directory,
flushes and fsyncs it, renames it over the target with ``os.replace``, and then
fsyncs the directory itself so the rename survives a power cut. A reader
therefore sees either the old file or the new one, never a mixture. File
contents go through one seam, ``Disk.write``, so a test can run the real
writers on a disk that fills up (``morris_pi.hw.fakes.disk``).

Reading: ``read_regular_file`` reads only a regular file (opened without
following links and without blocking, so a FIFO never hangs the start), and at
most a given number of bytes of it; anything else is ``UnreadableFile`` with
the reason in words.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "note.txt"
>>> atomic_write_text(path, "kept")
>>> read_regular_file(path, 100)
b'kept'
>>> read_regular_file(path, 3)
Traceback (most recent call last):
...
morris_pi.core.safe_files.UnreadableFile: it is 4 bytes, more than the 3 a valid file can be
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from morris_pi.errors import MorrisPiError


def fsync_dir(directory: Path) -> None:
    """Make a rename or unlink in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    except OSError as exc:
        # Some file systems (vfat on a boot partition, some FUSE) refuse fsync on a directory;
        # the rename has still happened, so this is not worth failing the save for.
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


class Disk:
    """Where storage writes file contents: the real ``os.write``.

    The one seam for file data, so that tests run the real storage on a disk that
    runs out of space (``morris_pi.hw.fakes.disk.SmallDisk``) instead of mocking it.
    """

    def write(self, fd: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]


REAL_DISK = Disk()


def atomic_write_text(path: Path, text: str, mode: int = 0o644, disk: Disk | None = None) -> None:
    """Replace ``path`` with ``text`` so that readers see the old or the new file, never a part.

    If anything fails before the rename, the temporary file is removed, the old
    file is untouched and the error propagates. A symbolic link at ``path`` is
    replaced, never followed.
    """
    atomic_write_bytes(path, text.encode("utf-8"), mode, disk)


def atomic_write_bytes(path: Path, data: bytes, mode: int = 0o644, disk: Disk | None = None) -> None:
    """``atomic_write_text`` for bytes (a PNG picture, say)."""
    directory = path.parent
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp creates 0600; records and saves are not secret, and the user listing
        # records from a login shell is not the service user.
        os.fchmod(fd, mode)
        (disk or REAL_DISK).write(fd, data)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp_name, path)
    except BaseException:
        if fd != -1:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    fsync_dir(directory)


class UnreadableFile(MorrisPiError, ValueError):
    """A file in the state directory that cannot be used; the message says why."""


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISLNK, "a symbolic link"),
)


def file_kind(mode: int) -> str:
    """What a file is, in words (for messages about files that are not regular).

    >>> file_kind(stat.S_IFIFO)
    'a named pipe (FIFO)'
    """
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def read_regular_file(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of ``path``, which must be a regular file (not a link to one).

    ``FileNotFoundError`` propagates; everything else that makes the file
    unusable raises ``UnreadableFile``. The file is opened without following a
    symbolic link and without blocking, so a FIFO put in its place is refused
    at once instead of waiting for a writer.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnreadableFile("it is a symbolic link") from None
        raise UnreadableFile(f"cannot read it: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(f"it is {file_kind(info.st_mode)}, not a file")
        if info.st_size > limit:
            raise UnreadableFile(f"it is {info.st_size:,} bytes, more than the {limit:,} a valid file can be")
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while being read
            raise UnreadableFile(f"it is more than the {limit:,} bytes a valid file can be")
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFile(f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
