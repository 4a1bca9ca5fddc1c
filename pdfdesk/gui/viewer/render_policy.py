"""What to render next, given where the viewport is: the visible pages first (the one nearest the
middle of the screen leading), then the neighbours the reader is most likely to scroll to — a
screen below, half a screen above — capped so a fling does not queue pages nobody will see.

Free of Qt and MuPDF: the plan is a function of the layout, the viewport and what is cached, so
it can be tested on its own and the worker only ever executes it.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field

from pdfdesk.gui.viewer import tiles
from pdfdesk.gui.viewer.layout import PageLayout

PREFETCH_SCREENS_BELOW = 1.0
PREFETCH_SCREENS_ABOVE = 0.5
MAX_PREFETCH_TILES = 12


@dataclass(frozen=True)
class Viewport:
    """The visible part of the strip, in logical pixels."""

    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height


@dataclass
class RenderPlan:
    """Tiles to ask for, most urgent first, and the tiles on screen (kept in the cache)."""

    visible_pages: list[int] = field(default_factory=list)  # 0-based, nearest the middle first
    visible: list[tiles.Tile] = field(default_factory=list)
    prefetch: list[tiles.Tile] = field(default_factory=list)
    on_screen: set[tiles.TileKey] = field(default_factory=set)


def visible_area_pt(layout: PageLayout, index: int, top: float, bottom: float,
                    left: float, right: float) -> tuple[float, float, float, float] | None:
    """The part of page `index` inside the band, in page points; None when it is off screen."""
    rect = layout.page_rect(index)
    x0, x1 = max(rect.x, left), min(rect.right, right)
    y0, y1 = max(rect.y, top), min(rect.bottom, bottom)
    if x1 <= x0 or y1 <= y0:
        return None
    zoom = layout.zoom
    return ((x0 - rect.x) / zoom, (y0 - rect.y) / zoom, (x1 - rect.x) / zoom, (y1 - rect.y) / zoom)


def needed_tiles(layout: PageLayout, index: int, scale: float, viewport: Viewport,
                 band: tuple[float, float] | None = None) -> list[tiles.Tile]:
    """Tiles of page `index` that cover its part inside `band` (default: the viewport's rows)."""
    top, bottom = band if band is not None else (viewport.top, viewport.bottom)
    area = visible_area_pt(layout, index, top, bottom, viewport.left, viewport.right)
    if area is None:
        return []
    return tiles.tiles_in(index, layout.page_size(index), scale, area)


def pages_by_distance(layout: PageLayout, viewport: Viewport) -> list[int]:
    """Visible pages (0-based), the one whose middle is nearest the viewport's middle first."""
    centre = (viewport.top + viewport.bottom) / 2

    def distance(index: int) -> float:
        rect = layout.page_rect(index)
        return abs(rect.y + rect.height / 2 - centre)

    return sorted(layout.pages_between(viewport.top, viewport.bottom), key=distance)


def plan(layout: PageLayout, viewport: Viewport, scale: float, cached: Container[tiles.TileKey],
         skip: Container[int] = (), max_prefetch: int = MAX_PREFETCH_TILES) -> RenderPlan:
    """What to render for `viewport` at `scale`: visible tiles not `cached`, then neighbours'.
    Pages in `skip` (those that failed to render) are left out."""
    result = RenderPlan(pages_by_distance(layout, viewport))
    for index in result.visible_pages:
        if index in skip:
            continue
        for tile in needed_tiles(layout, index, scale, viewport):
            result.on_screen.add(tile.key)
            if tile.key not in cached:
                result.visible.append(tile)
    height = viewport.height
    bands = ((viewport.bottom, viewport.bottom + height * PREFETCH_SCREENS_BELOW),
             (viewport.top - height * PREFETCH_SCREENS_ABOVE, viewport.top))
    shown = set(result.visible_pages)
    for top, bottom in bands:
        for index in layout.pages_between(max(0.0, top), bottom):
            if index in skip or index in shown:
                continue
            for tile in needed_tiles(layout, index, scale, viewport, (top, bottom)):
                if tile.key not in cached and len(result.prefetch) < max_prefetch:
                    result.prefetch.append(tile)
    return result
