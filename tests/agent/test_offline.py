"""The offline answerer: extractive answers with the right page cited, no model needed."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pdfdesk.agent.events import CitationFound, Done, TextDelta, ToolCallFinished, ToolCallStarted
from pdfdesk.agent.offline import classify, content_words, key_sentences, strip_running_lines
from pdfdesk.agent.session import ChatSession
from tests.agent.support import make_report, use_config


def ask(documents: list[str], question: str) -> tuple[list[Any], Done]:
    session = ChatSession(documents, config=use_config())
    assert session.offline

    async def collect() -> list[Any]:
        return [event async for event in session.send(question)]

    events = asyncio.run(collect())
    assert sum(isinstance(e, Done) for e in events) == 1 and isinstance(events[-1], Done)
    return events, events[-1]


def cited_pages(done: Done) -> list[int]:
    return [c.page for c in done.citations]


@pytest.mark.parametrize(
    ("question", "page"),
    [
        ("When are contractor invoices payable?", 3),
        ("How much silt was removed from the north channel?", 2),
        ("How much notice is needed to terminate the maintenance agreement?", 5),
        ("Was turbidity within the permitted threshold?", 4),
        ("What are the plans for the container cranes?", 6),
    ],
)
def test_questions_cite_the_right_page(report_pdf, question, page):
    events, done = ask([str(report_pdf)], question)
    assert done.offline and done.model is None and not done.cancelled
    assert cited_pages(done)[0] == page, done.text
    assert done.citations[0].document == str(report_pdf) and done.citations[0].label == f"report.pdf p. {page}"
    assert done.citations[0].excerpt and done.citations[0].rects  # highlightable
    assert f"[p. {page}]" in done.text
    assert any(isinstance(e, ToolCallStarted) and e.name == "pdf_search" for e in events)
    assert "No language model is set up" in done.text and "[models]" in done.text and "OPENAI_API_KEY" in done.text
    assert done.text == "".join(e.text for e in events if isinstance(e, TextDelta))
    assert [e.citation for e in events if isinstance(e, CitationFound)] == list(done.citations)


def test_what_is_on_page_n(report_pdf):
    _, done = ask([str(report_pdf)], "What is on page 4?")
    assert cited_pages(done) == [4] and "Seagrass meadows" in done.text and "Page 4 of report.pdf" in done.text


def test_page_past_the_end(report_pdf):
    _, done = ask([str(report_pdf)], "what is on page 40")
    assert "There is no page 40" in done.text and "has 6 pages" in done.text and done.citations == ()


def test_find(report_pdf):
    events, done = ask([str(report_pdf)], "find late payment")
    assert cited_pages(done) == [3] and "appears on 1 page" in done.text
    search = next(e for e in events if isinstance(e, ToolCallStarted))
    assert search.arguments["query"] == '"late payment"'


def test_find_nothing(report_pdf):
    _, done = ask([str(report_pdf)], "find unicorns")
    assert "does not appear" in done.text and done.citations == ()


def test_summarize(report_pdf):
    events, done = ask([str(report_pdf)], "Summarize this document")
    assert "Harbour Authority Annual Report" in done.text and "6 pages" in done.text
    assert "Sections: “Executive summary” [p. 1]; “Dredging programme” [p. 2]" in done.text
    assert "Key sentences:" in done.text and "annual report · page" not in done.text  # running footer dropped
    assert set(cited_pages(done)) == {1, 2, 3, 4, 5, 6}
    finished = [e.name for e in events if isinstance(e, ToolCallFinished)]
    assert finished == ["pdf_info", "pdf_outline", "pdf_extract_text"]


def test_several_documents_cite_with_file_names(report_pdf, tmp_path):
    other = make_report(tmp_path / "second.pdf")
    _, done = ask([str(report_pdf), str(other)], "dredging north channel silt")
    assert "[report.pdf p. 2]" in done.text and "[second.pdf p. 2]" in done.text
    assert {(Path(c.document).name, c.page) for c in done.citations} >= {("report.pdf", 2), ("second.pdf", 2)}


def test_no_document_attached():
    _, done = ask([], "what is this?")
    assert "attach a PDF" in done.text and "No language model is set up" in done.text


def test_unreadable_document_is_reported(tmp_path):
    missing = str(tmp_path / "gone.pdf")
    _, done = ask([missing], "payment terms")
    assert "No file at" in done.text and done.citations == ()


def test_classify():
    assert classify("what's on page 7?").kind == "page" and classify("page 7").page == 7
    assert classify("Find the indemnity clause").subject == "the indemnity clause"
    assert classify("where does it mention seagrass?").subject == "seagrass"
    assert classify("Give me a summary").kind == "summary"
    assert classify("Who signed the agreement?").kind == "question"
    assert content_words("What are the payment terms of the contract?") == ["payment", "terms", "contract"]


def test_key_sentences_skip_running_lines_and_near_duplicates():
    places = ["north channel", "south basin", "ferry berth", "outer harbour"]
    pages = {n: f"Report header\nThe dredging programme removed silt from the {places[n - 1]}.\n"
                f"Dredging remains the largest cost this year.\nPage {n} of 4" for n in range(1, 5)}
    stripped = strip_running_lines(pages)
    assert all("Report header" not in text and "of 4" not in text for text in stripped.values())
    picked = key_sentences(pages)
    assert [(page, s) for page, s in picked] == [
        (n, f"The dredging programme removed silt from the {places[n - 1]}.") for n in range(1, 5)]
    # a repeated body sentence is kept once when it is not a running line
    pages[1] += "\nDredging costs rose because the silt was contaminated with heavy metals from old shipyards."
    pages[2] += "\nAgain: dredging costs rose because the silt was contaminated with heavy metals from old shipyards."
    chosen = [s for _, s in key_sentences(pages, count=10)]
    assert sum("contaminated" in s for s in chosen) == 1
