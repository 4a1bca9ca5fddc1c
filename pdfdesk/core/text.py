"""Page text and text-layer detection: the one place pdfdesk asks MuPDF for text.

Extraction, search indexing and the agent all read page text through `page_text`, so they agree
on what a page says. A page "has no text layer" when it yields fewer than `MIN_TEXT_CHARS`
non-space characters; with images on it, it is probably a scan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pymupdf
from pymupdf import mupdf

from pdfdesk.core.page_streams import check_page, refusal

MIN_TEXT_CHARS = 3
# Ligatures expanded ("ﬁ" -> "fi") so text searches and copies like the words it shows; no images.
# MEDIABOX_CLIP: MuPDF leaves out characters outside the page while it builds the TextPage.
TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
_BLANK_LINES = re.compile(r"\n\n+")


def text_page(page: pymupdf.Page) -> pymupdf.TextPage:
    """The page's TextPage with pdfdesk's flags; reuse it for several get_text calls on one page.
    A page built to exhaust MuPDF is refused first (pdf_error; see page_streams.check_page)."""
    check_page(page)
    return page.get_textpage(flags=TEXT_FLAGS)


def page_text(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> str:
    """Plain text of a page in reading order as MuPDF lays it out: one line of text per line,
    no blank lines between blocks (the layout PyMuPDF's get_text("text") gives).

    MuPDF's own printer writes it. PyMuPDF's (TextPage.extractText) computes every character's
    box to test it against the page, which MEDIABOX_CLIP has already done, and writes each
    character outside Latin-1 as a "\\uXXXX" escape that Python then decodes: on CJK and Arabic
    pages that costs about a quarter of the whole extraction. MuPDF's printer ends each block
    with an empty line and prints empty lines, which are dropped here; on the test corpus and
    the system's PDFs (10,698 pages) the result equals PyMuPDF's character for character."""
    if textpage is None:
        textpage = text_page(page)
    buffer = mupdf.fz_new_buffer(4096)
    out = mupdf.FzOutput(buffer)
    try:
        mupdf.fz_print_stext_page_as_text(out, textpage.this)
    finally:
        out.fz_close_output()
    text = bytes(buffer.fz_buffer_storage_memoryview()).decode("utf-8", "replace")
    return _BLANK_LINES.sub("\n", text).lstrip("\n")


def has_text(text: str) -> bool:
    return len("".join(text[:200].split())) >= MIN_TEXT_CHARS


def has_images(page: pymupdf.Page) -> bool:
    """Whether the page draws any raster image (a scan shows up as one full-page image)."""
    return bool(page.get_images(full=False))


@dataclass
class TextLayerSurvey:
    """Which pages lack a text layer, and which of those show an image (likely scans)."""

    without_text: list[int]
    scanned: list[int]
    checked: int  # pages 1..checked were read (all but the tail of very long documents)


SURVEY_MAX_PAGES = 2000


def survey_text_layer(doc: pymupdf.Document, max_pages: int = SURVEY_MAX_PAGES) -> TextLayerSurvey:
    """Read the first `max_pages` pages' text (about 1 ms a page): resource dictionaries are no
    shortcut, since generators share one font dictionary between text pages and blank ones."""
    without: list[int] = []
    scanned: list[int] = []
    checked = min(doc.page_count, max_pages)
    for index in range(checked):
        try:
            page = doc.load_page(index)
            if has_text(page_text(page)):
                continue
            images = has_images(page)
        except Exception:  # a damaged page counts as having no usable text
            without.append(index + 1)
            continue
        without.append(index + 1)
        if images:
            scanned.append(index + 1)
    return TextLayerSurvey(without, scanned, checked)


def passage_rects(page: pymupdf.Page, passage: str, limit: int = 8) -> list[tuple[float, float, float, float]]:
    """Where a quoted passage sits on its page: the rectangles of its opening words, trying
    shorter openings when the whole does not match (quotes are often reflowed or cut)."""
    if refusal(page):  # MuPDF would have to run a page built to exhaust it
        return []
    words = " ".join(passage.split()).split(" ")
    for length in (12, 8, 5, 3):
        needle = " ".join(words[:length]).strip()
        found = page.search_for(needle) if needle else []
        if found:
            return [(r.x0, r.y0, r.x1, r.y1) for r in found[:limit]]
    return []
