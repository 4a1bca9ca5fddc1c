"""Search results stay readable in the light and the dark theme, selected or not: the caption line
(file, page, section) and the excerpt reach WCAG's 4.5:1 against the row's background, measured on
the painted pixels as well as on the colours the delegate picks."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFontMetrics, QImage, QPalette
from PySide6.QtWidgets import QListWidgetItem

from pdfdesk.gui import theme
from pdfdesk.gui.search_panel import HTML_ROLE, MATCH_ROLE, ResultDelegate, SearchPanel, result_colours, result_html

SCHEMES = [Qt.ColorScheme.Light, Qt.ColorScheme.Dark]


@pytest.fixture(params=SCHEMES, ids=["light", "dark"])
def scheme(request, qapp):
    theme.apply_theme(qapp, request.param)
    yield request.param
    theme.apply_theme(qapp, Qt.ColorScheme.Light)


def _match(page: int) -> dict:
    return {"granularity": "page", "page": page, "section": "Payment terms", "file": "/docs/report.pdf",
            "excerpt": "The fee is due within thirty days of the invoice date, without deduction.",
            "low_confidence": page == 2, "rects": []}


def _panel(qtbot) -> SearchPanel:
    panel = SearchPanel(lambda: ("/docs/report.pdf", None))
    qtbot.addWidget(panel)
    panel.resize(460, 420)
    for page in (1, 2, 3):
        item = QListWidgetItem()
        item.setData(MATCH_ROLE, _match(page))
        item.setData(HTML_ROLE, result_html(_match(page), "fee", library=True))
        panel.results.addItem(item)
    panel.show()
    qtbot.waitUntil(panel.isVisible)
    panel.results.setCurrentRow(0)
    qtbot.wait(50)
    return panel


def _band_contrast(image: QImage, band: QRect) -> float:
    """Contrast between a band's background (its commonest pixel) and the pixel farthest from it."""
    pixels = [image.pixelColor(x, y).rgb() for y in range(band.top(), band.bottom() + 1)
              for x in range(band.left(), band.right() + 1)]
    background = QColor.fromRgb(Counter(pixels).most_common(1)[0][0])
    return max(theme.contrast(QColor.fromRgb(p), background) for p in set(pixels))


def test_the_chosen_colours_are_readable(scheme, qapp):
    palette = qapp.palette()
    for selected in (False, True):
        for active in (False, True):
            colours = result_colours(palette, selected, active)
            for part in ("text", "caption"):
                assert theme.contrast(colours[part], colours["background"]) >= theme.READABLE, (scheme, selected, part)
    assert theme.contrast(palette.color(QPalette.ColorRole.HighlightedText),
                          palette.color(QPalette.ColorRole.Highlight)) >= theme.READABLE


def test_painted_results_are_readable_selected_or_not(scheme, qtbot):
    panel = _panel(qtbot)
    results = panel.results
    image = results.viewport().grab().toImage()
    caption_height = QFontMetrics(results.font()).height()  # the caption line is small text: at most this
    for row, selected in ((0, True), (1, False), (2, False)):
        rect = results.visualItemRect(results.item(row))
        assert results.item(row).isSelected() == selected
        top = rect.top() + ResultDelegate.MARGIN
        caption = QRect(rect.left() + ResultDelegate.MARGIN, top, rect.width() - 2 * ResultDelegate.MARGIN,
                        caption_height - 2)
        excerpt = QRect(caption.left(), caption.bottom() + 4, caption.width(), caption_height)
        for name, band in (("caption", caption), ("excerpt", excerpt)):
            ratio = _band_contrast(image, band.intersected(image.rect()))
            assert ratio >= theme.READABLE, (scheme, row, name, round(ratio, 2))


def test_selected_caption_is_not_the_fixed_grey(scheme, qapp):
    """The regression itself: the theme's grey on the selection colour is unreadable, so it is not used."""
    palette = qapp.palette()
    grey, highlight = QColor(theme.colors()["muted"]), palette.color(QPalette.ColorRole.Highlight)
    assert theme.contrast(grey, highlight) < theme.READABLE
    assert result_colours(palette, selected=True)["caption"] != grey


def test_wcag_contrast_reference_values():
    assert theme.contrast(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21.0)
    assert theme.contrast(QColor("#777777"), QColor("#ffffff")) == pytest.approx(4.48, abs=0.01)
    assert theme.contrast(QColor("#308cc6"), QColor("#ffffff")) < theme.READABLE  # Fusion's own selection blue
