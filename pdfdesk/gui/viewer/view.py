"""DocumentView: one open PDF as a continuous, zoomable strip of pages (the contract in gui_api).

The UI thread only does geometry and painting. Everything MuPDF does (open, sizes, pixels, words,
links, find) happens in the document's worker (`render_queue`; pixels in the render helper
process), which gets the current needs after every scroll or zoom and answers with queued
signals. This module holds the state, the public API, the worker's answers, geometry and what to
render; painting (`view_painting`), keys (`keyboard`) and the mouse (`pointer`) are mixins.
"""

from __future__ import annotations

import functools
import math
import time
from collections import OrderedDict
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QImage, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QWidget

from pdfdesk.core.errors import PASSWORD_REQUIRED, WRONG_PASSWORD
from pdfdesk.core.references import PdfSource
from pdfdesk.gui.viewer import memory, render_process, render_queue, tiles
from pdfdesk.gui.viewer.cache import DEFAULT_BUDGET_BYTES, ByteBudgetCache
from pdfdesk.gui.viewer.find import FindResults
from pdfdesk.gui.viewer.history import NavigationHistory, Position
from pdfdesk.gui.viewer.keyboard import KeyboardCommands
from pdfdesk.gui.viewer.layout import (
    MARGIN, ZOOM_CUSTOM, ZOOM_FIT_PAGE, ZOOM_FIT_WIDTH, ZOOM_MODES, PageLayout, clamp_zoom, step_zoom,
)
from pdfdesk.gui.viewer.opening import OpenedDocument
from pdfdesk.gui.viewer.page_data import Link, PageWords, Rect
from pdfdesk.gui.viewer.pointer import PointerInteraction
from pdfdesk.gui.viewer.render_queue import DocumentWorker, PageGeometry, RenderRequest
from pdfdesk.gui.viewer.selection import SelectionEnd, TextSelection
from pdfdesk.gui.viewer.states import STATE_EMPTY, STATE_FAILED, STATE_OPEN, STATE_OPENING, STATE_PASSWORD
from pdfdesk.gui.viewer.view_painting import PagePainting

PREVIEW_BUDGET_BYTES = 16 * 1024 * 1024  # ~150 page previews (160 px wide)
PAGE_INFO_PAGES = 120  # pages whose words and links are kept (selections longer than this lose pages)
PREFETCH_SCREENS_BELOW = 1.0
PREFETCH_SCREENS_ABOVE = 0.5
MAX_PREFETCH_TILES = 12
WHEEL_ZOOM_BASE = 1.1  # zoom factor per wheel notch with Ctrl
FLING_SETTLE_MS = 60  # renders wait this long after the last of several big scroll jumps


def _image_bytes(image: QImage) -> int:
    return image.sizeInBytes()


def _retire_boxed(box: list) -> None:
    if box[0] is not None:
        try:
            render_queue.retire(box[0])
        except RuntimeError:  # the application is tearing down and the thread object is gone
            pass


class DocumentView(PagePainting, KeyboardCommands, PointerInteraction, QAbstractScrollArea):
    """A PDF shown as a continuous vertical strip of pages."""

    documentOpened = Signal(int)  # page count
    openFailed = Signal(dict)  # {"error", "message", "hint", ...}
    passwordRequired = Signal(bool)  # True when a password was given and was wrong
    currentPageChanged = Signal(int)  # 1-based
    zoomChanged = Signal(float)
    historyChanged = Signal(bool, bool)  # can go back, can go forward
    firstPagePainted = Signal()
    selectionChanged = Signal(str)
    # beyond the contract
    previewReady = Signal(int)  # 0-based page whose small preview image arrived (thumbnails)
    pageSizesChanged = Signal()  # real page sizes replaced stand-ins (thumbnails re-measure)
    findChanged = Signal(int, int, bool)  # current hit (1-based, 0 = none), hits so far, search finished
    linkActivated = Signal(str)  # an external link was clicked (opened too when open_external_links)
    documentClosed = Signal()

    def __init__(self, parent: QWidget | None = None, cache_budget: int = DEFAULT_BUDGET_BYTES) -> None:
        super().__init__(parent)
        memory.return_large_buffers_to_the_system()
        memory.settle_long_lived_objects()
        render_process.HELPER.start()  # ready in about half a second; until then renders run in-thread
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setMouseTracking(True)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.verticalScrollBar().setSingleStep(40)
        self.horizontalScrollBar().setSingleStep(40)

        self.open_external_links = True
        self._reference: str | None = None
        self._password: str | None = None
        self._state = STATE_EMPTY
        self._message: tuple[str, str, str] | None = None
        self._error: dict | None = None
        self._worker: DocumentWorker | None = None
        self._document: OpenedDocument | None = None
        self._layout = PageLayout()
        self._zoom_mode = ZOOM_FIT_WIDTH
        self._tiles: ByteBudgetCache[tiles.TileKey, QImage] = ByteBudgetCache(
            _image_bytes, lambda key: key.page, cache_budget)
        self._previews: ByteBudgetCache[int, QImage] = ByteBudgetCache(_image_bytes, int, PREVIEW_BUDGET_BYTES)
        self._failed_pages: dict[int, str] = {}
        self._matrices: dict[int, tuple[float, ...]] = {}
        self._page_info: OrderedDict[int, tuple[PageWords, list[Link]]] = OrderedDict()
        self._highlights: tuple[int, list[Rect]] | None = None
        self._find = FindResults()
        self._find_generation = 0
        self._selection = TextSelection()
        self._selection_text = ""
        self._history = NavigationHistory()
        self._current = 0
        self._pending_goto: tuple[int, list[Rect], bool] | None = None
        self._first_painted = False
        self.open_started_at: float | None = None
        self.first_painted_at: float | None = None
        self._press: tuple[QPointF, int, float, float] | None = None  # viewport pos, page, x_pt, y_pt
        self._press_link: Link | None = None
        self._dragging = False
        self._find_bar = None
        self._find_start = 0
        self._scheduled_scale = 0  # the render scale the worker was last asked for
        self._geometry_known = 0  # pages 0.. below this have their real size and rotation
        self._rescroll_page: int | None = None  # a highlight shown before its page's rotation was known
        self._last_big_jump = 0.0  # when the view last moved by half a screen or more at once
        self._big_jumps = 0  # how many such moves came in a row (two or more: a fling)
        # The worker must be stopped even if the view is deleted without close_document(); the
        # destroyed signal fires when `self` can no longer be used, so it gets a box, not self.
        self._worker_box: list[DocumentWorker | None] = [None]
        self.destroyed.connect(functools.partial(_retire_boxed, self._worker_box))

        self._schedule_timer = QTimer(self)
        self._schedule_timer.setSingleShot(True)
        self._schedule_timer.timeout.connect(self._schedule_work)
        self._autoscroll = QTimer(self)
        self._autoscroll.setInterval(30)
        self._autoscroll.timeout.connect(self._autoscroll_step)
        self._autoscroll_delta = 0

    # ================================================================================ public API
    @property
    def reference(self) -> str | None:
        return self._reference

    @property
    def page_count(self) -> int:
        return self._layout.page_count if self._state == STATE_OPEN else 0

    @property
    def current_page(self) -> int:
        """1-based page most visible (0 when no document is open)."""
        return self._current + 1 if self._state == STATE_OPEN else 0

    @property
    def zoom(self) -> float:
        return self._layout.zoom

    @property
    def zoom_mode(self) -> str:
        return self._zoom_mode

    @property
    def state(self) -> str:
        """"empty", "opening", "open", "password" (waiting for one) or "failed"."""
        return self._state

    @property
    def error(self) -> dict | None:
        """The details of the last open failure (shown in place), else None."""
        return self._error

    @property
    def source(self) -> PdfSource | None:
        """The resolved source once open (for indexing the same file)."""
        return self._document.source if self._document else None

    @property
    def password(self) -> str | None:
        return self._document.password if self._document else None

    @property
    def title(self) -> str:
        if self._document is not None:
            return self._document.title
        return (self._reference or "").rsplit("/", 1)[-1]

    def open_document(self, reference: str, password: str | None = None) -> None:
        """Start opening `reference` in the worker; ends in documentOpened, openFailed or passwordRequired."""
        self._discard_document()
        self._reference = reference
        self._password = password
        self._state = STATE_OPENING
        self._message = None
        self._error = None
        self.open_started_at = time.perf_counter()
        self.first_painted_at = None
        self._first_painted = False
        worker = DocumentWorker(reference, password)
        worker.opened.connect(self._on_opened)
        worker.failed.connect(self._on_failed)
        worker.sizesReady.connect(self._on_sizes)
        worker.tileReady.connect(self._on_tile)
        worker.tileFailed.connect(self._on_tile_failed)
        worker.thumbnailReady.connect(self._on_preview)
        worker.pageInfoReady.connect(self._on_page_info)
        worker.findBatch.connect(self._on_find_batch)
        self._worker = worker
        self._worker_box[0] = worker
        render_queue.install_quit_hook()
        worker.start()
        self.viewport().update()

    def close_document(self) -> None:
        """Stop the worker, free the caches, show nothing."""
        had = self._state != STATE_EMPTY
        self._discard_document()
        self._reference = None
        self._state = STATE_EMPTY
        self._message = None
        self._error = None
        self._update_scrollbars()
        self.viewport().update()
        if had:
            self.documentClosed.emit()

    def go_to_page(self, page: int, rects: Sequence[tuple[float, float, float, float]] = (),
                   record: bool = True) -> None:
        """Show `page` (1-based), or its first rect, and highlight `rects` (PDF points, top-left
        origin, as pdf_search returns them) until the next highlight or clear."""
        rect_list = [tuple(float(v) for v in r) for r in rects]
        if self._state != STATE_OPEN:
            self._pending_goto = (page, rect_list, record)  # applied once the document is open
            return
        index = min(max(1, int(page)), self.page_count) - 1
        if record:
            self._record_history()
        if rect_list:
            self._highlights = (index, rect_list)
            self._scroll_to_rect(index, self._display_rects(index, rect_list)[0])
            # until the page's geometry is read its rotation is unknown: scroll again once it is
            self._rescroll_page = index if index >= self._geometry_known else None
        else:
            self._scroll_to_position(Position(index, 0.0, -MARGIN / 2 / self.zoom), keep_x=True)
        # The page asked for is the current one, even when a hit near its foot leaves the next
        # page taking more of the screen; the next scroll by the user recomputes it.
        self._set_current(index)
        self.viewport().update()

    def set_highlights(self, page: int, rects: Sequence[tuple[float, float, float, float]]) -> None:
        self._highlights = (int(page) - 1, [tuple(float(v) for v in r) for r in rects])
        self.viewport().update()

    def clear_highlights(self) -> None:
        self._highlights = None
        self.viewport().update()

    def highlights(self) -> tuple[int, list[Rect]] | None:
        """(1-based page, rects) of the current highlight, for callers and tests."""
        if self._highlights is None:
            return None
        return self._highlights[0] + 1, list(self._highlights[1])

    def set_zoom(self, factor: float) -> None:
        self._zoom_mode = ZOOM_CUSTOM
        self._set_zoom(factor)

    def zoom_in(self) -> None:
        self.set_zoom(step_zoom(self.zoom, +1))

    def zoom_out(self) -> None:
        self.set_zoom(step_zoom(self.zoom, -1))

    def fit_width(self) -> None:
        self._zoom_mode = ZOOM_FIT_WIDTH
        self._apply_zoom_mode()

    def fit_page(self) -> None:
        self._zoom_mode = ZOOM_FIT_PAGE
        self._apply_zoom_mode()

    def set_zoom_mode(self, mode: str) -> None:
        if mode not in ZOOM_MODES:
            raise ValueError(f"unknown zoom mode {mode!r}")
        self._zoom_mode = mode
        self._apply_zoom_mode()

    def back(self) -> None:
        self._go_to_history(self._history.back(self._position()))

    def forward(self) -> None:
        self._go_to_history(self._history.forward(self._position()))

    def _go_to_history(self, target: Position | None) -> None:
        if target is not None:
            self._scroll_to_position(target)
            self._set_current(target.page)
            self.viewport().update()
        self._emit_history()

    @property
    def can_go_back(self) -> bool:
        return self._history.can_go_back

    @property
    def can_go_forward(self) -> bool:
        return self._history.can_go_forward

    def selected_text(self) -> str:
        return self._selection.text(self._words_of) if self._selection.active else ""

    def copy_selection(self) -> None:
        text = self.selected_text()
        if not text:
            return
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(text)
        if clipboard.supportsSelection():
            clipboard.setText(text, clipboard.Mode.Selection)

    def select_all_on_page(self, page: int | None = None) -> None:
        """Select every word of `page` (1-based; default the current page)."""
        index = (page - 1) if page else self._current
        if not 0 <= index < self.page_count:
            return
        self._selection.start(SelectionEnd(index, -1e6, -1e6))
        self._selection.extend(SelectionEnd(index, 1e6, 1e6))
        self._request_page_info([index])
        self._selection_updated()

    def clear_selection(self) -> None:
        if self._selection.active:
            self._selection.clear()
            self._selection_updated()

    def show_find_bar(self) -> None:
        self._find_bar_widget().open_bar()

    @property
    def find_bar(self):
        """The view's FindBar (created on first use)."""
        return self._find_bar_widget()

    def find(self, text: str) -> None:
        """Search every page for `text` (current page first); hits are highlighted as they come."""
        self._find_generation += 1
        self._find = FindResults(text, self._find_generation)
        self._find_start = self._current
        if self._worker is not None and self._state == STATE_OPEN and text:
            self._worker.start_find(self._find_generation, text, self._current, self.page_count)
        elif self._worker is not None:
            self._worker.stop_find()
        self._emit_find()
        self.viewport().update()

    def find_next(self) -> None:
        self._find_step(+1)

    def find_previous(self) -> None:
        self._find_step(-1)

    def clear_find(self) -> None:
        self.find("")

    def find_status(self) -> tuple[int, int, bool]:
        """(current hit 1-based or 0, hits found so far, search finished)."""
        return self._find.current_number(), self._find.count(), self._find.done or not self._find.needle

    def find_hits(self, page: int) -> list[Rect]:
        """Find-bar hits on `page` (1-based), in displayed page points."""
        return list(self._find.hits_on(page - 1))

    # --- inspection (thumbnails, tests, bench) ------------------------------------------------------
    def page_size(self, page: int) -> tuple[float, float]:
        """Displayed size in points of `page` (1-based); the first page's until known."""
        return self._layout.page_size(page - 1)

    def visible_pages(self) -> list[int]:
        """1-based pages that intersect the viewport."""
        if self._state != STATE_OPEN:
            return []
        top = self.verticalScrollBar().value()
        return [i + 1 for i in self._layout.pages_between(top, top + self.viewport().height())]

    def render_scale(self) -> float:
        return self.zoom * self.viewport().devicePixelRatioF()

    def rendered_pages(self, current_zoom_only: bool = True) -> set[int]:
        """1-based pages with at least one cached image (at the current zoom by default)."""
        key = tiles.scale_key(self.render_scale())
        return {k.page + 1 for k in self._tiles.keys() if not current_zoom_only or k.scale == key}

    def page_fully_rendered(self, page: int) -> bool:
        """True when every tile of the visible part of `page` (1-based) is cached at the current zoom."""
        needed = self._needed_tiles(page - 1)
        return bool(needed) and all(t.key in self._tiles for t in needed)

    def cache_bytes(self) -> int:
        return self._tiles.bytes_used + self._previews.bytes_used

    def preview_image(self, index: int) -> QImage | None:
        return self._previews.get(index, touch=False)

    def request_previews(self, indices: list[int], scale: float) -> None:
        """Ask for small page images (thumbnail panel); replaces the previous ask."""
        if self._worker is not None and self._state == STATE_OPEN:
            self._worker.set_thumbnails([(i, scale) for i in indices if 0 <= i < self.page_count])

    def page_rect_in_viewport(self, page: int) -> QRectF:
        """Where `page` (1-based) is drawn, in viewport coordinates."""
        rect = self._layout.page_rect(page - 1)
        return QRectF(rect.x - self.horizontalScrollBar().value(), rect.y - self.verticalScrollBar().value(),
                      rect.width, rect.height)

    def viewport_point(self, page: int, x_pt: float, y_pt: float) -> QPointF:
        """Viewport position of a point on `page` (1-based) given in displayed page points."""
        x, y = self._layout.strip_point(page - 1, x_pt, y_pt)
        return QPointF(x - self.horizontalScrollBar().value(), y - self.verticalScrollBar().value())

    def worker_busy_seconds(self) -> float:
        return self._worker.busy_seconds if self._worker is not None else 0.0

    def pending_requests(self) -> int:
        return self._worker.pending() if self._worker is not None else 0

    # ================================================================================ worker results
    def _on_opened(self, token: int, document: OpenedDocument) -> None:
        if not self._is_current(token):
            return
        self._document = document
        self._state = STATE_OPEN
        self._layout.reset(document.page_count, document.first_size)
        self._current = 0
        self._apply_zoom_mode(anchor=False)
        self._update_scrollbars()
        self.verticalScrollBar().setValue(0)
        self.documentOpened.emit(document.page_count)
        self.currentPageChanged.emit(1)
        if self._pending_goto is not None:
            page, rects, record = self._pending_goto
            self._pending_goto = None
            self.go_to_page(page, rects, record=False)
        self._schedule()
        self.viewport().update()

    def _on_failed(self, token: int, details: dict) -> None:
        if not self._is_current(token):
            return
        code = details.get("error")
        self._error = details
        self._pending_goto = None
        if code in (PASSWORD_REQUIRED, WRONG_PASSWORD):
            self._state = STATE_PASSWORD
            wrong = code == WRONG_PASSWORD
            self._message = ("Password required" if not wrong else "Wrong password",
                             details.get("message", ""), "Enter the document's password to open it.")
            self._retire_worker()
            self.viewport().update()
            self.passwordRequired.emit(wrong)
            return
        if self._state == STATE_OPEN:  # an unexpected failure after opening: keep showing pages
            return
        self._state = STATE_FAILED
        self._message = ("This document cannot be opened", details.get("message", ""), details.get("hint", ""))
        self._retire_worker()
        self.viewport().update()
        self.openFailed.emit(details)

    def _on_sizes(self, token: int, first: int, geometries: list[PageGeometry]) -> None:
        if not self._is_current(token):
            return
        for offset, geometry in enumerate(geometries):
            if geometry.matrix is not None:
                self._matrices[first + offset] = geometry.matrix
        self._geometry_known = max(self._geometry_known, first + len(geometries))
        position = self._position()
        if self._layout.set_sizes(first, [(g.width, g.height) for g in geometries]):
            self._update_scrollbars()
            self._scroll_to_position(position)
            self.pageSizesChanged.emit()
            self.viewport().update()
            self._schedule()
        rescroll = self._rescroll_page
        if rescroll is not None and rescroll < self._geometry_known:
            self._rescroll_page = None
            if rescroll in self._matrices and self._highlights is not None and self._highlights[0] == rescroll:
                self._scroll_to_rect(rescroll, self._display_rects(rescroll, self._highlights[1])[0])
                self.viewport().update()

    def _on_tile(self, token: int, key: tiles.TileKey, image: QImage) -> None:
        if not self._is_current(token):
            return
        self._tiles.put(key, image)
        if key.scale == tiles.scale_key(self.render_scale()):
            rect = self.page_rect_in_viewport(key.page + 1)
            if rect.intersects(QRectF(self.viewport().rect())):
                self.viewport().update(rect.toAlignedRect())

    def _on_tile_failed(self, token: int, key: tiles.TileKey, message: str) -> None:
        if not self._is_current(token):
            return
        self._failed_pages[key.page] = message
        self.viewport().update()

    def _on_preview(self, token: int, index: int, image: QImage) -> None:
        if not self._is_current(token):
            return
        self._previews.put(index, image)
        self.previewReady.emit(index)

    def _on_page_info(self, token: int, index: int, words: PageWords, links: list[Link]) -> None:
        if not self._is_current(token):
            return
        self._page_info[index] = (words, links)
        self._page_info.move_to_end(index)
        while len(self._page_info) > PAGE_INFO_PAGES:
            self._page_info.popitem(last=False)
        if self._selection.active and index in self._selection.pages():
            self._selection_updated()

    def _on_find_batch(self, token: int, generation: int, hits: dict, searched: int, total: int) -> None:
        if not self._is_current(token) or generation != self._find_generation:
            return
        self._find.add(hits, searched, total)
        if self._find.current is None and self._find.count():
            self._find.current = self._find.first_from(self._find_start)
            self._show_find_current()
        self._emit_find()
        if any(page in hits for page in self._layout.pages_between(*self._visible_band())):
            self.viewport().update()

    def _is_current(self, token: int) -> bool:
        return self._worker is not None and token == self._worker.token

    # ================================================================================ geometry
    def _visible_band(self) -> tuple[float, float]:
        top = float(self.verticalScrollBar().value())
        return top, top + self.viewport().height()

    def _update_scrollbars(self) -> None:
        self._layout.set_viewport_width(self.viewport().width())
        if self._state != STATE_OPEN:
            self.verticalScrollBar().setRange(0, 0)
            self.horizontalScrollBar().setRange(0, 0)
            return
        width, height = self._layout.document_size()
        view_w, view_h = self.viewport().width(), self.viewport().height()
        vbar, hbar = self.verticalScrollBar(), self.horizontalScrollBar()
        vbar.setRange(0, max(0, math.ceil(height - view_h)))
        vbar.setPageStep(max(1, view_h))
        hbar.setRange(0, max(0, math.ceil(width - view_w)))
        hbar.setPageStep(max(1, view_w))

    def _position(self) -> Position:
        """The viewport's top-left as a point relative to the current page (for history, and to
        keep the place when the layout changes)."""
        if self._state != STATE_OPEN or not self._layout.page_count:
            return Position(0, 0.0, 0.0)
        left, top = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
        index = self._current  # relative to the current page (the point may lie above or below it)
        x_pt, y_pt = self._layout.page_point(index, left, top)
        return Position(index, x_pt, y_pt)

    def _scroll_to_position(self, position: Position, keep_x: bool = False) -> None:
        if self._state != STATE_OPEN:
            return
        index = min(max(0, position.page), self.page_count - 1)
        x, y = self._layout.strip_point(index, position.x_pt, position.y_pt)
        if not keep_x:
            self.horizontalScrollBar().setValue(round(x))
        self.verticalScrollBar().setValue(round(y))
        self._after_scroll()

    def _scroll_to_rect(self, index: int, rect: Rect) -> None:
        """Bring a rect of page `index` into view: left alone if fully visible, else a quarter down."""
        x0, y0 = self._layout.strip_point(index, rect[0], rect[1])
        x1, y1 = self._layout.strip_point(index, rect[2], rect[3])
        vbar, hbar = self.verticalScrollBar(), self.horizontalScrollBar()
        view_w, view_h = self.viewport().width(), self.viewport().height()
        if not (vbar.value() <= y0 and y1 <= vbar.value() + view_h):
            vbar.setValue(round(y0 - view_h / 4))
        if not (hbar.value() <= x0 and x1 <= hbar.value() + view_w):
            hbar.setValue(round(x0 - min(view_w / 4, max(0.0, (view_w - (x1 - x0)) / 2))))
        self._after_scroll()

    def _set_zoom(self, factor: float, anchor: QPointF | None = None) -> None:
        factor = clamp_zoom(factor)
        if self._state != STATE_OPEN:
            changed = factor != self._layout.zoom
            self._layout.set_zoom(factor)
            if changed:
                self.zoomChanged.emit(self._layout.zoom)
            return
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        left, top = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
        index = self._layout.page_at(top + anchor.y())
        x_pt, y_pt = self._layout.page_point(index, left + anchor.x(), top + anchor.y())
        old = self._layout.zoom
        self._layout.set_zoom(factor)
        self._update_scrollbars()
        x, y = self._layout.strip_point(index, x_pt, y_pt)
        self.horizontalScrollBar().setValue(round(x - anchor.x()))
        self.verticalScrollBar().setValue(round(y - anchor.y()))
        self._after_scroll()
        self.viewport().update()
        if self._layout.zoom != old:
            self.zoomChanged.emit(self._layout.zoom)

    def _apply_zoom_mode(self, anchor: bool = True) -> None:
        view_w, view_h = self.viewport().width(), self.viewport().height()
        if self._zoom_mode == ZOOM_CUSTOM or view_w < 50 or view_h < 50:
            if self._state == STATE_OPEN:
                self._update_scrollbars()
            return
        page = self._current if self._state == STATE_OPEN else 0
        if self._zoom_mode == ZOOM_FIT_WIDTH:
            # the vertical bar is always shown, so fitting the width never makes it appear
            factor = self._layout.fit_width_zoom(page, view_w)
        else:
            factor = self._layout.fit_page_zoom(page, view_w, view_h)
        if self._zoom_mode == ZOOM_FIT_PAGE and self._state == STATE_OPEN and anchor:
            self._set_zoom(factor, QPointF(view_w / 2, 0))
            self._scroll_to_position(Position(self._current, 0.0, -MARGIN / 2 / self.zoom), keep_x=True)
        else:
            self._set_zoom(factor, QPointF(view_w / 2, 0) if anchor else None)

    def _after_scroll(self) -> None:
        self._update_current_page()
        self._schedule()

    def _update_current_page(self) -> None:
        if self._state != STATE_OPEN:
            return
        top, bottom = self._visible_band()
        best, best_height = self._current, -1.0
        for index in self._layout.pages_between(top, bottom):
            rect = self._layout.page_rect(index)
            height = min(bottom, rect.bottom) - max(top, rect.y)
            if height > best_height + 0.5:
                best, best_height = index, height
        self._set_current(best)

    def _set_current(self, index: int) -> None:
        if index != self._current:
            self._current = index
            self.currentPageChanged.emit(index + 1)

    def _display_rects(self, index: int, rects: list[Rect]) -> list[Rect]:
        """Rects in unrotated page space (as MuPDF text search gives them) -> displayed space."""
        matrix = self._matrices.get(index)
        if matrix is None:
            return rects
        a, b, c, d, e, f = matrix
        mapped = []
        for x0, y0, x1, y1 in rects:
            xs = [a * x + c * y + e for x, y in ((x0, y0), (x1, y1))]
            ys = [b * x + d * y + f for x, y in ((x0, y0), (x1, y1))]
            mapped.append((min(xs), min(ys), max(xs), max(ys)))
        return mapped

    # ================================================================================ rendering
    def _schedule(self) -> None:
        """Coalesce the many scroll/zoom/resize events of one event-loop pass into one request.
        While the view flings by a screen or more per event, pages would be gone before they are
        rendered: the request waits until the scrolling slows (what is on screen meanwhile shows
        its preview or placeholder), so the CPU is not spent on pages nobody sees."""
        if self._flinging():
            self._schedule_timer.start(FLING_SETTLE_MS)
        elif not self._schedule_timer.isActive():
            self._schedule_timer.start(0)

    def _flinging(self) -> bool:
        return time.perf_counter() - self._last_big_jump < FLING_SETTLE_MS / 1000.0 and self._big_jumps > 1

    def _visible_area_pt(self, index: int, band: tuple[float, float], left: float, right: float):
        rect = self._layout.page_rect(index)
        x0, x1 = max(rect.x, left), min(rect.right, right)
        y0, y1 = max(rect.y, band[0]), min(rect.bottom, band[1])
        if x1 <= x0 or y1 <= y0:
            return None
        zoom = self._layout.zoom
        return ((x0 - rect.x) / zoom, (y0 - rect.y) / zoom, (x1 - rect.x) / zoom, (y1 - rect.y) / zoom)

    def _needed_tiles(self, index: int, band: tuple[float, float] | None = None) -> list[tiles.Tile]:
        if band is None:
            band = self._visible_band()
        left = float(self.horizontalScrollBar().value())
        area = self._visible_area_pt(index, band, left, left + self.viewport().width())
        if area is None:
            return []
        return tiles.tiles_in(index, self._layout.page_size(index), self.render_scale(), area)

    def _schedule_work(self) -> None:
        if self._state != STATE_OPEN or self._worker is None:
            return
        dpr = self.viewport().devicePixelRatioF()
        self._scheduled_scale = tiles.scale_key(self.render_scale())
        top, bottom = self._visible_band()
        height = bottom - top
        centre = (top + bottom) / 2
        visible_pages = sorted(self._layout.pages_between(top, bottom),
                               key=lambda i: abs(self._layout.page_rect(i).y + self._layout.page_rect(i).height / 2 - centre))
        visible: list[RenderRequest] = []
        on_screen: set[tiles.TileKey] = set()
        for index in visible_pages:
            if index in self._failed_pages:
                continue
            for tile in self._needed_tiles(index, (top, bottom)):
                on_screen.add(tile.key)
                if tile.key not in self._tiles:
                    visible.append(RenderRequest(tile, dpr, index not in self._previews))
        self._tiles.pinned = on_screen
        prefetch: list[RenderRequest] = []
        bands = ((bottom, bottom + height * PREFETCH_SCREENS_BELOW), (top - height * PREFETCH_SCREENS_ABOVE, top))
        for band in bands:
            for index in self._layout.pages_between(max(0.0, band[0]), band[1]):
                if index in self._failed_pages or index in visible_pages:
                    continue
                for tile in self._needed_tiles(index, band):
                    if tile.key not in self._tiles and len(prefetch) < MAX_PREFETCH_TILES:
                        prefetch.append(RenderRequest(tile, dpr, index not in self._previews))
        self._worker.set_renders(visible, prefetch)
        self._request_page_info([i for i in visible_pages if i not in self._page_info])

    def _request_page_info(self, indices: list[int]) -> None:
        if self._worker is not None and indices:
            self._worker.request_page_info(indices)

    # ================================================================================ Qt events
    def scrollContentsBy(self, dx: int, dy: int) -> None:
        now = time.perf_counter()
        if abs(dy) >= self.viewport().height() * 0.5:
            recent = now - self._last_big_jump < FLING_SETTLE_MS / 1000.0
            self._big_jumps = self._big_jumps + 1 if recent else 1
            self._last_big_jump = now
        self.viewport().update()
        self._after_scroll()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._zoom_mode in (ZOOM_FIT_WIDTH, ZOOM_FIT_PAGE):
            self._apply_zoom_mode()
        else:
            self._update_scrollbars()
        self._place_find_bar()
        self._after_scroll()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            notches = event.angleDelta().y() / 120.0
            if notches:
                self._zoom_mode = ZOOM_CUSTOM
                self._set_zoom(self.zoom * WHEEL_ZOOM_BASE ** notches, event.position())
            event.accept()
            return
        super().wheelEvent(event)

    # ================================================================================ history & find
    def _record_history(self) -> None:
        if self._state == STATE_OPEN:
            self._history.record(self._position())
            self._emit_history()

    def _emit_history(self) -> None:
        self.historyChanged.emit(self._history.can_go_back, self._history.can_go_forward)

    def _find_step(self, direction: int) -> None:
        if not self._find.needle:
            return
        self._find.step(direction, self._current)
        self._show_find_current()
        self._emit_find()

    def _show_find_current(self) -> None:
        rect = self._find.current_rect()
        if rect is not None and self._find.current is not None:
            self._scroll_to_rect(self._find.current[0], rect)
        self.viewport().update()

    def _emit_find(self) -> None:
        self.findChanged.emit(*self.find_status())

    def _find_bar_widget(self):
        if self._find_bar is None:
            from pdfdesk.gui.viewer.find_bar import FindBar
            self._find_bar = FindBar(self)
            self._place_find_bar()
        return self._find_bar

    def _place_find_bar(self) -> None:
        if self._find_bar is not None:
            self._find_bar.place()

    # ================================================================================ teardown
    def _retire_worker(self) -> None:
        if self._worker is not None:
            render_queue.retire(self._worker)

    def _discard_document(self) -> None:
        if self._worker is not None:
            render_queue.retire(self._worker)
            self._worker = None
            self._worker_box[0] = None
        self._document = None
        self._tiles.clear()
        self._previews.clear()
        self._failed_pages.clear()
        self._matrices.clear()
        self._geometry_known = 0
        self._rescroll_page = None
        self._page_info.clear()
        self._highlights = None
        self._find = FindResults()
        self._selection.clear()
        self._selection_text = ""
        self._history.clear()
        self._pending_goto = None
        self._current = 0
        zoom = self._layout.zoom
        self._layout = PageLayout()
        self._layout.zoom = zoom
        if self._find_bar is not None:
            self._find_bar.hide()
