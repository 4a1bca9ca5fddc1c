"""The document keeps the middle of the window: the side docks start at shares of the window's
width, can be made narrow (their rows wrap instead of holding them wide), and many attachments or
long names never widen a dock; a layout the reader arranged is kept as they left it."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QDockWidget, QPushButton, QWidget

from pdfdesk.gui.flow_layout import FlowLayout
from pdfdesk.gui.window_chrome import DOCK_LEFT_PX, DOCK_RIGHT_PX, dock_widths


def settle(qtbot, window, width: int) -> None:
    window.resize(width, 760)
    qtbot.waitUntil(lambda: window.width() == width, timeout=5000)
    qtbot.wait(50)


def test_a_first_window_1000_px_wide_leaves_the_document_about_half(qtbot, make_window):
    window = make_window([])
    settle(qtbot, window, 1000)
    window.dock_sizer.fit()  # as at the first show, now that the width is the one under test
    qtbot.wait(50)
    middle = window.centralWidget().width()
    assert middle >= 0.45 * 1000, (window.left_dock.width(), window.search_dock.width(), middle)


def test_shrinking_the_window_narrows_wide_docks_before_the_document_vanishes(qtbot, make_window):
    window = make_window([])
    settle(qtbot, window, 1600)
    window.dock_sizer.fit()
    qtbot.waitUntil(lambda: window.left_dock.width() >= 270, timeout=5000)
    window.chat_dock.raise_()  # the right area's raised tab is the one to narrow
    qtbot.wait(50)
    settle(qtbot, window, 800)  # as xdotool or a tiling window manager would
    qtbot.waitUntil(lambda: window.centralWidget().width() >= 0.35 * 800, timeout=5000)
    assert window.left_dock.width() <= DOCK_LEFT_PX[0] + 8
    assert window.chat_dock.width() <= DOCK_RIGHT_PX[0] + 8


def test_dock_shares_are_bounded_on_small_and_large_screens():
    assert dock_widths(800) == (DOCK_LEFT_PX[0], DOCK_RIGHT_PX[0])
    assert dock_widths(1280) == (256, 384)
    assert dock_widths(3840) == (DOCK_LEFT_PX[1], DOCK_RIGHT_PX[1])


def test_every_dock_can_be_made_narrower_than_its_default(qtbot, make_window):
    window = make_window([])
    settle(qtbot, window, 1000)
    for dock in window.findChildren(QDockWidget):
        assert dock.minimumSizeHint().width() <= DOCK_RIGHT_PX[0], dock.objectName()
    assert window.left_dock.minimumSizeHint().width() <= DOCK_LEFT_PX[0]


def test_ten_attachments_with_long_names_do_not_widen_the_ask_pane(qtbot, make_window, tmp_path):
    window = make_window([])
    window.chat_dock.raise_()
    before = window.chat_pane.minimumSizeHint().width()
    for number in range(10):
        window.chat_pane.attach(str(tmp_path / f"{'a very long report name ' * 4}{number}.pdf"))
    chips = window.chat_pane.chips.layout()
    qtbot.waitUntil(lambda: chips.count() == 11 and all(chips.itemAt(i).widget().isVisible()
                                                        for i in range(11)), timeout=5000)
    assert window.chat_pane.minimumSizeHint().width() <= max(before, DOCK_RIGHT_PX[0])
    assert chips.heightForWidth(280) > 3 * chips.heightForWidth(4000)  # they wrap onto rows


def test_a_layout_the_reader_arranged_is_kept_at_the_next_start(qtbot, make_window):
    window = make_window([])
    settle(qtbot, window, 780)  # within the test screen, so the next start gets the same width
    window.resizeDocks([window.left_dock], [250], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: abs(window.left_dock.width() - 250) <= 2, timeout=5000)
    window.close()
    again = make_window([])
    qtbot.wait(100)
    assert again.width() == 780
    assert abs(again.left_dock.width() - 250) <= 2  # not the default share, 200


def test_flow_layout_wraps_to_the_width_and_its_minimum_is_the_widest_item(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    flow = FlowLayout(host, spacing=4)
    buttons = [QPushButton(text, host) for text in ("Add files…", "Add folder…", "Remove", "Reindex")]
    for button in buttons:
        flow.addWidget(button)
    widest = max(button.minimumSizeHint().width() for button in buttons)
    assert flow.minimumSize().width() == widest
    one_row = flow.heightForWidth(flow.sizeHint().width())
    assert flow.heightForWidth(widest) > 2 * one_row  # one button per row
    flow.setGeometry(QRect(0, 0, widest + 10, flow.heightForWidth(widest + 10)))
    tops = [button.geometry().top() for button in buttons]
    assert tops == sorted(tops) and len(set(tops)) == 4
    assert all(button.geometry().right() <= widest + 10 for button in buttons)
