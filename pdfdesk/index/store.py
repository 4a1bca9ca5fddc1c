"""One Whoosh index per document, in `<app data>/indices/<fingerprint>/`.

The folder is named by the document's content fingerprint, so a moved file reuses its index and
an edited file gets a new one. `state.json` records the extraction version and how many pages are
in; a version change rebuilds. Pages are committed in batches: each Whoosh commit writes its
segment files first and renames its table of contents into place last, and `state.json` is
replaced atomically after the commit, so a process killed at any moment leaves the last committed
batch readable (a re-added page replaces its earlier copy, never duplicates it).

Several processes share these folders (the GUI, `pdfdesk mcp`, `pdfdesk index`): one builder per
document holds `build_lock()` for the whole build and is the only one that may create or rebuild
the folder; readers open what is there (`open_existing`) and never delete anything.
"""

from __future__ import annotations

import gc
import json
import shutil
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema
from whoosh.index import LockError
from whoosh.query import AndMaybe, Query
from whoosh.scoring import BM25F
from whoosh.writing import CLEAR

from pdfdesk.core import paths
from pdfdesk.core.atomic import write_json_atomically
from pdfdesk.core.locks import file_lock
from pdfdesk.index.analysis import page_analyzer
from pdfdesk.index.locks import lock_path
from pdfdesk.index.postings import PackedPositions
from pdfdesk.index.query_parsing import word_parser

# Bump when text extraction, the analyzer or the schema change: every index is rebuilt.
INDEX_VERSION = 11
STATE_FILE = "state.json"
DAMAGE_FILE = "damaged.json"
WHOOSH_DIR = "whoosh"
OPEN_ATTEMPTS = 6


PAGES, SECTIONS = "pages", "sections"
# A query's words in a section's title count this many times their count in its text: a user
# who types a heading means that section, not the many others whose prose repeats its words.
SECTION_TITLE_BOOST = 2.0


def build_schema(kind: str) -> Schema:
    """Pages and sections live in separate Whoosh indices: neither query pays for the other's
    postings, and no query needs a kind filter."""
    analyzer = page_analyzer()
    if kind == PAGES:
        return Schema(key=ID(unique=True, stored=True), page=NUMERIC(int, stored=True), text=_text_field(analyzer))
    return Schema(
        key=ID(unique=True, stored=True),
        page=NUMERIC(int, stored=True),
        end_page=NUMERIC(int, stored=True),
        level=NUMERIC(int, stored=True),
        path=STORED,
        title=_text_field(analyzer, stored=True, boost=SECTION_TITLE_BOOST),
        text=_text_field(analyzer),
    )


@cache
def _schema(kind: str) -> Schema:
    return build_schema(kind)


def _text_field(analyzer: Any, stored: bool = False, boost: float = 1.0) -> TEXT:
    field = TEXT(analyzer=analyzer, stored=stored, phrase=True, field_boost=boost)
    field.format = PackedPositions(field_boost=boost)
    return field


class IndexDamaged(Exception):
    """Part of an index could not be read; the caller answers without it."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(f"the {kind} index is damaged ({reason})")
        self.kind, self.reason = kind, reason


@dataclass
class IndexState:
    """What is in an index folder; written atomically after each commit."""

    fingerprint: str
    version: int = INDEX_VERSION
    pages_total: int = 0
    pages_indexed: int = 0           # pages 1..pages_indexed are in the page index
    sections_indexed: bool = False
    sections_source: str | None = None  # "outline" or "headings"
    section_count: int = 0
    semantic_model: str | None = None  # the embedding model the stored vectors came from
    semantic_complete: bool = False
    name: str = ""
    source: str = ""
    updated: float = field(default_factory=time.time)

    @property
    def pages_complete(self) -> bool:
        return self.pages_total > 0 and self.pages_indexed >= self.pages_total

    @property
    def complete(self) -> bool:
        return self.pages_complete and self.sections_indexed


class DocumentIndex:
    """The search index of one document version (by fingerprint)."""

    def __init__(self, fingerprint: str, root: Path | None = None) -> None:
        self.fingerprint = fingerprint
        self.folder = (root or paths.indices_dir()) / fingerprint
        self._indices: dict[str, whoosh_index.Index] = {}

    # -- state -------------------------------------------------------------------------------
    def read_state(self) -> IndexState | None:
        try:
            data = json.loads((self.folder / STATE_FILE).read_text(encoding="utf-8"))
            state = IndexState(**data)
        except (OSError, ValueError, TypeError):
            return None
        if state.version != INDEX_VERSION or state.fingerprint != self.fingerprint:
            return None
        return state

    def write_state(self, state: IndexState) -> None:
        state.updated = time.time()
        write_json_atomically(self.folder / STATE_FILE, asdict(state))

    # -- damage ------------------------------------------------------------------------------
    # A reader that finds part of the index unreadable cannot repair it (it does not hold the
    # build lock, and another process may be reading); it leaves a note here, answers from the
    # pages directly, and the builder checks the index and rebuilds what is really broken.
    def damage(self) -> str | None:
        """Which part a reader found damaged (PAGES, SECTIONS or the vectors folder), if any."""
        try:
            return str(json.loads((self.folder / DAMAGE_FILE).read_text(encoding="utf-8"))["kind"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):
            return PAGES  # an unreadable note still means somebody saw damage

    def report_damage(self, kind: str, reason: str) -> None:
        """Leave a note for the builder; never fails the reader (a read-only folder just loses it)."""
        if not self.folder.is_dir() or self.damage() is not None:
            return
        try:
            write_json_atomically(self.folder / DAMAGE_FILE, {"kind": kind, "reason": reason[:500],
                                                               "at": time.time()})
        except OSError:
            pass

    def clear_damage(self) -> None:
        (self.folder / DAMAGE_FILE).unlink(missing_ok=True)

    def verify(self) -> str | None:
        """Read every stored field and every term's postings of both indices: None when all of it
        reads, else what failed. The builder runs this when a reader reported damage, so a false
        alarm (a read that raced a commit) costs a check, not a rebuild."""
        try:
            for kind in (PAGES, SECTIONS):
                with self.whoosh(kind).reader() as reader:
                    for _fields in reader.all_stored_fields():
                        pass
                    for fieldname, text in reader.all_terms():
                        for _ in reader.postings(fieldname, text).all_ids():
                            pass
        except Exception as exc:  # any failure to read means the files are not what was committed
            problem: str | None = f"{type(exc).__name__}: {str(exc)[:200]}"
        else:
            problem = None
        if problem is not None:
            _release_abandoned_files()
        return problem

    # -- opening -----------------------------------------------------------------------------
    def open(self, pages_total: int, name: str = "", source: str = "") -> IndexState:
        """Open the indices, creating or rebuilding them when missing, stale, unreadable, or found
        damaged by a reader and failing the check.

        Only a builder holding `build_lock()` may call this: rebuilding deletes the folder, which
        must never happen under another process's build."""
        state = self.open_existing()
        if state is not None and self.damage() in (PAGES, SECTIONS):
            if self.verify() is not None:
                state = None
            else:
                self.clear_damage()
        return state if state is not None else self._create(pages_total, name, source)

    def open_existing(self) -> IndexState | None:
        """Open the indices for reading; None when there is no usable index (never creates one).

        Another process's commit renames a new table of contents into place and deletes the old
        one, so an open that lands in between fails once; it is retried before giving up."""
        state = self.read_state()
        if state is None:
            return None
        whoosh_dir = str(self.folder / WHOOSH_DIR)
        for attempt in range(OPEN_ATTEMPTS):
            try:
                self._indices = {kind: whoosh_index.open_dir(whoosh_dir, kind) for kind in (PAGES, SECTIONS)}
                return state
            except Exception:  # missing, mid-commit or damaged: retry, then report it unusable
                if attempt + 1 < OPEN_ATTEMPTS:
                    time.sleep(0.02 * (attempt + 1))
        return None

    @contextmanager
    def build_lock(self, wait: bool = False, cancel: threading.Event | None = None,
                   while_waiting: Callable[[], None] | None = None) -> Iterator[bool]:
        """The right to build this document, across threads and processes; yields whether held."""
        with file_lock(lock_path(self.folder.parent, self.fingerprint, "build"), wait, cancel,
                       while_waiting) as held:
            yield held

    def _create(self, pages_total: int, name: str, source: str) -> IndexState:
        whoosh_dir = self.folder / WHOOSH_DIR
        _forget_searchers(self.folder)
        if self.folder.exists():
            shutil.rmtree(self.folder, ignore_errors=True)
        whoosh_dir.mkdir(parents=True, exist_ok=True)
        self._indices = {kind: whoosh_index.create_in(str(whoosh_dir), build_schema(kind), kind)
                         for kind in (PAGES, SECTIONS)}
        state = IndexState(fingerprint=self.fingerprint, pages_total=pages_total, name=name, source=source)
        self.write_state(state)
        return state

    def whoosh(self, kind: str) -> whoosh_index.Index:
        if not self._indices:
            raise RuntimeError("DocumentIndex.open() first")
        return self._indices[kind]

    # -- writing -----------------------------------------------------------------------------
    def try_writer(self, kind: str = PAGES, timeout: float = 0.0) -> Any | None:
        """A Whoosh writer, or None when another thread or process is writing that index."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.whoosh(kind).writer(limitmb=128, procs=1)
            except LockError:
                if time.monotonic() >= deadline:
                    return None
                time.sleep(0.05)

    def add_pages(self, writer: Any, pages: Iterable[tuple[int, str]]) -> None:
        for number, text in pages:
            writer.update_document(key=f"p:{number}", page=number, text=text)

    def replace_sections(self, writer: Any, sections: Iterable[dict[str, Any]]) -> None:
        """All sections at once, in one commit that drops whatever sections were there before."""
        for number, section in enumerate(sections):
            writer.add_document(
                key=f"s:{number}", page=section["start_page"], end_page=section["end_page"],
                level=section["level"], title=section["title"], path=section["path"], text=section["text"],
            )
        writer.commit(mergetype=CLEAR)

    # -- reading -----------------------------------------------------------------------------
    def parse(self, query: str, granularity: str) -> Query:
        # The schema built in memory, not the index's: reading it from disk re-reads the table of
        # contents on every query, which another process's commit may be replacing.
        if granularity == "section":
            return word_parser(["title", "text"], _schema(SECTIONS)).parse(query)
        if granularity == "title":
            return word_parser(["title"], _schema(SECTIONS)).parse(query)
        return word_parser(["text"], _schema(PAGES)).parse(query)

    def search(self, query: Query, granularity: str, limit: int) -> list[dict[str, Any]]:
        """Ranked hits (stored fields + score) of one granularity; IndexDamaged when the files
        cannot be read (the damage is reported for the builder)."""
        return self.search_each([query], granularity, limit)[0]

    def search_each(self, queries: list[Query], granularity: str, limit: int) -> list[list[dict[str, Any]]]:
        """`search` for each query, with one reader. A query that asks for pages holding some of
        the words (relaxed), or several queries at once, are scored in arrays, every page at a time
        (`array_scoring`); a lone query of words a page must all hold is left to Whoosh, which skips
        the pages that cannot match."""
        # numpy, only once a search runs: a tool worker that never searches stays 120 MB smaller
        from pdfdesk.index import array_scoring

        kind = SECTIONS if granularity in ("section", "title") else PAGES
        with self._reading(kind) as searcher:
            many = len(queries) > 1 or any(array_scoring.holds_relaxed(query) for query in queries)
            best = array_scoring.ranked(searcher, queries, limit) if many else None
            if best is not None:
                return [[dict(searcher.stored_fields(number), score=score) for number, score in hits]
                        for hits in best]
            return [[dict(hit.fields(), score=float(hit.score)) for hit in searcher.search(query, limit=limit)]
                    if not _holds_nothing(searcher, query) else [] for query in queries]

    def page_scores(self, query: Query, pages: Iterable[int]) -> dict[int, float]:
        """The score `query` gives each of these pages that it matches (pages it does not match
        are left out): the pages a search weighs beyond the best few a ranking returned."""
        from pdfdesk.index import array_scoring

        with self._reading(PAGES) as searcher:
            numbers: dict[int, int] = {}
            for page in pages:
                number = searcher.document_number(key=f"p:{page}")
                if number is not None:
                    numbers[number] = page
            found = array_scoring.scored(searcher, query, list(numbers))
            if found is None:
                found = {hit.docnum: float(hit.score) for hit in searcher.search(query, limit=None)
                         if hit.docnum in numbers}
            return {numbers[number]: score for number, score in found.items()}

    @contextmanager
    def vocabulary(self, granularity: str) -> Iterator[Callable[[str, str], bool]]:
        """Whether the index holds a (field, term), for as long as the block runs: a query built
        around the words a document has."""
        kind = SECTIONS if granularity in ("section", "title") else PAGES
        with self._reading(kind) as searcher:
            reader = searcher.reader()
            yield lambda field, text: (field, text) in reader

    def page_frequencies(self, terms: Iterable[str]) -> tuple[int, dict[str, int]]:
        """(pages indexed, how many of them hold each term): how rare a word is in this document."""
        with self._reading(PAGES) as searcher:
            reader = searcher.reader()
            return reader.doc_count(), {term: reader.doc_frequency("text", term) for term in terms}

    def sections(self) -> list[dict[str, Any]]:
        """Every indexed section's stored fields, in document order."""
        with self._reading(SECTIONS) as searcher:
            found = [dict(fields) for fields in searcher.all_stored_fields()]
        return sorted(found, key=lambda s: (s["page"], int(s["key"].split(":")[1])))

    @contextmanager
    def _reading(self, kind: str) -> Iterator[Any]:
        index = self.whoosh(kind)
        reason = None
        try:
            with _searcher(self.folder, kind, index) as searcher:
                yield searcher
        except IndexDamaged:
            raise
        except Exception as exc:  # truncated, missing or garbled segment files
            reason = f"{type(exc).__name__}: {str(exc)[:200]}"
        if reason is not None:  # outside the handler, so the failed read's frames are gone
            _forget_searchers(self.folder)
            _release_abandoned_files()
            self.report_damage(kind, reason)
            raise IndexDamaged(kind, reason)

    def delete(self) -> None:
        _forget_searchers(self.folder)
        self._indices = {}
        shutil.rmtree(self.folder, ignore_errors=True)


# Open searchers are kept per index and refreshed when a writer has committed since: opening
# one reads the table of contents and every segment's term info, most of a warm query's time.
# At most MAX_OPEN_SEARCHERS stay open, the least recently used closed first: a long-running
# process (the MCP server) that searches hundreds of documents one by one would otherwise keep
# every one's files and term tables.
MAX_OPEN_SEARCHERS = 64
_searchers: dict[tuple[Path, str], tuple[threading.Lock, Any]] = {}
_searchers_lock = threading.Lock()


def _holds_nothing(searcher: Any, query: Query) -> bool:
    """Whether the words a query requires are on no page, asked before Whoosh reads the postings
    of its optional ones: the stop words of a question, on nearly every page. Most questions in
    one's own words have no page holding all their words."""
    return isinstance(query, AndMaybe) and not any(query.a.matcher(leaf, leaf.context()).is_active()
                                                   for leaf, _offset in searcher.leaf_searchers())


@contextmanager
def _searcher(folder: Path, kind: str, index: whoosh_index.Index) -> Iterator[Any]:
    with _searchers_lock:
        entry = _searchers.pop((folder, kind), None)
        if entry is None:
            entry = (threading.Lock(), index.searcher(weighting=BM25F()))
        _searchers[(folder, kind)] = entry  # last: the most recently used
        _close_least_used()
    lock, searcher = entry
    with lock:
        if not searcher.up_to_date():
            # A new searcher, not `searcher.refresh()`: whoosh-reloaded 2.7.5's reader reuse adds the
            # old reader's segments that a merge has replaced (every hit twice) and keeps segments'
            # old deletion sets (a re-added page's earlier copy comes back).
            fresh = index.searcher(weighting=BM25F())
            searcher.close()
            searcher = fresh
            with _searchers_lock:
                _searchers[(folder, kind)] = (lock, searcher)
        yield searcher


def _close_least_used() -> None:
    """Close searchers beyond MAX_OPEN_SEARCHERS, oldest first, skipping any in use (its lock
    held by a search under way); called with `_searchers_lock` held."""
    for key in list(_searchers)[:-1]:
        if len(_searchers) <= MAX_OPEN_SEARCHERS:
            return
        lock, searcher = _searchers[key]
        if lock.acquire(blocking=False):
            try:
                del _searchers[key]
                searcher.close()
            finally:
                lock.release()


def _release_abandoned_files() -> None:
    """Whoosh leaves the files of a segment it failed to read open; close them now, quietly, rather
    than have the garbage collector warn about them at some later moment."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


def _forget_searchers(folder: Path) -> None:
    with _searchers_lock:
        for key in [k for k in _searchers if k[0] == folder]:
            _searchers.pop(key)[1].close()
