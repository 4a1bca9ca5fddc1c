"""Every viewer worker thread, so none outlives the application.

A QThread object destroyed while its thread runs takes the process down, and the UI must never
wait for a render to finish: a view hands its old worker here (`retire`), which keeps it
referenced until it has ended, and application exit stops and joins them all (`shutdown`).
"""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref

from PySide6.QtCore import QCoreApplication, QThread

from pdfdesk.gui.viewer import render_process

WORKER_NICENESS = 5

_LIVE: weakref.WeakSet[QThread] = weakref.WeakSet()
_RETIRING: set[QThread] = set()  # stopped but maybe still running: kept alive until they end
_quit_hooked = False


def register(worker: QThread) -> None:
    """Track `worker` so `shutdown` stops it."""
    _LIVE.add(worker)


def lower_thread_priority() -> None:
    """Let the UI thread win the CPU over the calling worker on a busy machine (Linux: per-thread
    nice; QThread priorities do nothing under the default Linux scheduler)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WORKER_NICENESS)
    except (AttributeError, OSError):
        pass


def retire(worker: QThread) -> None:
    """Stop `worker` without waiting; keep it referenced until its thread has ended."""
    worker.stop()  # type: ignore[attr-defined]
    _prune()
    if worker.isRunning():
        _RETIRING.add(worker)


def _prune() -> None:
    for worker in [w for w in _RETIRING if not w.isRunning()]:
        _RETIRING.discard(worker)


def install_quit_hook() -> None:
    """Stop every viewer thread when the application quits (a running QThread must not be
    destroyed at interpreter exit)."""
    global _quit_hooked
    if _quit_hooked:
        return
    app = QCoreApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(shutdown)
        _quit_hooked = True


def shutdown(timeout_ms: int = 5000) -> bool:
    """Stop every viewer thread and the render helper (application exit, tests)."""
    ok = join_all(timeout_ms)
    render_process.HELPER.stop()
    return ok


def join_all(timeout_ms: int = 5000) -> bool:
    """Stop and wait for every viewer thread (application exit, tests); True when all ended."""
    deadline = time.monotonic() + timeout_ms / 1000.0
    ok = True
    for worker in list(_LIVE) + list(_RETIRING):
        try:
            worker.stop()  # type: ignore[attr-defined]
            remaining = max(0, int((deadline - time.monotonic()) * 1000))
            if worker.isRunning() and not worker.wait(remaining):
                ok = False
        except RuntimeError:  # its C++ object is already gone (application teardown)
            continue
    if ok:
        _RETIRING.clear()
    return ok


atexit.register(shutdown)  # last resort: a running QThread destroyed at exit aborts the process
