"""Review annotations in a real DocumentView, offscreen: painting (pixel checks), the pending item
in the frame of the click, the area tool (also on rotated and scanned pages), the context menu,
the keys, hit-testing, orphans and thumbnails."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pymupdf
import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QRectF, Qt
from PySide6.QtGui import QColor, QImage

from pdfdesk.gui.viewer import DocumentView, ThumbnailPanel
from pdfdesk.gui.viewer.annotation_geometry import marker_box
from pdfdesk.gui.viewer.selection import SelectionEnd
from pdfdesk.review.records import PALETTE
from tests.gui import test_viewer as viewer_tests
from tests.gui.test_viewer import WAIT_MS, grab, wait_rendered, word_rect

YELLOW = (0xFF, 0xD5, 0x4F)


def open_and_wait(qtbot, view: DocumentView, path: Path) -> None:
    """Open `path` and wait until what is on screen is rendered."""
    viewer_tests.open_and_wait(qtbot, view, path)
    wait_rendered(qtbot, view)


def rgb(image: QImage, point) -> tuple[int, int, int]:
    c = image.pixelColor(point.toPoint() if hasattr(point, "toPoint") else point)
    return c.red(), c.green(), c.blue()


def near(colour, expected, tolerance: int = 6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=False))


def count_near(image: QImage, rect: QRectF, expected, step: int = 2) -> int:
    found = 0
    for y in range(max(0, int(rect.top())), min(image.height(), int(rect.bottom())), step):
        for x in range(max(0, int(rect.left())), min(image.width(), int(rect.right())), step):
            found += near(rgb(image, QPoint(x, y)), expected)
    return found


def box_in_viewport(view: DocumentView, page: int, rect) -> QRectF:
    return QRectF(view.viewport_point(page, rect[0], rect[1]), view.viewport_point(page, rect[2], rect[3]))


def ann(id: str, page: int, rect, **extra) -> dict:
    return {"id": id, "page": page, "rects": [list(rect)], "quote": "", "note": "", "color": "#ffd54f",
            "tags": [], "kind": "highlight", "status": "anchored", "source": "pdfdesk", **extra}


def select_words(qtbot, view: DocumentView, path: Path, first: str, last: str) -> None:
    qtbot.waitUntil(lambda: 0 in view.model.page_info, timeout=WAIT_MS)
    a, b = word_rect(path, 1, first), word_rect(path, 1, last)
    view.model.select(SelectionEnd(0, a[0] + 1, (a[1] + a[3]) / 2), SelectionEnd(0, b[2] - 1, (b[1] + b[3]) / 2))


# --- a new highlight, in the frame of the click ------------------------------------------------------
def test_highlight_selection_is_painted_in_the_next_frame(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    assert view.highlight_selection() is False, "nothing selected"
    select_words(qtbot, view, text_pdf, "Page", "hello")
    requests: list[dict] = []
    view.annotateRequested.connect(requests.append)
    assert view.highlight_selection() is True
    image = grab(view)  # no event-loop turn: the pending item is already in the layer
    says = word_rect(text_pdf, 1, "says")
    area = box_in_viewport(view, 1, says)
    assert count_near(image, area, YELLOW) > 10, "the paper under the words takes the highlight colour"
    assert any(max(rgb(image, QPoint(x, y))) < 110 for x in range(int(area.left()), int(area.right()))
               for y in range(int(area.top()), int(area.bottom()))), "the text stays dark, readable"
    (request,) = requests
    assert request["kind"] == "highlight" and request["page"] == 1 and request["color"] == "#ffd54f"
    assert request["quote"] == "Page 1 says hello"
    (rect,) = request["rects"]
    first, last = word_rect(text_pdf, 1, "Page"), word_rect(text_pdf, 1, "hello")
    assert rect == pytest.approx([first[0], first[1], last[2], last[3]], abs=0.5)
    pending = view.model.annotations.item(request["pending_id"])
    assert pending["status"] == "anchored" and pending["source"] == "pdfdesk" and pending["page"] == 1
    assert view.selected_text() == "", "the selection is cleared"
    # the controller swaps the pending item for the stored one: it stays painted
    view.model.annotations.remove(request["pending_id"])
    assert count_near(grab(view), area, YELLOW) == 0
    view.model.annotations.upsert(ann("a-1", 1, rect, color=PALETTE["blue"]))
    assert count_near(grab(view), area, (0x64, 0xB5, 0xF6)) > 10


def test_a_selection_over_two_pages_asks_once_per_page(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.fit_page()
    qtbot.waitUntil(lambda: {0, 1} <= set(view.model.page_info), timeout=WAIT_MS)
    view.select_all_on_page(1)
    says = word_rect(text_pdf, 2, "says")
    view.model.selection.extend(SelectionEnd(1, (says[0] + says[2]) / 2, (says[1] + says[3]) / 2))
    view.model.selection_updated()
    requests: list[dict] = []
    view.annotateRequested.connect(requests.append)
    assert view.note_selection()
    assert [r["page"] for r in requests] == [1, 2] and {r["kind"] for r in requests} == {"note"}
    assert requests[1]["quote"] == "Page 2 says"
    assert {view.model.annotations.item(r["pending_id"])["page"] for r in requests} == {1, 2}


# --- painting -----------------------------------------------------------------------------------------
def test_areas_notes_selection_outline_and_orphans(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    blank_a, blank_b, blank_c = (530, 100, 600, 200), (530, 250, 600, 300), (300, 15, 450, 50)  # margins
    view.model.annotations.set_all([
        ann("area", 1, blank_a, kind="area", color=PALETTE["green"]),
        ann("orphan", 1, blank_b, status="orphaned", color=PALETTE["pink"]),
        ann("noted", 1, blank_c, note="see this", color=PALETTE["pink"]),
    ])
    image = grab(view)
    inside = box_in_viewport(view, 1, blank_a).center().toPoint()
    colour = rgb(image, inside)
    assert colour != (255, 255, 255) and colour[1] > colour[0] and colour[1] > colour[2], "a light green wash"
    edge = view.viewport_point(1, blank_a[0], (blank_a[1] + blank_a[3]) / 2).toPoint()
    assert any(rgb(image, edge + QPoint(dx, 0))[1] < 200 for dx in (-1, 0, 1)), "an outline"
    assert count_near(image, box_in_viewport(view, 1, blank_b), (255, 255, 255)) > 50, "orphans are not painted"
    pink = (0xF0, 0x62, 0x92)
    assert count_near(image, box_in_viewport(view, 1, blank_c), pink) > 50
    marker = box_in_viewport(view, 1, marker_box(blank_c, view.page_size(1), view.zoom))
    assert count_near(image, marker, pink, step=1) > 3, "the note marker"
    outline = view.viewport_point(1, (blank_c[0] + blank_c[2]) / 2, blank_c[1]).toPoint() + QPoint(0, -2)
    before = rgb(image, outline)
    view.model.annotations.set_selected("noted")
    after = rgb(grab(view), outline)
    assert after != before and after[2] > after[0] + 60, "the selected one is outlined in blue"


def test_only_the_visible_pages_buckets_are_read_and_changes_repaint_their_page(qtbot, view, long_pdf,
                                                                               monkeypatch):
    open_and_wait(qtbot, view, long_pdf)
    view.set_zoom(0.3)  # several small pages on screen
    layer = view.model.annotations
    layer.set_all([ann(f"a{n}", n % 1500 + 1, (40, 60, 200, 72)) for n in range(1000)])
    read: list[int] = []
    original = layer.painted_on
    monkeypatch.setattr(layer, "painted_on", lambda index: read.append(index) or original(index))
    grab(view)
    visible = {p - 1 for p in view.visible_pages()}
    assert len(visible) >= 3 and read and set(read) <= visible
    painted: list = []

    class PaintSpy(QObject):
        def eventFilter(self, _obj, event) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.append(event.region().boundingRect())
            return False

    qtbot.waitUntil(lambda: not view.pending_requests(), timeout=WAIT_MS)
    qtbot.wait(50)
    spy = PaintSpy()
    view.viewport().installEventFilter(spy)
    layer.upsert(ann("far", 1200, (40, 60, 200, 72)))
    qtbot.wait(30)
    assert painted == [], "a change on a page out of sight repaints nothing"
    second = view.page_rect_in_viewport(2).toAlignedRect()
    layer.upsert(ann("here", 2, (40, 60, 200, 72)))
    qtbot.waitUntil(lambda: bool(painted), timeout=WAIT_MS)
    assert painted[0].intersects(second) and painted[0].height() < second.height() + 20, "only that page"
    view.viewport().removeEventFilter(spy)


def test_closing_the_document_empties_the_layer(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.model.annotations.set_all([ann("a", 1, (10, 10, 50, 20))])
    view.close_document()
    assert view.model.annotations.count() == 0


# --- the area tool --------------------------------------------------------------------------------------
def drag(qtbot, view: DocumentView, page: int, start, end) -> None:
    viewport = view.viewport()
    a, b = view.viewport_point(page, *start).toPoint(), view.viewport_point(page, *end).toPoint()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=a)
    qtbot.mouseMove(viewport, (a + b) / 2)
    qtbot.mouseMove(viewport, b)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=b)


def test_area_tool_on_a_scanned_page(qtbot, view, image_only_pdf):
    open_and_wait(qtbot, view, image_only_pdf)
    view.go_to_page(2)
    with qtbot.waitSignal(view.areaToolChanged) as changed:
        view.set_area_tool(True)
    assert changed.args == [True] and view.area_tool_active()
    assert view.viewport().cursor().shape() == Qt.CursorShape.CrossCursor
    with qtbot.waitSignal(view.annotateRequested, timeout=WAIT_MS) as asked:
        drag(qtbot, view, 2, (100, 150), (300, 260))
    request = asked.args[0]
    assert request["kind"] == "area" and request["page"] == 2 and request["quote"] == ""
    tolerance = 1.5 / view.zoom
    assert request["rects"][0] == pytest.approx([100, 150, 300, 260], abs=tolerance)
    item = view.model.annotations.item(request["pending_id"])
    assert item["kind"] == "area" and item["page"] == 2
    assert view.area_tool_active(), "the tool stays on for the next area"
    # a tiny drag is a slip, not an area
    requests: list = []
    view.annotateRequested.connect(requests.append)
    drag(qtbot, view, 2, (100, 400), (100.5, 400.5))
    assert requests == []


def test_area_on_a_rotated_page_is_sent_unrotated(qtbot, view, tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=600)
    page.insert_text((60, 100), "Rotated text", fontsize=14)
    page.set_rotation(90)
    path = tmp_path / "rotated.pdf"
    doc.save(path)
    doc.close()
    open_and_wait(qtbot, view, path)
    qtbot.waitUntil(lambda: 0 in view.model.matrices, timeout=WAIT_MS)
    assert view.page_size(1) == (600.0, 400.0)
    view.set_area_tool(True)
    with qtbot.waitSignal(view.annotateRequested, timeout=WAIT_MS) as asked:
        drag(qtbot, view, 1, (50, 60), (250, 120))
    with pymupdf.open(path) as check:
        expected = (pymupdf.Rect(50, 60, 250, 120) * check[0].derotation_matrix).normalize()
    tolerance = 1.5 / view.zoom
    assert asked.args[0]["rects"][0] == pytest.approx(list(expected), abs=tolerance)
    got = asked.args[0]["rects"][0]
    assert got[3] - got[1] > got[2] - got[0], "a wide box on screen is a tall one on the unrotated page"


def test_escape_cancels_the_drag_and_leaves_the_tool(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert view.area_tool_active()
    requests: list = []
    view.annotateRequested.connect(requests.append)
    viewport = view.viewport()
    a, b = view.viewport_point(1, 100, 100).toPoint(), view.viewport_point(1, 300, 300).toPoint()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=a)
    qtbot.mouseMove(viewport, b)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=b)
    assert requests == [] and not view.area_tool_active()
    assert viewport.cursor().shape() != Qt.CursorShape.CrossCursor


# --- clicks, keys and the menu ---------------------------------------------------------------------------
def test_click_selects_double_click_activates(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    rect = (100, 600, 250, 640)
    view.model.annotations.set_all([ann("a-1", 1, rect)])
    point = view.annotation_point("a-1").toPoint()
    with qtbot.waitSignal(view.annotationClicked) as clicked:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert clicked.args == ["a-1"] and view.selected_annotation() == "a-1"
    with qtbot.waitSignal(view.annotationActivated) as activated:
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert activated.args == ["a-1"]
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.viewport_point(1, 400, 300).toPoint())
    assert view.selected_annotation() is None


def test_keys(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.setFocus()
    ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    select_words(qtbot, view, text_pdf, "Page", "says")
    with qtbot.waitSignal(view.annotateRequested) as asked:
        qtbot.keyClick(view, Qt.Key.Key_H, ctrl_shift)
    assert asked.args[0]["kind"] == "highlight" and asked.args[0]["quote"] == "Page 1 says"
    select_words(qtbot, view, text_pdf, "hello", "hello")
    with qtbot.waitSignal(view.annotateRequested) as asked:
        qtbot.keyClick(view, Qt.Key.Key_N, ctrl_shift)
    assert asked.args[0]["kind"] == "note" and asked.args[0]["quote"] == "hello"
    with qtbot.waitSignal(view.areaToolChanged) as toggled:
        qtbot.keyClick(view, Qt.Key.Key_A, ctrl_shift)
    assert toggled.args == [True]
    qtbot.keyClick(view, Qt.Key.Key_A, ctrl_shift)
    assert not view.area_tool_active()
    view.model.annotations.set_all([ann("a-1", 1, (10, 10, 50, 20)), ann("pdf-1-5", 1, (10, 30, 50, 40), source="pdf")])
    deletes: list = []
    view.annotationDeleteRequested.connect(deletes.append)
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert deletes == [], "nothing selected"
    view.model.annotations.set_selected("pdf-1-5")
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert deletes == [], "the file's own annotations are read-only"
    view.model.annotations.set_selected("a-1")
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert deletes == ["a-1"]


def actions_of(menu) -> dict:
    found = {a.objectName(): a for a in menu.actions() if a.objectName()}
    for action in menu.actions():
        if action.menu() is not None:
            found.update({a.objectName(): a for a in action.menu().actions()})
            found[action.menu().objectName()] = action
    return found


def test_context_menu(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.model.annotations.set_all([ann("a-1", 1, (100, 600, 250, 640)),
                                    ann("pdf-1-9", 1, (300, 600, 450, 640), source="pdf")])
    empty = actions_of(view.context_menu(view.viewport_point(1, 400, 400)))
    assert {"highlightAction", "noteAction", "copyAction", "areaToolAction", "highlightColourMenu"} <= set(empty)
    assert not empty["highlightAction"].isEnabled() and not empty["copyAction"].isEnabled()
    assert "editNoteAction" not in empty and "deleteAnnotationAction" not in empty
    select_words(qtbot, view, text_pdf, "Page", "says")
    menu = actions_of(view.context_menu(view.viewport_point(1, 400, 400)))
    assert menu["highlightAction"].isEnabled() and menu["copyAction"].isEnabled()
    assert {f"highlight-{name}" for name in PALETTE} <= set(menu)
    with qtbot.waitSignal(view.annotateRequested) as asked:
        menu["highlight-green"].trigger()
    assert asked.args[0]["color"] == PALETTE["green"] and asked.args[0]["quote"] == "Page 1 says"
    select_words(qtbot, view, text_pdf, "hello", "hello")
    with qtbot.waitSignal(view.annotateRequested) as asked:
        actions_of(view.context_menu(view.viewport_point(1, 400, 400)))["noteAction"].trigger()
    assert asked.args[0]["kind"] == "note"
    on_note = actions_of(view.context_menu(view.annotation_point("a-1")))
    assert view.selected_annotation() == "a-1"
    with qtbot.waitSignal(view.annotationEditRequested) as edit:
        on_note["editNoteAction"].trigger()
    with qtbot.waitSignal(view.annotationDeleteRequested) as delete:
        on_note["deleteAnnotationAction"].trigger()
    assert edit.args == ["a-1"] and delete.args == ["a-1"]
    read_only = actions_of(view.context_menu(view.annotation_point("pdf-1-9")))
    assert not read_only["editNoteAction"].isEnabled() and not read_only["deleteAnnotationAction"].isEnabled()
    area = actions_of(view.context_menu(view.viewport_point(1, 400, 400)))["areaToolAction"]
    area.trigger()
    assert view.area_tool_active()


# --- thumbnails --------------------------------------------------------------------------------------------
def test_thumbnails_paint_highlights(qtbot, view, text_pdf):
    panel = ThumbnailPanel(view)
    qtbot.addWidget(panel)
    panel.resize(180, 500)
    panel.show()
    open_and_wait(qtbot, view, text_pdf)
    qtbot.waitUntil(lambda: view.preview_image(0) is not None, timeout=WAIT_MS)
    cell = QRectF(panel.visualRect(panel.model().index(0)))
    pink = (0xF0, 0x62, 0x92)

    def pink_pixels() -> int:
        image = panel.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        return count_near(image, cell, pink, step=1)

    assert pink_pixels() == 0
    view.model.annotations.set_all([ann("a", 1, (100, 600, 400, 700), color=PALETTE["pink"]),
                                    ann("o", 1, (100, 100, 400, 200), color=PALETTE["pink"], status="orphaned")])
    shown = pink_pixels()
    assert shown > 50
    view.model.annotations.remove("o")
    assert pink_pixels() == shown, "the orphan was not painted"
    assert QColor(PALETTE["pink"]).isValid()
