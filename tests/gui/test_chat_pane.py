"""The chat pane against a local OpenAI-compatible server: streamed answer, tool cards with page
thumbnails, a citation link that opens the document at the page; stop; offline banner; attachments."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QTextCursor

from pdfdesk.core.config import Config, ProviderSettings, set_config
from pdfdesk.gui.chat_pane import ChatPane
from pdfdesk.gui.chat_transcript import ToolCard, short_arguments
from tests.agent.fake_servers import FakeOpenAI, Turn
from tests.gui.conftest import view_highlights
from tests.gui.test_app_window import WAIT_MS, clause_pdf, wait_open

pytestmark = pytest.mark.network

KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")


@pytest.fixture
def no_keys(monkeypatch, memory_keyring):
    for name in KEY_VARS:
        monkeypatch.delenv(name, raising=False)
    return memory_keyring


def use_fake_model(server: FakeOpenAI) -> None:
    set_config(Config(semantic=False, agent_model="local/test-model", model_max_retries=0, model_timeout_s=10,
                      providers={"local": ProviderSettings(base_url=server.url)}))


def session_ready(qtbot, chat, reload: bool = False):
    """The chat's session once built (built in a worker; `reload` rebuilds it for a new config)."""
    if reload:
        with qtbot.waitSignal(chat.sessionReady, timeout=WAIT_MS):
            chat.reload_settings()
    qtbot.waitUntil(lambda: chat.session is not None, timeout=WAIT_MS)
    return chat.session


def anchor_position(browser, href_prefix: str, text: str) -> int:
    """Character position inside the first link whose href starts with `href_prefix` and shows `text`."""
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isAnchor() and fmt.anchorHref().startswith(href_prefix) and text in fragment.text():
                return fragment.position() + 1
            it += 1
        block = block.next()
    raise AssertionError(f"no link {href_prefix}… showing {text!r}")


def click_link(qtbot, browser, href_prefix: str, text: str) -> None:
    cursor = QTextCursor(browser.document())
    cursor.setPosition(anchor_position(browser, href_prefix, text))
    browser.setTextCursor(cursor)
    browser.ensureCursorVisible()
    point = browser.cursorRect(cursor).center()
    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_a_turn_streams_tool_cards_and_a_clickable_citation(qtbot, make_window, qasync_loop, no_keys, tmp_path):
    doc = clause_pdf(tmp_path / "contract.pdf")
    other = clause_pdf(tmp_path / "other.pdf", pages=2, special_page=1)
    answer = "The **indemnification clause** survives termination [contract.pdf p. 4]."
    with FakeOpenAI(
        Turn(tool_calls=[("pdf_search", {"path": str(doc), "query": "indemnification"}),
                         ("pdf_render_page", {"path": str(doc), "page": 4, "dpi": 72})]),
        Turn(text=answer, chunk_size=7),
    ) as server:
        use_fake_model(server)
        window = make_window([doc, other])
        wait_open(qtbot, window, 2)
        chat = window.chat_pane
        assert session_ready(qtbot, chat, reload=True).model_label == "local/test-model"
        assert not chat.banner.isVisible()
        assert chat.documents() == [str(doc)]  # the current tab's document is attached by default
        window.tabs.setCurrentIndex(1)  # look at the other document while asking
        chat.attach(str(doc))
        qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(chat.input, "Does the indemnification clause survive?")
        with qtbot.waitSignal(chat.turnFinished, timeout=WAIT_MS) as finished:
            qtbot.keyClick(chat.input, Qt.Key.Key_Return)
        turn = finished.args[0]
        assert turn.status == "done", turn.errors
        cards = [p for p in turn.parts if isinstance(p, ToolCard)]
        assert [c.name for c in cards] == ["pdf_search", "pdf_render_page"]
        assert all(c.finished and not c.is_error and c.summary for c in cards)
        qtbot.waitUntil(lambda: len(cards[1].thumbs) == 1, timeout=WAIT_MS)  # the rendered page's thumbnail
        # what the model was sent: both documents, and the tool results of the first round
        sent = server.requests[-1].body
        assert any(m.get("role") == "tool" for m in sent["messages"])
        # the transcript re-renders on a short timer (streaming text is batched): wait for the last one
        qtbot.waitUntil(lambda: cards[1].thumbs[0] in chat.transcript.toHtml(), timeout=WAIT_MS)
        html = chat.transcript.toHtml()
        assert "pdf_search" in html and "indemnification" in html
        assert "<b>" in chat.turn_html(turn) and "survives termination" in chat.transcript.toPlainText()
        assert any(c.document == str(doc) and c.page == 4 for c in turn.citations.values())
        # clicking the citation opens the cited document at the page with the passage highlighted
        click_link(qtbot, chat.transcript, "pdfdesk://open", "p. 4")
        qtbot.waitUntil(lambda: window.current_tab().reference == str(doc), timeout=WAIT_MS)
        view = window.current_view()
        qtbot.waitUntil(lambda: view.current_page == 4 and view_highlights(view) is not None, timeout=WAIT_MS)
        assert view_highlights(view)[0] == 4


def test_stop_cancels_the_running_turn(qtbot, make_window, qasync_loop, no_keys, tmp_path):
    doc = clause_pdf(tmp_path / "contract.pdf")
    with FakeOpenAI(Turn(text="word " * 400, chunk_size=5, chunk_delay=0.05)) as server:
        use_fake_model(server)
        window = make_window([doc])
        wait_open(qtbot, window, 1)
        chat = window.chat_pane
        session_ready(qtbot, chat, reload=True)
        chat.input.setPlainText("Tell me everything.")
        chat.send_button.click()
        assert chat.stop_button.isEnabled() and not chat.send_button.isEnabled()
        qtbot.waitUntil(lambda: "word word" in chat.transcript.toPlainText(), timeout=WAIT_MS)
        with qtbot.waitSignal(chat.turnFinished, timeout=WAIT_MS) as finished:
            chat.stop_button.click()
        assert finished.args[0].status == "cancelled"
        assert "Stopped." in chat.transcript.toPlainText()
        assert chat.send_button.isEnabled() and not chat.stop_button.isEnabled()


def test_offline_answerer_banner_leads_to_settings(qtbot, make_window, qasync_loop, no_keys, tmp_path, monkeypatch):
    doc = clause_pdf(tmp_path / "contract.pdf")
    window = make_window([doc])
    wait_open(qtbot, window, 1)
    chat = window.chat_pane
    assert session_ready(qtbot, chat).offline and chat.banner.isVisible()
    opened = []
    monkeypatch.setattr(window, "open_settings", lambda: opened.append(True))
    chat.settingsRequested.disconnect()
    chat.settingsRequested.connect(window.open_settings)
    chat.setup_button.click()
    assert opened == [True]
    # the offline answerer still answers from the document, with a citation
    with qtbot.waitSignal(chat.turnFinished, timeout=WAIT_MS) as finished:
        chat.ask("find indemnification")
    turn = finished.args[0]
    assert turn.offline and turn.status == "done"
    assert any(c.page == 4 for c in turn.citations.values())


def test_dropping_pdfs_on_the_pane_attaches_them(qtbot, make_window, no_keys, tmp_path):
    doc = clause_pdf(tmp_path / "contract.pdf")
    folder = tmp_path / "more"
    folder.mkdir()
    extra = clause_pdf(folder / "exhibit.pdf", pages=1, special_page=1)
    window = make_window([doc])
    wait_open(qtbot, window, 1)
    chat = window.chat_pane
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(folder))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    chat.dropEvent(event)
    assert event.isAccepted()
    qtbot.waitUntil(lambda: str(extra) in chat.documents(), timeout=WAIT_MS)
    session_ready(qtbot, chat)
    assert chat.documents() == [str(extra), str(doc)]
    assert chat.session.documents == chat.documents()
    chips = [chat.chips_row.itemAt(i).widget() for i in range(chat.chips_row.count())]
    labels = [c.label.text() for c in chips if c is not None]
    assert labels == ["exhibit.pdf", "contract.pdf (current tab)"]
    chat.detach(str(doc))  # the × on the current tab's chip
    assert chat.documents() == [str(extra)]


def test_links_from_the_document_cannot_pose_as_citations(qtbot, no_keys):
    pane = ChatPane(session_factory=lambda docs: type("S", (), {"documents": list(docs), "offline": False,
                                                               "model_label": "fake/model"})())
    qtbot.addWidget(pane)
    from pdfdesk.agent.events import Citation, TextDelta
    from pdfdesk.gui.chat_transcript import Turn as ChatTurn

    turn = ChatTurn(1, "q")
    pane._turns.append(turn)
    pane._handle(turn, TextDelta('<a href="pdfdesk://open?doc=/etc/passwd&page=1">p. 1</a> see [p. 2]'))
    html = pane.turn_html(turn)
    assert "&lt;a href" in html and 'href="pdfdesk://open?doc=/etc/passwd' not in html
    turn.citations["1-1"] = Citation("/docs/a.pdf", 2)
    assert "pdfdesk://open?doc=%2Fdocs%2Fa.pdf&amp;page=2&amp;c=1-1" in pane.turn_html(turn)


def test_short_arguments_show_file_names_and_hide_passwords():
    text = short_arguments({"path": "/very/long/folder/report.pdf", "query": "x" * 100, "password": "hunter2"})
    assert text.startswith("path=report.pdf, query=\"xxx") and "…" in text and "hunter2" not in text


def test_missing_event_loop_is_reported_not_raised(qtbot, no_keys):
    pane = ChatPane(session_factory=lambda docs: type("S", (), {"documents": list(docs), "offline": True,
                                                               "model_label": "offline answerer"})())
    qtbot.addWidget(pane)
    pane.input.setPlainText("hello")
    pane.send()  # queued until the session is built, then started: no loop here, so it says so
    qtbot.waitUntil(lambda: "event loop" in pane.transcript.toPlainText(), timeout=WAIT_MS)
    assert not pane.running


def test_a_session_that_cannot_start_is_explained(qtbot, no_keys):
    def broken(docs):
        raise ValueError("models.agent names the unknown provider 'x'")

    pane = ChatPane(session_factory=broken)
    qtbot.addWidget(pane)
    qtbot.waitUntil(lambda: "cannot start" in pane.banner_text.text(), timeout=WAIT_MS)
    assert "unknown provider" in pane.banner_text.text() and not pane.banner.isHidden()
    pane.ask("hello")
    assert "cannot start" in pane.transcript.toPlainText()
