"""Index builds in child processes, for the long-lived window.

An in-process build runs Whoosh's pure-Python analysis and MuPDF's text extraction under the
interpreter's one GIL, and in the window that showed as UI stalls of 100 ms and more while a large
document indexed. A child process has an interpreter of its own (on two cores, a core of its own),
a hostile PDF that crashes MuPDF costs only the build, and stopping one is safe: every batch commits
atomically and the build lock dies with its holder, so the next build resumes at the last commit.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from typing import Any

from pdfdesk.core.config import Config, get_config, set_config
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.library import FileProgress, Library

_CONTEXT = multiprocessing.get_context("spawn")  # no fork of a process that runs Qt threads


BUILD_NICENESS = 10  # the window's own threads come first when the cores are busy


def _lower_priority() -> None:
    try:
        os.nice(BUILD_NICENESS)
    except (AttributeError, OSError):  # no nice() on Windows
        pass


def _child(target: Target, config: Config, report: Connection) -> None:
    """The child's whole life: the parent's settings, one build, and its outcome on the pipe."""
    _lower_priority()
    set_config(config)
    try:
        build_index(target, wait=True)
        report.send(None)
    except BaseException as exc:  # everything is reported; the exit code says the rest
        report.send(f"{type(exc).__name__}: {exc}")
    finally:
        report.close()


class BuildProcesses:
    """At most one child build per document; `running` and `error` answer without blocking."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._children: dict[str, tuple[BaseProcess, Connection]] = {}
        self._errors: dict[str, str] = {}

    def start(self, target: Target) -> bool:
        """Start building `target` unless a child is already at it; True when one was started."""
        with self._lock:
            self._collect(target.fingerprint)
            if target.fingerprint in self._children:
                return False
            receive, send = _CONTEXT.Pipe(duplex=False)
            child = _CONTEXT.Process(target=_child, args=(target, get_config(), send),
                                     name=f"pdfdesk-index-{target.fingerprint[:8]}", daemon=True)
            child.start()
            send.close()
            self._errors.pop(target.fingerprint, None)
            self._children[target.fingerprint] = (child, receive)
            return True

    def running(self, fingerprint: str) -> bool:
        with self._lock:
            self._collect(fingerprint)
            return fingerprint in self._children

    def error(self, fingerprint: str) -> str | None:
        """Why the last finished build of this document failed (None: it did not, or still runs)."""
        with self._lock:
            self._collect(fingerprint)
            return self._errors.get(fingerprint)

    def _collect(self, fingerprint: str) -> None:
        """Forget a finished child, keeping its error (called with the lock held)."""
        entry = self._children.get(fingerprint)
        if entry is None or entry[0].is_alive():
            return
        child, receive = self._children.pop(fingerprint)
        message = receive.recv() if receive.poll() else None
        receive.close()
        child.join()
        if message is None and child.exitcode not in (0, None):
            message = f"the indexing process stopped (exit code {child.exitcode})"
        if message:
            self._errors[fingerprint] = message

    def stop_all(self, timeout: float = 2.0) -> None:
        """Stop every child (the window is closing); their committed batches stay usable."""
        with self._lock:
            children = list(self._children.values())
            self._children.clear()
        for child, receive in children:
            child.terminate()
        for child, receive in children:
            child.join(timeout)
            if child.is_alive():
                child.kill()
                child.join(timeout)
            receive.close()


BUILDS = BuildProcesses()

QUEUE_ROUNDS = 3  # documents added while a round runs are picked up by the next round


def _library_child(config: Config, report: Connection, stop: Any) -> None:
    """Work through the library queue, sending progress; `stop` (an Event) ends it between batches."""
    _lower_priority()
    set_config(config)
    library, processed = Library(), 0
    try:
        for _ in range(QUEUE_ROUNDS):
            if stop.is_set() or not library.pending():
                break
            done = library.process(progress=lambda name, pages, total: report.send(("progress", name, pages, total)),
                                   cancel=stop)
            processed += len(done)
            if not done:
                break
        report.send(("done", processed))
    finally:
        report.close()


def process_library_queue(progress: FileProgress | None = None, cancel: threading.Event | None = None) -> int:
    """Index the library's queued documents in a child process, relaying its progress to this
    thread; returns how many documents were processed. Blocks: call it from a worker thread."""
    stop = _CONTEXT.Event()
    receive, send = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=_library_child, args=(get_config(), send, stop),
                             name="pdfdesk-library-queue", daemon=True)
    child.start()
    send.close()
    processed = 0
    try:
        while True:
            if cancel is not None and cancel.is_set():
                stop.set()
            try:
                if not receive.poll(0.1):
                    if not child.is_alive():
                        break
                    continue
                message = receive.recv()
            except (EOFError, OSError):  # the child ended (or died) and its pipe closed
                break
            if message[0] == "progress" and progress is not None:
                progress(*message[1:])
            elif message[0] == "done":
                processed = message[1]
    finally:
        stop.set()
        child.join(5.0)
        if child.is_alive():  # a batch that would not end: killing it is safe (atomic commits)
            child.kill()
            child.join()
        receive.close()
    return processed
