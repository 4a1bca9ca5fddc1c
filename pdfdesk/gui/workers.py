"""Run blocking work (MuPDF, Whoosh, the library file) off the UI thread and get the answer back on it.

The UI thread must never wait for `MUPDF_LOCK`: indexing holds it in slices, and a wait would
freeze the window. `submit` runs a callable on a dedicated thread pool and delivers its result
(or a structured error) to callbacks on the UI thread through a queued Qt signal, so panels stay
plain Qt code and need no asyncio. Callbacks are dropped when their `owner` widget is gone.

A job submitted without `on_error` still must not fail silently: its failure is announced on
`failure_notices().failed` as a sentence, which the main window shows in its status bar.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, cast

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from pdfdesk.core.documents import mupdf_message
from pdfdesk.core.errors import INTERNAL_ERROR, PDF_ERROR, PdfDeskError
from pdfdesk.core.mupdf_errors import is_mupdf_error
from pdfdesk.tools.details import ErrorDetails

log = logging.getLogger(__name__)
NOTICE_MS = 15_000  # how long the status bar shows an unattended failure


def error_details(exc: BaseException) -> ErrorDetails:
    """The ToolResult-style `{"error", "message", "hint"}` of any exception. Only what MuPDF raised
    is blamed on the document; anything else is named by its class, so a bug looks like one."""
    if isinstance(exc, PdfDeskError):
        return cast(ErrorDetails, exc.to_details())
    if is_mupdf_error(exc):
        return {"error": PDF_ERROR, "message": f"MuPDF could not process the document: {mupdf_message(exc)}.",
                "hint": "The file may be damaged; try another copy."}
    message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if isinstance(exc, OSError):  # the disk or the file system, not necessarily a bug
        return {"error": INTERNAL_ERROR, "message": message,
                "hint": "Check that the file or folder exists and may be read and written."}
    return {"error": INTERNAL_ERROR, "message": message, "hint": "This is a bug in pdfdesk; please report it."}


def describe_failure(details: Mapping[str, Any]) -> str:
    """One line for a user: what went wrong, and what to do about it when that is known."""
    message = details.get("message") or "A background task failed."
    hint = details.get("hint")
    return f"{message} {hint}" if hint else message


class FailureNotices(QObject):
    """Failures of jobs nobody handles; `failed(text, msecs)` fits QStatusBar.showMessage."""

    failed = Signal(str, int)


_notices: FailureNotices | None = None


def failure_notices() -> FailureNotices:
    """The one announcer of unhandled failures (created on the UI thread, with the application)."""
    global _notices
    if _notices is None or not shiboken6.isValid(_notices):
        _notices = FailureNotices(QCoreApplication.instance())
    return _notices


class _Relay(QObject):
    """Lives on the UI thread; its signals cross from the worker thread as queued calls."""

    succeeded = Signal(object)
    failed = Signal(object)
    progressed = Signal(object)


class Job:
    """A submitted call: `cancel()` asks it to stop (it sees `cancelled` / its cancel Event)."""

    def __init__(self) -> None:
        self.cancel_event = threading.Event()
        self.finished = False

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def cancel(self) -> None:
        self.cancel_event.set()


class _Runnable(QRunnable):
    def __init__(self, func: Callable[[], Any], relay: _Relay, job: Job) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._func, self._relay, self._job = func, relay, job

    def run(self) -> None:  # worker thread
        try:
            result = self._func()
        except BaseException as exc:  # every failure becomes structured details
            if not isinstance(exc, PdfDeskError):
                log.warning("background job failed", exc_info=True)
            self._relay.failed.emit(error_details(exc))
        else:
            self._relay.succeeded.emit(result)


_pool: QThreadPool | None = None
_live: set[_Relay] = set()  # relays kept alive until they have delivered


def pool() -> QThreadPool:
    """The shell's thread pool, apart from the viewer's so a slow search never delays rendering."""
    global _pool
    if _pool is None:
        _pool = QThreadPool()
        _pool.setMaxThreadCount(4)
        _pool.setObjectName("pdfdesk-shell")
    return _pool


def submit(
    func: Callable[..., Any],
    *args: Any,
    on_done: Callable[[Any], None] | None = None,
    on_error: Callable[[ErrorDetails], None] | None = None,
    on_progress: Callable[[Any], None] | None = None,
    owner: QObject | None = None,
    with_job: bool = False,
) -> Job:
    """Run `func(*args)` on the pool; callbacks run on the UI thread.

    With `with_job=True`, `func` is called as `func(*args, job=job, progress=emit)`, so it can check
    `job.cancelled` and report progress (delivered to `on_progress` on the UI thread).
    """
    job = Job()
    # Parented to the application: its C++ side is deleted on the UI thread (deleteLater below),
    # never by Python's garbage collector running in whatever thread happens to allocate.
    relay = _Relay(QCoreApplication.instance())
    _live.add(relay)

    def alive() -> bool:
        return owner is None or shiboken6.isValid(owner)

    def finish() -> None:
        job.finished = True
        _live.discard(relay)
        relay.deleteLater()

    def done(result: Any) -> None:
        finish()
        if on_done is not None and alive() and not job.cancelled:
            on_done(result)

    def failed(details: ErrorDetails) -> None:
        finish()
        if alive() and not job.cancelled:
            if on_error is not None:
                on_error(details)
            else:
                log.warning("background job failed: %s", details.get("message"))
                failure_notices().failed.emit(describe_failure(details), NOTICE_MS)

    def progressed(value: Any) -> None:
        if on_progress is not None and alive() and not job.cancelled:
            on_progress(value)

    relay.succeeded.connect(done)
    relay.failed.connect(failed)
    relay.progressed.connect(progressed)

    def call() -> Any:
        if with_job:
            return func(*args, job=job, progress=relay.progressed.emit)
        return func(*args)

    pool().start(_Runnable(call, relay, job))
    return job


def wait_idle(msecs: int = 10_000) -> bool:
    """Wait for every queued job (tests and shutdown); True when the pool drained in time."""
    return pool().waitForDone(msecs)
