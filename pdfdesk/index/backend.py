"""What a library index is, whatever keeps it: the typed seam between library search and storage.

The library search (`library_search`) asks one ranked query of every document at once, so pages
of all documents are scored with the same statistics; how the pages are stored and scored is the
backend's business. The embedded default keeps them in SQLite's FTS5 (`library_fts`); a team
database is another implementation of the same protocol.

Queries arrive as the parsed query tree of `query_parsing` (the one query language, shared with
the per-document index), so both kinds of index read a typed query the same way.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from whoosh.query import Query

from pdfdesk.index.page_text import SectionText

ALL_WORDS, SOME_WORDS, MEANING = "all", "partial", "meaning"


@dataclass(frozen=True)
class Hit:
    """One ranked page of one document. `match` says why it is here: every word of the query
    (ALL_WORDS), only some of them (SOME_WORDS, `words_held` the share held), or meaning alone."""

    fingerprint: str
    page: int
    score: float
    match: str = ALL_WORDS
    words_held: float = 1.0


@dataclass(frozen=True)
class SectionHit:
    """One ranked section of one document (an outline entry or a detected heading)."""

    fingerprint: str
    start_page: int
    end_page: int
    level: int
    title: str
    path: str
    number: int
    score: float
    match: str = ALL_WORDS


@dataclass(frozen=True)
class DocumentHit:
    """One document holding every word of a query on some page: its best page's score, how many
    of its pages match, and its best pages (best first, at most `BEST_PAGES`)."""

    fingerprint: str
    score: float
    pages_matching: int
    best_pages: tuple[int, ...]


BEST_PAGES = 5


@dataclass(frozen=True)
class BackendState:
    """How much the index holds."""

    documents: int
    pages: int


class LibraryBackend(Protocol):
    """Pages of many documents in one index, added and removed a document at a time."""

    def add_documents(self, documents: Iterable[tuple[str, Sequence[tuple[int, str]]]]) -> int:
        """Add (or replace) each (fingerprint, [(page, text), ...]); returns pages added."""
        ...

    def remove_documents(self, fingerprints: Iterable[str]) -> None:
        ...

    def fingerprints(self) -> set[str]:
        """Every document the index holds."""
        ...

    def search(self, query: Query, limit: int, within: Container[str] | None = None) -> list[Hit]:
        """The best `limit` pages matching `query`, best first; `within` keeps only those documents."""
        ...

    def search_documents(self, query: Query) -> list[DocumentHit]:
        """Every document with a page matching `query` (complete, in no particular order)."""
        ...

    def search_near(self, near: list[Query], limit: int, within: Container[str] | None = None) -> list[Hit]:
        """The best `limit` pages matching any of `near` (a query once per word left out), each
        scored as by the query it matches; pages matching every one of them may come too."""
        ...

    def search_partial(self, relaxed: Query, limit: int, within: Container[str] | None = None) -> list[Hit]:
        """Pages holding some of a relaxed query's words, by their score times the share held."""
        ...

    def replace_sections(self, fingerprint: str, sections: list[SectionText]) -> None:
        """Keep a document's sections, searchable once the index holds the document."""
        ...

    def search_sections(self, query: Query, limit: int, within: Container[str] | None = None,
                        title_only: bool = False) -> list[SectionHit]:
        """The best `limit` sections matching `query` (in their titles alone with `title_only`)."""
        ...

    def holds(self, term: str) -> bool:
        """Whether any page holds this index term (a query built around the words present)."""
        ...

    def page_frequencies(self, fingerprint: str, terms: Iterable[str]) -> tuple[int, dict[str, int]]:
        """(the document's pages, how many of them hold each term): how rare a word is in it."""
        ...

    def state(self) -> BackendState:
        ...
