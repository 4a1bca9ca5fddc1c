"""DocumentState: what a viewer knows about its open document, apart from how it is painted.

Pages and their sizes (the layout), the current page, zoom and zoom mode, selection, find hits,
search highlights and the back/forward history live here, and every change is announced by a
signal. The view observes this model and paints it; the worker's answers and the user's commands
both end up as calls on it, so it can be driven and tested without any widget.

Changes of the layout come as `layoutAboutToChange` then `layoutChanged` (the way Qt's item models
announce a relayout), so a view can remember which point of which page it showed and show it
again after the pages moved.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QObject, Signal

from pdfdesk.core.errors import PASSWORD_REQUIRED, WRONG_PASSWORD
from pdfdesk.core.lru import LRU
from pdfdesk.gui.viewer.annotation_layer import AnnotationLayer
from pdfdesk.gui.viewer.find import FindResults
from pdfdesk.gui.viewer.history import NavigationHistory, Position
from pdfdesk.gui.viewer.layout import PageLayout
from pdfdesk.gui.viewer.opening import OpenedDocument
from pdfdesk.gui.viewer.page_data import Link, PageWords, Rect
from pdfdesk.gui.viewer.render_jobs import PageGeometry
from pdfdesk.gui.viewer.selection import SelectionEnd, TextSelection
from pdfdesk.gui.viewer.states import (
    STATE_EMPTY,
    STATE_FAILED,
    STATE_OPEN,
    STATE_OPENING,
    STATE_PASSWORD,
)
from pdfdesk.gui.viewer.zoom import (
    ZOOM_CUSTOM,
    ZOOM_FIT_WIDTH,
    ZOOM_MODES,
    clamp_zoom,
    step_zoom,
)

PAGE_INFO_PAGES = 120  # pages whose words and links are kept (selections longer than this lose pages)


class DocumentState(QObject):
    """The observable model of one viewer's document."""

    documentOpened = Signal(int)  # page count
    documentClosed = Signal()
    failed = Signal(dict)  # the open failed (not for a password)
    passwordRequired = Signal(bool)  # True when a password was given and was wrong
    layoutAboutToChange = Signal()
    layoutChanged = Signal()
    pageSizesChanged = Signal()
    zoomChanged = Signal(float)
    zoomModeChanged = Signal(str)
    currentPageChanged = Signal(int)  # 1-based
    historyChanged = Signal(bool, bool)  # can go back, can go forward
    positionRequested = Signal(object)  # a Position to show (back/forward)
    selectionChanged = Signal(str)
    findChanged = Signal(int, int, bool)  # current hit (1-based, 0 = none), hits so far, finished
    findRequested = Signal(int, str, int)  # generation, needle ("" = stop), first page to search
    findCurrentChanged = Signal()  # the current find hit moved: show it
    overlaysChanged = Signal()  # highlights, find hits or the selection changed: repaint

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.status = STATE_EMPTY
        self.reference: str | None = None
        self.document: OpenedDocument | None = None
        self.message: tuple[str, str, str] | None = None  # title, text, hint shown in place
        self.error: dict | None = None
        self.layout = PageLayout()
        self.zoom_mode = ZOOM_FIT_WIDTH
        self.current = 0  # 0-based
        self.history = NavigationHistory()
        self.find = FindResults()
        self.find_start = 0
        self._find_generation = 0
        self.highlights: tuple[int, list[Rect]] | None = None  # 0-based page, unrotated rects
        self.selection = TextSelection()
        self.selection_text = ""
        self.page_info: LRU[int, tuple[PageWords, list[Link]]] = LRU(PAGE_INFO_PAGES)
        self.failed_pages: dict[int, str] = {}
        self.matrices: dict[int, tuple[float, ...]] = {}
        self.geometry_known = 0  # pages 0.. below this have their real size and rotation
        self.annotations = AnnotationLayer(self)  # review annotations (emptied with the document)
        self.awaiting: frozenset[int] = frozenset()  # scanned pages (0-based) waiting for recognition
        self._awaiting_known = False

    # --- the document ----------------------------------------------------------------------------
    @property
    def is_open(self) -> bool:
        return self.status == STATE_OPEN

    @property
    def page_count(self) -> int:
        return self.layout.page_count if self.is_open else 0

    @property
    def current_page(self) -> int:
        """1-based page most visible (0 when no document is open)."""
        return self.current + 1 if self.is_open else 0

    def begin_open(self, reference: str) -> None:
        """Forget the previous document; `reference` is being opened."""
        self.reset()
        self.reference = reference
        self.status = STATE_OPENING

    def opened(self, document: OpenedDocument) -> None:
        """The document is open: every page takes the first page's size until its own is known."""
        self.document = document
        self.status = STATE_OPEN
        self.layout.reset(document.page_count, document.first_size)
        self.current = 0
        # Page 1 is announced before the opening: a listener of documentOpened may move the view
        # at once (a remembered place), and its page must be the last one announced.
        self.currentPageChanged.emit(1)
        self.documentOpened.emit(document.page_count)

    def open_failed(self, details: dict) -> None:
        """The open ended in an error (a password prompt for encrypted files)."""
        self.error = details
        code = details.get("error")
        if code in (PASSWORD_REQUIRED, WRONG_PASSWORD):
            wrong = code == WRONG_PASSWORD
            self.status = STATE_PASSWORD
            self.message = ("Password required" if not wrong else "Wrong password", details.get("message", ""),
                            "Enter the document's password to open it.")
            self.passwordRequired.emit(wrong)
            return
        if self.is_open:  # an unexpected failure after opening: keep showing pages
            return
        self.status = STATE_FAILED
        self.message = ("This document cannot be opened", details.get("message", ""), details.get("hint", ""))
        self.failed.emit(details)

    def close(self) -> None:
        had = self.status != STATE_EMPTY
        self.reset()
        self.reference = None
        if had:
            self.documentClosed.emit()

    def reset(self) -> None:
        """Nothing open; the zoom and its mode stay for the next document."""
        self.status = STATE_EMPTY
        self.document = None
        self.message = None
        self.error = None
        self.failed_pages.clear()
        self.matrices.clear()
        self.geometry_known = 0
        self.page_info.clear()
        self.highlights = None
        self.find = FindResults()
        self.selection.clear()
        self.selection_text = ""
        self.history.clear()
        self.current = 0
        self.annotations.clear()
        self.awaiting, self._awaiting_known = frozenset(), False
        zoom = self.layout.zoom
        self.layout = PageLayout()
        self.layout.zoom = zoom

    def set_geometry(self, first: int, geometries: list[PageGeometry]) -> bool:
        """Real sizes and rotations of pages first..; True when pages moved."""
        for offset, geometry in enumerate(geometries):
            if geometry.matrix is not None:
                self.matrices[first + offset] = geometry.matrix
        self.geometry_known = max(self.geometry_known, first + len(geometries))
        self.layoutAboutToChange.emit()
        changed = self.layout.set_sizes(first, [(g.width, g.height) for g in geometries])
        if changed:
            self.layoutChanged.emit()
            self.pageSizesChanged.emit()
        return changed

    def display_rects(self, index: int, rects: list[Rect]) -> list[Rect]:
        """Rects in unrotated page space (as MuPDF text search gives them) -> displayed space."""
        matrix = self.matrices.get(index)
        return rects if matrix is None else _map_rects(matrix, rects)

    def unrotated_rects(self, index: int, rects: list[Rect]) -> list[Rect]:
        """Displayed space -> unrotated page space (what the tools store): display_rects undone."""
        matrix = self.matrices.get(index)
        if matrix is None:
            return rects
        a, b, c, d, e, f = matrix
        det = a * d - b * c
        if not det:
            return rects
        return _map_rects((d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det),
                          rects)

    # --- zoom and the current page ---------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self.layout.zoom

    def set_zoom(self, factor: float, mode: str = ZOOM_CUSTOM) -> None:
        """Zoom to `factor` (clamped); `mode` says whether it was chosen or follows a fit mode."""
        self.zoom_mode = mode
        factor = clamp_zoom(factor)
        if factor == self.layout.zoom:
            return
        self.layoutAboutToChange.emit()
        self.layout.set_zoom(factor)
        self.layoutChanged.emit()
        self.zoomChanged.emit(self.layout.zoom)

    def zoom_in(self) -> None:
        self.set_zoom(step_zoom(self.zoom, +1))

    def zoom_out(self) -> None:
        self.set_zoom(step_zoom(self.zoom, -1))

    def set_zoom_mode(self, mode: str) -> None:
        """Follow a fit mode; the view works out the factor from its size."""
        if mode not in ZOOM_MODES:
            raise ValueError(f"unknown zoom mode {mode!r}")
        self.zoom_mode = mode
        self.zoomModeChanged.emit(mode)

    def set_current(self, index: int) -> None:
        if index != self.current:
            self.current = index
            self.currentPageChanged.emit(index + 1)

    # --- history ------------------------------------------------------------------------------------
    def record(self, here: Position) -> None:
        """Remember `here` before a jump (search hit, link, go to page)."""
        if self.is_open:
            self.history.record(here)
            self._emit_history()

    def back(self, here: Position) -> Position | None:
        return self._go(self.history.back(here))

    def forward(self, here: Position) -> Position | None:
        return self._go(self.history.forward(here))

    def _go(self, target: Position | None) -> Position | None:
        if target is not None:
            self.positionRequested.emit(target)
        self._emit_history()
        return target

    def _emit_history(self) -> None:
        self.historyChanged.emit(self.history.can_go_back, self.history.can_go_forward)

    # --- highlights and selection -------------------------------------------------------------------
    def set_highlights(self, index: int | None, rects: Sequence[Rect] = ()) -> None:
        """Highlight `rects` on page `index` (0-based); None clears."""
        self.highlights = None if index is None else (index, list(rects))
        self.overlaysChanged.emit()

    def words_of(self, index: int) -> PageWords | None:
        info = self.page_info.peek(index)
        return info[0] if info is not None else None

    def links_of(self, index: int) -> list[Link]:
        info = self.page_info.peek(index)
        return info[1] if info is not None else []

    def set_page_info(self, index: int, words: PageWords, links: list[Link]) -> None:
        """Words and links of a page arrived (the most recent PAGE_INFO_PAGES are kept)."""
        self.page_info.put(index, (words, links))
        if self.selection.active and index in self.selection.pages():
            self.selection_updated()

    def set_awaiting(self, pages: Iterable[int]) -> list[int]:
        """The scanned pages (0-based) still waiting for recognition, as indexing last reported
        them. Pages whose words were read as none and that no longer wait (recognised since) are
        forgotten, to be read again; returns them."""
        awaiting = frozenset(pages)
        if awaiting == self.awaiting and self._awaiting_known:
            return []
        self.awaiting, self._awaiting_known = awaiting, True
        stale = [index for index, (words, _links) in self.page_info.items() if not len(words) and index not in awaiting]
        for index in stale:
            self.page_info.pop(index)
        self.overlaysChanged.emit()
        return stale

    def selected_text(self) -> str:
        return self.selection.text(self.words_of) if self.selection.active else ""

    def select(self, start: SelectionEnd, end: SelectionEnd, word_mode: bool = False) -> None:
        self.selection.start(start, word_mode=word_mode)
        self.selection.extend(end)
        self.selection_updated()

    def clear_selection(self) -> None:
        if self.selection.active:
            self.selection.clear()
            self.selection_updated()

    def selection_updated(self) -> None:
        """The selection's ends moved: repaint, and announce the text when it changed."""
        text = self.selected_text()
        self.overlaysChanged.emit()
        if text != self.selection_text:
            self.selection_text = text
            self.selectionChanged.emit(text)

    # --- find ----------------------------------------------------------------------------------------
    def start_find(self, text: str) -> None:
        """Search every page for `text`, the current page first ("" ends the search)."""
        self._find_generation += 1
        self.find = FindResults(text, self._find_generation)
        self.find_start = self.current
        self.findRequested.emit(self._find_generation, text if self.is_open else "", self.current)
        self._emit_find()
        self.overlaysChanged.emit()

    def add_find_hits(self, generation: int, hits: dict[int, list[Rect]], searched: int, total: int) -> bool:
        """A batch of hits from the worker; False when it belongs to an older search."""
        if generation != self._find_generation:
            return False
        self.find.add(hits, searched, total)
        if self.find.current is None and self.find.count():
            self.find.current = self.find.first_from(self.find_start)
            self.findCurrentChanged.emit()
        self._emit_find()
        return True

    def find_step(self, direction: int) -> None:
        """Make the next (direction > 0) or previous hit current, wrapping around."""
        if not self.find.needle:
            return
        self.find.step(direction, self.current)
        self.findCurrentChanged.emit()
        self._emit_find()

    def find_status(self) -> tuple[int, int, bool]:
        """(current hit 1-based or 0, hits found so far, search finished)."""
        return self.find.current_number(), self.find.count(), self.find.done or not self.find.needle

    def _emit_find(self) -> None:
        self.findChanged.emit(*self.find_status())


def _map_rects(matrix: tuple[float, ...], rects: list[Rect]) -> list[Rect]:
    """Each rect's corners through an affine matrix, as the axis-aligned box around them."""
    a, b, c, d, e, f = matrix
    mapped = []
    for x0, y0, x1, y1 in rects:
        xs = [a * x + c * y + e for x, y in ((x0, y0), (x1, y1))]
        ys = [b * x + d * y + f for x, y in ((x0, y0), (x1, y1))]
        mapped.append((min(xs), min(ys), max(xs), max(ys)))
    return mapped
