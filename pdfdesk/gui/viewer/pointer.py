"""Mouse handling of a DocumentView: clicking links, selecting text by dragging (with autoscroll
past the edges), double-click for a word, and the cursor that tells which of those is under it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, QUrl
from PySide6.QtGui import QCursor, QDesktopServices, QGuiApplication, QMouseEvent
from PySide6.QtWidgets import QApplication

from pdfdesk.gui.viewer.history import Position
from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.gui.viewer.layout import MARGIN
from pdfdesk.gui.viewer.page_data import Link
from pdfdesk.gui.viewer.selection import SelectionEnd, word_at

EXTERNAL_SCHEMES = ("http", "https", "mailto")  # other link schemes (file:, javascript:...) never open


class PointerInteraction(ViewHost):
    """Mixin of DocumentView."""

    def _hit(self, pos: QPointF) -> tuple[int, float, float] | None:
        """(page index, x_pt, y_pt) under a viewport position, using the nearest page in gaps."""
        if not self.model.is_open:
            return None
        x = pos.x() + self.horizontalScrollBar().value()
        y = pos.y() + self.verticalScrollBar().value()
        index = self.model.layout.page_at(y)
        if index < 0:
            return None
        x_pt, y_pt = self.model.layout.page_point(index, x, y)
        return index, x_pt, y_pt

    def _link_at(self, index: int, x_pt: float, y_pt: float) -> Link | None:
        for link in self.model.links_of(index):
            x0, y0, x1, y1 = link.rect
            if x0 <= x_pt <= x1 and y0 <= y_pt <= y1:
                return link
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        hit = self._hit(event.position())
        if hit is None:
            return
        index, x_pt, y_pt = hit
        if index not in self.model.page_info:
            self._request_page_info([index])
        self._press = (event.position(), index, x_pt, y_pt)
        self._press_link = self._link_at(index, x_pt, y_pt)
        self._dragging = False
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier and self.model.selection.active:
            self.model.selection.extend(SelectionEnd(index, x_pt, y_pt))
            self._dragging = True
            self.model.selection_updated()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        hit = self._hit(event.position())
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            if not self._dragging:
                start = self._press[0]
                if (event.position() - start).manhattanLength() < QApplication.startDragDistance():
                    return
                self._dragging = True
                self._press_link = None
                self.model.selection.start(SelectionEnd(*self._press[1:]))
            if hit is not None:
                self.model.selection.extend(SelectionEnd(*hit))
                if hit[0] not in self.model.page_info:
                    self._request_page_info([hit[0]])
            self._update_autoscroll(event.position())
            self.viewport().update()
            return
        self._update_cursor(hit)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._press is None:
            super().mouseReleaseEvent(event)
            return
        self._autoscroll.stop()
        if self._dragging:
            self.model.selection_updated()
            text = self.model.selection_text
            if text and QGuiApplication.clipboard().supportsSelection():
                QGuiApplication.clipboard().setText(text, QGuiApplication.clipboard().Mode.Selection)
        else:
            hit = self._hit(event.position())
            link = self._link_at(*hit) if hit is not None else None
            if link is not None and link == self._press_link:
                self._activate_link(link)
            else:
                self.clear_selection()
                self._click_annotation(hit)
        self._press = None
        self._press_link = None
        self._dragging = False

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        hit = self._hit(event.position())
        if event.button() != Qt.MouseButton.LeftButton or hit is None:
            return
        words = self.model.words_of(hit[0])
        if words and word_at(words, hit[1], hit[2]) is not None:
            end = SelectionEnd(*hit)
            self.model.selection.start(end, word_mode=True)
            self.model.selection.extend(end)
            self.model.selection_updated()
        self._press = None

    def _update_cursor(self, hit: tuple[int, float, float] | None) -> None:
        shape = Qt.CursorShape.ArrowCursor
        if hit is not None:
            if self._link_at(*hit) is not None:
                shape = Qt.CursorShape.PointingHandCursor
            else:
                words = self.model.words_of(hit[0])
                if words and word_at(words, hit[1], hit[2]) is not None:
                    shape = Qt.CursorShape.IBeamCursor
        if self.viewport().cursor().shape() != shape:
            self.viewport().setCursor(shape)

    def _update_autoscroll(self, pos: QPointF) -> None:
        height = self.viewport().height()
        if pos.y() < 0:
            self._autoscroll_delta = int(min(60, -pos.y()) / 2) * -1 - 4
        elif pos.y() > height:
            self._autoscroll_delta = int(min(60, pos.y() - height) / 2) + 4
        else:
            self._autoscroll_delta = 0
        if self._autoscroll_delta and not self._autoscroll.isActive():
            self._autoscroll.start()
        elif not self._autoscroll_delta:
            self._autoscroll.stop()

    def _autoscroll_step(self) -> None:
        if not self._dragging or not self._autoscroll_delta:
            self._autoscroll.stop()
            return
        vbar = self.verticalScrollBar()
        vbar.setValue(vbar.value() + self._autoscroll_delta)
        pos = self.viewport().mapFromGlobal(QCursor.pos())
        hit = self._hit(QPointF(pos))
        if hit is not None:
            self.model.selection.extend(SelectionEnd(*hit))
            self.viewport().update()

    def _activate_link(self, link: Link) -> None:
        if link.page is not None:
            self.model.record(self._position())
            y_pt = link.y_pt if link.y_pt is not None else -MARGIN / 2 / self.zoom
            self._scroll_to_position(Position(link.page, 0.0, y_pt), keep_x=True)
            self.model.set_current(link.page)
            self.viewport().update()
            return
        if link.uri:
            self.linkActivated.emit(link.uri)
            url = QUrl(link.uri)
            if self.open_external_links and url.scheme().lower() in EXTERNAL_SCHEMES:
                QDesktopServices.openUrl(url)
