"""A recognised scanned page in the viewer behaves like a born-digital one: drag and double-click
selection, Ctrl+A and Ctrl+C, find, search highlights, notes, and a badge while it waits for
recognition. Scans are made in the test, read by the real keyword stage and the real Tesseract;
what a page must show is read back from the page-text record, never written into the test."""

from __future__ import annotations

import os
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pymupdf
import pytest
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QGuiApplication

from pdfdesk.gui import workers
from pdfdesk.gui.indexing import read_progress
from pdfdesk.gui.viewer import DocumentView
from pdfdesk.index.recognition import activity_path, build_recognition
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests.gui.test_viewer import WAIT_MS, colours_in, grab, open_and_wait, wait_rendered
from tests.review.scans import (
    HARBOUR,
    UPRIGHT_TURNED,
    harbour_scan,
    indexed,
    recognised,
    record_words,
    word_box,
)

Box = tuple[float, float, float, float]



def first_line(fingerprint: str) -> list[tuple]:
    words = record_words(fingerprint)
    key = (words[0][5], words[0][6])
    return [w for w in words if (w[5], w[6]) == key]


def page_text(fingerprint: str) -> str:
    """The recognised words as the viewer copies a whole page: spaces in a line, breaks between."""
    lines: dict[tuple[int, int], list[str]] = {}
    for word in record_words(fingerprint):
        lines.setdefault((word[5], word[6]), []).append(word[4])
    return "\n".join(" ".join(line) for line in lines.values())


def drag(qtbot, view: DocumentView, start: QPoint, end: QPoint) -> None:
    viewport = view.viewport()
    with qtbot.waitSignal(view.selectionChanged, timeout=WAIT_MS):
        qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
        qtbot.mouseMove(viewport, start + QPoint(10, 0))
        qtbot.mouseMove(viewport, end)
        qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)


def middle(view: DocumentView, box: Box, page: int = 1) -> QPoint:
    return view.viewport_point(page, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2).toPoint()


def tinted(view: DocumentView, box: Box, looks_tinted, page: int = 1) -> bool:
    """Some pixel inside `box` (displayed page points) has the overlay's tint (the scan's ink
    under it stays dark, the paper takes the colour)."""
    corner0, corner1 = view.viewport_point(page, box[0], box[1]), view.viewport_point(page, box[2], box[3])
    return any(looks_tinted(*colour) for colour in colours_in(grab(view), QRectF(corner0, corner1)))


def find_tint(red: int, green: int, blue: int) -> bool:
    return red > 200 and blue < 200


def selection_tint(red: int, green: int, blue: int) -> bool:
    return blue > red + 20


def wait_words(qtbot, view: DocumentView, index: int = 0) -> None:
    qtbot.waitUntil(lambda: bool(view.model.words_of(index)), timeout=WAIT_MS)


def badge_area(view: DocumentView, page: int = 1) -> QRectF:
    """The page's top-right corner, where the waiting badge is drawn (the scan is blank there)."""
    rect = view.page_rect_in_viewport(page)
    return QRectF(rect.right() - 150, rect.top() + 4, 146, 30)


def has_badge(view: DocumentView) -> bool:
    return any(max(colour) < 140 for colour in colours_in(grab(view), badge_area(view)))


def test_drag_selection_and_ctrl_c_copy_the_recognised_words(qtbot, view, tmp_path):
    path = harbour_scan(tmp_path / "scan.pdf")
    fingerprint = recognised(path).fingerprint
    line = first_line(fingerprint)
    assert sum(w[4].strip(".,") in HARBOUR.split() or w[4] in HARBOUR for w in line) >= 0.8 * len(line), \
        "OCR read the scan (a sanity check of the fixture)"
    open_and_wait(qtbot, view, path)
    wait_words(qtbot, view)
    start = view.viewport_point(1, line[0][0] + 2, (line[0][1] + line[0][3]) / 2).toPoint()
    end = view.viewport_point(1, line[-1][2] - 2, (line[-1][1] + line[-1][3]) / 2).toPoint()
    drag(qtbot, view, start, end)
    expected = " ".join(w[4] for w in line)
    assert view.selected_text() == expected
    QGuiApplication.clipboard().clear()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == expected
    wait_rendered(qtbot, view, [1])
    assert tinted(view, word_box(fingerprint, line[1][4]), selection_tint), "the selection is painted over the scan"


def test_double_click_selects_a_recognised_word_and_ctrl_a_the_page(qtbot, view, tmp_path):
    path = harbour_scan(tmp_path / "scan.pdf")
    fingerprint = recognised(path).fingerprint
    open_and_wait(qtbot, view, path)
    wait_words(qtbot, view)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=middle(view, word_box(fingerprint, "committee")))
    assert view.selected_text() == "committee"
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert view.selected_text() == page_text(fingerprint)
    assert "\n" in view.selected_text(), "the scan's two lines are copied as two lines"


def test_find_highlights_a_recognised_word_in_place(qtbot, view, tmp_path):
    path = harbour_scan(tmp_path / "scan.pdf")
    fingerprint = recognised(path).fingerprint
    expected = sum("budget" in w[4].lower() for w in record_words(fingerprint))
    assert expected >= 1
    open_and_wait(qtbot, view, path)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(view.find_bar.edit, "BUDGET")
    qtbot.waitUntil(lambda: view.find_status() == (1, expected, True), timeout=WAIT_MS)
    (hit,) = view.find_hits(1)[:1]
    assert hit == pytest.approx(word_box(fingerprint, "budget"), abs=0.6)
    wait_rendered(qtbot, view, [1])
    assert tinted(view, hit, find_tint), "the current hit is tinted on the scan"
    view.find("approved the bud")  # across words, ending inside one: only its share of the box
    qtbot.waitUntil(lambda: view.find_status()[1] == 1 and view.find_status()[2], timeout=WAIT_MS)
    (span,) = view.find_hits(1)
    approved, budget = word_box(fingerprint, "approved"), word_box(fingerprint, "budget")
    assert span[0] == pytest.approx(approved[0], abs=0.6) and approved[2] < span[2] < budget[2] - 5


def test_search_hits_are_highlighted_on_the_scan(qtbot, view, tmp_path):
    path = harbour_scan(tmp_path / "scan.pdf")
    fingerprint = recognised(path).fingerprint
    result = call_tool("pdf_search", {"path": str(path), "query": "dredging", "mode": "keyword"})
    assert not result.is_error, result.text
    match = result.details["matches"][0]
    assert match["page"] == 1 and match["rects"]
    assert tuple(match["rects"][0]) == pytest.approx(word_box(fingerprint, "dredging"), abs=1.0)
    open_and_wait(qtbot, view, path)
    view.go_to_page(1, match["rects"])
    wait_rendered(qtbot, view)
    assert tinted(view, tuple(match["rects"][0]), find_tint), "the search hit is tinted where the word is"


def test_a_highlight_on_recognised_words_is_stored_with_their_quote(qtbot, view, tmp_path):
    path = harbour_scan(tmp_path / "scan.pdf")
    fingerprint = recognised(path).fingerprint
    open_and_wait(qtbot, view, path)
    wait_words(qtbot, view)
    committee, budget = word_box(fingerprint, "committee"), word_box(fingerprint, "budget")
    drag(qtbot, view, middle(view, committee), middle(view, budget))
    with qtbot.waitSignal(view.annotateRequested, timeout=WAIT_MS) as requested:
        assert view.highlight_selection()
    request = requested.args[0]
    assert request["quote"] == "committee approved the budget"
    # what the review controller sends for it
    added = call_tool("pdf_annotate", {"action": "add", "path": str(path), "page": request["page"],
                                       "quote": request["quote"], "rects": request["rects"]})
    assert not added.is_error, added.text
    stored = added.details["annotation"]
    assert stored["quote"] == "committee approved the budget" and stored["status"] == "anchored"
    assert tuple(stored["rects"][0]) == pytest.approx(
        (committee[0], min(committee[1], budget[1]), budget[2], max(committee[3], budget[3])), abs=0.3)


def test_a_page_waiting_for_recognition_shows_a_badge_then_its_words(qtbot, view, tmp_path):
    path = harbour_scan(tmp_path / "scan.pdf")
    target = indexed(path)
    open_and_wait(qtbot, view, path)
    qtbot.waitUntil(lambda: 0 in view.model.page_info, timeout=WAIT_MS)
    assert not view.model.words_of(0), "nothing to select before recognition"
    (progress,) = read_progress([(str(path), target.fingerprint, path.name)])
    assert progress.complete and progress.waiting == (1,) and progress.recognised == 0
    view.show_recognition(progress.waiting, progress.fingerprint)
    wait_rendered(qtbot, view, [1])
    assert view.recognition_waiting() == [1]
    qtbot.waitUntil(lambda: has_badge(view), timeout=WAIT_MS)
    view.find("committee")
    qtbot.waitUntil(lambda: view.find_status() == (0, 0, True), timeout=WAIT_MS)

    build_recognition(target, wait=True)
    (progress,) = read_progress([(str(path), target.fingerprint, path.name)])
    assert progress.waiting == () and not progress.recognising
    view.show_recognition(progress.waiting, progress.fingerprint)
    wait_words(qtbot, view)  # read again without reopening the document
    assert view.recognition_waiting() == []
    qtbot.waitUntil(lambda: not has_badge(view), timeout=WAIT_MS)
    view.select_all_on_page(1)
    assert view.selected_text() == page_text(target.fingerprint)
    # the search that found nothing while the page waited looked again
    qtbot.waitUntil(lambda: view.find_status() == (1, 1, True), timeout=WAIT_MS)
    assert view.find_hits(1)[0] == pytest.approx(word_box(target.fingerprint, "committee"), abs=0.6)


def test_selection_and_find_on_a_recognised_page_shown_turned_by_rotate(qtbot, view, tmp_path):
    path = harbour_scan(tmp_path / "turned.pdf", **UPRIGHT_TURNED)
    fingerprint = recognised(path).fingerprint
    with pymupdf.open(path) as doc:
        page = doc[0]
        assert page.rotation == 90
        matrix = page.rotation_matrix
        shown = [(tuple(pymupdf.Rect(w[:4]) * matrix), w[4]) for w in first_line(fingerprint)]
    open_and_wait(qtbot, view, path)
    wait_words(qtbot, view)
    qtbot.waitUntil(lambda: 0 in view.model.matrices, timeout=WAIT_MS)
    assert view.page_size(1) == (595.0, 842.0)
    words = view.model.words_of(0)
    assert words is not None
    assert words.rect(0) == pytest.approx(shown[0][0], abs=0.05)
    start = view.viewport_point(1, shown[0][0][0] + 2, (shown[0][0][1] + shown[0][0][3]) / 2).toPoint()
    end = view.viewport_point(1, shown[-1][0][2] - 2, (shown[-1][0][1] + shown[-1][0][3]) / 2).toPoint()
    drag(qtbot, view, start, end)
    assert view.selected_text() == " ".join(text for _box, text in shown)
    (rect,) = view.model.selection.rects(0, view.model.words_of)
    assert rect[2] - rect[0] > 5 * (rect[3] - rect[1]), "the line runs across the page as it is shown"
    assert rect == pytest.approx((shown[0][0][0], min(b[1] for b, _ in shown), shown[-1][0][2],
                                  max(b[3] for b, _ in shown)), abs=0.05)
    wait_rendered(qtbot, view, [1])
    assert tinted(view, shown[1][0], selection_tint), "the selection is painted over the turned scan's words"
    view.find("committee")
    qtbot.waitUntil(lambda: view.find_status()[1] == 1 and view.find_status()[2], timeout=WAIT_MS)
    (hit,) = view.find_hits(1)
    committee = tuple(pymupdf.Rect(word_box(fingerprint, "committee")) * matrix)
    assert hit == pytest.approx(committee, abs=0.05)
    assert hit[2] - hit[0] > hit[3] - hit[1]


def test_the_window_marks_waiting_pages_and_reads_them_once_recognised(qtbot, make_window, tmp_path):
    path = harbour_scan(tmp_path / "scan.pdf")
    target = indexed(path)
    with DocumentIndex(target.fingerprint).build_lock() as held:  # recognition cannot start yet
        assert held
        window = make_window([path])
        tab = window.current_tab()
        qtbot.waitUntil(lambda: tab.view.recognition_waiting() == [1], timeout=30_000)
        assert window.index_progress.isVisible()
        assert window.index_progress.maximum() == 1 and window.index_progress.value() == 0
        assert "Recognising" in window.index_progress.toolTip()
        assert not tab.view.model.words_of(0)
    # the window's indexing owner takes the page now, and the view reads its words when it is done
    qtbot.waitUntil(lambda: bool(tab.view.model.words_of(0)), timeout=60_000)
    assert tab.view.recognition_waiting() == []
    qtbot.waitUntil(lambda: not window.index_progress.isVisible(), timeout=WAIT_MS)
    tab.view.select_all_on_page(1)
    assert tab.view.selected_text() == page_text(target.fingerprint)


def test_user_input_in_the_window_is_noted_for_recognition_at_most_every_few_seconds(qtbot, make_window):
    window = make_window()
    activity = Path(activity_path())
    qtbot.keyClick(window, Qt.Key.Key_Shift)
    workers.wait_idle(WAIT_MS)
    assert activity.exists() and time.time() - activity.stat().st_mtime < 30
    long_ago = time.time() - 600
    os.utime(activity, (long_ago, long_ago))
    qtbot.keyClick(window, Qt.Key.Key_Shift)
    qtbot.mouseMove(window, QPoint(20, 20))
    workers.wait_idle(WAIT_MS)
    assert activity.stat().st_mtime == pytest.approx(long_ago), "noted again within five seconds"
    window.activity.noted_at -= window.activity.every_s  # five seconds on
    qtbot.keyClick(window, Qt.Key.Key_Shift)
    workers.wait_idle(WAIT_MS)
    assert time.time() - activity.stat().st_mtime < 30
