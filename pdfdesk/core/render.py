"""Rasterise pages: the one render path shared by `pdf_render_page` and the GUI viewer.

A hostile MediaBox can ask for a gigapixel image; `MAX_PIXELS` caps every render by lowering the
effective resolution, and the caller is told the dpi actually used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pymupdf

from pdfdesk.core.page_streams import check_page

MIN_DPI = 72
MAX_DPI = 300
DEFAULT_DPI = 150
MAX_PIXELS = 40_000_000


def clamp_dpi(dpi: float) -> int:
    return int(min(MAX_DPI, max(MIN_DPI, round(dpi))))


MAX_SIDE = 32_000  # pixels along either side: QImage, PNG readers and model APIs stop near 32,767


def fit_zoom(page_rect: pymupdf.Rect, zoom: float, max_pixels: int = MAX_PIXELS) -> float:
    """The zoom to use: `zoom`, lowered so the image stays within `max_pixels` and `MAX_SIDE`
    (a hostile MediaBox, UserUnit or a 1 x 1,000,000 pt "page" cannot ask for more)."""
    width, height = max(page_rect.width, 1.0), max(page_rect.height, 1.0)
    if not (math.isfinite(width) and math.isfinite(height)):
        return min(zoom, 1.0 / MAX_SIDE)
    zoom = min(zoom, MAX_SIDE / max(width, height))
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
    check_page(page)  # a page built to exhaust MuPDF is refused before it runs
    area = clip if clip is not None else page.rect
    zoom = fit_zoom(area, zoom, max_pixels)
    return page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), clip=clip, alpha=alpha, annots=True)


@dataclass
class RenderedPng:
    png: bytes
    width: int
    height: int
    dpi: float  # effective dpi (below the request only when the pixel cap applied)


MAX_PNG_BYTES = 24 * 1024 * 1024  # a noisy page compresses badly; a tool result stays below this


def render_png(page: pymupdf.Page, dpi: int, max_bytes: int = MAX_PNG_BYTES) -> RenderedPng:
    """The page as PNG bytes at `dpi` (already clamped by the caller), within the pixel budget and,
    by rendering once more at a lower resolution, within `max_bytes`."""
    zoom = dpi / 72.0
    pixmap = render_pixmap(page, zoom)
    png = pixmap.tobytes("png")
    if len(png) > max_bytes:
        zoom = fit_zoom(page.rect, zoom) * math.sqrt(max_bytes / len(png)) * 0.9
        pixmap = render_pixmap(page, zoom)
        png = pixmap.tobytes("png")
    longest = max(page.rect.width, page.rect.height, 1.0)
    effective = round(min(max(pixmap.width, pixmap.height) / longest * 72.0, dpi), 2)
    return RenderedPng(png, pixmap.width, pixmap.height, effective)
