"""A disk that fills up: the storage's file-writing seam with a limited amount of free space.

``SmallDisk`` writes real files, like ``morris_pi.core.safe_files.Disk``, but
counts every byte against ``free``. A write that does not fit writes what
fits, then fails with ``ENOSPC``, as a full file system does. Set ``free``
to make room again. Deleting files gives no space back (tests set ``free``).

>>> import os, tempfile
>>> from pathlib import Path
>>> from morris_pi.core.safe_files import atomic_write_text
>>> disk, target = SmallDisk(free=4), Path(tempfile.mkdtemp()) / "x.txt"
>>> atomic_write_text(target, "too long", disk=disk)
Traceback (most recent call last):
...
OSError: [Errno 28] No space left on device
>>> target.exists(), disk.free
(False, 0)
>>> disk.free = 100; atomic_write_text(target, "fits", disk=disk); target.read_text()
'fits'
"""

from __future__ import annotations

import errno
import os

from morris_pi.core.safe_files import Disk


class SmallDisk(Disk):
    """Real writes with a budget of ``free`` bytes; ``full()`` and ``room()`` for tests."""

    def __init__(self, free: int = 1 << 30) -> None:
        self.free = free
        self.failures = 0

    def full(self) -> None:
        self.free = 0

    def room(self, free: int = 1 << 30) -> None:
        self.free = free

    def write(self, fd: int, data: bytes) -> None:
        fits = min(len(data), self.free)
        if fits:
            super().write(fd, data[:fits])
            self.free -= fits
        if fits < len(data):
            self.failures += 1
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
