"""Search the whole library as one index: one ranked query whose statistics every document shares.

Pages holding every word of the query come first, from whichever documents hold them, ranked by
BM25 over the library; when fewer than `RELAX_BELOW` pages hold every word, pages holding all the
words but one follow (in mode auto only while a first page of results can show them all), then
pages holding some of them, scored by BM25 times the share of the words they hold (as in one
document's search). A document's place never depends on its name or on the order it was added in.

In mode auto the pages holding only some of the words are ordered by the same evidence as in one
document (`hybrid.keyword_first`): their words, the share of the question one paragraph holds,
and, for documents whose vectors exist, how far the page's meaning stands out among its own
document's pages. Each word of the question weighs by its rarity in the page's own document, as
there: a word on every page of a regulation says little of which page answers. A word that
another document among the pages holds weighs, in a document lacking it, as a word on none of its
pages, so every document's share is of the same question. Pages holding every word keep their
BM25 order.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass, field, replace

from whoosh.query import Query

from pdfdesk.index import embedding
from pdfdesk.index.backend import ALL_WORDS, SOME_WORDS, Hit, LibraryBackend, SectionHit
from pdfdesk.index.hybrid import MEANING_WEIGHT, keyword_first
from pdfdesk.index.library_backend import library_backend
from pdfdesk.index.paragraphs import question
from pdfdesk.index.query_parsing import word_parser
from pdfdesk.index.relaxing import (RELAX_BELOW, near_pool, near_queries, near_ranked_first, relaxed_query,
                                    strict_query)
from pdfdesk.index.store import PAGES, SECTIONS, _schema

PARTIAL_POOL = 3  # times the results asked for: pages holding some words that evidence may reorder

Key = tuple[str, int]  # (fingerprint, page)
# (fingerprint, query, pages) -> how far each page stands out in meaning among its document's own
# pages (empty when the document has no vectors)
Standouts = Callable[[str, str, list[int]], dict[int, float]]


@dataclass
class LibraryRanking:
    """Ranked hits and what the caller should say about them."""

    hits: list[Hit] = field(default_factory=list)
    strict_count: int = 0  # hits holding every word
    meaning: set[Key] = field(default_factory=set)  # hits whose meaning stood out as well
    related: dict[Key, frozenset[str]] = field(default_factory=dict)  # synonyms that counted, per hit


def parse(query: str) -> Query:
    return word_parser(["text"], _schema(PAGES)).parse(query)


def rank(query: str, limit: int, within: Container[str] | None = None,
         backend: LibraryBackend | None = None, standouts: Standouts | None = None,
         by_evidence: bool = False) -> LibraryRanking:
    """The best `limit` pages of the library for `query` (see the module docstring); with
    `by_evidence` (mode auto) the pages holding some of the words are ordered by their evidence."""
    backend = backend or library_backend()
    parsed = parse(query)
    ranking = LibraryRanking()
    strict = backend.search(strict_query(parsed), limit, within)
    ranking.hits = list(strict)
    ranking.strict_count = len(strict)
    if len(strict) >= RELAX_BELOW or len(ranking.hits) >= limit:
        return ranking
    seen = {(hit.fingerprint, hit.page) for hit in ranking.hits}
    found = set(seen)
    near: list[Hit] = []
    left_out = near_queries(parsed)
    for hit in backend.search_near(left_out, near_pool(limit) + len(seen), within) if left_out else []:
        if (hit.fingerprint, hit.page) not in found:
            found.add((hit.fingerprint, hit.page))
            near.append(Hit(hit.fingerprint, hit.page, hit.score, SOME_WORDS, 0.0))
    weighed = by_evidence and not near_ranked_first(len(near))  # among the pages holding some words
    if not weighed:
        seen, ranking.hits = found, ranking.hits + near
    if len(ranking.hits) < limit:
        partial = [hit for hit in _partial(parsed, backend, limit * PARTIAL_POOL if by_evidence else limit * 2, within)
                   if (hit.fingerprint, hit.page) not in seen]
        if by_evidence and partial:
            return _by_evidence(query, ranking, partial, limit, backend, standouts)
        ranking.hits += partial or (near if weighed else [])
    ranking.hits = ranking.hits[:limit]
    return ranking


def _by_evidence(query: str, ranking: LibraryRanking, partial: list[Hit], limit: int, backend: LibraryBackend,
                 standouts: Standouts | None) -> LibraryRanking:
    """Pages holding every word (and those missing one) as ranked, then the pages holding some
    words by their words, paragraphs and meaning."""
    by_key = {(hit.fingerprint, hit.page): hit for hit in ranking.hits + partial}
    pages: dict[str, list[int]] = {}
    for hit in partial:
        pages.setdefault(hit.fingerprint, []).append(hit.page)
    reads = embedding.reads(query)
    asked = question(query, reads)
    frequencies = {fingerprint: backend.page_frequencies(fingerprint, asked.looked_up) for fingerprint in pages}
    held = {term for _pages, counts in frequencies.values() for term in asked.looked_up if counts.get(term, 0) > 0}
    together: dict[Key, float] = {}
    standout: dict[Key, float] = {}
    for fingerprint, numbers in pages.items():
        shares, shown = asked.shares(fingerprint, numbers, frequencies[fingerprint], counted=held)
        for number, share in shares.items():
            together[(fingerprint, number)] = share
            if shown:
                ranking.related[(fingerprint, number)] = shown
        if standouts is not None:
            for number, value in standouts(fingerprint, query, numbers).items():
                standout[(fingerprint, number)] = value
    words = [((hit.fingerprint, hit.page), hit.score) for hit in partial]
    weight = MEANING_WEIGHT * reads if standout else 0.0
    ordered = keyword_first([(hit.fingerprint, hit.page) for hit in ranking.hits], words, [], limit, standout, together,
                            weight)
    ranking.hits = [by_key[key] for key, _ in ordered]
    ranking.meaning = {key for key, found_by in ordered if found_by == "both"}
    return ranking


def _partial(parsed: Query, backend: LibraryBackend, limit: int, within: Container[str] | None) -> list[Hit]:
    """Pages holding some of the words (the backend scores them by the share they hold)."""
    relaxed = relaxed_query(parsed, lambda _field, term: backend.holds(term))
    return [] if relaxed is None else backend.search_partial(relaxed, limit, within)


def rank_sections(query: str, limit: int, within: Container[str] | None = None,
                  backend: LibraryBackend | None = None) -> list[SectionHit]:
    """The best sections of the library: those whose title holds every word first (a user typing a
    heading means that section), then those holding every word in title or text, ranked by BM25
    with titles weighted; sections holding some of the words follow when few hold them all."""
    backend = backend or library_backend()
    parsed = word_parser(["title", "text"], _schema(SECTIONS)).parse(query)
    titled = word_parser(["title"], _schema(SECTIONS)).parse(query)
    found: list[SectionHit] = []
    seen: set[tuple[str, int]] = set()

    def take(hits: list[SectionHit], match: str = ALL_WORDS) -> None:
        for hit in hits:
            if (hit.fingerprint, hit.number) not in seen:
                seen.add((hit.fingerprint, hit.number))
                found.append(replace(hit, match=match))

    take(backend.search_sections(strict_query(titled), limit, within, title_only=True))
    take(backend.search_sections(strict_query(parsed), limit, within))
    if len(found) < RELAX_BELOW:
        relaxed = relaxed_query(parsed, lambda _field, term: backend.holds(term))
        if relaxed is not None:
            take(backend.search_sections(relaxed, limit, within), SOME_WORDS)
    return found[:limit]


__all__ = ["ALL_WORDS", "SOME_WORDS", "LibraryRanking", "parse", "rank", "rank_sections"]
