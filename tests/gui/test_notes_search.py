"""The search panel lists notes matching the query in a "Notes" group above the page hits (this
document's, or every document's when searching the library); clicking one shows it like the Notes
panel does."""

from __future__ import annotations

from pdfdesk.gui.search_panel import NOTE_ROLE
from tests.gui.conftest import view_highlights
from tests.gui.test_app_window import WAIT_MS
from tests.gui.test_review_controller import layer_of, ready_window, request, review_pdf, settle


def test_matching_notes_come_first_and_jump(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    other = review_pdf(tmp_path / "other.pdf")
    window = ready_window(qtbot, make_window, path, other)
    controller = window.review.controller
    request(window, path, 3, "indemnification clause")
    qtbot.waitUntil(lambda: len(controller.items()) == 1, timeout=WAIT_MS)
    settle(qtbot, controller)
    key = controller.items()[0]["id"]
    controller.update(key, note="insurance carve-out")
    qtbot.waitUntil(lambda: controller.items()[0]["note"] == "insurance carve-out" and not controller.busy,
                    timeout=WAIT_MS)
    panel = window.search_panel
    panel.query.setText("insurance")
    with qtbot.waitSignal(panel.notesFound, timeout=WAIT_MS) as found:
        panel.search()
    assert found.args == [1]
    qtbot.waitUntil(lambda: panel.results.count() >= 3, timeout=WAIT_MS)
    assert "Notes (1)" in panel.results.item(0).data(0x0100 + 2)
    document, note = panel.results.item(1).data(NOTE_ROLE)
    assert document == str(path) and note["id"] == key
    assert "insurance carve-out" in panel.results.item(1).data(0x0100 + 2).replace("<b>", "").replace("</b>", "")
    # from the other tab, across the library: the note opens its own document at the passage
    window.tabs.setCurrentIndex(1)
    panel.scope.setCurrentIndex(panel.scope.findData("library"))
    with qtbot.waitSignal(panel.notesFound, timeout=WAIT_MS) as found:
        panel.search()
    assert found.args == [1]
    qtbot.waitUntil(lambda: panel.results.count() >= 2 and panel.results.item(1).data(NOTE_ROLE) is not None,
                    timeout=WAIT_MS)
    panel.results.itemActivated.emit(panel.results.item(1))
    qtbot.waitUntil(lambda: window.current_tab().reference == str(path), timeout=WAIT_MS)
    view = window.current_view()
    qtbot.waitUntil(lambda: view.current_page == 3 and view_highlights(view) is not None, timeout=WAIT_MS)
    assert layer_of(window).selected() == key
    # a query no note matches adds no group
    panel.query.setText("ninety")
    with qtbot.waitSignal(panel.notesFound, timeout=WAIT_MS) as found:
        panel.search()
    assert found.args == [0]
