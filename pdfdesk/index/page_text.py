"""The page-text record: each page's searchable text, read once per document version and kept.

Reading a page's text through MuPDF is the costly part of every search stage, and each stage used
to do it again (the keyword build, the vectors, the scan of pages not yet indexed), not always in
the same way. Now the indexing child extracts a page once into this record, keyed by the
document's content fingerprint, and every stage reads the record: the per-document index, the
library index, the vectors, and the scan. Workers only extract; one store holds the text.

A record says where its text came from (the text layer, or recognition of a scanned page) and keeps
the page's words with their boxes, for highlighting hits on pages whose text came from OCR.
`RECORD_VERSION` is bumped whenever extraction changes, and old records are then read again.
"""

from __future__ import annotations

import sqlite3
import struct
import unicodedata
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

import pymupdf

from pdfdesk.core.ocr import needs_recognition
from pdfdesk.core.text import TEXT_FLAGS, page_text, text_page
from pdfdesk.index.analysis import (
    has_arabic,
    has_presentation_forms,
    space_presentation_words,
)
from pdfdesk.index.database import Database, aggregate, collection_database, first_row, register_schema

RECORD_VERSION = 5
# where a page's text came from: its text layer, recognition, or nowhere yet (a scanned page
# waiting for the OCR stage; its text layer, if any, was not text and is not kept)
TEXT_LAYER, OCR, SCANNED = "text", "ocr", "scan"


@dataclass(frozen=True)
class Word:
    """A word on the page, its box in PDF points from the page's top left, and the text block and
    line it sits in (excerpts quote a word's whole block)."""

    text: str
    box: tuple[float, float, float, float]
    block: int = 0
    line: int = 0


@dataclass(frozen=True)
class PageText:
    """One page's record: its searchable text, where it came from, and its words."""

    page: int
    text: str
    source: str = TEXT_LAYER
    confidence: float | None = None   # OCR's mean word confidence, 0-100
    words: tuple[Word, ...] = ()


def searchable_text(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> str:
    """A page's text as search reads it. Arabic-script text set in presentation forms often has
    no spaces between words, and MuPDF replaces the forms that show where a word ends by plain
    letters unless told to keep ligatures; on such pages the shaped text is read once more and
    cut into words by those forms."""
    return _searchable(page, textpage)[0]


def _searchable(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> tuple[str, bool]:
    """(the searchable text, whether it was read in presentation forms)."""
    text = page_text(page, textpage)
    if not has_arabic(text):
        return text, False
    shaped = page.get_text("text", flags=TEXT_FLAGS | pymupdf.TEXT_PRESERVE_LIGATURES)
    if not has_presentation_forms(shaped):
        return text, False
    # the letters' plain forms, as MuPDF gives them, for the embedding model as for a reader
    return unicodedata.normalize("NFKC", space_presentation_words(shaped)), True


def shaped_text_page(page: pymupdf.Page) -> pymupdf.TextPage:
    """The page's text layer with its presentation forms kept, for reading its words: MuPDF's
    plain letters put a lam-alef ligature's letters in the wrong order ("األجور" for "الأجور"),
    so such words matched neither the page's text nor a query. The analyzer reads the forms
    (and where a run of them holds several words); a reader is shown their letters (NFKC)."""
    return page.get_textpage(flags=TEXT_FLAGS | pymupdf.TEXT_PRESERVE_LIGATURES)


def extract_page(page: pymupdf.Page, words: bool = True) -> PageText:
    """The record of one page from its text layer: text and words read from one TextPage (a
    second, keeping the forms, on a page set in Arabic presentation forms). A page showing an
    image with no usable text layer is recorded as SCANNED, for the OCR stage."""
    textpage = text_page(page)
    text, shaped = _searchable(page, textpage)
    if needs_recognition(page, text):
        return PageText(page.number + 1, "", SCANNED)
    found: tuple[Word, ...] = ()
    if words and text.strip():
        if shaped:
            textpage = shaped_text_page(page)
        found = tuple(Word(w[4], (round(w[0], 1), round(w[1], 1), round(w[2], 1), round(w[3], 1)), w[5], w[6])
                      for w in page.get_text("words", textpage=textpage))
    return PageText(page.number + 1, text, TEXT_LAYER, None, found)


def set_in_presentation_forms(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> bool:
    """Whether the page's Arabic is set in presentation forms (its words are then read shaped)."""
    return _searchable(page, textpage)[1]


# -- packing words: boxes as 16-bit tenths of a point, block and line numbers, words joined, the
# whole compressed ---------------------------------------------------------------------------------
_BOX = struct.Struct("<6H")
_SEPARATOR = "\x1f"


def pack_words(words: Iterable[Word]) -> bytes:
    words = list(words)
    if not words:
        return b""
    boxes = b"".join(_BOX.pack(*(min(max(int(v * 10), 0), 65535) for v in word.box),
                               min(max(word.block, 0), 65535), min(max(word.line, 0), 65535)) for word in words)
    text = _SEPARATOR.join(word.text.replace(_SEPARATOR, " ") for word in words).encode("utf-8")
    return zlib.compress(struct.pack("<I", len(words)) + boxes + text, 1)


def unpack_words(blob: bytes | None) -> tuple[Word, ...]:
    if not blob:
        return ()
    data = zlib.decompress(blob)
    (count,) = struct.unpack_from("<I", data)
    start = 4 + count * _BOX.size
    texts = data[start:].decode("utf-8").split(_SEPARATOR)
    words = []
    for i in range(min(count, len(texts))):
        x0, y0, x1, y1, block, line = _BOX.unpack_from(data, 4 + i * _BOX.size)
        words.append(Word(texts[i], (x0 / 10, y0 / 10, x1 / 10, y1 / 10), block, line))
    return tuple(words)


# page_text_source: every search asks which of a document's pages are scanned and wait for
# recognition; without it SQLite read all of the document's page records to look at their source
# (6 ms for 1,000 pages, a third of a warm search).
def _create(connection: sqlite3.Connection) -> None:
    connection.executescript("""
        CREATE TABLE IF NOT EXISTS page_docs (
            fingerprint TEXT PRIMARY KEY, version INTEGER NOT NULL, pages_total INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS page_text (
            fingerprint TEXT NOT NULL, page INTEGER NOT NULL, source TEXT NOT NULL, confidence REAL,
            text TEXT NOT NULL, words BLOB, PRIMARY KEY (fingerprint, page)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS page_text_source ON page_text (fingerprint, source, page);
        CREATE TABLE IF NOT EXISTS page_sections (
            fingerprint TEXT NOT NULL, number INTEGER NOT NULL, start_page INTEGER NOT NULL,
            end_page INTEGER NOT NULL, level INTEGER NOT NULL, title TEXT NOT NULL, path TEXT NOT NULL,
            text TEXT NOT NULL, PRIMARY KEY (fingerprint, number)) WITHOUT ROWID;
    """)


register_schema("page_text", _create)


@dataclass(frozen=True)
class SectionText:
    """A section of a document (outline entry or detected heading) with its text."""

    number: int
    start_page: int
    end_page: int
    level: int
    title: str
    path: str
    text: str


def stored_sections(db: sqlite3.Connection, fingerprint: str) -> list[SectionText]:
    return [SectionText(*row) for row in db.execute(
        "SELECT number, start_page, end_page, level, title, path, text FROM page_sections WHERE fingerprint = ? "
        "ORDER BY number", (fingerprint,)).fetchall()]


def write_sections(db: sqlite3.Connection, fingerprint: str, sections: list[SectionText]) -> None:
    """Replace the document's sections (inside the caller's transaction)."""
    db.execute("DELETE FROM page_sections WHERE fingerprint = ?", (fingerprint,))
    db.executemany("INSERT INTO page_sections (fingerprint, number, start_page, end_page, level, title, path, text) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   [(fingerprint, s.number, s.start_page, s.end_page, s.level, s.title, s.path, s.text)
                    for s in sections])


@dataclass(frozen=True)
class RecordState:
    """How much of a document the record holds."""

    pages_total: int
    pages_stored: int

    @property
    def complete(self) -> bool:
        return self.pages_stored >= self.pages_total


class PageTextStore:
    """The records of every document version, in the collection database."""

    def __init__(self, database: Database | None = None) -> None:
        self.database = database or collection_database()

    def state(self, fingerprint: str) -> RecordState | None:
        """None when nothing of this version is stored (or it was stored by an older extraction)."""
        with self.database.reading() as db:
            row = first_row(db.execute("SELECT version, pages_total FROM page_docs WHERE fingerprint = ?",
                             (fingerprint,)))
            if row is None or row[0] != RECORD_VERSION:
                return None
            (stored,) = aggregate(db.execute("SELECT COUNT(*) FROM page_text WHERE fingerprint = ?",
                                            (fingerprint,)))
        return RecordState(row[1], stored)

    def texts(self, fingerprint: str, first: int, last: int) -> dict[int, str]:
        """The stored text of pages first..last (those stored; a page missing is not in the dict)."""
        with self.database.reading() as db:
            row = first_row(db.execute("SELECT version FROM page_docs WHERE fingerprint = ?", (fingerprint,)))
            if row is None or row[0] != RECORD_VERSION:
                return {}
            return dict(db.execute("SELECT page, text FROM page_text WHERE fingerprint = ? AND page BETWEEN ? AND ?",
                                   (fingerprint, first, last)).fetchall())

    def pages(self, fingerprint: str, numbers: Iterable[int]) -> dict[int, PageText]:
        """Whole records (words included) of the given pages that are stored."""
        wanted = sorted(set(numbers))
        if not wanted:
            return {}
        found: dict[int, PageText] = {}
        with self.database.reading() as db:
            row = first_row(db.execute("SELECT version FROM page_docs WHERE fingerprint = ?", (fingerprint,)))
            if row is None or row[0] != RECORD_VERSION:
                return {}
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for page, source, confidence, text, words in db.execute(
                        f"SELECT page, source, confidence, text, words FROM page_text WHERE fingerprint = ? "
                        f"AND page IN ({marks})", (fingerprint, *chunk)):
                    found[page] = PageText(page, text, source, confidence, unpack_words(words))
        return found

    def recognised(self, fingerprint: str) -> dict[int, tuple[str, float | None]]:
        """(text, confidence) of every page of the document read by OCR (no words unpacked)."""
        with self.database.reading() as db:
            row = first_row(db.execute("SELECT version FROM page_docs WHERE fingerprint = ?", (fingerprint,)))
            if row is None or row[0] != RECORD_VERSION:
                return {}
            return {page: (text, confidence) for page, text, confidence in db.execute(
                "SELECT page, text, confidence FROM page_text WHERE fingerprint = ? AND source = ?",
                (fingerprint, OCR))}

    def recognised_count(self, fingerprint: str) -> int:
        """How many of the document's pages were read by OCR (a count, for progress)."""
        with self.database.reading() as db:
            (count,) = aggregate(db.execute("SELECT COUNT(*) FROM page_text WHERE fingerprint = ? AND source = ?",
                                            (fingerprint, OCR)))
        return int(count)

    def write(self, fingerprint: str, pages_total: int, records: Iterable[PageText]) -> None:
        """Store pages of a document in one transaction (a page stored again is replaced)."""
        rows = [(fingerprint, r.page, r.source, r.confidence, r.text, pack_words(r.words)) for r in records]
        with self.database.writing() as db:
            row = first_row(db.execute("SELECT version FROM page_docs WHERE fingerprint = ?", (fingerprint,)))
            if row is not None and row[0] != RECORD_VERSION:
                # what Tesseract read is kept: a new way of reading text layers does not change
                # it, and reading a scan again costs seconds a page
                db.execute("DELETE FROM page_text WHERE fingerprint = ? AND source != ?", (fingerprint, OCR))
            db.execute("INSERT OR REPLACE INTO page_docs (fingerprint, version, pages_total) VALUES (?, ?, ?)",
                       (fingerprint, RECORD_VERSION, pages_total))
            # a scanned page read again from its file stays recognised
            db.executemany(
                "INSERT INTO page_text (fingerprint, page, source, confidence, text, words) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (fingerprint, page) DO UPDATE SET source = excluded.source, "
                "confidence = excluded.confidence, text = excluded.text, words = excluded.words "
                f"WHERE page_text.source != '{OCR}' OR excluded.source != '{SCANNED}'", rows)

    def sections(self, fingerprint: str) -> list[SectionText]:
        """The document's sections as its own index last split them (none until it has)."""
        with self.database.reading() as db:
            return stored_sections(db, fingerprint)

    def forget(self, fingerprint: str) -> None:
        with self.database.writing() as db:
            db.execute("DELETE FROM page_text WHERE fingerprint = ?", (fingerprint,))
            db.execute("DELETE FROM page_sections WHERE fingerprint = ?", (fingerprint,))
            db.execute("DELETE FROM page_docs WHERE fingerprint = ?", (fingerprint,))


def stored_page(fingerprint: str, number: int) -> PageText | None:
    """One page's whole record, or None when it is not stored or the database cannot be read."""
    try:
        return PageTextStore().pages(fingerprint, [number]).get(number)
    except OSError:
        return None


def stored_texts(fingerprint: str, first: int, last: int) -> dict[int, str]:
    """The record's texts of pages first..last, or {} when the database cannot be read (a reader
    then reads the PDF itself: a missing record never fails a search)."""
    try:
        return PageTextStore().texts(fingerprint, first, last)
    except OSError:
        return {}
