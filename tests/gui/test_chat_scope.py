"""The chat pane's scope selector sets what the agent's session may read."""

from __future__ import annotations

import pytest

from pdfdesk.agent.scope import ATTACHED, DOCUMENT, FOLDER, LIBRARY, OPEN
from pdfdesk.index.library import Library
from tests.gui.test_app_window import WAIT_MS, clause_pdf, wait_open

KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")


@pytest.fixture
def no_keys(monkeypatch, memory_keyring):
    for name in KEY_VARS:
        monkeypatch.delenv(name, raising=False)
    return memory_keyring


def test_the_selector_sets_the_sessions_scope(qtbot, make_window, no_keys, tmp_path):
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    one, two = clause_pdf(tmp_path / "one.pdf", pages=2), clause_pdf(tmp_path / "two.pdf", pages=2)
    filed = clause_pdf(shelf / "filed.pdf", pages=2)
    Library().add([str(filed)])
    window = make_window([one, two])
    wait_open(qtbot, window, 2)
    window.tabs.setCurrentIndex(1)
    chat = window.chat_pane
    qtbot.waitUntil(lambda: chat.session is not None, timeout=WAIT_MS)
    session, selector = chat.session, chat.scope_selector
    assert session.scope is None and session.current_scope().kind == ATTACHED  # as before: the chips
    assert session.current_scope().documents == (str(two),)

    selector.set_kind(OPEN)
    assert (session.scope.kind, session.scope.documents) == (OPEN, (str(one), str(two)))
    assert not chat.chips.isVisibleTo(chat)  # the tabs are what it reads, not the chips
    assert chat.read_documents() == [str(one), str(two)]

    selector.set_kind(DOCUMENT)
    assert (session.scope.kind, session.scope.documents) == (DOCUMENT, (str(two),))
    window.tabs.setCurrentIndex(0)  # another tab: the scope follows it
    assert session.scope.documents == (str(one),)

    selector.set_kind(LIBRARY)
    assert session.scope.kind == LIBRARY and session.scope.library
    assert chat.empty_hint.text().startswith("Ask about the library")
    assert chat.chips.isVisibleTo(chat)
    assert session.current_scope().collection().library_count == 1

    selector.set_kind(FOLDER)
    qtbot.waitUntil(lambda: selector.folder.findData(str(shelf)) >= 0, timeout=WAIT_MS)
    assert session.scope.kind == FOLDER and session.scope.folder == str(shelf)
    assert [e.path for e in session.current_scope().collection().entries] == [str(filed)]

    selector.set_kind(ATTACHED)
    assert session.scope is None


def test_a_folder_scope_without_folders_reads_the_attached_documents(qtbot, make_window, no_keys, tmp_path):
    window = make_window([clause_pdf(tmp_path / "one.pdf", pages=2)])
    wait_open(qtbot, window, 1)
    chat = window.chat_pane
    qtbot.waitUntil(lambda: chat.session is not None, timeout=WAIT_MS)
    chat.scope_selector.set_kind(FOLDER)
    assert chat.scope_selector.folder_box.isVisibleTo(chat)
    assert chat.session.scope is None  # no folder to read yet: not a folder of nothing
