"""Search the whole library as one index: one ranked query whose statistics every document shares.

Pages holding every word of the query come first, from whichever documents hold them, ranked by
BM25 over the library; when fewer than `RELAX_BELOW` pages hold every word, pages holding all the
words but one follow, then pages holding some of them, scored by BM25 times the share of the words
they hold (as in one document's search). A document's place never depends on its name or on the
order it was added in.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field, replace

from whoosh.query import Query

from pdfdesk.index.backend import ALL_WORDS, SOME_WORDS, Hit, LibraryBackend, SectionHit
from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.index.query_parsing import word_parser
from pdfdesk.index.relaxing import near_queries, relaxed_query, strict_query
from pdfdesk.index.store import PAGES, SECTIONS, _schema

RELAX_BELOW = 3


@dataclass
class LibraryRanking:
    """Ranked hits and what the caller should say about them."""

    hits: list[Hit] = field(default_factory=list)
    strict_count: int = 0  # hits holding every word


def parse(query: str) -> Query:
    return word_parser(["text"], _schema(PAGES)).parse(query)


def rank(query: str, limit: int, within: Container[str] | None = None,
         backend: LibraryBackend | None = None) -> LibraryRanking:
    """The best `limit` pages of the library for `query` (see the module docstring)."""
    backend = backend or SqliteLibrary()
    parsed = parse(query)
    ranking = LibraryRanking()
    strict = backend.search(strict_query(parsed), limit, within)
    ranking.hits = list(strict)
    ranking.strict_count = len(strict)
    if len(strict) >= RELAX_BELOW or len(ranking.hits) >= limit:
        return ranking
    seen = {(hit.fingerprint, hit.page) for hit in ranking.hits}
    near: list[Hit] = []
    for query_left_out in near_queries(parsed):
        for hit in backend.search(query_left_out, limit, within):
            if (hit.fingerprint, hit.page) not in seen:
                seen.add((hit.fingerprint, hit.page))
                near.append(Hit(hit.fingerprint, hit.page, hit.score, SOME_WORDS, 0.0))
    near.sort(key=lambda hit: -hit.score)
    ranking.hits += near
    if len(ranking.hits) < limit:
        ranking.hits += [hit for hit in _partial(parsed, backend, limit * 2, within)
                         if (hit.fingerprint, hit.page) not in seen]
    ranking.hits = ranking.hits[:limit]
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
    backend = backend or SqliteLibrary()
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
