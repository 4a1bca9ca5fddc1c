"""Helpers the PDF tools share about the document they read."""

from __future__ import annotations

from typing import Any

from pdfdesk.core.documents import OpenedPdf
from pdfdesk.core.outline import read_outline
from pdfdesk.tools.details import DocumentDetails


def count_entries(doc: Any) -> int:
    """Outline entries (up to core.outline's cap), counted without resolving destinations."""
    return read_outline(doc, limit=0).total


def document_details(opened: OpenedPdf) -> DocumentDetails:
    """The fields every tool result carries about the document it read."""
    details: DocumentDetails = {"file": opened.source.display, "pages_total": opened.page_count}
    if opened.repaired:
        details["repaired"] = True
        details["repair_warnings"] = [w[:300] for w in opened.warnings[-5:]]
    return details


def repaired_note(opened: OpenedPdf) -> str:
    if not opened.repaired:
        return ""
    return " (the file was damaged; MuPDF repaired it while opening, so some content may be missing)"
