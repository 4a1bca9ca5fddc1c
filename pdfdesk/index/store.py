"""One Whoosh index per document, in `<app data>/indices/<fingerprint>/`.

The folder is named by the document's content fingerprint, so a moved file reuses its index and
an edited file gets a new one. `state.json` records the extraction version and how many pages are
in; a version change rebuilds. Pages are committed in batches: each Whoosh commit writes its
segment files first and renames its table of contents into place last, and `state.json` is
replaced atomically after the commit, so a process killed at any moment leaves the last committed
batch readable (a re-added page replaces its earlier copy, never duplicates it).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema
from whoosh.index import LockError
from whoosh.qparser import MultifieldParser, QueryParser
from whoosh.query import Query, Term
from whoosh.scoring import BM25F

from pdfdesk.core import paths
from pdfdesk.index.analysis import page_analyzer

# Bump when text extraction, the analyzer or the schema change: every index is rebuilt.
INDEX_VERSION = 1
STATE_FILE = "state.json"
WHOOSH_DIR = "whoosh"


def build_schema() -> Schema:
    analyzer = page_analyzer()
    return Schema(
        key=ID(unique=True, stored=True),
        kind=ID(stored=True),
        page=NUMERIC(int, stored=True),
        end_page=NUMERIC(int, stored=True),
        level=NUMERIC(int, stored=True),
        path=STORED,
        title=TEXT(analyzer=analyzer, stored=True, phrase=True, field_boost=2.0),
        text=TEXT(analyzer=analyzer, phrase=True),
    )


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


def _write_json_atomically(path: Path, data: dict[str, Any]) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(temp, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)


class DocumentIndex:
    """The search index of one document version (by fingerprint)."""

    def __init__(self, fingerprint: str, root: Path | None = None) -> None:
        self.fingerprint = fingerprint
        self.folder = (root or paths.indices_dir()) / fingerprint
        self._index: whoosh_index.Index | None = None

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
        _write_json_atomically(self.folder / STATE_FILE, asdict(state))

    # -- opening -----------------------------------------------------------------------------
    def open(self, pages_total: int, name: str = "", source: str = "") -> IndexState:
        """Open the index, creating or rebuilding it when missing, stale or unreadable."""
        state = self.read_state()
        whoosh_dir = self.folder / WHOOSH_DIR
        if state is not None and whoosh_index.exists_in(str(whoosh_dir)):
            try:
                self._index = whoosh_index.open_dir(str(whoosh_dir))
                return state
            except Exception:  # a damaged index is rebuilt, never served
                pass
        return self._create(pages_total, name, source)

    def _create(self, pages_total: int, name: str, source: str) -> IndexState:
        whoosh_dir = self.folder / WHOOSH_DIR
        if self.folder.exists():
            shutil.rmtree(self.folder, ignore_errors=True)
        whoosh_dir.mkdir(parents=True, exist_ok=True)
        self._index = whoosh_index.create_in(str(whoosh_dir), build_schema())
        state = IndexState(fingerprint=self.fingerprint, pages_total=pages_total, name=name, source=source)
        self.write_state(state)
        return state

    @property
    def whoosh(self) -> whoosh_index.Index:
        if self._index is None:
            raise RuntimeError("DocumentIndex.open() first")
        return self._index

    # -- writing -----------------------------------------------------------------------------
    def try_writer(self, timeout: float = 0.0) -> Any | None:
        """A Whoosh writer, or None when another thread or process is writing this index."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.whoosh.writer(limitmb=128, procs=1)
            except LockError:
                if time.monotonic() >= deadline:
                    return None
                time.sleep(0.05)

    def add_pages(self, writer: Any, pages: Iterable[tuple[int, str]]) -> None:
        for number, text in pages:
            writer.update_document(key=f"p:{number}", kind="page", page=number, end_page=number, text=text)

    def add_sections(self, writer: Any, sections: Iterable[dict[str, Any]]) -> None:
        writer.delete_by_term("kind", "section")
        for number, section in enumerate(sections):
            writer.add_document(
                key=f"s:{number}", kind="section", page=section["start_page"], end_page=section["end_page"],
                level=section["level"], title=section["title"], path=section["path"], text=section["text"],
            )

    # -- reading -----------------------------------------------------------------------------
    def parse(self, query: str, granularity: str) -> Query:
        schema = self.whoosh.schema
        if granularity == "section":
            parser: QueryParser = MultifieldParser(["title", "text"], schema)
        else:
            parser = QueryParser("text", schema)
        return parser.parse(query)

    def search(self, query: Query, granularity: str, limit: int) -> list[dict[str, Any]]:
        """Ranked hits (stored fields + score) of one granularity."""
        kind = "section" if granularity == "section" else "page"
        with self.whoosh.searcher(weighting=BM25F()) as searcher:
            hits = searcher.search(query, limit=limit, filter=Term("kind", kind))
            return [dict(hit.fields(), score=float(hit.score)) for hit in hits]

    def sections(self) -> list[dict[str, Any]]:
        """Every indexed section's stored fields, in document order."""
        with self.whoosh.searcher() as searcher:
            found = [dict(fields) for fields in searcher.documents(kind="section")]
        return sorted(found, key=lambda s: (s["page"], int(s["key"].split(":")[1])))

    def refresh(self) -> None:
        """Re-open to see batches committed by another writer."""
        self._index = whoosh_index.open_dir(str(self.folder / WHOOSH_DIR))

    def delete(self) -> None:
        self._index = None
        shutil.rmtree(self.folder, ignore_errors=True)
