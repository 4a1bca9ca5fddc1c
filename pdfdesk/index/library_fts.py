"""The library's full-text index in SQLite FTS5: every page of every library document in one table.

Why not one more Whoosh index: measured on 20,000 generated pages (350 words each, a Zipf
vocabulary of 40,000 words) on this 2-core machine, one Whoosh index answered four-word queries in
32 ms (p50) / 191 ms (p95) and their relaxed form in 471 / 937 ms, and built 283 pages/s; FTS5 with
the same analyzer answered in 1.7 / 7.7 ms and 25 / 44 ms and built 1,100 pages/s. Whoosh scores
every posting in Python; FTS5 does it in C. The per-document index stays Whoosh.

FTS5 does not know pdfdesk's analyzer, so pages are analysed first (library_fts_query.py: each
term an ASCII token, and a query an FTS5 expression). A page is three columns, so that phrases
keep working: `words` (one term per position: a phrase of a split word's parts finds them in a
row), `joined` (the joined form of a split word, at the same place in the text) and `grams` (the
letter trigrams an Arabic-script word is also asked for by).

The table is contentless (the text lives in the page-text record); each row's tokens are kept,
compressed, beside it, because FTS5 needs them to delete the row. A document's pages take
consecutive row ids, so one document's rows are a range.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Container, Iterable, Sequence

from whoosh.query import (
    AndNot,
    Query,
)

from pdfdesk.index.backend import ALL_WORDS, BEST_PAGES, SOME_WORDS, BackendState, DocumentHit, Hit, SectionHit
from pdfdesk.index.library_fts_query import PageTokens, Untranslatable, fts_expression, page_columns, token
from pdfdesk.index.database import Database, aggregate, collection_database, first_row, register_schema
from pdfdesk.index.page_text import SectionText, stored_sections, write_sections
from pdfdesk.index.relaxed_scoring import WordsOr
from pdfdesk.index.store import INDEX_VERSION

def _create(connection: sqlite3.Connection) -> None:
    connection.executescript("""
        CREATE TABLE IF NOT EXISTS lib_docs (
            id INTEGER PRIMARY KEY, fingerprint TEXT UNIQUE NOT NULL, version INTEGER NOT NULL,
            first_row INTEGER NOT NULL, pages INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS lib_rows (
            row INTEGER PRIMARY KEY, doc INTEGER NOT NULL, page INTEGER NOT NULL, tokens BLOB NOT NULL);
        CREATE INDEX IF NOT EXISTS lib_rows_doc ON lib_rows (doc);
        CREATE VIRTUAL TABLE IF NOT EXISTS lib_fts USING fts5(
            words, joined, grams, content='', tokenize='ascii', detail=full);
        CREATE TABLE IF NOT EXISTS lib_sections (
            row INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL, number INTEGER NOT NULL, start_page INTEGER NOT NULL,
            end_page INTEGER NOT NULL, level INTEGER NOT NULL, title TEXT NOT NULL, path TEXT NOT NULL,
            tokens BLOB NOT NULL);
        CREATE INDEX IF NOT EXISTS lib_sections_fingerprint ON lib_sections (fingerprint);
        CREATE VIRTUAL TABLE IF NOT EXISTS lib_sections_fts USING fts5(
            title, words, joined, grams, content='', tokenize='ascii', detail=full);
    """)


register_schema("library_fts", _create)


PARTIAL_CANDIDATES = 100  # pages holding some words (best by BM25 of any word) scored for how many they hold
SECTION_TITLE_WEIGHT = 2.0  # a query's words in a section's title count twice, as in a document's own index


class SqliteLibrary:
    """The embedded library index (see the module docstring); a `LibraryBackend`."""

    def __init__(self, database: Database | None = None) -> None:
        self.database = database or collection_database()

    # -- writing ---------------------------------------------------------------------------------
    def add_documents(self, documents: Iterable[tuple[str, Sequence[tuple[int, str]]]]) -> int:
        """Add each document's pages, replacing what the index held for it; one transaction for
        all of them, so a kill leaves each document wholly in or wholly out."""
        prepared = [(fingerprint, [(number, page_columns(text)) for number, text in pages])
                    for fingerprint, pages in documents]
        added = 0
        with self.database.writing() as db:
            for fingerprint, pages in prepared:
                self._remove(db, fingerprint)
                (top,) = aggregate(db.execute("SELECT COALESCE(MAX(row), 0) FROM lib_rows"))
                first = top + 1
                cursor = db.execute("INSERT INTO lib_docs (fingerprint, version, first_row, pages) VALUES (?, ?, ?, ?)",
                                    (fingerprint, INDEX_VERSION, first, len(pages)))
                doc = cursor.lastrowid
                rows = [(first + i, number, columns) for i, (number, columns) in enumerate(pages)]
                db.executemany("INSERT INTO lib_rows (row, doc, page, tokens) VALUES (?, ?, ?, ?)",
                               [(row, doc, number, zlib.compress("\n".join(columns).encode(), 1))
                                for row, number, columns in rows])
                db.executemany("INSERT INTO lib_fts (rowid, words, joined, grams) VALUES (?, ?, ?, ?)",
                               [(row, *columns) for row, _number, columns in rows])
                self._add_sections(db, fingerprint, stored_sections(db, fingerprint))
                added += len(rows)
        return added

    def replace_page(self, fingerprint: str, number: int, text: str) -> bool:
        """Give one page of a document the library holds new text (a scanned page just
        recognised), in one transaction; False when the library does not hold that page."""
        columns = page_columns(text)
        with self.database.writing() as db:
            found = first_row(db.execute(
                "SELECT r.row, r.tokens FROM lib_rows r JOIN lib_docs d ON d.id = r.doc "
                "WHERE d.fingerprint = ? AND r.page = ?", (fingerprint, number)))
            if found is None:
                return False
            row, blob = found
            old = zlib.decompress(blob).decode().split("\n")
            db.execute("INSERT INTO lib_fts (lib_fts, rowid, words, joined, grams) VALUES ('delete', ?, ?, ?, ?)",
                       (row, *old))
            db.execute("INSERT INTO lib_fts (rowid, words, joined, grams) VALUES (?, ?, ?, ?)", (row, *columns))
            db.execute("UPDATE lib_rows SET tokens = ? WHERE row = ?",
                       (zlib.compress("\n".join(columns).encode(), 1), row))
        return True

    def replace_sections(self, fingerprint: str, sections: list[SectionText]) -> None:
        """Keep a document's sections (split by its own index build) and, when the library holds
        the document, make them searchable there; one transaction."""
        with self.database.writing() as db:
            write_sections(db, fingerprint, sections)
            held = first_row(db.execute("SELECT 1 FROM lib_docs WHERE fingerprint = ?", (fingerprint,)))
            self._remove_sections(db, fingerprint)
            if held is not None:
                self._add_sections(db, fingerprint, sections)

    def _add_sections(self, db: sqlite3.Connection, fingerprint: str, sections: list[SectionText]) -> None:
        for section in sections:
            columns = (" ".join(c for c in page_columns(section.title) if c), *page_columns(section.text))
            cursor = db.execute(
                "INSERT INTO lib_sections (fingerprint, number, start_page, end_page, level, title, path, tokens) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (fingerprint, section.number, section.start_page, section.end_page, section.level, section.title,
                 section.path, zlib.compress("\n".join(columns).encode(), 1)))
            db.execute("INSERT INTO lib_sections_fts (rowid, title, words, joined, grams) VALUES (?, ?, ?, ?, ?)",
                       (cursor.lastrowid, *columns))

    def _remove_sections(self, db: sqlite3.Connection, fingerprint: str) -> None:
        for number, blob in db.execute("SELECT row, tokens FROM lib_sections WHERE fingerprint = ?",
                                       (fingerprint,)).fetchall():
            columns = zlib.decompress(blob).decode().split("\n")
            db.execute("INSERT INTO lib_sections_fts (lib_sections_fts, rowid, title, words, joined, grams) "
                       "VALUES ('delete', ?, ?, ?, ?, ?)", (number, *columns))
        db.execute("DELETE FROM lib_sections WHERE fingerprint = ?", (fingerprint,))

    def remove_documents(self, fingerprints: Iterable[str]) -> None:
        with self.database.writing() as db:
            for fingerprint in fingerprints:
                self._remove(db, fingerprint)

    def _remove(self, db: sqlite3.Connection, fingerprint: str) -> None:
        row = first_row(db.execute("SELECT id FROM lib_docs WHERE fingerprint = ?", (fingerprint,)))
        if row is None:
            return
        for number, blob in db.execute("SELECT row, tokens FROM lib_rows WHERE doc = ?", (row[0],)).fetchall():
            columns = zlib.decompress(blob).decode().split("\n")
            db.execute("INSERT INTO lib_fts (lib_fts, rowid, words, joined, grams) VALUES ('delete', ?, ?, ?, ?)",
                       (number, *columns))
        db.execute("DELETE FROM lib_rows WHERE doc = ?", (row[0],))
        db.execute("DELETE FROM lib_docs WHERE id = ?", (row[0],))
        self._remove_sections(db, fingerprint)

    def optimize(self) -> None:
        """Merge the index's segments into one (after a large build: queries then read one b-tree)."""
        with self.database.writing() as db:
            db.execute("INSERT INTO lib_fts (lib_fts) VALUES ('optimize')")

    # -- reading ---------------------------------------------------------------------------------
    def fingerprints(self) -> set[str]:
        """Documents held, made by the current analyzer (others count as missing, to be redone)."""
        try:
            with self.database.reading() as db:
                return {f for (f,) in db.execute("SELECT fingerprint FROM lib_docs WHERE version = ?",
                                                 (INDEX_VERSION,))}
        except OSError:
            return set()

    def state(self) -> BackendState:
        try:
            with self.database.reading() as db:
                documents, pages = aggregate(db.execute("SELECT COUNT(*), COALESCE(SUM(pages), 0) FROM lib_docs"))
        except OSError:
            return BackendState(0, 0)
        return BackendState(int(documents), int(pages))

    def holds(self, term: str) -> bool:
        try:
            with self.database.reading() as db:
                return first_row(db.execute("SELECT 1 FROM lib_fts WHERE lib_fts MATCH ? LIMIT 1",
                                  (token(term),))) is not None
        except (OSError, sqlite3.Error):
            return False

    def page_frequencies(self, fingerprint: str, terms: Iterable[str]) -> tuple[int, dict[str, int]]:
        """(the document's pages, how many of them hold each term). A document's pages are rows
        first_row.. in a run, so each count reads that run of the term's postings alone."""
        wanted = list(dict.fromkeys(terms))
        try:
            with self.database.reading() as db:
                row = first_row(db.execute("SELECT first_row, pages FROM lib_docs WHERE fingerprint = ?",
                                           (fingerprint,)))
                if row is None:
                    return 0, {}
                first, pages = row
                held = {term: aggregate(db.execute(
                            "SELECT COUNT(*) FROM lib_fts WHERE lib_fts MATCH ? AND rowid BETWEEN ? AND ?",
                            (token(term), first, first + pages - 1)))[0] for term in wanted}
        except (OSError, sqlite3.Error):
            return 0, {}
        return int(pages), {term: int(count) for term, count in held.items()}

    def search(self, query: Query, limit: int, within: Container[str] | None = None) -> list[Hit]:
        """The best pages by BM25 over the whole library (statistics shared by every document)."""
        try:
            expression = fts_expression(query)
        except Untranslatable:
            return []
        return [Hit(fingerprint, page, score, ALL_WORDS) for fingerprint, page, score in
                self._ranked(expression, limit, within)]

    def _ranked(self, expression: str, limit: int,
               within: Container[str] | None = None) -> list[tuple[str, int, float]]:
        """(fingerprint, page, score) of the best rows matching an FTS5 expression."""
        fetch = limit if within is None else limit * 4
        try:
            while True:
                found = self._ranked_rows(expression, fetch)
                places = self._places([row for row, _ in found])
                kept = [(*places[row], score) for row, score in found
                        if row in places and (within is None or places[row][0] in within)]
                if len(kept) >= limit or len(found) < fetch:
                    return kept[:limit]
                fetch *= 4
        except OSError:
            return []

    def search_documents(self, query: Query) -> list[DocumentHit]:
        """Every document with a page matching `query`, grouped in SQL: FTS5 scores each matching
        page by BM25 over the whole library and only each document's best pages reach Python, so
        1,000 matching documents cost one query rather than thousands of page rows."""
        try:
            expression = fts_expression(query)
        except Untranslatable:
            return []
        found: dict[str, tuple[float, int, list[int]]] = {}
        try:
            with self.database.reading() as db:
                rows = db.execute(
                    "SELECT d.fingerprint, x.page, x.score, x.pages FROM ("
                    " SELECT r.doc AS doc, r.page AS page, -h.rank AS score,"
                    "  ROW_NUMBER() OVER (PARTITION BY r.doc ORDER BY h.rank, r.page) AS n,"
                    "  COUNT(*) OVER (PARTITION BY r.doc) AS pages"
                    " FROM (SELECT rowid AS row, bm25(lib_fts) AS rank FROM lib_fts WHERE lib_fts MATCH ?) h"
                    " JOIN lib_rows r ON r.row = h.row) x "
                    "JOIN lib_docs d ON d.id = x.doc WHERE x.n <= ? ORDER BY x.doc, x.n",
                    (expression, BEST_PAGES)).fetchall()
        except (OSError, sqlite3.OperationalError):
            return []
        for fingerprint, page, score, pages in rows:
            held = found.setdefault(fingerprint, (float(score), int(pages), []))
            held[2].append(int(page))
        return [DocumentHit(fingerprint, best, pages, tuple(numbers))
                for fingerprint, (best, pages, numbers) in found.items()]

    def search_near(self, near: list[Query], limit: int, within: Container[str] | None = None) -> list[Hit]:
        """Each query in turn (FTS5 answers one quickly), the best score of a page kept."""
        best: dict[tuple[str, int], Hit] = {}
        for query in near:
            for hit in self.search(query, limit, within):
                key = (hit.fingerprint, hit.page)
                if key not in best or hit.score > best[key].score:
                    best[key] = hit
        return sorted(best.values(), key=lambda hit: -hit.score)[:limit]

    def search_partial(self, relaxed: Query, limit: int, within: Container[str] | None = None) -> list[Hit]:
        """Pages holding some of a relaxed query's words: the best PARTIAL_CANDIDATES by BM25 of
        any word, each scored by its BM25 times the share of the words it holds (as a document's
        own index scores a relaxed query)."""
        try:
            expression = fts_expression(relaxed)
            candidates = self._ranked_rows(expression, max(PARTIAL_CANDIDATES, limit))
            words = _words_of(relaxed)
            held = self._words_held([row for row, _ in candidates], words)
            places = self._places([row for row, _ in candidates])
        except (Untranslatable, OSError):
            return []
        asked = max(1, len(words))
        scored = sorted(((score * min(1.0, held[row] / asked), row) for row, score in candidates),
                        key=lambda item: -item[0])
        hits: list[Hit] = []
        for score, row in scored:
            if row in places and (within is None or places[row][0] in within):
                hits.append(Hit(*places[row], score, SOME_WORDS, round(held[row] / asked, 3)))
            if len(hits) >= limit:
                break
        return hits

    def search_sections(self, query: Query, limit: int, within: Container[str] | None = None,
                        title_only: bool = False) -> list[SectionHit]:
        """The best sections by BM25 over title and text (a title's words count twice, as in a
        document's own section index); `title_only` asks the titles alone."""
        try:
            expression = fts_expression(query)
        except Untranslatable:
            return []
        if title_only:
            expression = f"title : ({expression})"
        fetch = limit if within is None else limit * 4
        try:
            with self.database.reading() as db:
                while True:
                    found = db.execute(
                        "SELECT s.fingerprint, s.start_page, s.end_page, s.level, s.title, s.path, s.number, "
                        f"-bm25(lib_sections_fts, {SECTION_TITLE_WEIGHT}, 1.0, 1.0, 1.0) AS score "
                        "FROM lib_sections_fts JOIN lib_sections s ON s.row = lib_sections_fts.rowid "
                        "WHERE lib_sections_fts MATCH ? ORDER BY bm25(lib_sections_fts, "
                        f"{SECTION_TITLE_WEIGHT}, 1.0, 1.0, 1.0) LIMIT ?", (expression, fetch)).fetchall()
                    kept = [SectionHit(*row) for row in found if within is None or row[0] in within]
                    if len(kept) >= limit or len(found) < fetch:
                        return kept[:limit]
                    fetch *= 4
        except (OSError, sqlite3.OperationalError):
            return []

    def _words_held(self, rows: Sequence[int], words: Sequence[Query]) -> dict[int, int]:
        """How many of `words` (each a query: a word and its other forms) each row holds, read from
        the rows' stored tokens: asking FTS5 per word reads the word's whole posting list."""
        held = dict.fromkeys(rows, 0)
        if not rows:
            return held
        with self.database.reading() as db:
            found = db.execute(f"SELECT row, tokens FROM lib_rows WHERE row IN ({','.join('?' * len(rows))})",
                               tuple(rows)).fetchall()
        for row, blob in found:
            columns = [column.split() for column in zlib.decompress(blob).decode().split("\n")]
            page = PageTokens(*columns[:3])
            held[row] = sum(1 for word in words if page.holds(word))
        return held

    def _ranked_rows(self, expression: str, limit: int) -> list[tuple[int, float]]:
        """(row id, score) of the best rows matching an expression, best first (none for an
        expression FTS5 refuses). Raises OSError when the database cannot be read."""
        try:
            with self.database.reading() as db:
                return [(row, float(score)) for row, score in db.execute(
                    "SELECT rowid, -bm25(lib_fts) FROM lib_fts WHERE lib_fts MATCH ? ORDER BY bm25(lib_fts) LIMIT ?",
                    (expression, limit)).fetchall()]
        except sqlite3.OperationalError:
            return []

    def _places(self, rows: Sequence[int]) -> dict[int, tuple[str, int]]:
        """(fingerprint, page) of each row id."""
        if not rows:
            return {}
        with self.database.reading() as db:
            return {row: (fingerprint, page) for row, fingerprint, page in db.execute(
                "SELECT lib_rows.row, lib_docs.fingerprint, lib_rows.page FROM lib_rows "
                f"JOIN lib_docs ON lib_docs.id = lib_rows.doc WHERE lib_rows.row IN ({','.join('?' * len(rows))})",
                tuple(rows))}


def _words_of(relaxed: Query) -> list[Query]:
    """Each word of a relaxed query with its other forms (the parts a page may hold some of)."""
    if isinstance(relaxed, AndNot):
        relaxed = relaxed.a
    return list(relaxed.subqueries) if isinstance(relaxed, WordsOr) else [relaxed]
