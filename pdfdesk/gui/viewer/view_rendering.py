"""A DocumentView's side of its worker: starting and retiring it, taking its answers into the
model and the image caches, and asking it for what the render policy says is needed now.

Requests are coalesced: the many scroll, zoom and resize events of one event-loop pass make one
request, and while the view flings by a screen or more per event the request waits until the
scrolling slows (what is on screen meanwhile shows its preview or placeholder), so the CPU is not
spent on pages nobody sees.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QRectF, QTimer
from PySide6.QtGui import QImage

from pdfdesk.gui.viewer import render_policy, threads, tiles
from pdfdesk.gui.viewer.host import ViewHost
from pdfdesk.gui.viewer.opening import OpenedDocument
from pdfdesk.gui.viewer.page_data import Link, PageWords
from pdfdesk.gui.viewer.render_jobs import PageGeometry
from pdfdesk.gui.viewer.render_queue import DocumentWorker, RenderRequest

FLING_SETTLE_MS = 60  # renders wait this long after the last of several big scroll jumps


def retire_boxed(box: list) -> None:
    """Stop the worker of a view that is being deleted (it gets a box: the view is gone)."""
    if box[0] is not None:
        try:
            threads.retire(box[0])
        except RuntimeError:  # the application is tearing down and the thread object is gone
            pass


class ViewRendering(ViewHost):
    """Mixin of DocumentView (uses `self.model`, `self._worker`, `self._tiles`, `self._previews`)."""

    def _init_rendering(self) -> None:
        self._scheduled_scale = 0  # the render scale the worker was last asked for
        self._rescroll_page: int | None = None  # a highlight shown before its page's rotation was known
        self._last_big_jump = 0.0  # when the view last moved by half a screen or more at once
        self._big_jumps = 0  # how many such moves came in a row (two or more: a fling)
        self._schedule_timer = QTimer(self)
        self._schedule_timer.setSingleShot(True)
        self._schedule_timer.timeout.connect(self._schedule_work)

    # --- the worker's lifetime -----------------------------------------------------------------------
    def _start_worker(self, reference: str, password: str | None) -> None:
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
        threads.install_quit_hook()
        worker.start()

    def _retire_worker(self) -> None:
        if self._worker is not None:
            threads.retire(self._worker)
            self._worker = None
            self._worker_box[0] = None

    def _open_ended(self, *_args: object) -> None:
        """The open failed or needs a password: the worker has nothing more to do."""
        self._retire_worker()
        self.viewport().update()

    def _is_current(self, token: int) -> bool:
        return self._worker is not None and token == self._worker.token

    # --- answers ----------------------------------------------------------------------------------------
    def _on_opened(self, token: int, document: OpenedDocument) -> None:
        if not self._is_current(token):
            return
        self.model.opened(document)
        if self._pending_goto is not None:
            page, rects, _record = self._pending_goto
            self._pending_goto = None
            self.go_to_page(page, rects, record=False)
        self._schedule()
        self.viewport().update()

    def _on_failed(self, token: int, details: dict) -> None:
        if not self._is_current(token):
            return
        self._pending_goto = None
        self.model.open_failed(details)

    def _on_sizes(self, token: int, first: int, geometries: list[PageGeometry]) -> None:
        if not self._is_current(token):
            return
        model = self.model
        model.set_geometry(first, geometries)
        rescroll = self._rescroll_page
        if rescroll is not None and rescroll < model.geometry_known:
            self._rescroll_page = None
            if rescroll in model.matrices and model.highlights is not None and model.highlights[0] == rescroll:
                self._scroll_to_rect(rescroll, model.display_rects(rescroll, model.highlights[1])[0])
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
        self.model.failed_pages[key.page] = message
        self.viewport().update()

    def _on_preview(self, token: int, index: int, image: QImage) -> None:
        if not self._is_current(token):
            return
        self._previews.put(index, image)
        self.previewReady.emit(index)

    def _on_page_info(self, token: int, index: int, words: PageWords, links: list[Link]) -> None:
        if self._is_current(token):
            self.model.set_page_info(index, words, links)

    def _on_find_batch(self, token: int, generation: int, hits: dict, searched: int, total: int) -> None:
        if not self._is_current(token) or not self.model.add_find_hits(generation, hits, searched, total):
            return
        if any(page in hits for page in self.model.layout.pages_between(*self._visible_band())):
            self.viewport().update()

    def _start_find(self, generation: int, needle: str, start_page: int) -> None:
        if self._worker is None:
            return
        if needle:
            self._worker.start_find(generation, needle, start_page, self.page_count)
        else:
            self._worker.stop_find()

    # --- asking -----------------------------------------------------------------------------------------
    def _note_jump(self, dy: int) -> None:
        """Count big scroll jumps in a row: two or more within FLING_SETTLE_MS are a fling."""
        now = time.perf_counter()
        if abs(dy) >= self.viewport().height() * 0.5:
            recent = now - self._last_big_jump < FLING_SETTLE_MS / 1000.0
            self._big_jumps = self._big_jumps + 1 if recent else 1
            self._last_big_jump = now

    def _schedule(self) -> None:
        """One request per event-loop pass; during a fling, one after it slows."""
        if self._flinging():
            self._schedule_timer.start(FLING_SETTLE_MS)
        elif not self._schedule_timer.isActive():
            self._schedule_timer.start(0)

    def _flinging(self) -> bool:
        return time.perf_counter() - self._last_big_jump < FLING_SETTLE_MS / 1000.0 and self._big_jumps > 1

    def _viewport_area(self) -> render_policy.Viewport:
        return render_policy.Viewport(float(self.horizontalScrollBar().value()),
                                      float(self.verticalScrollBar().value()),
                                      self.viewport().width(), self.viewport().height())

    def _needed_tiles(self, index: int) -> list[tiles.Tile]:
        """Tiles covering the visible part of page `index` at the current scale."""
        return render_policy.needed_tiles(self.model.layout, index, self.render_scale(), self._viewport_area())

    def _schedule_work(self) -> None:
        if not self.model.is_open or self._worker is None:
            return
        dpr = self.viewport().devicePixelRatioF()
        scale = self.render_scale()
        self._scheduled_scale = tiles.scale_key(scale)
        plan = render_policy.plan(self.model.layout, self._viewport_area(), scale, self._tiles,
                                  self.model.failed_pages)
        self._tiles.pinned = plan.on_screen
        previews = self._previews

        def request(tile: tiles.Tile) -> RenderRequest:
            return RenderRequest(tile, dpr, tile.key.page not in previews)

        self._worker.set_renders([request(t) for t in plan.visible], [request(t) for t in plan.prefetch])
        self._request_page_info([i for i in plan.visible_pages if i not in self.model.page_info])
        self._show_tables_of(plan.visible_pages)

    def _request_page_info(self, indices: list[int]) -> None:
        if self._worker is not None and indices:
            self._worker.request_page_info(indices)

    # --- inspection (thumbnails, tests, bench) ---------------------------------------------------------
    def rendered_pages(self, current_zoom_only: bool = True) -> set[int]:
        """1-based pages with at least one cached image (at the current zoom by default)."""
        key = tiles.scale_key(self.render_scale())
        return {k.page + 1 for k in self._tiles.keys() if not current_zoom_only or k.scale == key}  # noqa: SIM118 - the cache is not iterable

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
        if self._worker is not None and self.model.is_open:
            self._worker.set_thumbnails([(i, scale) for i in indices if 0 <= i < self.page_count])

    def pending_requests(self) -> int:
        return self._worker.pending() if self._worker is not None else 0
