"""Quit and start again: the tabs, the active tab, each document's page, zoom and spot, and the
panels' choices come back; files that vanished are skipped with a note; a session file that
cannot be used never stops the start."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from pdfdesk.core import paths
from pdfdesk.gui import session_store
from pdfdesk.gui.document_tab import OPEN
from tests import pdf_factory as make
from tests.gui.test_app_window import WAIT_MS, wait_open


def scroll_into(view, page: int, zoom: float | None, down_px: int) -> None:
    """Zoom (custom when given), go to `page`, then scroll `down_px` further into it."""
    if zoom is not None:
        view.set_zoom(zoom)
    view.go_to_page(page)
    bar = view.verticalScrollBar()
    bar.setValue(bar.value() + down_px)


def test_quit_and_restart_brings_back_tabs_pages_zoom_and_panels(qtbot, make_window, tmp_path):
    first = make.text_pdf(tmp_path / "first.pdf", pages=14)
    second = make.text_pdf(tmp_path / "second.pdf", pages=9)
    window = make_window([first, second])
    wait_open(qtbot, window, 2)
    tab_a, tab_b = window.document_tabs()
    window.tabs.setCurrentWidget(tab_a)
    scroll_into(tab_a.view, 9, 1.5, 150)
    qtbot.waitUntil(lambda: tab_a.view.current_page == 9, timeout=WAIT_MS)
    left_a = tab_a.position()
    window.tabs.setCurrentWidget(tab_b)
    tab_b.view.fit_width()
    scroll_into(tab_b.view, 4, None, 0)
    qtbot.waitUntil(lambda: tab_b.view.current_page == 4, timeout=WAIT_MS)
    window.side_tabs.setCurrentIndex(1)
    scope = window.search_panel.scope
    scope.setCurrentIndex(scope.findData("library"))
    window.close()
    positions_file = paths.app_data_dir() / "positions.json"
    assert positions_file.is_file()
    positions_file.unlink()  # the session itself carries each tab's place

    again = make_window([])
    wait_open(qtbot, again, 2)
    restored_a, restored_b = again.document_tabs()
    assert [t.reference for t in (restored_a, restored_b)] == [str(first), str(second)]
    assert again.current_tab() is restored_b and all(t.state == OPEN for t in (restored_a, restored_b))
    assert restored_b.view.current_page == 4 and restored_b.view.zoom_mode == "fit_width"
    # the page box, the status bar and the thumbnails say the page the view shows
    assert again.page_box.text() == "4" and again.page_status.text() == "Page 4 of 9"
    assert restored_b.thumbnails.currentIndex().row() == 3
    again.tabs.setCurrentWidget(restored_a)  # a background tab comes back where it was, too
    qtbot.waitUntil(lambda: restored_a.view.current_page == 9, timeout=WAIT_MS)
    assert restored_a.view.zoom_mode == "custom" and abs(restored_a.view.zoom - 1.5) < 1e-6
    assert again.page_box.text() == "9" and restored_a.thumbnails.currentIndex().row() == 8
    assert abs(restored_a.position().y_pt - left_a.y_pt) < 2.0 and left_a.y_pt > 50
    assert again.side_tabs.currentIndex() == 1 and again.search_panel.scope.currentData() == "library"


def test_vanished_files_are_skipped_with_a_note_in_the_status_bar(qtbot, make_window, tmp_path):
    kept = make.text_pdf(tmp_path / "kept.pdf", pages=5)
    gone = make.text_pdf(tmp_path / "gone.pdf")
    moved = make.text_pdf(tmp_path / "moved.pdf")
    window = make_window([gone, kept, moved])
    wait_open(qtbot, window, 3)
    window.tabs.setCurrentIndex(2)
    window.close()
    gone.unlink()
    moved.rename(tmp_path / "elsewhere.pdf")

    again = make_window([])
    wait_open(qtbot, again, 1)
    assert again.current_tab().reference == str(kept)  # the active tab is gone: the nearest one
    note = again.session.note
    assert note.isVisible()
    assert note.text() == "2 documents from the last session could not be found: gone.pdf, moved.pdf"
    assert str(gone) in note.toolTip()
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def test_an_encrypted_document_comes_back_asking_for_its_password(qtbot, make_window, tmp_path, aes_pdf):
    from pdfdesk.gui.document_tab import LOCKED

    window = make_window([aes_pdf])
    qtbot.waitUntil(lambda: window.current_tab().state == LOCKED, timeout=WAIT_MS)
    window.current_tab().password_dialog.reject()
    window.close()
    stored = session_store.session_file().read_text(encoding="utf-8")
    assert "user-secret" not in stored
    again = make_window([])
    qtbot.waitUntil(lambda: again.current_tab() is not None and again.current_tab().state == LOCKED,
                    timeout=WAIT_MS)
    assert again.current_tab().reference == str(aes_pdf) and again.current_tab().password_dialog is not None


def test_first_start_opens_the_sample_and_an_emptied_session_the_welcome_page(qtbot, make_window):
    window = make_window([])
    wait_open(qtbot, window, 1)
    assert window.current_tab().reference == str(paths.sample_pdf())
    window.close_current_tab()
    window.close()
    again = make_window([])
    assert again.document_tabs() == [] and again.stack.currentWidget() is again.welcome


def test_files_on_the_command_line_open_instead_of_the_session(qtbot, make_window, tmp_path):
    old = make.text_pdf(tmp_path / "old.pdf")
    new = make.text_pdf(tmp_path / "new.pdf")
    window = make_window([old])
    wait_open(qtbot, window, 1)
    window.close()
    again = make_window([new])
    wait_open(qtbot, again, 1)
    assert again.current_tab().reference == str(new)


@pytest.mark.parametrize("kind", ["damaged", "fifo", "folder", "huge", "wrong shape"])
def test_a_session_file_that_cannot_be_used_does_not_block_the_start(qtbot, make_window, kind):
    path = session_store.session_file()
    if kind == "damaged":
        path.write_bytes(b'{"tabs": [{"reference": "/x.pdf", "position": {"page": ')
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "huge":
        path.write_bytes(b" " * (9 * 1024 * 1024) + b"{}")
    else:
        path.write_text(json.dumps({"tabs": "all of them", "active": "second", "panels": [1]}))
    window = make_window([])
    wait_open(qtbot, window, 1 if kind != "wrong shape" else 0)
    if kind != "wrong shape":  # no usable session: started as on the first start
        assert window.current_tab().reference == str(paths.sample_pdf())
    window.close()  # writing it back fails quietly for a folder, replaces the others
    if kind != "folder":
        assert session_store.load_session() is not None


def test_a_read_only_data_folder_loses_the_session_quietly(qtbot, make_window, monkeypatch, text_pdf):
    from pdfdesk.core import atomic

    def refuse(*_args, **_kwargs):
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr(atomic, "write_text_atomically", refuse)
    window = make_window([text_pdf])
    wait_open(qtbot, window, 1)
    window.close()  # no dialog, no exception
    assert session_store.load_session() is None
