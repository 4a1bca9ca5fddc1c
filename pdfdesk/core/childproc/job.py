"""The one-shot child (an index build): runs one function, streams its messages back to the
caller as they come, and returns its value.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Final

from pdfdesk.core.childproc.channel import Overdue, exit_out_of_memory, send_message, wait_for
from pdfdesk.core.childproc.failures import START, ChildFailed, deadline_error, exit_error, failure_message, rebuild
from pdfdesk.core.childproc.limits import Priority
from pdfdesk.core.childproc.process import Setup, child_context, enter_child, make_setup, reap

_EXIT_ORPHANED: Final = 87  # the parent died: a job stops rather than work for nobody
_JOB_EXIT_S: Final = 2.0     # a job that returned gets this long to exit before it is killed


def _job_main(setup: Setup, func: Callable[..., Any], args: tuple[Any, ...], messages: Connection) -> None:
    """A job's whole life in the child: set up, run `func(send, *args)`, send back how it ended."""
    enter_child(setup)
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
        exit_out_of_memory(messages)
        return
    except Exception as exc:
        with lock:
            send_message(messages, failure_message(exc))
        return
    with lock:
        send_message(messages, ("result", result))
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
    context = child_context()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_job_main, args=(make_setup(name, priority, memory_mb), func, args, sender),
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
                ready = wait_for([receiver, process.sentinel], until, cancel, name)
            except Overdue:
                raise deadline_error(name, deadline_s or 0.0, started) from None
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
            raise rebuild(name, message, memory_mb)
        code, reaped = reap(process, kill=False), True
        raise exit_error(name, code, memory_mb)
    finally:
        receiver.close()
        if not reaped:
            # A job that said how it ended gets _JOB_EXIT_S to exit by itself (interpreter shutdown);
            # any other (deadline, cancel, a failing on_message) is killed at once.
            if ended:
                process.join(_JOB_EXIT_S)
            reap(process, kill=True)
