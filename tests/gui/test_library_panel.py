"""The library panel lists the library's documents with their index state and runs the queue."""

from __future__ import annotations

from pdfdesk.gui.library_panel import LibraryPanel
from pdfdesk.index.library import INDEXED, Library
from tests.gui.test_app_window import WAIT_MS, clause_pdf


def statuses(panel: LibraryPanel) -> dict[str, str]:
    return dict(panel.entries_shown())


def test_added_documents_are_indexed_and_listed_with_their_state(qtbot, tmp_path, garbled_pdf):
    first = clause_pdf(tmp_path / "one.pdf", pages=3)
    folder = tmp_path / "folder"
    folder.mkdir()
    second = clause_pdf(folder / "two.pdf", pages=2)
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: panel.empty.isVisibleTo(panel), timeout=WAIT_MS)
    panel.add([str(first), str(folder), str(garbled_pdf)])
    qtbot.waitUntil(lambda: statuses(panel).get(str(first)) == "✓ indexed"
                    and statuses(panel).get(str(second)) == "✓ indexed"
                    and statuses(panel).get(str(garbled_pdf)) == "✗ failed", timeout=WAIT_MS)
    assert not panel.empty.isVisibleTo(panel) and not panel.processing
    items = {panel.tree.topLevelItem(i).text(0): panel.tree.topLevelItem(i) for i in range(panel.tree.topLevelItemCount())}
    assert items["one.pdf"].text(2) == "3" and items["two.pdf"].text(2) == "2"
    assert "pdf_error" in items["garbled.pdf"].toolTip(1)
    assert {e.path: e.status for e in Library().entries()}[str(first)] == INDEXED  # the library file agrees


def test_reindex_and_remove(qtbot, tmp_path):
    from pdfdesk.index.store import DocumentIndex

    doc = clause_pdf(tmp_path / "doc.pdf", pages=2)
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.add([str(doc)])

    def state():
        entries = Library().entries()
        fingerprint = entries[0].fingerprint if entries else None
        return DocumentIndex(fingerprint).read_state() if fingerprint else None

    def settled(after: float = 0.0) -> bool:
        current = state()
        return (statuses(panel).get(str(doc)) == "✓ indexed" and not panel.processing
                and current is not None and current.complete and current.updated > after)

    qtbot.waitUntil(settled, timeout=WAIT_MS)
    before = state().updated
    panel.tree.topLevelItem(0).setSelected(True)
    panel.reindex_button.click()
    qtbot.waitUntil(lambda: settled(before), timeout=WAIT_MS)  # rebuilt from scratch
    panel.tree.topLevelItem(0).setSelected(True)
    panel.remove_button.click()
    qtbot.waitUntil(lambda: statuses(panel) == {}, timeout=WAIT_MS)
    assert Library().entries() == []


def test_double_click_opens_the_document(qtbot, make_window, tmp_path):
    doc = clause_pdf(tmp_path / "doc.pdf", pages=2)
    window = make_window([])
    panel = window.library_panel
    panel.add([str(doc)])
    qtbot.waitUntil(lambda: statuses(panel).get(str(doc)) == "✓ indexed", timeout=WAIT_MS)
    item = panel.tree.topLevelItem(0)
    panel.tree.itemDoubleClicked.emit(item, 0)
    qtbot.waitUntil(lambda: window.current_tab() is not None and window.current_tab().reference == str(doc),
                    timeout=WAIT_MS)
