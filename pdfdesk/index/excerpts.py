"""Excerpts and hit rectangles for one result page, read from the PDF at answer time.

Paragraph excerpts are the text block holding the first hit (blocks under 80 characters, such as
running heads, are passed over; a block over 2,000 characters falls back to a snippet). Snippets
are `context_chars` either side of the first hit. Hit rectangles are the words that match the
query after stemming, so "agreed" highlights "agree" too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pymupdf

from pdfdesk.core.text import text_page

from pdfdesk.index.analysis import analyze, has_cjk
from pdfdesk.index.query_terms import QueryTerms

MIN_PARAGRAPH_CHARS = 80
MAX_PARAGRAPH_CHARS = 2000
MAX_RECTS = 200


@dataclass
class PageHits:
    rects: list[list[float]]
    excerpt: str
    excerpt_style: str


def _word_matches(word: str, stems: set[str], prefixes: list[str]) -> bool:
    lowered = word.lower().strip(".,;:!?()[]{}\"'“”‘’")
    if not lowered:
        return False
    if any(lowered.startswith(p) for p in prefixes):
        return True
    return any(term in stems for term in analyze(lowered))


def hit_rects(page: pymupdf.Page, terms: QueryTerms, textpage: pymupdf.TextPage) -> tuple[list[pymupdf.Rect], list[str]]:
    """Rectangles of the words (and CJK strings) the query matches on this page, and those words."""
    stems = terms.stems
    rects: list[pymupdf.Rect] = []
    words: list[str] = []
    for needle in terms.needles:
        if has_cjk(needle):
            found = page.search_for(needle, textpage=textpage)[:MAX_RECTS]
            rects.extend(found)
            words.extend([needle] * len(found))
    if stems or terms.prefixes:
        for x0, y0, x1, y1, word, *_ in page.get_text("words", textpage=textpage):
            if _word_matches(word, stems, terms.prefixes):
                rects.append(pymupdf.Rect(x0, y0, x1, y1))
                words.append(word)
                if len(rects) >= MAX_RECTS:
                    break
    return rects, words


def _snippet(text: str, at: int, context: int) -> str:
    start, end = max(0, at - context), min(len(text), at + context)
    piece = re.sub(r"\s+", " ", text[start:end]).strip()
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")


def _first_hit_offset(text: str, terms: QueryTerms, rect_words: list[str]) -> int:
    lowered = text.lower()
    for needle in rect_words[:3] + terms.needles + terms.prefixes:
        at = lowered.find(needle.lower())
        if at >= 0:
            return at
    return 0


def page_hits(page: pymupdf.Page, terms: QueryTerms, style: str, context_chars: int,
              clip: pymupdf.Rect | None = None) -> PageHits:
    """Hit rectangles and an excerpt for one page (or the part of it inside `clip`)."""
    textpage = text_page(page, clip)
    rects, hit_words = hit_rects(page, terms, textpage)
    blocks = [b for b in page.get_text("blocks", textpage=textpage) if b[6] == 0 and b[4].strip()]
    if style == "paragraph":
        for block in blocks:
            text = block[4].strip()
            if len(text) < MIN_PARAGRAPH_CHARS:
                continue
            box = pymupdf.Rect(block[:4])
            if any(box.intersects(r) for r in rects):
                if len(text) <= MAX_PARAGRAPH_CHARS:
                    return PageHits(_as_lists(rects), re.sub(r"[ \t]*\n[ \t]*", " ", text), "paragraph")
                return PageHits(_as_lists(rects), _snippet(text, _first_hit_offset(text, terms, hit_words),
                                                           context_chars), "snippet")
    text = "\n".join(b[4] for b in blocks)
    return PageHits(_as_lists(rects), _snippet(text, _first_hit_offset(text, terms, hit_words), context_chars),
                    "snippet")


def _as_lists(rects: list[pymupdf.Rect]) -> list[list[float]]:
    return [[round(r.x0, 1), round(r.y0, 1), round(r.x1, 1), round(r.y1, 1)] for r in rects]
