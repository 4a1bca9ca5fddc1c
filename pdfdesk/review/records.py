"""What a review annotation is: one frozen record shared by the store, anchoring, exports, the
tools and the window, so all of them agree on fields, colours and states.

Positions are PDF points in unrotated page space (top-left origin), the space MuPDF's text
extraction and `pdf_search` report, so an anchor found by text lines up with a search hit and
survives a viewer that rotates the page for display.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError

Rect = tuple[float, float, float, float]

STATUSES = ("anchored", "moved", "orphaned")
SOURCES = ("pdfdesk", "pdf")
KINDS = ("highlight", "note", "area", "answer")
PALETTE = {"yellow": "#ffd54f", "green": "#81c784", "blue": "#64b5f6", "pink": "#f06292",
           "orange": "#ffb74d", "purple": "#ba68c8"}
DEFAULT_COLOR = PALETTE["yellow"]
CONTEXT_CHARS = 32  # prefix/suffix length: enough to tell two occurrences of a phrase apart

_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def now_iso() -> str:
    """UTC to the second: stable across machines and sortable as text."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def resolve_color(value: str | None) -> str:
    """A palette name or "#rrggbb" as lower-case "#rrggbb"; anything else is a validation_error
    (a colour ends up in HTML and PDF exports, so it must be exactly this shape)."""
    if value is None or value == "":
        return DEFAULT_COLOR
    text = str(value).strip()
    if text.lower() in PALETTE:
        return PALETTE[text.lower()]
    if _HEX.fullmatch(text):
        return text.lower()
    raise PdfDeskError(VALIDATION_ERROR, f"{text[:40]!r} is not a colour pdfdesk knows.",
                       f"Use one of {', '.join(PALETTE)} or a hex colour such as #ffd54f.")


def as_rect(value: Any) -> Rect:
    """Four finite numbers (x0, y0, x1, y1), ordered so x0 <= x1 and y0 <= y1."""
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except (TypeError, ValueError):
        raise PdfDeskError(VALIDATION_ERROR, "A rectangle must be four numbers [x0, y0, x1, y1].",
                           "Give rectangles in PDF points, for example [72, 100, 300, 120].") from None
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        raise PdfDeskError(VALIDATION_ERROR, "A rectangle's coordinates must be finite numbers.",
                           "Give rectangles in PDF points, for example [72, 100, 300, 120].")
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


@dataclass(frozen=True)
class NewAnnotation:
    """What a caller supplies to add a note; the store assigns id, times, status and source."""

    fingerprint: str
    path: str
    page: int
    rects: tuple[Rect, ...] = ()
    quote: str = ""
    prefix: str = ""
    suffix: str = ""
    start: int | None = None
    note: str = ""
    color: str = DEFAULT_COLOR
    tags: tuple[str, ...] = ()
    kind: str = "highlight"
    answer: dict | None = None


@dataclass(frozen=True)
class Annotation:
    """One stored note (or one of the file's own annotations, source "pdf")."""

    id: str
    fingerprint: str
    path: str
    page: int
    rects: tuple[Rect, ...]
    quote: str
    prefix: str
    suffix: str
    start: int | None
    note: str
    color: str
    tags: tuple[str, ...]
    kind: str
    status: str
    source: str
    answer: dict | None
    created: str
    updated: str
    deleted: bool = field(default=False)  # a tombstone: kept so a delete can be undone
    # Team mode only (the local store leaves them empty): who wrote the note, how many times it
    # was changed on the server, and the matter it belongs to.
    author: str = ""
    revision: int = 0
    matter: str = ""

    @property
    def top(self) -> float:
        """Where the note starts on its page, for reading-order sorting."""
        return self.rects[0][1] if self.rects else 0.0

    def to_details(self) -> dict[str, Any]:
        """The JSON-ready dict tools return and exports build on."""
        details: dict[str, Any] = {
            "id": self.id, "page": self.page, "quote": self.quote, "note": self.note,
            "color": self.color, "tags": list(self.tags),
            "rects": [[round(v, 2) for v in rect] for rect in self.rects],
            "status": self.status, "source": self.source, "kind": self.kind,
            "created": self.created, "updated": self.updated, "prefix": self.prefix,
            "suffix": self.suffix, "file": Path(self.path).name if self.path else "",
        }
        if self.answer is not None:
            details["answer"] = self.answer
        if self.deleted:
            details["deleted"] = True
        if self.author:
            details["author"] = self.author
        if self.matter:
            details["matter"] = self.matter
        return details
