"""The area tool of a DocumentView: drag a rectangle on a page to annotate that region.

It needs no text, so it is how a scanned (image-only) page, a figure or a table gets a note. While
it is on, the cursor is a cross and a drag draws a rectangle instead of selecting text; the
rectangle stays on the page it started on. Esc (or toggling the tool) leaves it and drops a drag
in progress. The rectangle is sent in unrotated page points, as the tools store rects.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPen

from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.gui.viewer.page_data import Rect
from pdfdesk.review.records import DEFAULT_COLOR

MIN_AREA_PX = 4.0  # a smaller drag is a slip of the hand, not an area
RUBBER_BAND = QColor(0x1A, 0x5F, 0xD0)


class AreaTool(ViewHost):
    """Mixin of DocumentView, placed before the pointer mixin so it sees the mouse first."""

    def _init_area_tool(self) -> None:
        self._area_tool = False
        self._area_drag: tuple[int, float, float, float, float] | None = None  # page, displayed x0 y0 x1 y1

    def set_area_tool(self, on: bool) -> None:
        """Turn the area tool on or off (off also drops a rectangle being dragged)."""
        on = bool(on)
        self._cancel_area_drag()
        if on == self._area_tool:
            return
        self._area_tool = on
        self.viewport().setCursor(Qt.CursorShape.CrossCursor if on else Qt.CursorShape.ArrowCursor)
        self.areaToolChanged.emit(on)

    def area_tool_active(self) -> bool:
        return self._area_tool

    def _cancel_area_drag(self) -> None:
        if self._area_drag is not None:
            self._area_drag = None
            self.viewport().update()

    def _clamped(self, index: int, x: float, y: float) -> tuple[float, float]:
        width, height = self.model.layout.page_size(index)
        return min(max(0.0, x), width), min(max(0.0, y), height)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if not self._area_tool or event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        hit = self._hit(event.position())
        if hit is None:
            return
        index = hit[0]
        x, y = self._clamped(index, hit[1], hit[2])
        self._area_drag = (index, x, y, x, y)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if not self._area_tool:
            super().mouseMoveEvent(event)
            return
        if self._area_drag is None or not event.buttons() & Qt.MouseButton.LeftButton:
            self._update_cursor(None)
            return
        index, x0, y0, _x1, _y1 = self._area_drag
        x, y = self.model.layout.page_point(index, event.position().x() + self.horizontalScrollBar().value(),
                                            event.position().y() + self.verticalScrollBar().value())
        x, y = self._clamped(index, x, y)
        self._area_drag = (index, x0, y0, x, y)
        self.viewport().update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if not self._area_tool or event.button() != Qt.MouseButton.LeftButton:
            super().mouseReleaseEvent(event)
            return
        drag, self._area_drag = self._area_drag, None
        if drag is None:
            return
        index, x0, y0, x1, y1 = drag
        shown: Rect = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        zoom = self.model.layout.zoom
        self.viewport().update()
        if (shown[2] - shown[0]) * zoom < MIN_AREA_PX or (shown[3] - shown[1]) * zoom < MIN_AREA_PX:
            return
        rect = self.model.unrotated_rects(index, [shown])[0]
        self.annotateRequested.emit(self._add_pending("area", index, "", [rect], DEFAULT_COLOR))

    def _paint_area_drag(self, painter: QPainter, index: int, target: QRectF) -> None:
        drag = self._area_drag
        if drag is None or drag[0] != index:
            return
        _index, x0, y0, x1, y1 = drag
        box = self._page_to_viewport(target, (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
        painter.save()
        wash = QColor(RUBBER_BAND)
        wash.setAlpha(40)
        painter.setBrush(wash)
        painter.setPen(QPen(RUBBER_BAND, 1.5, Qt.PenStyle.DashLine))
        painter.drawRect(box)
        painter.restore()
