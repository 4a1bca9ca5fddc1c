"""A local file opened once and read through its descriptor from then on.

Checking a file by its name and then reading it by name again lets anyone who can re-point a
symlink, or rename a folder, in between swap in another file. So a checked file is opened once
(without following a final symlink, without blocking on a FIFO), and every later read uses that
descriptor: hashing reads with `pread`, and MuPDF opens a name that reaches the same open file —
`/proc/self/fd/N` on Linux (the kernel reopens the inode the descriptor holds, whatever its
name points at now) or `/dev/fd/N` on macOS (a duplicate of the descriptor). Elsewhere MuPDF
gets the bytes, read once into memory.
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

# O_NOFOLLOW: a name that became a symlink after it was resolved fails (ELOOP) instead of being
# followed. O_NONBLOCK | O_NOCTTY: a FIFO or terminal swapped in cannot hang or adopt us.
OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
              | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
_PROC_FD = "/proc/self/fd"
_CHUNK = 1 << 20


class FileIdentity(NamedTuple):
    """Which file, and which version of it: equal identities mean the same bytes on disk."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, info: os.stat_result) -> FileIdentity:
        return cls(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def open_no_follow(path: Path | str) -> int:
    """A read-only descriptor of `path` itself: never through a final symlink, never blocking."""
    return os.open(path, OPEN_FLAGS)


def fd_location(fd: int) -> str | None:
    """The kernel's current name for the file behind `fd`; None where the platform cannot say,
    "" when the file has no name any more (deleted)."""
    if sys.platform.startswith("linux"):
        try:
            location = os.readlink(f"{_PROC_FD}/{fd}")
        except OSError:
            return None
        if location.endswith(" (deleted)") or not location.startswith("/"):
            return ""
        return location
    if sys.platform == "darwin":
        import fcntl

        try:
            raw = fcntl.fcntl(fd, fcntl.F_GETPATH, bytes(1024))
        except (OSError, AttributeError):
            return None
        return os.fsdecode(raw.split(b"\0", 1)[0])
    return None


def _close_quietly(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


class HeldFile:
    """An open descriptor of a checked local file; the file it names can no longer change."""

    def __init__(self, fd: int, identity: FileIdentity) -> None:
        self.fd = fd
        self.identity = identity
        self._seek_lock = threading.Lock()  # only where there is no pread (Windows)
        self._finalizer = weakref.finalize(self, _close_quietly, fd)

    @classmethod
    def adopt(cls, fd: int) -> HeldFile:
        """Wrap a freshly opened descriptor (its identity from fstat)."""
        return cls(fd, FileIdentity.of(os.fstat(fd)))

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    def close(self) -> None:
        self._finalizer()

    def read_at(self, offset: int, size: int) -> bytes:
        """Up to `size` bytes at `offset`, without moving any shared file position."""
        if hasattr(os, "pread"):
            return os.pread(self.fd, size, offset)
        with self._seek_lock:
            os.lseek(self.fd, offset, os.SEEK_SET)
            return os.read(self.fd, size)

    def chunks(self, size: int = _CHUNK) -> Iterator[bytes]:
        """The whole file from the start, `size` bytes at a time."""
        offset = 0
        while chunk := self.read_at(offset, size):
            yield chunk
            offset += len(chunk)

    def read_all(self) -> bytes:
        return b"".join(self.chunks())

    def contains(self, marker: bytes) -> bool:
        """True when `marker` occurs anywhere in the file (chunks overlap so none is missed)."""
        tail = b""
        for chunk in self.chunks():
            if marker in tail + chunk:
                return True
            tail = chunk[-(len(marker) - 1):] if len(marker) > 1 else b""
        return False

    def mupdf_name(self) -> str | None:
        """A file name that opens exactly this file, or None (then MuPDF must get the bytes)."""
        if sys.platform.startswith("linux") and os.path.isdir(_PROC_FD):
            return f"{_PROC_FD}/{self.fd}"
        if sys.platform == "darwin":
            return f"/dev/fd/{self.fd}"
        return None
