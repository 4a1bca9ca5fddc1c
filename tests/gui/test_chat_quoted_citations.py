"""Only the answer's own citations link; page references inside quoted document text stay text.

Quoted means: a Markdown blockquote, a passage in quotation marks (curly, guillemets, straight
ones opened after a space), code, or a fenced document excerpt. The shared table of citation
forms must still link as before, and each quoted case is checked three ways (the parser, the
agent's tracker, streamed or whole, and the links in the chat pane), plus a real offline answer
whose quoted passage holds a citation-like bracket: it is text, while the answer's own citation
still links and opens its page.
"""

from __future__ import annotations

import asyncio

import pytest

from pdfdesk.agent.citations import CitationTracker
from pdfdesk.agent.events import AgentEvent, TextDelta
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.citations import find_citations
from pdfdesk.core.config import Config
from pdfdesk.gui.chat_pane import ChatPane
from pdfdesk.gui.chat_transcript import Turn
from pdfdesk.gui.richtext import markdown_html, parse_citation_href
from tests.agent.test_citations import attached, expected
from tests.agent.test_offline_setup_once import _planted_pdf
from tests.citation_examples import EXAMPLES, NAMES, REPORT
from tests.gui.test_chat_pane import click_link
from tests.gui.test_chat_pane_citations import _idle_session, links

QUOTED: list[tuple[str, list]] = [
    ("> The seller shall pay [p. 9] on delivery.\n\nThat clause [p. 3].", [(None, 3, 3)]),
    (("As the guide puts it:\n> A citation looks like [report.pdf p. 4];\n> clicking it [p. 7] opens it.\n"
      "Source: [report.pdf p. 4]"), [("report.pdf", 4, 4)]),
    ('The manual says "see [p. 9] for fees" and so [p. 3].', [(None, 3, 3)]),
    ('Quoted: "see [p. 9]', []),
    ('A 5" screen is listed [p. 3].', [(None, 3, 3)]),
    ("Le texte: «voir [p. 9]» [p. 3]", [(None, 3, 3)]),
    ("1. “A citation looks like [report.pdf p. 4]; clicking it opens the page.” [p. 5]", [(None, 5, 5)]),
    ("“He wrote ‘see [p. 9]’ there.” [p. 2]", [(None, 2, 2)]),
    ("<<<PDF_CONTENT a1b2>>>\nFees are due [p. 9].\n<<<END_PDF_CONTENT a1b2>>>\nThe fees [p. 2].", [(None, 2, 2)]),
    ("Run `grep '[p. 9]'` then read [pp. 3-4].", [(None, 3, 4)]),
]


def _pane_links(qtbot, text: str, documents: list[str]) -> list[tuple[str, int]]:
    pane = ChatPane(session_factory=_idle_session)
    qtbot.addWidget(pane)
    for reference in documents:
        pane.attach(reference)
    turn = Turn(1, "q")
    pane._turns.append(turn)
    pane._begin_turn()
    pane._handle(turn, TextDelta(text))
    pane._render_current()
    return [(doc, page) for doc, page, _key in (parse_citation_href(href) for href, _ in links(pane.transcript))]


def _firsts(cited) -> list[tuple[str, int]]:
    return [(NAMES[name] if name else REPORT, first) for name, first, _last in cited]


@pytest.mark.parametrize(("text", "cited"), QUOTED)
def test_the_parser_skips_quoted_material(text, cited):
    found = [(p.file.lower() if p.file else None, p.first, p.last) for m in find_citations(text) for p in m.pages]
    assert found == cited


@pytest.mark.parametrize(("text", "cited"), QUOTED)
def test_the_tracker_records_only_the_answers_citations(text, cited):
    whole = CitationTracker(attached(cited))
    streamed = CitationTracker(attached(cited))
    assert [(c.document, c.page) for c in whole.feed(text)] == expected(cited)
    assert [(c.document, c.page) for ch in text for c in streamed.feed(ch)] == expected(cited)


@pytest.mark.parametrize(("text", "cited"), QUOTED + EXAMPLES)
def test_the_pane_links_only_the_answers_citations(qtbot, text, cited):
    assert _pane_links(qtbot, text, attached(cited)) == _firsts(cited)


def test_a_blockquote_is_shown_as_one_with_its_brackets_as_text():
    html = markdown_html("> See [p. 9] and **this**\n> second line\n\nMine [p. 2].", lambda _name, page: f"#p{page}")
    assert html.startswith("<blockquote>See [p. 9] and <b>this</b><br>second line</blockquote>")
    assert '<a href="#p2">[p. 2]</a>' in html and "#p9" not in html


def _offline_events(document: str, question: str) -> list[AgentEvent]:
    session = ChatSession([document], config=Config(semantic=False), setup_advice=False)

    async def collect() -> list[AgentEvent]:
        return [event async for event in session.send(question)]

    return asyncio.run(collect())


def test_an_offline_answer_quoting_a_citation_links_only_its_own(qtbot, tmp_path):
    manual = str(_planted_pdf(tmp_path / "manual.pdf"))
    pane = ChatPane(session_factory=_idle_session)
    qtbot.addWidget(pane)
    pane.attach(manual)
    pane.show()
    turn = Turn(1, "what does a citation look like")
    pane._turns.append(turn)
    pane._begin_turn()
    for event in _offline_events(manual, turn.question):
        pane._handle(turn, event)
    pane._finish(turn)
    plain = pane.transcript.toPlainText()
    assert "[manual.pdf p. 2]" in plain and "[p. 3]" in plain  # the document's words are there, as text
    shown = links(pane.transcript)
    cited = [parse_citation_href(href) for href, _ in shown if href.startswith("pdfdesk://open")]
    assert {(doc, page) for doc, page, _ in cited} == {(manual, 1)}
    assert all(label in ("[p. 1]", "manual.pdf p. 1") for href, label in shown if href.startswith("pdfdesk://open"))
    assert [c.page for c in turn.citations.values()] == [1]  # the Sources line lists the real one only
    # the real citation still opens its page, with the passage's rectangles
    with qtbot.waitSignal(pane.citationActivated, timeout=2000) as opened:
        click_link(qtbot, pane.transcript, "pdfdesk://open", "[p. 1]")
    document, page, rects, _excerpt = opened.args
    assert (document, page) == (manual, 1) and rects
