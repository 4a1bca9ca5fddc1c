"""Export a review: an annotated copy of the PDF, or the notes as Markdown, HTML or Web Annotation
JSON-LD for other tools.

The original file is never written: the PDF export annotates a copy of the bytes pdfdesk opened.
Every export lands atomically (a temporary file beside the target, flushed, renamed over it), so
a crash, a full disk or a reader in the middle sees the old file or the complete new one.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from pdfdesk.core.documents import MUPDF_ERRORS, OpenedPdf
from pdfdesk.core.errors import (
    PDF_ERROR,
    PERMISSION_DENIED,
    VALIDATION_ERROR,
    PdfDeskError,
)
from pdfdesk.core.paths import write_failure
from pdfdesk.review.anchoring import document_path
from pdfdesk.review.formats import Section, html_page, markdown, w3c_collection
from pdfdesk.review.records import Annotation, Rect

FORMATS = ("pdf", "markdown", "html", "json")
EXTENSIONS = {"pdf": "pdf", "markdown": "md", "html": "html", "json": "json"}
TITLE = "pdfdesk"  # the author shown on annotations pdfdesk adds to a PDF
_ORPHANED = "[The quoted text is not in this version of the document]"


@dataclass(frozen=True)
class ExportResult:
    """What was written: where, in which format, and how many documents and notes it holds
    (`skipped`: notes that could not be placed, e.g. on a page the PDF no longer has)."""

    path: Path
    format: str
    documents: int
    annotations: int
    skipped: int = 0


def _invalid(message: str, hint: str) -> PdfDeskError:
    return PdfDeskError(VALIDATION_ERROR, message, hint)


def _write_atomically(output: Path, write: Callable[[Path], None]) -> None:
    """Let `write` fill a temporary file beside `output`, then rename it over `output`; on any
    failure the temporary is removed and `output` is as it was. A disk that refuses is reported
    as permission_denied naming the folder and why."""
    folder = output.parent
    temp = output.with_name(f".{output.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write(temp)
        with open(temp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temp, output)
    except OSError as exc:
        _remove(temp)
        raise PdfDeskError(PERMISSION_DENIED, f"The review cannot be written to {output}: "
                           f"{write_failure(exc, folder)}.", "Choose another output folder, or free some space.",
                           folder=str(folder)) from None
    except BaseException:
        _remove(temp)
        raise


def _remove(temp: Path) -> None:
    try:
        temp.unlink(missing_ok=True)
    except OSError:  # the first error is the one to report
        pass


def _rgb(color: str) -> tuple[float, float, float]:
    value = color.lstrip("#")
    try:
        red, green, blue = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        return (1.0, 0.84, 0.31)
    return red, green, blue


def _point(page: pymupdf.Page, rects: Sequence[Rect]) -> pymupdf.Point:
    """Where a sticky note goes: the top-left of what it is about, kept on the page."""
    box = page.rect
    x, y = (rects[0][0], rects[0][1]) if rects else (box.x0 + 24, box.y0 + 24)
    return pymupdf.Point(min(max(x, box.x0), box.x1 - 20), min(max(y - 20, box.y0), box.y1 - 20))


def _sticky_text(ann: Annotation) -> str:
    parts = []
    if ann.status == "orphaned":
        parts.append(_ORPHANED)
    if ann.quote:
        parts.append(f"“{ann.quote}”")
    if ann.note:
        parts.append(ann.note)
    if ann.answer:
        parts.append(f"Q: {ann.answer.get('question', '')}\nA: {ann.answer.get('text', '')}")
        cites = [f"{c.get('file', '')} p. {c.get('page', '')}" for c in ann.answer.get("citations", ()) or ()
                 if isinstance(c, dict)]
        if cites:
            parts.append("Sources: " + "; ".join(cites))
    return "\n\n".join(parts)


def _annotate(page: pymupdf.Page, ann: Annotation) -> None:
    """One standard annotation any PDF reader shows: a Highlight over a quote, a Square around an
    area, a sticky note for page notes, pinned answers and quotes not found in this version."""
    rects = [pymupdf.Rect(r) for r in ann.rects]
    if ann.status != "orphaned" and ann.kind != "answer" and rects and ann.kind != "area" and ann.quote:
        annot = page.add_highlight_annot(rects)
        content = ann.note
    elif ann.status != "orphaned" and ann.kind == "area" and rects:
        annot = page.add_rect_annot(rects[0])
        content = ann.note
    else:
        annot = page.add_text_annot(_point(page, ann.rects), _sticky_text(ann) or " ", icon="Note")
        content = _sticky_text(ann)
    annot.set_info(content=content, title=TITLE, subject=", ".join(ann.tags))
    annot.set_colors(stroke=_rgb(ann.color))
    annot.update()


def _pdf_copy(opened: OpenedPdf, notes: Sequence[Annotation]) -> tuple[pymupdf.Document, int, int]:
    """A separate document made from the opened file's bytes, with the notes added; the cached
    document the viewer and tools share is never touched."""
    try:
        copy = pymupdf.open(stream=opened.read_bytes(), filetype="pdf")
    except MUPDF_ERRORS as exc:
        raise PdfDeskError(PDF_ERROR, f"{opened.source.name} cannot be copied for export ({exc}).",
                           "Export as Markdown, HTML or JSON instead.") from None
    if copy.needs_pass:
        copy.close()
        raise _invalid(f"{opened.source.name} is encrypted; pdfdesk does not write annotated copies of "
                       "password-protected PDFs.", "Export the review as Markdown, HTML or JSON instead.")
    placed = skipped = 0
    for ann in notes:
        if ann.source != "pdfdesk" or not 1 <= ann.page <= copy.page_count:
            skipped += ann.source == "pdfdesk"
            continue
        _annotate(copy.load_page(ann.page - 1), ann)
        placed += 1
    return copy, placed, skipped


def _save_pdf(doc: pymupdf.Document) -> Callable[[Path], None]:
    def write(temp: Path) -> None:
        try:
            doc.save(temp, garbage=0, deflate=True)
        except MUPDF_ERRORS as exc:
            raise OSError(f"the annotated copy could not be saved ({exc})") from None
    return write


def _save_text(text: str) -> Callable[[Path], None]:
    def write(temp: Path) -> None:
        with open(temp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    return write


def _check(items: Sequence[tuple[OpenedPdf, list[Annotation]]], fmt: str, output: Path) -> None:
    if fmt not in FORMATS:
        raise _invalid(f"Unknown export format {str(fmt)[:40]!r}.", f"Use one of {', '.join(FORMATS)}.")
    if not items:
        raise _invalid("There is no document to export.", "Give at least one PDF.")
    if fmt == "pdf" and len(items) != 1:
        raise _invalid("An annotated PDF holds one document; several were given.",
                       "Export one document at a time as PDF, or all together as Markdown, HTML or JSON.")
    target = os.path.realpath(output)
    for opened, _ in items:
        source = opened.source
        for name in (source.path, source.resolved):
            if name is not None and os.path.realpath(name) == target:
                raise _invalid(f"The output {output} is the document itself; pdfdesk never writes the original.",
                               "Choose another output file name.")


def export_review(items: list[tuple[OpenedPdf, list[Annotation]]], fmt: str, output: Path) -> ExportResult:
    """Write the review of `items` (each an opened document and its notes) as `fmt` to `output`."""
    output = Path(output)
    _check(items, fmt, output)
    if fmt == "pdf":
        opened, notes = items[0]
        doc, placed, skipped = _pdf_copy(opened, notes)
        try:
            _write_atomically(output, _save_pdf(doc))
        finally:
            doc.close()
        return ExportResult(output, fmt, 1, placed, skipped)
    sections: list[Section] = [(opened.source.name, document_path(opened), notes) for opened, notes in items]
    title = f"Review of {items[0][0].source.name}" if len(items) == 1 else f"Review of {len(items)} documents"
    if fmt == "markdown":
        text = markdown(sections, title)
    elif fmt == "html":
        text = html_page(sections, title)
    else:
        text = json.dumps(w3c_collection(sections, title), ensure_ascii=False, indent=1)
    _write_atomically(output, _save_text(text))
    return ExportResult(output, fmt, len(items), sum(len(notes) for _, notes in items))
