"""The OCR stage of a document's index: its scanned pages recognised, one page at a time.

The keyword stage records a page that shows an image and has no usable text layer as SCANNED.
This stage reads those pages with Tesseract and writes each result into the page-text record as
soon as it is read, then into the document's page index and, when the library holds the
document, the library index: a page is searchable the moment it is done, and everything that
reads the record (search, excerpts, hit boxes, sections, vectors, text extraction, the agent)
sees the recognised words without code of its own.

Restart-safe: the record is kept with the document's fingerprint, so no page is recognised twice;
a page is marked as attempted before Tesseract starts on it, so a page that brought its stage
down twice (a kill, a crash, a deadline) gets a note instead of a third try, and the queue moves on.
While nobody works in the window the stage reads as many pages at once as the machine has cores.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor
from concurrent.futures import wait as first_of
from dataclasses import dataclass, field
from typing import Protocol

import pymupdf

from pdfdesk.core import paths
from pdfdesk.core.config import get_config
from pdfdesk.core.documents import open_source
from pdfdesk.core.ocr import PageReader, Recognition
from pdfdesk.core.ocr_languages import OcrUnavailable, parse_languages, tesseract_program, usable_languages
from pdfdesk.index.builder import Target, rebuild_sections
from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.index.library_backend import page_to_team
from pdfdesk.index.store import DocumentIndex, IndexState
from pdfdesk.index.database import Database, collection_database, register_schema
from pdfdesk.index.page_text import OCR, SCANNED, PageText, PageTextStore, Word

MAX_ATTEMPTS = 2
ACTIVITY_FILE = "activity"   # the window touches it while someone works in it
IDLE_AFTER_S = 30.0          # no input for this long: the stage may use every core
Progress = Callable[[int, int], None]


def _create(connection: sqlite3.Connection) -> None:
    connection.executescript("""
        CREATE TABLE IF NOT EXISTS ocr_pages (
            fingerprint TEXT NOT NULL, page INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
            note TEXT, PRIMARY KEY (fingerprint, page)) WITHOUT ROWID;
    """)


register_schema("ocr_pages", _create)


def ocr_wanted() -> bool:
    """Whether this machine recognises scanned pages: the setting is on, and Tesseract is here
    with language data for at least one of the languages set (or English)."""
    config = get_config()
    return config.ocr and tesseract_program() is not None and bool(
        usable_languages(parse_languages(config.ocr_languages))[0])


def configured_languages() -> tuple[str, ...]:
    return parse_languages(get_config().ocr_languages)


@dataclass
class PageNotes:
    """Pages waiting for recognition, and those given up on (page -> why)."""

    waiting: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)


class RecognitionLedger:
    """Which scanned pages of a document wait, which were tried, and which were given up on."""

    def __init__(self, database: Database | None = None) -> None:
        self.database = database or collection_database()

    def pages(self, fingerprint: str) -> PageNotes:
        with self.database.reading() as db:
            scanned = [row[0] for row in db.execute(
                "SELECT page FROM page_text WHERE fingerprint = ? AND source = ? ORDER BY page",
                (fingerprint, SCANNED))]
            tried = {page: (attempts, note) for page, attempts, note in db.execute(
                "SELECT page, attempts, note FROM ocr_pages WHERE fingerprint = ?", (fingerprint,))}
        notes = PageNotes()
        for page in scanned:
            attempts, note = tried.get(page, (0, None))
            if note is None and attempts >= MAX_ATTEMPTS:
                note = f"recognition stopped {attempts} times on this page; it was given up"
            if note is not None:
                notes.failed[page] = note
            else:
                notes.waiting.append(page)
        return notes

    def attempt(self, fingerprint: str, page: int) -> None:
        with self.database.writing() as db:
            db.execute("INSERT INTO ocr_pages (fingerprint, page, attempts) VALUES (?, ?, 1) "
                       "ON CONFLICT (fingerprint, page) DO UPDATE SET attempts = attempts + 1", (fingerprint, page))

    def give_up(self, fingerprint: str, page: int, note: str) -> None:
        with self.database.writing() as db:
            db.execute("INSERT INTO ocr_pages (fingerprint, page, attempts, note) VALUES (?, ?, 1, ?) "
                       "ON CONFLICT (fingerprint, page) DO UPDATE SET note = excluded.note", (fingerprint, page, note))

    def done(self, fingerprint: str, page: int) -> None:
        with self.database.writing() as db:
            db.execute("DELETE FROM ocr_pages WHERE fingerprint = ? AND page = ?", (fingerprint, page))

    def waiting(self, fingerprint: str) -> list[int]:
        try:
            return self.pages(fingerprint).waiting
        except OSError:
            return []


def recognition_pending(fingerprint: str) -> bool:
    """Whether the OCR stage has pages of this document left (and can run here)."""
    return ocr_wanted() and bool(RecognitionLedger().waiting(fingerprint))


def activity_path() -> str:
    return str(paths.app_data_dir() / ACTIVITY_FILE)


def note_activity() -> None:
    """Called by the window on user input (at most every few seconds): recognition then keeps
    to one core, leaving the other to the reader."""
    path = activity_path()
    try:
        with open(path, "a"):
            pass
        os.utime(path)
    except OSError:
        pass


def workers_now() -> int:
    """One reader while someone works in the window, else one per core."""
    try:
        idle = time.time() - os.stat(activity_path()).st_mtime > IDLE_AFTER_S
    except OSError:
        idle = True
    return max(1, os.cpu_count() or 1) if idle else 1


def record_of(number: int, recognition: Recognition) -> PageText:
    """The page-text record of a recognised page."""
    words = tuple(Word(w.text, w.box, w.block, w.line) for w in recognition.words)
    confidence = round(recognition.confidence, 1) if recognition.confidence is not None else None
    return PageText(number, recognition.text, OCR, confidence, words)


Publish = Callable[[int, PageText], None]  # make one recognised page searchable


class PageAttempts(Protocol):
    """Where recognition says which page it starts, gives up on, and finishes."""

    def attempt(self, fingerprint: str, page: int) -> None: ...

    def give_up(self, fingerprint: str, page: int, note: str) -> None: ...

    def done(self, fingerprint: str, page: int) -> None: ...


def recognise_pages(target: Target, pages: list[int], publish: Publish, languages: tuple[str, ...],
                    progress: Progress | None = None, cancel: threading.Event | None = None,
                    workers: Callable[[], int] = workers_now, reader: PageReader | None = None,
                    budget_s: float | None = None, attempts: PageAttempts | None = None) -> int:
    """Recognise `pages` of a document, `workers()` at a time, publishing each as it is read;
    returns the pages recognised. Pages are rendered here, one at a time, reopening the document
    for each (searches and renders interleave as with a keyword build); Tesseract reads them side
    by side in processes of its own. After `budget_s` no new page is started. Each page's start,
    failure and end go to `attempts` (the ledger, so a page that brought a run down is not
    tried for ever)."""
    until = None if budget_s is None else time.monotonic() + budget_s
    fingerprint = target.fingerprint
    ledger = attempts if attempts is not None else RecognitionLedger()
    reader = reader or PageReader(languages)
    todo = deque(pages)
    running: dict[Future[Recognition], int] = {}
    done = 0
    total = len(pages)
    pool = ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1), thread_name_prefix="pdfdesk-ocr")
    try:
        while todo or running:
            if until is not None and len(todo) < total and time.monotonic() > until:
                todo.clear()  # the rest waits for the next turn (every turn reads a page at least)
            while todo and len(running) < workers() and not (cancel is not None and cancel.is_set()):
                number = todo.popleft()
                ledger.attempt(fingerprint, number)
                with open_source(target.source, target.password) as opened:
                    try:
                        image = reader.render(opened.doc.load_page(number - 1))
                    except Exception as exc:  # a damaged page: noted, never retried forever
                        ledger.give_up(fingerprint, number, f"the page could not be rendered ({exc})")
                        continue
                    finally:
                        # MuPDF keeps each decoded scan in its store; read once, they only cost
                        # memory (a 300 dpi page is tens of MB, and 20 of them grew the stage by 200 MB)
                        pymupdf.TOOLS.store_shrink(100)
                running[pool.submit(reader.read, image)] = number
            if not running:
                break
            finished = _first_done(running)
            number = running.pop(finished)
            try:
                recognition = finished.result()
            except TimeoutError as exc:
                ledger.give_up(fingerprint, number, f"ocr_timeout: {exc}")
                continue
            except MemoryError as exc:
                ledger.give_up(fingerprint, number, f"ocr_memory: {exc}")
                continue
            except OcrUnavailable as exc:
                ledger.give_up(fingerprint, number, f"ocr_failed: {exc}")
                continue
            publish(number, record_of(number, recognition))
            ledger.done(fingerprint, number)
            done += 1
            if progress is not None:
                progress(done, total)
    finally:
        for future in running:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        reader.close()
    return done


def _first_done(running: dict[Future[Recognition], int]) -> Future[Recognition]:
    finished, _ = first_of(list(running), return_when=FIRST_COMPLETED)
    # the earliest page first when several finished together: pages appear in order
    return min(finished, key=lambda future: running[future])


def build_recognition(target: Target, progress: Progress | None = None, cancel: threading.Event | None = None,
                      wait: bool = False, workers: Callable[[], int] = workers_now,
                      budget_s: float | None = None) -> IndexState | None:
    """The OCR stage: recognise the document's waiting scanned pages, each searchable when done,
    starting no new page after `budget_s` (the owner takes turns: a document opened meanwhile
    is not kept waiting behind a long scan); once none waits, split its sections again and have
    its vectors made again, both reading the new text. Needs the keyword stage done (None if
    not); raises OcrUnavailable when Tesseract cannot run."""
    index = DocumentIndex(target.fingerprint)
    with index.build_lock(wait, cancel) as held:
        state = index.open_existing()
        if not held or state is None or not state.pages_complete:
            return state
        waiting = RecognitionLedger().pages(target.fingerprint).waiting
        if not waiting:
            return state
        library = SqliteLibrary()
        pages_total = state.pages_total

        def publish(number: int, record: PageText) -> None:
            # the indices first, the record last: the record marks the page done, so a kill in
            # between leaves it waiting and read again, never done but missing from a search
            writer = index.try_writer(timeout=30.0)
            if writer is not None:  # only a pdfdesk without build locks can hold it
                try:
                    index.add_pages(writer, [(number, record.text)])
                    writer.commit()
                except BaseException:
                    writer.cancel()
                    raise
            library.replace_page(target.fingerprint, number, record.text)
            page_to_team(target.fingerprint, number, record.text)
            PageTextStore().write(target.fingerprint, pages_total, [record])

        recognise_pages(target, waiting, publish, configured_languages(), progress, cancel, workers,
                        budget_s=budget_s)
        # the turn that ends the waiting (whatever it read itself) hands the text on
        if not RecognitionLedger().pages(target.fingerprint).waiting \
                and PageTextStore().recognised_count(target.fingerprint):
            rebuild_sections(target, index, state)
            if state.semantic_model is not None:  # made before these pages had text: made again
                state.semantic_model, state.semantic_complete = None, False
            index.write_state(state)
        return state


def recognised_pages(fingerprint: str, numbers: list[int]) -> dict[int, tuple[str, float | None]]:
    """The recognised text and confidence of those of `numbers` the OCR stage has read ({} when
    the record cannot be read: a reader then reports the pages as scans)."""
    try:
        found = PageTextStore().recognised(fingerprint)
    except OSError:
        return {}
    wanted = set(numbers)
    return {number: value for number, value in found.items() if number in wanted}


def awaiting_recognition(fingerprint: str) -> list[int]:
    """Scanned pages of a document that recognition has not read yet ([] when it cannot run here)."""
    return RecognitionLedger().waiting(fingerprint) if ocr_wanted() else []


def recognition_failures(fingerprint: str) -> dict[int, str]:
    """Scanned pages recognition gave up on, each with its coded note ({} when none or unreadable)."""
    try:
        return RecognitionLedger().pages(fingerprint).failed
    except OSError:
        return {}


def recognition_note() -> str | None:
    """One line on what keeps scanned pages from being read as set (Tesseract or some of the
    languages not installed), or None when nothing does (or OCR is turned off)."""
    config = get_config()
    if not config.ocr:
        return None
    if tesseract_program() is None:
        return "Scanned pages are not recognised: Tesseract is not installed (Debian/Ubuntu: apt install tesseract-ocr)"
    return usable_languages(parse_languages(config.ocr_languages))[1]
