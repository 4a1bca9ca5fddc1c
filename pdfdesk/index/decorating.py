"""Decorating the matches a search returns: each page's excerpt and hit rectangles (the question's
deciding words, the synonyms that counted for them, or the passage meaning found), and the outline
section a page hit falls under.

Ranking decides which pages; this reads only those pages, from the page-text record where it has
them, so a search's cost beyond its ranking grows with the results shown, not the document.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from pdfdesk.core.documents import open_source
from pdfdesk.core.lru import LRU
from pdfdesk.index.analysis import analyze
from pdfdesk.index.builder import Target
from pdfdesk.index.excerpts import page_hits, passage_hits, prime_layouts
from pdfdesk.index.matches import PAGE, SECTION, Match
from pdfdesk.index.outline_placing import outline_entries, place_on_lines
from pdfdesk.index.page_lines import page_lines
from pdfdesk.index.query_terms import parse_terms
from pdfdesk.index.sections import SectionStart

MAX_SECTION_PAGES_TO_HIGHLIGHT = 5


def _section_at(starts: list[SectionStart], number: int, y: float) -> str | None:
    """Title of the outline entry a point on a page falls under."""
    before = [s for s in starts if (s.page, s.y) <= (number, y + 1.0)]
    return max(before, key=lambda s: (s.page, s.y)).title if before else None


# Both read under the MuPDF lock (inside open_source), which also guards them.
_outlines: LRU[str, list[SectionStart]] = LRU(32)
_placed: LRU[tuple[str, int], list[SectionStart]] = LRU(512)


def _outline_near(fingerprint: str, outline: list[SectionStart], page: Any) -> list[SectionStart]:
    """The outline with the entries of `page` placed on their title lines (cached per page)."""
    number = page.number + 1
    return _placed.get_or_make((fingerprint, number), lambda: _place_page(outline, page, number))


def _place_page(outline: list[SectionStart], page: Any, number: int) -> list[SectionStart]:
    """Reading the page's lines is the costly part, so pages without an outline entry skip it."""
    on_page = [s for s in outline if s.page == number]
    if not on_page:
        return outline
    return [s for s in outline if s.page != number] + place_on_lines(on_page, {number: page_lines(page)})


def _outline_of(fingerprint: str, doc: Any) -> list[SectionStart]:
    """A document's outline entries, read once per document version (under the MuPDF lock)."""
    return _outlines.get_or_make(fingerprint, lambda: outline_entries(doc))


_EDGES = re.compile(r"^\W+|\W+$")  # the punctuation a printed word carries ("обеспечение.")


def decorate_matches(target: Target, chosen: list[Match], query: str, style: str, context: int) -> None:
    """Add excerpt and hit rectangles to each match, reading its page(s) from the page-text record
    (or the PDF where the record lacks them)."""
    terms = parse_terms(query)
    prime_layouts(target.fingerprint, sorted({m.page for m in chosen if m.granularity == PAGE}))
    with open_source(target.source, target.password) as opened:
        outline = _outline_of(target.fingerprint, opened.doc)
        for match in chosen:
            if match.found_by == "semantic" and match.passage is not None:
                number = match.passage_page or match.page
                page = opened.doc.load_page(number - 1)
                hits = passage_hits(page, match.passage, style, context, key=(target.fingerprint, number))
            else:
                if match.granularity == SECTION and match.start_page is not None and match.end_page is not None:
                    first, last = match.start_page, match.end_page
                    candidates = range(first, min(last, first + MAX_SECTION_PAGES_TO_HIGHLIGHT - 1) + 1)
                else:
                    candidates = range(match.page, match.page + 1)
                best = None
                shown = replace(terms, related=match.related) if match.related else terms
                for number in candidates:
                    found = page_hits(opened.doc.load_page(number - 1), shown, style, context,
                                      key=(target.fingerprint, number))
                    if best is None or (found.rects and not best[1].rects):
                        best = (number, found)
                    if found.rects:
                        break
                assert best is not None
                number, hits = best
                page = opened.doc.load_page(number - 1)
            match.passage = match.passage_page = None
            match.page, match.excerpt, match.excerpt_style = number, hits.excerpt, hits.excerpt_style
            if match.related:
                match.related_words = sorted({_EDGES.sub("", word) for word in hits.words
                                              if set(analyze(word)) & match.related})
            match.rects = hits.rects
            match.page_width, match.page_height = round(page.rect.width, 1), round(page.rect.height, 1)
            if match.granularity == PAGE and outline:
                y = hits.rects[0][1] if hits.rects else 0.0
                section = _section_at(_outline_near(target.fingerprint, outline, page), number, y)
                if section:
                    match.section = section
