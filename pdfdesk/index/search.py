"""Search one document: the index for the pages it holds, a direct scan for the rest, and
excerpts with hit rectangles for the results that are returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from whoosh.qparser import QueryParserError  # type: ignore[attr-defined]

from pdfdesk.core.documents import open_source
from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.pages import format_page_set
from pdfdesk.index.builder import BACKGROUND, Target
from pdfdesk.index.excerpts import page_hits
from pdfdesk.index.hybrid import rrf
from pdfdesk.index.query_terms import parse_terms
from pdfdesk.index.scan import scan_pages
from pdfdesk.index.sections import SectionStart, outline_starts, page_lines
from pdfdesk.index.store import DocumentIndex

SCAN_BUDGET_S = 0.6
MAX_SECTION_PAGES_TO_HIGHLIGHT = 5


@dataclass
class DocumentSearch:
    """Results of one document plus what the caller should know about how they were found."""

    matches: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


def _index_hits(index: DocumentIndex, query: str, granularity: str, limit: int) -> list[dict[str, Any]]:
    try:
        parsed = index.parse(query, granularity)
    except QueryParserError as exc:  # whoosh is lenient; this is a backstop
        raise PdfDeskError(VALIDATION_ERROR, f"The query {query!r} cannot be parsed: {exc}.",
                           'Use words, "exact phrases", OR, NOT and prefix* only.') from None
    return index.search(parsed, granularity, limit)


def _section_at(starts: list[SectionStart], number: int, y: float) -> str | None:
    """Title of the outline entry a point on a page falls under."""
    title = None
    for start in sorted(starts, key=lambda s: (s.page, s.y)):
        if (start.page, start.y) <= (number, y + 1.0):
            title = start.title
    return title


def _decorate(target: Target, chosen: list[dict[str, Any]], query: str, style: str, context: int) -> None:
    """Add excerpt and hit rectangles to each match, reading its page(s) from the PDF."""
    terms = parse_terms(query)
    with open_source(target.source, target.password) as opened:
        has_outline = bool(opened.doc.get_toc(simple=True))
        for match in chosen:
            if match.get("granularity") == "section":
                first, last = match["start_page"], match["end_page"]
                candidates = range(first, min(last, first + MAX_SECTION_PAGES_TO_HIGHLIGHT - 1) + 1)
            else:
                candidates = range(match["page"], match["page"] + 1)
            best = None
            for number in candidates:
                hits = page_hits(opened.doc.load_page(number - 1), terms, style, context)
                if best is None or (hits.rects and not best[1].rects):
                    best = (number, hits)
                if hits.rects:
                    break
            assert best is not None
            number, hits = best
            page = opened.doc.load_page(number - 1)
            match.update({"page": number, "excerpt": hits.excerpt, "excerpt_style": hits.excerpt_style,
                          "rects": hits.rects, "page_width": round(page.rect.width, 1),
                          "page_height": round(page.rect.height, 1)})
            if match.get("granularity") != "section":
                section = has_outline and _section_at(
                    outline_starts(opened.doc, {number: page_lines(page)}), number, hits.rects[0][1] if hits.rects else 0.0)
                if section:
                    match["section"] = section


def search_document(target: Target, page_count: int, query: str, granularity: str, limit: int,
                    style: str, context: int, build: bool = True) -> DocumentSearch:
    """Keyword search of one document, answering while its index is still being built."""
    index = DocumentIndex(target.fingerprint)
    state = index.read_state()
    needs_build = build and (state is None or not state.complete)
    indexed = state.pages_indexed if state is not None else 0
    result = DocumentSearch()
    ranked: list[list[tuple[str, int]]] = []
    by_key: dict[tuple[str, int], dict[str, Any]] = {}

    use_sections = granularity == "section" and state is not None and state.sections_indexed
    if indexed or use_sections:
        index.open(page_count)
        hits = _index_hits(index, query, "section" if use_sections else "page", limit * 3)
        keys = []
        for hit in hits:
            key = (hit["key"], 0)
            keys.append(key)
            by_key[key] = _match_from_hit(hit, use_sections)
        ranked.append(keys)
    pending = list(range(indexed + 1, page_count + 1)) if not use_sections else []
    if pending:
        scan = scan_pages(target, pending, parse_terms(query), SCAN_BUDGET_S)
        keys = []
        for number, score in scan.hits:
            key = (f"p:{number}", 0)
            keys.append(key)
            by_key.setdefault(key, {"granularity": "page", "page": number, "score": round(score, 4),
                                    "found_by": "scan"})
        ranked.append(keys)
        result.details.update({
            "index_complete": False,
            "pages_indexed": indexed,
            "pages_scanned": len(scan.scanned),
            "pages_not_searched": format_page_set(scan.not_reached),
            "note": ("The index is still being built: pages not yet indexed were read directly"
                     + (f"; pages {format_page_set(scan.not_reached)} were not reached in time — search again "
                        "in a moment for complete results" if scan.not_reached else "")),
        })
    else:
        result.details["index_complete"] = bool(state and state.complete) or use_sections
    if granularity == "section" and not use_sections:
        result.details["sections_pending"] = True
        result.details.setdefault("note", "Sections are still being indexed; these are page results "
                                          "labelled with their section.")
    fused = rrf(ranked) if len(ranked) > 1 else [(key, 0.0) for key in (ranked[0] if ranked else [])]
    chosen = [by_key[key] for key, _ in fused[:limit]]
    for match in chosen:
        match["score"] = round(float(match["score"]), 4)
    _decorate(target, chosen, query, style, context)
    result.matches = chosen
    if needs_build:  # after answering, so the first answer does not compete with the build
        BACKGROUND.start(target)
    return result


def _match_from_hit(hit: dict[str, Any], section: bool) -> dict[str, Any]:
    if section:
        return {"granularity": "section", "title": hit.get("title"), "path": hit.get("path"), "level": hit.get("level"),
                "start_page": hit["page"], "end_page": hit["end_page"], "page": hit["page"],
                "score": hit["score"], "found_by": "index"}
    return {"granularity": "page", "page": hit["page"], "score": hit["score"], "found_by": "index"}


