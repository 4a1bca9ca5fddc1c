"""All MuPDF work of one open document, in one worker thread, most urgent first.

The UI thread never touches MuPDF (or its lock, which indexing holds in slices). It hands this
worker what it needs *now* — replacing, not appending to, what it asked for before, so requests
for pages the user has scrolled past are dropped — and gets results back as queued signals.
Priorities: opening; tiles on screen; words and links of visible pages; find and page-size slices;
visible thumbnails; tiles just off screen. Long jobs (sizes, find) run in short slices so a render
never waits behind them. PyMuPDF keeps the GIL while it works, so pixels come from the render
helper process (`render_process`) and what runs here is kept short (slices, tiles, one cheap first
page rendered here because the document is already open in this thread).
"""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass

import pymupdf
from PySide6.QtCore import QCoreApplication, QThread, Qt, Signal
from PySide6.QtGui import QImage

from pdfdesk.core.documents import open_source
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.core.render import render_pixmap
from pdfdesk.gui.viewer import page_data, render_process
from pdfdesk.gui.viewer.opening import OpenedDocument, open_document, remove_spool, unexpected_error
from pdfdesk.gui.viewer.tiles import Tile

SIZE_SLICE_PAGES = 250
CHEAP_CONTENT_BYTES = 64 * 1024  # compressed content stream of a typical text page: 2-20 KB
FIND_SLICE_SECONDS = 0.012


@dataclass(frozen=True)
class RenderRequest:
    tile: Tile
    device_pixel_ratio: float
    want_preview: bool = False  # also send a small copy (the view has none for this page yet)


@dataclass(frozen=True)
class PageGeometry:
    """A page's displayed size in points and, for rotated pages, unrotated -> displayed matrix."""

    width: float
    height: float
    matrix: tuple[float, float, float, float, float, float] | None = None


@dataclass
class _FindTask:
    generation: int
    needle: str
    order: list[int]
    position: int = 0


def to_qimage(pixmap: pymupdf.Pixmap, device_pixel_ratio: float) -> QImage:
    """An owned QImage of an RGB pixmap (one copy; painting RGB888 needs no conversion pass)."""
    image = QImage(pixmap.samples_mv, pixmap.width, pixmap.height, pixmap.stride,
                   QImage.Format.Format_RGB888).copy()
    image.setDevicePixelRatio(device_pixel_ratio)
    return image


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
        self._visible: deque[RenderRequest] = deque()
        self._prefetch: deque[RenderRequest] = deque()
        self._thumbs: deque[tuple[int, float]] = deque()
        self._info: deque[int] = deque()
        self._sizes_next = 0  # page 1 again too: its rotation matrix is needed for highlights
        self._find: _FindTask | None = None
        self._stopping = False
        self.busy_seconds = 0.0  # time spent in jobs (for the bench)
        self.last_error: str | None = None  # the last unexpected failure of a background job
        self.helper_renders = 0  # renders done by the helper process (the rest ran in this thread)
        self._rendered_once = False
        _LIVE.add(self)

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
        order = list(range(start_page, page_count)) + list(range(0, start_page))
        with self._cond:
            self._find = _FindTask(generation, needle, order) if needle else None
            self._cond.notify()

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
        _lower_thread_priority()
        try:
            while True:
                job = self._take()
                if job is None:
                    return
                started = time.perf_counter()
                try:
                    job()
                except Exception as exc:  # never let the thread die silently
                    if self._document is None:
                        self.failed.emit(self.token, unexpected_error(exc, "Opening the document"))
                    else:
                        self.last_error = f"{type(exc).__name__}: {exc}"
                self.busy_seconds += time.perf_counter() - started
        finally:
            if self._document is not None:
                remove_spool(self._document.spool)

    def _take(self):
        with self._cond:
            while True:
                if self._stopping:
                    return None
                job = self._pick()
                if job is not None:
                    return job
                self._cond.wait()

    def _pick(self):
        """The most urgent job (called with the condition held)."""
        if self._open_job is not None:
            reference, password = self._open_job
            self._open_job = None
            return lambda: self._do_open(reference, password)
        document = self._document
        if document is None:
            return None
        if self._visible:
            request = self._visible.popleft()
            return lambda: self._do_render(document, request)
        if self._info:
            page = self._info.popleft()
            return lambda: self._do_info(document, page)
        if self._find is not None:
            task = self._find
            return lambda: self._do_find_slice(document, task)
        if self._sizes_next < document.page_count:
            first = self._sizes_next
            end = self._sizes_next = min(document.page_count, first + SIZE_SLICE_PAGES)
            return lambda: self._do_sizes(document, first, end)
        if self._thumbs:
            page, scale = self._thumbs.popleft()
            return lambda: self._do_thumbnail(document, page, scale)
        if self._prefetch:
            request = self._prefetch.popleft()
            return lambda: self._do_render(document, request)
        return None

    # --- jobs ------------------------------------------------------------------------------------------
    def _do_open(self, reference: str, password: str | None) -> None:
        try:
            document = open_document(reference, password)
        except PdfDeskError as exc:
            self.failed.emit(self.token, exc.to_details())
            return
        with self._cond:
            self._document = document
        self.opened.emit(self.token, document)

    def _do_sizes(self, document: OpenedDocument, first: int, end: int) -> None:
        geometries: list[PageGeometry] = []
        with open_source(document.source, document.password) as opened:
            for index in range(first, end):
                try:
                    page = opened.doc.load_page(index)
                    rect = page.rect
                    matrix = page_data.display_matrix(page)
                    geometries.append(PageGeometry(rect.width, rect.height,
                                                   tuple(matrix) if matrix is not None else None))
                except Exception:  # a damaged page keeps the stand-in size and shows its error
                    geometries.append(PageGeometry(*document.first_size))
        self.sizesReady.emit(self.token, first, geometries)

    def _render(self, document: OpenedDocument, page_index: int, scale: float,
                clip: tuple[float, float, float, float] | None, device_pixel_ratio: float) -> QImage:
        """Pixels from the render helper process, or from this thread while it is not available."""
        try:
            if not self._rendered_once and self._cheap_to_render(document, page_index):
                # The document is already open here, while the helper would parse it first: the
                # first page on screen is rendered in this thread when it is plain text and
                # vectors (milliseconds of GIL); scans and heavy drawings go to the helper.
                raise render_process.HelperUnavailable()
            self._rendered_once = True
            image = render_process.HELPER.render(document.source, document.password, page_index, scale, clip)
        except render_process.HelperUnavailable:
            self._rendered_once = True
            with open_source(document.source, document.password) as opened:
                page = opened.doc.load_page(page_index)
                pixmap = render_pixmap(page, scale, clip=pymupdf.Rect(clip) if clip is not None else None)
            return to_qimage(pixmap, device_pixel_ratio)
        self.helper_renders += 1
        image.setDevicePixelRatio(device_pixel_ratio)
        return image

    @staticmethod
    def _cheap_to_render(document: OpenedDocument, page_index: int) -> bool:
        """No images and a short content stream: rendering it here holds the GIL only briefly."""
        try:
            with open_source(document.source, document.password) as opened:
                page = opened.doc.load_page(page_index)
                if page.get_images(full=False):
                    return False
                size = sum(len(opened.doc.xref_stream_raw(xref) or b"") for xref in page.get_contents())
                return size <= CHEAP_CONTENT_BYTES
        except Exception:  # a damaged page: let the helper (and its crash isolation) deal with it
            return False

    def _do_render(self, document: OpenedDocument, request: RenderRequest) -> None:
        tile = request.tile
        try:
            image = self._render(document, tile.key.page, tile.scale, tile.clip, request.device_pixel_ratio)
        except Exception as exc:  # RenderFailed, PdfDeskError, MuPDF's errors: the page shows it
            self.tileFailed.emit(self.token, tile.key, _page_error(tile.key.page, exc))
            return
        self.tileReady.emit(self.token, tile.key, image)
        if tile.clip is None and request.want_preview:  # a small copy for thumbnails and as a stand-in
            self.thumbnailReady.emit(self.token, tile.key.page, preview_of(image))

    def _do_thumbnail(self, document: OpenedDocument, page_index: int, scale: float) -> None:
        try:
            image = self._render(document, page_index, scale, None, 1.0)
        except Exception:
            return  # the panel keeps its placeholder; the main view shows the page's error
        self.thumbnailReady.emit(self.token, page_index, image)

    def _do_info(self, document: OpenedDocument, page_index: int) -> None:
        try:
            with open_source(document.source, document.password) as opened:
                page = opened.doc.load_page(page_index)
                words = page_data.page_words(page)
                links = page_data.page_links(page, opened.doc)
        except Exception:
            words, links = [], []
        self.pageInfoReady.emit(self.token, page_index, words, links)

    def _do_find_slice(self, document: OpenedDocument, task: _FindTask) -> None:
        hits: dict[int, list[page_data.Rect]] = {}
        deadline = time.perf_counter() + FIND_SLICE_SECONDS
        try:
            with open_source(document.source, document.password) as opened:
                while task.position < len(task.order):
                    index = task.order[task.position]
                    task.position += 1
                    try:
                        found = page_data.find_hits(opened.doc.load_page(index), task.needle)
                    except Exception:  # a damaged page has no hits; the others still count
                        found = []
                    if found:
                        hits[index] = found
                    if time.perf_counter() > deadline:
                        break
        except PdfDeskError:  # the file vanished or changed under us: end the search
            task.position = len(task.order)
        with self._cond:
            if self._find is task and task.position >= len(task.order):
                self._find = None
        self.findBatch.emit(self.token, task.generation, hits, task.position, len(task.order))


WORKER_NICENESS = 5


def _lower_thread_priority() -> None:
    """Let the UI thread win the CPU over this worker on a busy machine (Linux: per-thread nice;
    QThread priorities do nothing under the default Linux scheduler)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WORKER_NICENESS)
    except (AttributeError, OSError):
        pass


PREVIEW_MAX_WIDTH = 160


def preview_of(image: QImage) -> QImage:
    """A copy at most PREVIEW_MAX_WIDTH wide. Qt's scaler (PyMuPDF's scaling Pixmap constructor
    leaks the new pixmap, ~100 KB a page); it keeps the GIL, so a fast pass to twice the size
    comes first and the smooth pass only works on that (~0.3 ms instead of ~3 ms a page)."""
    if image.width() <= PREVIEW_MAX_WIDTH:
        small = image.copy()
    else:
        if image.width() > 4 * PREVIEW_MAX_WIDTH:
            image = image.scaledToWidth(2 * PREVIEW_MAX_WIDTH, Qt.TransformationMode.FastTransformation)
        small = image.scaledToWidth(PREVIEW_MAX_WIDTH, Qt.TransformationMode.SmoothTransformation)
    small.setDevicePixelRatio(1.0)
    return small


def _page_error(page_index: int, exc: Exception) -> str:
    if isinstance(exc, PdfDeskError):
        return exc.message
    if isinstance(exc, render_process.RenderFailed):
        return str(exc)
    return f"Page {page_index + 1} cannot be displayed: {exc}."


_LIVE: "weakref.WeakSet[DocumentWorker]" = weakref.WeakSet()
_RETIRING: set[DocumentWorker] = set()  # stopped but maybe still running: kept alive until they end


def retire(worker: DocumentWorker) -> None:
    """Stop `worker` without waiting; keep it referenced until its thread has ended (a QThread
    object destroyed while its thread runs takes the process down)."""
    worker.stop()
    _prune()
    if worker.isRunning():
        _RETIRING.add(worker)


def _prune() -> None:
    for worker in [w for w in _RETIRING if not w.isRunning()]:
        _RETIRING.discard(worker)


_quit_hooked = False


def install_quit_hook() -> None:
    """Stop every viewer thread when the application quits (a running QThread must not be
    destroyed at interpreter exit)."""
    global _quit_hooked
    if _quit_hooked:
        return
    app = QCoreApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(shutdown)
        _quit_hooked = True


def shutdown(timeout_ms: int = 5000) -> bool:
    """Stop every viewer thread and the render helper (application exit, tests)."""
    ok = join_all(timeout_ms)
    render_process.HELPER.stop()
    return ok


def join_all(timeout_ms: int = 5000) -> bool:
    """Stop and wait for every viewer thread (application exit, tests); True when all ended."""
    deadline = time.monotonic() + timeout_ms / 1000.0
    ok = True
    for worker in list(_LIVE) + list(_RETIRING):
        try:
            worker.stop()
            remaining = max(0, int((deadline - time.monotonic()) * 1000))
            if worker.isRunning() and not worker.wait(remaining):
                ok = False
        except RuntimeError:  # its C++ object is already gone (application teardown)
            continue
    if ok:
        _RETIRING.clear()
    return ok


atexit.register(shutdown)  # last resort: a running QThread destroyed at exit aborts the process
