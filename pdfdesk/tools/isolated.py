"""Run tools in worker processes that can be killed: a hostile PDF cannot hang or crash the caller.

`call_tool` runs MuPDF in the calling process, which is fastest but cannot be interrupted: a file
that makes MuPDF loop, recurse until the stack overflows or allocate without end takes the process
with it. The front ends (the GUI, the MCP server, the CLI) call `call_tool_isolated` instead: the call
runs in a worker process (`core.childproc.ChildWorker`, which owns the start method, the memory cap,
the deadline and the kill) that keeps its document cache between calls. A call that outlives its
timeout gets its worker killed and replaced; a worker that dies (a segfault in native code, the
memory limit) is replaced too. Either way the caller gets a coded `pdf_error` result, never an
exception, and the next call gets a fresh worker.
"""

from __future__ import annotations

import atexit
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pdfdesk.core.childproc import (
    DEADLINE,
    GONE,
    OUT_OF_MEMORY,
    ChildFailed,
    ChildWorker,
    Priority,
)
from pdfdesk.core.config import Config
from pdfdesk.core.errors import PDF_ERROR, PdfDeskError
from pdfdesk.tools.contract import ToolResult
from pdfdesk.tools.registry import get_tool

DEFAULT_TIMEOUT_S = 60.0          # per call; a search may wait for the embedding model
DEFAULT_MEMORY_LIMIT_MB = 4096    # address space of a worker (Linux and macOS; ignored elsewhere)
WORKER_NAME = "pdfdesk-tool-worker"


def _tool_handler() -> Callable[[tuple[str, Any]], tuple[Any, Any, bool]]:
    """In the worker: import every tool before the first call is timed; then (tool, args) in,
    (content, details, is_error) out."""
    from pdfdesk.tools.registry import all_tools, call_tool

    all_tools()

    def handle(request: tuple[str, Any]) -> tuple[Any, Any, bool]:
        name, args = request
        result = call_tool(name, args)
        return result.content, result.details, result.is_error

    return handle


@dataclass
class PoolStats:
    calls: int = 0
    timeouts: int = 0
    crashes: int = 0
    restarts: int = 0


class ToolWorkerPool:
    """`size` worker processes shared by threads; each call borrows one for its duration."""

    def __init__(self, size: int = 2, timeout: float = DEFAULT_TIMEOUT_S,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB, startup_timeout: float = 60.0) -> None:
        self.size = max(1, size)
        self.timeout = timeout
        self.memory_limit_mb = memory_limit_mb
        self.startup_timeout = startup_timeout
        self.stats = PoolStats()
        self._idle: queue.LifoQueue[ChildWorker | None] = queue.LifoQueue()
        for _ in range(self.size):
            self._idle.put(None)  # a slot; its worker starts on first use
        self._lock = threading.Lock()
        self._closed = False

    def call(self, name: str, args: Any, timeout: float | None = None, config: Config | None = None,
             overall: bool = False) -> ToolResult:
        """Run tool `name` in a worker; a coded error result when it times out or the worker dies.

        With `overall`, starting a worker counts against `timeout` too: a one-shot caller (the
        CLI) promises an end to the whole call, not only to the part after the worker is up."""
        if self._closed:
            raise RuntimeError("the tool worker pool is closed")
        limit = self.timeout if timeout is None else timeout
        started = time.monotonic()
        worker = self._idle.get()
        try:
            with self._lock:
                self.stats.calls += 1
            retried = False
            while True:
                worker = self._usable(worker, min(self.startup_timeout, limit) if overall else self.startup_timeout)
                left = limit - (time.monotonic() - started) if overall else limit
                if worker is None or left <= 0:
                    with self._lock:
                        self.stats.timeouts += 1
                    return _timeout_result(name, limit, time.monotonic() - started)
                try:
                    content, details, is_error = worker.call((name, args), left, config=config)
                    return ToolResult(content=content, details=details, is_error=is_error)
                except ChildFailed as exc:
                    self._retire(worker)
                    worker = None
                    if exc.reason == GONE and not retried:
                        retried = True  # it died while idle, before the request reached it: once more, fresh
                        continue
                    with self._lock:
                        if exc.reason == DEADLINE:
                            self.stats.timeouts += 1
                        else:
                            self.stats.crashes += 1
                    if exc.reason == DEADLINE and overall:
                        return _timeout_result(name, limit, time.monotonic() - started)
                    return _failure_result(name, exc)
                except PdfDeskError as exc:  # the worker's own machinery failed, not the tool
                    return ToolResult.error(exc)
        finally:
            if self._closed and worker is not None:  # closed while this call ran
                worker.stop()
                worker = None
            self._idle.put(worker)

    def _usable(self, worker: ChildWorker | None, startup_timeout: float) -> ChildWorker | None:
        """`worker` when it is alive, else a freshly started one; None when none was ready within
        `startup_timeout` (a worker that could not start at all is a pdf_error)."""
        if worker is not None and worker.alive():
            return worker
        self._retire(worker)
        worker = ChildWorker(_tool_handler, name=WORKER_NAME, priority=Priority.NORMAL,
                             memory_mb=self.memory_limit_mb)
        worker.start()
        if not worker.wait_ready(startup_timeout):
            still_starting = worker.alive()
            worker.kill()
            if still_starting and startup_timeout < self.startup_timeout:
                return None  # only slow: the caller's deadline ran out first
            raise PdfDeskError(PDF_ERROR, "The PDF worker process did not start.",
                               "Check that pdfdesk is installed correctly; see the log for details.",
                               **({"cause": worker.start_error} if worker.start_error else {}))
        return worker

    def _retire(self, worker: ChildWorker | None) -> None:
        if worker is not None:
            worker.kill()
            with self._lock:
                self.stats.restarts += 1

    def worker_pids(self) -> list[int]:
        """Process ids of the running idle workers (tests and diagnostics)."""
        with self._idle.mutex:
            workers = [w for w in self._idle.queue if w is not None]
        return [pid for pid in (w.pid for w in workers) if pid is not None]

    def close(self) -> None:
        """Stop every worker (idle ones now; busy ones as they are returned). Stopped, not killed:
        a worker that exits by itself releases what it holds outside its own memory (a semaphore
        made by a library it imported), which a killed one leaves behind."""
        self._closed = True
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                break
            if worker is not None:
                worker.stop()


def _failure_result(name: str, exc: ChildFailed) -> ToolResult:
    if exc.reason == DEADLINE:
        return _timeout_result(name, exc.extra["timeout_s"], exc.extra["elapsed_s"])
    if exc.reason == OUT_OF_MEMORY:
        return ToolResult.error(PdfDeskError(
            PDF_ERROR, f"{name} ran out of memory on this document and was stopped; pdfdesk itself is fine.",
            "The file asks for more memory than pdfdesk may use; try fewer pages or a lower dpi.",
            memory_mb=exc.extra.get("memory_mb"), isolated=True,
        ))
    return _crash_result(name, exc.extra.get("exit", exc.message))


def _timeout_result(name: str, limit: float, elapsed: float) -> ToolResult:
    return ToolResult.error(PdfDeskError(
        PDF_ERROR, f"{name} did not finish within {limit:g} s on this document and was stopped.",
        "The file is extremely complex or deliberately hostile. Try fewer pages or a lower dpi, "
        "or open a cleaned copy (e.g. printed to PDF by another program).",
        timeout_s=limit, elapsed_s=round(elapsed, 2), isolated=True,
    ))


def _crash_result(name: str, how: str) -> ToolResult:
    return ToolResult.error(PdfDeskError(
        PDF_ERROR, f"Reading this document crashed the PDF engine during {name} ({how}); pdfdesk itself is fine.",
        "The file is damaged or hostile in a way MuPDF cannot survive. Get a fresh copy of the file.",
        worker_exit=how, isolated=True,
    ))


_default: ToolWorkerPool | None = None
_default_lock = threading.Lock()


def default_pool() -> ToolWorkerPool:
    """The process-wide pool (two workers: one slow document does not block the next call)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = ToolWorkerPool(size=2)
            atexit.register(_default.close)
        return _default


def call_tool_isolated(name: str, args: Any, timeout: float | None = None, overall: bool = False) -> ToolResult:
    """`call_tool` in a killable worker process; never raises, never hangs past `timeout` (plus the
    worker's start-up, unless `overall`: then start-up is inside `timeout`)."""
    try:
        return default_pool().call(name, args, timeout, overall=overall)
    except PdfDeskError as exc:
        return ToolResult.error(exc)


def tool_call_timeout(name: str, config: Config) -> float:
    """The deadline of one call of tool `name`: `tool_timeout_s`, and for a tool that needs a model,
    which may wait on several models in turn, at least three model requests."""
    tool = get_tool(name)
    if tool is not None and tool.needs_model:
        return max(config.tool_timeout_s, config.model_timeout_s * 3)
    return config.tool_timeout_s


def shutdown() -> None:
    """Stop the default pool's workers (front ends call this on exit; atexit does it otherwise)."""
    global _default
    with _default_lock:
        if _default is not None:
            _default.close()
            _default = None
