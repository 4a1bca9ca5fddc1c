"""The viewer's annotation layer on its own: per-page buckets, the pages each change names, the
selection, orphans, clearing with the document, the rotation mapping and hit-testing."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pymupdf
import pytest

from pdfdesk.gui.viewer.annotation_geometry import annotation_at, item_rects, marker_box
from pdfdesk.gui.viewer.annotation_layer import AnnotationLayer
from pdfdesk.gui.viewer.render_jobs import PageGeometry
from tests.gui.test_viewer_model import opened_state


def ann(id: str, page: int, rects=((10, 10, 50, 20),), **extra) -> dict:
    return {"id": id, "page": page, "rects": [list(r) for r in rects], "quote": "", "note": "",
            "color": "#ffd54f", "tags": [], "kind": "highlight", "status": "anchored", "source": "pdfdesk", **extra}


def record(layer: AnnotationLayer) -> list:
    seen: list = []
    layer.changed.connect(seen.append)
    return seen


def test_buckets_and_the_pages_each_change_names(qtbot):
    layer = AnnotationLayer()
    seen = record(layer)
    layer.set_all([ann("a", 1), ann("b", 3), ann("c", 3), ann("bad", 0), ann("worse", "x")])
    assert seen == [None] and layer.count() == 5
    assert [i["id"] for i in layer.on_page(2)] == ["b", "c"] and layer.on_page(0)[0]["id"] == "a"
    assert layer.on_page(1) == [] and layer.pages() == [0, 2]
    assert layer.item("bad")["page"] == 0, "kept by id, on no page"
    layer.upsert(ann("d", 5))
    assert seen[-1] == {4}
    layer.upsert(ann("b", 4, note="moved"))  # re-anchored on another page: both repaint
    assert seen[-1] == {2, 3} and layer.on_page(3)[0]["note"] == "moved"
    assert [i["id"] for i in layer.on_page(2)] == ["c"]
    layer.remove("c")
    assert seen[-1] == {2} and 2 not in layer.pages()
    before = len(seen)
    layer.remove("nope")
    assert len(seen) == before, "removing nothing announces nothing"


def test_selection_repaints_the_old_and_new_pages(qtbot):
    layer = AnnotationLayer()
    layer.set_all([ann("a", 1), ann("b", 2)])
    seen = record(layer)
    layer.set_selected("a")
    layer.set_selected("b")
    assert seen == [{0}, {0, 1}] and layer.selected() == "b"
    layer.remove("b")
    assert layer.selected() is None
    layer.set_selected("a")
    layer.set_all([ann("z", 1)])
    assert layer.selected() is None, "a reload drops a selection that is gone"


def test_orphans_are_listed_but_not_painted(qtbot):
    layer = AnnotationLayer()
    layer.set_all([ann("a", 2), ann("o", 2, status="orphaned")])
    assert [i["id"] for i in layer.on_page(1)] == ["a", "o"]
    assert [i["id"] for i in layer.painted_on(1)] == ["a"]
    assert annotation_at(layer, 1, 30, 15, lambda _i, r: r, (600, 800), 1.0) == "a"
    layer.remove("a")
    assert annotation_at(layer, 1, 30, 15, lambda _i, r: r, (600, 800), 1.0) is None


def test_pending_ids_are_unique():
    layer = AnnotationLayer()
    assert layer.next_pending_id() == "pending-1" and layer.next_pending_id() == "pending-2"


def test_the_document_state_empties_its_layer_on_close_and_reopen(qtbot):
    state = opened_state()
    state.annotations.set_all([ann("a", 1)])
    state.annotations.set_selected("a")
    with qtbot.waitSignal(state.annotations.changed) as changed:
        state.close()
    assert changed.args == [None] and state.annotations.count() == 0 and state.annotations.selected() is None
    state = opened_state()
    state.annotations.set_all([ann("a", 1)])
    state.begin_open("other.pdf")
    assert state.annotations.count() == 0


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_unrotated_rects_undo_display_rects(qtbot, rotation):
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=600)
    page.set_rotation(rotation)
    matrix = tuple(page.rotation_matrix) if rotation else None
    state = opened_state(1)
    state.set_geometry(0, [PageGeometry(page.rect.width, page.rect.height, matrix)])
    raw = (40.0, 100.0, 160.0, 118.0)
    shown = state.display_rects(0, [raw])[0]
    expected = pymupdf.Rect(raw) * page.rotation_matrix
    assert shown == pytest.approx(tuple(expected.normalize()), abs=1e-6)
    assert state.unrotated_rects(0, [shown])[0] == pytest.approx(raw, abs=1e-6)
    back = pymupdf.Rect(shown) * page.derotation_matrix
    assert tuple(back.normalize()) == pytest.approx(raw, abs=1e-6)


def test_malformed_rects_are_skipped_and_markers_stay_on_the_page():
    item = ann("a", 1, rects=[(1, 2, 3, 4), ("x", 0, 1, 1), (1, 2, 3), (float("nan"), 0, 1, 1), (9, 8, 7, 6)])
    item["rects"].append("junk")
    assert item_rects(item) == [(1.0, 2.0, 3.0, 4.0), (7.0, 6.0, 9.0, 8.0)]
    assert item_rects({"rects": None}) == []
    x0, y0, x1, _y1 = marker_box((2.0, 3.0, 50.0, 12.0), (600.0, 800.0), 2.0)
    assert x0 >= 0 and y0 >= 0 and x1 - x0 == pytest.approx(11.0 / 2)
    x0, y0, x1, _y1 = marker_box(None, (600.0, 800.0), 1.0)
    assert 500 < x0 < x1 <= 600 and 0 <= y0 < 40, "a page note's marker sits at the top-right corner"


def test_the_topmost_annotation_and_the_note_marker_are_hit():
    layer = AnnotationLayer()
    layer.set_all([ann("under", 1, rects=[(10, 10, 100, 30)]), ann("over", 1, rects=[(50, 10, 150, 30)]),
                   ann("note", 1, rects=[(200, 300, 260, 312)], note="read me")])
    def same(_index, rects):
        return rects

    assert annotation_at(layer, 0, 20, 20, same, (600, 800), 1.0) == "under"
    assert annotation_at(layer, 0, 60, 20, same, (600, 800), 1.0) == "over"
    box = marker_box((200, 300, 260, 312), (600, 800), 1.0)
    assert annotation_at(layer, 0, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, same, (600, 800), 1.0) == "note"
    assert annotation_at(layer, 0, 400, 400, same, (600, 800), 1.0) is None
    assert annotation_at(layer, 1, 20, 20, same, (600, 800), 1.0) is None
