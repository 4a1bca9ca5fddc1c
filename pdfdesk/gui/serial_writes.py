"""Writes run off the UI thread one at a time, in the order they were asked for.

An undo must never overtake the edit it undoes, and two edits of one note must reach the store in
the order the user made them, so a write starts only once the one before it has answered.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject

from pdfdesk.gui import workers
from pdfdesk.tools.details import ErrorDetails


class SerialWrites:
    """A queue of (work, done): `work` runs on the worker pool, `done(result)` on the UI thread,
    then the next write starts; a write that fails goes to `failed` and the queue goes on."""

    def __init__(self, owner: QObject, failed: Callable[[ErrorDetails], None]) -> None:
        self._owner = owner  # the callbacks are dropped once it is gone
        self._failed = failed
        self._queue: deque[tuple[Callable[[], Any], Callable[[Any], None]]] = deque()
        self._writing = False

    def add(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        self._queue.append((work, done))
        self._next()

    @property
    def busy(self) -> bool:
        """Whether a write is under way or waiting."""
        return self._writing or bool(self._queue)

    def _next(self) -> None:
        if self._writing or not self._queue:
            return
        work, done = self._queue.popleft()
        self._writing = True

        def finish(result: Any) -> None:
            self._writing = False
            try:
                done(result)
            finally:
                self._next()

        def failed(details: ErrorDetails) -> None:
            self._writing = False
            self._failed(details)
            self._next()

        workers.submit(work, owner=self._owner, on_done=finish, on_error=failed)
