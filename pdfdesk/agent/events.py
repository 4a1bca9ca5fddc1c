"""What the agent tells a front end while it answers: one small event type per kind of news.

The chat pane, `pdfdesk ask` and the tests consume the same stream, so nothing front-end
specific lives here: plain frozen dataclasses, JSON-friendly fields, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Citation:
    """A place in a document an answer relies on; a front end opens `document` at `page`."""

    document: str                     # the reference the tools were given (path or URL)
    page: int                         # 1-based
    label: str = ""                   # what to show, e.g. "report.pdf p. 3"
    excerpt: str | None = None        # the passage, when known (for highlighting)
    rects: tuple[tuple[float, float, float, float], ...] = ()  # hit rectangles in PDF points


@dataclass(frozen=True)
class TextDelta:
    """A piece of the answer's text, in order."""

    text: str


@dataclass(frozen=True)
class ToolCallStarted:
    call_id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolCallFinished:
    """A tool call's outcome: `summary` is one line for a compact card; `images` are base64 PNGs."""

    call_id: str
    name: str
    is_error: bool
    summary: str
    details: dict[str, Any] = field(default_factory=dict)
    images: tuple[str, ...] = ()


@dataclass(frozen=True)
class CitationFound:
    citation: Citation


@dataclass(frozen=True)
class DocumentList:
    """The complete list a "which documents ..." answer stands on (the text names the first ones):
    each item is a `pdf_search` group_by-document entry (file, name, pages_matching, best_pages, page)."""

    query: str
    total: int
    documents: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class AgentError:
    """A failure the user should see (the stream still ends with Done)."""

    code: str
    message: str
    hint: str = ""


@dataclass(frozen=True)
class Done:
    """The end of one answer: its whole text, every citation, and which model wrote it."""

    text: str
    citations: tuple[Citation, ...] = ()
    model: str | None = None          # "provider/model", or None for the offline answerer
    offline: bool = False
    cancelled: bool = False


AgentEvent = TextDelta | ToolCallStarted | ToolCallFinished | CitationFound | DocumentList | AgentError | Done
