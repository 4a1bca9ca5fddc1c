"""Work for tests/core/test_childproc.py to run in child processes (module-level, so it pickles by
name; small imports, so children start fast)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from typing import Any

from pdfdesk.core.childproc import RawReply, io_priority
from pdfdesk.core.config import get_config
from pdfdesk.core.errors import FILE_NOT_FOUND, PdfDeskError

Send = Callable[[Any], None]


def sleep(send: Send, seconds: float) -> str:
    send(os.getpid())
    time.sleep(seconds)
    return "slept"


def segfault(send: Send) -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


def allocate(send: Send, megabytes: int) -> int:
    block = bytearray(megabytes * 1024 * 1024)
    return len(block)


def count(send: Send, up_to: int) -> int:
    for number in range(1, up_to + 1):
        send(number)
    return sum(range(1, up_to + 1))


def surroundings(send: Send) -> dict[str, Any]:
    """What a child sees of its parent's settings, and what priority it runs at."""
    return {
        "pid": os.getpid(),
        "max_file_mb": get_config().max_file_mb,
        "home": os.environ.get("PDFDESK_HOME"),
        "cwd": os.getcwd(),
        "sigint_ignored": signal.getsignal(signal.SIGINT) == signal.SIG_IGN,
        "nice": os.getpriority(os.PRIO_PROCESS, 0) if hasattr(os, "getpriority") else None,
        "io": io_priority(),
    }


def fail(send: Send, coded: bool) -> None:
    if coded:
        raise PdfDeskError(FILE_NOT_FOUND, "No such file: nowhere.pdf.", "Check the path.", path="nowhere.pdf")
    raise ValueError("not a number: 'x'")


# --- a worker's handler ------------------------------------------------------------------------------------
def echo_handler(prefix: str) -> Callable[[Any], Any]:
    """A worker that answers ("echo", x), ("settings",), ("sleep", s), ("raw", n), ("segv",),
    ("allocate", mb) and ("fail",)."""

    def handle(request: tuple[Any, ...]) -> Any:
        kind = request[0]
        if kind == "echo":
            return f"{prefix}{request[1]}"
        if kind == "settings":
            return get_config().max_file_mb, os.environ.get("PDFDESK_HOME")
        if kind == "sleep":
            time.sleep(request[1])
            return "slept"
        if kind == "raw":
            return RawReply(("bytes", request[1]), bytes(range(256)) * (request[1] // 256))
        if kind == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        if kind == "allocate":
            return len(bytearray(request[1] * 1024 * 1024))
        raise PdfDeskError(FILE_NOT_FOUND, "No such file: nowhere.pdf.", "Check the path.")

    return handle
