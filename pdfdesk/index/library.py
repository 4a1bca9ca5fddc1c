"""The library: the catalogue's documents, put into the library index and kept in step with it.

Adding marks new or changed files `queued` (see `catalogue`); `register()` learns their
fingerprints and marks them `indexing`; they are `indexed` once the library index holds their
pages. Files that did not change since (same size and mtime, in the library index) are not even
hashed again. A restart resumes where the catalogue says each document is.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pdfdesk.core import childproc
from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index.builder import Target, page_texts
from pdfdesk.index.catalogue import FAILED, INDEXED, INDEXING, QUEUED, Catalogue, LibraryEntry, expand_pdf_paths
from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.index.library_backend import to_team
from pdfdesk.index.owner import KEYWORD, IndexOwner, default_owner
from pdfdesk.index.page_text import PageTextStore
from pdfdesk.index.queue import IndexQueue

FileProgress = Callable[[str, int, int], None]  # (file name, pages done, pages total)
SyncProgress = Callable[[int, int], None]  # (documents added, documents to add)

__all__ = ["FAILED", "INDEXED", "INDEXING", "QUEUED", "Library", "LibraryEntry", "build_library_index",
           "expand_pdf_paths", "hand_to_owner", "sync_in_child", "sync_index"]


class Library(Catalogue):
    """The catalogue, and the work that brings its documents into the library index."""

    def _unchanged_and_indexed(self, entry: LibraryEntry, held: set[str]) -> bool:
        try:
            info = Path(entry.path).stat()
        except OSError:
            return False
        if (info.st_size, info.st_mtime_ns) != (entry.size, entry.mtime_ns) or not entry.fingerprint:
            return False
        return entry.fingerprint in held

    def register(self, queue: IndexQueue | None = None) -> list[LibraryEntry]:
        """Learn the fingerprint of every queued or interrupted document (opening each once) and mark
        it `indexing`; unchanged files already in the library index are only marked `indexed`. With
        a queue, each document is also handed to the indexing owner for its own index at once
        (`hand_to_owner` does it later, once the record holds the page text). Returns the entries
        to index."""
        handed = []
        held = SqliteLibrary(self.database).fingerprints()
        for entry in self.pending():
            if self._unchanged_and_indexed(entry, held):
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
            if queue is not None:
                queue.add(fingerprint, entry.path, name)
            self._update(entry.path, status=INDEXING, fingerprint=fingerprint, pages=pages, size=info.st_size,
                         mtime_ns=info.st_mtime_ns, error=None)
            entry.fingerprint, entry.pages = fingerprint, pages
            handed.append(entry)
        return handed

    def settle(self, queue: IndexQueue | None = None) -> None:
        """Mark documents the library index holds as indexed, and those the queue gave up on as
        failed (the owner records outcomes by fingerprint, not by library entry)."""
        held = SqliteLibrary(self.database).fingerprints()
        settled: list[tuple[str, str | None, str]] = []
        for entry in self._select("WHERE status = ? AND fingerprint IS NOT NULL", (INDEXING,)):
            assert entry.fingerprint is not None
            job = queue.get(entry.fingerprint) if queue is not None else None
            if entry.fingerprint in held:
                settled.append((INDEXED, None, entry.path))
            elif job is not None and job.failed:
                settled.append((FAILED, job.error, entry.path))
        if settled:
            with self.database.writing() as db:
                db.executemany("UPDATE catalogue SET status = ?, error = ? WHERE path = ? AND status = 'indexing'",
                               settled)

    def process(self, progress: FileProgress | None = None, cancel: threading.Event | None = None,
                owner: IndexOwner | None = None) -> list[LibraryEntry]:
        """Index every queued or interrupted document now: its pages into the library index first
        (in child processes, many documents each), then each document's own index and vectors
        through the indexing owner (a document another process is building is waited for)."""
        owner = owner or default_owner()
        handed = self.register()
        if handed:
            build_library_index(handed, self, cancel=cancel, progress=progress)
            hand_to_owner(handed, owner.queue)
            stage_progress = (lambda name, stage, done, total: progress(name, done, total)
                              if stage == KEYWORD else None) if progress else None
            owner.drain(only={e.fingerprint for e in handed if e.fingerprint}, progress=stage_progress,
                        cancel=cancel, wait=True)
        self.settle(owner.queue)
        sync_index(library=self)
        return handed


def hand_to_owner(entries: list[LibraryEntry], queue: IndexQueue) -> None:
    """Queue each document's own index (pages, sections) and vectors, once its page text is in the
    record: the owner's stages then read the record instead of the PDF."""
    for entry in entries:
        if entry.fingerprint:
            queue.add(entry.fingerprint, entry.path, entry.name)


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
    for entry in library.indexed():
        assert entry.fingerprint is not None
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
            to_team(batch)
            result.added += len(batch)
            batch, pages_in_batch = [], 0
            if progress is not None:
                progress(done, len(missing))
    if batch and not (cancel is not None and cancel.is_set()):
        result.pages += backend.add_documents(batch)
        to_team(batch)
        result.added += len(batch)
    if result.added >= 100:
        backend.optimize()
    return result


def peak_memory_mb() -> float:
    """This process's peak resident memory (0 where the OS does not say)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


# -- adding documents' pages, many documents per child ------------------------------------------
# A child process per document costs more than reading a 10-page document (starting it, importing
# MuPDF and the analyzer), so one child reads many documents in turn. A document that crashes or
# hangs MuPDF takes its child down: the parent marks that one failed and starts a new child for
# the rest.
CHILD_DOCUMENTS = 500  # a fresh child every so often keeps MuPDF's and SQLite's caches from growing
CHILD_DEADLINE_S = 120.0
CHILD_DEADLINE_PER_PAGE_S = 1.0


@dataclass
class LibraryBuild:
    documents: int = 0
    pages: int = 0
    failed: int = 0
    children: int = 0
    child_peak_mb: float = 0.0  # the largest resident memory a child reached


def _library_child(send: Callable[[object], None], entries: list[tuple[str, str]], batch_pages: int) -> None:
    """In the child: read each (path, fingerprint)'s pages into the record, and add them to the
    library index a batch of whole documents at a time; says which document it is on."""
    backend = SqliteLibrary()
    library = Library()
    batch: list[tuple[str, list[tuple[int, str]]]] = []
    paths_in_batch: list[str] = []
    pages_in_batch = 0

    def flush() -> None:
        nonlocal batch, paths_in_batch, pages_in_batch
        if batch:
            backend.add_documents(batch)
            to_team(batch)  # team mode: the team's documents among them go to the team library too
            with library.database.writing() as db:
                db.executemany("UPDATE catalogue SET status = ?, error = NULL WHERE path = ?",
                               [(INDEXED, path) for path in paths_in_batch])
            send(("indexed", paths_in_batch, pages_in_batch))
        batch, paths_in_batch, pages_in_batch = [], [], 0

    for path, fingerprint in entries:
        send(("document", path))
        try:
            with open_pdf(path) as opened:
                if opened.fingerprint != fingerprint:
                    send(("failed", path, "the file changed while it was being added; add it again"))
                    continue
                target = Target(opened.source, None, opened.fingerprint)
                total = opened.page_count
        except PdfDeskError as exc:
            send(("failed", path, f"{exc.code}: {exc.message}"))
            continue
        batch.append((fingerprint, page_texts(target, 1, total) if total else []))
        paths_in_batch.append(path)
        pages_in_batch += total
        if pages_in_batch >= batch_pages:
            flush()
    flush()
    send(("memory", peak_memory_mb()))


class _ChildFollower:
    """What one child has said: the document it is on, and the documents it has finished."""

    def __init__(self, library: Library, build: LibraryBuild, names: dict[str, str], total_pages: int,
                 progress: FileProgress | None) -> None:
        self.library, self.build, self.names = library, build, names
        self.total_pages, self.progress = total_pages, progress
        self.done: set[str] = set()
        self.current: str | None = None

    def __call__(self, message: object) -> None:
        if not isinstance(message, tuple):
            return
        if message[0] == "document":
            self.current = message[1]
        elif message[0] == "failed":
            self.library.fail(message[1], message[2])
            self.done.add(message[1])
            with _build_lock:
                self.build.failed += 1
        elif message[0] == "memory":
            with _build_lock:
                self.build.child_peak_mb = max(self.build.child_peak_mb, float(message[1]))
        elif message[0] == "indexed":
            self.done.update(message[1])
            with _build_lock:
                self.build.documents += len(message[1])
                self.build.pages += message[2]
                done = self.build.pages
            if self.progress is not None:
                self.progress(self.names.get(message[1][-1], ""), done, self.total_pages)


LIBRARY_WORKERS = 2  # children reading documents at once: extraction and analysis use a core each


def build_library_index(entries: list[LibraryEntry], library: Library | None = None,
                        progress: FileProgress | None = None, cancel: threading.Event | None = None,
                        batch_pages: int = INDEX_BATCH_PAGES, workers: int | None = None) -> LibraryBuild:
    """Put the pages of `entries` (registered: fingerprint known) into the library index, a
    transaction of whole documents every `batch_pages` pages, with up to `workers` children at
    once (each reads its own share of the documents; only their commits take turns)."""
    library = library or Library()
    items = [(e.path, e.fingerprint, e.pages, e.name) for e in entries if e.fingerprint]
    build = LibraryBuild()
    total_pages = sum(pages for _, _, pages, _ in items)
    count = max(1, min(workers or LIBRARY_WORKERS, os.cpu_count() or 1, len(items)))
    shares = [items[i::count] for i in range(count)]
    job = _LibraryJob(library, build, total_pages, progress, cancel, batch_pages)
    if count == 1:
        job.run(shares[0])
        return build
    threads = [threading.Thread(target=job.run, args=(share,), name=f"pdfdesk-library-{n}", daemon=True)
               for n, share in enumerate(shares)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if job.errors:
        raise job.errors[0]
    return build


class _LibraryJob:
    """Children for one share of the documents, one after another: a child that dies fails the
    document it was on, and the next child goes on with the rest of the share."""

    def __init__(self, library: Library, build: LibraryBuild, total_pages: int, progress: FileProgress | None,
                 cancel: threading.Event | None, batch_pages: int) -> None:
        self.library, self.build, self.total_pages = library, build, total_pages
        self.progress, self.cancel, self.batch_pages = progress, cancel, batch_pages
        self.errors: list[BaseException] = []

    def run(self, remaining: list[tuple[str, str, int, str]]) -> None:
        try:
            self._run(remaining)
        except BaseException as exc:  # raised again by the thread that started the job
            self.errors.append(exc)

    def _run(self, remaining: list[tuple[str, str, int, str]]) -> None:
        fruitless = 0  # children in a row that ended before reading any document
        while remaining and not (self.cancel is not None and self.cancel.is_set()):
            chunk, remaining = remaining[:CHILD_DOCUMENTS], remaining[CHILD_DOCUMENTS:]
            follower = _ChildFollower(self.library, self.build, {path: name for path, _, _, name in chunk},
                                      self.total_pages, self.progress)
            with _build_lock:
                self.build.children += 1
            deadline = CHILD_DEADLINE_S + CHILD_DEADLINE_PER_PAGE_S * sum(pages for _, _, pages, _ in chunk)
            documents = [(path, fingerprint) for path, fingerprint, _, _ in chunk]
            try:
                childproc.run_job(_library_child, (documents, self.batch_pages), name="pdfdesk-library-index",
                                  priority=childproc.Priority.BACKGROUND, deadline_s=deadline, memory_mb=2048,
                                  cancel=self.cancel, on_message=follower)
            except childproc.JobCancelled:
                return
            except PdfDeskError as exc:
                if exc.extra.get("storage_problem"):
                    raise
                error = f"{exc.code}: {exc.message}"
                culprit = follower.current
                if culprit is not None and culprit not in follower.done:
                    # the document being read took the child down: it fails alone, the rest go on
                    self._fail([culprit], error)
                    follower.done.add(culprit)
                fruitless = fruitless + 1 if culprit is None else 0
                left = [item for item in chunk if item[0] not in follower.done]
                if fruitless >= FRUITLESS_CHILDREN:  # children cannot start here: say so, never loop
                    self._fail([path for path, _, _, _ in left], error)
                    left = []
                # documents read but not yet committed are read again (from the record: no PDF work)
                remaining = left + remaining

    def _fail(self, paths: list[str], error: str) -> None:
        for path in paths:
            self.library.fail(path, error)
        with _build_lock:
            self.build.failed += len(paths)


FRUITLESS_CHILDREN = 2
_build_lock = threading.Lock()  # the counters of a build that several children report to


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
