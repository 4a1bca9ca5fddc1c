"""File → Save Searchable Copy…: off only while no document is open, asks where with a save dialog
(named after the document, beside it), writes the copy off the UI thread with its progress shown,
and shows a refusal in place while the window carries on. No real dialog is opened: the save
dialog's `open` is replaced and its choice emitted, as a user's would be."""

from __future__ import annotations

import pymupdf
from PySide6.QtWidgets import QFileDialog

from pdfdesk.core.config import Config, set_config
from pdfdesk.gui.document_tab import OPEN
from pdfdesk.gui.searchable_copy_action import searchable_copy_of
from tests.gui.test_app_window import WAIT_MS, wait_open
from tests.pdf_factory import scanned_pdf

LEASE = ("The tenant shall keep the premises in good repair and shall not assign this lease without the "
         "prior written consent of the landlord. Rent is payable monthly in advance. ")
WAIT_COPY_MS = 90_000  # the copy recognises the page with the real Tesseract


def test_the_action_writes_a_searchable_copy_chosen_in_the_save_dialog(qtbot, make_window, tmp_path, monkeypatch):
    set_config(Config(semantic=False, ocr_languages="eng"))
    source = scanned_pdf(tmp_path / "lease scan.pdf", [LEASE * 2])
    before = source.read_bytes()
    window = make_window([source])
    wait_open(qtbot, window, 1)
    command = searchable_copy_of(window)
    action = command.action
    assert action in window.menuBar().actions()[0].menu().actions()  # in the File menu
    qtbot.waitUntil(action.isEnabled, timeout=WAIT_MS)
    opened: list[QFileDialog] = []
    monkeypatch.setattr(QFileDialog, "open", lambda self: opened.append(self))
    action.trigger()
    (dialog,) = opened
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    assert dialog.selectedFiles() == [str(tmp_path / "lease scan-searchable.pdf")]
    output = tmp_path / "chosen.pdf"
    dialog.fileSelected.emit(str(output))
    copy_dialog = command.dialog
    assert copy_dialog is not None and copy_dialog.isVisible()
    assert window.isEnabled() and window.current_tab().state == OPEN  # the window goes on meanwhile
    with qtbot.waitSignal(copy_dialog.written, timeout=WAIT_COPY_MS) as written:
        pass
    assert written.args == [str(output)]
    assert "given a text layer" in copy_dialog.status.text() and copy_dialog.open_button.isVisible()
    assert f"Searchable copy written to {output}" == window.statusBar().currentMessage()
    with pymupdf.open(output) as copy:
        page = copy[0]
        assert page.search_for("premises") and "landlord" in page.get_text()
    assert source.read_bytes() == before
    copy_dialog.reject()


def test_a_refusal_shows_in_place_and_the_action_is_off_without_a_document(qtbot, make_window, tmp_path):
    source = scanned_pdf(tmp_path / "lease.pdf", [LEASE])
    before = source.read_bytes()
    window = make_window([source])
    wait_open(qtbot, window, 1)
    command = searchable_copy_of(window)
    copy_dialog = command.start(str(source), overwrite=True)  # the document itself: never overwritten
    assert copy_dialog is not None
    with qtbot.waitSignal(copy_dialog.failed, timeout=WAIT_MS) as failed:
        pass
    assert failed.args[0]["error"] == "validation_error"
    assert copy_dialog.isVisible() and "overwrite" in copy_dialog.status.text()
    assert copy_dialog.bar.isHidden() and source.read_bytes() == before
    copy_dialog.reject()
    window.close_current_tab()
    assert window.document_tabs() == [] and not command.action.isEnabled()
    assert command.choose_output() is None and command.start(str(tmp_path / "x.pdf")) is None


def test_cancel_stops_the_copy_and_leaves_no_file(qtbot, make_window, tmp_path):
    source = scanned_pdf(tmp_path / "lease.pdf", [LEASE] * 6)
    window = make_window([source])
    wait_open(qtbot, window, 1)
    command = searchable_copy_of(window)
    copy_dialog = command.start(str(tmp_path / "copy.pdf"))
    job = copy_dialog.job
    qtbot.waitUntil(lambda: copy_dialog.bar.maximum() > 0, timeout=WAIT_COPY_MS)  # under way: progress shown
    copy_dialog.reject()  # Cancel
    assert job.cancelled and not copy_dialog.isVisible()
    qtbot.waitUntil(lambda: job.finished, timeout=WAIT_COPY_MS)
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["lease.pdf"]
    assert command.action.isEnabled()  # the window carries on
