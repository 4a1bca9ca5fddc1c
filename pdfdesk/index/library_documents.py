"""Which documents hold a query: every document with a page holding every word, complete and ranked.

A question such as "which contracts mention arbitration" wants the whole list, not the ten best
pages: a term on 40 pages of one manual would crowd every other document out of a page ranking.
So matching here is the library search's strict keyword match (every word, stemmed; phrases, OR,
NOT, prefix*), grouped by document in SQL (`SqliteLibrary.search_documents`), and a document ranks
by its best page's BM25 over the library, then by how many of its pages match, then by name, so
the order is stable from one page of results to the next.

One document (a path) is answered from its page texts: the pages whose tokens hold the strict
query, ordered by the document's own keyword ranking.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field

from pdfdesk.index.backend import BEST_PAGES, DocumentHit, LibraryBackend
from pdfdesk.index.catalogue import INDEXED, Catalogue
from pdfdesk.index.library_backend import library_backend
from pdfdesk.index.library_fts_query import PageTokens, page_columns
from pdfdesk.index.library_search import parse
from pdfdesk.index.page_text import stored_texts
from pdfdesk.index.query_terms import parse_terms
from pdfdesk.index.relaxing import strict_query
from pdfdesk.index.team_library import TeamLibrary

MAX_DOCUMENTS = 1000  # documents one call may list (paging goes on past it)


@dataclass
class DocumentPage:
    """One page of the ranked list of documents, and where the next page starts (None: the end);
    `places` gives each listed document's (name, path) in the catalogue."""

    documents: list[DocumentHit] = field(default_factory=list)
    total: int = 0
    offset: int = 0
    next_offset: int | None = None
    places: dict[str, tuple[str, str]] = field(default_factory=dict)


def ranked(hits: list[DocumentHit], names: Mapping[str, str] | None = None) -> list[DocumentHit]:
    """Best page's score first, then the documents with more matching pages, then by name (and
    fingerprint): a total order, so paging never repeats or skips a document."""
    names = names or {}
    return sorted(hits, key=lambda hit: (-round(hit.score, 9), -hit.pages_matching,
                                         names.get(hit.fingerprint, "").casefold(), hit.fingerprint))


def catalogued(fingerprints: list[str], backend: LibraryBackend) -> dict[str, tuple[str, str]]:
    """(name, path) of each of these documents the catalogue lists as indexed (the first added,
    when a file is listed twice): read for the matching documents alone, not the whole catalogue."""
    database = getattr(backend, "database", None) or Catalogue().database
    found: dict[str, tuple[str, str]] = {}
    try:
        with database.reading() as db:
            for start in range(0, len(fingerprints), 500):
                chunk = fingerprints[start:start + 500]
                rows = db.execute(f"SELECT fingerprint, name, path FROM catalogue WHERE status = ? AND fingerprint IN "
                                  f"({','.join('?' * len(chunk))}) ORDER BY added DESC, path DESC",
                                  (INDEXED, *chunk)).fetchall()
                found.update((fingerprint, (name, path)) for fingerprint, name, path in rows)
    except (OSError, sqlite3.Error):
        return {}
    return found


# The matching documents of the last few queries, while the database is unchanged: paging through
# a long list asks the same query again for each page.
_CACHED_QUERIES = 8
_cache: OrderedDict[tuple[object, ...], tuple[list[DocumentHit], dict[str, tuple[str, str]]]] = OrderedDict()
_cache_lock = threading.Lock()


def _state(backend: LibraryBackend) -> tuple[object, ...] | None:
    """What changes whenever the database does: another connection's commit changes its
    data_version, this connection's own writes its total_changes (None: not to be cached)."""
    database = getattr(backend, "database", None)
    if database is None:
        return None
    try:
        with database.reading() as db:
            (version,) = db.execute("PRAGMA data_version").fetchone()
            return str(database.path), getattr(database, "_generation", 0), id(db), version, db.total_changes
    except (OSError, sqlite3.Error):
        return None


def _matching(query: str, backend: LibraryBackend) -> tuple[list[DocumentHit], dict[str, tuple[str, str]]]:
    """Every document holding the query, and the catalogue's (name, path) of those it lists."""
    state = _state(backend)
    key = None if state is None else (*state, query)
    if key is not None:
        with _cache_lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
    found = backend.search_documents(strict_query(parse(query)))
    places = catalogued([hit.fingerprint for hit in found], backend)
    if isinstance(backend, TeamLibrary):  # a teammate's document this computer has no copy of: its name
        places = {**{f: (name, "") for f, name in backend.names([h.fingerprint for h in found]).items()}, **places}
    if key is not None:
        with _cache_lock:
            _cache[key] = (found, places)
            while len(_cache) > _CACHED_QUERIES:
                _cache.popitem(last=False)
    return found, places


def forget() -> None:
    """Forget the recent queries' matching documents (a benchmark times the query itself)."""
    with _cache_lock:
        _cache.clear()


def documents(query: str, offset: int = 0, limit: int = 100, within: Container[str] | None = None,
              backend: LibraryBackend | None = None, admit: Callable[[str], bool] | None = None) -> DocumentPage:
    """Documents `offset`..`offset + limit` of every library document holding the query that the
    catalogue lists as indexed, and `within` holds (when given), and whose path `admit` lets in."""
    backend = backend or library_backend()
    found, places = _matching(query, backend)
    kept = [hit for hit in found if hit.fingerprint in places and (within is None or hit.fingerprint in within)
            and (admit is None or not places[hit.fingerprint][1] or admit(places[hit.fingerprint][1]))]
    everything = ranked(kept, {fingerprint: name for fingerprint, (name, _path) in places.items()})
    offset = max(0, offset)
    limit = max(1, min(limit, MAX_DOCUMENTS))
    chosen = everything[offset:offset + limit]
    end = offset + len(chosen)
    return DocumentPage(chosen, len(everything), offset, end if end < len(everything) else None,
                        {hit.fingerprint: places[hit.fingerprint] for hit in chosen})


def document_hit(fingerprint: str, texts: Mapping[int, str], query: str,
                 order: Callable[[list[int]], list[tuple[int, float]]] | None = None) -> DocumentHit | None:
    """One document's pages holding the query's every word, read from its page texts (None when
    no page does); `order` ranks the matching pages (best first, with scores), else page order."""
    strict = strict_query(parse(query))
    matching = [number for number, text in sorted(texts.items())
                if PageTokens(*(column.split() for column in page_columns(text))).holds(strict)]
    if not matching:
        return None
    scored = [(n, s) for n, s in (order(matching) if order is not None else []) if n in set(matching)]
    seen = {n for n, _ in scored}
    best = [n for n, _ in scored] + [n for n in matching if n not in seen]
    return DocumentHit(fingerprint, scored[0][1] if scored else 0.0, len(matching), tuple(best[:BEST_PAGES]))


_SPACES = re.compile(r"\s+")


def excerpt(fingerprint: str, page: int, query: str, context: int = 80, text: str | None = None) -> str:
    """A short excerpt of the page around the query's first word (from the page-text record, so a
    list of a thousand documents opens no PDF); "" when the record lacks the page."""
    if text is None:
        text = stored_texts(fingerprint, page, page).get(page, "")
    if not text:
        return ""
    terms = parse_terms(query)
    lowered = text.lower()
    at = next((i for i in (lowered.find(n.lower()) for n in terms.needles + terms.prefixes) if i >= 0), 0)
    start, end = max(0, at - context), min(len(text), at + context)
    piece = _SPACES.sub(" ", text[start:end]).strip()
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")


__all__ = ["BEST_PAGES", "MAX_DOCUMENTS", "DocumentHit", "DocumentPage", "catalogued", "document_hit", "documents",
           "excerpt", "forget", "ranked"]
