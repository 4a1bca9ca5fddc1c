"""pdf_extract_text on prose in four scripts: the text MuPDF lays out, unchanged, page by page.

A change of flags, normalisation, order or assembly (NFKC applied to the output, a lost line break,
right-to-left text reversed, CJK spaced out) fails here; speed is measured by bench/tools_bench.py.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.tools import call_tool
from tests.prose_pdfs import SCRIPTS, expected_phrases, prose_pdf

# pdfdesk's text: whitespace kept, ligatures expanded, clipped to the page (stated here, not
# imported, so that a change of flags in pdfdesk shows up as a difference).
FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
PAGES = 4


@pytest.fixture(scope="module")
def prose(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("prose")
    return {script: prose_pdf(folder / f"{script}.pdf", script, PAGES) for script in SCRIPTS}


def fenced_body(result) -> str:
    """The extracted text between the untrusted-content markers."""
    text = result.content[1]["text"]
    return text[text.index("\n") + 1:text.rindex("\n<<<END_PDF_CONTENT")]


def mupdf_text(path: Path) -> str:
    with pymupdf.open(path) as doc:
        return "".join(f"--- Page {page.number + 1} ---\n{page.get_text('text', flags=FLAGS).rstrip()}\n"
                       for page in doc)


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_page_is_mupdf_text_with_its_marker(prose, script):
    result = call_tool("pdf_extract_text", {"path": str(prose[script])})
    assert not result.is_error, result.text
    assert fenced_body(result) == mupdf_text(prose[script])
    details = result.details
    assert details["pages_returned"] == f"1-{PAGES}" and details["pages_without_text"] == ""
    assert "hidden_text" not in details


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_prose_reads_as_written(prose, script):
    """Every phrase the document is made of comes back whole (line breaks aside): no reordered
    right-to-left words, no spaces between CJK characters, no lost or doubled letters."""
    body = fenced_body(call_tool("pdf_extract_text", {"path": str(prose[script])}))
    # CJK lines break inside words, without a space
    flowing = "".join(body.split("\n")) if script in ("cjk",) else " ".join(body.split())
    flowing = unicodedata.normalize("NFKC", flowing)  # Arabic presentation forms to letters
    missing = [phrase for phrase in expected_phrases(script) if phrase not in flowing]
    assert not missing, missing


def test_arabic_comes_back_as_letters_in_reading_order(prose):
    """The page carries presentation forms (one glyph each); with ligatures expanded MuPDF gives
    the letters behind them, which is what a user types. Logical order: the first word of a
    line is its rightmost one."""
    body = fenced_body(call_tool("pdf_extract_text", {"path": str(prose["arabic"]), "pages": "1"}))
    assert re.search("[\u0621-\u064a]", body) and not re.search("[\ufb50-\ufefc]", body)
    heading = body.splitlines()[1]
    assert heading.replace("\xa0", " ").startswith("القسم 1:")


def test_cjk_and_cyrillic_come_back_unnormalised(prose):
    cjk = fenced_body(call_tool("pdf_extract_text", {"path": str(prose["cjk"])}))
    assert "（" in cjk and "）" in cjk  # fullwidth brackets, which NFKC would turn into ASCII
    cyrillic = fenced_body(call_tool("pdf_extract_text", {"path": str(prose["cyrillic"])}))
    assert "ё" in cyrillic and re.search("[А-Я]", cyrillic)


@pytest.mark.parametrize("script", ["cjk", "arabic", "cyrillic"])
def test_hidden_text_in_glyph_runs_is_still_found(prose, tmp_path, script):
    """White, microscopic and invisible text set in the same fonts and glyph-id strings as the
    prose around it is flagged: the check reads through TJ arrays of hex strings."""
    path = tmp_path / f"{script}-hidden.pdf"
    with pymupdf.open(prose[script]) as doc:
        sample = expected_phrases(script)[0]
        page = doc[1]
        page.insert_htmlbox(pymupdf.Rect(60, 300, 540, 340), f'<p style="color: white">{sample}</p>')
        page = doc[2]
        page.insert_htmlbox(pymupdf.Rect(60, 300, 540, 340), f'<p style="font-size: 0.4pt">{sample}</p>')
        doc.save(path)
    hidden = call_tool("pdf_extract_text", {"path": str(path)}).details["hidden_text"]
    assert hidden["pages"] == "2-3"
    assert set(hidden["kinds"]) == {"white_on_white", "tiny"}
