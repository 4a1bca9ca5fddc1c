"""The window as a user meets it: files from the command line and drops, passwords, damaged files,
search hits opening the page with highlights, keyboard shortcuts, recent files."""

from __future__ import annotations

import os

from pathlib import Path

import pymupdf
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from pdfdesk.gui import recent
from pdfdesk.gui.document_tab import FAILED, LOCKED, OPEN
from pdfdesk.gui.password_dialog import PasswordDialog
from tests.gui.conftest import view_highlights

WAIT_MS = 15_000


def clause_pdf(path: Path, pages: int = 6, special_page: int = 4) -> Path:
    """Pages of contract text; only `special_page` mentions the indemnification clause."""
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 72), f"Section {n}: general terms and delivery schedule.", fontsize=12)
        if n == special_page:
            page.insert_text((72, 300), "The indemnification clause survives termination.", fontsize=12)
    doc.save(path)
    doc.close()
    return path


def wait_open(qtbot, window, count: int) -> None:
    """Wait until `count` tabs exist and each has opened, failed or asked for a password."""
    def settled() -> bool:
        tabs = window.document_tabs()
        return len(tabs) == count and all(t.state in (OPEN, FAILED, LOCKED) for t in tabs)

    try:
        qtbot.waitUntil(settled, timeout=WAIT_MS)
    except Exception:
        raise AssertionError(f"tabs: {[(t.reference, t.state) for t in window.document_tabs()]}") from None


def drop(window, paths: list[Path]) -> QDropEvent:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    return event


def test_files_from_the_command_line_open_in_tabs(qtbot, make_window, text_pdf, outline_pdf):
    window = make_window([text_pdf, outline_pdf])
    wait_open(qtbot, window, 2)
    tabs = window.document_tabs()
    assert [t.reference for t in tabs] == [str(text_pdf), str(outline_pdf)]
    assert all(t.state == OPEN for t in tabs)
    assert window.current_tab() is tabs[0] and tabs[0].page_count == 3
    assert window.tabs.tabText(0) == "text.pdf" and window.windowTitle().startswith("text.pdf")
    assert window.page_total.text() == " / 3"
    # the outline dock follows the current tab and lists the bookmarks
    window.tabs.setCurrentIndex(1)
    outline = tabs[1].outline
    qtbot.waitUntil(lambda: outline.model.rowCount() == 4, timeout=WAIT_MS)
    assert window.outline_stack.currentWidget() is outline
    assert outline.model.item(1).text() == "Methods" and outline.model.item(1).child(0).text() == "Data"
    # both files are remembered, newest first
    assert recent.load_recent()[:2] in ([str(outline_pdf), str(text_pdf)], [str(text_pdf), str(outline_pdf)])


def test_no_files_opens_the_bundled_sample(qtbot, make_window):
    from pdfdesk.core.paths import sample_pdf

    window = make_window([])
    wait_open(qtbot, window, 1)
    tab = window.current_tab()
    assert tab.reference == str(sample_pdf()) and tab.state == OPEN and tab.page_count == 5


def test_opening_the_same_file_twice_reuses_its_tab(qtbot, make_window, text_pdf):
    window = make_window([text_pdf])
    wait_open(qtbot, window, 1)
    window.open_paths([str(text_pdf), f"file://{text_pdf}"])
    assert len(window.document_tabs()) == 1


def test_dropping_files_and_a_folder_opens_them_and_queues_the_folder(qtbot, make_window, tmp_path, text_pdf):
    window = make_window([text_pdf])
    wait_open(qtbot, window, 1)
    folder = tmp_path / "case"
    (folder / "sub").mkdir(parents=True)
    first = clause_pdf(folder / "a.pdf", pages=2)
    second = clause_pdf(folder / "sub" / "b.PDF", pages=3)
    (folder / "notes.txt").write_text("not a pdf")
    single = clause_pdf(tmp_path / "single.pdf", pages=4)
    event = drop(window, [single, folder])
    assert event.isAccepted()
    wait_open(qtbot, window, 4)
    assert {t.reference for t in window.document_tabs()} == {str(text_pdf), str(single), str(first), str(second)}
    assert window.current_tab().reference == str(single)
    # the folder's PDFs also went to the library (for library-wide search) and get indexed there
    panel = window.library_panel
    qtbot.waitUntil(lambda: {p for p, s in panel.entries_shown() if s.endswith("indexed")} >= {str(first), str(second)},
                    timeout=WAIT_MS)


def test_a_drop_of_non_pdfs_is_refused(qtbot, make_window, tmp_path):
    window = make_window([])
    wait_open(qtbot, window, 1)
    note = tmp_path / "note.txt"
    note.write_text("hello")
    event = drop(window, [note])
    assert not event.isAccepted() and len(window.document_tabs()) == 1


def _password_dialog(window) -> PasswordDialog | None:
    dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, PasswordDialog) and w.isVisible()]
    return dialogs[0] if dialogs else None


def test_encrypted_file_asks_for_the_password_then_shows_pages(qtbot, make_window, aes_pdf):
    window = make_window([aes_pdf])
    qtbot.waitUntil(lambda: _password_dialog(window) is not None, timeout=WAIT_MS)
    tab = window.current_tab()
    assert tab.state == LOCKED and window.tabs.tabText(0) in ("🔒 aes256.pdf", "[locked] aes256.pdf")
    dialog = _password_dialog(window)
    assert not dialog.error.isVisible()
    dialog.field.setText("not-it")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    # a wrong password asks again, saying so
    qtbot.waitUntil(lambda: _password_dialog(window) is not None and _password_dialog(window) is not dialog,
                    timeout=WAIT_MS)
    dialog = _password_dialog(window)
    assert dialog.error.isVisible()
    dialog.field.setText("user-secret")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: tab.state == OPEN, timeout=WAIT_MS)
    assert tab.page_count == 1 and tab.password == "user-secret" and not tab.banner.isVisible()
    assert window.tabs.tabText(0) == "aes256.pdf"
    # the agent may read the unlocked document too: the chat session gets its password
    qtbot.waitUntil(lambda: window.chat_pane.session is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.chat_pane.session.passwords.get(str(aes_pdf)) == "user-secret", timeout=WAIT_MS)


def test_cancelling_the_password_leaves_a_way_back(qtbot, make_window, aes_pdf):
    window = make_window([aes_pdf])
    qtbot.waitUntil(lambda: _password_dialog(window) is not None, timeout=WAIT_MS)
    _password_dialog(window).reject()
    tab = window.current_tab()
    assert tab.state == LOCKED and tab.banner.isVisible() and tab.banner_button.text() == "Enter password…"
    tab.banner_button.click()
    qtbot.waitUntil(lambda: _password_dialog(window) is not None, timeout=WAIT_MS)
    _password_dialog(window).reject()


def test_a_damaged_file_shows_its_error_and_the_app_carries_on(qtbot, make_window, garbled_pdf, text_pdf):
    window = make_window([garbled_pdf])
    qtbot.waitUntil(lambda: window.current_tab() is not None and window.current_tab().state == FAILED, timeout=WAIT_MS)
    tab = window.current_tab()
    assert tab.error["error"] == "pdf_error"
    assert window.tabs.tabText(0) in ("⚠ garbled.pdf", "[error] garbled.pdf")
    assert "damaged beyond repair" in window.tabs.tabToolTip(0)
    assert tab.banner.isVisible() and "could not be opened (pdf_error)" in tab.banner_text.text()
    assert "damaged beyond repair" in tab.view.error["message"]  # painted in place by the view
    assert "damaged beyond repair" in window.statusBar().currentMessage()
    # the window is alive: actions on the failed tab do nothing harmful, another file opens fine
    window.zoom_in_action.trigger()
    window.find_action.trigger()
    window.open_paths([str(text_pdf)])
    wait_open(qtbot, window, 2)
    assert window.current_tab().state == OPEN


def test_search_result_click_shows_the_page_with_its_highlights(qtbot, make_window, tmp_path):
    doc = clause_pdf(tmp_path / "contract.pdf")
    window = make_window([doc])
    wait_open(qtbot, window, 1)
    panel = window.search_panel
    panel.query.setText("indemnification")
    with qtbot.waitSignal(panel.searchFinished, timeout=WAIT_MS) as finished:
        qtbot.keyClick(panel.query, Qt.Key.Key_Return)
    assert finished.args[0]["count"] == 1
    assert panel.results.count() == 1
    item = panel.results.item(0)
    assert "<b>indemnification</b>" in item.data(Qt.ItemDataRole.UserRole + 2)
    rect = panel.results.visualItemRect(item)
    qtbot.mouseClick(panel.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    view = window.current_view()
    qtbot.waitUntil(lambda: view.current_page == 4, timeout=WAIT_MS)
    page, rects = view_highlights(view)
    assert page == 4 and len(rects) == 1
    x0, y0, x1, y1 = rects[0]
    assert 70 <= x0 < x1 and 280 < y0 < y1 < 310  # the word's box where the text was written (y=300 baseline)


def test_library_search_opens_the_hit_document_in_a_tab(qtbot, make_window, tmp_path, text_pdf):
    doc = clause_pdf(tmp_path / "library-doc.pdf", special_page=2)
    window = make_window([text_pdf])
    wait_open(qtbot, window, 1)
    window.library_panel.add([str(doc)])
    qtbot.waitUntil(lambda: (str(doc), "✓ indexed") in window.library_panel.entries_shown(), timeout=WAIT_MS)
    panel = window.search_panel
    panel.scope.setCurrentIndex(panel.scope.findData("library"))
    panel.query.setText("indemnification")
    with qtbot.waitSignal(panel.searchFinished, timeout=WAIT_MS):
        panel.search()
    assert panel.results.count() == 1
    panel.results.itemActivated.emit(panel.results.item(0))
    qtbot.waitUntil(lambda: window.current_tab().reference == str(doc) and window.current_tab().state == OPEN,
                    timeout=WAIT_MS)
    qtbot.waitUntil(lambda: view_highlights(window.current_view()) is not None, timeout=WAIT_MS)
    assert view_highlights(window.current_view())[0] == 2


def test_library_search_in_the_default_mode_puts_the_page_holding_every_word_first(qtbot, make_window, tmp_path,
                                                                                   text_pdf):
    """Documents added first do not come first: the page where every word is strongest does."""
    filler = "Minutes of the committee: heating, cleaning, the car park and the usual business. " * 4
    paths = []
    for name, pages in (("aaa-minutes.pdf", [filler + "The boiler warranty came up once.",
                                             filler + "A boiler, and later its warranty."]),
                        ("zzz-claims.pdf", [filler, ("Boiler warranty claim: the boiler warranty covers the boiler "
                                                     "for ten years, and the warranty claim was filed.")])):
        doc = pymupdf.open()
        for text in pages:
            doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 700), text, fontsize=11)
        doc.save(tmp_path / name)
        paths.append(tmp_path / name)
    window = make_window([text_pdf])
    wait_open(qtbot, window, 1)
    window.library_panel.add([str(p) for p in paths])
    qtbot.waitUntil(lambda: all((str(p), "✓ indexed") in window.library_panel.entries_shown() for p in paths),
                    timeout=WAIT_MS)
    panel = window.search_panel
    panel.scope.setCurrentIndex(panel.scope.findData("library"))
    assert panel.mode.currentData() == "auto"
    panel.query.setText("boiler warranty")
    with qtbot.waitSignal(panel.searchFinished, timeout=WAIT_MS) as finished:
        panel.search()
    ranked = [(os.path.basename(m["file"]), m["page"]) for m in finished.args[0]["matches"]]
    assert ranked[0] == ("zzz-claims.pdf", 2)
    assert set(ranked[:3]) == {("zzz-claims.pdf", 2), ("aaa-minutes.pdf", 1), ("aaa-minutes.pdf", 2)}


def test_search_reports_errors_in_place(qtbot, make_window, text_pdf):
    window = make_window([text_pdf])
    wait_open(qtbot, window, 1)
    panel = window.search_panel
    panel.mode.setCurrentIndex(panel.mode.findData("semantic"))  # no embedding model in tests
    panel.query.setText("hello")
    with qtbot.waitSignal(panel.searchFinished, timeout=90_000) as finished:
        panel.search()
    assert finished.args[0]["error"] == "semantic_unavailable"
    assert "Semantic search cannot run" in panel.status.text() and panel.results.count() == 0


def test_keyboard_shortcuts(qtbot, make_window, text_pdf, outline_pdf, monkeypatch):
    window = make_window([text_pdf, outline_pdf])
    wait_open(qtbot, window, 2)
    window.activateWindow()
    window.search_panel.query.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentIndex() == 1
    qtbot.keyClick(window, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.tabs.currentIndex() == 0
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.chat_pane.input.hasFocus() or QApplication.focusWidget() is window.chat_pane.input
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert window.isFullScreen() and window.fullscreen_action.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert not window.isFullScreen()
    opened: list[QFileDialog] = []
    monkeypatch.setattr(QFileDialog, "open", lambda self: opened.append(self))
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert len(opened) == 1 and opened[0].fileMode() == QFileDialog.FileMode.ExistingFiles
    opened[0].filesSelected.emit([str(outline_pdf)])  # choosing an open file just brings its tab forward
    assert window.tabs.currentIndex() == 1 and len(window.document_tabs()) == 2
    qtbot.keyClick(window, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert [t.reference for t in window.document_tabs()] == [str(text_pdf)]
    qtbot.keyClick(window, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert window.document_tabs() == [] and window.stack.currentWidget() is window.welcome
    # the welcome page lists the files just closed; activating one opens it again
    recent_items = [window.welcome_recent.item(i).toolTip() for i in range(window.welcome_recent.count())]
    assert recent_items[:2] in ([str(text_pdf), str(outline_pdf)], [str(outline_pdf), str(text_pdf)])
    window.welcome_recent.itemActivated.emit(window.welcome_recent.item(0))
    wait_open(qtbot, window, 1)
    assert window.current_tab().reference == recent_items[0]


def test_go_to_page_box_and_zoom_controls(qtbot, make_window, outline_pdf):
    window = make_window([outline_pdf])
    wait_open(qtbot, window, 1)
    view = window.current_view()
    window.page_box.setText("7")
    qtbot.keyClick(window.page_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.current_page == 7, timeout=WAIT_MS)
    assert window.page_status.text() == "Page 7 of 10"
    window.zoom_box.setCurrentIndex(window.zoom_box.findText("200%"))
    window.zoom_box.activated.emit(window.zoom_box.currentIndex())
    qtbot.waitUntil(lambda: abs(view.zoom - 2.0) < 1e-6, timeout=WAIT_MS)
    assert window.zoom_status.text() == "200%"
    window.zoom_in_action.trigger()
    assert view.zoom > 2.0
    window.back_action.trigger()
    qtbot.waitUntil(lambda: view.current_page == 1, timeout=WAIT_MS)


def test_recent_files_menu_reopens(qtbot, make_window, text_pdf, outline_pdf):
    recent.add_recent(str(outline_pdf))
    window = make_window([text_pdf])
    wait_open(qtbot, window, 1)
    window.recent_menu.aboutToShow.emit()
    actions = [a for a in window.recent_menu.actions() if a.toolTip() == str(outline_pdf)]
    assert actions
    actions[0].trigger()
    wait_open(qtbot, window, 2)
    assert window.current_tab().reference == str(outline_pdf)


@pytest.mark.parametrize("name", ["missing.pdf"])
def test_a_missing_file_is_an_error_tab(qtbot, make_window, tmp_path, name):
    window = make_window([tmp_path / name])
    qtbot.waitUntil(lambda: window.current_tab() is not None and window.current_tab().state == FAILED, timeout=WAIT_MS)
    assert window.current_tab().error["error"] == "file_not_found"


def test_every_kind_of_bad_file_gets_a_tab_with_its_error(qtbot, make_window, not_pdf, empty_pdf, zero_pages_pdf,
                                                          truncated_pdf, repairable_pdf, image_only_pdf):
    window = make_window([not_pdf, empty_pdf, zero_pages_pdf, truncated_pdf, repairable_pdf, image_only_pdf])
    wait_open(qtbot, window, 6)
    outcome = {Path(t.reference).name: (t.error or {}).get("error", t.state) for t in window.document_tabs()}
    assert outcome["letter.pdf"] == "not_a_pdf" and outcome["empty.pdf"] == "empty_file"
    assert outcome["zero.pdf"] == "no_pages"
    assert outcome["broken-xref.pdf"] == OPEN and outcome["scan.pdf"] == OPEN  # repaired / scanned still open
    assert outcome["truncated.pdf"] in (OPEN, "pdf_error")
    for index in range(window.tabs.count()):  # every tab can be shown; searching a failed one explains
        window.tabs.setCurrentIndex(index)
    window.search_panel.query.setText("anything")
    window.search_panel.search()
    assert window.isVisible()
