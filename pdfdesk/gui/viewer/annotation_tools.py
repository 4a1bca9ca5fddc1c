"""What a DocumentView does with review annotations: paints the layer, turns the text selection into
highlights and notes, hit-tests clicks, and the keys for all of it.

Storing is not done here: the view puts a *pending* item in the layer at once (so the highlight is
on screen in the frame of the click, not after a round trip through a worker and SQLite) and asks
for the real one with `annotateRequested`; whoever stores it replaces the pending item.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter

from pdfdesk.gui.viewer.annotation_geometry import annotation_at, item_rects
from pdfdesk.gui.viewer.annotation_painting import draw_annotations
from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.gui.viewer.page_data import Rect
from pdfdesk.review.records import DEFAULT_COLOR, resolve_color

REPAINT_SLACK_PX = 6  # the selection outline reaches a little past the page's edge


def pending_item(pending_id: str, kind: str, index: int, quote: str, rects: list[Rect], color: str) -> dict:
    """What the layer shows until the stored annotation replaces it."""
    return {"id": pending_id, "page": index + 1, "rects": [list(r) for r in rects], "quote": quote,
            "note": "", "color": color, "tags": [], "kind": kind, "status": "anchored", "source": "pdfdesk",
            "prefix": "", "suffix": "", "created": "", "updated": ""}


def editable(item: dict | None) -> bool:
    """The file's own annotations are read-only, and a pending one has no stored id to act on yet."""
    return item is not None and item.get("source") != "pdf" and not str(item.get("id", "")).startswith("pending-")


class AnnotationTools(ViewHost):
    """Mixin of DocumentView (uses `self.model.annotations` and the view's annotation signals)."""

    def _init_annotations(self) -> None:
        self.model.annotations.changed.connect(self._annotations_changed)

    # --- actions -----------------------------------------------------------------------------------
    def highlight_selection(self, color: str | None = None) -> bool:
        """Highlight the selected text (False when nothing is selected)."""
        return self._annotate_selection("highlight", resolve_color(color) if color else DEFAULT_COLOR)

    def note_selection(self) -> bool:
        """Start a note on the selected text; the panels ask for its words (False: no selection)."""
        return self._annotate_selection("note", DEFAULT_COLOR)

    def _annotate_selection(self, kind: str, color: str) -> bool:
        model = self.model
        if not model.is_open or not model.selection.active:
            return False
        texts = model.selection.page_texts(model.words_of)
        requests = []
        for index, quote in texts.items():
            shown = model.selection.rects(index, model.words_of)
            if not shown or not quote:
                continue
            requests.append(self._add_pending(kind, index, quote, model.unrotated_rects(index, shown), color))
        if not requests:
            return False
        model.clear_selection()
        for request in requests:
            self.annotateRequested.emit(request)
        return True

    def _add_pending(self, kind: str, index: int, quote: str, rects: list[Rect], color: str) -> dict:
        """Show a pending item on page `index` now; returns the request that asks for the real one."""
        layer = self.model.annotations
        pending_id = layer.next_pending_id()
        layer.upsert(pending_item(pending_id, kind, index, quote, rects, color))
        return {"pending_id": pending_id, "kind": kind, "page": index + 1, "quote": quote,
                "rects": [[round(v, 2) for v in rect] for rect in rects], "color": color}

    def selected_annotation(self) -> str | None:
        return self.model.annotations.selected()

    def request_delete_selected(self) -> bool:
        """Ask to delete the selected annotation (False when there is none that can be deleted)."""
        key = self.model.annotations.selected()
        if key is None or not editable(self.model.annotations.item(key)):
            return False
        self.annotationDeleteRequested.emit(key)
        return True

    # --- painting ----------------------------------------------------------------------------------
    def _annotations_changed(self, pages: set[int] | None) -> None:
        """Repaint the visible pages among `pages` (None: everything)."""
        viewport = self.viewport()
        if pages is None:
            viewport.update()
            return
        if not self.model.is_open:
            return
        visible = self.model.layout.pages_between(*self._visible_band())
        for index in pages:
            if index in visible:
                area = self.page_rect_in_viewport(index + 1)
                slack = REPAINT_SLACK_PX
                viewport.update(area.adjusted(-slack, -slack, slack, slack).toAlignedRect())

    def _paint_annotations(self, painter: QPainter, index: int, target: QRectF) -> None:
        model = self.model
        items = model.annotations.painted_on(index)
        if items:
            draw_annotations(painter, items, lambda rects: model.display_rects(index, rects),
                             lambda rect: self._page_to_viewport(target, rect), model.layout.page_size(index),
                             model.layout.zoom, model.annotations.selected())
        self._paint_area_drag(painter, index, target)

    # --- the mouse ---------------------------------------------------------------------------------
    def _annotation_at(self, hit: tuple[int, float, float] | None) -> str | None:
        if hit is None or not self.model.is_open:
            return None
        index, x, y = hit
        model = self.model
        return annotation_at(model.annotations, index, x, y, model.display_rects, model.layout.page_size(index),
                             model.layout.zoom)

    def _click_annotation(self, hit: tuple[int, float, float] | None) -> None:
        """A plain click: select the annotation under it (or nothing) and say so."""
        key = self._annotation_at(hit)
        self.model.annotations.set_selected(key)
        if key is not None:
            self.annotationClicked.emit(key)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and not self.area_tool_active():
            key = self._annotation_at(self._hit(event.position()))
            if key is not None:
                self.model.annotations.set_selected(key)
                self.annotationActivated.emit(key)
                self._press = None
                return
        if self.area_tool_active():
            return
        super().mouseDoubleClickEvent(event)

    def _update_cursor(self, hit: tuple[int, float, float] | None) -> None:
        if self.area_tool_active():
            shape = Qt.CursorShape.CrossCursor
        elif self._annotation_at(hit) is not None and (hit is None or self._link_at(*hit) is None):
            shape = Qt.CursorShape.PointingHandCursor
        else:
            super()._update_cursor(hit)
            return
        if self.viewport().cursor().shape() != shape:
            self.viewport().setCursor(shape)

    def annotation_point(self, key: str) -> QPointF | None:
        """Viewport position of the middle of an annotation's first rect (tests, context menus)."""
        item = self.model.annotations.item(key)
        rects = item_rects(item) if item is not None else []
        if item is None or not rects:
            return None
        index = int(item["page"]) - 1
        x0, y0, x1, y1 = self.model.display_rects(index, rects[:1])[0]
        return self.viewport_point(index + 1, (x0 + x1) / 2, (y0 + y1) / 2)

    # --- keys --------------------------------------------------------------------------------------
    def _key_action(self, event: QKeyEvent):
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        if mods == ctrl_shift and key == Qt.Key.Key_H:
            return self.highlight_selection
        if mods == ctrl_shift and key == Qt.Key.Key_N:
            return self.note_selection
        if mods == ctrl_shift and key == Qt.Key.Key_A:
            return lambda: self.set_area_tool(not self.area_tool_active())
        if mods == Qt.KeyboardModifier.NoModifier:
            if key == Qt.Key.Key_Escape and self.area_tool_active():
                return lambda: self.set_area_tool(False)
            if key == Qt.Key.Key_Delete and editable(self.model.annotations.item(self.selected_annotation() or "")):
                return self.request_delete_selected
        return super()._key_action(event)
