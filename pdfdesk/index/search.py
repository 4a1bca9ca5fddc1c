"""Search one document: keyword (the index, plus a direct scan of pages not yet indexed),
semantic (stored passage vectors), or hybrid (the two rankings fused with RRF); then excerpts
and hit rectangles for the matches that are returned.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from whoosh.qparser import QueryParserError  # type: ignore[attr-defined]

from pdfdesk.core.documents import open_source
from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.pages import format_page_set
from pdfdesk.index import semantic
from pdfdesk.index.builder import BACKGROUND, Target, semantic_pending
from pdfdesk.index.excerpts import page_hits, passage_hits
from pdfdesk.index.hybrid import rrf
from pdfdesk.index.query_terms import parse_terms
from pdfdesk.index.scan import scan_pages
from pdfdesk.index.sections import SectionStart, outline_entries, page_lines, place_on_lines
from pdfdesk.index.store import DocumentIndex, IndexState

SCAN_BUDGET_S = 0.6
MAX_SECTION_PAGES_TO_HIGHLIGHT = 5
LOW_CONFIDENCE_SIMILARITY = 0.35

Key = tuple[str, Any]


@dataclass
class DocumentSearch:
    """Results of one document plus what the caller should know about how they were found."""

    matches: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ranking:
    keys: list[Key] = field(default_factory=list)
    matches: dict[Key, dict[str, Any]] = field(default_factory=dict)


def _section_at(starts: list[SectionStart], number: int, y: float) -> str | None:
    """Title of the outline entry a point on a page falls under."""
    before = [s for s in starts if (s.page, s.y) <= (number, y + 1.0)]
    return max(before, key=lambda s: (s.page, s.y)).title if before else None


_outlines: OrderedDict[str, list[SectionStart]] = OrderedDict()


_placed: OrderedDict[tuple[str, int], list[SectionStart]] = OrderedDict()


def _outline_near(fingerprint: str, outline: list[SectionStart], page: Any) -> list[SectionStart]:
    """The outline with the entries of `page` placed on their title lines (cached per page)."""
    number = page.number + 1
    key = (fingerprint, number)
    if key not in _placed:
        on_page = [s for s in outline if s.page == number]
        placed = place_on_lines(on_page, {number: page_lines(page)}) if on_page else []
        _placed[key] = [s for s in outline if s.page != number] + placed if on_page else outline
        while len(_placed) > 512:
            _placed.popitem(last=False)
    return _placed[key]


def _outline_of(fingerprint: str, doc: Any) -> list[SectionStart]:
    """A document's outline entries, read once per document version (under the MuPDF lock)."""
    if fingerprint not in _outlines:
        _outlines[fingerprint] = outline_entries(doc)
        while len(_outlines) > 32:
            _outlines.popitem(last=False)
    return _outlines[fingerprint]


def _section_match(hit: dict[str, Any], score: float, found_by: str) -> dict[str, Any]:
    return {"granularity": "section", "title": hit.get("title"), "path": hit.get("path"), "level": hit.get("level"),
            "start_page": hit["page"], "end_page": hit["end_page"], "page": hit["page"], "score": score,
            "found_by": found_by}


def _keyword_ranking(target: Target, index: DocumentIndex, state: IndexState | None, page_count: int,
                     query: str, sections: bool, limit: int, details: dict[str, Any]) -> Ranking:
    ranking = Ranking()
    indexed = state.pages_indexed if state is not None else 0
    lists: list[list[Key]] = []
    if indexed or sections:
        try:
            parsed = index.parse(query, "section" if sections else "page")
        except QueryParserError as exc:  # whoosh is lenient; this is a backstop
            raise PdfDeskError(VALIDATION_ERROR, f"The query {query!r} cannot be parsed: {exc}.",
                               'Use words, "exact phrases", OR, NOT and prefix* only.') from None
        keys = []
        for hit in index.search(parsed, "section" if sections else "page", limit):
            key: Key = ("section", hit["key"]) if sections else ("page", hit["page"])
            keys.append(key)
            ranking.matches[key] = (_section_match(hit, hit["score"], "keyword") if sections else
                                    {"granularity": "page", "page": hit["page"], "score": hit["score"],
                                     "found_by": "keyword"})
        lists.append(keys)
    pending = [] if sections else list(range(indexed + 1, page_count + 1))
    if pending:
        scan = scan_pages(target, pending, parse_terms(query), SCAN_BUDGET_S)
        keys = []
        for number, score in scan.hits:
            key = ("page", number)
            keys.append(key)
            ranking.matches.setdefault(key, {"granularity": "page", "page": number, "score": score,
                                             "found_by": "keyword"})
        lists.append(keys)
        details.update({"index_complete": False, "pages_indexed": indexed, "pages_scanned": len(scan.scanned),
                        "pages_not_searched": format_page_set(scan.not_reached)})
        note = "The index is still being built: pages not yet indexed were read directly"
        if scan.not_reached:
            note += (f"; pages {format_page_set(scan.not_reached)} were not reached in time, so search again "
                     "in a moment for complete results")
        details["note"] = note
    ranking.keys = [k for k, _ in rrf(lists)] if len(lists) > 1 else (lists[0] if lists else [])
    return ranking


def _semantic_ranking(index: DocumentIndex, state: IndexState | None, query: str, sections: bool,
                      limit: int, details: dict[str, Any]) -> Ranking:
    ranking = Ranking()
    store = semantic.SemanticStore(index.folder)
    usable = state is not None and state.semantic_model == semantic.model_label()
    embedded = store.pages_done() if usable else 0
    total = state.pages_total if state is not None else 0
    details["semantic_pages_embedded"] = embedded
    if embedded < total:
        details["semantic_note"] = (f"Passages of {embedded} of {total} pages are embedded so far; meaning-based "
                                    "matches cover those pages until embedding finishes.")
    if not embedded:
        return ranking
    section_list = index.sections() if sections else []
    for passage, similarity in store.search(query, limit * 4):
        if sections:
            hit = next((s for s in section_list if s["page"] <= passage.page <= s["end_page"]), None)
            if hit is None:
                continue
            key: Key = ("section", hit["key"])
            match = _section_match(hit, similarity, "semantic")
        else:
            key = ("page", passage.page)
            match = {"granularity": "page", "page": passage.page, "score": similarity, "found_by": "semantic"}
        if key in ranking.matches:
            continue
        match["passage"] = passage.text
        match["similarity"] = round(similarity, 4)
        ranking.keys.append(key)
        ranking.matches[key] = match
    return ranking


def decorate_matches(target: Target, chosen: list[dict[str, Any]], query: str, style: str, context: int) -> None:
    """Add excerpt and hit rectangles to each match, reading its page(s) from the PDF."""
    terms = parse_terms(query)
    with open_source(target.source, target.password) as opened:
        outline = _outline_of(target.fingerprint, opened.doc)
        for match in chosen:
            if match["found_by"] == "semantic":
                number = match.get("passage_page", match["page"])
                page = opened.doc.load_page(number - 1)
                hits = passage_hits(page, match.pop("passage"), style, context, key=(target.fingerprint, number))
            else:
                match.pop("passage", None)
                if match["granularity"] == "section":
                    first, last = match["start_page"], match["end_page"]
                    candidates = range(first, min(last, first + MAX_SECTION_PAGES_TO_HIGHLIGHT - 1) + 1)
                else:
                    candidates = range(match["page"], match["page"] + 1)
                best = None
                for number in candidates:
                    found = page_hits(opened.doc.load_page(number - 1), terms, style, context,
                                      key=(target.fingerprint, number))
                    if best is None or (found.rects and not best[1].rects):
                        best = (number, found)
                    if found.rects:
                        break
                assert best is not None
                number, hits = best
                page = opened.doc.load_page(number - 1)
            match.pop("passage_page", None)
            match.update({"page": number, "excerpt": hits.excerpt, "excerpt_style": hits.excerpt_style,
                          "rects": hits.rects, "page_width": round(page.rect.width, 1),
                          "page_height": round(page.rect.height, 1)})
            if match["granularity"] == "page" and outline:
                y = hits.rects[0][1] if hits.rects else 0.0
                section = _section_at(_outline_near(target.fingerprint, outline, page), number, y)
                if section:
                    match["section"] = section


def search_document(target: Target, page_count: int, query: str, mode: str, granularity: str, limit: int,
                    style: str, context: int, build: bool = True, decorate: bool = True) -> DocumentSearch:
    """Search one document in `mode` keyword, semantic or hybrid, answering while it is indexed."""
    index = DocumentIndex(target.fingerprint)
    state = index.read_state()
    if state is not None and (state.pages_indexed or state.sections_indexed):
        state = index.open_existing()  # None when unreadable: pages are read directly, the build repairs it
    wants_vectors = mode != "keyword"
    needs_build = build and (state is None or not state.complete or (wants_vectors and semantic_pending(state)))
    result = DocumentSearch()
    details = result.details
    sections = granularity == "section" and state is not None and state.sections_indexed
    if granularity == "section" and not sections:
        details["sections_pending"] = True
        details["note"] = "Sections are still being indexed; these are page results labelled with their section."
    rankings: list[Ranking] = []
    if mode in ("keyword", "hybrid"):
        rankings.append(_keyword_ranking(target, index, state, page_count, query, sections, limit * 3, details))
    if mode in ("semantic", "hybrid") and state is not None:
        rankings.append(_semantic_ranking(index, state, query, sections, limit * 3, details))
    details.setdefault("index_complete", bool(state and state.pages_complete))
    merged: dict[Key, dict[str, Any]] = {}
    for ranking in reversed(rankings):  # keyword matches win the merge: they carry exact hits
        merged.update(ranking.matches)
    if len(rankings) > 1:
        keyword_keys = set(rankings[0].matches)
        semantic_keys = set(rankings[1].matches)
        fused = rrf([r.keys for r in rankings])
        chosen = []
        for key, score in fused[:limit]:
            match = merged[key]
            if key in keyword_keys and key in semantic_keys:
                match["found_by"] = "both"
            elif key not in keyword_keys:
                match["low_confidence"] = True
            match["score"] = score
            chosen.append(match)
    else:
        chosen = [merged[key] for key in (rankings[0].keys[:limit] if rankings else [])]
        for match in chosen:
            if match["found_by"] == "semantic" and match["similarity"] < LOW_CONFIDENCE_SIMILARITY:
                match["low_confidence"] = True
    for match in chosen:
        match["score"] = round(float(match["score"]), 4)
    if decorate:
        decorate_matches(target, chosen, query, style, context)
    result.matches = chosen
    if needs_build:  # after answering, so the first answer does not compete with the build
        BACKGROUND.start(target)
    return result
