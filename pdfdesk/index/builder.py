"""Build a document's index in committed batches, in the calling thread or in the background.

Whoever asks first builds; a second builder (another thread, or another process such as the MCP
server next to the GUI) finds the Whoosh write lock taken and leaves the work to the first.
MuPDF's lock is held one batch at a time, so searches and renders interleave with a build.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass

from pdfdesk.core.documents import open_source
from pdfdesk.core.references import PdfSource
from pdfdesk.core.text import page_text, text_page
from pdfdesk.index import semantic
from pdfdesk.index.sections import Line, heading_starts, outline_starts, page_lines, split_sections
from pdfdesk.index.store import DocumentIndex, IndexState

BATCH_PAGES = 250
Progress = Callable[[int, int], None]  # (pages done, pages total)


@dataclass
class Target:
    """What to index: a resolved source, its password, and its fingerprint."""

    source: PdfSource
    password: str | None
    fingerprint: str


LOCK_SLICE = 25  # pages extracted per MuPDF lock hold, so searches and renders interleave


def _extract_batch(target: Target, first: int, last: int,
                   with_lines: bool = True) -> tuple[list[tuple[int, str]], dict[int, list[Line]]]:
    texts: list[tuple[int, str]] = []
    lines: dict[int, list[Line]] = {}
    for start in range(first, last + 1, LOCK_SLICE):
        with open_source(target.source, target.password) as opened:
            for number in range(start, min(start + LOCK_SLICE - 1, last) + 1):
                try:
                    page = opened.doc.load_page(number - 1)
                    textpage = text_page(page)
                    texts.append((number, page_text(page, textpage)))
                    if with_lines:
                        lines[number] = page_lines(page, textpage)
                except Exception:  # a damaged page is indexed as empty rather than stopping the build
                    texts.append((number, ""))
                    lines[number] = []
    return texts, lines


def _build_sections(target: Target, index: DocumentIndex, state: IndexState,
                    lines: dict[int, list[Line]]) -> bool:
    with open_source(target.source, target.password) as opened:
        doc = opened.doc
        missing = [n for n in range(1, doc.page_count + 1) if n not in lines]
        for number in missing:
            try:
                lines[number] = page_lines(doc.load_page(number - 1))
            except Exception:
                lines[number] = []
        starts = outline_starts(doc, lines)
        source_kind = "outline"
        if not starts:
            starts = heading_starts(lines)
            source_kind = "headings"
        title = (doc.metadata or {}).get("title") or target.source.name
    sections = split_sections(starts, lines, title)
    writer = index.try_writer(timeout=5.0)
    if writer is None:
        return False
    index.add_sections(writer, (s.as_record() for s in sections))
    writer.commit()
    state.sections_indexed, state.sections_source, state.section_count = True, source_kind, len(sections)
    index.write_state(state)
    return True


def build_index(target: Target, progress: Progress | None = None, cancel: threading.Event | None = None) -> IndexState:
    """Index every page not yet in, then the sections; returns the final state (may be partial
    when another builder holds the lock or `cancel` is set)."""
    with open_source(target.source, target.password) as opened:
        pages_total = opened.page_count
    index = DocumentIndex(target.fingerprint)
    state = index.open(pages_total, target.source.name, target.source.display)
    lines: dict[int, list[Line]] = {}
    while not state.pages_complete:
        if cancel is not None and cancel.is_set():
            return state
        writer = index.try_writer()
        if writer is None:
            return state  # someone else is building this document
        first = state.pages_indexed + 1
        last = min(first + BATCH_PAGES - 1, pages_total)
        try:
            texts, batch_lines = _extract_batch(target, first, last)
            index.add_pages(writer, texts)
            writer.commit()
        except BaseException:
            writer.cancel()
            raise
        lines.update(batch_lines)
        state.pages_indexed = last
        index.write_state(state)
        if progress is not None:
            progress(last, pages_total)
    if not state.sections_indexed and not (cancel is not None and cancel.is_set()):
        _build_sections(target, index, state, lines)
    if semantic.status(wait=None)[0] and not (cancel is not None and cancel.is_set()):
        _build_semantic(target, index, state, cancel)
    return state


def semantic_pending(state: IndexState | None) -> bool:
    """True when vectors are missing or were made by another model than the one configured."""
    if state is None:
        return True
    return not state.semantic_complete or state.semantic_model != semantic.model_label()


def _build_semantic(target: Target, index: DocumentIndex, state: IndexState,
                    cancel: threading.Event | None) -> None:
    """Embed passages of every page not yet embedded, one committed chunk at a time."""
    store = semantic.SemanticStore(index.folder)
    label = semantic.model_label()
    if state.semantic_model != label:
        shutil.rmtree(store.folder, ignore_errors=True)
        state.semantic_model, state.semantic_complete = label, False
        index.write_state(state)
    if state.semantic_complete:
        return
    writer = index.try_writer()  # the index's write lock also guards its vectors
    if writer is None:
        return
    try:
        _embed_pages(target, index, state, store, cancel)
    finally:
        writer.cancel()


def _embed_pages(target: Target, index: DocumentIndex, state: IndexState, store: semantic.SemanticStore,
                 cancel: threading.Event | None) -> None:
    pending: list[semantic.Passage] = []
    through = store.pages_done()
    for start in range(through + 1, state.pages_total + 1, LOCK_SLICE):
        if cancel is not None and cancel.is_set():
            return
        last = min(start + LOCK_SLICE - 1, state.pages_total)
        texts, _ = _extract_batch(target, start, last, with_lines=False)
        for number, text in texts:
            pending.extend(semantic.passages_of_page(number, text))
        if len(pending) >= semantic.CHUNK_PASSAGES or last == state.pages_total:
            vectors = semantic.embed([p.text for p in pending]) if pending else semantic.embed([""])[:0]
            store.write_chunk(pending, vectors, through_page=last)
            pending = []
    state.semantic_complete = True
    index.write_state(state)


class BackgroundBuilds:
    """At most one background build per document in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._threads: dict[str, threading.Thread] = {}
        self.errors: dict[str, str] = {}

    def start(self, target: Target) -> bool:
        """Start building unless a build of this document is already running; True if started."""
        with self._lock:
            running = self._threads.get(target.fingerprint)
            if running is not None and running.is_alive():
                return False
            thread = threading.Thread(target=self._run, args=(target,), name=f"index-{target.fingerprint[:8]}",
                                      daemon=True)
            self._threads[target.fingerprint] = thread
            thread.start()
            return True

    def _run(self, target: Target) -> None:
        try:
            build_index(target)
        except Exception as exc:  # recorded for `details`; the next search retries
            self.errors[target.fingerprint] = f"{type(exc).__name__}: {exc}"

    def running(self, fingerprint: str) -> bool:
        thread = self._threads.get(fingerprint)
        return thread is not None and thread.is_alive()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for every running build (the CLI finishes indexing before it exits)."""
        for thread in list(self._threads.values()):
            thread.join(timeout)


BACKGROUND = BackgroundBuilds()
