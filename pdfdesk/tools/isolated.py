"""Run tools in worker processes that can be killed: a hostile PDF cannot hang or crash the caller.

`call_tool` runs MuPDF in the calling process, which is fastest but cannot be interrupted: a file
that makes MuPDF loop, recurse until the stack overflows or allocate without end takes the process
with it. Long-lived front ends (the GUI, the MCP server) call `call_tool_isolated` instead: the call
runs in a worker process (forkserver where available, else spawn) that keeps its document cache
between calls. A call that outlives its timeout gets its worker killed and replaced; a worker that
dies (a segfault in native code, the memory limit) is replaced too. Either way the caller gets a
coded `pdf_error` result, never an exception, and the next call gets a fresh worker.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from pdfdesk.core.config import Config, get_config
from pdfdesk.core.errors import PDF_ERROR, PdfDeskError
from pdfdesk.tools.registry import ToolResult

DEFAULT_TIMEOUT_S = 60.0          # per call; a search may wait for the embedding model
DEFAULT_MEMORY_LIMIT_MB = 4096    # address space of a worker (Linux and macOS; ignored elsewhere)
_START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _limit_memory(megabytes: int | None) -> None:
    if not megabytes:
        return
    try:
        import resource
    except ImportError:  # Windows: no rlimits; the timeout still bounds the call
        return
    limit = megabytes * 1024 * 1024
    for name in ("RLIMIT_AS", "RLIMIT_DATA"):
        kind = getattr(resource, name, None)
        if kind is None:
            continue
        try:
            _soft, hard = resource.getrlimit(kind)
            resource.setrlimit(kind, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
            return
        except (ValueError, OSError):
            continue


def _worker_main(conn: Connection, memory_limit_mb: int | None) -> None:
    """The worker's loop: (tool, args, config, home) in, (content, details, is_error) out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in a terminal is the parent's business
    _limit_memory(memory_limit_mb)
    from pdfdesk.core.config import set_config
    from pdfdesk.tools.registry import all_tools, call_tool

    all_tools()  # import the tools before the first call is timed
    conn.send(("ready", os.getpid()))
    while True:
        try:
            name, args, config, home = conn.recv()
        except (EOFError, OSError):
            return
        if home is not None:
            os.environ["PDFDESK_HOME"] = home
        else:
            os.environ.pop("PDFDESK_HOME", None)
        set_config(config)
        result = call_tool(name, args)
        conn.send((result.content, result.details, result.is_error))


class _Worker:
    def __init__(self, memory_limit_mb: int | None) -> None:
        context = multiprocessing.get_context(_START_METHOD)
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, memory_limit_mb),
                                       name="pdfdesk-tool-worker", daemon=True)
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self, timeout: float) -> bool:
        if not self.ready and self.conn.poll(timeout):
            try:
                self.ready = self.conn.recv()[0] == "ready"
            except (EOFError, OSError):
                return False
        return self.ready

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


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
        self._idle: queue.LifoQueue[_Worker | None] = queue.LifoQueue()
        for _ in range(self.size):
            self._idle.put(None)  # a slot; its worker starts on first use
        self._lock = threading.Lock()
        self._closed = False

    def call(self, name: str, args: Any, timeout: float | None = None, config: Config | None = None) -> ToolResult:
        """Run tool `name` in a worker; a coded error result when it times out or the worker dies."""
        if self._closed:
            raise RuntimeError("the tool worker pool is closed")
        limit = self.timeout if timeout is None else timeout
        payload = (name, args, config or get_config(), os.environ.get("PDFDESK_HOME"))
        worker = self._idle.get()
        try:
            worker = self._usable(worker)
            started = time.monotonic()
            try:
                worker.conn.send(payload)
            except (OSError, ValueError):  # died between the check and the send: start over once
                worker = self._usable(self._retire(worker))
                worker.conn.send(payload)
            with self._lock:
                self.stats.calls += 1
            if not worker.conn.poll(limit):  # still working after the deadline: a hang
                worker = self._retire(worker)
                with self._lock:
                    self.stats.timeouts += 1
                return _timeout_result(name, limit, time.monotonic() - started)
            try:
                content, details, is_error = worker.conn.recv()
                return ToolResult(content=content, details=details, is_error=is_error)
            except (EOFError, OSError):
                pass  # the pipe closed without an answer: the worker died
            worker.process.join(2.0)  # let the exit status arrive (forkserver reports it a moment later)
            code = worker.process.exitcode
            worker = self._retire(worker)
            with self._lock:
                self.stats.crashes += 1
            return _crash_result(name, code)
        finally:
            self._idle.put(worker)

    def _usable(self, worker: _Worker | None) -> _Worker:
        """`worker` when it is alive, else a freshly started one."""
        if worker is not None and worker.process.is_alive():
            return worker
        self._retire(worker)
        worker = _Worker(self.memory_limit_mb)
        if not worker.wait_ready(self.startup_timeout):
            worker.kill()
            raise PdfDeskError(PDF_ERROR, "The PDF worker process did not start.",
                               "Check that pdfdesk is installed correctly; see the log for details.")
        return worker

    def _retire(self, worker: _Worker | None) -> None:
        if worker is not None:
            worker.kill()
            with self._lock:
                self.stats.restarts += 1

    def worker_pids(self) -> list[int]:
        """Process ids of the running idle workers (tests and diagnostics)."""
        with self._idle.mutex:
            return [w.process.pid for w in self._idle.queue if w is not None and w.process.is_alive()]

    def close(self) -> None:
        """Stop every worker (idle ones now; busy ones are killed as they are returned)."""
        self._closed = True
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                break
            if worker is not None:
                worker.kill()


def _timeout_result(name: str, limit: float, elapsed: float) -> ToolResult:
    return ToolResult.error(PdfDeskError(
        PDF_ERROR, f"{name} did not finish within {limit:g} s on this document and was stopped.",
        "The file is extremely complex or deliberately hostile. Try fewer pages or a lower dpi, "
        "or open a cleaned copy (e.g. printed to PDF by another program).",
        timeout_s=limit, elapsed_s=round(elapsed, 2), isolated=True,
    ))


def _crash_result(name: str, exitcode: int | None) -> ToolResult:
    how = (f"signal {-exitcode}" if exitcode is not None and exitcode < 0 else f"exit status {exitcode}")
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


def call_tool_isolated(name: str, args: Any, timeout: float | None = None) -> ToolResult:
    """`call_tool` in a killable worker process; never raises, never hangs past `timeout` (+ start-up)."""
    try:
        return default_pool().call(name, args, timeout)
    except PdfDeskError as exc:
        return ToolResult.error(exc)


def shutdown() -> None:
    """Stop the default pool's workers (front ends call this on exit; atexit does it otherwise)."""
    global _default
    with _default_lock:
        if _default is not None:
            _default.close()
            _default = None
