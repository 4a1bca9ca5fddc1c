"""The search panel while a large document is being indexed, and how results are shown."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QProgressBar

from pdfdesk.gui.indexing import IndexProgress
from pdfdesk.gui.progress_line import BAR_MARGIN, ProgressLine, page_counts
from pdfdesk.gui.search_panel import SearchPanel, result_html
from tests.gui.conftest import view_highlights
from tests.gui.test_app_window import WAIT_MS, wait_open


def test_indexing_progress_is_shown_and_search_works_meanwhile(qtbot, make_window, long_pdf):
    window = make_window([long_pdf])
    wait_open(qtbot, window, 1)
    panel = window.search_panel
    # opening the document started its index build; its progress shows in the panel and status bar
    qtbot.waitUntil(lambda: panel.progress.isVisible() and window.index_progress.isVisible(), timeout=WAIT_MS)
    assert panel.progress_caption.text().startswith("Indexing long-1500.pdf") and panel.progress_caption.isVisible()
    assert "/ 1,500" in panel.progress.text() or panel.progress.text().endswith("%")
    tip = panel.progress.toolTip()
    assert tip.startswith("Indexing long-1500.pdf:") and "of 1,500 pages" in tip
    assert panel.progress.maximum() == 1500
    assert bar_text_fits(panel.progress)  # the dock is narrow as the window first opens
    # so is the status bar's: it shows what fits, and the whole sentence in its tooltip
    qtbot.waitUntil(lambda: window.index_progress.value() > 0, timeout=WAIT_MS)
    assert bar_text_fits(window.index_progress), window.index_progress.text()
    assert window.index_progress.toolTip().startswith("Indexing long-1500.pdf:")
    panel.query.setText("Keyword42")
    with qtbot.waitSignal(panel.searchFinished, timeout=WAIT_MS) as finished:
        panel.search()
    details = finished.args[0]
    assert details["count"] >= 1 and not details.get("index_complete", True)
    assert "still being built" in panel.status.text()
    first = panel.results.item(0)
    match = first.data(0x0100 + 1)
    assert match["page"] % 97 == 42
    panel.results.itemActivated.emit(first)
    view = window.current_view()
    qtbot.waitUntil(lambda: view.current_page == match["page"], timeout=WAIT_MS)
    assert view_highlights(view)[0] == match["page"]
    # when the build ends the bars go away
    qtbot.waitUntil(lambda: not panel.progress.isVisible() and not window.index_progress.isVisible(), timeout=120_000)
    assert not panel.progress_caption.isVisible()


def test_result_html_escapes_the_document_and_bolds_hits():
    match = {"granularity": "page", "page": 3, "section": "Terms <b>", "excerpt": "The <script> fee is due.",
             "file": "/x/a.pdf"}
    html = result_html(match, "fee", library=True)
    assert "<b>a.pdf</b>" in html and "p. 3" in html and "Terms &lt;b&gt;" in html
    assert "&lt;script&gt;" in html and "<b>fee</b>" in html
    section = result_html({"granularity": "section", "page": 5, "start_page": 4, "end_page": 6, "title": "Fees",
                           "path": "Contract › Fees", "excerpt": "x", "low_confidence": True}, "x", library=False)
    assert "§ Contract › Fees · pp. 4–6 · hit on p. 5" in section and "related in meaning" in section


def test_searching_without_a_document_explains(qtbot, make_window):
    window = make_window([])
    window.close_current_tab()
    qtbot.waitUntil(lambda: not window.document_tabs(), timeout=WAIT_MS)
    window.search_panel.query.setText("anything")
    window.search_panel.search()
    assert "Open a document first" in window.search_panel.status.text()
    window.search_panel.query.setText("  ")
    window.search_panel.search()
    assert "Type what to look for" in window.search_panel.status.text()


def bar_text_fits(bar) -> bool:
    return QFontMetrics(bar.font()).horizontalAdvance(bar.text()) <= bar.width() - BAR_MARGIN


def test_indexing_progress_fits_a_narrow_panel(qtbot):
    panel = SearchPanel(lambda: None)
    qtbot.addWidget(panel)
    panel.resize(300, 400)
    panel.show()
    long_name = "r-fullrefman-the-complete-reference-manual-for-version-4.4.1-with-all-appendices.pdf"
    for name in ("r-fullrefman.pdf", long_name):
        panel.show_index_progress(IndexProgress("/docs/" + name, name, 1500, 2415, complete=False))
        qtbot.waitUntil(lambda: panel.progress.isVisible() and panel.progress.width() <= 300, timeout=WAIT_MS)
        bar = panel.progress
        assert bar.text() == "1,500 / 2,415 pages" and bar_text_fits(bar)
        full = f"Indexing {name}: 1,500 of 2,415 pages (search works meanwhile)"
        assert bar.toolTip() == full and panel.progress_caption.toolTip() == full
        caption = panel.progress_caption
        assert caption.isVisible() and caption.text().endswith("· search works meanwhile")
        shown_name = caption.text().split(" · ")[0].removeprefix("Indexing ")  # wraps onto a line of its own
        assert QFontMetrics(caption.font()).horizontalAdvance(shown_name) <= caption.contentsRect().width()
    assert "…" in panel.progress_caption.text()  # the long name, elided in the middle
    assert panel.progress_caption.text().startswith("Indexing r-full") and ".pdf ·" in panel.progress_caption.text()
    # as narrow as the panel goes, the text still fits (a shorter form if need be); wider, the name is whole
    panel.resize(panel.minimumSizeHint().width(), 400)
    qtbot.waitUntil(lambda: panel.progress.width() < 250, timeout=WAIT_MS)
    assert panel.progress.text() in ("1,500 / 2,415 pages", "1,500 / 2,415", "62%") and bar_text_fits(panel.progress)
    panel.resize(1400, 400)
    qtbot.waitUntil(lambda: long_name in panel.progress_caption.text(), timeout=WAIT_MS)
    assert panel.progress.text() == "1,500 / 2,415 pages"
    panel.show_index_progress(None)
    assert not panel.progress.isVisible() and not panel.progress_caption.isVisible()


def test_a_bar_too_narrow_for_the_count_shows_shorter_forms(qtbot):
    bar, caption = QProgressBar(), QLabel()
    qtbot.addWidget(bar)
    qtbot.addWidget(caption)
    line = ProgressLine(bar, caption)
    bar.resize(400, 16)
    bar.show()
    line.report(1500, 2415, page_counts(1500, 2415), caption="Indexing {name}", name="a.pdf")
    assert bar.text() == "1,500 / 2,415 pages"
    widths = {}
    for width in (400, 95, 50):
        bar.resize(width, 16)
        widths[width] = bar.text()
        assert bar_text_fits(bar)
    assert widths[95] in ("1,500 / 2,415", "62%") and widths[50] == "62%"
    line.hide()
    assert bar.isHidden() and caption.isHidden()
