"""What the review tools accept: the write permission, colours, tags, notes, rectangles, answers.

The JSON schemas check types; the limits live here so a refusal names the value in words and
never echoes a 20,000-character note back (a schema error message quotes the whole value).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pdfdesk.core.config import get_config
from pdfdesk.core.errors import PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.fence import neutralise
from pdfdesk.core.policy import check_path_allowed
from pdfdesk.review.records import PALETTE, Rect, as_rect, resolve_color

MAX_NOTE_CHARS = 20_000
MAX_TAG_CHARS = 64
MAX_TAGS = 32
MAX_RECTS = 500
MAX_QUESTION_CHARS = 2_000
MAX_CITATIONS = 100
ALLOW_FLAG = "pdfdesk mcp --allow-annotate"

RECT_SCHEMA: dict[str, Any] = {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4,
                               "description": "[x0, y0, x1, y1] in PDF points, top-left origin, unrotated page."}
COLOR_SCHEMA: dict[str, Any] = {"type": "string", "maxLength": 32,
                                "description": f"A palette name ({', '.join(PALETTE)}) or #rrggbb."}
TAGS_SCHEMA: dict[str, Any] = {"type": "array", "items": {"type": "string"},
                               "description": f"Up to {MAX_TAGS} tags of up to {MAX_TAG_CHARS} characters."}
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "question": {"type": "string"},
        "text": {"type": "string"},
        "citations": {"type": "array", "items": {
            "type": "object", "properties": {"file": {"type": "string"}, "page": {"type": "integer", "minimum": 1}},
            "required": ["page"], "additionalProperties": False}},
    },
    "required": ["text"],
    "additionalProperties": False,
    "description": "A pinned answer: {question, text, citations: [{file, page}]} (kind answer).",
}


def require_writes(what: str) -> None:
    """Refuse a change to the review notes where the front end allows reading them only."""
    if not get_config().annotate_writes:
        raise PdfDeskError(PERMISSION_DENIED, f"{what} changes pdfdesk's review notes, and this server lets "
                           "clients read them only.",
                           f"Start the server with `{ALLOW_FLAG}` to let clients add, change, delete and "
                           "export annotations; listing them works without it.")


def invalid(message: str, hint: str) -> PdfDeskError:
    return PdfDeskError(VALIDATION_ERROR, message, hint)


def check_color(value: Any) -> str:
    """A palette name or #rrggbb, as lower-case #rrggbb (the store's own rule)."""
    return resolve_color(str(value) if str(value).strip() else "?")


def check_tags(values: list[str]) -> tuple[str, ...]:
    """Trimmed, non-empty, de-duplicated tags within the limits."""
    tags = list(dict.fromkeys(tag.strip() for tag in values if tag.strip()))
    if len(tags) > MAX_TAGS:
        raise invalid(f"{len(tags)} tags given; an annotation holds at most {MAX_TAGS}.", "Use fewer tags.")
    for tag in tags:
        if len(tag) > MAX_TAG_CHARS:
            raise invalid(f"The tag {neutralise(tag, limit=40)} is {len(tag)} characters long; tags hold at most "
                          f"{MAX_TAG_CHARS}.", "Use a shorter tag; the note can hold the longer text.")
    return tuple(tags)


def check_text(value: str, name: str, limit: int) -> str:
    if len(value) > limit:
        raise invalid(f"The {name} is {len(value):,} characters long; at most {limit:,} are kept.",
                      f"Shorten the {name}, or split it over several annotations.")
    return value


def check_rect(value: list[float], name: str = "rect") -> Rect:
    """Four finite numbers enclosing some area (an empty rectangle marks nothing)."""
    rect = as_rect(value)
    if rect[0] == rect[2] or rect[1] == rect[3]:
        raise invalid(f"The {name} {list(rect)} has no area.",
                      "Give [x0, y0, x1, y1] in PDF points from the page's top-left corner, with x0 < x1 and y0 < y1.")
    return rect


def check_rects(values: list[list[float]]) -> tuple[Rect, ...]:
    if len(values) > MAX_RECTS:
        raise invalid(f"{len(values)} rectangles given; at most {MAX_RECTS}.", "Give the rectangles of one selection.")
    return tuple(check_rect(value, "rects entry") for value in values)


def check_answer(value: dict[str, Any]) -> dict[str, Any]:
    """A pinned answer with its sizes bounded: question, text and the cited pages."""
    citations = value.get("citations", [])
    if len(citations) > MAX_CITATIONS:
        raise invalid(f"The answer cites {len(citations)} pages; at most {MAX_CITATIONS} are kept.",
                      "Keep the citations the answer relies on.")
    return {
        "question": check_text(value.get("question", ""), "question", MAX_QUESTION_CHARS),
        "text": check_text(value["text"], "answer text", MAX_NOTE_CHARS),
        "citations": [{"file": check_text(c.get("file", ""), "cited file name", 1_000), "page": c["page"]}
                      for c in citations],
    }


def check_local_allowed(path: str) -> None:
    """The file policy for a remembered document path (a URL is left to whoever fetches it)."""
    if "://" not in path:
        check_path_allowed(Path(path), get_config())
