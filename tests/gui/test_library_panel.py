"""The library panel lists the library's documents with their index state and runs the queue."""

from __future__ import annotations

import gc
import random
import time
from dataclasses import replace

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QFontMetrics

from pdfdesk.gui import library_panel
from pdfdesk.gui.library_model import FOLDER, NAME, PAGES, STATUS
from pdfdesk.gui.library_panel import LibraryPanel
from pdfdesk.gui.progress_line import BAR_MARGIN
from pdfdesk.index.library import INDEXED, QUEUED, Library, LibraryEntry
from tests.gui.test_app_window import WAIT_MS, clause_pdf

SELECT_ROWS = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows


def statuses(panel: LibraryPanel) -> dict[str, str]:
    return dict(panel.entries_shown())


def cell(panel: LibraryPanel, name: str, column: int, role: int = Qt.ItemDataRole.DisplayRole) -> object:
    """What the view shows (or tips) in `column` of the row named `name`."""
    model = panel.model
    row = next(r for r in range(model.rowCount()) if model.index(r, NAME).data() == name)
    return model.index(row, column).data(role)


def select_row(panel: LibraryPanel, row: int) -> None:
    panel.view.selectionModel().select(panel.model.index(row, 0), SELECT_ROWS)


def fake_entries(count: int, seed: int = 0) -> list[LibraryEntry]:
    """A large library: 50 folders, indexed and queued documents mixed, newest first."""
    rng = random.Random(seed)
    return [LibraryEntry(path=f"/library/folder{i % 50:02d}/report-{i:05d}.pdf", name=f"report-{i:05d}.pdf",
                         status=rng.choice((INDEXED, QUEUED)), pages=rng.randint(1, 2000), fingerprint=f"f{i}",
                         added=1e9 - i)
            for i in range(count)]


def idle_panel(qtbot, monkeypatch, entries: list[LibraryEntry]) -> LibraryPanel:
    """A shown panel whose own re-reads of the library return `entries` (no library file needed)."""
    monkeypatch.setattr(library_panel, "list_entries", lambda: list(entries))
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 600)
    panel.show()
    qtbot.waitUntil(lambda: panel.model.rowCount() == len(entries) and len(entries) > 0, timeout=WAIT_MS)
    return panel


def test_added_documents_are_indexed_and_listed_with_their_state(qtbot, tmp_path, garbled_pdf):
    first = clause_pdf(tmp_path / "one.pdf", pages=3)
    folder = tmp_path / "folder"
    folder.mkdir()
    second = clause_pdf(folder / "two.pdf", pages=2)
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: panel.empty.isVisibleTo(panel), timeout=WAIT_MS)
    assert panel.summary.text().startswith("0 documents")
    panel.add([str(first), str(folder), str(garbled_pdf)])
    qtbot.waitUntil(lambda: statuses(panel).get(str(first)) == "✓ indexed"
                    and statuses(panel).get(str(second)) == "✓ indexed"
                    and statuses(panel).get(str(garbled_pdf)) == "✗ failed", timeout=WAIT_MS)
    # after the documents' own indices, the run adds them to the library index, then ends
    qtbot.waitUntil(lambda: not panel.processing, timeout=WAIT_MS)
    assert not panel.empty.isVisibleTo(panel)
    from pdfdesk.index.library_fts import SqliteLibrary

    assert SqliteLibrary().state().documents == 2
    assert cell(panel, "one.pdf", PAGES) == "3" and cell(panel, "two.pdf", PAGES) == "2"
    assert cell(panel, "one.pdf", NAME, Qt.ItemDataRole.ToolTipRole) == str(first)
    assert cell(panel, "two.pdf", FOLDER) == str(folder)
    assert "pdf_error" in cell(panel, "garbled.pdf", STATUS, Qt.ItemDataRole.ToolTipRole)
    alignment = Qt.AlignmentFlag(cell(panel, "one.pdf", PAGES, Qt.ItemDataRole.TextAlignmentRole))
    assert alignment & Qt.AlignmentFlag.AlignRight
    assert panel.summary.text() == "3 documents · 2 indexed · 0 queued · 1 failed"
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
    select_row(panel, 0)
    assert panel.selected_paths() == [str(doc)]
    panel.reindex_button.click()
    qtbot.waitUntil(lambda: settled(before), timeout=WAIT_MS)  # rebuilt from scratch
    select_row(panel, 0)
    panel.remove_button.click()
    qtbot.waitUntil(lambda: statuses(panel) == {}, timeout=WAIT_MS)
    assert Library().entries() == []


def test_double_click_opens_the_document(qtbot, make_window, tmp_path):
    doc = clause_pdf(tmp_path / "doc.pdf", pages=2)
    window = make_window([])
    panel = window.library_panel
    panel.add([str(doc)])
    qtbot.waitUntil(lambda: statuses(panel).get(str(doc)) == "✓ indexed", timeout=WAIT_MS)
    panel.view.activated.emit(panel.model.index(0, NAME))
    qtbot.waitUntil(lambda: window.current_tab() is not None and window.current_tab().reference == str(doc),
                    timeout=WAIT_MS)


def test_double_click_and_enter_activate_a_row(qtbot, monkeypatch):
    entries = fake_entries(20)
    panel = idle_panel(qtbot, monkeypatch, entries)
    rect = panel.view.visualRect(panel.model.index(2, NAME))
    with qtbot.waitSignal(panel.documentActivated, timeout=WAIT_MS) as clicked:
        qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a double
        qtbot.mouseDClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # click's halves
    assert clicked.args == [entries[2].path]
    panel.view.setCurrentIndex(panel.model.index(5, NAME))
    with qtbot.waitSignal(panel.documentActivated, timeout=WAIT_MS) as entered:
        qtbot.keyClick(panel.view, Qt.Key.Key_Return)
    assert entered.args == [entries[5].path]


def test_ten_thousand_documents_refresh_quickly_filter_and_sort(qtbot, monkeypatch):
    entries = fake_entries(10_000)
    panel = idle_panel(qtbot, monkeypatch, fake_entries(10))
    gc.collect()  # the test's own 10,000 new objects are not the panel's cost
    started = time.perf_counter()
    panel._show(entries)
    first = time.perf_counter() - started
    changed = fake_entries(10_000, seed=1)  # the same documents, other states: a refresh while indexing
    gc.collect()
    started = time.perf_counter()
    panel._show(changed)
    again = time.perf_counter() - started
    started = time.perf_counter()
    qtbot.wait(1)  # the view lays out and paints the rows it shows
    painted = time.perf_counter() - started
    print(f"\n10,000 documents: first fill {first * 1000:.1f} ms, refresh {again * 1000:.1f} ms,"
          f" view layout and paint {painted * 1000:.1f} ms")
    assert first < 0.2 and again < 0.2
    assert len(panel.entries_shown()) == 10_000
    assert [path for path, _ in panel.entries_shown()[:3]] == [e.path for e in changed[:3]]  # newest first
    indexed = sum(e.status == INDEXED for e in changed)
    assert panel.summary.text() == f"10,000 documents · {indexed:,} indexed · {10_000 - indexed:,} queued · 0 failed"

    qtbot.keyClicks(panel.filter, "folder07")
    qtbot.waitUntil(lambda: panel.model.rowCount() == 200, timeout=WAIT_MS)
    shown = panel.entries_shown()
    assert {path for path, _ in shown} == {e.path for e in changed if "/folder07/" in e.path}
    assert dict(shown) == {e.path: "✓ indexed" if e.status == INDEXED else "○ queued"
                           for e in changed if "/folder07/" in e.path}
    assert panel.summary.text().endswith("· 200 shown")
    panel.filter.setText("report-0000")  # by name
    panel.apply_filter()
    assert [path for path, _ in panel.entries_shown()] == [e.path for e in changed[:10]]
    panel.filter.setText("folder07 report-09")  # every word must match
    panel.apply_filter()
    assert len(panel.entries_shown()) == 20 and all("/folder07/report-09" in p for p, _ in panel.entries_shown())

    panel.filter.clear()
    panel.apply_filter()
    panel.view.sortByColumn(PAGES, Qt.SortOrder.DescendingOrder)
    pages = {e.path: e.pages for e in changed}
    order = [pages[path] for path, _ in panel.entries_shown()]
    assert len(order) == 10_000 and order == sorted(order, reverse=True)
    assert panel.model.index(0, PAGES).data() == f"{order[0]:,}"
    panel.view.sortByColumn(PAGES, Qt.SortOrder.AscendingOrder)
    assert [pages[path] for path, _ in panel.entries_shown()][:1] == [min(order)]


def test_the_selection_survives_refreshes_and_sorting(qtbot, monkeypatch):
    entries = fake_entries(100)
    panel = idle_panel(qtbot, monkeypatch, entries)
    panel.view.selectionModel().select(panel.model.index(3, 0), SELECT_ROWS)
    panel.view.selectionModel().select(panel.model.index(7, 0), QItemSelectionModel.SelectionFlag.Select
                                       | QItemSelectionModel.SelectionFlag.Rows)
    wanted = [entries[3].path, entries[7].path]
    assert panel.selected_paths() == wanted
    panel._show(fake_entries(100, seed=5))  # states change in place
    assert panel.selected_paths() == wanted
    newer = LibraryEntry(path="/library/new/added.pdf", name="added.pdf", added=2e9)
    panel._show([newer, *fake_entries(100, seed=5)])  # a row came: the rows are replaced
    assert panel.selected_paths() == wanted and panel.entries_shown()[0][0] == newer.path
    panel.view.sortByColumn(NAME, Qt.SortOrder.DescendingOrder)
    assert sorted(panel.selected_paths()) == sorted(wanted)


def test_library_progress_counts_the_whole_run_and_fits_its_bar(qtbot, monkeypatch):
    panel = idle_panel(qtbot, monkeypatch, fake_entries(30))
    panel.resize(300, 500)
    monkeypatch.setattr(LibraryPanel, "processing", property(lambda self: True))
    panel._show([replace(e, status=QUEUED) for e in fake_entries(30)])  # the run's documents, waiting
    panel._show(fake_entries(30))  # a later refresh: some are done
    panel._progressed(("a-very-long-document-name-from-the-publisher-2024-final-v3.pdf", 1500, 24150))
    qtbot.waitUntil(lambda: panel.progress.isVisible() and panel.progress.width() <= 300, timeout=WAIT_MS)
    bar = panel.progress
    assert (bar.minimum(), bar.maximum(), bar.value()) == (0, 24150, 1500)
    assert QFontMetrics(bar.font()).horizontalAdvance(bar.text()) <= bar.width() - BAR_MARGIN
    finished = sum(e.status == INDEXED for e in fake_entries(30))
    assert bar.toolTip() == (f"Library index: 1,500 of 24,150 pages · {finished} of 30 documents"
                             " · latest: a-very-long-document-name-from-the-publisher-2024-final-v3.pdf")
    caption = panel.progress_caption.text()
    assert caption.startswith("Library index: 1,500 of 24,150 pages") and "…" in caption  # the name elided
