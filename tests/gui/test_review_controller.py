"""The window's review controller against the real pdf_annotate tool (in a throwaway PDFDESK_HOME):
a highlight is painted at once and replaced by the stored one, failures land in the status bar,
notes get their text from the editor, undo/redo reverse adds, edits and deletes, and switching tabs
switches the notes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
from PySide6.QtWidgets import QApplication, QMessageBox

from pdfdesk.core.config import Config, set_config
from pdfdesk.tools import call_tool
from tests.gui.test_app_window import WAIT_MS, wait_open

PAGES = ("Termination requires ninety days written notice to the other party.",
         "Fees are due monthly in arrears and late fees accrue interest.",
         "The indemnification clause survives termination of this agreement.")


def review_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for text in PAGES:
        doc.new_page().insert_text((72, 100), text, fontsize=12)
    doc.save(path)
    doc.close()
    return path


def rects_of(path: Path, page: int, quote: str) -> list[list[float]]:
    with pymupdf.open(path) as doc:
        return [[r.x0, r.y0, r.x1, r.y1] for r in doc[page - 1].search_for(quote)]


def ready_window(qtbot: Any, make_window: Any, *paths: Path) -> Any:
    """The window with `paths` open and the current document's notes loaded."""
    window = make_window(list(paths))
    wait_open(qtbot, window, len(paths))
    controller = window.review.controller
    qtbot.waitUntil(lambda: controller.current is not None and controller.current.loaded, timeout=WAIT_MS)
    return window


def layer_of(window: Any) -> Any:
    return window.current_view().model.annotations


def request(window: Any, path: Path, page: int, quote: str, kind: str = "highlight", color: str = "#ffd54f") -> str:
    """What the view does on Ctrl+Shift+H: paint a pending item, then ask for it to be stored."""
    layer = layer_of(window)
    pending = layer.next_pending_id()
    rects = rects_of(path, page, quote) if quote in PAGES[page - 1] else [[72.0, 90.0, 300.0, 104.0]]
    layer.upsert({"id": pending, "page": page, "rects": rects, "quote": quote, "note": "", "color": color, "tags": [],
                  "kind": kind, "status": "anchored", "source": "pdfdesk", "created": "", "updated": ""})
    window.current_view().annotateRequested.emit({"pending_id": pending, "kind": kind, "page": page, "quote": quote,
                                                  "rects": rects, "color": color})
    return pending


def settle(qtbot: Any, controller: Any) -> None:
    qtbot.waitUntil(lambda: not controller.busy, timeout=WAIT_MS)


def stored(path: Path) -> list[dict]:
    result = call_tool("pdf_annotate", {"action": "list", "path": str(path), "include_file_annotations": False})
    assert not result.is_error, result.details
    return list(result.details["annotations"])


def test_a_highlight_is_painted_at_once_then_stored(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    controller, layer = window.review.controller, layer_of(window)
    pending = request(window, path, 2, "late fees accrue interest", color="#81c784")
    assert layer.item(pending) is not None  # painted before the store answered
    qtbot.waitUntil(lambda: layer.item(pending) is None and layer.count() == 1, timeout=WAIT_MS)
    settle(qtbot, controller)
    real = layer.items()[0]
    assert real["id"].startswith("a-") and real["page"] == 2 and real["color"] == "#81c784"
    assert real["quote"] == "late fees accrue interest" and real["rects"]
    assert [a["id"] for a in stored(path)] == [real["id"]]
    assert [i["id"] for i in controller.items()] == [real["id"]]
    assert controller.undo_stack.count() == 1 and "Highlight p. 2" in controller.undo_stack.undoText()


def test_a_failed_highlight_goes_away_with_a_status_message_and_no_dialog(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    controller, layer = window.review.controller, layer_of(window)
    pending = request(window, path, 1, "words that are not on this page")
    qtbot.waitUntil(lambda: layer.item(pending) is None, timeout=WAIT_MS)
    settle(qtbot, controller)
    assert layer.count() == 0 and stored(path) == []
    message = window.statusBar().currentMessage()
    assert message.startswith("Highlight not saved:") and "not" in message.lower()
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
    assert controller.undo_stack.count() == 0
    # writes turned off: the tool refuses; same quiet path, the refusal named in the status bar
    set_config(Config(semantic=False, annotate_writes=False))
    pending = request(window, path, 1, "ninety days written notice")
    qtbot.waitUntil(lambda: layer.item(pending) is None, timeout=WAIT_MS)
    settle(qtbot, controller)
    assert layer.count() == 0 and "Highlight not saved:" in window.statusBar().currentMessage()


def test_a_note_asks_for_its_text_while_the_highlight_stays(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    controller, layer = window.review.controller, layer_of(window)
    pending = request(window, path, 3, "indemnification clause", kind="note")
    qtbot.waitUntil(lambda: controller.editor is not None and controller.editor.isVisible(), timeout=WAIT_MS)
    assert layer.item(pending) is not None
    controller.editor.note.setPlainText("Check against the insurance policy.")
    controller.editor.tags.setText("legal, follow-up, legal")
    controller.editor.accept()
    qtbot.waitUntil(lambda: layer.item(pending) is None and layer.count() == 1, timeout=WAIT_MS)
    settle(qtbot, controller)
    (note,) = stored(path)
    assert note["kind"] == "note" and note["note"] == "Check against the insurance policy."
    assert note["tags"] == ["legal", "follow-up"] and note["quote"] == "indemnification clause"
    # cancelling the editor drops the pending highlight and stores nothing
    pending = request(window, path, 1, "ninety days", kind="note")
    qtbot.waitUntil(lambda: controller.editor is not None and controller.editor.isVisible(), timeout=WAIT_MS)
    controller.editor.reject()
    assert layer.item(pending) is None and len(stored(path)) == 1


def test_undo_and_redo_of_add_edit_and_delete(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    controller, layer = window.review.controller, layer_of(window)
    stack = controller.undo_stack
    request(window, path, 1, "ninety days written notice")
    qtbot.waitUntil(lambda: layer.count() == 1 and not controller.busy, timeout=WAIT_MS)
    key = layer.items()[0]["id"]
    window.review.undo.trigger()  # Ctrl+Z
    qtbot.waitUntil(lambda: layer.count() == 0 and not controller.busy, timeout=WAIT_MS)
    assert stored(path) == []
    window.review.redo.trigger()  # Ctrl+Shift+Z
    qtbot.waitUntil(lambda: layer.count() == 1 and not controller.busy, timeout=WAIT_MS)
    assert [a["id"] for a in stored(path)] == [key]
    controller.update(key, note="first thought")
    qtbot.waitUntil(lambda: layer.item(key)["note"] == "first thought" and not controller.busy, timeout=WAIT_MS)
    controller.update(key, note="second thought", tags=["x"])
    qtbot.waitUntil(lambda: layer.item(key)["note"] == "second thought" and not controller.busy, timeout=WAIT_MS)
    stack.undo()
    qtbot.waitUntil(lambda: layer.item(key)["note"] == "first thought" and not controller.busy, timeout=WAIT_MS)
    assert stored(path)[0]["note"] == "first thought" and stored(path)[0]["tags"] == []
    stack.redo()
    qtbot.waitUntil(lambda: layer.item(key)["note"] == "second thought" and not controller.busy, timeout=WAIT_MS)
    assert stored(path)[0]["tags"] == ["x"]
    controller.delete([key])
    qtbot.waitUntil(lambda: layer.count() == 0 and not controller.busy, timeout=WAIT_MS)
    assert stored(path) == [] and stack.undoText() == "Delete note"
    stack.undo()
    qtbot.waitUntil(lambda: layer.count() == 1 and not controller.busy, timeout=WAIT_MS)
    assert stored(path)[0]["note"] == "second thought"
    assert stack.count() == 4  # add, edit, edit, delete


def test_switching_tabs_switches_the_notes(qtbot, make_window, tmp_path):
    first = review_pdf(tmp_path / "first.pdf")
    second = review_pdf(tmp_path / "second.pdf")
    window = ready_window(qtbot, make_window, first, second)
    controller = window.review.controller
    request(window, first, 1, "ninety days written notice")
    qtbot.waitUntil(lambda: len(controller.items()) == 1 and not controller.busy, timeout=WAIT_MS)
    window.tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: controller.current.reference == str(second) and controller.current.loaded, timeout=WAIT_MS)
    assert controller.items() == [] and window.review.panel.model.total() == 0
    window.tabs.setCurrentIndex(0)
    qtbot.waitUntil(lambda: len(controller.items()) == 1, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.review.panel.model.total() == 1, timeout=WAIT_MS)
