"""No text in the chat pane is cut off: at the window widths people use, and in a pane as narrow
as it goes, every label's wrapped text fits its box and no one-line placeholder runs past its edge.
The search panel's empty list says what to do, wrapped to its width, too."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QFontMetrics, QTextDocument, Qt  # QtGui's Qt also has mightBeRichText
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextEdit, QWidget

from pdfdesk.gui.chat_pane import ChatPane
from pdfdesk.gui.search_panel import SearchPanel
from pdfdesk.tools.contract import ToolResult
from tests.gui.test_app_window import WAIT_MS, wait_open
from tests.gui.test_chat_pane_citations import _idle_session

BIG = 10_000


def _plain(label: QLabel) -> str:
    if label.textFormat() == Qt.TextFormat.PlainText or not Qt.mightBeRichText(label.text()):
        return label.text()
    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText()


def clipped(root: QWidget) -> list[str]:
    """What a reader would see cut off in `root`: one line per problem (empty when none)."""
    problems = []
    for label in root.findChildren(QLabel):
        if not label.isVisibleTo(root) or not label.text():
            continue
        box = label.contentsRect()
        text = _plain(label)
        if label.wordWrap():
            needed = QFontMetrics(label.font()).boundingRect(
                QRect(0, 0, box.width(), BIG), int(Qt.TextFlag.TextWordWrap | label.alignment()), text)
            if needed.height() > box.height() or label.heightForWidth(label.width()) > label.height():
                problems.append(f"{label.objectName() or text[:40]!r}: wraps to {needed.height()} px "
                                f"in {box.height()} px")
        elif label.sizeHint().width() > label.width():
            problems.append(f"{text[:40]!r}: {label.sizeHint().width()} px wide in {label.width()} px")
    for box in root.findChildren(QTextEdit) + root.findChildren(QPlainTextEdit):
        hint = box.placeholderText()
        if not hint or not box.isVisibleTo(root) or not box.document().isEmpty():
            continue
        inner = box.viewport().width() - 2 * int(box.document().documentMargin())
        metrics = QFontMetrics(box.font())
        if isinstance(box, QTextEdit) and metrics.horizontalAdvance(hint) > inner:  # Qt draws it on one line
            problems.append(f"placeholder {hint[:40]!r}: {metrics.horizontalAdvance(hint)} px on one line "
                            f"in {inner} px")
        wrapped = metrics.boundingRect(QRect(0, 0, inner, BIG), int(Qt.TextFlag.TextWordWrap), hint)
        if wrapped.height() > box.viewport().height():
            problems.append(f"placeholder {hint[:40]!r}: {wrapped.height()} px high in {box.viewport().height()} px")
    return problems


def _settle(qtbot, widget: QWidget) -> None:
    qtbot.waitUntil(lambda: widget.isVisible(), timeout=WAIT_MS)
    qtbot.wait(50)  # layouts and the hint's placement run on posted events


@pytest.mark.parametrize("width", [1000, 1200, 1400, 1600])
def test_the_ask_pane_shows_all_its_text_at_common_window_widths(qtbot, make_window, width):
    window = make_window([])
    wait_open(qtbot, window, 1)
    window.resize(width, 800)
    window.focus_chat()
    chat = window.chat_pane
    qtbot.waitUntil(lambda: chat.session is not None and chat.banner.isVisible(), timeout=WAIT_MS)
    _settle(qtbot, chat)
    assert chat.empty_hint.isVisible() and "cite pages you can click" in chat.empty_hint.text()
    assert clipped(chat) == []


def test_a_narrow_pane_wraps_instead_of_cutting(qtbot):
    pane = ChatPane(session_factory=_idle_session)
    qtbot.addWidget(pane)
    pane.show()
    qtbot.waitUntil(lambda: pane.banner.isVisible(), timeout=WAIT_MS)
    for width in (pane.minimumSizeHint().width(), 460, 700):
        pane.resize(width, 520)
        _settle(qtbot, pane)
        assert clipped(pane) == [], width
        hint = pane.empty_hint
        assert hint.isVisible() and hint.wordWrap() and hint.width() <= pane.transcript.viewport().width()
    assert pane.transcript.placeholderText() == ""  # Qt would draw that on one line, cut at the edge


def test_the_hint_leaves_once_the_chat_has_text_and_returns_for_a_new_chat(qtbot):
    pane = ChatPane(session_factory=_idle_session)
    qtbot.addWidget(pane)
    pane.show()
    _settle(qtbot, pane)
    assert pane.empty_hint.isVisible()
    pane._append_note("something happened")
    assert not pane.empty_hint.isVisible()
    pane.new_chat()
    assert pane.empty_hint.isVisible()


def test_the_check_catches_a_cut_label(qtbot):
    """The measuring itself: a long label without wrapping in a small box is reported."""
    holder = QWidget()
    qtbot.addWidget(holder)
    label = QLabel("Ask about the attached documents. Answers cite pages you can click.", holder)
    label.setGeometry(0, 0, 120, 20)
    holder.show()
    assert clipped(holder)
    label.setWordWrap(True)
    assert clipped(holder)  # wraps, but the box is too low for the lines
    label.setGeometry(0, 0, 120, label.heightForWidth(120))
    assert clipped(holder) == []


def _hint_fits(results) -> bool:
    box = results.hint_rect()
    needed = QFontMetrics(results.font()).boundingRect(
        QRect(0, 0, box.width(), BIG), int(Qt.TextFlag.TextWordWrap), results.empty_text())
    return needed.width() <= box.width() and needed.height() <= box.height()


def test_the_search_panel_says_what_to_do_when_it_has_no_results(qtbot):
    panel = SearchPanel(lambda: ("/docs/report.pdf", None))
    qtbot.addWidget(panel)
    panel.show()
    assert "press Enter" in panel.results.empty_text() and panel.results.count() == 0
    panel._last_query = "unicorn grazing rights"
    details = {"file": "/docs/report.pdf", "mode": "keyword", "count": 0, "matches": []}
    panel._show(panel._generation, ToolResult(details=details))
    assert "Nothing matches “unicorn grazing rights”" in panel.results.empty_text()
    assert "whole library" in panel.results.empty_text()
    for width in (panel.minimumSizeHint().width(), 520):
        panel.resize(width, 360)
        _settle(qtbot, panel)
        assert _hint_fits(panel.results), width
        assert clipped(panel) == [], width
