"""Review annotations: notes and highlights kept beside a PDF (never inside it), found again by
their words when the file changes, and exported as an annotated copy or for other tools."""

from pdfdesk.review.anchoring import (
    Anchor,
    PageTexts,
    anchor_area,
    anchor_quote,
    reanchor,
    sync,
)
from pdfdesk.review.export import ExportResult, export_review
from pdfdesk.review.pdf_annotations import file_annotations
from pdfdesk.review.records import (
    KINDS,
    PALETTE,
    SOURCES,
    STATUSES,
    Annotation,
    NewAnnotation,
    Rect,
    resolve_color,
)
from pdfdesk.review.store import AnnotationStore, open_store

__all__ = [
    "KINDS", "PALETTE", "SOURCES", "STATUSES", "Anchor", "Annotation", "AnnotationStore", "ExportResult",
    "NewAnnotation", "PageTexts", "Rect", "anchor_area", "anchor_quote", "export_review",
    "file_annotations", "open_store", "reanchor", "resolve_color", "sync",
]
