"""Cut a page into render tiles so a page at 800 % never becomes one giant image.

PyMuPDF keeps the GIL while it rasterises, so every render call stalls the UI thread for its
duration; bounding each call to about one megapixel keeps those stalls short, and lets only the
visible part of a huge page be rendered at all.
"""

from __future__ import annotations

import math
from typing import NamedTuple

TILE_PIXELS = 1024  # edge of a tile in device pixels
SINGLE_IMAGE_MAX_PIXELS = 2_500_000  # pages up to this size render as one image (no seams, one call)
SCALE_KEY_RESOLUTION = 1000


def scale_key(scale: float) -> int:
    """A hashable render scale (device pixels per point) for cache keys."""
    return max(1, round(scale * SCALE_KEY_RESOLUTION))


def key_scale(key: int) -> float:
    return key / SCALE_KEY_RESOLUTION


class TileKey(NamedTuple):
    """One rendered image: page (0-based), scale key, column and row of the tile grid."""

    page: int
    scale: int
    col: int = 0
    row: int = 0


class Tile(NamedTuple):
    """A tile's key, its device-pixel box within the page image, and its clip in page points."""

    key: TileKey
    px: tuple[int, int, int, int]  # x0, y0, x1, y1 in device pixels of the whole page image
    clip: tuple[float, float, float, float] | None  # in page points; None = the whole page

    @property
    def scale(self) -> float:
        return key_scale(self.key.scale)

    def page_rect_pt(self) -> tuple[float, float, float, float]:
        """The tile's area in page points."""
        scale = self.scale
        x0, y0, x1, y1 = self.px
        return x0 / scale, y0 / scale, x1 / scale, y1 / scale


def normalized(scale: float) -> float:
    """The scale a cache key stands for (all tile maths uses it, so keys and pixels agree)."""
    return key_scale(scale_key(scale))


def page_pixels(size_pt: tuple[float, float], scale: float) -> tuple[int, int]:
    scale = normalized(scale)
    return max(1, math.ceil(size_pt[0] * scale - 0.01)), max(1, math.ceil(size_pt[1] * scale - 0.01))


def is_tiled(size_pt: tuple[float, float], scale: float) -> bool:
    width, height = page_pixels(size_pt, scale)
    return width * height > SINGLE_IMAGE_MAX_PIXELS


def grid(size_pt: tuple[float, float], scale: float) -> tuple[int, int]:
    """Columns and rows of the page's tile grid at `scale`."""
    if not is_tiled(size_pt, scale):
        return 1, 1
    width, height = page_pixels(size_pt, scale)
    return math.ceil(width / TILE_PIXELS), math.ceil(height / TILE_PIXELS)


def tile(page: int, size_pt: tuple[float, float], scale: float, col: int, row: int) -> Tile:
    key = TileKey(page, scale_key(scale), col, row)
    scale = key_scale(key.scale)
    width, height = page_pixels(size_pt, scale)
    if not is_tiled(size_pt, scale):
        return Tile(key, (0, 0, width, height), None)
    x0, y0 = col * TILE_PIXELS, row * TILE_PIXELS
    x1, y1 = min(width, x0 + TILE_PIXELS), min(height, y0 + TILE_PIXELS)
    return Tile(key, (x0, y0, x1, y1), (x0 / scale, y0 / scale, x1 / scale, y1 / scale))


def tiles_in(page: int, size_pt: tuple[float, float], scale: float,
             area_pt: tuple[float, float, float, float]) -> list[Tile]:
    """The tiles of page `page` that intersect `area_pt` (in page points), row by row."""
    cols, rows = grid(size_pt, scale)
    if cols == 1 and rows == 1:
        return [tile(page, size_pt, scale, 0, 0)]
    x0, y0, x1, y1 = area_pt
    step = TILE_PIXELS / normalized(scale)
    first_col, last_col = max(0, int(x0 // step)), min(cols - 1, int(max(x0, x1 - 1e-6) // step))
    first_row, last_row = max(0, int(y0 // step)), min(rows - 1, int(max(y0, y1 - 1e-6) // step))
    return [tile(page, size_pt, scale, c, r)
            for r in range(first_row, last_row + 1) for c in range(first_col, last_col + 1)]
