"""Schema pieces and helpers every PDF tool shares."""

from __future__ import annotations

from typing import Any

from pdfdesk.core.documents import OpenedPdf
from pdfdesk.core.outline import read_outline

PATH_PROPERTY: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "description": "The PDF: a file path, ~/path, file:///path or an http(s):// URL.",
}
PASSWORD_PROPERTY: dict[str, Any] = {
    "type": "string",
    "description": "Password for an encrypted PDF (user or owner password).",
}
PAGES_PROPERTY: dict[str, Any] = {
    "type": ["string", "integer"],
    "description": 'Pages to use, 1-based: "3", "1-5" or "1,3,5-7" (a set of pages, not a span). Default: all.',
}


def count_entries(doc: Any) -> int:
    """Outline entries (up to core.outline's cap), counted without resolving destinations."""
    return read_outline(doc, limit=0).total


def object_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def document_details(opened: OpenedPdf) -> dict[str, Any]:
    """The fields every tool result carries about the document it read."""
    details: dict[str, Any] = {"file": opened.source.display, "pages_total": opened.page_count}
    if opened.repaired:
        details["repaired"] = True
        details["repair_warnings"] = [w[:300] for w in opened.warnings[-5:]]
    return details


def repaired_note(opened: OpenedPdf) -> str:
    return " (the file was damaged; MuPDF repaired it while opening, so some content may be missing)" if opened.repaired else ""
