"""The tables on a viewer's pages: fetched lazily through the `pdf_tables` tool, cached, hit-tested.

A page's tables are asked for when the page has been on screen for a moment (a page flung past
costs nothing), one `pdf_tables` call per page in the tool worker processes, never on the UI
thread, at most MAX_IN_FLIGHT at a time so a search or the chat is never queued behind a scroll.
Answers are kept per document version (path and file identity) and page, shared by every view of
that version, so a second tab or a reopened file asks again for nothing. An answer for a document
that was closed or replaced meanwhile is dropped by its generation. A scanned page still waiting
for recognition is asked again once indexing reports news about the scans.

Records are the tool's `table_record` dicts: boxes in unrotated page points, origin top-left.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from pdfdesk.core.errors import INTERNAL_ERROR, INVALID_PAGE, PDF_ERROR, PdfDeskError
from pdfdesk.core.lru import LRU
from pdfdesk.tools.contract import ToolResult

Record = dict[str, Any]
Box = tuple[float, float, float, float]
Runner = Callable[[str, dict[str, Any]], ToolResult]
Version = tuple[Any, ...]

MAX_IN_FLIGHT = 2         # pages asked for at once (the tool workers are shared with search and chat)
SETTLE_MS = 200           # a page must stay on screen this long before its tables are asked for
SHARED_PAGES = 400        # pages whose answers are kept across views
MAX_JOIN_PAGES = 24       # how far a continued table is followed for a copy
# errors of one page (damaged, or a worker that timed out); any other code is about the file
# itself (gone, locked, refused), and every other page would fail the same way: asking stops
PAGE_ERRORS = {PDF_ERROR, INVALID_PAGE, INTERNAL_ERROR}


@dataclass
class PageAnswer:
    tables: list[Record] = field(default_factory=list)
    news: int | None = None  # the page waited for OCR when asked: indexing's news about scans by then
    error: str | None = None


_shared: LRU[tuple[Version, int], PageAnswer] = LRU(SHARED_PAGES)


def default_runner(name: str, args: dict[str, Any]) -> ToolResult:
    from pdfdesk.gui.tool_calls import call_tool_in_worker

    return call_tool_in_worker(name, args)


# --- geometry (pure) -----------------------------------------------------------------------------
def boxes_on(record: Mapping[str, Any], page: int) -> list[Box]:
    """The boxes of `record`'s parts on `page` (1-based): one, or none when it stands elsewhere."""
    parts = record.get("parts") or [{"page": record.get("page"), "bbox": record.get("bbox")}]
    found = []
    for part in parts:
        box = part.get("bbox")
        if part.get("page") == page and isinstance(box, list | tuple) and len(box) == 4:
            found.append((float(box[0]), float(box[1]), float(box[2]), float(box[3])))
    return found


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _overlap(a: Box, b: Box) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def table_at(records: Iterable[Record], page: int, x: float, y: float) -> Record | None:
    """The table whose box on `page` holds the unrotated point (x, y); the smallest when boxes nest."""
    best: tuple[float, Record] | None = None
    for record in records:
        for x0, y0, x1, y1 in boxes_on(record, page):
            if x0 <= x <= x1 and y0 <= y <= y1:
                size = _area((x0, y0, x1, y1))
                if best is None or size < best[0]:
                    best = (size, record)
    return best[1] if best is not None else None


def best_match(records: Iterable[Record], page: int, box: Box) -> Record | None:
    """Of `records`, the one whose part on `page` matches `box` best (intersection over union: a
    box around a nested table matches it, not the one around both); None when none overlaps."""
    best: tuple[float, Record] | None = None
    for record in records:
        for part in boxes_on(record, page):
            shared = _overlap(part, box)
            score = shared / (_area(part) + _area(box) - shared) if shared > 0 else 0.0
            if score > 0 and (best is None or score > best[0]):
                best = (score, record)
    return best[1] if best is not None else None


# --- calls run off the UI thread ----------------------------------------------------------------
def _details(result: ToolResult) -> Mapping[str, Any]:
    """The tool's details; its error raised as the coded error a worker job reports."""
    if result.is_error:
        details = result.details
        raise PdfDeskError(str(details.get("error") or INTERNAL_ERROR),
                           str(details.get("message") or "Reading the tables failed."), str(details.get("hint") or ""))
    return result.details


def sentence(details: Mapping[str, Any]) -> str:
    """What went wrong and what to do, in one line."""
    text = " ".join(str(details.get(key) or "") for key in ("message", "hint")).strip()
    return text or "Reading the tables failed."


def fetch_page(runner: Runner, args: dict[str, Any], page: int) -> tuple[list[Record], bool]:
    """(tables on `page`, whether the page still waits for recognition)."""
    details = _details(runner("pdf_tables", {**args, "pages": str(page), "format": "json"}))
    waiting = bool(details.get("pages_awaiting_ocr"))  # a page set ("3"); one page was asked for
    return [dict(t) for t in details.get("tables") or []], waiting


def read_area(runner: Runner, args: dict[str, Any], page: int, area: Box) -> Record | None:
    """`area` of `page` read as a table; None when nothing in it is table-like."""
    details = _details(runner("pdf_tables", {**args, "pages": str(page), "area": [round(v, 2) for v in area],
                                             "format": "json"}))
    tables = details.get("tables") or []
    return dict(tables[0]) if tables else None


def whole_table(runner: Runner, args: dict[str, Any], page: int, box: Box, page_count: int) -> Record | None:
    """The table shown on `page` at `box`, joined with its parts on other pages: the neighbours are
    asked too, and the window grows while the table reaches its edge."""
    low, high = max(1, page - 1), min(page_count, page + 1)
    while True:
        details = _details(runner("pdf_tables", {**args, "pages": f"{low}-{high}", "format": "json"}))
        found = best_match(details.get("tables") or [], page, box)
        if found is None:
            return None
        pages = found.get("pages") or [found.get("page")]
        grow_low = pages[0] == low and low > 1
        grow_high = pages[-1] == high and high < page_count
        span = high - low + 1
        if not (grow_low or grow_high) or span >= MAX_JOIN_PAGES:
            return dict(found)
        if grow_low:
            low = max(1, low - span)
        if grow_high:
            high = min(page_count, high + span)


# --- the view's cache ---------------------------------------------------------------------------
class PageTables(QObject):
    """The tables of one view's document. `changed(index)`: a page's tables arrived (0-based);
    `failed(index, sentence)`: asking failed, to be said in place."""

    changed = Signal(int)
    failed = Signal(int, str)

    def __init__(self, runner: Runner | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner: Runner = runner or default_runner
        self.version: Version | None = None
        self.args: dict[str, Any] = {}
        self.page_count = 0
        self.generation = 0
        self.halted: str | None = None  # the document cannot be read by the tool (said once)
        self._answers: dict[int, PageAnswer] = {}
        self._areas: dict[int, list[Record]] = {}  # tables read from areas the user drew
        self._in_flight: set[int] = set()
        self._queue: list[int] = []
        self._awaiting: frozenset[int] = frozenset()
        self._news = 0  # how many times indexing's list of scans waiting for OCR changed
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self._start_next)

    def reset(self, path: str | None = None, password: str | None = None, identity: Any = None,
              page_count: int = 0) -> None:
        """A new document (or none): forget the old one's answers and drop its late ones."""
        self.generation += 1
        self.version = (path, identity) if path else None
        self.args = {"path": path} if path else {}
        if password:
            self.args["password"] = password
        self.page_count = page_count
        self.halted = None
        self._answers.clear()
        self._areas.clear()
        self._in_flight.clear()
        self._queue = []
        self._timer.stop()

    # --- reading ---------------------------------------------------------------------------------
    def known(self, index: int) -> bool:
        return index in self._answers or self._shared(index) is not None

    def on_page(self, index: int) -> list[Record]:
        """Tables of page `index` (0-based): areas read as tables first, then the detected ones."""
        answer = self._answers.get(index) or self._shared(index)
        return [*self._areas.get(index, []), *(answer.tables if answer is not None else [])]

    def at(self, index: int, x: float, y: float) -> Record | None:
        """The table under the unrotated point (x, y) of page `index`, an area's before a found one."""
        return table_at(self._areas.get(index, []), index + 1, x, y) or \
            table_at(self.on_page(index), index + 1, x, y)

    def add_area_table(self, index: int, record: Record) -> None:
        self._areas.setdefault(index, []).insert(0, record)
        self.changed.emit(index)

    def _shared(self, index: int) -> PageAnswer | None:
        if self.version is None:
            return None
        answer = _shared.peek((self.version, index))
        if answer is not None:
            self._answers[index] = answer
        return answer

    # --- asking ----------------------------------------------------------------------------------
    def want(self, indices: Iterable[int], awaiting: frozenset[int] = frozenset()) -> None:
        """Pages on screen now (0-based); `awaiting` the scans indexing says wait for recognition.
        Replaces the previous wish: pages scrolled past are not asked for."""
        if awaiting != self._awaiting:
            self._awaiting = awaiting
            self._news += 1
        if self.version is None or self.halted is not None:
            return
        queue = []
        for index in indices:
            answer = self._answers.get(index) or self._shared(index)
            stale = answer is not None and answer.news is not None and answer.news != self._news
            if index in awaiting or index in self._in_flight or (answer is not None and not stale):
                continue
            queue.append(index)
        self._queue = queue
        if queue and not self._timer.isActive():
            self._timer.start()

    def _start_next(self) -> None:
        from pdfdesk.gui import workers

        while self._queue and len(self._in_flight) < MAX_IN_FLIGHT and self.halted is None:
            index = self._queue.pop(0)
            self._in_flight.add(index)
            workers.submit(fetch_page, self.runner, dict(self.args), index + 1, owner=self,
                           on_done=functools.partial(self._arrived, self.generation, self.version, index),
                           on_error=functools.partial(self._fetch_failed, self.generation, index))

    def _arrived(self, generation: int, version: Version | None, index: int,
                 answer: tuple[list[Record], bool]) -> None:
        if generation != self.generation:
            return
        self._in_flight.discard(index)
        tables, waiting = answer
        page = PageAnswer(tables, self._news if waiting else None)
        self._answers[index] = page
        if not waiting and version is not None:
            _shared.put((version, index), page)
        self.changed.emit(index)
        self._start_next()

    def _fetch_failed(self, generation: int, index: int, details: Mapping[str, Any]) -> None:
        if generation != self.generation:
            return
        self._in_flight.discard(index)
        said = sentence(details)
        self._answers[index] = PageAnswer(error=said)
        if str(details.get("error", "")) not in PAGE_ERRORS:
            if self.halted is None:
                self.halted = said
                self._queue = []
                self.failed.emit(index, said)
            return
        self.failed.emit(index, said)
        self._start_next()

    def call(self, func: Callable[..., Any], *args: Any, on_done: Callable[[Any], None],
             on_error: Callable[[str], None]) -> None:
        """Run `func(runner, tool args, *args)` off the UI thread for this document; its answer
        (or its failure as a sentence) comes back on the UI thread unless the document changed."""
        from pdfdesk.gui import workers

        generation = self.generation

        def done(value: Any) -> None:
            if generation == self.generation:
                on_done(value)

        def failed(details: Mapping[str, Any]) -> None:
            if generation == self.generation:
                on_error(sentence(details))

        workers.submit(func, self.runner, dict(self.args), *args, owner=self, on_done=done, on_error=failed)
