"""Page text comes from MuPDF's own printer; it must read exactly as PyMuPDF's get_text("text")
does, which the index, search offsets and every tool output were built on."""

from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.text import TEXT_FLAGS, page_text, text_page
from tests.prose_pdfs import SCRIPTS, prose_pdf


def pymupdf_text(page: pymupdf.Page) -> str:
    return page.get_text("text", flags=TEXT_FLAGS)


@pytest.mark.parametrize("script", SCRIPTS)
def test_prose_in_every_script_reads_as_pymupdf_reads_it(tmp_path: Path, script: str):
    doc = pymupdf.open(prose_pdf(tmp_path / f"{script}.pdf", script, pages=3))
    for page in doc:
        expected = pymupdf_text(page)
        assert len(expected) > 500
        assert page_text(page) == expected
        assert page_text(page, text_page(page)) == expected


def edge_cases() -> pymupdf.Document:
    """Text cut by every page edge, a rotated page, a CropBox inside the MediaBox, vertical and
    right-to-left text, control characters, and empty pages."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((250, 50), "running off the right edge of the page", fontsize=12)
    page.insert_text((-30, 80), "starting left of the page", fontsize=12)
    page.insert_text((100, 215), "wholly below the page", fontsize=12)
    page.insert_text((100, 199), "gjpq straddling the bottom", fontsize=14)
    page.insert_text((100, 2), "ÁÉ straddling the top", fontsize=14)
    page.insert_text((100, 100), "turned a quarter", fontsize=12, rotate=90)
    page.insert_text((150, 150), "tab\there, vertical tab\x0bthere, back\\slash \\u0041", fontsize=12)
    rotated = doc.new_page(width=300, height=200)
    rotated.set_rotation(90)
    rotated.insert_text((250, 50), "a rotated page runs off its edge", fontsize=12)
    cropped = doc.new_page(width=300, height=200)
    cropped.set_cropbox(pymupdf.Rect(50, 50, 200, 150))
    cropped.insert_text((20, 60), "outside the crop, inside the media", fontsize=12)
    cropped.insert_text((60, 100), "inside the crop", fontsize=12)
    mixed = doc.new_page(width=300, height=400)
    mixed.insert_htmlbox(pymupdf.Rect(20, 20, 280, 380),
                         "<p>縦書き</p><p style='writing-mode: vertical-rl'>日本語の縦書きテキスト</p>"
                         "<p>\u0627\u0644\u0639\u0631\u0628\u064a\u0629 mixed עברית</p><p></p><p>last</p>")
    doc.new_page()
    return doc


def test_edges_rotations_crops_and_mixed_scripts_read_as_pymupdf_reads_them():
    doc = edge_cases()
    for page in doc:
        assert page_text(page) == pymupdf_text(page), f"page {page.number + 1}"
    assert page_text(doc[-1]) == ""
    assert "\\u0041" in page_text(doc[0])  # a backslash in the text stays a backslash


def test_the_text_is_utf8_decoded_without_escapes_or_surrogates(tmp_path: Path):
    doc = pymupdf.open(prose_pdf(tmp_path / "cjk.pdf", "cjk", pages=1))
    text = page_text(doc[0])
    assert "\\u" not in text
    text.encode("utf-8")  # no lone surrogate survives
