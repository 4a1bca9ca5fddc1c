"""The long-lived child that answers requests one at a time (tool calls, the viewer's page
renderer), keeping its caches between them; a reply may be followed by raw bytes the parent reads
straight into a buffer of its own.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, Final

from pdfdesk.core.childproc.channel import Overdue, exit_out_of_memory, send_message, wait_for, widen_pipe, write_all
from pdfdesk.core.childproc.failures import (
    GONE, START, ChildFailed, JobCancelled, deadline_error, describe_exit, exit_error, failure_message, rebuild,
)
from pdfdesk.core.childproc.limits import Priority
from pdfdesk.core.childproc.process import Setup, apply_settings, child_context, enter_child, make_setup, reap
from pdfdesk.core.config import Config, get_config

_READY: Final = "ready"


@dataclass(frozen=True)
class RawReply:
    """A worker's reply followed by raw bytes on the pipe, which the parent reads straight into a
    buffer of its own (`ChildWorker.call(..., into=...)`): a page image goes into a QImage's memory
    with no copy in between. `value` is pickled as usual; `data` is any bytes-like object, and
    `owner` whatever must stay alive until it is written (a pixmap whose memory `data` views)."""

    value: Any
    data: Any
    owner: Any = None


class _BufferMismatch(ValueError):
    """`into` gave no buffer of the announced size; the bytes were read and dropped."""


def _worker_main(setup: Setup, factory: Callable[..., Callable[[Any], Any]], args: tuple[Any, ...],
                 requests: Connection, replies: Connection) -> None:
    """A worker's whole life: set up, announce itself, then answer requests until the pipe closes."""
    enter_child(setup)
    try:
        handle = factory(*args)
    except MemoryError:
        exit_out_of_memory(replies)
        return
    except Exception as exc:
        send_message(replies, failure_message(exc))
        return
    replies.send((_READY, os.getpid()))
    while True:
        try:
            settings, request = requests.recv()
        except (EOFError, OSError):
            return  # the parent closed the pipe (or is gone): exit quietly
        if settings is not None:
            apply_settings(*settings)
        try:
            reply = handle(request)
        except MemoryError:
            exit_out_of_memory(replies)
            return
        except Exception as exc:
            send_message(replies, failure_message(exc))
            continue
        if isinstance(reply, RawReply):
            data = memoryview(reply.data).cast("B")
            try:  # pickled first, so an unpicklable value cannot leave a header without its bytes
                header = ForkingPickler.dumps(("raw", reply.value, data.nbytes))
            except Exception as exc:
                send_message(replies, failure_message(exc))
                continue
            replies.send_bytes(header)  # what Connection.send does with a pickle; recv() reads it
            if os.name == "nt":
                replies.send_bytes(data)
            else:
                write_all(replies.fileno(), data)
            del data
        else:
            send_message(replies, ("ok", reply))
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
        context = child_context()
        request_reader, request_writer = context.Pipe(duplex=False)
        reply_reader, reply_writer = context.Pipe(duplex=False)
        setup = make_setup(self.name, self.priority, self.memory_mb)
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
        widen_pipe(reply_reader.fileno())
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
            self.start_error = str(rebuild(self.name, message, self.memory_mb))
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
        """Kill the child now (SIGKILL: for a child that may be busy or stuck), reap it and close
        the pipes. Not while another thread is inside `call` (cancel that call instead)."""
        self._kill_and_reap()

    def stop(self) -> int | None:
        """End an idle child the gentle way and return its exit status: closing the request pipe
        ends its loop, and it exits by itself, running multiprocessing's finalizers. Those unlink
        the named semaphores a library made in the child (tqdm makes one for any progress bar,
        even a disabled one); after a SIGKILL they stay registered with the resource tracker the
        child shares with this process, which then reports them as leaked when this process exits.
        A child that has not exited within REAP_S is killed after all. For shutting down; not while
        another thread is inside `call`."""
        return self._kill_and_reap(kill=False)

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
        return reap(process, kill) if process is not None else None

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
                    raise deadline_error(self.name, deadline_s or 0.0, started)
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
            raise ChildFailed(self.name, GONE, f"{self.name} had stopped ({describe_exit(code)}).",
                              "Start it again; the request did not run.", exit=describe_exit(code)) from None
        self._sent = current
        replies = self._replies
        try:
            wait_for([replies], until, cancel, self.name)
            reply = replies.recv()
            if reply[0] == "raw":
                reply = ("ok", self._read_raw(reply[1], reply[2], into, until, cancel))
        except Overdue:
            self.kill()
            raise deadline_error(self.name, deadline_s or 0.0, started) from None
        except JobCancelled:
            self.kill()
            raise
        except (EOFError, OSError):  # the pipe closed without an answer: the child died
            code = self._kill_and_reap(kill=False)
            raise exit_error(self.name, code, self.memory_mb) from None
        except _BufferMismatch:  # the bytes were read and dropped: the worker is fine
            raise
        except BaseException:  # broke off half-way (the caller's `into` failed?): the pipe is out of step
            self.kill()
            raise
        if reply[0] == "ok":
            return reply[1]
        if reply[0] == "memory":
            self._kill_and_reap(kill=False)
        raise rebuild(self.name, reply, self.memory_mb)

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
            wait_for([replies], until, cancel, self.name)
            replies.recv_bytes_into(target)
        else:
            done = 0
            while done < size:
                wait_for([replies], until, cancel, self.name)
                count = os.readv(replies.fileno(), [target[done:]])
                if count == 0:
                    raise EOFError(f"{self.name} closed the pipe in the middle of a reply")
                done += count
        if mismatch:
            raise _BufferMismatch(f"{self.name} sent {size} bytes; the buffer for them does not take that many")
        return value if into is not None else RawReply(value, buffer)
