"""Any single page, however hostile, costs at most 10 s and 1 GB in any tool.

A few MB of Flate that inflate to gigabytes (in the page's content or in a form it draws), forms
drawn ten times over twelve levels, forms nested 2,000 deep: each page is refused before MuPDF runs
it, with a pdf_error naming what it asks for, and the other pages of the document still read. A page
within MuPDF's budget but past what the hidden-text check reads is extracted and reported as not
checked. Bombs run in a child process with a memory cap, which reports how much it grew.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pdfdesk.core.childproc import Priority, run_job
from pdfdesk.core.page_streams import PAGE_BYTES
from pdfdesk.tools import call_tool
from tests.hardening.page_bombs import VISIBLE, bomb_pdf, cyclic_forms_pdf, form_tree_pdf, run_tool_measured

PAGE_SECONDS = 10.0
PAGE_MB = 1024


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    return {
        "whitespace": bomb_pdf(folder / "whitespace.pdf", b" ", 2048, pages=2),
        "q-Q": bomb_pdf(folder / "qq.pdf", b"q Q ", 2048, pages=2),
        "form": bomb_pdf(folder / "form.pdf", b"q Q ", 2048, where="form", pages=2),
        "fan-out": form_tree_pdf(folder / "fan.pdf", depth=12, fanout=10),
        "deep-forms": form_tree_pdf(folder / "deep.pdf", depth=2000, fanout=1),
    }


def measured(tool: str, args: dict) -> dict:
    return run_job(run_tool_measured, (tool, args), name="pdfdesk-bomb-test", priority=Priority.NORMAL,
                   deadline_s=4 * PAGE_SECONDS, memory_mb=4096)


@pytest.mark.parametrize("kind", ["whitespace", "q-Q", "form", "fan-out", "deep-forms"])
def test_extraction_refuses_the_bomb_page_quickly_and_keeps_the_rest(bombs, kind):
    out = measured("pdf_extract_text", {"path": str(bombs[kind])})
    assert out["elapsed"] < PAGE_SECONDS / 2 and out["grown_mb"] < PAGE_MB, out
    details = out["details"]
    assert not out["is_error"] and details["pages_over_limit"] == "1" and "damaged_pages" not in details, details
    assert "Page 1 was not read" in out["text"]
    if kind in ("whitespace", "q-Q", "form"):
        assert "Ordinary page 2" in out["text"]


def test_every_tool_ends_within_the_page_budget(bombs):
    path = str(bombs["q-Q"])
    for tool, args in [("pdf_render_page", {"page": 1, "dpi": 72}), ("pdf_info", {}), ("pdf_outline", {}),
                       ("pdf_search", {"query": "ordinary", "mode": "keyword"})]:
        out = measured(tool, {"path": path, **args})
        assert out["elapsed"] < PAGE_SECONDS and out["grown_mb"] < PAGE_MB, (tool, out)
        if tool == "pdf_render_page":
            assert out["is_error"] and out["details"]["error"] == "pdf_error"
            assert "was not read" in out["details"]["message"]
        else:
            assert not out["is_error"], (tool, out["text"])


def test_in_process_too(bombs):
    started = time.monotonic()
    result = call_tool("pdf_extract_text", {"path": str(bombs["whitespace"])})
    assert time.monotonic() - started < PAGE_SECONDS / 2
    assert result.details["pages_over_limit"] == "1" and "drawing instructions" in result.text


def test_forms_that_draw_themselves_are_read_once(tmp_path):
    result = call_tool("pdf_extract_text", {"path": str(cyclic_forms_pdf(tmp_path / "cycle.pdf"))})
    assert not result.is_error and "damaged_pages" not in result.details and VISIBLE in result.text


def test_a_text_bomb_is_refused_before_mupdf_builds_its_characters(tmp_path):
    """Millions of characters in a few MB: MuPDF would keep some 100 bytes for each."""
    bomb = bomb_pdf(tmp_path / "text.pdf", b"BT (abcdefghijklmnop) Tj ET     ", 24, pages=2)
    out = measured("pdf_extract_text", {"path": str(bomb)})
    assert out["elapsed"] < PAGE_SECONDS / 2 and out["grown_mb"] < PAGE_MB, out
    assert out["details"]["pages_over_limit"] == "1" and "of text" in out["text"] and "Ordinary page 2" in out["text"]


def test_a_large_ordinary_page_is_still_read(tmp_path):
    """Under the limits: the text comes back, nothing is refused or flagged."""
    mib = (PAGE_BYTES >> 20) // 2
    result = call_tool("pdf_extract_text", {"path": str(bomb_pdf(tmp_path / "long.pdf", b"0 0 m 1 1 l S   ", mib))})
    assert not result.is_error and VISIBLE in result.text
    assert "damaged_pages" not in result.details and "hidden_text" not in result.details


def test_a_page_too_busy_to_analyse_is_reported_unchecked(tmp_path):
    """Invisible text among 300,000 text operators: the gate opens, the analysis would cost too
    much, so the page is named as not checked."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), VISIBLE)
    content = page.get_contents()[0]
    busy = b"BT /helv 1 Tf 3 Tr " + b"72 72 Td (x) Tj " * 100_000 + b"ET"
    doc.update_stream(content, doc.xref_stream(content) + b"\n" + busy)
    doc.save(tmp_path / "busy.pdf")
    result = call_tool("pdf_extract_text", {"path": str(tmp_path / "busy.pdf"), "max_chars": 1000})
    hidden = result.details["hidden_text"]
    assert hidden["unchecked_pages"] == "1" and "too much for the check" in hidden["unchecked"][0]["reason"]
