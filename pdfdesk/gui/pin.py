"""Pinning a chat answer to the notes of the page it cites: what to store and what to highlight.

The page comes only from the turn's recorded citations (the agent's tracker and the chat's links
read answers with the one citation parser, which ignores brackets inside quoted text), so a
document cannot choose where a pin lands by planting a citation look-alike in a passage the
answer quotes. The passage to highlight is, in order: a quotation in the answer that is really on
that page (quotations next to a citation of the page are tried first), the excerpt pdf_search
gave for the page, and otherwise nothing (a page note).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pdfdesk.agent.events import Citation
from pdfdesk.core.citations import expand, find_citations
from pdfdesk.gui.chat_transcript import TextPart, Turn, parse_pin_href
from pdfdesk.gui.richtext import parse_citation_href
from pdfdesk.tools.contract import ToolResult

ANSWER_COLOUR = "#64b5f6"  # the palette's blue: pinned answers stand apart from the reader's yellow
MIN_QUOTE, MAX_QUOTE, MAX_TRIES = 8, 600, 6
NEAR_CHARS = 240  # a quotation this close before a citation is taken to be from the cited page
Rect = tuple[float, float, float, float]
ToolRunner = Callable[[str, dict[str, Any]], ToolResult]

_LENGTH = f"{{{MIN_QUOTE},{MAX_QUOTE}}}"
_QUOTES = re.compile(f"“([^”\\n]{_LENGTH})”|\"([^\"\\n]{_LENGTH})\"")
_BLOCKQUOTE = re.compile(r"^\s*>\s?(.+)$", re.MULTILINE)
_ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.|\[…\]|\[\.\.\.\])\s*")


@dataclass(frozen=True)
class PinRequest:
    """One pin: the page it goes on, the answer it keeps, and the passages to try highlighting."""

    document: str
    page: int
    answer: dict[str, Any]
    quotes: tuple[str, ...] = ()
    excerpt: str = ""
    rects: tuple[Rect, ...] = ()
    password: str | None = None


def answer_text(turn: Turn) -> str:
    return "".join(part.text for part in turn.parts if isinstance(part, TextPart)).strip()


def answer_payload(turn: Turn) -> dict[str, Any]:
    """The stored answer: question, text and every citation of the turn (file reference, page)."""
    return {"question": turn.question, "text": answer_text(turn),
            "citations": [{"file": c.document, "page": c.page} for c in turn.citations.values()]}


def _clean(quote: str) -> str:
    """The longest piece of a quotation cut with ellipses, without surrounding punctuation."""
    pieces = [p.strip(" \t,;:'\"“”") for p in _ELLIPSIS.split(quote)]
    best = max(pieces, key=len, default="")
    return " ".join(best.split())


def quotes_for_page(text: str, page: int) -> list[str]:
    """Quotations in an answer, those followed closely by a citation of `page` first, then those
    with no citation near them, then the rest (each tried on the page; only a real match counts)."""
    marks = find_citations(text)
    found: list[tuple[int, int, str]] = []
    spans = [(m.start(), m.group(1) or m.group(2)) for m in _QUOTES.finditer(text)]
    spans += [(m.start(), m.group(1)) for m in _BLOCKQUOTE.finditer(text)]
    for position, raw in spans:
        quote = _clean(raw)
        if len(quote) < MIN_QUOTE:
            continue
        following = next((m for m in marks if m.start >= position), None)
        if following is None or following.start - position > len(raw) + NEAR_CHARS:
            rank = 1
        else:
            rank = 0 if page in {p for cited in following.pages for p in expand(cited, 50)} else 2
        found.append((rank, position, quote))
    ordered: list[str] = []
    for _rank, _position, quote in sorted(found):
        if quote not in ordered:
            ordered.append(quote)
    return ordered[:MAX_TRIES]


def pin_request(turn: Turn, citation: Citation | None, fallback: tuple[str, int] | None = None,
                password: str | None = None) -> PinRequest | None:
    """The pin of `turn` on `citation`'s page (None: the turn's first citation, else `fallback`,
    the current document and page); None when there is nowhere to pin it."""
    if citation is None and turn.citations:
        citation = next(iter(turn.citations.values()))
    if citation is not None:
        document, page = citation.document, citation.page
    elif fallback is not None:
        document, page = fallback
    else:
        return None
    return PinRequest(document, page, answer_payload(turn), tuple(quotes_for_page(answer_text(turn), page)),
                      (citation.excerpt or "") if citation else "", tuple(citation.rects) if citation else (),
                      password)


def _excerpt_tries(excerpt: str) -> list[str]:
    whole = _clean(excerpt) if "…" not in excerpt.strip(" …") else ""
    tries = [whole] if len(whole) >= MIN_QUOTE else []
    sentences = sorted((_clean(s) for s in re.split(r"(?<=[.!?;])\s+|…", excerpt)), key=len, reverse=True)
    tries += [s for s in sentences[:2] if len(s) >= MIN_QUOTE and s not in tries]
    return tries


def pin_answer(request: PinRequest, runner: ToolRunner) -> ToolResult:
    """Worker: store the pin through `pdf_annotate`, highlighting the first passage found on the page.

    A passage that is not on the page is a validation error from the tool; any other error ends the
    attempt (a read-only store, a permission) and is returned as it is."""
    base: dict[str, Any] = {"action": "add", "path": request.document, "page": request.page, "kind": "answer",
                            "answer": request.answer, "color": ANSWER_COLOUR}
    if request.password:
        base["password"] = request.password
    attempts: list[dict[str, Any]] = [{"quote": q} for q in request.quotes]
    attempts += [{"quote": q, **({"rects": [list(r) for r in request.rects]} if request.rects else {})}
                 for q in _excerpt_tries(request.excerpt)]
    for attempt in attempts:
        result = runner("pdf_annotate", {**base, **attempt})
        if not result.is_error or result.details.get("error") != "validation_error":
            return result
    return runner("pdf_annotate", base)


def find_turn(turns: Sequence[Turn], number: int) -> Turn | None:
    return next((turn for turn in turns if turn.number == number), None)


def pin_target(turns: Sequence[Turn], href: str) -> tuple[Turn, Citation | None] | None:
    """(finished turn, citation) a pin or citation link in the transcript stands for; None for any
    other link, or for a turn still running. Citation links exist only for parsed citations."""
    pin = parse_pin_href(href)
    if pin is not None:
        turn = find_turn(turns, pin[0])
        if turn is None or turn.status != "done":
            return None
        return turn, turn.citations.get(pin[1]) if pin[1] else None
    parsed = parse_citation_href(href)
    if parsed is None:
        return None
    document, page, key = parsed
    for turn in reversed(turns):
        if turn.status != "done":
            continue
        if key and key in turn.citations:
            return turn, turn.citations[key]
        match = next((c for c in turn.citations.values() if (c.document, c.page) == (document, page)), None)
        if match is not None or (not key and page in cited_pages(answer_text(turn))):
            return turn, match or Citation(document, page)
    return None


def cited_pages(text: str) -> set[int]:
    """Pages the answer cites outside quoted text (what its links may point at)."""
    return {page for mark in find_citations(text) for cited in mark.pages for page in expand(cited, 50)}
