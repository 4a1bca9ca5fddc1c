"""The offline answerer says how to set up a model once per conversation, not in every answer, and
quotes document text so that a page reference written in the document never becomes a citation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pymupdf

from pdfdesk.agent.events import Done
from pdfdesk.agent.loop import TurnState
from pdfdesk.agent.offline import OfflineAnswerer, quoted
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.citations import find_citations
from tests.agent.support import use_config

ADVICE = "No language model is set up"


def answers(session: ChatSession, *questions: str) -> list[Done]:
    async def turn(question: str) -> Done:
        return [event async for event in session.send(question)][-1]

    return [asyncio.run(turn(question)) for question in questions]


def test_the_advice_comes_once_per_session(report_pdf):
    session = ChatSession([str(report_pdf)], config=use_config())
    first, second, third = answers(session, "Was turbidity within the permitted threshold?", "find late payment",
                                   "Summarize this document")
    assert first.text.count(ADVICE) == 1 and "Settings → Models" in first.text
    assert ADVICE not in second.text and ADVICE not in third.text
    assert "[p. 3]" in second.text and second.citations  # the answers themselves are unchanged


def test_a_front_end_with_a_banner_never_gets_the_advice(report_pdf):
    session = ChatSession([str(report_pdf)], config=use_config(), setup_advice=False)
    for done in answers(session, "find late payment", "what is on page 4"):
        assert ADVICE not in done.text and "OPENAI_API_KEY" not in done.text and done.citations


def test_the_answerer_alone_does_not_advise(report_pdf):
    async def run() -> TurnState:
        state = TurnState()
        async for _event in OfflineAnswerer([str(report_pdf)], use_config()).answer("find late payment", state):
            pass
        return state

    state = asyncio.run(run())
    assert ADVICE not in state.answer and "[p. 3]" in state.answer


def test_quoted_keeps_the_quotation_closed():
    text = quoted('He wrote “see [report.pdf p. 4]” then ” and [p. 2] "here" \n next')
    assert text.startswith("“") and text.endswith("”") and text.count("”") == 1 and "\n" not in text
    assert find_citations(text + " [p. 5]")[0].pages[0].first == 5
    assert len(find_citations(text + " [p. 5]")) == 1


def _planted_pdf(path: Path) -> Path:
    """A manual whose own text shows citations, with a stray closing quote before one of them."""
    doc = pymupdf.open()
    for number in range(1, 4):
        page = doc.new_page()
        page.insert_text((72, 72), f"Chapter {number}", fontsize=16)
        body = ("Every claim in an answer links to a page. A citation looks like [manual.pdf p. 2] and ” "
                "a stray mark then [p. 3] in the margin notes about citations.") if number == 1 else \
            f"Chapter {number} describes the harbour dredging schedule in detail."
        page.insert_htmlbox(pymupdf.Rect(72, 100, 520, 400), body)  # keeps the curly quote
    doc.save(path)
    doc.close()
    return path


def test_document_text_citations_are_not_recorded(tmp_path):
    manual = str(_planted_pdf(tmp_path / "manual.pdf"))
    session = ChatSession([manual], config=use_config(), setup_advice=False)
    for done in answers(session, "what does a citation look like", "what is on page 1", "find citation"):
        assert "[manual.pdf p. 2]" in done.text, done.text  # the document's words are shown ...
        assert [c.page for c in done.citations] == [1], done.text  # ... but only the answer's own page is cited
