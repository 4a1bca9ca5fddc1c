"""Tell the OCR stage someone is working in the window, so it keeps to one core meanwhile.

Recognition reads as many pages at once as the machine has cores while nobody works, and one page
at a time otherwise. It learns the difference from a file the window touches on user input; that
is at most once every `EVERY_S` seconds, so watching costs nothing noticeable however busy the
input (the filter only compares an event's type and a clock), and the file is touched on the
worker pool (the first touch imports the indexing code, which the UI thread must not wait for).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject

from pdfdesk.gui import workers

EVERY_S = 5.0
_INPUT = frozenset({QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove,
                    QEvent.Type.Wheel, QEvent.Type.TouchBegin})


class ActivityWatch(QObject):
    """An application event filter noting user input for the indexing owner's OCR stage."""

    def __init__(self, parent: QObject | None = None, every_s: float = EVERY_S) -> None:
        super().__init__(parent)
        self.every_s = every_s
        self.noted_at = float("-inf")  # monotonic time of the last note

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _INPUT:
            now = time.monotonic()
            if now - self.noted_at >= self.every_s:
                self.noted_at = now
                workers.submit(_note_activity, on_error=lambda _details: None)
        return False


def _note_activity() -> None:
    from pdfdesk.index.recognition import note_activity

    note_activity()
