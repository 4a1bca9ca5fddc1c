"""The team library: every page of every document of the reviewer's matters, searched in the team
database (PostgreSQL) as one index; a `LibraryBackend`.

Which pages a reviewer searches is decided in the database: a page is visible to whoever may see a
document with its fingerprint (row-level security on the tables; the schema's search functions,
which must bypass it for the GIN index to answer, apply the same rule). The statistics pages are
ranked by (the number of pages, their average length, each word's page count) are the reviewer's
own matters' (team_library_statistics), so a ranking says nothing about matters she is not in.

Ranking is BM25 (k1 1.2, b 0.75, FTS5's idf) as the embedded index ranks, computed in SQL in one
pass over the GIN index's matches (pdfdesk.search_pages; a word's count on a page recovered from
ts_rank of that word alone). bench/team_library_bench.py has the figures that chose it over
ts_rank, ts_rank_cd and BM25 with counts read from the tsvectors.

A relaxed search (pages holding some of the words, or all but one) does not score every page
holding a common word (team_library_relaxed).

Page text is keyed by fingerprint and shared: a document whose pages are in already is not indexed
again, whoever indexed it.
"""

from __future__ import annotations

import heapq
import math
import threading
from collections.abc import Container, Iterable, Sequence
from typing import Any

import psycopg

from whoosh.query import AndNot, Query

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index.backend import ALL_WORDS, BEST_PAGES, SOME_WORDS, BackendState, DocumentHit, Hit, SectionHit
from pdfdesk.index.library_fts_query import Untranslatable
from pdfdesk.index.page_text import SectionText
from pdfdesk.index.store import INDEX_VERSION
from pdfdesk.index.team_library_query import SCORED_PARTS, Leaf, leaves, lexeme, page_terms, tsquery, words_of
from pdfdesk.index.team_library_relaxed import near_pages, partial_candidates
from pdfdesk.index.team_library_statistics import B, K1, Statistics
from pdfdesk.team.connection import close_quietly, connect, database_error, is_connection_failure
from pdfdesk.team.settings import TeamTarget

PI2_6 = math.pi ** 2 / 6
PARTIAL_CANDIDATES = 100
SECTION_TITLE_WEIGHT = 2.0
RANKINGS = ("bm25", "bm25_exact", "ts_rank", "ts_rank_cd")
EXACT_POOL = 200  # pages bm25_exact rescores with counts read from their tsvectors


class TeamLibrary:
    """The team database's library index (see the module docstring)."""

    def __init__(self, target: TeamTarget | None = None, ranking: str = "bm25") -> None:
        if ranking not in RANKINGS:
            raise ValueError(f"ranking must be one of {RANKINGS}")
        self.target, self.ranking = target, ranking
        self._conn: psycopg.Connection | None = None
        self._lock = threading.RLock()
        self.stats = Statistics(self._run)
        self.pages_written = 0  # pages this instance inserted (what "not indexed again" is told by)

    # -- the connection --------------------------------------------------------------------------
    def _run(self, doing: str, sql: str, params: Sequence[Any] = (), many: bool = False) -> list[tuple[Any, ...]]:
        """One statement in its own transaction; a dropped connection is opened again once."""
        with self._lock:
            for attempt in (1, 2):
                if self._conn is None or self._conn.closed:
                    self._conn = connect(self.target)
                try:
                    with self._conn.transaction(), self._conn.cursor() as cur:
                        if many:
                            cur.executemany(sql, params)
                            return []
                        cur.execute(sql, params)
                        return cur.fetchall() if cur.description else []
                except psycopg.Error as exc:
                    if is_connection_failure(exc):
                        self.close()
                        if attempt == 1:
                            continue
                    raise database_error(exc, doing) from None
        return []

    def close(self) -> None:
        with self._lock:
            close_quietly(self._conn)
            self._conn = None

    def forget_statistics(self) -> None:
        self.stats.forget()

    # -- writing ---------------------------------------------------------------------------------
    def add_documents(self, documents: Iterable[tuple[str, Sequence[tuple[int, str]]]],
                      source: str = "text") -> int:
        """Add the pages of each document a matter this reviewer may write in holds and whose pages
        are not in yet; others are left alone (they are in already, or not the team's)."""
        added = 0
        for fingerprint, pages in documents:
            wanted = self._run("read the team library", """
                SELECT EXISTS (SELECT 1 FROM pdfdesk.documents WHERE fingerprint = %s
                               AND matter = ANY (pdfdesk.writable()))
                   AND NOT EXISTS (SELECT 1 FROM pdfdesk.library_documents WHERE fingerprint = %s)""",
                               (fingerprint, fingerprint))
            if not wanted or not wanted[0][0]:
                continue
            rows = []
            words = 0
            for number, text in pages:
                terms = page_terms(text)
                words += terms.length
                rows.append((fingerprint, number, text.replace("\x00", ""), source, terms.vector, terms.length))
            added += self._insert(fingerprint, rows, words)
        if added:
            self.forget_statistics()
        return added

    def _insert(self, fingerprint: str, rows: list[tuple[Any, ...]], words: int) -> int:
        with self._lock:
            if self._conn is None or self._conn.closed:
                self._conn = connect(self.target)
            try:
                with self._conn.transaction(), self._conn.cursor() as cur:
                    cur.execute("INSERT INTO pdfdesk.library_documents (fingerprint, pages, words, version) "
                                "VALUES (%s, %s, %s, %s) ON CONFLICT (fingerprint) DO NOTHING",
                                (fingerprint, len(rows), words, INDEX_VERSION))
                    if cur.rowcount != 1:
                        return 0  # a teammate's client put it in meanwhile
                    # COPY refuses a table under row-level security: copied into a temporary table,
                    # then inserted from it in one statement (the policies checked there)
                    cur.execute("CREATE TEMP TABLE IF NOT EXISTS incoming_pages (fingerprint text, page integer, "
                                "body text, source text, terms tsvector, length integer) ON COMMIT DELETE ROWS")
                    with cur.copy("COPY incoming_pages FROM STDIN") as copy:
                        for row in rows:
                            copy.write_row(row)
                    cur.execute("INSERT INTO pdfdesk.pages (fingerprint, page, body, source, terms, length) "
                                "SELECT * FROM incoming_pages")
            except psycopg.Error as exc:
                if is_connection_failure(exc):
                    self.close()
                raise database_error(exc, "add pages to the team library") from None
        self.pages_written += len(rows)
        return len(rows)

    def replace_page(self, fingerprint: str, number: int, text: str, source: str = "ocr") -> bool:
        """Give one page new text (a scanned page just recognised); False when the team library
        does not hold it (or this reviewer may not change it)."""
        terms = page_terms(text)
        rows = self._run("change a page of the team library", """
            UPDATE pdfdesk.pages SET body = %s, terms = %s::tsvector, length = %s, source = %s
            WHERE fingerprint = %s AND page = %s RETURNING 1""",
                         (text.replace("\x00", ""), terms.vector, terms.length, source, fingerprint, number))
        self.forget_statistics()
        return bool(rows)

    def replace_sections(self, fingerprint: str, sections: list[SectionText]) -> None:
        """Keep a document's sections when this reviewer may write a matter holding it."""
        writable = self._run("read the team library", "SELECT EXISTS (SELECT 1 FROM pdfdesk.documents "
                             "WHERE fingerprint = %s AND matter = ANY (pdfdesk.writable()))", (fingerprint,))
        if not writable or not writable[0][0]:
            return
        self._run("change the team library's sections", "DELETE FROM pdfdesk.sections WHERE fingerprint = %s",
                  (fingerprint,))
        rows = []
        for s in sections:
            text, title = page_terms(s.text), page_terms(s.title)
            rows.append((fingerprint, s.number, s.start_page, s.end_page, s.level, s.title, s.path,
                         text.vector, title.vector, text.length))
        if rows:
            self._run("add the team library's sections", """
                INSERT INTO pdfdesk.sections (fingerprint, number, start_page, end_page, level, title, path,
                                              terms, title_terms, length)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s::tsvector, %s::tsvector, %s) ON CONFLICT DO NOTHING""",
                      rows, many=True)

    def remove_documents(self, fingerprints: Iterable[str]) -> None:
        """Drop the pages no matter holds any more (a document taken out of its last matter);
        pages another matter still holds stay, for its reviewers."""
        wanted = list(fingerprints)
        if wanted:
            self._run("remove pages from the team library", "SELECT pdfdesk.forget_pages(%s)", (wanted,))
            self.forget_statistics()

    # -- statistics ------------------------------------------------------------------------------
    def idfs(self, parts: list[Leaf], table: str = "pages") -> list[float]:
        """FTS5's BM25 idf of each part over the visible pages (or sections)."""
        if table == "pages":
            return self.stats.idfs(parts)
        return [self.stats.idf(n) for n in self.stats.section_counts([p.tsquery for p in parts])]

    def _score(self, parts: list[Leaf], idfs: list[float], column: str = "terms",
               weight: float = 1.0) -> tuple[str, list[Any]]:
        """The SQL of a page's score under this library's ranking, and its parameters."""
        _, average = self.stats.size()
        if not parts:
            return "0.0", []
        if self.ranking in ("ts_rank", "ts_rank_cd"):
            whole = " | ".join(f"({p.tsquery})" for p in parts)
            return f"{weight} * {self.ranking}({column}, %s::tsquery, 1)", [whole]
        terms, params = [], []
        for part, idf in zip(parts, idfs, strict=False):
            tf = f"(1.0 / greatest({PI2_6} - ts_rank({column}, %s::tsquery, 0) * {10 * PI2_6}, 0.005) - {1 / PI2_6})"
            terms.append(f"{idf * weight!r} * {tf} * {K1 + 1} / ({tf} + {K1} * (1 - {B} + {B} * length / {average!r}))")
            params += [part.tsquery, part.tsquery]
        return " + ".join(terms), params

    # -- reading ---------------------------------------------------------------------------------
    def fingerprints(self) -> set[str]:
        return {str(f) for (f,) in self._run("read the team library",
                                              "SELECT fingerprint FROM pdfdesk.library_documents")}

    def state(self) -> BackendState:
        rows = self._run("read the team library",
                         "SELECT count(*), COALESCE(SUM(pages), 0) FROM pdfdesk.library_documents")
        return BackendState(int(rows[0][0]), int(rows[0][1])) if rows else BackendState(0, 0)

    def names(self, fingerprints: list[str]) -> dict[str, str]:
        """The name each of these documents has in the reviewer's matters (the first added)."""
        rows = self._run("read the team's documents", "SELECT DISTINCT ON (fingerprint) fingerprint, name "
                         "FROM pdfdesk.documents WHERE fingerprint = ANY (%s) ORDER BY fingerprint, added",
                         (fingerprints,)) if fingerprints else []
        return {str(f): str(n) for f, n in rows}

    def body(self, fingerprint: str, page: int) -> str:
        """A page's text as the team library holds it ("" when it holds none)."""
        rows = self._run("read the team library", "SELECT body FROM pdfdesk.pages WHERE fingerprint = %s AND page = %s",
                         (fingerprint, page))
        return str(rows[0][0]) if rows else ""

    def holds(self, term: str) -> bool:
        """Whether a visible page holds the term, from the statistics (one index entry per matter,
        not a search)."""
        return self.stats.page_counts([Leaf(lexeme(term), (term,))])[0] > 0

    def page_frequencies(self, fingerprint: str, terms: Iterable[str]) -> tuple[int, dict[str, int]]:
        wanted = list(dict.fromkeys(terms))
        counts = "".join(", count(*) FILTER (WHERE terms @@ %s::tsquery)" for _ in wanted)
        rows = self._run("search the team library",
                         f"SELECT count(*){counts} FROM pdfdesk.pages WHERE fingerprint = %s",
                         (*(lexeme(t) for t in wanted), fingerprint))
        if not rows or not rows[0][0]:
            return 0, {}
        return int(rows[0][0]), {term: int(count) for term, count in zip(wanted, rows[0][1:], strict=False)}

    def search(self, query: Query, limit: int, within: Container[str] | None = None) -> list[Hit]:
        """The best pages by BM25 over the visible pages."""
        try:
            expression, parts = tsquery(query), leaves(query)
        except Untranslatable:
            return []
        return [Hit(f, p, s, ALL_WORDS) for f, p, s in self.ranked(expression, parts, limit, within)]

    def search_near(self, near: list[Query], limit: int, within: Container[str] | None = None) -> list[Hit]:
        """One search for the pages matching any of `near`, scored by every word (see
        team_library_relaxed.near_pages)."""
        return [Hit(f, p, s, ALL_WORDS) for f, p, s in near_pages(self, near, limit, within)]

    def words_held(self, words: list[str], pages: list[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """How many of `words` (tsqueries) each page holds. Each page is looked up by its key (a
        join let the planner read every page of the library) and its tsvector decompressed once
        for all the words (the OFFSET keeps the subquery from being inlined into one per word)."""
        if not pages:
            return {}
        held_sql = " + ".join("(m.t @@ %s::tsquery)::int" for _ in words) or "0"
        rows = self._run("search the team library", f"""
            SELECT k.fingerprint, k.page, {held_sql}
            FROM unnest(%s::text[], %s::int[]) AS k(fingerprint, page),
                 LATERAL (SELECT p.terms || ''::tsvector AS t FROM pdfdesk.pages p
                          WHERE p.fingerprint = k.fingerprint AND p.page = k.page OFFSET 0) m""",
                         (*words, [f for f, _ in pages], [p for _, p in pages]))
        return {(str(f), int(p)): int(n) for f, p, n in rows}

    def ranked(self, expression: str, parts: list[Leaf], limit: int,
               within: Container[str] | None) -> list[tuple[str, int, float]]:
        """The best `limit` (fingerprint, page, score) matching the tsquery `expression`, scored by
        `parts`, of the documents `within` (when given)."""
        listed = _listed(within)
        fetch = limit if within is None or listed is not None else limit * 4
        if self.ranking == "bm25_exact":
            fetch = max(fetch, EXACT_POOL)
        while True:
            rows = self._matching(expression, parts, listed, fetch)
            found = [(str(f), int(p), float(s)) for f, p, s in rows]
            if self.ranking == "bm25_exact":
                found = self._exact(found, parts, self.idfs(parts))
            kept = [row for row in found if within is None or listed is not None or row[0] in within]
            if len(kept) >= limit or len(rows) < fetch:
                return kept[:limit]
            fetch *= 4

    def _matching(self, expression: str, parts: list[Leaf], listed: frozenset[str] | None,
                  limit: int | None) -> list[tuple[Any, ...]]:
        """(fingerprint, page, score) of the visible pages matching, best first, or unsorted without
        a limit (see the schema's pdfdesk.search_pages: it runs where the GIN index can answer)."""
        bm25 = self.ranking in ("bm25", "bm25_exact")
        parts = parts[:SCORED_PARTS] if bm25 else []
        idfs = self.idfs(parts) if bm25 else []
        _, average = self.stats.size()
        rows = self._run("search the team library",
                         "SELECT fingerprint, page, score FROM pdfdesk.search_pages("
                         "%s::tsquery, %s::tsquery[], %s, %s, %s, %s, %s)",
                         (expression, [p.tsquery for p in parts], idfs, average,
                          "bm25" if bm25 else self.ranking, None if listed is None else list(listed), limit))
        return rows

    def _exact(self, found: list[tuple[str, int, float]], parts: list[Leaf],
               idfs: list[float]) -> list[tuple[str, int, float]]:
        """BM25 with each term's count on the page read from the page's tsvector."""
        if not found:
            return found
        _, average = self.stats.size()
        words = sorted({t for p in parts if not p.prefix for t in p.terms})
        prefixes = [t + "%" for p in parts if p.prefix for t in p.terms]
        rows = self._run("search the team library", """
            SELECT p.fingerprint, p.page, p.length, u.lexeme, coalesce(array_length(u.positions, 1), 1)
            FROM pdfdesk.pages p, unnest(p.terms) u
            WHERE (p.fingerprint, p.page) IN (SELECT * FROM unnest(%s::text[], %s::int[]))
              AND (u.lexeme = ANY (%s) OR u.lexeme LIKE ANY (%s))""",
                         ([f for f, _, _ in found], [p for _, p, _ in found], words, prefixes))
        counts: dict[tuple[str, int], dict[str, int]] = {}
        lengths: dict[tuple[str, int], int] = {}
        for f, p, length, word, tf in rows:
            counts.setdefault((f, p), {})[word] = int(tf)
            lengths[(f, p)] = int(length)
        scored = []
        for f, p, _ in found:
            held = counts.get((f, p), {})
            norm = K1 * (1 - B + B * lengths.get((f, p), 0) / average)
            score = 0.0
            for part, idf in zip(parts, idfs, strict=False):
                if part.prefix:
                    tf = sum(c for w, c in held.items() if w.startswith(part.terms[0]))
                else:
                    tf = min(held.get(w, 0) for w in part.terms)
                score += idf * tf * (K1 + 1) / (tf + norm) if tf else 0.0
            scored.append((f, p, score))
        return sorted(scored, key=lambda row: (-row[2], row[0], row[1]))

    def search_documents(self, query: Query) -> list[DocumentHit]:
        """Every document with a matching page and its best pages. The pages come back unsorted
        and are grouped here: sorting 40,000 of them by document in the database and numbering
        them cost more than the search did."""
        try:
            expression, parts = tsquery(query), leaves(query)
        except Untranslatable:
            return []
        pages: dict[str, list[tuple[float, int]]] = {}
        for fingerprint, page, value in self._matching(expression, parts, None, None):
            pages.setdefault(str(fingerprint), []).append((-float(value), int(page)))
        hits = []
        for fingerprint, held in pages.items():
            best = heapq.nsmallest(BEST_PAGES, held)
            hits.append(DocumentHit(fingerprint, -best[0][0], len(held), tuple(page for _, page in best)))
        return hits

    def search_partial(self, relaxed: Query, limit: int, within: Container[str] | None = None) -> list[Hit]:
        """Pages holding some of a relaxed query's words: the best PARTIAL_CANDIDATES by score,
        each scored by that times the share of the words it holds."""
        try:
            expression, parts = tsquery(relaxed), leaves(relaxed)
            each = words_of(relaxed)
            words = [tsquery(word) for word in each]
            negative = tsquery(relaxed.b) if isinstance(relaxed, AndNot) else None
        except Untranslatable:
            return []
        asked = max(1, len(words))
        wanted = max(PARTIAL_CANDIDATES, limit)
        if self.ranking in ("bm25", "bm25_exact") and len(words) > 1:
            candidates = partial_candidates(self, each, negative, parts, wanted)
        else:
            candidates = self.ranked(expression, parts, wanted, None)
        if not candidates:
            return []
        held = self.words_held(words, [(f, p) for f, p, _ in candidates])
        scored = sorted(((s * min(1.0, held.get((f, p), 0) / asked), f, p) for f, p, s in candidates),
                        key=lambda item: (-item[0], item[1], item[2]))
        hits = [Hit(f, p, s, SOME_WORDS, round(held.get((f, p), 0) / asked, 3)) for s, f, p in scored
                if within is None or f in within]
        return hits[:limit]

    def search_sections(self, query: Query, limit: int, within: Container[str] | None = None,
                        title_only: bool = False) -> list[SectionHit]:
        """The best sections: title and text scored alike, a title's words counting twice."""
        try:
            expression, parts = tsquery(query), leaves(query)
        except Untranslatable:
            return []
        idfs = self.idfs(parts, "sections") if self.ranking not in ("ts_rank", "ts_rank_cd") else []
        text_score, text_params = self._score(parts, idfs)
        title_score, title_params = self._score(parts, idfs, "title_terms", SECTION_TITLE_WEIGHT)
        column = "title_terms" if title_only else "terms"
        rows = self._run("search the team library's sections", f"""
            SELECT fingerprint, start_page, end_page, level, title, path, number,
                   ({text_score}) + ({title_score}) AS score
            FROM pdfdesk.sections WHERE {column} @@ %s::tsquery ORDER BY score DESC, fingerprint, number LIMIT %s""",
                         (*text_params, *title_params, expression, limit * 4 if within is not None else limit))
        hits = [SectionHit(str(f), int(a), int(b), int(lv), str(t), str(pth), int(n), float(s))
                for f, a, b, lv, t, pth, n, s in rows if within is None or f in within]
        return hits[:limit]


def _listed(within: Container[str] | None) -> frozenset[str] | None:
    """`within` as a set SQL can be given, when it is one (a test of membership is asked in Python)."""
    if isinstance(within, (set, frozenset, list, tuple)):
        return frozenset(within)
    return None


def reachable(library: TeamLibrary) -> PdfDeskError | None:
    """None when the team library answers, else the coded error saying why not."""
    try:
        library.state()
    except PdfDeskError as exc:
        return exc
    return None
