"""The Notes dock: grouped by page, orphaned ones apart with their old page, the file's own
read-only; filters by colour, tag and text; click jumps; edit in place and delete go through the
controller (and the store); a thousand notes stay quick."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt

from pdfdesk.gui.notes_model import ID_ROLE, NOTE_COLUMN, TAGS_COLUMN
from tests.gui.conftest import view_highlights
from tests.gui.test_app_window import WAIT_MS
from tests.gui.test_review_controller import layer_of, ready_window, request, review_pdf, stored


def fake(n: int, page: int, **extra) -> dict:
    item = {"id": f"a-{n:05d}", "page": page, "rects": [[72.0, 90.0 + n % 40, 200.0, 100.0 + n % 40]],
            "quote": f"passage number {n}", "note": f"note {n}", "color": "#ffd54f", "tags": [], "kind": "highlight",
            "status": "anchored", "source": "pdfdesk", "prefix": "", "suffix": "", "created": "", "updated": str(n)}
    item.update(extra)
    return item


def rows(panel) -> dict[str, list[str]]:
    """Group title -> ids listed under it."""
    model = panel.model
    out = {}
    for g in range(model.rowCount()):
        group = model.index(g, 0)
        out[group.data()] = [model.index(r, 0, group).data(ID_ROLE) for r in range(model.rowCount(group))]
    return out


def test_grouping_filters_and_a_thousand_notes(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    panel, layer = window.review.panel, layer_of(window)
    items = [fake(n, 1 + n % 3, color="#81c784" if n % 10 == 0 else "#ffd54f",
                  tags=["legal"] if n % 7 == 0 else []) for n in range(1000)]
    items[5] = fake(5, 2, status="orphaned")
    items[6] = fake(6, 3, status="moved")
    window.review.controller.current.file_items = [fake(2000, 1, id="pdf-1-12", source="pdf", note="theirs")]
    started = time.perf_counter()
    layer.set_all(items)
    qtbot.waitUntil(lambda: panel.model.total() == 1001, timeout=WAIT_MS)
    listed = time.perf_counter() - started
    groups = rows(panel)
    assert list(groups) == ["Page 1 (334)", "Page 2 (333)", "Page 3 (333)",
                            "Orphaned: no longer found in this version (1)"]
    assert groups["Orphaned: no longer found in this version (1)"] == ["a-00005"]
    model = panel.model
    orphan = model.index_of("a-00005")
    assert model.index(orphan.row(), 3, orphan.parent()).data() == "orphaned (was p. 2)"
    moved = model.index_of("a-00006")
    assert model.index(moved.row(), 3, moved.parent()).data() == "moved"
    theirs = model.index_of("pdf-1-12")
    assert "read-only" in model.index(theirs.row(), 3, theirs.parent()).data()
    assert not model.flags(model.index(theirs.row(), NOTE_COLUMN, theirs.parent())) & Qt.ItemFlag.ItemIsEditable
    mine = model.index_of("a-00003")
    assert model.flags(model.index(mine.row(), NOTE_COLUMN, mine.parent())) & Qt.ItemFlag.ItemIsEditable
    # filters: text, colour, tag (and each answers quickly at this size)
    started = time.perf_counter()
    panel.filter_text.setText("passage number 99")
    assert panel.model.shown() == 11  # 99 and 990..999
    panel.filter_text.setText("")
    panel.color_filter.setCurrentIndex(panel.color_filter.findData("#81c784"))
    assert panel.model.shown() == 100 and "100 shown" in panel.status.text()
    panel.color_filter.setCurrentIndex(0)
    panel.tag_filter.setCurrentIndex(panel.tag_filter.findData("legal"))
    assert panel.model.shown() == 143
    panel.tag_filter.setCurrentIndex(0)
    filtered = time.perf_counter() - started
    assert panel.model.shown() == 1001
    assert listed < 2.0 and filtered < 2.0, (listed, filtered)
    # scrolling to the end and painting stays cheap: rows are painted, not built as widgets
    started = time.perf_counter()
    panel.tree.scrollToBottom()
    panel.tree.viewport().repaint()
    assert time.perf_counter() - started < 0.5


def test_click_jumps_edit_in_place_and_delete(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    controller, panel, layer = window.review.controller, window.review.panel, layer_of(window)
    request(window, path, 3, "indemnification clause")
    request(window, path, 1, "ninety days written notice")
    qtbot.waitUntil(lambda: panel.model.total() == 2 and not controller.busy, timeout=WAIT_MS)
    assert list(rows(panel)) == ["Page 1 (1)", "Page 3 (1)"]
    key = next(i["id"] for i in layer.items() if i["page"] == 3)
    index = panel.model.index_of(key)
    panel.tree.clicked.emit(index)
    view = window.current_view()
    qtbot.waitUntil(lambda: view.current_page == 3, timeout=WAIT_MS)
    assert view_highlights(view)[0] == 3 and layer.selected() == key
    # in place: the note cell, then the tags cell
    assert panel.model.setData(panel.model.index(index.row(), NOTE_COLUMN, index.parent()), "Ask counsel")
    qtbot.waitUntil(lambda: layer.item(key)["note"] == "Ask counsel" and not controller.busy, timeout=WAIT_MS)
    index = panel.model.index_of(key)
    panel.model.setData(panel.model.index(index.row(), TAGS_COLUMN, index.parent()), "legal, risk")
    qtbot.waitUntil(lambda: layer.item(key)["tags"] == ["legal", "risk"] and not controller.busy, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.model.tags() == ["legal", "risk"], timeout=WAIT_MS)
    note = next(a for a in stored(path) if a["id"] == key)
    assert note["note"] == "Ask counsel" and note["tags"] == ["legal", "risk"]
    index = panel.model.index_of(key)
    assert panel.model.index(index.row(), NOTE_COLUMN, index.parent()).data() == "Ask counsel"
    # delete the selected row with the Delete key; the panel's Undo brings it back
    panel.select(key)
    qtbot.keyClick(panel.tree, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: panel.model.total() == 1 and not controller.busy, timeout=WAIT_MS)
    assert [a["page"] for a in stored(path)] == [1]
    assert panel.undo_button.isEnabled()
    panel.undo_button.click()
    qtbot.waitUntil(lambda: panel.model.total() == 2 and not controller.busy, timeout=WAIT_MS)
    assert panel.redo_button.isEnabled() and len(stored(path)) == 2


def test_the_panel_is_a_dock_with_its_shortcut(qtbot, make_window, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    window = ready_window(qtbot, make_window, path)
    window.review.dock.hide()
    assert window.review.show_notes.shortcut().toString() == "Ctrl+Alt+N"
    window.review.show_notes.trigger()
    assert window.review.dock.isVisible() and window.review.dock.windowTitle() == "Notes"
    titles = [a.text() for a in window.menuBar().actions()]
    assert "&Review" in titles and titles.index("&Review") < titles.index("&Tools")
    review = window.review.menu.actions()
    assert [a.shortcut().toString() for a in review if a.text() in ("&Highlight", "Add &note…", "&Area tool")] == \
        ["Ctrl+Shift+H", "Ctrl+Shift+N", "Ctrl+Shift+A"]
