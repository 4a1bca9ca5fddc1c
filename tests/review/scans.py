"""Scanned PDFs put through the real pipeline (the keyword stage, then Tesseract), for the tests of
notes, selection and find on recognised pages. Expected words are read back from the page-text
record, never written into the test: what OCR read is what a recognised page must behave as."""

from __future__ import annotations

from pathlib import Path

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.page_text import OCR, PageText, PageTextStore, Word
from pdfdesk.index.recognition import build_recognition
from pdfdesk.tools.recognised_words import WordTuple, ocr_words
from tests.pdf_factory import scanned_pdf

HARBOUR = ("Quarterly report of the harbour office. The committee approved the budget for dredging "
           "the northern basin.")
UPRIGHT_TURNED = {"turn": {1: 90}, "rotate": {1: 90}}  # a sheet scanned sideways, shown upright by /Rotate


def harbour_scan(path: Path, **layout: dict[int, int]) -> Path:
    return scanned_pdf(path, [HARBOUR], **layout)


def target_of(path: Path) -> Target:
    with open_pdf(str(path)) as opened:
        return Target(opened.source, None, opened.fingerprint)


def indexed(path: Path) -> Target:
    """The keyword stage only: the scanned pages wait for recognition."""
    target = target_of(path)
    build_index(target, wait=True)
    return target


def recognised(path: Path) -> Target:
    """Both stages, as the indexing owner runs them."""
    target = indexed(path)
    build_recognition(target, wait=True)
    return target


def record_words(fingerprint: str, page: int = 1) -> list[WordTuple]:
    words = ocr_words(fingerprint, page)
    assert words, f"page {page} was not recognised"
    return words


def word_box(fingerprint: str, text: str, page: int = 1) -> tuple[float, float, float, float]:
    """The recognised box of the first word reading `text` (punctuation aside)."""
    for word in record_words(fingerprint, page):
        if word[4].strip(".,").lower() == text.lower():
            return word[0], word[1], word[2], word[3]
    raise AssertionError(f"{text!r} was not recognised on page {page}: {record_words(fingerprint, page)}")


def rerecognise_shifted(fingerprint: str, dx: float, dy: float, page: int = 1) -> None:
    """Write the page's record again as a new reading would: the same words, boxes moved a little."""
    store = PageTextStore()
    record = store.pages(fingerprint, [page])[page]
    assert record.source == OCR
    state = store.state(fingerprint)
    assert state is not None
    moved = tuple(Word(w.text, (w.box[0] + dx, w.box[1] + dy, w.box[2] + dx, w.box[3] + dy), w.block, w.line)
                  for w in record.words)
    store.write(fingerprint, state.pages_total, [PageText(page, record.text, OCR, record.confidence, moved)])
