"""Hand the documents open in the window to the indexing owner, and report how far each build is.

Opening a document queues it ahead of the library's backlog; the owner builds it in a child
process (a build in this process would compete with the UI thread for the GIL), so search is fast
by the time the user asks, and works meanwhile (unindexed pages are scanned directly). The
fingerprint is computed in a worker (it hashes the file), and progress is read from the index's
`state.json` in a worker too, every `POLL_MS` while a build is under way. After the keyword stage
a document's scanned pages wait for the OCR stage; the poll goes on while they do, reporting which
still wait (the viewer marks them, and reads the words of those done) and how many are read.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from pdfdesk.gui import workers
from pdfdesk.tools.details import ErrorDetails

POLL_MS = 400


@dataclass(frozen=True)
class IndexProgress:
    reference: str
    name: str
    pages_done: int
    pages_total: int
    complete: bool           # pages and sections indexed
    error: str | None = None
    fingerprint: str = ""
    waiting: tuple[int, ...] = ()   # scanned pages (1-based) the OCR stage has still to read
    recognised: int = 0             # scanned pages it has read

    @property
    def fraction(self) -> float:
        return self.pages_done / self.pages_total if self.pages_total else 0.0

    @property
    def recognising(self) -> bool:
        return bool(self.waiting) and not self.error

    @property
    def scanned_total(self) -> int:
        return self.recognised + len(self.waiting)


def start_index(reference: str, password: str | None) -> tuple[str, str]:
    """Worker: resolve the document and hand it to the owner; returns (fingerprint, name)."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.builder import Target
    from pdfdesk.index.owner import default_owner
    from pdfdesk.index.queue import INTERACTIVE

    with open_pdf(reference, password) as opened:
        name = opened.source.name
    # Hashing a large file takes a while: done after the MuPDF lock is released, so the viewer
    # keeps rendering meanwhile (the fingerprint only reads the file's bytes).
    target = Target(opened.source, password, opened.fingerprint)
    owner = default_owner()
    owner.submit(target, INTERACTIVE)
    owner.start()  # the window's owner runs the queue (no-op when it already does)
    return target.fingerprint, name


def read_progress(items: list[tuple[str, str, str]]) -> list[IndexProgress]:
    """Worker: the index state of each (reference, fingerprint, name)."""
    from pdfdesk.index.owner import default_owner
    from pdfdesk.index.store import DocumentIndex

    owner = default_owner()
    found = []
    for reference, fingerprint, name in items:
        state = DocumentIndex(fingerprint).read_state()
        running = owner.current is not None and owner.current[0] == fingerprint
        outcome = owner.outcomes.get(fingerprint)
        error = outcome.message if outcome is not None and outcome.result == "failed" and not running else None
        if state is None:
            found.append(IndexProgress(reference, name, 0, 0, False, error, fingerprint))
        else:
            complete = state.complete or (not running and state.pages_complete)
            skipped = outcome is not None and outcome.result == "no_ocr" and not running
            waiting, recognised = recognition_progress(fingerprint) if complete and not skipped else ((), 0)
            found.append(IndexProgress(reference, name, state.pages_indexed, state.pages_total, complete, error,
                                       fingerprint, waiting, recognised))
    return found


def recognition_progress(fingerprint: str) -> tuple[tuple[int, ...], int]:
    """Worker: (scanned pages still waiting for the OCR stage, pages it has read); nothing waits
    where recognition cannot run. The count is only read while pages wait."""
    from pdfdesk.index.page_text import PageTextStore
    from pdfdesk.index.recognition import awaiting_recognition

    try:
        waiting = tuple(awaiting_recognition(fingerprint))
        return (waiting, PageTextStore().recognised_count(fingerprint)) if waiting else ((), 0)
    except OSError:
        return (), 0


class IndexMonitor(QObject):
    """Tracks the open documents' index builds; emits `progressed` for each poll result."""

    progressed = Signal(object)  # IndexProgress
    fingerprintKnown = Signal(str, str)  # reference, fingerprint

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tracked: dict[str, tuple[str, str]] = {}  # reference -> (fingerprint, name)
        self._finished: set[str] = set()
        self._latest: dict[str, IndexProgress] = {}
        self._polling = False
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def track(self, reference: str, password: str | None = None) -> None:
        """Start indexing `reference` (once) and follow its progress."""
        if reference in self._tracked:
            self._finished.discard(reference)
            self._ensure_timer()
            return

        def known(result: tuple[str, str]) -> None:
            fingerprint, name = result
            self._tracked[reference] = (fingerprint, name)
            self.fingerprintKnown.emit(reference, fingerprint)
            self._ensure_timer()
            self._poll()

        workers.submit(start_index, reference, password, on_done=known, on_error=lambda _d: None, owner=self)

    def untrack(self, reference: str) -> None:
        self._tracked.pop(reference, None)
        self._finished.discard(reference)
        self._latest.pop(reference, None)

    def fingerprint(self, reference: str) -> str | None:
        entry = self._tracked.get(reference)
        return entry[0] if entry else None

    def latest(self, reference: str) -> IndexProgress | None:
        return self._latest.get(reference)

    def _ensure_timer(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    def _poll(self) -> None:
        pending = [(ref, fp, name) for ref, (fp, name) in self._tracked.items() if ref not in self._finished]
        if not pending:
            self._timer.stop()
            return
        if self._polling:
            return
        self._polling = True
        workers.submit(read_progress, pending, on_done=self._deliver, on_error=self._failed, owner=self)

    def _failed(self, _details: ErrorDetails) -> None:
        self._polling = False

    def _deliver(self, results: list[IndexProgress]) -> None:
        self._polling = False
        for progress in results:
            if progress.reference not in self._tracked:
                continue
            self._latest[progress.reference] = progress
            if (progress.complete and not progress.recognising) or progress.error:
                self._finished.add(progress.reference)
            self.progressed.emit(progress)
