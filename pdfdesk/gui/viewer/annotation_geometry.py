"""Where an annotation is on its page, in displayed page points, and which one a click lands on.

Item rects come from the store (or a file's own annotations) and are read defensively: anything
that is not four finite numbers is skipped rather than breaking a paint. The note marker is a
small square kept the same size on screen at every zoom, so its box in page points depends on it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from pdfdesk.gui.viewer.annotation_layer import AnnotationLayer
from pdfdesk.gui.viewer.page_data import Rect

MARKER_PX = 11.0  # the note marker's side on screen, logical pixels
HIT_SLOP_PX = 2.0  # a click this close to an annotation still hits it
MARKER_KINDS = ("note", "answer")

DisplayRects = Callable[[int, list[Rect]], list[Rect]]


def item_rects(item: dict) -> list[Rect]:
    """The item's rects as float tuples in unrotated page points (malformed ones left out)."""
    rects: list[Rect] = []
    raw = item.get("rects")
    if not isinstance(raw, (list, tuple)):
        return rects
    for rect in raw:
        if not isinstance(rect, (list, tuple)) or len(rect) != 4:
            continue
        try:
            x0, y0, x1, y1 = (float(v) for v in rect)
        except (TypeError, ValueError):
            continue
        if all(math.isfinite(v) for v in (x0, y0, x1, y1)):
            rects.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    return rects


def has_marker(item: dict) -> bool:
    """A note marker shows that there is something to read: a note, a page note, a pinned answer."""
    return bool(item.get("note")) or item.get("kind") in MARKER_KINDS


def marker_box(first: Rect | None, page_size: tuple[float, float], zoom: float) -> Rect:
    """The marker's box in displayed points: left of the first rect's top, or the page's top-right
    corner for a note without rects; always inside the page."""
    side = MARKER_PX / max(zoom, 1e-6)
    width, height = page_size
    if first is None:
        x0, y0 = width - 2 * side, side
    else:
        x0, y0 = first[0] - side - 1.0 / max(zoom, 1e-6), first[1] - side / 2
    x0 = min(max(0.0, x0), max(0.0, width - side))
    y0 = min(max(0.0, y0), max(0.0, height - side))
    return x0, y0, x0 + side, y0 + side


def shown_rects(item: dict, index: int, display_rects: DisplayRects) -> list[Rect]:
    rects = item_rects(item)
    return display_rects(index, rects) if rects else []


def annotation_at(layer: AnnotationLayer, index: int, x: float, y: float, display_rects: DisplayRects,
                  page_size: tuple[float, float], zoom: float) -> str | None:
    """The id of the painted annotation under displayed point (x, y) of page `index`; the one
    painted last (on top) wins."""
    slop = HIT_SLOP_PX / max(zoom, 1e-6)
    for item in reversed(layer.painted_on(index)):
        rects = shown_rects(item, index, display_rects)
        boxes = list(rects)
        if has_marker(item):
            boxes.append(marker_box(rects[0] if rects else None, page_size, zoom))
        for x0, y0, x1, y1 in boxes:
            if x0 - slop <= x <= x1 + slop and y0 - slop <= y <= y1 + slop:
                return str(item["id"])
    return None
