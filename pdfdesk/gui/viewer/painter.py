"""How the viewer draws what is not a rendered page: backgrounds, placeholders, overlays, messages.

Colours live here so the tests and the rest of the GUI can refer to them by name.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

BACKGROUND = QColor(0x52, 0x56, 0x59)
PAGE_COLOR = QColor(255, 255, 255)
PAGE_BORDER = QColor(0, 0, 0, 60)
PLACEHOLDER_TEXT = QColor(0xB0, 0xB0, 0xB0)
SEARCH_HIT = QColor(255, 145, 0, 110)  # highlights set by go_to_page/set_highlights (search results, citations)
FIND_HIT = QColor(255, 225, 0, 110)  # every find-bar match on screen
FIND_CURRENT = QColor(255, 90, 0, 140)  # the find-bar match that is current
SELECTION = QColor(40, 120, 255, 90)
ERROR_TEXT = QColor(0xB0, 0x20, 0x20)
BADGE = QColor(0x30, 0x30, 0x30, 200)  # a note on the page, such as "Recognising text…"
BADGE_TEXT = QColor(255, 255, 255)
RECOGNISING = "Recognising text…"
BADGE_MARGIN = 8.0


def draw_page_frame(painter: QPainter, rect: QRectF) -> None:
    """A white sheet with a thin border (what every page looks like before its pixels arrive)."""
    painter.fillRect(rect.adjusted(1, 1, 3, 3), QColor(0, 0, 0, 50))  # soft shadow
    painter.fillRect(rect, PAGE_COLOR)
    painter.setPen(QPen(PAGE_BORDER, 1))
    painter.drawRect(rect.adjusted(-0.5, -0.5, 0.5, 0.5))


def draw_placeholder(painter: QPainter, rect: QRectF, page_number: int) -> None:
    """The page number, light and centred, on a page that has not been rendered yet."""
    font = QFont(painter.font())
    font.setPointSizeF(max(8.0, min(28.0, rect.width() / 12)))
    painter.setFont(font)
    painter.setPen(PLACEHOLDER_TEXT)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(page_number))


def draw_page_error(painter: QPainter, rect: QRectF, message: str) -> None:
    painter.setPen(ERROR_TEXT)
    inner = rect.adjusted(rect.width() * 0.1, 0, -rect.width() * 0.1, 0)
    painter.drawText(inner, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), message)


def draw_rects(painter: QPainter, rects: Iterable[QRectF], color: QColor) -> None:
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    for rect in rects:
        painter.drawRect(rect)
    painter.setBrush(Qt.BrushStyle.NoBrush)


def draw_message(painter: QPainter, area: QRectF, title: str, body: str, hint: str = "") -> None:
    """An in-place notice (damaged file, password needed) in a card centred in the viewport."""
    width = min(560.0, area.width() - 40.0)
    if width < 80:
        return
    title_font = QFont(painter.font())
    title_font.setPointSizeF(title_font.pointSizeF() * 1.3 if title_font.pointSizeF() > 0 else 13)
    title_font.setBold(True)
    body_font = QFont(painter.font())
    flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
    painter.setFont(title_font)
    title_box = painter.boundingRect(QRectF(0, 0, width - 40, 10_000), flags, title)
    painter.setFont(body_font)
    body_box = painter.boundingRect(QRectF(0, 0, width - 40, 10_000), flags, body)
    hint_box = painter.boundingRect(QRectF(0, 0, width - 40, 10_000), flags, hint) if hint else QRectF()
    height = title_box.height() + body_box.height() + (hint_box.height() + 12 if hint else 0) + 56
    card = QRectF(area.center().x() - width / 2, max(area.top() + 20, area.center().y() - height / 2), width, height)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(255, 255, 255))
    painter.drawRoundedRect(card, 8, 8)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    y = card.top() + 20
    painter.setFont(title_font)
    painter.setPen(QColor(0x20, 0x20, 0x20))
    painter.drawText(QRectF(card.left() + 20, y, width - 40, title_box.height()), flags, title)
    y += title_box.height() + 12
    painter.setFont(body_font)
    painter.drawText(QRectF(card.left() + 20, y, width - 40, body_box.height()), flags, body)
    y += body_box.height() + 12
    if hint:
        painter.setPen(QColor(0x60, 0x60, 0x60))
        painter.drawText(QRectF(card.left() + 20, y, width - 40, hint_box.height()), flags, hint)


def draw_badge(painter: QPainter, page: QRectF, text: str) -> None:
    """A small label in the page's top-right corner, over the page; left out when the page is
    shown too small for it to be read."""
    font = QFont(painter.font())
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() * 0.9)
    painter.save()
    painter.setFont(font)
    metrics = painter.fontMetrics()
    width, height = metrics.horizontalAdvance(text) + 16.0, metrics.height() + 8.0
    if width + 2 * BADGE_MARGIN > page.width() or height + 2 * BADGE_MARGIN > page.height():
        painter.restore()
        return
    box = QRectF(page.right() - BADGE_MARGIN - width, page.top() + BADGE_MARGIN, width, height)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(BADGE)
    painter.drawRoundedRect(box, height / 2, height / 2)
    painter.setPen(BADGE_TEXT)
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()
