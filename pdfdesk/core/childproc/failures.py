"""How a child's failure is told: the reasons a child fails, the coded error the caller gets, and
the messages that carry an exception raised by the child's work back to the parent.

A child that dies says nothing; its exit status is all there is, so it is read here into a reason
(deadline, crash, memory) and a message a reader can act on.
"""

from __future__ import annotations

import os
import signal
import time
from multiprocessing.reduction import ForkingPickler
from typing import Any, Final

from pdfdesk.core.errors import PDF_ERROR, PdfDeskError

# ChildFailed.reason values
DEADLINE: Final = "deadline"   # overran its deadline and was killed
CRASH: Final = "crash"         # died on its own: a signal (segfault, abort) or an unexpected exit
OUT_OF_MEMORY: Final = "memory"  # hit its memory cap (or Python's MemoryError)
START: Final = "start"         # could not be started, or its set-up failed
GONE: Final = "gone"           # a worker had already died before the request reached it: nothing ran

EXIT_OUT_OF_MEMORY: Final = 86  # a child's exit status after a MemoryError (no Python program exits so by itself)


class JobCancelled(Exception):
    """The caller cancelled the work (its cancel event was set); the child was killed. Not an error
    to show: nobody is waiting for the answer any more."""


class ChildFailed(PdfDeskError):
    """The child process failed, as opposed to the work reporting an error of its own: it overran
    its deadline, crashed, ran out of memory or never started. Code pdf_error; `reason` is one of
    DEADLINE, CRASH, OUT_OF_MEMORY, START, GONE and is also in the details, with `timeout_s` and
    `elapsed_s` (deadline), `exit` (crash: "signal 11", "exit status 3") or `memory_mb`."""

    def __init__(self, name: str, reason: str, message: str, hint: str, **extra: Any) -> None:
        super().__init__(PDF_ERROR, message, hint, reason=reason, **extra)
        self.name = name
        self.reason = reason


def failure_message(exc: BaseException) -> tuple[Any, ...]:
    """An exception raised by the child's work, as a message the parent turns back into one."""
    if isinstance(exc, PdfDeskError):
        extra = {key: value for key, value in exc.extra.items() if _picklable(value)}
        return ("error", exc.code, exc.message, exc.hint, extra)
    return ("exception", type(exc).__name__, str(exc))


def _picklable(value: Any) -> bool:
    try:
        ForkingPickler.dumps(value)
        return True
    except Exception:
        return False


def describe_exit(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        return f"signal {-code}"
    if os.name == "nt" and code >= 0xC0000000:  # an NTSTATUS such as 0xC0000005, access violation
        return f"exception 0x{code:08X}"
    return f"exit status {code}"


def deadline_error(name: str, limit: float, started: float) -> ChildFailed:
    return ChildFailed(name, DEADLINE, f"{name} was stopped after {limit:g} s: it did not finish in time.",
                       "The document may be extremely complex or deliberately hostile; try a smaller part of it.",
                       timeout_s=limit, elapsed_s=round(time.monotonic() - started, 2))


def _memory_error(name: str, memory_mb: int | None) -> ChildFailed:
    limit = f" (its limit is {memory_mb} MB)" if memory_mb else ""
    return ChildFailed(name, OUT_OF_MEMORY, f"{name} ran out of memory{limit} and was stopped.",
                       "The document asks for more memory than pdfdesk gives one job; try fewer pages "
                       "or a lower resolution.", memory_mb=memory_mb)


def exit_error(name: str, code: int | None, memory_mb: int | None) -> ChildFailed:
    """The child ended without an answer: what its exit status says happened."""
    if code == EXIT_OUT_OF_MEMORY:
        return _memory_error(name, memory_mb)
    how = describe_exit(code)
    if code == -getattr(signal, "SIGKILL", 9):  # we did not send it (our kills are deadline or cancel)
        return ChildFailed(name, CRASH, f"{name} was killed from outside ({how}).",
                           "Often the system ran out of memory and ended the biggest process.", exit=how)
    by_signal = code is not None and (code < 0 or (os.name == "nt" and code >= 0xC0000000))
    if by_signal:
        return ChildFailed(name, CRASH, f"{name} crashed ({how}).",
                           "Usually a damaged or hostile PDF the PDF engine cannot survive; pdfdesk itself is fine.",
                           exit=how)
    return ChildFailed(name, CRASH, f"{name} ended unexpectedly ({how}).",
                       "See the log for details; pdfdesk itself is fine.", exit=how)


def rebuild(name: str, message: tuple[Any, ...], memory_mb: int | None) -> PdfDeskError:
    """The exception a child's failure message stands for."""
    if message[0] == "error":
        _tag, code, text, hint, extra = message
        return PdfDeskError(code, text, hint, **extra)
    if message[0] == "memory":
        return _memory_error(name, memory_mb)
    if message[0] == "exception":
        _tag, kind, text = message
        detail = f"{kind}: {text}" if text else kind
        return PdfDeskError(PDF_ERROR, f"{name} failed: {detail}.", "See the log for details.", exception=kind)
    return PdfDeskError(PDF_ERROR, f"{name} sent something unexpected: {message[0]!r}.", "This is a bug in pdfdesk.")
