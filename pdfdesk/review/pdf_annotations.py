"""The annotations a PDF already carries (a colleague's highlights, a reviewer's sticky notes),
read-only, as the same records pdfdesk's own notes are, so the notes panel and the tools list both.

Their text comes from whoever wrote the file: it is returned as data, never interpreted, and
capped (a comment can be megabytes long; thousands of annotations can be stacked on one page).
"""

from __future__ import annotations

import pymupdf

from pdfdesk.core.documents import MUPDF_ERRORS, PAGE_ERRORS
from pdfdesk.core.text import text_page
from pdfdesk.review.anchoring import normalise
from pdfdesk.review.records import DEFAULT_COLOR, Annotation, Rect

MAX_ANNOTATIONS = 5_000
MAX_TEXT_CHARS = 2_000
_MARKUP = {"Highlight", "Underline", "StrikeOut", "Squiggly"}
_NOTES = {"Text", "FreeText", "Caret", "FileAttachment", "Sound"}
_SKIPPED = {"Link", "Widget", "Popup"}  # navigation, form fields, and the pop-up windows of other notes


def _cut(text: object) -> str:
    text = str(text or "")
    return text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS] + "…"


def _hex(color: object) -> str:
    """An annotation's RGB colour (0..1 floats) as "#rrggbb"; grey and CMYK fall back to yellow."""
    if isinstance(color, (list, tuple)) and len(color) == 3:
        try:
            return "#" + "".join(f"{max(0, min(255, round(float(c) * 255))):02x}" for c in color)
        except (TypeError, ValueError):
            pass
    return DEFAULT_COLOR


def _iso(pdf_date: object) -> str:
    """A PDF date ("D:20240131120000Z") as ISO 8601 UTC when it can be read, else ""."""
    text = str(pdf_date or "")
    text = text.removeprefix("D:")
    digits = text[:14]
    if len(digits) < 8 or not digits.isdigit():
        return ""
    digits = digits.ljust(14, "0")
    return f"{digits[:4]}-{digits[4:6]}-{digits[6:8]}T{digits[8:10]}:{digits[10:12]}:{digits[12:14]}Z"


def _quad_rects(annot: pymupdf.Annot) -> list[Rect]:
    """One rectangle per quad of a text-markup annotation (each quad is four points)."""
    points = annot.vertices or []
    rects: list[Rect] = []
    for index in range(0, len(points) - 3, 4):
        quad = pymupdf.Quad(*(pymupdf.Point(p) for p in points[index:index + 4]))
        box = quad.rect
        rects.append((box.x0, box.y0, box.x1, box.y1))
    return rects


def _kind(type_name: str) -> str:
    if type_name in _MARKUP:
        return "highlight"
    return "note" if type_name in _NOTES else "area"


def _read(page: pymupdf.Page, number: int, annot: pymupdf.Annot, textpage: pymupdf.TextPage | None,
          fingerprint: str, path: str) -> Annotation:
    type_name = annot.type[1]
    info = annot.info or {}
    rects: list[Rect] = _quad_rects(annot) if type_name in _MARKUP else []
    if not rects:
        box = annot.rect
        rects = [(box.x0, box.y0, box.x1, box.y1)]
    quote = ""
    if type_name in _MARKUP and textpage is not None:
        quote = normalise(" ".join(page.get_textbox(pymupdf.Rect(r), textpage=textpage) for r in rects))
    colors = annot.colors or {}
    created = _iso(info.get("creationDate"))
    return Annotation(
        id=f"pdf-{number}-{annot.xref}", fingerprint=fingerprint, path=path, page=number,
        rects=tuple(rects), quote=_cut(quote), prefix="", suffix="", start=None,
        note=_cut(info.get("content")), color=_hex(colors.get("stroke") or colors.get("fill")),
        tags=(), kind=_kind(type_name), status="anchored", source="pdf", answer=None,
        created=created, updated=_iso(info.get("modDate")) or created,
    )


def file_annotations(doc: pymupdf.Document, fingerprint: str = "", path: str = "") -> list[Annotation]:
    """The document's own annotations, page by page, at most MAX_ANNOTATIONS of them; a page
    that cannot be read is skipped (its annotations are part of the damage)."""
    found: list[Annotation] = []
    for index in range(doc.page_count):
        if len(found) >= MAX_ANNOTATIONS:
            break
        try:
            page = doc.load_page(index)
            annots = page.annots()
        except MUPDF_ERRORS:
            continue
        textpage: pymupdf.TextPage | None = None
        tried = False
        try:
            for annot in annots:
                if annot.type[1] in _SKIPPED:
                    continue
                if annot.type[1] in _MARKUP and not tried:
                    tried = True
                    try:
                        textpage = text_page(page)
                    except PAGE_ERRORS:  # a page refused as hostile: listed, without quotes
                        textpage = None
                found.append(_read(page, index + 1, annot, textpage, fingerprint, path))
                if len(found) >= MAX_ANNOTATIONS:
                    break
        except MUPDF_ERRORS:
            continue
    return found
