"""Where every page sits in a continuous vertical strip, at a given zoom.

Kept free of Qt so the geometry (which decides what gets rendered and where clicks land) can be
tested on its own. Units: page sizes in PDF points (as displayed, i.e. after /Rotate); positions in
logical pixels; zoom 1.0 draws one point as one logical pixel (72 dpi times the screen's scale).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from pdfdesk.gui.viewer.zoom import clamp_zoom

PAGE_GAP = 10.0  # logical pixels between pages
MARGIN = 12.0  # around the strip
DEFAULT_PAGE_SIZE = (612.0, 792.0)  # US Letter, used only until the first page's size is known


@dataclass(frozen=True)
class PageRect:
    """A page's place in the strip, in logical pixels."""

    x: float
    y: float
    width: float
    height: float

    @property
    def bottom(self) -> float:
        return self.y + self.height

    @property
    def right(self) -> float:
        return self.x + self.width

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.right and self.y <= y < self.bottom


class PageLayout:
    """Page sizes plus zoom -> page positions; the tops are recomputed only when something changes."""

    def __init__(self, page_count: int = 0, default_size: tuple[float, float] = DEFAULT_PAGE_SIZE) -> None:
        self._default = default_size
        self._sizes: list[tuple[float, float] | None] = [None] * page_count
        self._known = 0
        self.zoom = 1.0
        self.viewport_width = 0.0
        self._tops: list[float] = []
        self._max_width = 0.0
        self._dirty = True

    # --- sizes -----------------------------------------------------------------------------------
    @property
    def page_count(self) -> int:
        return len(self._sizes)

    @property
    def default_size(self) -> tuple[float, float]:
        return self._default

    def reset(self, page_count: int, first_size: tuple[float, float]) -> None:
        """A newly opened document: `first_size` stands in for every page until its own size is known."""
        self._default = _sane(first_size)
        self._sizes = [None] * page_count
        if page_count:
            self._sizes[0] = self._default
        self._known = min(1, page_count)
        self._dirty = True

    def set_sizes(self, start: int, sizes: list[tuple[float, float]]) -> bool:
        """Record the real sizes of pages start.. (0-based); True when the layout moved."""
        changed = False
        for offset, size in enumerate(sizes):
            index = start + offset
            if not 0 <= index < len(self._sizes):
                continue
            size = _sane(size)
            old = self._sizes[index]
            if old is None:
                self._known += 1
                old = self._default
            self._sizes[index] = size
            if abs(old[0] - size[0]) > 0.01 or abs(old[1] - size[1]) > 0.01:
                changed = True
        if changed:
            self._dirty = True
        return changed

    @property
    def sizes_known(self) -> int:
        return self._known

    def page_size(self, index: int) -> tuple[float, float]:
        """Size in points of page `index` (0-based), the first page's size until known."""
        return self._sizes[index] or self._default

    # --- geometry --------------------------------------------------------------------------------
    def set_zoom(self, zoom: float) -> None:
        zoom = clamp_zoom(zoom)
        if zoom != self.zoom:
            self.zoom = zoom
            self._dirty = True

    def set_viewport_width(self, width: float) -> None:
        if width != self.viewport_width:
            self.viewport_width = width
            # only the horizontal centring depends on it; tops stay valid

    def _update(self) -> None:
        if not self._dirty:
            return
        tops: list[float] = []
        y = MARGIN
        widest = 0.0
        zoom = self.zoom
        default = self._default
        for size in self._sizes:
            width, height = size or default
            tops.append(y)
            y += height * zoom + PAGE_GAP
            if width > widest:
                widest = width
        self._tops = tops
        self._end = y - PAGE_GAP + MARGIN if tops else 2 * MARGIN
        self._max_width = widest * zoom
        self._dirty = False

    def document_size(self) -> tuple[float, float]:
        """Width and height of the whole strip in logical pixels."""
        self._update()
        return self._max_width + 2 * MARGIN, self._end

    def content_width(self) -> float:
        """The width pages are centred in: the viewport, or the strip when it is wider."""
        return max(self.viewport_width, self.document_size()[0])

    def page_rect(self, index: int) -> PageRect:
        self._update()
        width, height = self.page_size(index)
        width, height = width * self.zoom, height * self.zoom
        x = (self.content_width() - width) / 2.0
        return PageRect(x, self._tops[index], width, height)

    def pages_between(self, top: float, bottom: float) -> range:
        """0-based indices of the pages that intersect the band top..bottom."""
        self._update()
        if not self._tops or bottom < top:
            return range(0)
        first = max(0, bisect.bisect_right(self._tops, top) - 1)
        if self.page_rect(first).bottom <= top and first + 1 < len(self._tops):
            first += 1
        last = max(first, bisect.bisect_right(self._tops, bottom) - 1)
        return range(first, min(last, len(self._tops) - 1) + 1)

    def page_at(self, y: float) -> int:
        """The page at height `y`, or the nearest one when `y` falls in a gap or margin."""
        self._update()
        if not self._tops:
            return -1
        index = max(0, bisect.bisect_right(self._tops, y) - 1)
        if y > self.page_rect(index).bottom and index + 1 < len(self._tops):
            gap_middle = (self.page_rect(index).bottom + self._tops[index + 1]) / 2.0
            if y > gap_middle:
                index += 1
        return index

    def page_point(self, index: int, x: float, y: float) -> tuple[float, float]:
        """Strip position -> point on page `index` (in PDF points, may fall outside the page)."""
        rect = self.page_rect(index)
        return (x - rect.x) / self.zoom, (y - rect.y) / self.zoom

    def strip_point(self, index: int, x_pt: float, y_pt: float) -> tuple[float, float]:
        """Point on page `index` (PDF points) -> strip position in logical pixels."""
        rect = self.page_rect(index)
        return rect.x + x_pt * self.zoom, rect.y + y_pt * self.zoom

    # --- zoom modes ------------------------------------------------------------------------------
    def fit_width_zoom(self, index: int, viewport_width: float) -> float:
        width = self.page_size(max(0, index))[0] if self._sizes else self._default[0]
        return clamp_zoom((viewport_width - 2 * MARGIN) / max(width, 1.0))

    def fit_page_zoom(self, index: int, viewport_width: float, viewport_height: float) -> float:
        width, height = self.page_size(max(0, index)) if self._sizes else self._default
        return clamp_zoom(min((viewport_width - 2 * MARGIN) / max(width, 1.0),
                              (viewport_height - 2 * PAGE_GAP) / max(height, 1.0)))


def _sane(size: tuple[float, float]) -> tuple[float, float]:
    """Guard against zero, negative or absurd sizes from hostile MediaBoxes."""
    width, height = size
    width = width if math.isfinite(width) and width >= 1 else DEFAULT_PAGE_SIZE[0]
    height = height if math.isfinite(height) and height >= 1 else DEFAULT_PAGE_SIZE[1]
    return min(width, 14400.0), min(height, 14400.0)
