"""The chat pane shows outside strings as inert text: tool cards, errors, citations and chips of a
document whose name and contents attack both the model's fences and the pane's rich text."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument

from pdfdesk.agent.events import ToolCallFinished
from pdfdesk.agent.session import ChatSession
from pdfdesk.gui.chat_pane import ChatPane
from pdfdesk.gui.chat_transcript import Turn
from tests.agent.fake_servers import Turn as ModelTurn
from tests.agent.support import isolated_keys, openai_server, provider_urls, set_keys, use_config  # noqa: F401
from tests.gui.test_app_window import WAIT_MS
from tests.hardening.hostile import ATTACK, INSTRUCTION, hostile_pdf

pytestmark = pytest.mark.network


def _idle_session(docs):
    return type("S", (), {"documents": list(docs), "offline": True, "model_label": "offline answerer"})()


def _conversation(server, hostile: Path, monkeypatch) -> list:
    """The events of one real agent turn whose model reads the hostile file with three tools,
    asks for a file it was not given (refused), and cites a page."""
    shown_path = str(hostile)
    calls = [("pdf_info", {"path": shown_path}), ("pdf_outline", {"path": shown_path}),
             ("pdf_search", {"path": shown_path, "query": f"tariff{ATTACK}"}),
             ("pdf_extract_text", {"path": f"{hostile.parent}/gone{ATTACK}.pdf"})]
    server.script(ModelTurn(tool_calls=calls), ModelTurn(text="It lists tariffs [p. 1]."))
    set_keys(monkeypatch, "openai")
    config = use_config(providers=provider_urls(openai=server.url))
    session = ChatSession([str(hostile)], model="openai/gpt-4.1-mini", config=config)

    async def collect() -> list:
        return [event async for event in session.send("What is in it?")]

    return asyncio.run(collect())


def test_tool_cards_show_hostile_names_as_one_line_of_plain_text(qtbot, openai_server, tmp_path, monkeypatch):
    hostile = hostile_pdf(tmp_path)
    events = _conversation(openai_server, hostile, monkeypatch)
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [f.is_error for f in finished] == [False, False, False, True]
    pane = ChatPane(session_factory=_idle_session)
    qtbot.addWidget(pane)
    turn = Turn(1, "What is in it?")
    for event in events:
        pane._handle(turn, event)
    assert turn.citations, "the answer's citation was not recorded"

    html = pane.turn_html(turn)
    # Rich text: the name's HTML stays text, never markup; no fence marker in any form a model or
    # a reader could take for one.
    assert "<img src=x" not in html and "&lt;img src=x&gt;" in html
    assert "<<<" not in html and "&lt;&lt;&lt;" not in html
    document = QTextDocument()
    document.setHtml(html)
    shown = document.toPlainText()
    assert "<img src=x>" in shown  # what the user sees: the name as written, inert
    assert "\u2039\u2039\u2039END_PDF_CONTENT" in shown and "<<<" not in shown
    for line in shown.splitlines():
        assert not line.lstrip().startswith((INSTRUCTION, "\u2039", 'source="')), shown
    # Each card is one row: the injected instruction sits on its card's line, after an escaped break.
    card_lines = [line for line in shown.splitlines() if INSTRUCTION in line]
    assert card_lines and all(f"\\n{INSTRUCTION}" in line for line in card_lines), shown
    assert "path=gone\\n" in shown and "Error (validation_error)" in shown  # the refused call's card too


def test_attachment_chips_show_the_name_as_plain_text(qtbot, tmp_path):
    hostile = hostile_pdf(tmp_path)
    pane = ChatPane(session_factory=_idle_session)
    qtbot.addWidget(pane)
    pane.attach(str(hostile))
    qtbot.waitUntil(lambda: pane.chips_row.count() > 0, timeout=WAIT_MS)
    chip = pane.chips_row.itemAt(0).widget()
    assert chip.label.textFormat() == Qt.TextFormat.PlainText
    assert "\n" not in chip.label.text() and "\u2028" not in chip.label.text() and "<<<" not in chip.label.text()
    assert chip.label.text().startswith("report <img src")  # shown literally (and shortened in the middle)
    tip = chip.label.toolTip()
    assert "<img" not in tip and "&lt;img src=x&gt;" in tip and "<<<" not in tip
