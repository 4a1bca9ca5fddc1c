"""The pipe between a parent and its child: waiting on it under a deadline and a cancel event,
sending a message that may not pickle, writing raw bytes whole, and a wider pipe for page images.
"""

from __future__ import annotations

import os
import threading
import time
from multiprocessing.connection import Connection, wait
from typing import Any, Final

from pdfdesk.core.childproc.failures import EXIT_OUT_OF_MEMORY, JobCancelled

CANCEL_POLL_S: Final = 0.05  # how often a wait checks the caller's cancel event


def send_message(conn: Connection, message: tuple[Any, ...]) -> None:
    """Send `message`; one that cannot be pickled becomes an error naming why (the pipe stays in
    step: Connection.send pickles the whole message before writing any of it)."""
    try:
        conn.send(message)
    except OSError:
        raise
    except Exception as exc:
        conn.send(("exception", type(exc).__name__, f"the answer could not be sent back: {exc}"))


def exit_out_of_memory(conn: Connection) -> None:
    """After a MemoryError: tell the parent if the pipe still works, then exit; a process that ran out
    of memory may be half-way through changing any of its state and is not trusted with more work."""
    try:
        conn.send(("memory",))
    except BaseException:  # even pickling may fail now; the exit status says it too
        pass
    os._exit(EXIT_OUT_OF_MEMORY)


class Overdue(Exception):
    """The deadline passed while waiting (internal: callers turn it into ChildFailed)."""


def wait_for(objects: list[Any], until: float | None, cancel: threading.Event | None, name: str) -> list[Any]:
    """Those of `objects` (connections, process sentinels) ready to read. Raises Overdue once the
    monotonic time `until` passes and JobCancelled once `cancel` is set (looked at every 50 ms)."""
    while True:
        if cancel is not None and cancel.is_set():
            raise JobCancelled(f"{name} was cancelled.")
        step: float | None = None
        if until is not None:
            step = until - time.monotonic()
            if step <= 0:
                raise Overdue()
        if cancel is not None:
            step = CANCEL_POLL_S if step is None else min(step, CANCEL_POLL_S)
        ready = wait(objects, step)
        if ready:
            return ready


def write_all(fd: int, data: memoryview) -> None:
    """Write all of `data` to `fd` (a pipe takes only what fits at a time)."""
    done, size = 0, data.nbytes
    while done < size:
        done += os.write(fd, data[done:])


F_SETPIPE_SZ: Final = 1031  # Linux fcntl


def widen_pipe(fd: int) -> None:
    """Linux: a reply pipe of 1 MiB moves a page image in a few reads, not dozens."""
    try:
        import fcntl

        fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)
    except (ImportError, OSError):  # not Linux, a socket, or above /proc/sys/fs/pipe-max-size
        pass
