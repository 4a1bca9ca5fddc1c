"""DocumentView, FindBar and ThumbnailPanel, offscreen: real documents, real renders, pixel checks."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pymupdf
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication

from pdfdesk.gui.viewer import DocumentView, ThumbnailPanel, painter
from pdfdesk.gui.viewer import tiles as tiles_mod
from pdfdesk.gui.viewer.selection import SelectionEnd
from pdfdesk.gui.viewer.render_policy import MAX_PREFETCH_TILES

WAIT_MS = 10_000



def open_and_wait(qtbot, view: DocumentView, path: Path | str, password: str | None = None) -> int:
    with qtbot.waitSignal(view.documentOpened, timeout=WAIT_MS) as opened:
        view.open_document(str(path), password)
    return opened.args[0]


def wait_rendered(qtbot, view: DocumentView, pages: list[int] | None = None) -> None:
    def done() -> bool:
        targets = pages if pages is not None else view.visible_pages()
        return bool(targets) and all(view.page_fully_rendered(p) for p in targets)
    qtbot.waitUntil(done, timeout=WAIT_MS)


def grab(view: DocumentView) -> QImage:
    return view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def colours_in(image: QImage, rect) -> set[tuple[int, int, int]]:
    """Distinct colours on a grid inside `rect` (viewport coordinates)."""
    found = set()
    x0, y0 = max(0, int(rect.left())), max(0, int(rect.top()))
    x1, y1 = min(image.width() - 1, int(rect.right())), min(image.height() - 1, int(rect.bottom()))
    for y in range(y0, y1, 3):
        for x in range(x0, x1, 3):
            c = image.pixelColor(x, y)
            found.add((c.red(), c.green(), c.blue()))
    return found


def has_ink(image: QImage, rect) -> bool:
    """Some dark pixels (text) inside `rect`."""
    return any(max(c) < 110 for c in colours_in(image, rect))


def word_rect(path: Path, page: int, text: str) -> tuple[float, float, float, float]:
    with pymupdf.open(path) as doc:
        for w in doc[page - 1].get_text("words"):
            if w[4] == text:
                return w[0], w[1], w[2], w[3]
    raise AssertionError(f"{text!r} not on page {page}")


# --- opening ---------------------------------------------------------------------------------------
def test_open_paints_the_first_page(qtbot, view, text_pdf):
    with qtbot.waitSignal(view.firstPagePainted, timeout=WAIT_MS):
        assert open_and_wait(qtbot, view, text_pdf) == 3
    assert view.page_count == 3 and view.current_page == 1 and view.state == "open"
    assert view.zoom_mode == "fit_width"
    page = view.page_rect_in_viewport(1)
    assert abs(page.width() - (view.viewport().width() - 24)) <= 2  # fit width, margins either side
    wait_rendered(qtbot, view, [1])
    image = grab(view)
    colours = colours_in(image, page)
    assert (255, 255, 255) in colours and has_ink(image, page), "page 1 shows rendered text"
    assert view.first_painted_at is not None and view.first_painted_at >= view.open_started_at


def test_image_device_pixel_ratio_and_scale(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    wait_rendered(qtbot, view, [1])
    key = next(k for k in view._tiles.keys() if k.page == 0)  # noqa: SIM118 - the cache has keys(), no iteration
    image = view._tiles.get(key)
    dpr = view.viewport().devicePixelRatioF()
    assert image.devicePixelRatio() == pytest.approx(dpr)
    assert image.width() == pytest.approx(view.page_size(1)[0] * view.zoom * dpr, abs=2)  # zoom x dpr px per point


def test_go_to_page_before_open_applies_after(qtbot, view, outline_pdf):
    with qtbot.waitSignal(view.documentOpened, timeout=WAIT_MS):
        view.open_document(str(outline_pdf))
        view.go_to_page(7, [(72, 60, 200, 80)])
    assert view.current_page == 7
    assert view.highlights() == (7, [(72.0, 60.0, 200.0, 80.0)])


# --- scrolling and rendering -----------------------------------------------------------------------
def test_scrolling_to_the_end_renders_the_visible_pages(qtbot, view, long_pdf):
    assert open_and_wait(qtbot, view, long_pdf) == 1500
    wait_rendered(qtbot, view)
    view.setFocus()
    with qtbot.waitSignal(view.currentPageChanged, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.current_page == 1500
    assert 1500 in view.visible_pages()
    wait_rendered(qtbot, view)
    rendered = view.rendered_pages()
    assert set(view.visible_pages()) <= rendered
    assert not rendered & set(range(10, 1490)), "pages jumped over are never rendered"
    view.go_to_page(1500)  # its text is at the top, above the screen's worth shown by End
    wait_rendered(qtbot, view)
    assert has_ink(grab(view), view.page_rect_in_viewport(1500))
    # PgUp goes back a screen, Home to the start
    qtbot.keyClick(view, Qt.Key.Key_PageUp)
    assert view.current_page < 1500
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert view.current_page == 1


def test_page_down_scrolls_one_screen(qtbot, view, long_pdf):
    open_and_wait(qtbot, view, long_pdf)
    view.setFocus()
    before = view.verticalScrollBar().value()
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    moved = view.verticalScrollBar().value() - before
    assert view.viewport().height() - 60 <= moved <= view.viewport().height()


def test_zoom_paints_the_old_image_scaled_then_renders_the_new_zoom(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    wait_rendered(qtbot, view, [1])
    old_zoom = view.zoom
    with qtbot.waitSignal(view.zoomChanged, timeout=WAIT_MS) as changed:
        view.set_zoom(old_zoom * 1.5)
    assert changed.args[0] == pytest.approx(old_zoom * 1.5)
    assert view.zoom_mode == "custom"
    # the worker has not been asked yet (requests go out on the next event-loop pass)
    assert not view.page_fully_rendered(view.current_page)
    image = grab(view)
    assert has_ink(image, view.page_rect_in_viewport(view.current_page)), "scaled old image, not a blank page"
    wait_rendered(qtbot, view)
    assert view.current_page in view.rendered_pages(current_zoom_only=True)


def test_placeholder_before_first_render_and_zoom_steps(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.zoom_in()
    first = view.zoom
    view.zoom_out()
    assert view.zoom < first
    view.set_zoom(100)
    assert view.zoom == 8.0
    view.set_zoom(0.01)
    assert view.zoom == 0.25
    view.fit_page()
    assert view.zoom_mode == "fit_page"
    page = view.page_rect_in_viewport(view.current_page)
    assert page.height() <= view.viewport().height()
    view.fit_width()
    assert view.zoom_mode == "fit_width"


def test_keyboard_zoom_and_ctrl_wheel_keeps_the_point_under_the_cursor(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.setFocus()
    zoom = view.zoom
    qtbot.keyClick(view, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom > zoom
    qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == pytest.approx(zoom, rel=0.2)
    cursor = QPointF(300, 250)
    page_point = view.model.layout.page_point(0, cursor.x() + view.horizontalScrollBar().value(),
                                         cursor.y() + view.verticalScrollBar().value())
    before = view.zoom
    event = QWheelEvent(cursor, view.viewport().mapToGlobal(cursor), QPoint(0, 0), QPoint(0, 240),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)
    assert view.zoom == pytest.approx(before * 1.21, rel=0.01)
    after = view.viewport_point(1, *page_point)
    assert abs(after.x() - cursor.x()) <= 2 and abs(after.y() - cursor.y()) <= 2


def test_large_zoom_renders_tiles_not_a_giant_image(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.set_zoom(8.0)
    assert tiles_mod.is_tiled(view.page_size(1), view.render_scale())
    wait_rendered(qtbot, view)
    current = tiles_mod.scale_key(view.render_scale())
    images = [view._tiles.get(k) for k in view._tiles.keys() if k.scale == current]  # noqa: SIM118 - likewise
    assert len(images) >= 2
    assert all(i.width() <= tiles_mod.TILE_PIXELS + 1 and i.height() <= tiles_mod.TILE_PIXELS + 1 for i in images)
    cols, rows = tiles_mod.grid(view.page_size(1), view.render_scale())
    visible = len(view._needed_tiles(view.current_page - 1))
    assert len(images) <= visible + MAX_PREFETCH_TILES < cols * rows, "the visible part and its neighbours only"


# --- highlights, history, links ----------------------------------------------------------------------
def test_go_to_page_with_rects_highlights_them(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    rect = (300.0, 730.0, 420.0, 770.0)  # a blank strip near the foot of page 2
    with qtbot.waitSignal(view.historyChanged, timeout=WAIT_MS) as history:
        view.go_to_page(2, [rect])
    assert history.args == [True, False]
    assert view.current_page == 2
    wait_rendered(qtbot, view)
    centre = view.viewport_point(2, 360, 750)
    assert view.viewport().rect().contains(centre.toPoint())
    colour = grab(view).pixelColor(centre.toPoint())
    alpha = painter.SEARCH_HIT.alphaF()
    expected = [round(255 * (1 - alpha) + c * alpha) for c in (255, 145, 0)]
    assert [colour.red(), colour.green(), colour.blue()] == pytest.approx(expected, abs=6)
    view.clear_highlights()
    colour = grab(view).pixelColor(centre.toPoint())
    assert (colour.red(), colour.green(), colour.blue()) == (255, 255, 255)


def test_back_and_forward(qtbot, view, outline_pdf):
    open_and_wait(qtbot, view, outline_pdf)
    assert not view.can_go_back
    view.go_to_page(5)
    view.go_to_page(9)
    assert view.current_page == 9
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert view.current_page == 5
    view.back()
    assert view.current_page == 1
    assert not view.can_go_back and view.can_go_forward
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert view.current_page == 5
    view.go_to_page(3, record=False)  # not recorded: back returns to where the last jump started
    view.go_to_page(2)
    assert not view.can_go_forward
    view.back()
    assert view.current_page == 3


@pytest.fixture
def links_pdf(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    for n in range(1, 4):
        doc.new_page().insert_text((72, 72), f"Links page {n}")
    first = doc[0]
    first.insert_text((72, 150), "Go to page three")
    first.insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(70, 135, 250, 155), "page": 2,
                       "to": pymupdf.Point(0, 400)})
    first.insert_text((72, 250), "Visit the website")
    first.insert_link({"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(70, 235, 250, 255),
                       "uri": "https://example.org/pdfdesk"})
    path = tmp_path / "links.pdf"
    doc.save(path)
    doc.close()
    return path


def test_links_jump_and_are_recorded(qtbot, view, links_pdf):
    open_and_wait(qtbot, view, links_pdf)
    qtbot.waitUntil(lambda: 0 in view.model.page_info, timeout=WAIT_MS)
    inside = view.viewport_point(1, 150, 145).toPoint()
    qtbot.mouseMove(view.viewport(), inside)
    assert view.viewport().cursor().shape() == Qt.CursorShape.PointingHandCursor
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=inside)
    assert view.current_page == 3
    assert view.can_go_back
    view.back()
    assert view.current_page == 1
    external = view.viewport_point(1, 150, 245).toPoint()
    with qtbot.waitSignal(view.linkActivated, timeout=WAIT_MS) as activated:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=external)
    assert activated.args == ["https://example.org/pdfdesk"]
    assert view.current_page == 1


# --- find -----------------------------------------------------------------------------------------------
def count_hits(path: Path, needle: str) -> int:
    with pymupdf.open(path) as doc:
        return sum(len(page.search_for(needle)) for page in doc)


def test_find_bar_counts_highlights_and_wraps(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    expected = count_hits(text_pdf, "supplier")
    assert expected >= 6
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = view.find_bar
    assert bar.isVisible() and bar.edit.hasFocus()
    qtbot.keyClicks(bar.edit, "supplier")
    qtbot.waitUntil(lambda: view.find_status() == (1, expected, True), timeout=WAIT_MS)
    assert bar.count_label.text() == f"1 of {expected}"
    assert view.find_hits(1), "hits on the visible page are highlighted"
    wait_rendered(qtbot, view)
    hit = view.find_hits(1)[0]
    centre = view.viewport_point(1, (hit[0] + hit[2]) / 2, hit[1] + 1)
    colour = grab(view).pixelColor(centre.toPoint())
    assert colour.blue() < 200 and colour.red() > 200, "the current hit is tinted"
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    assert view.find_status()[0] == 2
    qtbot.keyClick(bar.edit, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(bar.edit, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert view.find_status()[0] == expected, "previous from the first hit wraps to the last"
    assert bar.count_label.text() == f"{expected} of {expected}"
    assert view.current_page == 3
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    assert view.find_status()[0] == 1 and view.current_page == 1, "next from the last wraps to the first"
    qtbot.keyClick(bar.edit, Qt.Key.Key_Escape)
    assert not bar.isVisible()
    assert view.find_status()[1] == 0 and not view.find_hits(1)


def test_find_starts_at_the_current_page(qtbot, view, long_pdf):
    open_and_wait(qtbot, view, long_pdf)
    view.go_to_page(700, record=False)
    view.find("Keyword5 ")  # "Keyword5 appears" on pages 5, 102, 199, ... (n % 97 == 5)
    qtbot.waitUntil(lambda: view.find_status()[0] == 1, timeout=WAIT_MS)
    assert view.current_page == 781  # the first hit at or after page 700, not page 5
    qtbot.waitUntil(lambda: view.find_status()[2], timeout=30_000)
    assert view.find_status()[1] == len([n for n in range(1, 1501) if n % 97 == 5])
    assert view.find_status()[0] == 9  # page 781 is the 9th hit in document order


def test_find_without_matches(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.show_find_bar()
    qtbot.keyClicks(view.find_bar.edit, "zebra crossing")
    qtbot.waitUntil(lambda: view.find_bar.count_label.text() == "No matches", timeout=WAIT_MS)
    view.find_next()  # nothing to go to: no error
    assert view.current_page == 1


# --- selection --------------------------------------------------------------------------------------------
def test_drag_selects_words_and_ctrl_c_copies_them(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    qtbot.waitUntil(lambda: 0 in view.model.page_info, timeout=WAIT_MS)
    first, last = word_rect(text_pdf, 1, "Page"), word_rect(text_pdf, 1, "hello")
    start = view.viewport_point(1, first[0] + 2, (first[1] + first[3]) / 2).toPoint()
    end = view.viewport_point(1, last[2] - 2, (last[1] + last[3]) / 2).toPoint()
    viewport = view.viewport()
    with qtbot.waitSignal(view.selectionChanged, timeout=WAIT_MS) as changed:
        qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
        qtbot.mouseMove(viewport, start + QPoint(10, 0))
        qtbot.mouseMove(viewport, end)
        qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)
    assert changed.args == ["Page 1 says hello"]
    assert view.selected_text() == "Page 1 says hello"
    QGuiApplication.clipboard().clear()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "Page 1 says hello"
    # the selection is painted
    middle = view.viewport_point(1, (first[0] + last[2]) / 2, first[1] + 1).toPoint()
    colour = grab(view).pixelColor(middle)
    assert colour.blue() > colour.red() + 20, "selection tint"
    # a plain click clears it
    with qtbot.waitSignal(view.selectionChanged, timeout=WAIT_MS) as cleared:
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=view.viewport_point(1, 300, 760).toPoint())
    assert cleared.args == [""]


def test_double_click_selects_a_word_and_select_all(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    qtbot.waitUntil(lambda: 0 in view.model.page_info, timeout=WAIT_MS)
    rect = word_rect(text_pdf, 1, "says")
    pos = view.viewport_point(1, (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2).toPoint()
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert view.selected_text() == "says"
    view.select_all_on_page(1)
    text = view.selected_text()
    assert text.startswith("Page 1 says hello from pdfdesk.\n") and "schedule 1" in text
    assert "Page 2" not in text


def test_selection_across_pages(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    view.fit_page()
    qtbot.waitUntil(lambda: {0, 1} <= set(view.model.page_info), timeout=WAIT_MS)
    view.select_all_on_page(1)
    says = word_rect(text_pdf, 2, "says")
    view.model.selection.extend(SelectionEnd(1, (says[0] + says[2]) / 2, (says[1] + says[3]) / 2))
    view.model.selection_updated()
    text = view.selected_text()
    assert "within thirty days" in text and text.endswith("\nPage 2 says")


# --- errors and passwords -------------------------------------------------------------------------------------
def test_encrypted_asks_for_a_password_then_opens(qtbot, view, aes_pdf):
    with qtbot.waitSignal(view.passwordRequired, timeout=WAIT_MS) as asked:
        view.open_document(str(aes_pdf))
    assert asked.args == [False] and view.state == "password"
    assert colours_in(grab(view), view.viewport().rect()) - {tuple(painter.BACKGROUND.getRgb()[:3])}, \
        "the prompt is painted in place"
    with qtbot.waitSignal(view.passwordRequired, timeout=WAIT_MS) as wrong:
        view.open_document(str(aes_pdf), "not-it")
    assert wrong.args == [True]
    with qtbot.waitSignal(view.firstPagePainted, timeout=WAIT_MS):
        assert open_and_wait(qtbot, view, aes_pdf, "user-secret") == 1
    wait_rendered(qtbot, view, [1])
    assert has_ink(grab(view), view.page_rect_in_viewport(1))
    assert view.password == "user-secret"


@pytest.mark.parametrize(("fixture", "code"), [("garbled_pdf", "pdf_error"), ("not_pdf", "not_a_pdf"),
                                           ("empty_pdf", "empty_file")])
def test_damaged_file_fails_in_place_and_the_view_lives_on(qtbot, view, request, text_pdf, fixture, code):
    with qtbot.waitSignal(view.openFailed, timeout=WAIT_MS) as failed:
        view.open_document(str(request.getfixturevalue(fixture)))
    details = failed.args[0]
    assert details["error"] == code and details["message"] and "hint" in details
    assert view.state == "failed" and view.page_count == 0 and view.error == details
    image = grab(view)
    assert len(colours_in(image, view.viewport().rect())) > 2, "the message is painted"
    view.go_to_page(2)  # harmless while nothing is open
    view.zoom_in()
    assert open_and_wait(qtbot, view, text_pdf) == 3
    assert view.error is None


def test_missing_file_fails_with_file_not_found(qtbot, view, tmp_path):
    with qtbot.waitSignal(view.openFailed, timeout=WAIT_MS) as failed:
        view.open_document(str(tmp_path / "nope.pdf"))
    assert failed.args[0]["error"] == "file_not_found"


def test_truncated_file_is_repaired_and_shown(qtbot, view, truncated_pdf):
    assert open_and_wait(qtbot, view, truncated_pdf) >= 1
    wait_rendered(qtbot, view, [1])


def test_reopening_drops_the_old_documents_results(qtbot, view, text_pdf, outline_pdf):
    view.open_document(str(text_pdf))
    assert open_and_wait(qtbot, view, outline_pdf) == 10  # the first open's results are ignored
    wait_rendered(qtbot, view, [1])
    assert view.page_count == 10
    assert has_ink(grab(view), view.page_rect_in_viewport(1))


def test_close_document_frees_everything(qtbot, view, text_pdf):
    open_and_wait(qtbot, view, text_pdf)
    wait_rendered(qtbot, view, [1])
    worker = view._worker
    with qtbot.waitSignal(view.documentClosed, timeout=WAIT_MS):
        view.close_document()
    assert view.page_count == 0 and view.cache_bytes() == 0 and view.state == "empty"
    qtbot.waitUntil(worker.isFinished, timeout=WAIT_MS)
    grab(view)  # paints the empty view without error


# --- rotated pages ------------------------------------------------------------------------------------------
def test_rotated_page_highlight_lands_on_the_text(qtbot, view, tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=600)
    page.insert_text((60, 100), "Rotated findme text", fontsize=14)
    page.set_rotation(90)
    path = tmp_path / "rotated.pdf"
    doc.save(path)
    doc.close()
    with pymupdf.open(path) as check:
        raw = tuple(check[0].search_for("findme")[0])  # unrotated space, as pdf_search reports it
    with qtbot.waitSignal(view.documentOpened, timeout=WAIT_MS):
        view.open_document(str(path))
        view.go_to_page(1, [raw])  # before the page's rotation is known: scrolled again once it is
    assert view.page_size(1) == (600.0, 400.0)
    qtbot.waitUntil(lambda: view._rescroll_page is None, timeout=WAIT_MS)  # the rotation arrived
    view.find("findme")
    qtbot.waitUntil(lambda: view.find_status()[1] == 1, timeout=WAIT_MS)
    shown = view.find_hits(1)[0]
    mapped = view.model.display_rects(0, [raw])[0]
    assert mapped == pytest.approx(shown, abs=0.5)
    assert mapped[2] - mapped[0] < mapped[3] - mapped[1], "the word runs vertically on the rotated page"
    wait_rendered(qtbot, view, [1])
    view.clear_highlights()
    view.clear_find()
    image = grab(view)
    box = view.viewport_point(1, mapped[0], mapped[1]), view.viewport_point(1, mapped[2], mapped[3])
    from PySide6.QtCore import QRectF
    assert has_ink(image, QRectF(box[0], box[1])), "the mapped rect covers the rendered word"


# --- thumbnails ---------------------------------------------------------------------------------------------------
def test_thumbnail_panel_follows_and_drives_the_view(qtbot, view, outline_pdf):
    panel = ThumbnailPanel(view)
    qtbot.addWidget(panel)
    panel.resize(180, 500)
    panel.show()
    open_and_wait(qtbot, view, outline_pdf)
    assert panel.model().rowCount() == 10
    qtbot.waitUntil(lambda: view.preview_image(0) is not None and view.preview_image(1) is not None,
                    timeout=WAIT_MS)
    assert view.preview_image(0).width() <= 200
    view.go_to_page(6)
    assert panel.currentIndex().row() == 5
    rect = panel.visualRect(panel.model().index(2))
    if not rect.intersects(panel.viewport().rect()):
        panel.scrollTo(panel.model().index(2))
        rect = panel.visualRect(panel.model().index(2))
    qtbot.mouseClick(panel.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.current_page == 3
    assert view.can_go_back
    qtbot.waitUntil(lambda: view.preview_image(2) is not None, timeout=WAIT_MS)
    shot = panel.viewport().grab().toImage()
    assert not shot.isNull()
    view.close_document()
    assert panel.model().rowCount() == 0


@pytest.mark.parametrize(("reference", "code"), [("http://127.0.0.1:9/report.pdf", "blocked_address"),
                                             ("ftp://example.org/report.pdf", "unsupported_pdf_reference")])
def test_refused_references_fail_with_the_tools_codes(qtbot, view, reference, code):
    with qtbot.waitSignal(view.openFailed, timeout=WAIT_MS) as failed:
        view.open_document(reference)
    assert failed.args[0]["error"] == code


def test_document_without_pages(qtbot, view, zero_pages_pdf):
    with qtbot.waitSignal(view.openFailed, timeout=WAIT_MS) as failed:
        view.open_document(str(zero_pages_pdf))
    assert failed.args[0]["error"] == "no_pages"


HIDPI_SCRIPT = """
import os, sys
from PySide6.QtWidgets import QApplication
app = QApplication([])
from pdfdesk.gui.viewer import DocumentView, shutdown
view = DocumentView()
view.resize(500, 400)
view.show()
view.open_document(sys.argv[1])
deadline = __import__("time").monotonic() + 20
while not (view.page_count and view.page_fully_rendered(1)) and __import__("time").monotonic() < deadline:
    app.processEvents()
key = next(k for k in view._tiles.keys() if k.page == 0)
image = view._tiles.get(key)
print(view.viewport().devicePixelRatioF(), image.devicePixelRatio(), image.width(),
      view.page_rect_in_viewport(1).width())
view.close_document()
shutdown()
"""


def test_hidpi_pages_render_at_device_pixels(text_pdf, tmp_path):
    """At a screen scale of 2 the page image has twice the pixels of its logical size (sharp text)."""
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": "2", "PDFDESK_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", HIDPI_SCRIPT, str(text_pdf)], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    screen_ratio, image_ratio, image_width, logical_width = map(float, done.stdout.split())
    assert screen_ratio == 2.0 and image_ratio == 2.0
    assert image_width == pytest.approx(2 * logical_width, abs=2)


def test_a_page_seen_once_is_never_blank_again(qtbot, view, long_pdf):
    """Once the cache has dropped a page's images, scrolling back shows its preview at once."""
    open_and_wait(qtbot, view, long_pdf)
    wait_rendered(qtbot, view, [1])
    qtbot.waitUntil(lambda: view.preview_image(0) is not None, timeout=WAIT_MS)
    view.go_to_page(30)
    wait_rendered(qtbot, view)
    for key in view._tiles.for_page(0):  # what the byte budget does to pages left far behind
        view._tiles.discard(key)
    assert 1 not in view.rendered_pages(current_zoom_only=False)
    view.go_to_page(1)  # painted before the worker hears about it
    assert not view.page_fully_rendered(1)
    image = grab(view)
    shades = colours_in(image, view.page_rect_in_viewport(1))
    assert min(min(c) for c in shades) < 120, "the preview (text, blurred) is painted, not the placeholder (176)"


def test_fast_flings_defer_rendering_until_the_scrolling_slows(qtbot, view, long_pdf):
    from pdfdesk.gui.viewer.view_rendering import FLING_SETTLE_MS

    open_and_wait(qtbot, view, long_pdf)
    wait_rendered(qtbot, view)
    bar = view.verticalScrollBar()
    bar.setValue(bar.value() + view.viewport().height())  # one jump: rendered at once
    assert view._schedule_timer.interval() == 0
    bar.setValue(bar.value() + view.viewport().height())  # a second one right after: a fling
    assert view._schedule_timer.isActive() and view._schedule_timer.interval() == FLING_SETTLE_MS
    wait_rendered(qtbot, view)  # once it settles, what is on screen is rendered
