"""An exclusive OS file lock shared by threads and processes (the GUI, `pdfdesk mcp`, `pdfdesk index`).

One helper for every part that must keep two processes from doing the same work at once: the
indexing owner and its document builds, and the notes database's move-aside after damage. The
OS releases the lock when its holder dies, so a killed process never blocks the next one. POSIX
uses `flock`; Windows, which has no `fcntl`, locks the file's first byte with `msvcrt`.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

POLL_S = 0.1


def _try_acquire(handle: BinaryIO) -> bool:
    """One non-blocking attempt; polling instead of blocking lets a waiter be cancelled."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False


def _release(handle: BinaryIO) -> None:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def open_lock_file(path: Path) -> BinaryIO:
    """The lock file, opened for writing where possible. One that exists but cannot be written
    (another user's file in a shared folder, a read-only disk) is opened for reading: an OS lock
    works on that handle just as well. Raises OSError when there is no lock file and none can be made."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return open(path, "a+b")
    except OSError:
        if path.is_file():
            return open(path, "rb")
        raise


@contextmanager
def file_lock(path: Path, wait: bool = False, cancel: threading.Event | None = None,
              while_waiting: Callable[[], None] | None = None) -> Iterator[bool]:
    """Hold the lock at `path` for the `with` block; yields False when it was not obtained.

    Without `wait` one attempt is made. With `wait` it polls until the lock is free or `cancel`
    is set, calling `while_waiting` between attempts (to report the holder's progress). Each
    call opens its own handle, so two threads of one process exclude each other too. Raises
    OSError when the lock file neither exists nor can be made (a read-only or full data folder).
    """
    with open_lock_file(path) as handle:
        held = _try_acquire(handle)
        while not held and wait and not (cancel is not None and cancel.is_set()):
            if while_waiting is not None:
                while_waiting()
            time.sleep(POLL_S)
            held = _try_acquire(handle)
        try:
            yield held
        finally:
            if held:
                _release(handle)
