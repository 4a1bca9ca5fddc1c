"""Every document opens where the reader left it: after its tab was closed, after the file was
moved (same bytes, found by fingerprint), and from a store written while reading (a crash loses
little); a jump asked for (search hit, citation) still wins over the remembered place."""

from __future__ import annotations

import json

from pdfdesk.core import positions
from pdfdesk.gui import window_session
from pdfdesk.gui.document_tab import OPEN
from tests import pdf_factory as make
from tests.gui.test_app_window import WAIT_MS, wait_open


def read_to(qtbot, tab, page: int, zoom: float, down_px: int = 80) -> None:
    tab.view.set_zoom(zoom)
    tab.view.go_to_page(page)
    bar = tab.view.verticalScrollBar()
    bar.setValue(bar.value() + down_px)
    qtbot.waitUntil(lambda: tab.view.current_page == page, timeout=WAIT_MS)


def reopened(qtbot, window, reference: str):
    tab = window.open_document(reference)
    qtbot.waitUntil(lambda: tab.state == OPEN, timeout=WAIT_MS)
    return tab


def test_a_closed_document_reopens_where_it_was_left(qtbot, make_window, tmp_path):
    doc = make.text_pdf(tmp_path / "report.pdf", pages=12)
    other = make.text_pdf(tmp_path / "other.pdf")
    window = make_window([doc, other])
    wait_open(qtbot, window, 2)
    tab = window.find_tab(str(doc))
    window.tabs.setCurrentWidget(tab)
    read_to(qtbot, tab, 7, 1.25)
    left = tab.position()
    window.close_tab(window.tabs.indexOf(tab))
    again = reopened(qtbot, window, str(doc))
    assert again is not tab and again.view.current_page == 7
    assert again.view.zoom_mode == "custom" and abs(again.view.zoom - 1.25) < 1e-6
    assert abs(again.position().y_pt - left.y_pt) < 2.0
    fresh = reopened(qtbot, window, str(make.text_pdf(tmp_path / "never-seen.pdf", pages=5)))
    assert fresh.view.current_page == 1  # a document never read starts at its top


def test_a_tab_closed_just_before_quitting_keeps_its_place(qtbot, make_window, tmp_path, monkeypatch):
    doc = make.text_pdf(tmp_path / "closed-last.pdf", pages=12)
    other = make.text_pdf(tmp_path / "stays.pdf")
    window = make_window([doc, other])
    wait_open(qtbot, window, 2)
    tab = window.find_tab(str(doc))
    window.tabs.setCurrentWidget(tab)
    read_to(qtbot, tab, 6, 1.5)
    # the worker that writes a closed tab's place never gets to run: quitting writes it itself
    with monkeypatch.context() as patched:
        patched.setattr(window_session.workers, "submit", lambda *args, **kwargs: None)
        window.close_tab(window.tabs.indexOf(tab))
        window.close()
    again = make_window([])
    tab = reopened(qtbot, again, str(doc))
    assert tab.view.current_page == 6 and abs(tab.view.zoom - 1.5) < 1e-6


def test_a_moved_file_keeps_its_place_by_content(qtbot, make_window, tmp_path):
    doc = make.text_pdf(tmp_path / "draft.pdf", pages=10)
    window = make_window([doc])
    wait_open(qtbot, window, 1)
    tab = window.current_tab()
    qtbot.waitUntil(lambda: window.index_monitor.fingerprint(str(doc)) is not None, timeout=WAIT_MS)
    fingerprint = window.index_monitor.fingerprint(str(doc))
    read_to(qtbot, tab, 6, 2.0)
    window.close_current_tab()
    qtbot.waitUntil(positions._file().is_file, timeout=WAIT_MS)  # written in a worker
    stored = json.loads((positions._file()).read_text())["documents"]
    assert fingerprint in stored and positions.PATH_KEY + str(doc) not in stored
    moved = tmp_path / "archive" / "final.pdf"
    moved.parent.mkdir()
    doc.rename(moved)
    tab = reopened(qtbot, window, str(moved))
    qtbot.waitUntil(lambda: tab.view.current_page == 6, timeout=WAIT_MS)  # once the file is hashed
    assert abs(tab.view.zoom - 2.0) < 1e-6


def test_the_place_is_written_while_reading_not_only_at_quit(qtbot, make_window, tmp_path, monkeypatch):
    monkeypatch.setattr(window_session, "SAVE_DELAY_MS", 50)
    doc = make.text_pdf(tmp_path / "long-read.pdf", pages=8)
    window = make_window([doc])
    wait_open(qtbot, window, 1)
    read_to(qtbot, window.current_tab(), 5, 1.5)
    qtbot.waitUntil(lambda: (positions.recall(str(doc)) or positions.DocumentPosition(1, 1, "custom")).page == 5,
                    timeout=WAIT_MS)
    from pdfdesk.gui import session_store

    qtbot.waitUntil(lambda: session_store.load_session() is not None, timeout=WAIT_MS)
    assert [t.reference for t in session_store.load_session().tabs] == [str(doc)]
    window.close()
    qtbot.wait(300)  # the closed window's emptied views write nothing over the session it saved
    assert session_store.load_session().tabs[0].position.page == 5


def test_a_jump_into_a_document_wins_over_its_remembered_place(qtbot, make_window, tmp_path):
    doc = make.text_pdf(tmp_path / "cited.pdf", pages=9)
    positions.remember([positions.Remembered(str(doc), None, positions.DocumentPosition(8, 1.0, "fit_width"))])
    window = make_window([])
    wait_open(qtbot, window, 1)
    window.show_location(str(doc), 3, [(72.0, 60.0, 200.0, 80.0)])
    tab = window.find_tab(str(doc))
    qtbot.waitUntil(lambda: tab.state == OPEN and tab.view.current_page == 3, timeout=WAIT_MS)
    qtbot.wait(200)
    assert tab.view.current_page == 3
    tab.view.back()  # and Back goes to where the reader had left it
    qtbot.waitUntil(lambda: tab.view.current_page == 8, timeout=WAIT_MS)
