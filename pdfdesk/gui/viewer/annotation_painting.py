"""How review annotations are drawn over a page (the view's pages and the thumbnails alike).

Highlights multiply their colour into the page, the way a highlighter pen does: white paper takes
the colour, black ink stays black, so the text under them stays as readable as before. Areas get
an outline and a light wash, notes a small marker, the selected annotation a blue outline.
Orphaned annotations never get here (the layer leaves them out of `painted_on`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

from pdfdesk.gui.viewer.annotation_geometry import has_marker, item_rects, marker_box
from pdfdesk.gui.viewer.page_data import Rect
from pdfdesk.review.records import DEFAULT_COLOR

SELECTED_OUTLINE = QColor(0x1A, 0x5F, 0xD0)
AREA_WASH_ALPHA = 48
HIGHLIGHT_ALPHA = 255  # multiplied in: the paper takes the full colour, ink stays dark

ToViewport = Callable[[Rect], QRectF]
DisplayRects = Callable[[list[Rect]], list[Rect]]

_colors: dict[str, QColor] = {}


def color_of(item: dict) -> QColor:
    """The item's colour (parsed once per distinct value; an unusable one shows as the default)."""
    name = item.get("color")
    key = name if isinstance(name, str) else DEFAULT_COLOR
    color = _colors.get(key)
    if color is None:
        color = QColor(key)
        if not color.isValid():
            color = QColor(DEFAULT_COLOR)
        if len(_colors) < 256:
            _colors[key] = color
    return color


def draw_annotations(painter: QPainter, items: Iterable[dict], display_rects: DisplayRects,
                     to_viewport: ToViewport, page_size: tuple[float, float], zoom: float,
                     selected: str | None = None, details: bool = True) -> None:
    """Draw `items` of one page. `display_rects` maps unrotated rects to displayed page points,
    `to_viewport` displayed points to the paint device; `details` adds markers and the selection
    outline (left out of thumbnails, where they would be specks)."""
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    outlined: list[QRectF] = []
    markers: list[tuple[QRectF, QColor]] = []
    for item in items:
        unrotated = item_rects(item)
        shown = display_rects(unrotated) if unrotated else []
        boxes = [to_viewport(rect) for rect in shown]
        color = color_of(item)
        if item.get("kind") == "area":
            _draw_area(painter, boxes, color)
        elif boxes:
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Multiply)
            fill = QColor(color)
            fill.setAlpha(HIGHLIGHT_ALPHA)
            for box in boxes:
                painter.fillRect(box, fill)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        if not details:
            continue
        marker = None
        if has_marker(item):
            marker = to_viewport(marker_box(shown[0] if shown else None, page_size, zoom))
            markers.append((marker, color))
        if selected is not None and item.get("id") == selected:
            outlined += boxes or ([marker] if marker is not None else [])
    for box, color in markers:
        _draw_marker(painter, box, color)
    if outlined:
        painter.setPen(QPen(SELECTED_OUTLINE, 2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for box in outlined:
            painter.drawRect(box.adjusted(-2, -2, 2, 2))
    painter.restore()


def _draw_area(painter: QPainter, boxes: list[QRectF], color: QColor) -> None:
    wash = QColor(color)
    wash.setAlpha(AREA_WASH_ALPHA)
    painter.setPen(QPen(color.darker(130), 1.5))
    painter.setBrush(wash)
    for box in boxes:
        painter.drawRect(box)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(Qt.BrushStyle.NoBrush)


def _draw_marker(painter: QPainter, box: QRectF, color: QColor) -> None:
    """A small note: a square in the annotation's colour with a folded corner."""
    painter.setPen(QPen(color.darker(170), 1))
    painter.setBrush(color)
    painter.drawRect(box)
    fold = box.width() / 3
    painter.setBrush(color.darker(125))
    corner = box.topRight()
    painter.drawPolygon(QPolygonF([corner + QPointF(-fold, 0), corner + QPointF(0, fold),
                                   corner + QPointF(-fold, fold)]))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(Qt.BrushStyle.NoBrush)

