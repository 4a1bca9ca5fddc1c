"""The queue of one open document's MuPDF work, served by one worker thread, most urgent first.

The UI thread never touches MuPDF (or its lock, which indexing holds in slices). It hands this
worker what it needs *now* — replacing, not appending to, what it asked for before, so requests
for pages the user has scrolled past are dropped — and gets results back as queued signals.
Priorities: opening; tiles on screen; words and links of visible pages; find and page-size slices;
visible thumbnails; tiles just off screen. Which tiles those are is `render_policy`'s decision;
how each job runs is `render_jobs`'; the thread registry is `threads`.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QThread, Signal

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.gui.viewer import threads
from pdfdesk.gui.viewer.opening import (
    OpenedDocument,
    open_document,
    remove_spool,
    unexpected_error,
)
from pdfdesk.gui.viewer.render_jobs import FindTask, PageJobs, page_error, preview_of
from pdfdesk.gui.viewer.tiles import Tile

SIZE_SLICE_PAGES = 250


@dataclass(frozen=True)
class RenderRequest:
    tile: Tile
    device_pixel_ratio: float
    want_preview: bool = False  # also send a small copy (the view has none for this page yet)


class DocumentWorker(QThread):
    """One document's MuPDF thread. Every signal carries the worker's `token` so a view can ignore
    results that arrive after it moved on to another document."""

    opened = Signal(int, object)  # token, OpenedDocument
    failed = Signal(int, dict)  # token, error details
    sizesReady = Signal(int, int, object)  # token, first index, list[PageGeometry]
    tileReady = Signal(int, object, object)  # token, TileKey, QImage
    tileFailed = Signal(int, object, str)  # token, TileKey, message
    thumbnailReady = Signal(int, int, object)  # token, page index, QImage
    pageInfoReady = Signal(int, int, object, object)  # token, page index, PageWords, list[Link]
    findBatch = Signal(int, int, object, int, int)  # token, generation, {page: rects}, searched, total

    _next_token = 0

    def __init__(self, reference: str, password: str | None) -> None:
        super().__init__()
        DocumentWorker._next_token += 1
        self.token = DocumentWorker._next_token
        self.setObjectName(f"pdfdesk-viewer-{self.token}")
        self._cond = threading.Condition()
        self._open_job: tuple[str, str | None] | None = (reference, password)
        self._document: OpenedDocument | None = None
        self._jobs: PageJobs | None = None
        self._visible: deque[RenderRequest] = deque()
        self._prefetch: deque[RenderRequest] = deque()
        self._thumbs: deque[tuple[int, float]] = deque()
        self._info: deque[int] = deque()
        self._sizes_next = 0  # page 1 again too: its rotation matrix is needed for highlights
        self._find: FindTask | None = None
        self._fingerprint: str | None = None  # the document's, when the window knows it
        self._stopping = False
        self.last_error: str | None = None  # the last unexpected failure of a background job
        threads.register(self)

    @property
    def helper_renders(self) -> int:
        """Renders done by the helper process (the rest ran in this thread)."""
        return self._jobs.helper_renders if self._jobs is not None else 0

    # --- requests from the UI thread ---------------------------------------------------------------
    def set_renders(self, visible: list[RenderRequest], prefetch: list[RenderRequest]) -> None:
        """Replace every pending tile request: what is on screen first, then its neighbours."""
        with self._cond:
            self._visible = deque(visible)
            self._prefetch = deque(prefetch)
            self._cond.notify()

    def set_thumbnails(self, requests: list[tuple[int, float]]) -> None:
        """Replace pending thumbnail requests with (page index, scale) pairs."""
        with self._cond:
            self._thumbs = deque(requests)
            self._cond.notify()

    def request_page_info(self, pages: list[int]) -> None:
        """Ask for words and links of `pages` (most urgent first); earlier asks are dropped."""
        with self._cond:
            self._info = deque(dict.fromkeys(pages))
            self._cond.notify()

    def start_find(self, generation: int, needle: str, start_page: int, page_count: int) -> None:
        """Search every page for `needle`, from `start_page` on, then wrapping to the start."""
        order = list(range(start_page, page_count)) + list(range(start_page))
        with self._cond:
            self._find = FindTask(generation, needle, order) if needle else None
            self._cond.notify()

    def set_fingerprint(self, fingerprint: str) -> None:
        """The document's content fingerprint, known to the window (its indexing hashed the file):
        scanned pages' recognised words are read under it without hashing the file again."""
        with self._cond:
            self._fingerprint = fingerprint
            if self._jobs is not None:
                self._jobs.recognised.given = fingerprint

    def stop_find(self) -> None:
        with self._cond:
            self._find = None

    def stop(self) -> None:
        """Ask the thread to end after its current job; never waits (the UI must not block)."""
        with self._cond:
            self._stopping = True
            self._open_job = None
            self._visible.clear()
            self._prefetch.clear()
            self._thumbs.clear()
            self._info.clear()
            self._find = None
            self._cond.notify()

    def pending(self) -> int:
        """Requests not yet served (for tests and the bench)."""
        with self._cond:
            return len(self._visible) + len(self._prefetch) + len(self._thumbs) + len(self._info) \
                + (self._open_job is not None) + (self._find is not None)

    # --- the thread ----------------------------------------------------------------------------------
    def run(self) -> None:
        threads.lower_thread_priority()
        try:
            while True:
                job = self._take()
                if job is None:
                    return
                try:
                    job()
                except Exception as exc:  # never let the thread die silently
                    if self._document is None:
                        self.failed.emit(self.token, unexpected_error(exc, "Opening the document"))
                    else:
                        self.last_error = f"{type(exc).__name__}: {exc}"
        finally:
            if self._document is not None:
                remove_spool(self._document.spool)

    def _take(self) -> Callable[[], None] | None:
        with self._cond:
            while True:
                if self._stopping:
                    return None
                job = self._pick()
                if job is not None:
                    return job
                self._cond.wait()

    def _pick(self) -> Callable[[], None] | None:
        """The most urgent job (called with the condition held)."""
        if self._open_job is not None:
            reference, password = self._open_job
            self._open_job = None
            return lambda: self._do_open(reference, password)
        jobs = self._jobs
        if jobs is None:
            return None
        if self._visible:
            request = self._visible.popleft()
            return lambda: self._do_render(jobs, request)
        if self._info:
            page = self._info.popleft()
            return lambda: self.pageInfoReady.emit(self.token, page, *jobs.page_info(page))
        if self._find is not None:
            task = self._find
            return lambda: self._do_find_slice(jobs, task)
        if self._sizes_next < jobs.document.page_count:
            first = self._sizes_next
            end = self._sizes_next = min(jobs.document.page_count, first + SIZE_SLICE_PAGES)
            return lambda: self.sizesReady.emit(self.token, first, jobs.sizes(first, end))
        if self._thumbs:
            page, scale = self._thumbs.popleft()
            return lambda: self._do_thumbnail(jobs, page, scale)
        if self._prefetch:
            request = self._prefetch.popleft()
            return lambda: self._do_render(jobs, request)
        return None

    # --- running a job and answering -------------------------------------------------------------------
    def _do_open(self, reference: str, password: str | None) -> None:
        try:
            document = open_document(reference, password)
        except PdfDeskError as exc:
            self.failed.emit(self.token, exc.to_details())
            return
        with self._cond:
            self._document = document
            self._jobs = PageJobs(document, self._fingerprint)
        self.opened.emit(self.token, document)

    def _do_render(self, jobs: PageJobs, request: RenderRequest) -> None:
        tile = request.tile
        try:
            image = jobs.render(tile.key.page, tile.scale, tile.clip, request.device_pixel_ratio)
        except Exception as exc:  # RenderFailed, PdfDeskError, MuPDF's errors: the page shows it
            self.tileFailed.emit(self.token, tile.key, page_error(tile.key.page, exc))
            return
        self.tileReady.emit(self.token, tile.key, image)
        if tile.clip is None and request.want_preview:  # a small copy for thumbnails and as a stand-in
            self.thumbnailReady.emit(self.token, tile.key.page, preview_of(image))

    def _do_thumbnail(self, jobs: PageJobs, page_index: int, scale: float) -> None:
        try:
            image = jobs.render(page_index, scale, None, 1.0)
        except Exception:
            return  # the panel keeps its placeholder; the main view shows the page's error
        self.thumbnailReady.emit(self.token, page_index, image)

    def _do_find_slice(self, jobs: PageJobs, task: FindTask) -> None:
        hits = jobs.find_slice(task)
        with self._cond:
            if self._find is task and task.finished:
                self._find = None
        self.findBatch.emit(self.token, task.generation, hits, task.position, len(task.order))
