"""Rasterise pages: the one render path shared by `pdf_render_page` and the GUI viewer.

A hostile MediaBox can ask for a gigapixel image; `MAX_PIXELS` caps every render by lowering the
effective resolution, and the caller is told the dpi actually used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pymupdf

MIN_DPI = 72
MAX_DPI = 300
DEFAULT_DPI = 150
MAX_PIXELS = 40_000_000


def clamp_dpi(dpi: float) -> int:
    return int(min(MAX_DPI, max(MIN_DPI, round(dpi))))


def fit_zoom(page_rect: pymupdf.Rect, zoom: float, max_pixels: int = MAX_PIXELS) -> float:
    """The zoom to use: `zoom`, lowered so the image stays within `max_pixels`."""
    width, height = max(page_rect.width, 1.0), max(page_rect.height, 1.0)
    pixels = width * zoom * height * zoom
    if pixels <= max_pixels:
        return zoom
    return zoom * math.sqrt(max_pixels / pixels) * 0.999


def render_pixmap(
    page: pymupdf.Page,
    zoom: float,
    clip: pymupdf.Rect | None = None,
    alpha: bool = False,
    max_pixels: int = MAX_PIXELS,
) -> pymupdf.Pixmap:
    """An RGB pixmap of the page (or of `clip`) at `zoom` (1.0 = 72 dpi), within the pixel cap."""
    area = clip if clip is not None else page.rect
    zoom = fit_zoom(area, zoom, max_pixels)
    return page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=clip, alpha=alpha, annots=True)


@dataclass
class RenderedPng:
    png: bytes
    width: int
    height: int
    dpi: float  # effective dpi (below the request only when the pixel cap applied)


def render_png(page: pymupdf.Page, dpi: int) -> RenderedPng:
    """The page as PNG bytes at `dpi` (already clamped by the caller)."""
    pixmap = render_pixmap(page, dpi / 72.0)
    effective = round(pixmap.width / max(page.rect.width, 1.0) * 72.0, 2)
    return RenderedPng(pixmap.tobytes("png"), pixmap.width, pixmap.height, effective)
