"""The chat pane links every citation form of the shared table to the page it cites, and leaves
quoted text unlinked (the same table the parser and the agent are tested against)."""

from __future__ import annotations

import pytest

from pdfdesk.agent.events import TextDelta
from pdfdesk.gui.chat_pane import ChatPane
from pdfdesk.gui.chat_transcript import Turn
from pdfdesk.gui.richtext import parse_citation_href
from tests.agent.test_citations import attached
from tests.citation_examples import EXAMPLES, NAMES, REPORT


def _idle_session(docs):
    return type("S", (), {"documents": list(docs), "offline": True, "model_label": "offline answerer"})()


def links(browser) -> list[tuple[str, str]]:
    """(href, text) of every link in the transcript, in order."""
    found = []
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().isAnchor():
                found.append((fragment.charFormat().anchorHref(), fragment.text()))
            it += 1
        block = block.next()
    return found


@pytest.mark.parametrize(("text", "cited"), EXAMPLES)
def test_the_pane_links_the_table(qtbot, text, cited):
    pane = ChatPane(session_factory=_idle_session)
    qtbot.addWidget(pane)
    for reference in attached(cited):
        pane.attach(reference)
    turn = Turn(1, "q")
    pane._turns.append(turn)
    pane._begin_turn()
    pane._handle(turn, TextDelta(text))
    pane._render_current()
    shown = links(pane.transcript)
    targets = [parse_citation_href(href) for href, _ in shown]
    assert [(doc, page) for doc, page, _key in targets] == \
        [(NAMES[name] if name else REPORT, first) for name, first, _last in cited]
    if len(cited) == 1:  # one cited page: the whole bracket is the link
        assert shown[0][1].startswith("[") and shown[0][1].endswith("]")
    assert "[p. 9]" not in "".join(label for _, label in shown)  # quoted text never links


def test_a_tool_card_hides_a_password_with_the_one_mask():
    from pdfdesk.core.redact import MASK
    from pdfdesk.gui.chat_transcript import short_arguments

    assert short_arguments({"path": "file:///x/a%20b.pdf", "password": "hunter2"}) == f"path=a b.pdf, password={MASK}"
