"""Search one document: keyword (the index, plus a direct scan of pages not yet indexed),
semantic (stored passage vectors), or hybrid (keyword first, meaning filling in); the matches
returned are then decorated with excerpts and hit rectangles (`decorating`).

Searching never builds anything: a document whose index is missing, unfinished or damaged is
answered from its pages directly and handed to the indexing owner. When the data folder cannot
take an index (read-only, full), the pages are read directly with a longer budget, since no index
is coming, and the answer says why. A keyword search never loads an embedding model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from whoosh.qparser import QueryParserError

from pdfdesk.core import paths
from pdfdesk.core.errors import SEMANTIC_UNAVAILABLE, VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.pages import format_page_set
from pdfdesk.index import embedding, semantic
from pdfdesk.index.builder import Target, vectors_pending
from pdfdesk.index.decorating import decorate_matches
from pdfdesk.index.document_vectors import stores, vectors_embedded
from pdfdesk.index.hybrid import MEANING_CANDIDATES, MEANING_WEIGHT, keyword_first, rrf
from pdfdesk.index.matches import PAGE, Match
from pdfdesk.index.owner import request_indexing
from pdfdesk.index.paragraphs import question
from pdfdesk.index.query_terms import parse_terms
from pdfdesk.index.queue import INTERACTIVE
from pdfdesk.index.relaxing import (RELAX_BELOW, near_pool, near_queries, near_ranked_first, relaxed_query,
                                    strict_query)
from pdfdesk.index.scan import scan_pages
from pdfdesk.index.store import PAGES, SECTIONS, DocumentIndex, IndexDamaged, IndexState

SCAN_BUDGET_S = 0.6
UNWRITABLE_SCAN_BUDGET_S = 10.0  # no index is coming: read (nearly) every page now instead
LOW_CONFIDENCE_SIMILARITY = 0.35

Key = tuple[str, Any]


@dataclass
class DocumentSearch:
    """Results of one document plus what the caller should know about how they were found."""

    matches: list[Match] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ranking:
    keys: list[Key] = field(default_factory=list)
    matches: dict[Key, Match] = field(default_factory=dict)
    near: list[Key] = field(default_factory=list)  # partial matches lacking just one of the words
    relaxed: Any = None  # the query for pages holding some of the words, when one was asked
    loose: dict[Key, float] = field(default_factory=dict)  # its scores of the best pages it found
    nearest: semantic.Nearest | None = None  # a meaning ranking's pages against the document's own


def _section_match(hit: dict[str, Any], score: float, found_by: str) -> Match:
    return Match.of_section(hit.get("title"), hit.get("path"), hit.get("level"), hit["page"], hit["end_page"],
                            score, found_by)


def _keyword_ranking(target: Target, index: DocumentIndex, state: IndexState | None, page_count: int,
                     query: str, sections: bool, limit: int, details: dict[str, Any],
                     unwritable: str | None = None) -> Ranking:
    """Pages (or sections) holding all the query's words; when fewer than RELAX_BELOW do, those
    holding some of them follow, marked partial (the words of a question in one's own words are
    rarely all on one page)."""
    ranking = Ranking()
    indexed = state.pages_indexed if state is not None else 0
    granularity = "section" if sections else "page"
    lists: list[list[Key]] = []
    partial_lists: list[list[Key]] = []
    parsed = None
    if indexed or sections:
        try:
            parsed = index.parse(query, granularity)
        except QueryParserError as exc:  # whoosh is lenient; this is a backstop
            raise PdfDeskError(VALIDATION_ERROR, f"The query {query!r} cannot be parsed: {exc}.",
                               'Use words, "exact phrases", OR, NOT and prefix* only.') from None
        strict = strict_query(parsed)
        if sections:  # a section whose title holds every word is the one a user typing a heading means
            titled = _index_hits(index, strict_query(index.parse(query, "title")), True, limit, ranking)
            lists.append(titled + [key for key in _index_hits(index, strict, True, limit, ranking)
                                   if key not in titled])
        else:
            lists.append(_index_hits(index, strict, False, limit, ranking))
    pending = [] if sections else list(range(indexed + 1, page_count + 1))
    scan = None
    if pending:
        scan = scan_pages(target, pending, parse_terms(query),
                          UNWRITABLE_SCAN_BUDGET_S if unwritable else SCAN_BUDGET_S)
        lists.append(_scan_hits(scan.hits, ranking))
        _scan_notes(details, indexed, scan, unwritable)
    ranking.keys = _fused(lists)
    if len(ranking.keys) >= RELAX_BELOW:
        return ranking
    relaxed = None
    if parsed is not None:
        with index.vocabulary(granularity) as known:
            relaxed = relaxed_query(parsed, known)
    if relaxed is not None:
        # pages missing only one of the words come first among the partial ones, in their order
        found = set(ranking.keys)
        *nears, loose = index.search_each([*near_queries(parsed), relaxed], granularity, near_pool(limit))
        for hits in nears:
            for key in _recorded(hits, sections, ranking, partial=True):
                if key not in found:
                    ranking.near.append(key)
                    found.add(key)
        ranking.near.sort(key=lambda key: -ranking.matches[key].score)
        partial_lists.append(_recorded(loose, sections, ranking, partial=True))
        ranking.relaxed = relaxed
        ranking.loose = {("page", hit["page"]): hit["score"] for hit in loose} if not sections else {}
    if scan is not None and scan.partial:
        partial_lists.append(_scan_hits(scan.partial, ranking, partial=True))
    partial = ranking.near + [key for key in _fused(partial_lists) if key not in set(ranking.keys + ranking.near)]
    if partial:
        details["keyword_match"] = "partial"
        add_note(details, ("No " + granularity + " holds all the words" if not ranking.keys else
                           f"Only {len(ranking.keys)} {granularity}(s) hold all the words") +
                 f"; {granularity}s holding some of them follow, marked partial")
        ranking.keys += partial
    return ranking


def _fused(lists: list[list[Key]]) -> list[Key]:
    return [k for k, _ in rrf(lists)] if len(lists) > 1 else (lists[0] if lists else [])


def _index_hits(index: DocumentIndex, parsed: Any, sections: bool, limit: int, ranking: Ranking,
                partial: bool = False) -> list[Key]:
    hits = index.search(parsed, "section" if sections else "page", limit)  # may raise IndexDamaged
    return _recorded(hits, sections, ranking, partial)


def _recorded(hits: list[dict[str, Any]], sections: bool, ranking: Ranking, partial: bool = False) -> list[Key]:
    """The hits' keys, in their order; each hit not met before is recorded as a match."""
    keys: list[Key] = []
    for hit in hits:
        key: Key = ("section", hit["key"]) if sections else ("page", hit["page"])
        keys.append(key)
        if key in ranking.matches:
            continue
        match = (_section_match(hit, hit["score"], "keyword") if sections else
                 Match(PAGE, hit["page"], hit["score"], "keyword"))
        match.partial = partial
        ranking.matches[key] = match
    return keys


def _scan_hits(hits: list[tuple[int, float]], ranking: Ranking, partial: bool = False) -> list[Key]:
    keys: list[Key] = []
    for number, score in hits:
        key: Key = ("page", number)
        keys.append(key)
        if key not in ranking.matches:
            ranking.matches[key] = Match(PAGE, number, score, "keyword", partial=partial)
    return keys


def _scan_notes(details: dict[str, Any], indexed: int, scan: Any, unwritable: str | None) -> None:
    details.update({"index_complete": False, "pages_indexed": indexed, "pages_scanned": len(scan.scanned),
                    "pages_not_searched": format_page_set(scan.not_reached)})
    if unwritable:
        note = f"The search index cannot be saved ({unwritable}), so the pages were read directly"
        if scan.not_reached:
            note += (f"; pages {format_page_set(scan.not_reached)} were not reached in time (an index, "
                     "once the data folder can be written, covers every page)")
    else:
        note = "The index is still being built: pages not yet indexed were read directly"
        if scan.not_reached:
            note += (f"; pages {format_page_set(scan.not_reached)} were not reached in time, so search again "
                     "in a moment for complete results")
    add_note(details, note)


def add_note(details: dict[str, Any], note: str) -> None:
    """Notes accumulate: a later one never hides an earlier one."""
    details["note"] = f"{details['note']}. {note}" if details.get("note") else note


def _semantic_ranking(index: DocumentIndex, state: IndexState | None, query: str, sections: bool,
                      limit: int, details: dict[str, Any]) -> Ranking:
    ranking = Ranking()
    embedded = vectors_embedded(index, state)
    total = state.pages_total if state is not None else 0
    details["semantic_pages_embedded"] = embedded
    if embedded < total:
        details["semantic_note"] = (f"Passages of {embedded} of {total} pages are embedded so far; meaning-based "
                                    "matches cover those pages until embedding finishes.")
    if not embedded:
        return ranking
    section_list = index.sections() if sections else []
    try:
        nearest = stores(index).search(query, limit * 4)
    except semantic.StoreDamaged as exc:
        index.report_damage(semantic.SEMANTIC_DIR, str(exc))
        return ranking
    ranking.nearest = nearest
    for passage, similarity in nearest.passages:
        if similarity <= 0.0:  # unrelated in meaning: never a match, however few there are
            break
        if sections:
            hit = next((s for s in section_list if s["page"] <= passage.page <= s["end_page"]), None)
            if hit is None:
                continue
            key: Key = ("section", hit["key"])
            match = _section_match(hit, similarity, "semantic")
        else:
            key = ("page", passage.page)
            match = Match(PAGE, passage.page, similarity, "semantic")
        if key in ranking.matches:
            continue
        match.passage, match.passage_page = passage.text, passage.page
        match.similarity = round(similarity, 4)
        ranking.keys.append(key)
        ranking.matches[key] = match
    return ranking


def _hybrid(target: Target, index: DocumentIndex, query: str, keyword: Ranking, meaning: Ranking,
            limit: int) -> list[Match]:
    """Pages holding every word (and, while a first page of results shows them all, those missing
    one) in keyword order, then the rest by words, paragraphs and meaning (see `keyword_first`); a
    page found by meaning alone is flagged low confidence."""
    near = keyword.near if near_ranked_first(len(keyword.near)) else []
    strict = [key for key in keyword.keys if not keyword.matches[key].partial] + near
    held = set(strict)
    partial_keys = [key for key in keyword.keys if keyword.matches[key].partial and key not in held]
    by_meaning = [key for key in meaning.keys[:MEANING_CANDIDATES] if key not in held and key not in partial_keys]
    words = _relaxed_scores(index, keyword, partial_keys + by_meaning)
    partial = [(key, words.get(key, keyword.matches[key].score)) for key in partial_keys]
    for key in by_meaning:
        if key in words:  # found by meaning, and holding some of the words too
            keyword.matches[key] = Match(PAGE, key[1], words[key], "keyword", partial=True)
            partial.append((key, words[key]))
    looked_at = [key for key, _ in partial] + [key for key in by_meaning if key not in words]
    nearest = meaning.nearest
    standout = {key: nearest.standout(key[1]) for key in strict + looked_at} if nearest is not None else {}
    reads = embedding.reads(query)
    together, related = _paragraph_shares(target, index, query, [key[1] for key in looked_at], reads)
    chosen = []
    weight = MEANING_WEIGHT * reads
    for key, found_by in keyword_first(strict, partial, meaning.keys, limit, standout, together, weight):
        match = keyword.matches.get(key) or meaning.matches[key]
        if key not in held:  # a page holding every word was not chosen for its synonyms
            match.related = related
        if found_by == "both":
            match.found_by = "both"
            if key in meaning.matches:
                match.similarity = meaning.matches[key].similarity
            elif nearest is not None:
                match.similarity = round(nearest.pages.get(key[1], 0.0), 4)
        elif found_by == "semantic":
            match.low_confidence = True
        chosen.append(match)
    return chosen


def _relaxed_scores(index: DocumentIndex, keyword: Ranking, keys: list[Key]) -> dict[Key, float]:
    """The relaxed query's score of each of these pages that holds some of the words. A page
    beyond the relaxed ranking's best few (one found by meaning, or missing only one word when many
    do) is weighed on the same scale as those, not as holding none of the words."""
    scores = {key: keyword.loose[key] for key in keys if key in keyword.loose}
    beyond = [key[1] for key in keys if key not in scores and key[0] == "page"]
    if beyond and keyword.relaxed is not None:
        scores.update({("page", page): score for page, score in index.page_scores(keyword.relaxed, beyond).items()})
    return scores


def _paragraph_shares(target: Target, index: DocumentIndex, query: str, pages: list[int],
                      reads: float) -> tuple[dict[Key, float], frozenset[str]]:
    """For each page, the share of the query's weight (its words' rarity in this document) that
    one of its paragraphs holds, synonyms counting where the model reads less than half of the
    query (`reads`); and the synonyms that can count, to be shown on the pages as its words are."""
    if not pages:
        return {}, frozenset()
    asked = question(query, reads)
    shares, shown = asked.shares(target.fingerprint, pages, index.page_frequencies(asked.looked_up))
    return {("page", number): share for number, share in shares.items()}, shown


@dataclass(frozen=True)
class ModeChoice:
    """The mode a search runs in, and why it differs from the one asked for."""

    used: str
    reason: str | None = None


def choose_mode(requested: str, granularity: str, index: DocumentIndex, state: IndexState | None) -> ModeChoice:
    """auto is hybrid for pages when this document's vectors exist and a model loads locally;
    sections rank by keywords unless meaning is asked for. A keyword search never touches a model."""
    if requested == "keyword":
        return ModeChoice("keyword")
    available, why_not = embedding.model_status()
    if requested == "semantic" and not available:
        raise PdfDeskError(SEMANTIC_UNAVAILABLE, f"Semantic search cannot run: {why_not}.",
                           'Use mode "keyword" or "auto", or get an embedding model '
                           "(Settings, or `pdfdesk model fetch`).")
    if requested == "auto" and granularity == "section":
        return ModeChoice("keyword", "sections rank by their words; ask for mode semantic to rank them by meaning")
    if not available:
        return ModeChoice("keyword", why_not)
    if not vectors_embedded(index, state):
        reason = "this document's vectors are not built yet (they are queued)"
        return ModeChoice("keyword", reason)
    return ModeChoice("semantic" if requested == "semantic" else "hybrid")


def _usable_state(index: DocumentIndex) -> tuple[IndexState | None, IndexState | None]:
    """(what state.json says, the state when the Whoosh indices open and are not marked damaged)."""
    state = index.read_state()
    if state is None or not (state.pages_indexed or state.sections_indexed) or index.damage() in (PAGES, SECTIONS):
        return state, None
    opened = index.open_existing()
    if opened is None:  # unreadable: pages are read directly, and the builder looks at it
        index.report_damage(PAGES, "the index's table of contents cannot be read")
    return state, opened


def search_document(target: Target, page_count: int, query: str, mode: str, granularity: str, limit: int,
                    style: str, context: int, decorate: bool = True) -> DocumentSearch:
    """Search one document (`mode` auto, keyword or semantic), answering at once whatever state its
    index is in; a document whose index is incomplete, damaged or lacks vectors is handed to the
    indexing owner."""
    index = DocumentIndex(target.fingerprint)
    recorded, state = _usable_state(index)
    result = DocumentSearch()
    details = result.details
    unwritable = None if state is not None and state.complete else _unwritable(index)
    if unwritable:
        details["index_unwritable"] = unwritable
    choice = choose_mode(mode, granularity, index, state)
    details.update({"mode_requested": mode, "mode_used": choice.used})
    if choice.reason:
        details["mode_reason"] = choice.reason
    try:
        chosen = _ranked(target, index, state, page_count, query, choice.used, granularity, limit, details, unwritable)
    except IndexDamaged as exc:
        details.pop("note", None)
        add_note(details, f"The search index is damaged ({exc.kind}) and is being rebuilt; pages were read directly")
        state = None
        unwritable = unwritable or _unwritable(index)
        chosen = _ranked(target, index, None, page_count, query, "keyword", granularity, limit, details, unwritable)
        details["mode_used"] = "keyword"
    for match in chosen:
        match.score = round(float(match.score), 4)
    if decorate:
        decorate_matches(target, chosen, query, style, context)
    result.matches = chosen
    wants_vectors = mode != "keyword" and embedding.model_status()[0]
    if not unwritable and (state is None or not state.complete or index.damage() is not None or
                           (wants_vectors and vectors_pending(recorded))):
        problem = request_indexing(target, INTERACTIVE)  # after answering: the answer never waits on it
        if problem is not None:  # found only on writing (a full disk): the answer above stands
            details["index_unwritable"] = _describe_unwritable(problem)
            add_note(details, f"The search index cannot be saved ({details['index_unwritable']}), so it will "
                              "not be built until the data folder can be written")
    return result


def _describe_unwritable(problem: str) -> str:
    return f"the data folder {paths.app_data_dir()} cannot be written: {problem}"


def _unwritable(index: DocumentIndex) -> str | None:
    """Why this document's index cannot be written here, before anything is tried."""
    problem = paths.unwritable_reason(index.folder.parent)
    return _describe_unwritable(problem) if problem else None


def _ranked(target: Target, index: DocumentIndex, state: IndexState | None, page_count: int, query: str, mode: str,
            granularity: str, limit: int, details: dict[str, Any],
            unwritable: str | None = None) -> list[Match]:
    sections = granularity == "section" and state is not None and state.sections_indexed
    if granularity == "section" and not sections:
        details["sections_pending"] = True
        add_note(details, "Sections are still being indexed; these are page results labelled with their section")
    keyword = semantic_ranking = None
    if mode in ("keyword", "hybrid"):
        keyword = _keyword_ranking(target, index, state, page_count, query, sections, limit * 3, details, unwritable)
    if mode in ("semantic", "hybrid"):
        semantic_ranking = _semantic_ranking(index, state, query, sections, limit * 3, details)
    details.setdefault("index_complete", bool(state and state.pages_complete))
    if keyword is not None and semantic_ranking is not None:
        return _hybrid(target, index, query, keyword, semantic_ranking, limit)
    ranking = keyword or semantic_ranking
    chosen = [ranking.matches[key] for key in ranking.keys[:limit]] if ranking is not None else []
    for match in chosen:
        if match.found_by == "semantic" and (match.similarity or 0.0) < LOW_CONFIDENCE_SIMILARITY:
            match.low_confidence = True
    return chosen
