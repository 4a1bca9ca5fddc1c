"""Recognise a document's scanned pages now, for a user who is waiting (a searchable copy),
keeping every page read in the page-text record so the work is never done twice.

A document the index knows goes through its own OCR stage, in this process: the pages then
become searchable in the index and the library as well, and a stage already running for it
elsewhere (the window's indexer) is waited for rather than repeated. A document never indexed
is read here, page by page, and each result is stored as the OCR stage stores it, so indexing it
later finds the pages done. A data folder that cannot be written only loses the keeping.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pdfdesk.core.ocr_languages import OcrUnavailable
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.page_text import OCR, PageText, PageTextStore
from pdfdesk.index.recognition import RecognitionLedger, build_recognition, configured_languages, recognise_pages
from pdfdesk.index.store import DocumentIndex

MAX_WORKERS = 4  # Tesseract processes at once: each may take up to its memory cap
Progress = Callable[[int, int], None]  # (pages recognised, pages to recognise)


@dataclass
class Recognised:
    """What recognising a document's scanned pages gave: records by page, and why pages failed."""

    records: dict[int, PageText] = field(default_factory=dict)
    failed: dict[int, str] = field(default_factory=dict)
    not_kept: str | None = None  # why the records could not be stored, if they could not


def recognise_now(target: Target, pages: list[int], pages_total: int, progress: Progress | None = None,
                  cancel: threading.Event | None = None) -> Recognised:
    """Recognise `pages` (scanned, not yet read) of the document; stops early when `cancel` is set.
    Pages Tesseract cannot read (or cannot run for) are in `failed` with the reason."""
    if not pages:
        return Recognised()
    state = DocumentIndex(target.fingerprint).read_state()
    if state is not None:
        try:
            return _through_stage(target, pages, progress, cancel)
        except OSError:  # the index cannot be written now: read the pages here instead
            pass
    return _directly(target, pages, pages_total, progress, cancel)


def _workers() -> int:
    """Pages read at once: the user is waiting for these, so more than the background's one."""
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def _through_stage(target: Target, pages: list[int], progress: Progress | None,
                   cancel: threading.Event | None) -> Recognised:
    """The OCR stage of the document's index, in this process (the keyword stage finished first
    when it was interrupted), waiting for another builder of this document if one is at work."""
    state = DocumentIndex(target.fingerprint).read_state()
    if state is None or not state.pages_complete:
        build_index(target, cancel=cancel, wait=True)
    found = Recognised()
    try:
        build_recognition(target, progress, cancel, wait=True, workers=_workers)
    except OcrUnavailable as exc:
        found.failed = {page: str(exc) for page in pages}
        return found
    records = PageTextStore().pages(target.fingerprint, pages)
    notes = RecognitionLedger().pages(target.fingerprint).failed
    for page in pages:
        record = records.get(page)
        if record is not None and record.source == OCR:
            found.records[page] = record
        elif page in notes:
            found.failed[page] = notes[page]
    return found


class _Failures:
    """The page attempts of a document read outside its index: failures are only reported."""

    def __init__(self, found: Recognised) -> None:
        self.found = found

    def attempt(self, fingerprint: str, page: int) -> None:
        pass

    def give_up(self, fingerprint: str, page: int, note: str) -> None:
        self.found.failed[page] = note

    def done(self, fingerprint: str, page: int) -> None:
        pass


def _directly(target: Target, pages: list[int], pages_total: int, progress: Progress | None,
              cancel: threading.Event | None) -> Recognised:
    """Read the pages as the OCR stage does, up to MAX_WORKERS side by side, each record stored
    as soon as it is read (where the data folder takes it)."""
    found = Recognised()

    def publish(number: int, record: PageText) -> None:
        found.records[number] = record
        _keep(target.fingerprint, pages_total, [record], found)

    try:
        recognise_pages(target, pages, publish, configured_languages(), progress, cancel, workers=_workers,
                        attempts=_Failures(found))
    except OcrUnavailable as exc:
        found.failed.update({page: str(exc) for page in pages if page not in found.records})
    return found


def _keep(fingerprint: str, pages_total: int, records: Iterable[PageText], found: Recognised) -> None:
    """Store records as the OCR stage does; a data folder that cannot take them is noted once."""
    if found.not_kept is not None:
        return
    try:
        PageTextStore().write(fingerprint, pages_total, records)
    except OSError as exc:
        found.not_kept = exc.strerror or str(exc)
