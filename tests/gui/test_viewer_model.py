"""The viewer's parts on their own: the document-state model without a view, the render policy
given a viewport, and the view actions (on the viewer, placed by the main window)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu

from pdfdesk.gui.viewer import render_policy, tiles
from pdfdesk.gui.viewer.history import Position
from pdfdesk.gui.viewer.layout import PageLayout
from pdfdesk.gui.viewer.opening import OpenedDocument
from pdfdesk.gui.viewer.render_jobs import PageGeometry
from pdfdesk.gui.viewer.state import DocumentState
from pdfdesk.gui.viewer.zoom import MAX_ZOOM, ZOOM_STEPS, parse_zoom, zoom_choices

WAIT_MS = 10_000


def opened_state(pages: int = 10) -> DocumentState:
    state = DocumentState()
    state.begin_open("test.pdf")
    state.opened(OpenedDocument(source=None, password=None, page_count=pages,  # type: ignore[arg-type]
                                first_size=(600.0, 800.0), title="t", repaired=False))
    return state


def test_model_zoom_steps_through_the_one_list(qtbot):
    state = opened_state()
    state.set_zoom(1.0)
    with qtbot.waitSignal(state.zoomChanged) as changed:
        state.zoom_in()
    assert changed.args == [ZOOM_STEPS[ZOOM_STEPS.index(1.0) + 1]] and state.zoom_mode == "custom"
    state.zoom_out()
    state.zoom_out()
    assert state.zoom == ZOOM_STEPS[ZOOM_STEPS.index(1.0) - 1]
    state.set_zoom(100.0)
    assert state.zoom == MAX_ZOOM
    with qtbot.assertNotEmitted(state.zoomChanged):
        state.zoom_in()  # already at the top step
    # the zoom box offers exactly the steps, and typed values are clamped the same way
    assert [value for _label, value in zoom_choices() if isinstance(value, float)] == list(ZOOM_STEPS)
    assert parse_zoom("150 %") == 1.5 and parse_zoom("5000") == MAX_ZOOM and parse_zoom("abc") is None


def test_model_layout_changes_are_announced_around_the_change(qtbot):
    state = opened_state(3)
    seen: list[tuple[str, float]] = []
    state.layoutAboutToChange.connect(lambda: seen.append(("before", state.layout.page_size(1)[1])))
    state.layoutChanged.connect(lambda: seen.append(("after", state.layout.page_size(1)[1])))
    assert state.set_geometry(0, [PageGeometry(600.0, 800.0), PageGeometry(600.0, 400.0)])
    assert seen == [("before", 800.0), ("after", 400.0)] and state.geometry_known == 2
    assert not state.set_geometry(0, [PageGeometry(600.0, 800.0)])  # nothing moved


def test_model_current_page_and_history(qtbot):
    state = opened_state()
    assert state.current_page == 1 and state.page_count == 10
    with qtbot.waitSignal(state.currentPageChanged) as changed:
        state.set_current(4)
    assert changed.args == [5]
    with qtbot.assertNotEmitted(state.currentPageChanged):
        state.set_current(4)
    history: list[tuple[bool, bool]] = []
    shown: list[Position] = []
    state.historyChanged.connect(lambda back, forward: history.append((back, forward)))
    state.positionRequested.connect(shown.append)
    state.record(Position(0, 0.0, 0.0))
    state.record(Position(4, 0.0, 10.0))
    here = Position(7, 0.0, 0.0)
    assert state.back(here) == Position(4, 0.0, 10.0)
    assert state.back(Position(4, 0.0, 10.0)) == Position(0, 0.0, 0.0)
    assert history[-1] == (False, True) and state.back(Position(0, 0.0, 0.0)) is None
    assert state.forward(Position(0, 0.0, 0.0)) == Position(4, 0.0, 10.0)
    assert shown == [Position(4, 0.0, 10.0), Position(0, 0.0, 0.0), Position(4, 0.0, 10.0)]
    state.record(Position(2, 0.0, 0.0))  # a new jump forgets the forward branch
    assert not state.history.can_go_forward


def test_model_find_hits_come_in_batches_and_step_with_wrap(qtbot):
    state = opened_state()
    state.set_current(3)
    with qtbot.waitSignal(state.findRequested) as asked:
        state.start_find("term")
    generation = asked.args[0]
    assert asked.args[1:] == ["term", 3]
    assert not state.add_find_hits(generation - 1, {0: [(1, 1, 2, 2)]}, 1, 10)  # an older search: ignored
    current_moves: list[int] = []
    state.findCurrentChanged.connect(lambda: current_moves.append(state.find.current[0]))
    assert state.add_find_hits(generation, {5: [(1, 1, 2, 2), (3, 3, 4, 4)]}, 7, 10)
    assert current_moves == [5] and state.find_status() == (1, 2, False)  # first hit from the current page
    state.add_find_hits(generation, {1: [(5, 5, 6, 6)]}, 10, 10)
    assert state.find_status() == (2, 3, True)  # page 1's hit now counts first in document order
    state.find_step(+1)
    state.find_step(+1)  # wraps to page 1
    assert state.find.current == (1, 0) and state.find_status()[0] == 1
    state.find_step(-1)
    assert state.find.current == (5, 1)
    with qtbot.waitSignal(state.findRequested) as stopped:
        state.start_find("")
    assert stopped.args[1] == "" and state.find_status() == (0, 0, True)


def test_model_closing_resets_but_keeps_the_zoom(qtbot):
    state = opened_state()
    state.set_zoom(2.0)
    state.set_highlights(2, [(1, 1, 2, 2)])
    with qtbot.waitSignal(state.documentClosed):
        state.close()
    assert state.page_count == 0 and state.current_page == 0 and state.highlights is None
    assert state.zoom == 2.0


def test_policy_renders_visible_pages_first_then_neighbours():
    layout = PageLayout()
    layout.reset(20, (600.0, 800.0))
    layout.set_viewport_width(700)
    page3 = layout.page_rect(3)
    # the viewport shows the bottom of page 3 and most of page 4
    viewport = render_policy.Viewport(0.0, page3.y + page3.height * 0.8, 700.0, 700.0)
    plan = render_policy.plan(layout, viewport, 1.0, cached=set())
    assert plan.visible_pages == [4, 3]  # the page nearest the middle of the screen leads
    assert [t.key.page for t in plan.visible] == [4, 3]
    assert plan.on_screen == {t.key for t in plan.visible}
    below = [t.key.page for t in plan.prefetch]
    assert below and below[0] == 5 and set(below) <= {2, 5, 6}  # a screen below, half a screen above
    assert not set(below) & set(plan.visible_pages)


def test_policy_skips_cached_and_failed_pages_and_caps_prefetch():
    layout = PageLayout()
    layout.reset(50, (600.0, 100.0))  # short pages: many fit in one screen
    layout.set_viewport_width(700)
    viewport = render_policy.Viewport(0.0, 0.0, 700.0, 600.0)
    first = render_policy.plan(layout, viewport, 1.0, cached=set())
    cached = {first.visible[0].key}
    plan = render_policy.plan(layout, viewport, 1.0, cached=cached, skip={first.visible_pages[1]}, max_prefetch=3)
    pages = [t.key.page for t in plan.visible]
    assert first.visible_pages[0] not in pages and first.visible_pages[1] not in pages
    assert first.visible[0].key in plan.on_screen  # cached tiles on screen stay pinned
    below = max(first.visible_pages)
    assert [t.key.page for t in plan.prefetch] == [below + 1, below + 2, below + 3]  # nearest first, capped
    assert len(first.prefetch) == 5 and all(isinstance(t, tiles.Tile) for t in first.prefetch)  # one screen below


def test_view_actions_live_on_the_viewer_and_the_window_places_them(qtbot, make_window, outline_pdf):
    from pdfdesk.gui.viewer.actions import ViewActions

    window = make_window([str(outline_pdf)])
    qtbot.waitUntil(lambda: window.current_tab() is not None and window.current_tab().state == "open",
                    timeout=WAIT_MS)
    actions = window.view_actions
    assert isinstance(actions, ViewActions)
    view = window.current_view()
    assert actions.view() is view
    assert window.zoom_in_action is actions.zoom_in and window.find_action is actions.find
    in_menus = {a for menu in window.menuBar().findChildren(QMenu) for a in menu.actions()}
    for action in actions.actions():
        assert action in in_menus and action.isEnabled() == (action not in (actions.back, actions.forward))
    view.set_zoom(1.0)
    actions.zoom_in.trigger()
    assert view.zoom == ZOOM_STEPS[ZOOM_STEPS.index(1.0) + 1] and window.zoom_status.text() == "110%"
    actions.fit_page.trigger()
    assert view.zoom_mode == "fit_page"
    window.page_box.setText("5")
    qtbot.keyClick(window.page_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.current_page == 5, timeout=WAIT_MS)
    assert actions.back.isEnabled() and window.page_status.text().startswith("Page 5 of")
    actions.back.trigger()
    qtbot.waitUntil(lambda: view.current_page == 1, timeout=WAIT_MS)
    assert actions.forward.isEnabled()
    actions.forward.trigger()
    qtbot.waitUntil(lambda: view.current_page == 5, timeout=WAIT_MS)
    actions.find.trigger()
    assert view.find_bar.isVisible()
    window.close_current_tab()
    assert actions.view() is None and not actions.zoom_in.isEnabled() and not actions.back.isEnabled()
