"""The library: documents the user added, and a restart-safe queue that indexes them.

`<app data>/library.json` lists every document with its size, mtime, fingerprint and status.
Adding marks new or changed files `queued`; `register()` hands them to the indexing queue and marks
them `indexing`; `settle()` marks them `indexed` once their index is complete. Files that did not
change since (same size and mtime, index complete) are not even hashed again. The library builds
nothing itself: the indexing owner does, so a restart resumes where the queue was. The file is
guarded by an OS lock, so the GUI and the MCP server can share one library.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pdfdesk.core import childproc, paths
from pdfdesk.core.atomic import write_json_atomically
from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index.locks import open_lock_file
from pdfdesk.index.owner import KEYWORD, IndexOwner, default_owner
from pdfdesk.index.queue import IndexQueue
from pdfdesk.index.builder import Target, page_texts
from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.index.page_text import PageTextStore
from pdfdesk.index.store import DocumentIndex

LIBRARY_FILE = "library.json"
QUEUED, INDEXING, INDEXED, FAILED = "queued", "indexing", "indexed", "failed"
FileProgress = Callable[[str, int, int], None]  # (file name, pages done, pages total)
SyncProgress = Callable[[int, int], None]  # (documents added, documents to add)


@dataclass
class LibraryEntry:
    path: str
    name: str
    size: int = 0
    mtime_ns: int = 0
    fingerprint: str | None = None
    status: str = QUEUED
    error: str | None = None
    pages: int = 0
    added: float = field(default_factory=time.time)


def expand_pdf_paths(items: list[str]) -> list[Path]:
    """Files as given; folders walked recursively for *.pdf (any case), sorted."""
    found: list[Path] = []
    for raw in items:
        path = Path(raw).expanduser()
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file()))
        else:
            found.append(path)
    return [Path(os.path.abspath(p)) for p in found]


_thread_lock = threading.RLock()


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock shared by threads and processes (fcntl; a thread lock where absent)."""
    with _thread_lock:
        try:
            handle = open_lock_file(path)
        except OSError:  # a read-only data folder: reading needs no lock, and any write fails anyway
            yield
            return
        with handle:
            try:
                import fcntl
            except ImportError:  # Windows: threads are still serialised
                yield
                return
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class Library:
    def __init__(self, folder: Path | None = None) -> None:
        self.file = (folder or paths.app_data_dir()) / LIBRARY_FILE
        self.lock_file = self.file.with_suffix(".lock")

    # -- storage -----------------------------------------------------------------------------
    def _read(self) -> dict[str, LibraryEntry]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
            return {item["path"]: LibraryEntry(**item) for item in data.get("documents", [])}
        except FileNotFoundError:
            return {}
        except (ValueError, TypeError, KeyError):  # unreadable: keep it aside, start afresh
            self.file.replace(self.file.with_suffix(f".corrupt-{int(time.time())}.json"))
            return {}

    def _write(self, entries: dict[str, LibraryEntry]) -> None:
        write_json_atomically(self.file, {"documents": [asdict(e) for e in entries.values()]}, indent=1)

    @contextmanager
    def _editing(self) -> Iterator[dict[str, LibraryEntry]]:
        with _file_lock(self.lock_file):
            entries = self._read()
            yield entries
            self._write(entries)

    # -- queries -----------------------------------------------------------------------------
    def entries(self) -> list[LibraryEntry]:
        with _file_lock(self.lock_file):
            return list(self._read().values())

    def pending(self) -> list[LibraryEntry]:
        return [e for e in self.entries() if e.status in (QUEUED, INDEXING)]

    # -- changes -----------------------------------------------------------------------------
    def add(self, items: list[str]) -> list[LibraryEntry]:
        """Add files and folders; new or changed files are queued, unchanged ones left as they are."""
        added = []
        with self._editing() as entries:
            for path in expand_pdf_paths(items):
                key = str(path)
                try:
                    info = path.stat()
                except OSError as exc:
                    entry = entries.get(key) or LibraryEntry(key, path.name)
                    entry.status, entry.error = FAILED, f"file_not_found: {exc.strerror}"
                    entries[key] = entry
                    added.append(entry)
                    continue
                entry = entries.get(key)
                if entry is None or (entry.size, entry.mtime_ns) != (info.st_size, info.st_mtime_ns) \
                        or entry.status == FAILED:
                    entry = LibraryEntry(key, path.name, info.st_size, info.st_mtime_ns)
                    entries[key] = entry
                added.append(entry)
        return added

    def remove(self, path: str) -> bool:
        with self._editing() as entries:
            return entries.pop(str(Path(os.path.abspath(Path(path).expanduser()))), None) is not None

    def _update(self, key: str, **changes: object) -> None:
        with self._editing() as entries:
            entry = entries.get(key)
            if entry is not None:
                for name, value in changes.items():
                    setattr(entry, name, value)

    def _unchanged_and_indexed(self, entry: LibraryEntry) -> bool:
        try:
            info = Path(entry.path).stat()
        except OSError:
            return False
        if (info.st_size, info.st_mtime_ns) != (entry.size, entry.mtime_ns) or not entry.fingerprint:
            return False
        state = DocumentIndex(entry.fingerprint).read_state()
        return state is not None and state.complete

    def register(self, queue: IndexQueue) -> list[LibraryEntry]:
        """Hand every queued or interrupted document to the indexing queue (opening each once to
        learn its fingerprint); unchanged, already indexed files are only marked so. Returns the
        entries handed over."""
        handed = []
        for entry in self.pending():
            if self._unchanged_and_indexed(entry):
                self._update(entry.path, status=INDEXED, error=None)
                continue
            try:
                with open_pdf(entry.path) as opened:
                    fingerprint, pages, name = opened.fingerprint, opened.page_count, opened.source.name
                info = Path(entry.path).stat()
            except PdfDeskError as exc:
                self._update(entry.path, status=FAILED, error=f"{exc.code}: {exc.message}")
                continue
            except OSError as exc:
                self._update(entry.path, status=FAILED, error=f"file_not_found: {exc.strerror}")
                continue
            queue.add(fingerprint, entry.path, name)
            self._update(entry.path, status=INDEXING, fingerprint=fingerprint, pages=pages, size=info.st_size,
                         mtime_ns=info.st_mtime_ns, error=None)
            entry.fingerprint = fingerprint
            handed.append(entry)
        return handed

    def settle(self, queue: IndexQueue) -> None:
        """Mark documents whose keyword index is complete as indexed, and those the queue gave up on
        as failed (the owner records outcomes by fingerprint, not by library entry)."""
        with self._editing() as entries:
            for entry in entries.values():
                if entry.status != INDEXING or not entry.fingerprint:
                    continue
                state = DocumentIndex(entry.fingerprint).read_state()
                job = queue.get(entry.fingerprint)
                if state is not None and state.complete:
                    entry.status, entry.error = INDEXED, None
                elif job is not None and job.failed:
                    entry.status, entry.error = FAILED, job.error
                elif job is None and (state is None or not state.complete):
                    entry.status = QUEUED  # dropped from the queue unfinished (file changed): register again

    def process(self, progress: FileProgress | None = None, cancel: threading.Event | None = None,
                owner: IndexOwner | None = None) -> list[LibraryEntry]:
        """Index every queued or interrupted document now, through the indexing owner (stages run in
        child processes; a document another process is building is waited for)."""
        owner = owner or default_owner()
        handed = self.register(owner.queue)
        if handed:
            stage_progress = (lambda name, stage, done, total: progress(name, done, total)
                              if stage == KEYWORD else None) if progress else None
            owner.drain(only={e.fingerprint for e in handed if e.fingerprint}, progress=stage_progress,
                        cancel=cancel, wait=True)
        self.settle(owner.queue)
        sync_index(library=self)
        return handed

# -- the library index ------------------------------------------------------------------------
# The per-document keyword stage leaves each page's text in the page-text record; the library
# index is filled from the record (never the PDF, unless a page is missing from it), in batches
# of whole documents, one transaction each, so a kill loses at most the batch in progress and the
# next run picks up the documents still missing. Front ends run it in a child process: analysing
# 100,000 pages takes minutes of CPU.
INDEX_BATCH_PAGES = 2000


@dataclass
class SyncResult:
    added: int = 0
    removed: int = 0
    pages: int = 0
    skipped: int = 0  # documents whose file changed or vanished since they were indexed


def changes(library: Library, backend: SqliteLibrary) -> tuple[list[LibraryEntry], set[str]]:
    """(indexed catalogue documents the library index lacks, documents it holds that the catalogue
    no longer lists as indexed)."""
    wanted: dict[str, LibraryEntry] = {}
    for entry in library.entries():
        if entry.status == INDEXED and entry.fingerprint:
            wanted.setdefault(entry.fingerprint, entry)
    held = backend.fingerprints()
    return [entry for fingerprint, entry in wanted.items() if fingerprint not in held], held - wanted.keys()


def _pages_of(entry: LibraryEntry, store: PageTextStore) -> list[tuple[int, str]] | None:
    """The document's page texts from the record; pages it lacks are read from the file (None
    when the file is no longer that version)."""
    assert entry.fingerprint is not None
    state = store.state(entry.fingerprint)
    if state is not None and state.complete:
        texts = store.texts(entry.fingerprint, 1, state.pages_total)
        return sorted(texts.items())
    try:
        with open_pdf(entry.path) as opened:
            if opened.fingerprint != entry.fingerprint:
                return None
            target = Target(opened.source, None, opened.fingerprint)
            pages = opened.page_count
    except PdfDeskError:
        return None
    return page_texts(target, 1, pages) if pages else []


def sync_index(progress: SyncProgress | None = None, cancel: threading.Event | None = None,
               library: Library | None = None, backend: SqliteLibrary | None = None) -> SyncResult:
    """Bring the library index in step with the catalogue (in this process)."""
    library = library or Library()
    backend = backend or SqliteLibrary()
    store = PageTextStore(backend.database)
    missing, stale = changes(library, backend)
    result = SyncResult()
    if stale:
        backend.remove_documents(stale)
        result.removed = len(stale)
    batch: list[tuple[str, list[tuple[int, str]]]] = []
    pages_in_batch = 0
    for done, entry in enumerate(missing, start=1):
        if cancel is not None and cancel.is_set():
            break
        pages = _pages_of(entry, store)
        if pages is None:
            result.skipped += 1
            continue
        assert entry.fingerprint is not None
        batch.append((entry.fingerprint, pages))
        pages_in_batch += len(pages)
        if pages_in_batch >= INDEX_BATCH_PAGES or done == len(missing):
            result.pages += backend.add_documents(batch)
            result.added += len(batch)
            batch, pages_in_batch = [], 0
            if progress is not None:
                progress(done, len(missing))
    if batch and not (cancel is not None and cancel.is_set()):
        result.pages += backend.add_documents(batch)
        result.added += len(batch)
    if result.added >= 100:
        backend.optimize()
    return result


def _sync_child(send: Callable[[object], None]) -> SyncResult:
    return sync_index(progress=lambda done, total: send(("progress", done, total)))


def sync_in_child(progress: SyncProgress | None = None, cancel: threading.Event | None = None) -> SyncResult:
    """`sync_index` in a child process at background priority (front ends keep their interpreter)."""
    if not any(changes(Library(), SqliteLibrary())):
        return SyncResult()

    def relay(message: object) -> None:
        if progress is not None and isinstance(message, tuple) and message[0] == "progress":
            progress(message[1], message[2])

    result: SyncResult = childproc.run_job(_sync_child, (), name="pdfdesk-library-index",
                                           priority=childproc.Priority.BACKGROUND, memory_mb=2048,
                                           cancel=cancel, on_message=relay)
    return result
