"""The `pdf` tool's result shape and arguments: the answer first, `pages` applied to each PDF,
reversed ranges, and a byte cap outside its range clamped with a note (fake providers on 127.0.0.1)."""

from __future__ import annotations

import base64
import math
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.tools import call_tool, get_tool
from pdfdesk.tools.pdf import MAX_BYTES_MB, MIN_BYTES_MB
from tests.agent.fake_servers import Turn
from tests.agent.support import (  # noqa: F401 - fixtures are found by name
    anthropic_server, isolated_keys, openai_server, provider_urls, report_pdf, set_keys, use_config,
)

pytestmark = pytest.mark.network
CLAUDE, GPT = "anthropic/claude-sonnet-4-6", "openai/gpt-4.1-mini"


@pytest.fixture(scope="module")
def short_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three pages, each saying which page of the short PDF it is."""
    path = tmp_path_factory.mktemp("short") / "short.pdf"
    doc = pymupdf.open()
    for number in range(1, 4):
        doc.new_page().insert_text((72, 72), f"Short memo page {number}: the quay lights are LED now.", fontsize=12)
    doc.save(path)
    doc.close()
    return path


def answering(model: str, server, monkeypatch, *answers: str) -> None:
    """`model` is the pdf model, its provider answers from `server` with `answers` in turn."""
    provider = model.split("/")[0]
    set_keys(monkeypatch, provider)
    use_config(pdf_model=model, providers=provider_urls(**{provider: server.url}))
    server.script(*(Turn(text=answer) for answer in answers))


def claude(anthropic_server, monkeypatch, *answers: str) -> None:
    answering(CLAUDE, anthropic_server, monkeypatch, *answers)


def sent_documents(server) -> list[tuple[str, int, str]]:
    """(title, pages, text) of each PDF in the first request."""
    blocks = server.bodies[0]["messages"][0]["content"]
    docs = []
    for block in blocks:
        if block["type"] == "document":
            with pymupdf.open(stream=base64.b64decode(block["source"]["data"]), filetype="pdf") as doc:
                docs.append((block["title"], doc.page_count, "".join(page.get_text() for page in doc)))
    return docs


def sent_text(server) -> str:
    return " ".join(b["text"] for b in server.bodies[0]["messages"][0]["content"] if b["type"] == "text")


# -- the answer comes first ------------------------------------------------------------------------
def test_the_answer_is_the_first_content_item_and_provenance_follows(anthropic_server, openai_server, report_pdf,
                                                                      monkeypatch):
    set_keys(monkeypatch, "anthropic", "openai")
    use_config(pdf_model=CLAUDE, pdf_model_fallbacks=(GPT,), pdf_max_pages=2, model_max_retries=0,
               providers=provider_urls(anthropic=anthropic_server.url, openai=openai_server.url))
    anthropic_server.script(Turn.fail(500, "internal trouble"))
    openai_server.script(Turn(text="Payment within forty-five days [p. 3].\n\nNothing else."))

    result = call_tool("pdf", {"pdf": str(report_pdf), "prompt": "Payment terms?"})

    assert not result.is_error, result.text
    assert [item["type"] for item in result.content] == ["text", "text"]
    assert result.content[0]["text"] == "Payment within forty-five days [p. 3].\n\nNothing else."
    provenance = result.content[1]["text"]
    assert provenance.startswith(f"Answer by {GPT} on report.pdf (read from extracted text) after 1 failed attempt.")
    assert "Notes: report.pdf: pages 3-6 were not sent" in provenance  # the extraction's own note
    assert result.details["model"] == GPT and result.details["notes"][0].startswith("report.pdf: pages 3-6")
    assert "untrusted_content" not in result.details  # nothing in the result is a document's text


# -- pages apply to each PDF -------------------------------------------------------------------------
def test_pages_apply_to_each_pdf_clamped_to_its_length(anthropic_server, report_pdf, short_pdf, monkeypatch):
    claude(anthropic_server, monkeypatch, "Both compared.")

    result = call_tool("pdf", {"pdfs": [str(report_pdf), str(short_pdf)], "pages": "2-5"})

    assert not result.is_error, result.text
    (report, report_pages, report_text), (short, short_pages, short_text) = sent_documents(anthropic_server)
    assert (report, report_pages, short, short_pages) == ("report.pdf", 4, "short.pdf", 2)
    assert "Dredging programme" in report_text and "Termination clause" in report_text
    assert "page 2" in short_text and "page 3" in short_text and "page 1" not in short_text
    note = "short.pdf has 3 pages, so its pages 4-5 were skipped."
    assert result.details["notes"] == [note] and result.details["pages"] == "2-5"
    assert result.content[0]["text"] == "Both compared." and note in result.content[1]["text"]
    assert note in sent_text(anthropic_server)  # the model is told what it does not get


def test_a_pdf_without_any_requested_page_is_left_out(anthropic_server, report_pdf, short_pdf, monkeypatch):
    claude(anthropic_server, monkeypatch, "Only the report has those.")

    result = call_tool("pdf", {"pdfs": [str(short_pdf), str(report_pdf)], "pages": "5-6"})

    assert not result.is_error, result.text
    assert [(title, pages) for title, pages, _ in sent_documents(anthropic_server)] == [("report.pdf", 2)]
    assert result.details["notes"] == ["short.pdf has 3 pages and none of the requested ones (5-6): it was left out."]
    assert result.details["pdfs"] == [str(short_pdf), str(report_pdf)]  # what was asked for, as before
    assert "on report.pdf (read natively)" in result.content[1]["text"]


def test_no_pdf_with_any_requested_page_is_invalid_page(anthropic_server, report_pdf, short_pdf, monkeypatch):
    claude(anthropic_server, monkeypatch)

    several = call_tool("pdf", {"pdfs": [str(report_pdf), str(short_pdf)], "pages": "8-9"})
    single = call_tool("pdf", {"pdf": str(short_pdf), "pages": "7"})

    assert several.is_error and several.details["error"] == "invalid_page"
    assert several.details["message"] == ("None of the PDFs has any of the requested pages (8-9): "
                                          "report.pdf has 6 pages, short.pdf has 3 pages.")
    assert several.details["hint"] == "Ask for pages within 1-6." and several.details["page_count"] == 6
    assert single.details["error"] == "invalid_page" and "the document has 3 pages" in single.details["message"]
    assert anthropic_server.requests == []


def test_a_single_pdf_keeps_the_pages_it_has(openai_server, report_pdf, monkeypatch):
    answering(GPT, openai_server, monkeypatch, "The outlook is electric cranes.")

    result = call_tool("pdf", {"pdf": str(report_pdf), "pages": "5-9"})

    assert not result.is_error, result.text
    assert result.details["pages_sent"] == {"report.pdf": "5-6"} and result.details["pages"] == "5-6"
    assert result.details["notes"] == ["report.pdf has 6 pages, so its pages 7-9 were skipped."]
    sent = str(openai_server.bodies[0]["messages"][1]["content"])
    assert "--- Page 6 ---" in sent and "so its pages 7-9 were skipped" in sent


@pytest.mark.parametrize(("pages", "code"), [("0-2", "invalid_page"), ("2,,3", "invalid_page_range")])
def test_page_zero_and_malformed_specs_still_fail(pages, code, anthropic_server, report_pdf, short_pdf, monkeypatch):
    claude(anthropic_server, monkeypatch)
    result = call_tool("pdf", {"pdfs": [str(report_pdf), str(short_pdf)], "pages": pages})
    assert result.is_error and result.details["error"] == code and anthropic_server.requests == []


def test_a_reversed_range_names_the_same_pages(anthropic_server, report_pdf, monkeypatch):
    claude(anthropic_server, monkeypatch, "ok")
    result = call_tool("pdf", {"pdf": str(report_pdf), "pages": "5-3"})
    assert not result.is_error and result.details["pages"] == "3-5" and "notes" not in result.details
    ((_, pages, text),) = sent_documents(anthropic_server)
    assert pages == 3 and text.index("Payment terms") < text.index("Termination clause")  # in page order


# -- the byte cap is clamped, not refused ---------------------------------------------------------------
def test_the_byte_cap_has_no_schema_bounds_to_fail_on():
    prop = get_tool("pdf").schema["properties"]["maxBytesMb"]
    assert prop["type"] == "number" and not {"minimum", "exclusiveMinimum", "maximum"} & set(prop)
    assert f"{MIN_BYTES_MB:g}..{MAX_BYTES_MB:g}" in prop["description"]


@pytest.mark.parametrize("asked", [0, -5])
def test_a_byte_cap_below_the_range_is_raised_to_its_floor(asked, anthropic_server, report_pdf, monkeypatch):
    claude(anthropic_server, monkeypatch)
    result = call_tool("pdf", {"pdf": str(report_pdf), "maxBytesMb": asked})
    assert result.details["error"] == "too_large"  # not validation_error: the floor applied, and the file is bigger
    assert result.details["limit_bytes"] == int(MIN_BYTES_MB * 1024 * 1024)


@pytest.mark.parametrize(("asked", "note"), [
    (1e9, f"maxBytesMb 1e+09 is outside {MIN_BYTES_MB:g}..{MAX_BYTES_MB:g}; {MAX_BYTES_MB:g} MB applies."),
    (math.inf, f"maxBytesMb inf is outside {MIN_BYTES_MB:g}..{MAX_BYTES_MB:g}; {MAX_BYTES_MB:g} MB applies."),
    (math.nan, "maxBytesMb is not a number; the default of 10 MB applies."),
])
def test_a_byte_cap_above_the_range_or_not_a_number_is_noted(asked, note, anthropic_server, report_pdf, monkeypatch):
    claude(anthropic_server, monkeypatch, "fine")
    result = call_tool("pdf", {"pdf": str(report_pdf), "maxBytesMb": asked})
    assert not result.is_error, result.text
    assert result.details["notes"] == [note] and result.content[0]["text"] == "fine"
    assert result.content[1]["text"].endswith(f"Notes: {note}")
    assert note not in sent_text(anthropic_server)  # the model needs no word about the caller's arguments


def test_a_byte_cap_in_range_is_used_without_a_note(anthropic_server, report_pdf, monkeypatch):
    claude(anthropic_server, monkeypatch, "ok")
    result = call_tool("pdf", {"pdf": str(report_pdf), "maxBytesMb": 2.5})
    assert not result.is_error and "notes" not in result.details
