"""The words OCR recognised on a document's scanned pages, as the text layer those pages lack.

The OCR stage keeps what it read in the page-text record, keyed by the document's fingerprint:
each word with its box in unrotated page points, the space `page.get_text("words")` uses. The
viewer (selection, find) and the anchoring of review notes read a scanned page through here, so a
recognised page behaves like one with a text layer. Only records that came from OCR count: a page
with a text layer is always read from the PDF, where MuPDF knows every character's box.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pymupdf

from pdfdesk.core.documents import OpenedPdf
from pdfdesk.core.text import has_images, text_page
from pdfdesk.index.page_text import OCR, PageTextStore, Word, stored_page
from pdfdesk.index.recognition import awaiting_recognition
from pdfdesk.review.anchoring import sync
from pdfdesk.review.records import Annotation
from pdfdesk.review.store import AnnotationStore

# (x0, y0, x1, y1, text, block, line): get_text("words") without its word number
WordTuple = tuple[float, float, float, float, str, int, int]


def as_tuples(words: Iterable[Word]) -> list[WordTuple]:
    return [(w.box[0], w.box[1], w.box[2], w.box[3], w.text, w.block, w.line) for w in words]


def ocr_words(fingerprint: str, number: int) -> list[WordTuple] | None:
    """The recognised words of page `number` (1-based) in reading order, or None when the record
    holds none for it (a text page, a page not recognised yet, no record, an unreadable store)."""
    record = stored_page(fingerprint, number)
    if record is None or record.source != OCR or not record.words:
        return None
    return as_tuples(record.words)


def page_words(opened: OpenedPdf, page: pymupdf.Page, number: int,
               textpage: pymupdf.TextPage | None = None) -> tuple[list[WordTuple], str, bool]:
    """The words to lay a page out by (find its tables): its text layer's, or on a scan the words
    OCR recognised; their source ("text" or "ocr"); and whether the page is a scan still waiting
    for recognition. `textpage` spares a caller that has one a second extraction."""
    words: list[WordTuple] = [w[:7] for w in page.get_text("words", textpage=textpage or text_page(page))]
    if len(words) >= 3:
        return words, "text", False
    recognised = ocr_words(opened.fingerprint, number)
    if recognised:
        return recognised, "ocr", False
    return words, "text", has_images(page)


def recognised_texts(fingerprint: str) -> dict[int, str]:
    """The recognised text of every page of this version OCR has read ({} when none, or when the
    store cannot be read: the pages then stay what their text layer says)."""
    try:
        found = PageTextStore().recognised(fingerprint)
    except OSError:
        return {}
    return {page: text for page, (text, _confidence) in found.items()}


@dataclass(frozen=True)
class RecognisedWords:
    """anchoring's `words_of` for one version of a document: its recognised pages answer from
    the record, every other page from its own text layer (None)."""

    fingerprint: str
    pages: frozenset[int]

    def __call__(self, page: int) -> list[WordTuple] | None:
        return ocr_words(self.fingerprint, page) if page in self.pages else None


def recognised_words(fingerprint: str) -> RecognisedWords | None:
    """The provider for a document version, or None when OCR read none of its pages."""
    pages = frozenset(recognised_texts(fingerprint))
    return RecognisedWords(fingerprint, pages) if pages else None


def synced_notes(store: AnnotationStore, opened: OpenedPdf) -> list[Annotation]:
    """The document's notes found again in this version, scanned pages read through their
    recognised words, and notes on pages still waiting for recognition left as they were."""
    return sync(store, opened, recognised_words(opened.fingerprint), unread=awaiting_recognition(opened.fingerprint))
