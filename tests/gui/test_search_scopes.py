"""The search panel's scopes (open documents, a library folder) and its "Documents" list with export."""

from __future__ import annotations

import csv
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.gui import document_results, theme
from pdfdesk.gui.document_results import DOCUMENT_ROLE
from pdfdesk.gui.search_panel import MATCH_ROLE, SearchPanel
from pdfdesk.gui.search_runs import BOM, CSV_HEADER, in_folder, merge_searches
from pdfdesk.index.library import INDEXED, Library
from pdfdesk.tools.contract import ToolResult
from tests.gui.conftest import view_highlights
from tests.gui.test_app_window import WAIT_MS, wait_open


def pdf(path: Path, pages: list[str]) -> Path:
    doc = pymupdf.open()
    for text in pages:
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 760), text, fontsize=11)
    doc.save(path)
    doc.close()
    return path


def choose(combo, value: str) -> None:
    combo.setCurrentIndex(combo.findData(value))


def test_open_documents_are_searched_together_and_a_hit_opens_its_tab(qtbot, make_window, tmp_path):
    one = pdf(tmp_path / "lease.pdf", ["Opening words.", "The tenant pays the deposit in March."])
    two = pdf(tmp_path / "loan.pdf", ["The deposit deposit deposit is held in escrow.", "Nothing here.",
                                       "A late deposit costs a fee."])
    window = make_window([one, two])
    wait_open(qtbot, window, 2)
    window.tabs.setCurrentIndex(0)
    panel = window.search_panel
    choose(panel.scope, "open")
    panel.query.setText("deposit")
    with qtbot.waitSignal(panel.searchFinished, timeout=WAIT_MS) as finished:
        panel.search()
    details = finished.args[0]
    matches = details["matches"]
    assert {(Path(m["file"]).name, m["page"]) for m in matches} == {("lease.pdf", 2), ("loan.pdf", 1), ("loan.pdf", 3)}
    assert [m["score"] for m in matches] == sorted((m["score"] for m in matches), reverse=True)
    assert details["documents_searched"] == 2 and "2 open document(s)" in panel.status.text()
    rows = [panel.results.item(i) for i in range(panel.results.count())]
    shown = [row for row in rows if row.data(MATCH_ROLE)]
    assert len(shown) == 3
    assert all(Path(row.data(MATCH_ROLE)["file"]).name in row.data(0x0100 + 2) for row in shown)  # names the document
    # a hit in the other tab's document switches to that tab, at its page, highlighted
    late = next(row for row in shown if row.data(MATCH_ROLE)["page"] == 3)
    panel.results.itemClicked.emit(late)
    qtbot.waitUntil(lambda: window.current_tab().reference == str(two), timeout=WAIT_MS)
    view = window.current_view()
    qtbot.waitUntil(lambda: view.current_page == 3, timeout=WAIT_MS)
    assert view_highlights(view)[0] == 3 and view_highlights(view)[1]
    assert len(window.document_tabs()) == 2  # switched, not opened again
    # "Documents" over the open tabs: each document once, ranked by its best page's score
    choose(panel.granularity, "document")
    with qtbot.waitSignal(panel.documents_view.loaded, timeout=WAIT_MS) as listed:
        panel.search()
    listed_docs = listed.args[0]["documents"]
    assert sorted((Path(d["file"]).name, d["pages_matching"]) for d in listed_docs) == [("lease.pdf", 1),
                                                                                         ("loan.pdf", 2)]
    assert [d["score"] for d in listed_docs] == sorted((d["score"] for d in listed_docs), reverse=True)
    assert "<b>2</b> documents match" in panel.status.text()
    window.tabs.setCurrentIndex(1)
    first = next(panel.results.item(i) for i in range(panel.results.count())
                 if (panel.results.item(i).data(DOCUMENT_ROLE) or {}).get("file") == str(one))
    panel.results.itemClicked.emit(first)
    qtbot.waitUntil(lambda: window.current_tab().reference == str(one), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.current_view().current_page == 2, timeout=WAIT_MS)


def test_open_documents_without_tabs_explains(qtbot):
    panel = SearchPanel(lambda: None, open_documents=list)
    qtbot.addWidget(panel)
    choose(panel.scope, "open")
    panel.query.setText("deposit")
    panel.search()
    assert "Open some documents first" in panel.status.text()


def test_merging_ranks_by_score_and_keeps_failures_apart():
    good = ToolResult(content=[], details={"query": "q", "mode": "keyword", "granularity": "page", "matches": [
        {"page": 1, "score": 0.2, "file": "/a.pdf"}, {"page": 4, "score": 0.9, "file": "/a.pdf"}]})
    other = ToolResult(content=[], details={"matches": [{"page": 2, "score": 0.5, "file": "/b.pdf"}]})
    bad = ToolResult(content=[], details={"error": "pdf_error", "message": "broken"}, is_error=True)
    merged = merge_searches([("/a.pdf", good), ("/b.pdf", other), ("/c.pdf", bad)], limit=2)
    assert [(m["file"], m["page"]) for m in merged.details["matches"]] == [("/a.pdf", 4), ("/b.pdf", 2)]
    assert merged.details["matches_omitted"] == 1
    assert merged.details["documents_skipped"] == [{"file": "/c.pdf", "error": "pdf_error"}]
    assert merge_searches([("/c.pdf", bad)], 5) is bad
    assert in_folder("/x/case/a.pdf", "/x/case") and not in_folder("/x/cases/a.pdf", "/x/case")


@pytest.fixture
def library(tmp_path) -> dict[str, set[str]]:
    """12 indexed PDFs in two folders: 9 hold "indemnity" and "cap" on some page (the complete
    answer), 3 hold only one of the words; returns the expected sets."""
    folders = {"alpha": tmp_path / "cases" / "alpha", "beta": tmp_path / "cases" / "beta"}
    for folder in folders.values():
        folder.mkdir(parents=True)
    expected: dict[str, set[str]] = {"all": set(), "alpha": set()}
    paths = []
    for n in range(12):
        where = "alpha" if n % 2 else "beta"
        pages = [f"Agreement {n}, general terms.", "Delivery and payment schedule."]
        if n < 9:
            pages += ["The indemnity is subject to a cap of one million." for _ in range(1 + n % 3)]
        else:
            pages.append("The indemnity has no limit." if n % 2 else "The cap applies to fees.")
        path = pdf(folders[where] / f"contract-{n:02d}-ä.pdf", pages)
        paths.append(str(path))
        if n < 9:
            expected["all"].add(str(path))
            if where == "alpha":
                expected["alpha"].add(str(path))
    lib = Library()
    lib.add(paths)
    lib.process()
    assert {e.status for e in lib.entries()} == {INDEXED}
    expected["alpha_folder"] = {str(folders["alpha"])}
    return expected


def documents_shown(panel: SearchPanel) -> list[dict]:
    rows = [panel.results.item(i).data(DOCUMENT_ROLE) for i in range(panel.results.count())]
    return [row for row in rows if row]


def test_documents_lists_the_complete_set_pages_through_it_and_exports(qtbot, monkeypatch, library, tmp_path):
    monkeypatch.setattr(document_results, "PAGE_SIZE", 4)
    panel = SearchPanel(lambda: None)
    qtbot.addWidget(panel)
    panel.resize(400, 300)
    panel.show()
    choose(panel.granularity, "document")
    choose(panel.scope, "library")
    panel.query.setText("indemnity cap")
    view = panel.documents_view
    with qtbot.waitSignal(view.loaded, timeout=WAIT_MS) as first:
        panel.search()
    assert first.args[0]["documents_total"] == 9 and first.args[0]["next_offset"] == 4
    assert len(documents_shown(panel)) == 4 and view.more_button.isVisibleTo(panel)
    assert "<b>9</b> documents match" in panel.status.text()
    view.more_button.click()
    qtbot.waitUntil(lambda: len(documents_shown(panel)) == 8, timeout=WAIT_MS)
    # export loads the rest first, then writes the complete list
    out = tmp_path / "list.csv"
    with qtbot.waitSignal(view.exported, timeout=WAIT_MS) as exported:
        view.export_to(out)
    assert exported.args[0] == 9 and not view.more_button.isVisibleTo(panel)
    shown = documents_shown(panel)
    assert {d["file"] for d in shown} == library["all"] and len(shown) == 9
    assert all(d["pages_matching"] == len(d["best_pages"]) >= 1 for d in shown)
    raw = out.read_bytes()
    assert raw.startswith(BOM.encode())
    with open(out, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == CSV_HEADER
    assert rows[1:] == [[d["name"], d["file"], str(d["pages_matching"]), " ".join(map(str, d["best_pages"]))]
                        for d in shown]
    assert "contract-00-ä.pdf" in {r[0] for r in rows[1:]}


def test_a_document_row_opens_its_best_page_with_the_hits(qtbot, library):
    panel = SearchPanel(lambda: None)
    qtbot.addWidget(panel)
    choose(panel.granularity, "document")
    choose(panel.scope, "library")
    panel.query.setText("indemnity cap")
    with qtbot.waitSignal(panel.documents_view.loaded, timeout=WAIT_MS):
        panel.search()
    row = next(panel.results.item(i) for i in range(panel.results.count()) if panel.results.item(i).data(DOCUMENT_ROLE))
    doc = row.data(DOCUMENT_ROLE)
    with qtbot.waitSignal(panel.resultActivated, timeout=WAIT_MS) as opened:
        panel.results.itemClicked.emit(row)
    file, page, rects = opened.args
    assert (file, page) == (doc["file"], doc["best_pages"][0]) and rects


def test_a_library_folder_keeps_to_its_documents(qtbot, library):
    panel = SearchPanel(lambda: None)
    qtbot.addWidget(panel)
    choose(panel.scope, "folder")
    qtbot.waitUntil(lambda: panel.folder.count() == 2, timeout=WAIT_MS)
    panel.folder.setCurrentIndex(panel.folder.findData(next(iter(library["alpha_folder"]))))
    panel.query.setText("indemnity cap")
    with qtbot.waitSignal(panel.searchFinished, timeout=WAIT_MS) as finished:
        panel.search()
    assert {m["file"] for m in finished.args[0]["matches"]} == library["alpha"]
    choose(panel.granularity, "document")
    with qtbot.waitSignal(panel.documents_view.loaded, timeout=WAIT_MS) as listed:
        panel.search()
    assert {d["file"] for d in listed.args[0]["documents"]} == library["alpha"]
    assert listed.args[0]["documents_total"] == len(library["alpha"]) == 4
    assert f"<b>4</b> documents under {next(iter(library['alpha_folder']))} match" in panel.status.text()
    assert {d["file"] for d in documents_shown(panel)} == library["alpha"]


def test_a_failed_list_shows_its_error_in_place(qtbot, tmp_path):
    panel = SearchPanel(lambda: (str(tmp_path / "gone.pdf"), None))
    qtbot.addWidget(panel)
    choose(panel.granularity, "document")
    panel.query.setText("anything")
    with qtbot.waitSignal(panel.documents_view.loaded, timeout=WAIT_MS) as failed:
        panel.search()
    assert failed.args[0].get("error")
    assert theme.colors()["error"] in panel.status.text() and "gone.pdf" in panel.status.text()
    assert not panel.documents_view.export_button.isEnabled()


def test_scrolling_to_the_end_loads_more_documents(qtbot, monkeypatch, library):
    monkeypatch.setattr(document_results, "PAGE_SIZE", 4)
    panel = SearchPanel(lambda: None)
    qtbot.addWidget(panel)
    panel.resize(260, 320)
    panel.show()
    qtbot.waitExposed(panel)
    choose(panel.granularity, "document")
    choose(panel.scope, "library")
    panel.query.setText("indemnity cap")
    with qtbot.waitSignal(panel.documents_view.loaded, timeout=WAIT_MS):
        panel.search()
    bar = panel.results.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=WAIT_MS)  # four wrapped rows overflow the list
    with qtbot.waitSignal(panel.documents_view.loaded, timeout=WAIT_MS) as more:
        bar.setValue(bar.maximum())
    assert more.args[0]["offset"] == 4 and len(documents_shown(panel)) == 8
