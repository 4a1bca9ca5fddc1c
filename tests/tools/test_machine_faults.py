"""The tools on a data folder that cannot be written (read-only) or is full: what needs no writing
works, pdf_render_page returns its image inline and says it was not saved, pdf_search answers
from the pages and says why no index is coming; nothing is an internal_error."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.cli_index import index_paths
from pdfdesk.index.queue import IndexQueue
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests.machine_faults import disk_full, read_only

READ_ONLY = "permission to write there is denied"  # what chmod a-w gives (EACCES)


def words_pdf(path: Path, pages: int = 40, needle_page: int = 40) -> Path:
    """`pages` pages of filler; the word "quokka" only on `needle_page`."""
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 72), f"Page {number} of the harbour survey.")
        if number == needle_page:
            page.insert_text((72, 100), "A quokka was seen near the ferry terminal.")
    doc.save(path)
    doc.close()
    return path


def no_internal_errors(result) -> None:
    assert "internal_error" not in json.dumps(result.details), result.text


@pytest.mark.parametrize("tool", ["pdf_info", "pdf_extract_text", "pdf_outline"])
def test_reading_tools_work_on_a_read_only_data_folder(tool, outline_pdf, pdfdesk_home):
    with read_only(pdfdesk_home):
        result = call_tool(tool, {"path": str(outline_pdf)})
    assert not result.is_error, result.text
    assert result.details["pages_total"] == 10


def test_render_returns_the_image_inline_when_it_cannot_be_saved(text_pdf, pdfdesk_home):
    with read_only(pdfdesk_home):
        result = call_tool("pdf_render_page", {"path": str(text_pdf), "page": 1, "dpi": 72})
    assert not result.is_error, result.text
    png = base64.b64decode(result.images[0]["data"])
    assert png.startswith(b"\x89PNG") and len(png) == result.details["bytes"]
    assert result.details["path"] is None and result.details["saved"] is False
    expected = f"not saved: the data folder {pdfdesk_home / 'pdf-renders'} cannot be written ({READ_ONLY})"
    assert result.details["save_error"].startswith(expected)
    assert expected in result.text
    assert not (pdfdesk_home / "pdf-renders").exists() or not list((pdfdesk_home / "pdf-renders").iterdir())


def test_render_on_a_full_disk(text_pdf, pdfdesk_home, monkeypatch):
    renders = pdfdesk_home / "pdf-renders"
    renders.mkdir(parents=True)
    with disk_full(monkeypatch, pdfdesk_home):
        result = call_tool("pdf_render_page", {"path": str(text_pdf), "page": 2, "dpi": 72})
    assert not result.is_error and result.images
    assert result.details["save_error"].startswith(f"not saved: the data folder {renders} cannot be written "
                                                   "(the disk is full)")
    assert list(renders.iterdir()) == []  # no half-written file left behind


def test_render_still_saves_when_it_can(text_pdf):
    result = call_tool("pdf_render_page", {"path": str(text_pdf), "page": 1, "dpi": 72})
    assert Path(result.details["path"]).is_file() and "saved" not in result.details


def test_search_reads_the_pages_when_no_index_can_be_written(tmp_path, pdfdesk_home):
    pdf = words_pdf(tmp_path / "survey.pdf")
    with read_only(pdfdesk_home):
        result = call_tool("pdf_search", {"path": str(pdf), "query": "quokka"})
    assert not result.is_error, result.text
    assert [m["page"] for m in result.details["matches"]] == [40]
    reason = f"the data folder {pdfdesk_home} cannot be written: {READ_ONLY}"
    assert result.details["index_unwritable"] == reason
    assert result.details["note"].startswith(f"The search index cannot be saved ({reason}), so the pages were "
                                             "read directly")
    assert "still being built" not in result.text
    assert IndexQueue().jobs() == []


def test_search_on_a_full_disk_says_the_index_will_not_be_built(tmp_path, pdfdesk_home, monkeypatch):
    pdf = words_pdf(tmp_path / "survey.pdf", pages=5, needle_page=3)
    with disk_full(monkeypatch, pdfdesk_home):
        result = call_tool("pdf_search", {"path": str(pdf), "query": "quokka"})
    assert not result.is_error, result.text
    assert [m["page"] for m in result.details["matches"]] == [3]
    assert result.details["index_unwritable"] == f"the data folder {pdfdesk_home} cannot be written: the disk is full"
    assert "so it will not be built until the data folder can be written" in result.details["note"]


def test_an_index_built_before_still_answers_read_only(tmp_path, pdfdesk_home, capsys):
    pdf = words_pdf(tmp_path / "survey.pdf", pages=12, needle_page=7)
    assert index_paths([str(pdf)]) == 0
    capsys.readouterr()
    with read_only(pdfdesk_home):
        single = call_tool("pdf_search", {"path": str(pdf), "query": "quokka"})
        library = call_tool("pdf_search", {"library": True, "query": "quokka"})
    for result in (single, library):
        assert not result.is_error, result.text
        assert [m["page"] for m in result.details["matches"]] == [7]
        assert "note" not in result.details and "index_unwritable" not in result.details
    assert single.details["index_complete"] is True and library.details["documents_searched"] == 1


def test_library_search_on_a_fresh_read_only_folder(pdfdesk_home):
    with read_only(pdfdesk_home):
        result = call_tool("pdf_search", {"library": True, "query": "anything"})
    assert not result.is_error and result.details["count"] == 0


def test_nothing_is_an_internal_error_on_a_read_only_folder(outline_pdf, pdfdesk_home):
    with open_pdf(str(outline_pdf)) as opened:
        fingerprint = opened.fingerprint
    with read_only(pdfdesk_home):
        results = [call_tool("pdf_info", {"path": str(outline_pdf)}),
                   call_tool("pdf_extract_text", {"path": str(outline_pdf), "pages": "1-3"}),
                   call_tool("pdf_outline", {"path": str(outline_pdf)}),
                   call_tool("pdf_render_page", {"path": str(outline_pdf), "page": 3, "dpi": 72}),
                   call_tool("pdf_search", {"path": str(outline_pdf), "query": "chapter", "granularity": "section"}),
                   call_tool("pdf_search", {"path": str(outline_pdf), "query": "chapter", "mode": "auto"})]
    for result in results:
        assert not result.is_error, result.text
        no_internal_errors(result)
    assert DocumentIndex(fingerprint).read_state() is None
