"""What one chat turn holds and how it reads as HTML: the answer with clickable citations, tool
cards with thumbnails, errors, the sources line and the footer.

Kept apart from the pane widget so the rules for outside text (a model's answer, a document's
name, a tool's summary) can be read and tested in one place: everything is escaped or
neutralised before it becomes markup, and citations become `pdfdesk://open` links only through
the one citation parser the agent uses too.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlparse

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QImage

from pdfdesk.agent.citations import CitationTracker, names_document
from pdfdesk.agent.events import (
    AgentError, AgentEvent, Citation, CitationFound, Done, TextDelta, ToolCallFinished, ToolCallStarted,
)
from pdfdesk.core.fence import neutralise
from pdfdesk.core.redact import MASK
from pdfdesk.core.references import display_name
from pdfdesk.gui.richtext import citation_href, esc, markdown_html

THUMB_WIDTH = 110
_NAMED_ARGUMENTS = ("path", "pdf")  # arguments that hold a document reference


@dataclass
class TextPart:
    text: str = ""


@dataclass
class ToolCard:
    call_id: str
    name: str
    arguments: dict[str, Any]
    finished: bool = False
    is_error: bool = False
    summary: str = ""
    thumbs: list[str] = field(default_factory=list)  # resource URLs of decoded thumbnails


@dataclass
class Turn:
    number: int
    question: str
    parts: list[TextPart | ToolCard] = field(default_factory=list)
    citations: dict[str, Citation] = field(default_factory=dict)  # key -> citation
    errors: list[AgentError] = field(default_factory=list)
    status: str = "running"  # running | done | cancelled | failed
    model: str | None = None
    offline: bool = False

    def text_part(self) -> TextPart:
        last = self.parts[-1] if self.parts else None
        if not isinstance(last, TextPart):
            last = TextPart()
            self.parts.append(last)
        return last

    def card(self, call_id: str) -> ToolCard | None:
        return next((p for p in self.parts if isinstance(p, ToolCard) and p.call_id == call_id), None)

    def apply(self, event: AgentEvent) -> list[tuple[ToolCard, str]]:
        """Fold one agent event into the turn; returns the (card, base64 PNG) thumbnails to decode."""
        thumbnails: list[tuple[ToolCard, str]] = []
        if isinstance(event, TextDelta):
            self.text_part().text += event.text
        elif isinstance(event, ToolCallStarted):
            self.parts.append(ToolCard(event.call_id, event.name, dict(event.arguments)))
        elif isinstance(event, ToolCallFinished):
            card = self.card(event.call_id) or ToolCard(event.call_id, event.name, {})
            if card not in self.parts:
                self.parts.append(card)
            card.finished, card.is_error, card.summary = True, event.is_error, event.summary
            thumbnails = [(card, data) for data in event.images[:4]]
        elif isinstance(event, CitationFound):
            self.add_citation(event.citation)
        elif isinstance(event, AgentError):
            self.errors.append(event)
        elif isinstance(event, Done):
            for citation in event.citations:
                self.add_citation(citation)
            self.model, self.offline = event.model, event.offline
            self.status = "cancelled" if event.cancelled else ("failed" if self.errors and not event.text else "done")
            if event.text and not any(isinstance(p, TextPart) and p.text.strip() for p in self.parts):
                self.text_part().text = event.text
        return thumbnails

    def add_citation(self, citation: Citation) -> None:
        """Record a citation once per page; a later one with rects or an excerpt replaces it."""
        for key, existing in self.citations.items():
            if (existing.document, existing.page) == (citation.document, citation.page):
                if (citation.rects and not existing.rects) or (citation.excerpt and not existing.excerpt):
                    self.citations[key] = citation
                return
        self.citations[f"{self.number}-{len(self.citations) + 1}"] = citation


def pin_href(turn: int, key: str | None = None) -> str:
    """`pdfdesk://pin?turn=N` (+ `&c=key`: pin on that citation's page rather than the first one)."""
    return f"pdfdesk://pin?turn={turn}" + (f"&c={quote_key(key)}" if key else "")


def quote_key(key: str) -> str:
    return "".join(ch for ch in key if ch.isalnum() or ch == "-")


def parse_pin_href(href: str) -> tuple[int, str | None] | None:
    """(turn number, citation key) of a pin link, None for anything else."""
    url = urlparse(href)
    if url.scheme != "pdfdesk" or url.netloc != "pin":
        return None
    query = parse_qs(url.query)
    try:
        keys = query.get("c")
        return int(query["turn"][0]), keys[0] if keys else None
    except (KeyError, IndexError, ValueError):
        return None


def find_citation(turns: Sequence[Turn], key: str | None, document: str, page: int) -> Citation | None:
    """The citation a clicked link names (by key, newest turn first), else any of that page."""
    for turn in reversed(turns):
        if key and key in turn.citations:
            return turn.citations[key]
    for turn in reversed(turns):
        for citation in turn.citations.values():
            if citation.document == document and citation.page == page:
                return citation
    return None


def short_arguments(arguments: dict[str, Any], limit: int = 60) -> str:
    """`path=report.pdf, query="fees"`: file names instead of paths, long values cut, and every
    key and value one inert line (a model or a document chose them)."""
    shown = []
    for key, value in arguments.items():
        if key == "password":
            value = MASK
        elif key in _NAMED_ARGUMENTS and isinstance(value, str):
            value = display_name(value)
        text = neutralise(value, limit=limit)
        if isinstance(value, str) and key not in _NAMED_ARGUMENTS and key != "password":
            text = f'"{text}"'
        shown.append(f"{neutralise(key, limit=limit)}={text}")
    return ", ".join(shown)


def card_text(text: str) -> str:
    """Outside text for rich text on one line: neutralised (line breaks, markers), then HTML-escaped."""
    return esc(neutralise(text, limit=None, quotes=False))


def decode_thumbnail(data_b64: str, width: int = THUMB_WIDTH) -> QImage | None:
    """Worker: a base64 PNG scaled to a thumbnail (QImage is safe to build off the UI thread)."""
    try:
        raw = base64.b64decode(data_b64, validate=False)
    except (ValueError, TypeError):
        return None
    image = QImage()
    if not image.loadFromData(QByteArray(raw)):
        return None
    return image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)


def citation_resolver(turn: Turn, documents: Sequence[str]) -> Callable[[str | None, int], str | None]:
    """(cited file name or None, page) -> link: the turn's own citation of that page when there is
    one (it carries the passage to highlight), else the attached document the name means (with
    no name, the only one)."""
    def resolve(name: str | None, page: int) -> str | None:
        for key, citation in turn.citations.items():
            if citation.page == page and (name is None or names_document(name, citation.document)):
                return citation_href(citation.document, page, key)
        if name is None:
            return citation_href(documents[0], page) if len(documents) == 1 else None
        document = CitationTracker(documents).document_for(name)
        return citation_href(document, page) if document else None

    return resolve


def _label(citation: Citation) -> str:
    return f"{neutralise(display_name(citation.document))} p. {citation.page}"


def card_html(card: ToolCard, colours: dict[str, str]) -> str:
    state = "…" if not card.finished else ("✗" if card.is_error else "✓")
    summary_colour = colours["error"] if card.is_error else colours["muted"]
    summary = f'<br><span style="color:{summary_colour}">{card_text(card.summary)}</span>' if card.summary else ""
    thumbs = "".join(f'<img src="{url}" width="{THUMB_WIDTH}"> ' for url in card.thumbs)
    thumbs = f"<br>{thumbs}" if thumbs else ""
    return (f'<table width="100%" cellpadding="4" border="1" cellspacing="0" '
            f'style="border-color:{colours["border"]}; background:{colours["card"]}; margin:4px 0">'
            f"<tr><td>{state} <b>{card_text(card.name)}</b> "
            f'<span style="font-family:monospace; font-size:small">{esc(short_arguments(card.arguments))}</span>'
            f"{summary}{thumbs}</td></tr></table>")


def turn_html(turn: Turn, documents: Sequence[str], colours: dict[str, str]) -> str:
    """The whole turn as HTML; citations in the answer link to `documents` (what the agent read)."""
    out = [(f'<table width="100%" cellpadding="6" style="background:{colours["user"]}; margin-top:6px">'
            f"<tr><td><b>You:</b> {esc(turn.question)}</td></tr></table>")]
    resolve = citation_resolver(turn, documents)
    out.extend(markdown_html(part.text, resolve) if isinstance(part, TextPart) else card_html(part, colours)
               for part in turn.parts)
    for error in turn.errors:
        hint = f"<br>{card_text(error.hint)}" if error.hint else ""
        out.append(f'<p style="color:{colours["error"]}"><b>{card_text(error.message)}</b>{hint}</p>')
    finished = turn.status == "done" and any(isinstance(p, TextPart) and p.text.strip() for p in turn.parts)
    if turn.citations:
        links = " &nbsp; ".join(
            f'<a href="{esc(citation_href(c.document, c.page, key))}">{card_text(c.label or _label(c))}</a>'
            + (f' <a href="{esc(pin_href(turn.number, key))}" style="font-size:small">(pin)</a>' if finished else "")
            for key, c in turn.citations.items())
        out.append(f'<p style="color:{colours["muted"]}">Sources: {links}</p>')
    if finished:
        out.append(f'<p style="font-size:small"><a href="{esc(pin_href(turn.number))}">Pin to notes</a></p>')
    footer = {"running": "Thinking…", "cancelled": "Stopped.", "failed": "", "done": ""}[turn.status]
    if turn.status != "running" and (turn.model or turn.offline):
        footer = (footer + " " if footer else "") + ("offline answerer" if turn.offline else esc(turn.model or ""))
    if footer:
        out.append(f'<p style="color:{colours["muted"]}; font-size:small"><i>{footer}</i></p>')
    return "\n".join(out)
