"""Build a document's index in committed batches, in the calling thread or in the background.

Whoever asks first builds: it holds the document's build lock from the first batch to the last,
and a second builder (another thread, or another process such as the MCP server next to the GUI)
finds it taken and leaves the work to the first, or waits for it (`wait=True`).
MuPDF's lock is held one batch at a time, so searches and renders interleave with a build.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from pdfdesk.core.documents import open_source
from pdfdesk.core.outline import read_outline
from pdfdesk.core.references import PdfSource
from pdfdesk.index import embedding, semantic
from pdfdesk.index.headings import heading_starts
from pdfdesk.index.outline_placing import outline_starts
from pdfdesk.index.page_lines import Line, page_lines
from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.index.library_backend import sections_to_team
from pdfdesk.index.paragraphs import prepare_synonyms
from pdfdesk.index.page_text import OCR, SCANNED, PageText, PageTextStore, SectionText, Word, extract_page, stored_texts
from pdfdesk.index.sections import SectionStart, split_sections
from pdfdesk.index.store import SECTIONS, DocumentIndex, IndexState

BATCH_PAGES = 250
SYNONYM_SAMPLE_PAGES = 3  # spread over a document, their first 500 characters tell its scripts, for the thesauri
SYNONYM_SAMPLE_CHARACTERS = 500
Progress = Callable[[int, int], None]  # (pages done, pages total)


@dataclass
class Target:
    """What to index: a resolved source, its password, and its fingerprint."""

    source: PdfSource
    password: str | None
    fingerprint: str


LOCK_SLICE = 25  # pages extracted per MuPDF lock hold, so searches and renders interleave


def page_texts(target: Target, first: int, last: int) -> list[tuple[int, str]]:
    """Text of pages first..last from the page-text record; pages it lacks are read from the PDF
    (a damaged page reads as empty rather than stopping the build) and stored in it."""
    stored = stored_texts(target.fingerprint, first, last)
    missing = [number for number in range(first, last + 1) if number not in stored]
    if missing:
        records = _read_pages(target, missing)
        PageTextStore().write(target.fingerprint, _page_count(target), records)
        stored.update((record.page, record.text) for record in records)
        if any(record.source == SCANNED for record in records):  # some may have been recognised before
            stored.update(stored_texts(target.fingerprint, first, last))
    return [(number, stored.get(number, "")) for number in range(first, last + 1)]


def _page_count(target: Target) -> int:
    with open_source(target.source, target.password) as opened:
        return opened.page_count


def _read_pages(target: Target, numbers: list[int]) -> list[PageText]:
    records: list[PageText] = []
    for start in range(0, len(numbers), LOCK_SLICE):
        with open_source(target.source, target.password) as opened:
            for number in numbers[start:start + LOCK_SLICE]:
                try:
                    records.append(extract_page(opened.doc.load_page(number - 1)))
                except Exception:
                    records.append(PageText(number, ""))
    return records


def _extract_lines(target: Target, numbers: list[int]) -> dict[int, list[Line]]:
    lines: dict[int, list[Line]] = {}
    for start in range(0, len(numbers), LOCK_SLICE):
        with open_source(target.source, target.password) as opened:
            for number in numbers[start:start + LOCK_SLICE]:
                try:
                    lines[number] = page_lines(opened.doc.load_page(number - 1))
                except Exception:
                    lines[number] = []
    bare = [number for number, found in lines.items() if not found]
    if bare:  # scanned pages: their lines are those recognised
        for number, record in PageTextStore().pages(target.fingerprint, bare).items():
            if record.source == OCR and record.words:
                lines[number] = recognised_lines(record.words)
    return lines


def recognised_lines(words: tuple[Word, ...]) -> list[Line]:
    """A scanned page's lines from its recognised words, in reading order; a line's size is its
    height (a heading's letters stand taller than the body's, as its font size does)."""
    grouped: dict[tuple[int, int], list[Word]] = {}
    for word in words:
        grouped.setdefault((word.block, word.line), []).append(word)
    lines = []
    for key in sorted(grouped, key=lambda k: (min(w.box[1] for w in grouped[k]), k)):
        found = grouped[key]
        y0, y1 = min(w.box[1] for w in found), max(w.box[3] for w in found)
        heights = sorted(w.box[3] - w.box[1] for w in found)
        lines.append(Line(y0, y1, " ".join(w.text for w in found), round(heights[len(heights) // 2], 1), False))
    return lines


def _section_lines(target: Target, pages_total: int,
                   texts: dict[int, str]) -> tuple[list[SectionStart], dict[int, list[Line]], str, str]:
    """Section starts and the lines to split: with an outline, only pages where a section starts
    need line positions (other pages belong whole to the section running at their top); without
    one, headings are found from every page's typography."""
    with open_source(target.source, target.password) as opened:
        outline = read_outline(opened.doc)
        has_outline = bool(outline.entries)
        title = (opened.doc.metadata or {}).get("title") or target.source.name
        start_pages = sorted({entry.page for entry in outline.entries if entry.page and 1 <= entry.page <= pages_total})
    if has_outline:
        lines = _extract_lines(target, start_pages)
        with open_source(target.source, target.password) as opened:
            starts = outline_starts(opened.doc, lines)
        missing = [n for n in range(1, pages_total + 1) if n not in lines and n not in texts]
        if missing:  # a resumed build: the page pass kept only the texts it read this time
            texts.update(page_texts(target, missing[0], missing[-1]))
        for number in range(1, pages_total + 1):
            if number not in lines:
                lines[number] = [Line(0.0, 0.0, texts[number], 0.0, False)] if texts[number].strip() else []
        if starts:
            return starts, lines, "outline", title
    lines = _extract_lines(target, list(range(1, pages_total + 1)))
    return heading_starts(lines), lines, "headings", title


def rebuild_sections(target: Target, index: DocumentIndex, state: IndexState) -> bool:
    """Split the sections again from the record (after recognition gave scanned pages text)."""
    texts = dict(page_texts(target, 1, state.pages_total))
    state.sections_indexed = False
    return _build_sections(target, index, state, texts)


def _spread(numbers: list[int]) -> list[int]:
    """SYNONYM_SAMPLE_PAGES of `numbers` from first to last: a Russian report's title page and
    abstract may be in English, and a bilingual contract may hold its second language at the back."""
    if len(numbers) <= SYNONYM_SAMPLE_PAGES:
        return numbers
    step = (len(numbers) - 1) / (SYNONYM_SAMPLE_PAGES - 1)
    return [numbers[round(i * step)] for i in range(SYNONYM_SAMPLE_PAGES)]


def _build_sections(target: Target, index: DocumentIndex, state: IndexState, texts: dict[int, str]) -> bool:
    starts, lines, source_kind, title = _section_lines(target, state.pages_total, texts)
    sections = split_sections(starts, lines, title)
    writer = index.try_writer(SECTIONS, timeout=5.0)
    if writer is None:
        return False
    records = [s.as_record() for s in sections]
    index.replace_sections(writer, records)
    # kept with the page text, and searchable in the library index when the library holds the document
    kept = [SectionText(number, r["start_page"], r["end_page"], r["level"], r["title"], r["path"], r["text"])
            for number, r in enumerate(records)]
    SqliteLibrary().replace_sections(target.fingerprint, kept)
    sections_to_team(target.fingerprint, kept)
    state.sections_indexed, state.sections_source, state.section_count = True, source_kind, len(sections)
    index.write_state(state)
    return True


def build_index(target: Target, progress: Progress | None = None, cancel: threading.Event | None = None,
                wait: bool = False) -> IndexState:
    """Index every page not yet in, then the sections; returns the final state.

    The state is partial when `cancel` is set, or when another thread or process is building
    this document and `wait` is off (the other builder finishes it). With `wait`, that build is
    waited for, its progress reported, and whatever it left undone is then finished here."""
    with open_source(target.source, target.password) as opened:
        pages_total = opened.page_count
    index = DocumentIndex(target.fingerprint)
    seen = -1

    def report_other_builder() -> None:
        nonlocal seen
        state = index.read_state()
        if progress is not None and state is not None and state.pages_indexed != seen:
            seen = state.pages_indexed
            progress(state.pages_indexed, state.pages_total)

    with index.build_lock(wait, cancel, report_other_builder) as held:
        if not held:
            return index.read_state() or IndexState(target.fingerprint, pages_total=pages_total,
                                                    name=target.source.name, source=target.source.display)
        return _build(target, index, pages_total, progress, cancel)


def _build(target: Target, index: DocumentIndex, pages_total: int, progress: Progress | None,
           cancel: threading.Event | None) -> IndexState:
    state = index.open(pages_total, target.source.name, target.source.display)
    texts: dict[int, str] = {}
    while not state.pages_complete:
        if cancel is not None and cancel.is_set():
            return state
        writer = index.try_writer()
        if writer is None:
            return state  # only a builder without the build lock (an older pdfdesk) can hold it
        first = state.pages_indexed + 1
        last = min(first + BATCH_PAGES - 1, pages_total)
        if last < first:  # no pages (a damaged page tree): nothing to index, and no endless loop
            writer.cancel()
            return state
        try:
            batch = page_texts(target, first, last)
            index.add_pages(writer, batch)
            # the last batch merges every segment into one: a query then sets up one matcher per
            # word instead of one per word and segment (ten segments on 2,500 pages)
            writer.commit(optimize=last == pages_total and first > 1)
        except BaseException:
            writer.cancel()
            raise
        texts.update(batch)
        state.pages_indexed = last
        index.write_state(state)
        if progress is not None:
            progress(last, pages_total)
    if texts:  # before the sections, whose state marks the document done: a reader may stop waiting then
        prepare_synonyms(" ".join(texts[number][:SYNONYM_SAMPLE_CHARACTERS] for number in _spread(sorted(texts))))
    if not state.sections_indexed and not (cancel is not None and cancel.is_set()):
        _build_sections(target, index, state, texts)
    return state


def vectors_pending(state: IndexState | None) -> bool:
    """True when vectors are missing or were made by another model than the one configured."""
    if state is None:
        return True
    return not state.semantic_complete or state.semantic_model != semantic.vectors_label()


def build_vectors(target: Target, progress: Progress | None = None, cancel: threading.Event | None = None,
                  wait: bool = False) -> IndexState | None:
    """The second stage: embed the passages of every page not yet embedded, one committed chunk at
    a time, so a stopped run resumes at the next chunk. Needs the keyword stage done (None if not);
    raises EmbeddingUnavailable when no model can be loaded locally."""
    index = DocumentIndex(target.fingerprint)
    with index.build_lock(wait, cancel) as held:
        state = index.open_existing()
        if not held or state is None or not state.pages_complete:
            return state
        store = semantic.SemanticStore(index.folder)
        label = semantic.vectors_label()
        if state.semantic_model != label or index.damage() == semantic.SEMANTIC_DIR or not store.check().usable:
            store.clear()
            index.clear_damage()
            state.semantic_model, state.semantic_complete = label, False
            index.write_state(state)
        if not state.semantic_complete:
            _embed_pages(target, index, state, store, progress, cancel)
        return state


def _embed_pages(target: Target, index: DocumentIndex, state: IndexState, store: semantic.SemanticStore,
                 progress: Progress | None, cancel: threading.Event | None) -> None:
    pending: list[semantic.Passage] = []
    shape = semantic.passage_shape()
    through = store.pages_done()
    first = through + 1
    for start in range(through + 1, state.pages_total + 1, LOCK_SLICE):
        if cancel is not None and cancel.is_set():
            return
        last = min(start + LOCK_SLICE - 1, state.pages_total)
        for number, text in page_texts(target, start, last):
            pending.extend(semantic.passages_of_page(number, text, shape))
        if len(pending) >= semantic.CHUNK_PASSAGES or last == state.pages_total:
            vectors = embedding.embed([p.text for p in pending])
            store.write_chunk(pending, vectors, first_page=first, through_page=last)
            pending, first = [], last + 1
            if progress is not None:
                progress(last, state.pages_total)
    state.semantic_complete = True
    index.write_state(state)
