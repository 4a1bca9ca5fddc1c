"""Where a DocumentView is scrolled to: scroll bars, the current page, zoom around an anchor and
the fit modes. When the model announces a relayout (zoom, or real page sizes replacing stand-ins)
the view remembers the page point it showed and shows it again afterwards."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF

from pdfdesk.gui.viewer.history import Position
from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.gui.viewer.layout import MARGIN
from pdfdesk.gui.viewer.page_data import Rect
from pdfdesk.gui.viewer.zoom import ZOOM_CUSTOM, ZOOM_FIT_WIDTH, step_zoom

Anchor = tuple[int, float, float, float, float]  # page, x_pt, y_pt, viewport x, viewport y


class ViewGeometry(ViewHost):
    """Mixin of DocumentView (uses `self.model`)."""

    def _init_geometry(self) -> None:
        self._zoom_anchor: QPointF | None = None  # where the next zoom keeps its point
        self._anchor: Anchor | None = None  # what to show again after a relayout

    def _visible_band(self) -> tuple[float, float]:
        top = float(self.verticalScrollBar().value())
        return top, top + self.viewport().height()

    def _update_scrollbars(self) -> None:
        layout = self.model.layout
        layout.set_viewport_width(self.viewport().width())
        vbar, hbar = self.verticalScrollBar(), self.horizontalScrollBar()
        if not self.model.is_open:
            vbar.setRange(0, 0)
            hbar.setRange(0, 0)
            return
        width, height = layout.document_size()
        view_w, view_h = self.viewport().width(), self.viewport().height()
        vbar.setRange(0, max(0, math.ceil(height - view_h)))
        vbar.setPageStep(max(1, view_h))
        hbar.setRange(0, max(0, math.ceil(width - view_w)))
        hbar.setPageStep(max(1, view_w))

    def _position(self) -> Position:
        """The viewport's top-left as a point relative to the current page (for history, and to
        keep the place when the layout changes)."""
        if not self.model.is_open or not self.model.layout.page_count:
            return Position(0, 0.0, 0.0)
        left, top = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
        index = self.model.current  # relative to the current page (the point may lie above or below it)
        x_pt, y_pt = self.model.layout.page_point(index, left, top)
        return Position(index, x_pt, y_pt)

    def _scroll_to_position(self, position: Position, keep_x: bool = False) -> None:
        if not self.model.is_open:
            return
        index = min(max(0, position.page), self.page_count - 1)
        x, y = self.model.layout.strip_point(index, position.x_pt, position.y_pt)
        if not keep_x:
            self.horizontalScrollBar().setValue(round(x))
        self.verticalScrollBar().setValue(round(y))
        self._after_scroll()

    def _show_position(self, position: Position) -> None:
        """Go back (or forward) to a place from the history."""
        self._scroll_to_position(position)
        self.model.set_current(position.page)
        self.viewport().update()

    def _scroll_to_rect(self, index: int, rect: Rect) -> None:
        """Bring a rect of page `index` into view: left alone if fully visible, else a quarter down."""
        layout = self.model.layout
        x0, y0 = layout.strip_point(index, rect[0], rect[1])
        x1, y1 = layout.strip_point(index, rect[2], rect[3])
        vbar, hbar = self.verticalScrollBar(), self.horizontalScrollBar()
        view_w, view_h = self.viewport().width(), self.viewport().height()
        if not (vbar.value() <= y0 and y1 <= vbar.value() + view_h):
            vbar.setValue(round(y0 - view_h / 4))
        if not (hbar.value() <= x0 and x1 <= hbar.value() + view_w):
            hbar.setValue(round(x0 - min(view_w / 4, max(0.0, (view_w - (x1 - x0)) / 2))))
        self._after_scroll()

    # --- zoom ----------------------------------------------------------------------------------------
    def _zoom_to(self, factor: float, mode: str, anchor: QPointF | None = None) -> None:
        """Zoom keeping the page point under `anchor` (default: the viewport's centre) in place."""
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        self._zoom_anchor = anchor
        before = self.model.zoom
        try:
            self.model.set_zoom(factor, mode)
        finally:
            self._zoom_anchor = None
        if self.model.zoom == before and self.model.is_open:  # same zoom, maybe a new viewport size
            self._update_scrollbars()
            self._after_scroll()
            self.viewport().update()

    def _zoom_step(self, direction: int) -> None:
        self._zoom_to(step_zoom(self.zoom, direction), ZOOM_CUSTOM)

    def _remember_anchor(self) -> None:
        if not self.model.is_open:
            self._anchor = None
            return
        if self._zoom_anchor is None:  # page sizes arrived: keep the top-left of the current page
            position = self._position()
            self._anchor = (position.page, position.x_pt, position.y_pt, 0.0, 0.0)
            return
        ax, ay = self._zoom_anchor.x(), self._zoom_anchor.y()
        left, top = self.horizontalScrollBar().value(), self.verticalScrollBar().value()
        index = self.model.layout.page_at(top + ay)
        x_pt, y_pt = self.model.layout.page_point(index, left + ax, top + ay)
        self._anchor = (index, x_pt, y_pt, ax, ay)

    def _restore_anchor(self) -> None:
        anchor, self._anchor = self._anchor, None
        if anchor is None or not self.model.is_open:
            return
        index, x_pt, y_pt, ax, ay = anchor
        self._update_scrollbars()
        x, y = self.model.layout.strip_point(index, x_pt, y_pt)
        self.horizontalScrollBar().setValue(round(x - ax))
        self.verticalScrollBar().setValue(round(y - ay))
        self._after_scroll()
        self.viewport().update()

    def _apply_zoom_mode(self, anchor: bool = True) -> None:
        """Work out the zoom of a fit mode from the viewport's size."""
        mode = self.model.zoom_mode
        is_open = self.model.is_open
        view_w, view_h = self.viewport().width(), self.viewport().height()
        if mode == ZOOM_CUSTOM or view_w < 50 or view_h < 50:
            if is_open:
                self._update_scrollbars()
            return
        layout = self.model.layout
        page = self.model.current if is_open else 0
        if mode == ZOOM_FIT_WIDTH:
            # the vertical bar is always shown, so fitting the width never makes it appear
            factor = layout.fit_width_zoom(page, view_w)
        else:
            factor = layout.fit_page_zoom(page, view_w, view_h)
        if mode != ZOOM_FIT_WIDTH and is_open and anchor:
            self._zoom_to(factor, mode, QPointF(view_w / 2, 0))
            self._scroll_to_position(Position(self.model.current, 0.0, -MARGIN / 2 / self.zoom), keep_x=True)
        else:
            self._zoom_to(factor, mode, QPointF(view_w / 2, 0) if anchor else None)

    # --- the current page ----------------------------------------------------------------------------
    def _after_scroll(self) -> None:
        self._update_current_page()
        self._schedule()

    def _update_current_page(self) -> None:
        if not self.model.is_open:
            return
        layout = self.model.layout
        top, bottom = self._visible_band()
        best, best_height = self.model.current, -1.0
        for index in layout.pages_between(top, bottom):
            rect = layout.page_rect(index)
            height = min(bottom, rect.bottom) - max(top, rect.y)
            if height > best_height + 0.5:
                best, best_height = index, height
        self.model.set_current(best)

    def _layout_opened(self, _page_count: int) -> None:
        """A document opened: fit it, show its top."""
        self._apply_zoom_mode(anchor=False)
        self._update_scrollbars()
        self.verticalScrollBar().setValue(0)
