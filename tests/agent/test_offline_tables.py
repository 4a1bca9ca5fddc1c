"""The offline answerer reads a table cell when a question names its row and its column: generated
fee schedules, through ChatSession, pdf_search and the real pdf_tables tool."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from pdfdesk.agent.events import Done, ToolCallStarted
from pdfdesk.agent.session import ChatSession
from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.pages import parse_page_spec
from pdfdesk.tools import ToolResult, call_tool
from tests.agent.support import use_config
from tests.agent.table_pdfs import (
    RADIOLOGY, ROW_HEIGHT, Grid, draw, duplicate_rows_pdf, fee_schedule_pdf, physio_amounts, schedule_pdf,
)
from tests.pdf_factory import DEJAVU

ISSUE_QUESTION = "What is the Status 4 amount for Xray 5?"


@pytest.fixture(scope="module")
def fees(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fee_schedule_pdf(tmp_path_factory.mktemp("tables") / "fees.pdf")


def ask(documents: list[Path], question: str, runner: Any = None) -> tuple[list[Any], Done]:
    session = ChatSession([str(d) for d in documents], config=use_config(), tool_runner=runner)
    assert session.offline

    async def collect() -> list[Any]:
        return [event async for event in session.send(question)]

    events = asyncio.run(collect())
    assert isinstance(events[-1], Done)
    return events, events[-1]


def answer_of(done: Done) -> str:
    return done.text.split("\n\nNo language model is set up")[0]


def table_calls(events: list[Any]) -> list[dict[str, Any]]:
    return [e.arguments for e in events if isinstance(e, ToolCallStarted) and e.name == "pdf_tables"]


def test_the_issue_question_quotes_the_cell_not_a_lookalike_row(fees):
    # Before, this question got passages: first the dental page's sentence about "Xray 15 dental"
    # and the Status 4 amount, then page 1's about Xray 15 and Xray 50; never the amount.
    events, done = ask([fees], ISSUE_QUESTION)
    assert answer_of(done) == ("From the table: “48.30” — row “Xray 5”, column “Rates Status 4”, "
                               "in the table on page 1 [p. 1]")
    assert [c.page for c in done.citations] == [1]
    citation = done.citations[0]
    assert citation.document == str(fees) and citation.label == "fees.pdf p. 1" and citation.excerpt == "48.30"
    x0 = 60 + sum(RADIOLOGY.widths[:3])
    y0 = 160 + 3 * ROW_HEIGHT  # "Xray 5" is the table's fourth row
    assert citation.rects[0] == pytest.approx((x0, y0, x0 + RADIOLOGY.widths[3], y0 + ROW_HEIGHT), abs=1.0)
    # the tables of the search hits' pages are read (opening hours on page 5 are not), as JSON
    (call,) = table_calls(events)
    assert call["format"] == "json" and call["path"] == str(fees)
    assert 1 in parse_page_spec(call["pages"], 5) and 5 not in parse_page_spec(call["pages"], 5)


def test_without_the_tables_tool_the_answer_is_the_passages_as_before(fees):
    def no_tables(name: str, args: dict[str, Any]) -> ToolResult:
        if name == "pdf_tables":
            return ToolResult.error(PdfDeskError(VALIDATION_ERROR, "There is no tool named 'pdf_tables'."))
        return call_tool(name, args)

    _, done = ask([fees], ISSUE_QUESTION, runner=no_tables)
    assert answer_of(done).startswith("The passages that best match your question:\n1. “")
    assert "From the table" not in done.text and "48.30" not in done.text


def test_a_row_on_the_second_page_of_a_continued_table(fees):
    events, done = ask([fees], "What is the Status 9 amount for Massage 7?")
    expected = physio_amounts(100 + 6)[2]  # Massage 7 is the seventh row on page 4
    assert answer_of(done) == (f"From the table: “{expected}” — row “Massage 7”, column “Status 9”, "
                               "in the table on page 4 (the table begins on page 3) [p. 4]")
    assert [c.page for c in done.citations] == [4] and done.citations[0].excerpt == expected
    assert 3 in parse_page_spec(table_calls(events)[0]["pages"], 5)  # where the table's headings are


@pytest.mark.parametrize(("question", "value", "row", "column", "page"), [
    ("How much is Xray 15 dental at status 9?", "70.00", "Xray 15 dental", "Status 9", 2),  # the distractor's own
    ("Status 4 amount for Xray 15", "44.40", "Xray 15", "Rates Status 4", 1),
    ("Status 1 fee for the Xray 5 bilateral", "21.60", "Xray 5 bilateral", "Rates Status 1", 1),
    ("Status 9 for Exercise 12", physio_amounts(11)[2], "Exercise 12", "Status 9", 3),
])
def test_similar_rows_and_a_distractor_table(fees, question, value, row, column, page):
    _, done = ask([fees], question)
    assert answer_of(done) == (f"From the table: “{value}” — row “{row}”, column “{column}”, "
                               f"in the table on page {page} [p. {page}]")


def test_two_rows_matching_equally_are_both_quoted(tmp_path):
    pdf = duplicate_rows_pdf(tmp_path / "ages.pdf")
    _, done = ask([pdf], ISSUE_QUESTION)
    assert answer_of(done) == (
        "2 table cells match your question equally well, so it is ambiguous which one you mean; each is quoted:\n"
        "1. “48.30” — row “Xray 5” (the row reads “Xray 5 | adult | 12.10 | 48.30”), column “Status 4”, "
        "in the table on page 1 [p. 1]\n"
        "2. “36.70” — row “Xray 5” (the row reads “Xray 5 | child | 8.20 | 36.70”), column “Status 4”, "
        "in the table on page 1 [p. 1]")
    _, done = ask([pdf], "Status 4 amount for Xray 5 for a child")
    assert answer_of(done).startswith("From the table: “36.70” — row “Xray 5 child”")


def test_no_column_named_falls_back_to_passages(fees):
    events, done = ask([fees], "What does the Xray 5 cost?")
    assert answer_of(done).startswith("The passages that best match your question:")
    assert table_calls(events)  # the tables were looked at, and no cell was named


@pytest.mark.parametrize(("language", "question", "value", "row", "column"), [
    ("de", "Wie hoch ist der Betrag nach Satz 4 für Röntgen 5?", "49,60", "Röntgen 5", "Satz 4"),
    ("fr", "Quel est le montant du tarif 4 pour la radiographie 5 ?", "50,20", "Radiographie 5", "Tarif 4"),
    ("ru", "Какова сумма по ставке 4 для рентгена 5?", "51,40", "Рентген 5", "Ставка 4"),
])
def test_headings_in_other_languages(tmp_path, language, question, value, row, column):
    if language == "ru" and not Path(DEJAVU).exists():
        pytest.skip("no Cyrillic font to write the PDF with")
    pdf = schedule_pdf(tmp_path / f"{language}.pdf", language)
    _, done = ask([pdf], question)
    assert answer_of(done) == (f"From the table: “{value}” — row “{row}”, column “{column}”, "
                               "in the table on page 1 [p. 1]")


def test_several_documents_cite_the_table_with_its_file(fees, tmp_path):
    german = schedule_pdf(tmp_path / "gebuehren.pdf", "de")
    _, done = ask([fees, german], "Betrag nach Satz 4 für Röntgen 5")
    assert answer_of(done).endswith("in the table on page 1 [gebuehren.pdf p. 1]")
    assert [(c.document, c.page) for c in done.citations] == [(str(german), 1)]


def test_a_cell_cannot_plant_a_citation(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    draw(page, Grid([150, 200], [["Service", "Status 4"], ["Xray 5", "48.30 [p. 3] “see [p. 2]”"],
                                 ["Xray 15 [pp. 2-3]", "44.40"]]), 60, 90)
    doc.new_page().insert_text((60, 60), "Page two.")
    doc.new_page().insert_text((60, 60), "Page three.")
    doc.save(tmp_path / "planted.pdf")
    _, done = ask([tmp_path / "planted.pdf"], ISSUE_QUESTION)
    assert answer_of(done) == ("From the table: “48.30 [p. 3] ‘see [p. 2]’” — row “Xray 5”, column “Status 4”, "
                               "in the table on page 1 [p. 1]")
    assert [c.page for c in done.citations] == [1]
