"""What one open document's worker reads of its scanned pages' recognition.

A scanned page's words come from the page-text record (the OCR stage's), which is keyed by the
document's content fingerprint. The window usually knows the fingerprint already (its indexing
hashed the file) and hands it over; otherwise it is worked out here the first time a scanned page
needs it, hashing the file outside the MuPDF lock so other documents' pages keep rendering. A
born-digital document never pays for it. Not thread-safe: only the worker thread reads it; the
UI thread only hands over a fingerprint (one attribute store).
"""

from __future__ import annotations

from pdfdesk.core.documents import OpenedPdf, open_source
from pdfdesk.core.references import PdfSource
from pdfdesk.tools.recognised_words import WordTuple, ocr_words, recognised_texts


class RecognisedPages:
    """The record's recognised words and texts of one open document."""

    def __init__(self, source: PdfSource, password: str | None) -> None:
        self.source = source
        self.password = password
        self.given: str | None = None  # handed over by the window (UI thread)
        self._worked_out: str | None = None
        self._failed = False

    def fingerprint(self) -> str | None:
        """The document's fingerprint; None when it cannot be worked out (the file went away)."""
        if self.given:
            return self.given
        if self._worked_out is None and not self._failed:
            try:
                self._worked_out = self._hash()
            except Exception:  # the file is gone: its scans just show no words here
                self._failed = True
        return self._worked_out

    def _hash(self) -> str:
        with open_source(self.source, self.password) as opened:
            held: OpenedPdf = opened
        try:
            return held.fingerprint  # read positionally, after the MuPDF lock is let go
        except Exception:  # the handle was closed meanwhile: under the lock after all
            with open_source(self.source, self.password) as opened:
                return opened.fingerprint

    def words(self, number: int) -> list[WordTuple] | None:
        """Recognised words of page `number` (1-based), None when it has none (yet)."""
        fingerprint = self.fingerprint()
        return ocr_words(fingerprint, number) if fingerprint else None

    def texts(self) -> dict[int, str]:
        """Recognised text of every page OCR has read (1-based page -> text)."""
        fingerprint = self.fingerprint()
        return recognised_texts(fingerprint) if fingerprint else {}
