"""DocumentView: one open PDF as a continuous, zoomable strip of pages. The window and the view
actions type against `contract.PageView`, so tests can give them a lighter stand-in.

The document's state — pages, sizes, current page, zoom, selection, find hits, history — is a
`DocumentState` (`self.model`); the view observes it and paints. Everything MuPDF does happens in
the document's worker (`render_queue`; pixels in the render helper process on POSIX once it is up,
otherwise in the worker's own thread), which the view asks for what the render policy says is
needed after every scroll or zoom. This module holds the public API and the wiring; geometry
(`view_geometry`), the worker's answers and what to render (`view_rendering`), painting
(`view_painting`), keys (`keyboard`), the mouse (`pointer`) and review annotations
(`annotation_tools`, `area_tool`, `context_menu`) and tables (`table_tools`) are mixins.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QImage, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QWidget

from pdfdesk.core.references import PdfSource
from pdfdesk.gui.viewer import memory, render_process, tiles
from pdfdesk.gui.viewer.annotation_tools import AnnotationTools
from pdfdesk.gui.viewer.area_tool import AreaTool
from pdfdesk.gui.viewer.cache import DEFAULT_BUDGET_BYTES, ByteBudgetCache
from pdfdesk.gui.viewer.context_menu import ContextMenu
from pdfdesk.gui.viewer.find_bar import FindBar
from pdfdesk.gui.viewer.history import Position
from pdfdesk.gui.viewer.keyboard import KeyboardCommands
from pdfdesk.gui.viewer.layout import MARGIN
from pdfdesk.gui.viewer.page_data import Rect
from pdfdesk.gui.viewer.pointer import PointerInteraction
from pdfdesk.gui.viewer.render_queue import DocumentWorker
from pdfdesk.gui.viewer.selection import SelectionEnd
from pdfdesk.gui.viewer.state import DocumentState
from pdfdesk.gui.viewer.table_tools import TableTools
from pdfdesk.gui.viewer.view_geometry import ViewGeometry
from pdfdesk.gui.viewer.view_painting import PagePainting
from pdfdesk.gui.viewer.view_rendering import ViewRendering, retire_boxed
from pdfdesk.gui.viewer.zoom import (
    ZOOM_CUSTOM,
    ZOOM_FIT_PAGE,
    ZOOM_FIT_WIDTH,
    wheel_zoom,
)

PREVIEW_BUDGET_BYTES = 16 * 1024 * 1024  # ~150 page previews (160 px wide)


def _image_bytes(image: QImage) -> int:
    return image.sizeInBytes()


def _float_rect(rect: Sequence[float]) -> Rect:
    return float(rect[0]), float(rect[1]), float(rect[2]), float(rect[3])


class DocumentView(ContextMenu, AreaTool, TableTools, AnnotationTools, PagePainting, KeyboardCommands,
                   PointerInteraction, ViewRendering, ViewGeometry, QAbstractScrollArea):
    """A PDF shown as a continuous vertical strip of pages."""

    documentOpened = Signal(int)  # page count
    openFailed = Signal(dict)  # {"error", "message", "hint", ...}
    passwordRequired = Signal(bool)  # True when a password was given and was wrong
    currentPageChanged = Signal(int)  # 1-based
    zoomChanged = Signal(float)
    historyChanged = Signal(bool, bool)  # can go back, can go forward
    # beyond PageView: for the document tab, the review controller, the self-test and the panels
    firstPagePainted = Signal()
    selectionChanged = Signal(str)
    annotateRequested = Signal(dict)  # pending_id, kind, page, quote, rects, color: store it
    annotationClicked = Signal(str)  # id of the annotation clicked (now the selected one)
    annotationActivated = Signal(str)  # id double-clicked: open its editor
    annotationEditRequested = Signal(str)
    annotationDeleteRequested = Signal(str)
    areaToolChanged = Signal(bool)  # the area tool was turned on or off (menus keep a check mark)
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
        self.model = DocumentState(self)
        self._worker: DocumentWorker | None = None
        self._tiles: ByteBudgetCache[tiles.TileKey, QImage] = ByteBudgetCache(
            _image_bytes, lambda key: key.page, cache_budget)
        self._previews: ByteBudgetCache[int, QImage] = ByteBudgetCache(_image_bytes, int, PREVIEW_BUDGET_BYTES)
        self._pending_goto: tuple[int, list[Rect], bool] | None = None
        self._first_painted = False
        self.open_started_at: float | None = None
        self.first_painted_at: float | None = None
        self._press: tuple[QPointF, int, float, float] | None = None  # viewport pos, page, x_pt, y_pt
        self._press_link = None
        self._dragging = False
        self._find_bar: FindBar | None = None
        self._init_geometry()
        self._init_rendering()
        self._init_area_tool()
        # The worker must be stopped even if the view is deleted without close_document(); the
        # destroyed signal fires when `self` can no longer be used, so it gets a box, not self.
        self._worker_box: list[DocumentWorker | None] = [None]
        self.destroyed.connect(functools.partial(retire_boxed, self._worker_box))
        self._autoscroll = QTimer(self)
        self._autoscroll.setInterval(30)
        self._autoscroll.timeout.connect(self._autoscroll_step)
        self._autoscroll_delta = 0
        self._observe(self.model)
        self._init_annotations()
        self._init_tables()

    def _observe(self, model: DocumentState) -> None:
        """Paint what the model says; pass its news on as the view's signals (after the view has
        caught up, so a listener reading the view sees the new state)."""
        update = self.viewport().update
        model.documentOpened.connect(self._layout_opened)
        model.documentOpened.connect(self.documentOpened)
        model.failed.connect(self._open_ended)
        model.failed.connect(self.openFailed)
        model.passwordRequired.connect(self._open_ended)
        model.passwordRequired.connect(self.passwordRequired)
        model.documentClosed.connect(self.documentClosed)
        model.layoutAboutToChange.connect(self._remember_anchor)
        model.layoutChanged.connect(self._restore_anchor)
        model.pageSizesChanged.connect(self.pageSizesChanged)
        model.zoomChanged.connect(self.zoomChanged)
        model.zoomModeChanged.connect(lambda _mode: self._apply_zoom_mode())
        model.currentPageChanged.connect(self.currentPageChanged)
        model.historyChanged.connect(self.historyChanged)
        model.positionRequested.connect(self._show_position)
        model.selectionChanged.connect(self.selectionChanged)
        model.findChanged.connect(self.findChanged)
        model.findRequested.connect(self._start_find)
        model.findCurrentChanged.connect(self._show_find_current)
        model.overlaysChanged.connect(update)

    # ================================================================================ public API
    @property
    def reference(self) -> str | None:
        return self.model.reference

    @property
    def page_count(self) -> int:
        return self.model.page_count

    @property
    def current_page(self) -> int:
        """1-based page most visible (0 when no document is open)."""
        return self.model.current_page

    @property
    def zoom(self) -> float:
        return self.model.zoom

    @property
    def zoom_mode(self) -> str:
        return self.model.zoom_mode

    @property
    def state(self) -> str:
        """"empty", "opening", "open", "password" (waiting for one) or "failed"."""
        return self.model.status

    @property
    def error(self) -> dict | None:
        """The details of the last open failure (shown in place), else None."""
        return self.model.error

    @property
    def source(self) -> PdfSource | None:
        """The resolved source once open (for indexing the same file)."""
        return self.model.document.source if self.model.document else None

    @property
    def password(self) -> str | None:
        return self.model.document.password if self.model.document else None

    @property
    def title(self) -> str:
        if self.model.document is not None:
            return self.model.document.title
        return (self.model.reference or "").rsplit("/", 1)[-1]

    def open_document(self, reference: str, password: str | None = None) -> None:
        """Start opening `reference` in the worker; ends in documentOpened, openFailed or passwordRequired."""
        self._discard_document()
        self.model.begin_open(reference)
        self.open_started_at = time.perf_counter()
        self.first_painted_at = None
        self._first_painted = False
        self._start_worker(reference, password)
        self.viewport().update()

    def close_document(self) -> None:
        """Stop the worker, free the caches, show nothing."""
        self._discard_document()
        self.model.close()
        self._update_scrollbars()
        self.viewport().update()

    def go_to_page(self, page: int, rects: Sequence[tuple[float, float, float, float]] = (),
                   record: bool = True) -> None:
        """Show `page` (1-based), or its first rect, and highlight `rects` (PDF points, top-left
        origin, as pdf_search returns them) until the next highlight or clear."""
        rect_list = [_float_rect(r) for r in rects]
        if not self.model.is_open:
            self._pending_goto = (page, rect_list, record)  # applied once the document is open
            return
        index = min(max(1, int(page)), self.page_count) - 1
        if record:
            self.model.record(self._position())
        if rect_list:
            self.model.set_highlights(index, rect_list)
            self._scroll_to_rect(index, self.model.display_rects(index, rect_list)[0])
            # until the page's geometry is read its rotation is unknown: scroll again once it is
            self._rescroll_page = index if index >= self.model.geometry_known else None
        else:
            self._scroll_to_position(Position(index, 0.0, -MARGIN / 2 / self.zoom), keep_x=True)
        # The page asked for is the current one, even when a hit near its foot leaves the next
        # page taking more of the screen; the next scroll by the user recomputes it.
        self.model.set_current(index)
        self.viewport().update()

    def show_recognition(self, waiting: Iterable[int], fingerprint: str | None = None) -> None:
        """Indexing's news about the document's scanned pages: `waiting` (1-based) still wait for
        recognition and show a badge; the others' words are read again when they had none (the
        text the OCR stage recognised meanwhile), and a find that found nothing looks again.
        `fingerprint` spares the worker hashing the file."""
        if fingerprint and self._worker is not None:
            self._worker.set_fingerprint(fingerprint)
        if not self.model.is_open:
            return
        before = self.model.awaiting
        stale = self.model.set_awaiting(page - 1 for page in waiting)
        if stale:  # asked for now, so they come after any answer already on its way
            visible = set(self.model.layout.pages_between(*self._visible_band()))
            self._request_page_info([index for index in stale if index in visible])
        find = self.model.find
        if before - self.model.awaiting and find.needle and not find.count():
            self.model.start_find(find.needle)  # searched before the scans could be read: again

    def recognition_waiting(self) -> list[int]:
        """1-based pages shown as waiting for recognition."""
        return sorted(index + 1 for index in self.model.awaiting)

    def set_highlights(self, page: int, rects: Sequence[tuple[float, float, float, float]]) -> None:
        self.model.set_highlights(int(page) - 1, [_float_rect(r) for r in rects])

    def clear_highlights(self) -> None:
        self.model.set_highlights(None)

    def highlights(self) -> tuple[int, list[Rect]] | None:
        """(1-based page, rects) of the current highlight, for callers and tests."""
        highlights = self.model.highlights
        return None if highlights is None else (highlights[0] + 1, list(highlights[1]))

    def set_zoom(self, factor: float) -> None:
        self._zoom_to(factor, ZOOM_CUSTOM)

    def zoom_in(self) -> None:
        self._zoom_step(+1)

    def zoom_out(self) -> None:
        self._zoom_step(-1)

    def fit_width(self) -> None:
        self.model.set_zoom_mode(ZOOM_FIT_WIDTH)

    def fit_page(self) -> None:
        self.model.set_zoom_mode(ZOOM_FIT_PAGE)

    def set_zoom_mode(self, mode: str) -> None:
        self.model.set_zoom_mode(mode)

    def back(self) -> None:
        self.model.back(self._position())

    def forward(self) -> None:
        self.model.forward(self._position())

    @property
    def can_go_back(self) -> bool:
        return self.model.history.can_go_back

    @property
    def can_go_forward(self) -> bool:
        return self.model.history.can_go_forward

    def selected_text(self) -> str:
        return self.model.selected_text()

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
        index = (page - 1) if page else self.model.current
        if not 0 <= index < self.page_count:
            return
        self._request_page_info([index])
        self.model.select(SelectionEnd(index, -1e6, -1e6), SelectionEnd(index, 1e6, 1e6))

    def clear_selection(self) -> None:
        self.model.clear_selection()

    def show_find_bar(self) -> None:
        self.find_bar.open_bar()

    @property
    def find_bar(self) -> FindBar:
        """The view's FindBar (created on first use)."""
        if self._find_bar is None:
            self._find_bar = FindBar(self.model, self)
            self._place_find_bar()
        return self._find_bar

    # A text search; QWidget.find (a widget by its window id, a static lookup) is never wanted of a view.
    def find(self, text: str) -> None:  # type: ignore[override]
        """Search every page for `text` (current page first); hits are highlighted as they come."""
        self.model.start_find(text)

    def find_next(self) -> None:
        self.model.find_step(+1)

    def find_previous(self) -> None:
        self.model.find_step(-1)

    def clear_find(self) -> None:
        self.find("")

    def find_status(self) -> tuple[int, int, bool]:
        """(current hit 1-based or 0, hits found so far, search finished)."""
        return self.model.find_status()

    def find_hits(self, page: int) -> list[Rect]:
        """Find-bar hits on `page` (1-based), in displayed page points."""
        return list(self.model.find.hits_on(page - 1))

    # --- inspection (thumbnails, tests, bench) ------------------------------------------------------
    def page_size(self, page: int) -> tuple[float, float]:
        """Displayed size in points of `page` (1-based); the first page's until known."""
        return self.model.layout.page_size(page - 1)

    def visible_pages(self) -> list[int]:
        """1-based pages that intersect the viewport."""
        if not self.model.is_open:
            return []
        top = self.verticalScrollBar().value()
        return [i + 1 for i in self.model.layout.pages_between(top, top + self.viewport().height())]

    def render_scale(self) -> float:
        return self.zoom * self.viewport().devicePixelRatioF()

    def page_rect_in_viewport(self, page: int) -> QRectF:
        """Where `page` (1-based) is drawn, in viewport coordinates."""
        rect = self.model.layout.page_rect(page - 1)
        return QRectF(rect.x - self.horizontalScrollBar().value(), rect.y - self.verticalScrollBar().value(),
                      rect.width, rect.height)

    def viewport_point(self, page: int, x_pt: float, y_pt: float) -> QPointF:
        """Viewport position of a point on `page` (1-based) given in displayed page points."""
        x, y = self.model.layout.strip_point(page - 1, x_pt, y_pt)
        return QPointF(x - self.horizontalScrollBar().value(), y - self.verticalScrollBar().value())

    # ================================================================================ Qt events
    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self._note_jump(dy)
        self.viewport().update()
        self._after_scroll()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.zoom_mode in (ZOOM_FIT_WIDTH, ZOOM_FIT_PAGE):
            self._apply_zoom_mode()
        else:
            self._update_scrollbars()
        self._place_find_bar()
        self._after_scroll()

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            notches = event.angleDelta().y() / 120.0
            if notches:
                self._zoom_to(wheel_zoom(self.zoom, notches), ZOOM_CUSTOM, event.position())
            event.accept()
            return
        super().wheelEvent(event)

    # ================================================================================ find & teardown
    def _show_find_current(self) -> None:
        rect = self.model.find.current_rect()
        current = self.model.find.current
        if rect is not None and current is not None:
            self._scroll_to_rect(current[0], rect)
        self.viewport().update()

    def _place_find_bar(self) -> None:
        if self._find_bar is not None:
            self._find_bar.place(self.viewport().geometry())

    def _discard_document(self) -> None:
        self._retire_worker()
        self._reset_tables()
        self._tiles.clear()
        self._previews.clear()
        self._rescroll_page = None
        self._pending_goto = None
        if self._find_bar is not None:
            self._find_bar.hide()
