"""The one way pdfdesk runs isolated work in a child process: priority, deadline, memory cap, kill.

MuPDF runs on untrusted files. A hostile page can make it loop, recurse until the stack overflows or
allocate without end, and it keeps Python's GIL while it works. Work that must not take the caller
down with it, or hold up the window's UI thread, runs in a child process, in one of two shapes:

* `ChildWorker`: a long-lived request/response process (tool calls, the viewer's page renderer)
  that keeps its caches between requests;
* `run_job`: a one-shot child (an index build) that streams messages back and returns a value.

Both share what every child needs, so no caller writes it again:

* a priority (`Priority`): background work yields the CPU and the disk to the window;
* a memory cap where the OS has one (RLIMIT_AS, else RLIMIT_DATA; Windows has none without a
  job object, and there the deadline still bounds the work);
* a deadline, after which the child is killed; a caller's cancel event, which kills it too;
* one coded outcome when the child fails: `ChildFailed` (a `PdfDeskError`, code pdf_error,
  reason deadline / crash / memory / start / gone), and `JobCancelled` when the caller cancelled;
* the parent's settings in the child: `get_config()`, its environment (PDFDESK_HOME above all)
  and working folder; SIGINT ignored (Ctrl+C in a terminal is the parent's to handle).

A child whose parent dies notices at its next read or write on the pipe (an idle worker at once, a
job at its next `send`) and exits; the children of a parent that exits normally are killed by
multiprocessing (they are daemons). Children start no thread of their own to watch the parent:
under RLIMIT_AS a thread costs glibc a 64 MB malloc arena of address space, a quarter of a small cap.

Start method: forkserver where the platform has it, else spawn; never fork, since the window's
process runs Qt threads and a forked copy of a multi-threaded process can deadlock on any lock a
thread held at the fork. Forkserver children start in milliseconds (a fork of a small server
process that never ran Qt) but inherit that server's environment as it was when it started, which
is why the environment and working folder are sent along. A frozen (PyInstaller) bundle starts
the fork server and spawn children by re-running its own executable; its entry point calls
`multiprocessing.freeze_support()`, which PyInstaller's runtime hook extends to catch both.
"""

from __future__ import annotations

import ctypes
import enum
import multiprocessing
import os
import platform
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, Final

from pdfdesk.core.config import Config, get_config, set_config
from pdfdesk.core.errors import PDF_ERROR, PdfDeskError

START_METHOD: Final = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"

# ChildFailed.reason values
DEADLINE: Final = "deadline"   # overran its deadline and was killed
CRASH: Final = "crash"         # died on its own: a signal (segfault, abort) or an unexpected exit
OUT_OF_MEMORY: Final = "memory"  # hit its memory cap (or Python's MemoryError)
START: Final = "start"         # could not be started, or its set-up failed
GONE: Final = "gone"           # a worker had already died before the request reached it: nothing ran

_EXIT_OUT_OF_MEMORY: Final = 86  # a child's exit status after a MemoryError (no Python program exits so by itself)
_EXIT_ORPHANED: Final = 87       # the parent died: a job stops rather than work for nobody
_CANCEL_POLL_S: Final = 0.05     # how often a wait checks the caller's cancel event
_REAP_S: Final = 2.0             # how long a dead child gets to report its exit status (forkserver: a moment later)
_JOB_EXIT_S: Final = 2.0         # a job that returned gets this long to exit before it is killed
_READY: Final = "ready"


class Priority(enum.Enum):
    """How much of the machine a child may take from the window."""

    NORMAL = "normal"          # as the parent: a tool call someone is waiting for
    BACKGROUND = "background"  # nice 10 and the lowest best-effort I/O level: the viewer's renders, keyword indexing
    IDLE = "idle"              # nice 19 and the idle I/O class: only when nothing else wants the CPU or the disk


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


@dataclass(frozen=True)
class RawReply:
    """A worker's reply followed by raw bytes on the pipe, which the parent reads straight into a
    buffer of its own (`ChildWorker.call(..., into=...)`): a page image goes into a QImage's memory
    with no copy in between. `value` is pickled as usual; `data` is any bytes-like object, and
    `owner` whatever must stay alive until it is written (a pixmap whose memory `data` views)."""

    value: Any
    data: Any
    owner: Any = None


# --- priority -------------------------------------------------------------------------------------------
_NICENESS: Final = {Priority.BACKGROUND: 10, Priority.IDLE: 19}

# Linux I/O priority (linux/ioprio.h): class << 13 | level; best-effort levels run 0 (high) to 7 (low)
_IOPRIO_CLASS_SHIFT: Final = 13
_IOPRIO_CLASS_BE: Final = 2
_IOPRIO_CLASS_IDLE: Final = 3
_IOPRIO_WHO_PROCESS: Final = 1
_IOPRIO_SYSCALLS: Final = {  # machine -> (ioprio_set, ioprio_get); glibc has no wrapper for them
    "x86_64": (251, 252), "amd64": (251, 252), "i386": (289, 290), "i686": (289, 290),
    "aarch64": (30, 31), "arm64": (30, 31), "riscv64": (30, 31), "loongarch64": (30, 31),
    "armv7l": (314, 315), "armv6l": (314, 315), "ppc64le": (273, 274), "ppc64": (273, 274), "s390x": (282, 283),
}


def lower_priority(priority: Priority) -> None:
    """Lower the calling process's CPU and I/O priority to `priority` (never raises it: NORMAL keeps
    what it has). Call it in the main thread before starting others: Linux keeps the nice value per
    thread and new threads inherit it. Anything the platform refuses or lacks is skipped silently:
    a lower priority is a courtesy, never a reason to fail the work."""
    if priority is Priority.NORMAL:
        return
    if os.name == "nt":
        _lower_windows_priority(priority)
        return
    try:
        target = _NICENESS[priority]
        if os.getpriority(os.PRIO_PROCESS, 0) < target:
            os.setpriority(os.PRIO_PROCESS, 0, target)
    except (AttributeError, OSError):
        pass
    if sys.platform.startswith("linux"):
        level = (_IOPRIO_CLASS_IDLE << _IOPRIO_CLASS_SHIFT) if priority is Priority.IDLE \
            else (_IOPRIO_CLASS_BE << _IOPRIO_CLASS_SHIFT) | 7
        _ioprio_syscall(0, level)
    elif sys.platform == "darwin":
        _lower_macos_io(priority)


def io_priority() -> tuple[int, int] | None:
    """The calling thread's Linux I/O priority as (class, level) — class 1 realtime, 2 best-effort,
    3 idle; 0 means "none set", which the kernel derives from the nice value — or None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    value = _ioprio_syscall(1, None)
    if value is None or value < 0:
        return None
    return value >> _IOPRIO_CLASS_SHIFT, value & ((1 << _IOPRIO_CLASS_SHIFT) - 1)


def _ioprio_syscall(which: int, level: int | None) -> int | None:
    """ioprio_set (which=0, level) or ioprio_get (which=1) on the calling thread; None when the
    machine's syscall number is unknown or libc cannot be loaded."""
    numbers = _IOPRIO_SYSCALLS.get(platform.machine().lower())
    if numbers is None:
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        args = (_IOPRIO_WHO_PROCESS, 0) if level is None else (_IOPRIO_WHO_PROCESS, 0, level)
        return int(libc.syscall(ctypes.c_long(numbers[which]), *(ctypes.c_int(a) for a in args)))
    except (OSError, AttributeError):
        return None


def _lower_windows_priority(priority: Priority) -> None:
    """Windows: the below-normal priority class for BACKGROUND; for IDLE the idle class plus
    background mode, which also lowers the process's I/O and memory priority."""
    try:
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
        kernel32.GetCurrentProcess.restype = ctypes.c_void_p
        kernel32.SetPriorityClass.argtypes = (ctypes.c_void_p, ctypes.c_uint32)
        process = kernel32.GetCurrentProcess()
        if priority is Priority.BACKGROUND:
            kernel32.SetPriorityClass(process, 0x00004000)  # BELOW_NORMAL_PRIORITY_CLASS
        else:
            kernel32.SetPriorityClass(process, 0x00000040)  # IDLE_PRIORITY_CLASS
            kernel32.SetPriorityClass(process, 0x00100000)  # PROCESS_MODE_BACKGROUND_BEGIN
    except (AttributeError, OSError):
        pass


def _lower_macos_io(priority: Priority) -> None:
    """macOS: setiopolicy_np(IOPOL_TYPE_DISK, IOPOL_SCOPE_PROCESS, UTILITY or THROTTLE)."""
    try:
        libc = ctypes.CDLL(None)
        libc.setiopolicy_np(0, 0, 3 if priority is Priority.IDLE else 4)
    except (OSError, AttributeError):
        pass


# --- memory cap -----------------------------------------------------------------------------------------
def limit_memory(megabytes: int | None) -> None:
    """Cap the calling process's memory at `megabytes` (None or 0: no cap): an allocation past it
    fails (MemoryError in Python, a failed malloc in MuPDF) instead of swapping the machine to a
    halt. RLIMIT_AS where the OS enforces it (Linux), else RLIMIT_DATA (macOS refuses AS); nothing
    on Windows, where the deadline still bounds the work."""
    if not megabytes:
        return
    try:
        import resource
    except ImportError:
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


# --- what every child starts with ---------------------------------------------------------------------
@dataclass(frozen=True)
class _Setup:
    """What the child takes over from its parent at start."""

    name: str
    priority: Priority
    memory_mb: int | None
    config: Config
    environ: dict[str, str]
    cwd: str | None


def _setup(name: str, priority: Priority, memory_mb: int | None) -> _Setup:
    try:
        cwd: str | None = os.getcwd()
    except OSError:  # the folder was deleted under us: the child keeps its own
        cwd = None
    return _Setup(name, priority, memory_mb, get_config(), dict(os.environ), cwd)


def _enter_child(setup: _Setup) -> None:
    """First thing in every child: signals, priority, memory cap, the parent's settings."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority(setup.priority)
    limit_memory(setup.memory_mb)
    os.environ.clear()
    os.environ.update(setup.environ)
    if setup.cwd is not None:
        try:
            os.chdir(setup.cwd)
        except OSError:
            pass
    set_config(setup.config)


def _apply_settings(config: Config, home: str | None) -> None:
    """A worker's settings as of the request it is about to serve."""
    if home is None:
        os.environ.pop("PDFDESK_HOME", None)
    else:
        os.environ["PDFDESK_HOME"] = home
    set_config(config)


def _failure(exc: BaseException) -> tuple[Any, ...]:
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


def _send(conn: Connection, message: tuple[Any, ...]) -> None:
    """Send `message`; one that cannot be pickled becomes an error naming why (the pipe stays in
    step: Connection.send pickles the whole message before writing any of it)."""
    try:
        conn.send(message)
    except OSError:
        raise
    except Exception as exc:
        conn.send(("exception", type(exc).__name__, f"the answer could not be sent back: {exc}"))


def _out_of_memory(conn: Connection) -> None:
    """After a MemoryError: tell the parent if the pipe still works, then exit; a process that ran out
    of memory may be half-way through changing any of its state and is not trusted with more work."""
    try:
        conn.send(("memory",))
    except BaseException:  # even pickling may fail now; the exit status says it too
        pass
    os._exit(_EXIT_OUT_OF_MEMORY)


# --- waiting, with deadline and cancel ------------------------------------------------------------------
class _BufferMismatch(ValueError):
    """`into` gave no buffer of the announced size; the bytes were read and dropped."""


class _Overdue(Exception):
    """The deadline passed while waiting (internal: callers turn it into ChildFailed)."""


def _await(objects: list[Any], until: float | None, cancel: threading.Event | None, name: str) -> list[Any]:
    """Those of `objects` (connections, process sentinels) ready to read. Raises _Overdue once the
    monotonic time `until` passes and JobCancelled once `cancel` is set (looked at every 50 ms)."""
    while True:
        if cancel is not None and cancel.is_set():
            raise JobCancelled(f"{name} was cancelled.")
        step: float | None = None
        if until is not None:
            step = until - time.monotonic()
            if step <= 0:
                raise _Overdue()
        if cancel is not None:
            step = _CANCEL_POLL_S if step is None else min(step, _CANCEL_POLL_S)
        ready = wait(objects, step)
        if ready:
            return ready


def _reap(process: BaseProcess, kill: bool) -> int | None:
    """End `process` (SIGKILL when `kill` or when it does not exit by itself within _REAP_S) and
    collect its exit status, so no zombie and no open sentinel is left. Returns the status."""
    if kill and process.exitcode is None:
        process.kill()
    process.join(_REAP_S)
    if process.exitcode is None:
        process.kill()
        process.join()
    code = process.exitcode
    try:
        process.close()  # its sentinel descriptor, now rather than at garbage collection
    except ValueError:
        pass
    return code


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        return f"signal {-code}"
    if os.name == "nt" and code >= 0xC0000000:  # an NTSTATUS such as 0xC0000005, access violation
        return f"exception 0x{code:08X}"
    return f"exit status {code}"


def _deadline_error(name: str, limit: float, started: float) -> ChildFailed:
    return ChildFailed(name, DEADLINE, f"{name} was stopped after {limit:g} s: it did not finish in time.",
                       "The document may be extremely complex or deliberately hostile; try a smaller part of it.",
                       timeout_s=limit, elapsed_s=round(time.monotonic() - started, 2))


def _memory_error(name: str, memory_mb: int | None) -> ChildFailed:
    limit = f" (its limit is {memory_mb} MB)" if memory_mb else ""
    return ChildFailed(name, OUT_OF_MEMORY, f"{name} ran out of memory{limit} and was stopped.",
                       "The document asks for more memory than pdfdesk gives one job; try fewer pages "
                       "or a lower resolution.", memory_mb=memory_mb)


def _exit_error(name: str, code: int | None, memory_mb: int | None) -> ChildFailed:
    """The child ended without an answer: what its exit status says happened."""
    if code == _EXIT_OUT_OF_MEMORY:
        return _memory_error(name, memory_mb)
    how = _describe_exit(code)
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


def _rebuild(name: str, message: tuple[Any, ...], memory_mb: int | None) -> PdfDeskError:
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


# --- the long-lived worker ------------------------------------------------------------------------------
def _worker_main(setup: _Setup, factory: Callable[..., Callable[[Any], Any]], args: tuple[Any, ...],
                 requests: Connection, replies: Connection) -> None:
    """A worker's whole life: set up, announce itself, then answer requests until the pipe closes."""
    _enter_child(setup)
    try:
        handle = factory(*args)
    except MemoryError:
        _out_of_memory(replies)
        return
    except Exception as exc:
        _send(replies, _failure(exc))
        return
    replies.send((_READY, os.getpid()))
    while True:
        try:
            settings, request = requests.recv()
        except (EOFError, OSError):
            return  # the parent closed the pipe (or is gone): exit quietly
        if settings is not None:
            _apply_settings(*settings)
        try:
            reply = handle(request)
        except MemoryError:
            _out_of_memory(replies)
            return
        except Exception as exc:
            _send(replies, _failure(exc))
            continue
        if isinstance(reply, RawReply):
            data = memoryview(reply.data).cast("B")
            try:  # pickled first, so an unpicklable value cannot leave a header without its bytes
                header = ForkingPickler.dumps(("raw", reply.value, data.nbytes))
            except Exception as exc:
                _send(replies, _failure(exc))
                continue
            replies.send_bytes(header)  # what Connection.send does with a pickle; recv() reads it
            if os.name == "nt":
                replies.send_bytes(data)
            else:
                _write_all(replies.fileno(), data)
            del data
        else:
            _send(replies, ("ok", reply))
        del reply


class ChildWorker:
    """A long-lived child that answers requests: `factory(*args)` runs once in the child (imports,
    warm caches) and returns the handler that turns each request into a reply.

    `call` serves one request at a time: callers that share a worker serialise their calls
    (ToolWorkerPool lends each worker to one thread at a time). `alive()` and `pid` may be asked from
    any thread. After a deadline, a crash or a cancel the worker is dead (killed and reaped); `start()`
    brings up a fresh one. An exception the handler raises is re-raised in the caller (a PdfDeskError
    with its own code, anything else as pdf_error naming its type), and the worker carries on.
    `factory` must be a module-level function (it is pickled by name).
    """

    def __init__(self, factory: Callable[..., Callable[[Any], Any]], args: tuple[Any, ...] = (), *, name: str,
                 priority: Priority = Priority.NORMAL, memory_mb: int | None = None) -> None:
        self.factory = factory
        self.args = args
        self.name = name
        self.priority = priority
        self.memory_mb = memory_mb
        self.start_error: str | None = None  # why the last start failed, when the child said
        self._state = threading.Lock()  # guards _process against alive()/pid from other threads
        self._process: BaseProcess | None = None
        self._requests: Connection | None = None
        self._replies: Connection | None = None
        self._ready = False
        self._sent: tuple[Config, str | None] | None = None  # settings the child has

    # --- lifecycle ------------------------------------------------------------------------------------
    def start(self) -> None:
        """Launch the child unless it is running; returns once it exists, not once it is ready
        (`wait_ready`). The first start of a process also starts multiprocessing's fork server
        (tens of ms): a UI thread starts workers from a helper thread. Where no process can be
        started at all (a sandbox, an embedding script without a `__main__` guard) multiprocessing's
        OSError or RuntimeError comes through as it is: callers fall back to working in-process."""
        if self.alive():
            return
        self.kill()
        context = multiprocessing.get_context(START_METHOD)
        request_reader, request_writer = context.Pipe(duplex=False)
        reply_reader, reply_writer = context.Pipe(duplex=False)
        setup = _setup(self.name, self.priority, self.memory_mb)
        process = context.Process(target=_worker_main, name=self.name, daemon=True,
                                  args=(setup, self.factory, self.args, request_reader, reply_writer))
        try:
            process.start()
        except BaseException:
            for conn in (request_writer, reply_reader):
                conn.close()
            raise
        finally:  # the child has its own copies now (or never will)
            request_reader.close()
            reply_writer.close()
        _widen_pipe(reply_reader.fileno())
        with self._state:
            self._process = process
        self._requests, self._replies = request_writer, reply_reader
        self._ready = False
        self.start_error = None
        self._sent = (setup.config, setup.environ.get("PDFDESK_HOME"))

    def wait_ready(self, timeout: float | None = None) -> bool:
        """True once the child has set itself up (waits up to `timeout` s; 0 only looks). False when
        it is not ready yet, or failed (then it has been reaped and `start_error` may say why)."""
        if self._ready:
            return True
        if self._replies is None:
            return False
        try:
            if not self._replies.poll(timeout):
                return False
            message = self._replies.recv()
        except (EOFError, OSError):
            message = None
        if isinstance(message, tuple) and message[:1] == (_READY,):
            self._ready = True
            return True
        if isinstance(message, tuple):
            self.start_error = str(_rebuild(self.name, message, self.memory_mb))
        self.kill()
        return False

    def alive(self) -> bool:
        with self._state:
            return self._process is not None and self._process.exitcode is None

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        with self._state:
            if self._process is None or self._process.exitcode is not None:
                return None
            return self._process.pid

    def kill(self) -> None:
        """Kill the child now (SIGKILL: it holds nothing that needs a clean exit), reap it and close
        the pipes. Not while another thread is inside `call` (cancel that call instead)."""
        self._kill_and_reap()

    def _kill_and_reap(self, kill: bool = True) -> int | None:
        for conn in (self._requests, self._replies):
            if conn is not None:
                try:
                    conn.close()
                except OSError:
                    pass
        self._requests = self._replies = None
        self._ready = False
        with self._state:
            process, self._process = self._process, None
        return _reap(process, kill) if process is not None else None

    # --- requests -------------------------------------------------------------------------------------
    def call(self, request: Any, deadline_s: float | None = None, *, config: Config | None = None,
             cancel: threading.Event | None = None, into: Callable[[Any], Any] | None = None) -> Any:
        """Send `request` (picklable) and return the handler's reply, with the caller's settings
        (`config`, default get_config(), and PDFDESK_HOME) in force in the child.

        A RawReply's bytes are read into `into(value)` — a writable buffer of exactly that many
        bytes, else ValueError once they have been read and dropped — and `value` is returned;
        without `into` the caller gets RawReply(value, bytearray).
        Raises ChildFailed when the child overruns `deadline_s` (counted from this call, including a
        start-up not yet waited for), dies, runs out of memory or fails to set itself up — the worker
        is then dead — and JobCancelled when `cancel` is set (the child is killed). A worker not yet
        started is started first (see `start` for what that may raise)."""
        started = time.monotonic()
        until = None if deadline_s is None else started + deadline_s
        if not self._ready:
            self.start()
            if not self.wait_ready(None if until is None else max(0.0, until - time.monotonic())):
                if self.alive():  # still setting itself up at the deadline
                    self.kill()
                    raise _deadline_error(self.name, deadline_s or 0.0, started)
                raise ChildFailed(self.name, START, f"{self.name} did not start"
                                  + (f": {self.start_error}" if self.start_error else "."),
                                  "Check that pdfdesk is installed correctly; see the log for details.")
        assert self._requests is not None and self._replies is not None
        current = (config or get_config(), os.environ.get("PDFDESK_HOME"))
        settings = None if self._sent is not None and self._sent[0] is current[0] and self._sent[1] == current[1] \
            else current
        message = ForkingPickler.dumps((settings, request))  # an unpicklable request raises here, harmlessly
        try:
            self._requests.send_bytes(message)
        except OSError:  # it died before the request got to it: nothing ran
            code = self._kill_and_reap(kill=False)
            raise ChildFailed(self.name, GONE, f"{self.name} had stopped ({_describe_exit(code)}).",
                              "Start it again; the request did not run.", exit=_describe_exit(code)) from None
        self._sent = current
        replies = self._replies
        try:
            _await([replies], until, cancel, self.name)
            reply = replies.recv()
            if reply[0] == "raw":
                reply = ("ok", self._read_raw(reply[1], reply[2], into, until, cancel))
        except _Overdue:
            self.kill()
            raise _deadline_error(self.name, deadline_s or 0.0, started) from None
        except JobCancelled:
            self.kill()
            raise
        except (EOFError, OSError):  # the pipe closed without an answer: the child died
            code = self._kill_and_reap(kill=False)
            raise _exit_error(self.name, code, self.memory_mb) from None
        except _BufferMismatch:  # the bytes were read and dropped: the worker is fine
            raise
        except BaseException:  # broke off half-way (the caller's `into` failed?): the pipe is out of step
            self.kill()
            raise
        if reply[0] == "ok":
            return reply[1]
        if reply[0] == "memory":
            self._kill_and_reap(kill=False)
        raise _rebuild(self.name, reply, self.memory_mb)

    def _read_raw(self, value: Any, size: int, into: Callable[[Any], Any] | None, until: float | None,
                  cancel: threading.Event | None) -> Any:
        """The bytes that follow a RawReply, into the caller's buffer (with the GIL released while
        the kernel copies: os.readv straight into the target)."""
        replies = self._replies
        assert replies is not None
        buffer = into(value) if into is not None else bytearray(size)
        target = memoryview(buffer).cast("B") if buffer is not None else None
        if target is None or target.nbytes != size or target.readonly:
            target = memoryview(bytearray(size))  # read and drop it, so the pipe stays in step
            mismatch = True
        else:
            mismatch = False
        if os.name == "nt":
            _await([replies], until, cancel, self.name)
            replies.recv_bytes_into(target)
        else:
            done = 0
            while done < size:
                _await([replies], until, cancel, self.name)
                count = os.readv(replies.fileno(), [target[done:]])
                if count == 0:
                    raise EOFError(f"{self.name} closed the pipe in the middle of a reply")
                done += count
        if mismatch:
            raise _BufferMismatch(f"{self.name} sent {size} bytes; the buffer for them does not take that many")
        return value if into is not None else RawReply(value, buffer)


def _write_all(fd: int, data: memoryview) -> None:
    done, size = 0, data.nbytes
    while done < size:
        done += os.write(fd, data[done:])


F_SETPIPE_SZ: Final = 1031  # Linux fcntl


def _widen_pipe(fd: int) -> None:
    """Linux: a reply pipe of 1 MiB moves a page image in a few reads, not dozens."""
    try:
        import fcntl

        fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)
    except (ImportError, OSError):  # not Linux, a socket, or above /proc/sys/fs/pipe-max-size
        pass


# --- the one-shot job -----------------------------------------------------------------------------------
def _job_main(setup: _Setup, func: Callable[..., Any], args: tuple[Any, ...], messages: Connection) -> None:
    """A job's whole life in the child: set up, run `func(send, *args)`, send back how it ended."""
    _enter_child(setup)
    lock = threading.Lock()  # `send` may be called from the job's own threads

    def send(message: Any) -> None:
        try:
            with lock:
                messages.send(("message", message))
        except BrokenPipeError:  # the parent is gone (it died): nobody wants the rest
            os._exit(_EXIT_ORPHANED)

    try:
        result = func(send, *args)
    except MemoryError:
        _out_of_memory(messages)
        return
    except Exception as exc:
        with lock:
            _send(messages, _failure(exc))
        return
    with lock:
        _send(messages, ("result", result))
        messages.close()


def run_job(func: Callable[..., Any], args: tuple[Any, ...] = (), *, name: str,
            priority: Priority = Priority.BACKGROUND, deadline_s: float | None = None, memory_mb: int | None = None,
            cancel: threading.Event | None = None, on_message: Callable[[Any], None] | None = None) -> Any:
    """Run `func(send, *args)` in a fresh child process and return what it returns.

    `func` must be a module-level function, and `args` and its result picklable. In the child,
    `send(message)` streams a picklable message to the parent, where `on_message(message)` gets it
    in this (the calling) thread, in order. Blocks until the job ends: call it from a worker thread.

    Raises, after the child has been killed (where needed) and reaped, with its pipe closed:
    * ChildFailed (pdf_error) when it overruns `deadline_s`, crashes, or passes `memory_mb`;
    * JobCancelled as soon as `cancel` is set (checked every 50 ms);
    * the job's own PdfDeskError, code and all, when `func` raised one; any other exception from
      `func` as a pdf_error naming its type; an exception from `on_message`, as it is.
    """
    context = multiprocessing.get_context(START_METHOD)
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_job_main, args=(_setup(name, priority, memory_mb), func, args, sender),
                              name=name, daemon=True)
    started = time.monotonic()
    until = None if deadline_s is None else started + deadline_s
    try:
        process.start()
    except (OSError, RuntimeError, ValueError) as exc:
        receiver.close()
        raise ChildFailed(name, START, f"{name} could not start: {exc}.",
                          "Check that pdfdesk is installed correctly.") from exc
    finally:
        sender.close()
    ended = reaped = False  # ended: the child finished its work and said so, it may exit by itself
    try:
        while True:
            try:
                ready = _await([receiver, process.sentinel], until, cancel, name)
            except _Overdue:
                raise _deadline_error(name, deadline_s or 0.0, started) from None
            if receiver not in ready and not receiver.poll(0):
                break  # it exited (or died) with nothing more to say
            try:
                message = receiver.recv()
            except (EOFError, OSError):
                break
            if message[0] == "message":
                if on_message is not None:
                    on_message(message[1])
                continue
            ended = True
            if message[0] == "result":
                return message[1]
            raise _rebuild(name, message, memory_mb)
        code, reaped = _reap(process, kill=False), True
        raise _exit_error(name, code, memory_mb)
    finally:
        receiver.close()
        if not reaped:
            # A job that said how it ended gets _JOB_EXIT_S to exit by itself (interpreter shutdown);
            # any other (deadline, cancel, a failing on_message) is killed at once.
            if ended:
                process.join(_JOB_EXIT_S)
            _reap(process, kill=True)
