"""How a DocumentView paints: every visible page from the best images it has, never blank.

A page shows its tiles at the current zoom; where some are missing, first the closest other zoom's
images scaled, else its small preview scaled, else a placeholder with its number; then find hits,
search highlights and the selection on top, and on a scanned page still waiting for recognition a
small badge saying so. Painting never waits for the worker.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QRectF, QTimer
from PySide6.QtGui import QPainter, QPaintEvent

from pdfdesk.gui.viewer import painter as paint
from pdfdesk.gui.viewer import tiles
from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.gui.viewer.page_data import Rect


class PagePainting(ViewHost):
    """Mixin of DocumentView (uses its layout, caches and overlays)."""

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self.viewport())
        painter.fillRect(event.rect(), paint.BACKGROUND)
        model = self.model
        if model.message is not None:
            paint.draw_message(painter, QRectF(self.viewport().rect()), *model.message)
            return
        if not model.is_open:
            return
        if tiles.scale_key(self.render_scale()) != self._scheduled_scale:
            self._schedule()  # the screen's scale changed (window moved to another monitor)
        exposed = QRectF(event.rect())
        top = self.verticalScrollBar().value()
        painted_real = False
        for index in model.layout.pages_between(top + exposed.top(), top + exposed.bottom() + 1):
            painted_real |= self._paint_page(painter, index, exposed)
        painter.end()
        if painted_real and not self._first_painted:
            self._first_painted = True
            self.first_painted_at = time.perf_counter()
            QTimer.singleShot(0, self._emit_first_painted)

    def _emit_first_painted(self) -> None:
        if self.model.is_open:
            self.firstPagePainted.emit()

    def _paint_page(self, painter: QPainter, index: int, exposed: QRectF) -> bool:
        """Draw one page; True when at least one image rendered at the current zoom was drawn."""
        target = self.page_rect_in_viewport(index + 1)
        paint.draw_page_frame(painter, target)
        failed = self.model.failed_pages.get(index)
        if failed is not None:
            paint.draw_page_error(painter, target, failed)
            return False
        needed = self._needed_tiles(index)
        present = [(tile, image) for tile in needed if (image := self._tiles.get(tile.key)) is not None]
        if len(present) < len(needed) and not self._paint_fallback(painter, index, target) and not present:
            paint.draw_placeholder(painter, target, index + 1)
        zoom = self.model.layout.zoom
        for tile, image in present:
            x0, y0, x1, y1 = tile.page_rect_pt()
            painter.drawImage(QRectF(target.x() + x0 * zoom, target.y() + y0 * zoom,
                                     (x1 - x0) * zoom, (y1 - y0) * zoom), image)
        self._paint_overlays(painter, index, target)
        if index in self.model.awaiting:
            paint.draw_badge(painter, target, paint.RECOGNISING)
        return bool(present)

    def _paint_fallback(self, painter: QPainter, index: int, target: QRectF) -> bool:
        """Paint the page from images at another zoom (closest first), else its preview."""
        current = self.render_scale()
        others: dict[int, list[tiles.TileKey]] = {}
        for key in self._tiles.for_page(index):
            if key.scale != tiles.scale_key(current):
                others.setdefault(key.scale, []).append(key)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        drawn = False
        zoom = self.model.layout.zoom
        if others:
            best = min(others, key=lambda s: abs(math.log(tiles.key_scale(s) / current)))
            scale = tiles.key_scale(best)
            for key in others[best]:
                image = self._tiles.get(key)
                if image is None:
                    continue
                tile = tiles.tile(index, self.model.layout.page_size(index), scale, key.col, key.row)
                x0, y0, x1, y1 = tile.page_rect_pt()
                painter.drawImage(QRectF(target.x() + x0 * zoom, target.y() + y0 * zoom,
                                         (x1 - x0) * zoom, (y1 - y0) * zoom), image)
                drawn = True
        if not drawn:
            preview = self._previews.get(index)
            if preview is not None:
                painter.drawImage(target, preview)
                drawn = True
        painter.restore()
        return drawn

    def _page_to_viewport(self, target: QRectF, rect: Rect) -> QRectF:
        zoom = self.model.layout.zoom
        return QRectF(target.x() + rect[0] * zoom, target.y() + rect[1] * zoom,
                      (rect[2] - rect[0]) * zoom, (rect[3] - rect[1]) * zoom)

    def _paint_overlays(self, painter: QPainter, index: int, target: QRectF) -> None:
        model = self.model
        self._paint_annotations(painter, index, target)  # under the find hits and the selection
        find_hits = model.find.hits_on(index)
        if find_hits:
            current = model.find.current
            others = [self._page_to_viewport(target, r) for i, r in enumerate(find_hits)
                      if current != (index, i)]
            paint.draw_rects(painter, others, paint.FIND_HIT)
            if current is not None and current[0] == index:
                paint.draw_rects(painter, [self._page_to_viewport(target, find_hits[current[1]])],
                                 paint.FIND_CURRENT)
        if model.highlights is not None and model.highlights[0] == index:
            rects = model.display_rects(index, model.highlights[1])
            paint.draw_rects(painter, [self._page_to_viewport(target, r) for r in rects], paint.SEARCH_HIT)
        self._paint_tables(painter, index, target)  # the table under the pointer, over the hits
        if model.selection.active and index in model.selection.pages():
            rects = model.selection.rects(index, model.words_of)
            paint.draw_rects(painter, [self._page_to_viewport(target, r) for r in rects], paint.SELECTION)
