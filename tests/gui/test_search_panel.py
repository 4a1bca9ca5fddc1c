"""The search panel while a large document is being indexed, and how results are shown."""

from __future__ import annotations

from pdfdesk.gui.search_panel import result_html
from tests.gui.conftest import view_highlights
from tests.gui.test_app_window import WAIT_MS, wait_open


def test_indexing_progress_is_shown_and_search_works_meanwhile(qtbot, make_window, long_pdf):
    window = make_window([long_pdf])
    wait_open(qtbot, window, 1)
    panel = window.search_panel
    # opening the document started its index build; its progress shows in the panel and status bar
    qtbot.waitUntil(lambda: panel.progress.isVisible() and window.index_progress.isVisible(), timeout=WAIT_MS)
    assert panel.progress.format().startswith("Indexing long-1500.pdf:") and "of 1500 pages" in panel.progress.format()
    assert panel.progress.maximum() == 1500
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
