"""File → Export review… (Ctrl+Shift+E): the dialog writes the chosen format off the UI thread,
the status bar names the file with an Open button, and a refusal shows in the dialog itself."""

from __future__ import annotations

import json

import pymupdf

from pdfdesk.gui.export_dialog import FORMATS, default_output
from tests.gui.test_app_window import WAIT_MS
from tests.gui.test_review_controller import ready_window, request, review_pdf, settle


def test_export_writes_markdown_and_an_annotated_copy(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    controller = window.review.controller
    request(window, path, 3, "indemnification clause")
    qtbot.waitUntil(lambda: len(controller.items()) == 1, timeout=WAIT_MS)
    settle(qtbot, controller)
    assert window.review.export.shortcut().toString() == "Ctrl+Shift+E"
    assert window.review.export in window.menuBar().actions()[0].menu().actions()  # in the File menu
    shown: list[str] = []
    window.statusBar().messageChanged.connect(shown.append)
    window.review.export.trigger()
    dialog = window.review.export_dialog
    assert dialog.isVisible() and dialog.output.text() == str(tmp_path / "contract-review.pdf")
    dialog.format.setCurrentIndex([f[1] for f in FORMATS].index("markdown"))
    assert dialog.output.text() == str(tmp_path / "contract-review.md")
    with qtbot.waitSignal(dialog.exported, timeout=WAIT_MS) as written:
        dialog.export_button.click()
    output = tmp_path / "contract-review.md"
    assert written.args == [str(output)] and "indemnification clause" in output.read_text(encoding="utf-8")
    assert f"Review written to {output}" in shown
    button = window.review._open_written
    assert button.toolTip() == str(output)
    assert button.isVisible() == (window.statusBar().currentMessage() == f"Review written to {output}")
    # the annotated copy: a new file with a Highlight over the passage; the original is untouched
    before = path.read_bytes()
    dialog = window.review.open_export()
    dialog.output.setText(str(tmp_path / "copy.pdf"))
    with qtbot.waitSignal(dialog.exported, timeout=WAIT_MS):
        dialog.export_button.click()
    with pymupdf.open(tmp_path / "copy.pdf") as copy:
        assert [a.type[1] for a in copy[2].annots()] == ["Highlight"]
    assert path.read_bytes() == before


def test_a_refused_export_is_shown_in_the_dialog(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    existing = tmp_path / "taken.json"
    existing.write_text("{}", encoding="utf-8")
    dialog = window.review.open_export()
    dialog.format.setCurrentIndex([f[1] for f in FORMATS].index("json"))
    dialog.output.setText(str(existing))
    dialog.export_button.click()
    qtbot.waitUntil(lambda: dialog.export_button.isEnabled() and dialog.status.text() != "Exporting…", timeout=WAIT_MS)
    assert dialog.isVisible() and "exist" in dialog.status.text().lower()
    assert existing.read_text(encoding="utf-8") == "{}"
    dialog.overwrite.setChecked(True)  # what choosing the file in the save dialog does
    with qtbot.waitSignal(dialog.exported, timeout=WAIT_MS):
        dialog.export_button.click()
    assert json.loads(existing.read_text(encoding="utf-8"))["type"] == "AnnotationCollection"


def test_the_default_name_sits_beside_the_document(tmp_path):
    assert default_output(str(tmp_path / "a b.pdf"), "html") == str(tmp_path / "a b-review.html")
