"""Annotations as the review tools show them: filtered, ordered, and listed as inert lines whose
text stays within the response budget whatever the count."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from pdfdesk.core.fence import neutralise
from pdfdesk.review.records import PALETTE
from pdfdesk.tools.contract import ToolResult, text_item, untrusted_text_item
from pdfdesk.tools.details import AnnotateDetails, AnnotationItem
from pdfdesk.tools.review_args import check_color

MAX_TEXT_BYTES = 64_000
HEADER_RESERVE = 4_000     # the header line, notes and the fence around the listing
TEXT_CHARS_SHOWN = 4_000   # of one quote, note or answer in the listing (details keep the whole)
_NAMES = {hex_value: name for name, hex_value in PALETTE.items()}


def color_label(color: str) -> str:
    return _NAMES.get(color.lower(), color)


def _inert(text: str, limit: int = TEXT_CHARS_SHOWN) -> str:
    """One line: an annotation's text can neither break the listing's layout nor pose as an entry."""
    cut = f" […{len(text) - limit:,} more characters]" if len(text) > limit else ""
    return neutralise(text[:limit], limit=None, quotes=False) + cut


def describe(item: AnnotationItem, with_file: bool = False) -> str:
    """One annotation as the lines of a listing entry: what and where, then its quote, note, answer."""
    head = f"[{_inert(item['id'], 200)}] "
    if with_file:
        head += f"{_inert(item['file'], 300)}, "
    head += f"p. {item['page']} · {item['kind']} · {color_label(item['color'])}"
    if item["status"] != "anchored":
        head += f" · {item['status'].upper()}" + (" (its text is no longer in the document)"
                                                   if item["status"] == "orphaned" else " (found on another page)")
    if item["source"] == "pdf":
        head += " · in the PDF itself (read-only)"
    author = cast(Mapping[str, Any], item).get("author")  # team notes name who wrote them
    if author:
        head += f" · by {_inert(str(author), 100)}"
    if item["tags"]:
        head += " · tags: " + ", ".join(_inert(tag, 100) for tag in item["tags"])
    lines = [head]
    if item["quote"]:
        lines.append(f"  Quote: “{_inert(item['quote'])}”")
    if item["note"]:
        lines.append(f"  Note: {_inert(item['note'])}")
    answer = item.get("answer")
    if answer:
        if answer.get("question"):
            lines.append(f"  Question: {_inert(answer['question'])}")
        lines.append(f"  Pinned answer: {_inert(answer.get('text', ''))}")
        cited = [f"{_inert(c.get('file', ''), 200)} p. {c.get('page')}" for c in answer.get("citations", [])[:20]]
        if cited:
            lines.append("  Cited: " + "; ".join(cited))
    return "\n".join(lines)


def entries_that_fit(entries: list[str], limit: int = MAX_TEXT_BYTES) -> int:
    """How many entries (in order) fit in the text budget with the header and the fence."""
    used = HEADER_RESERVE
    for kept, entry in enumerate(entries):
        used += len(entry.encode("utf-8")) + 2
        if used > limit:
            return kept
    return len(entries)


def listing_result(header: str, entries: list[str], details: AnnotateDetails, source: str, narrow: str) -> ToolResult:
    """The header and as many entries as fit, fenced as untrusted; details say how many the text
    left out (they keep every annotation: the window shows them all)."""
    shown = entries_that_fit(entries)
    if shown < len(entries):
        details["text_omitted"] = len(entries) - shown
        header += f"; {len(entries) - shown} more left out here to keep the answer small ({narrow})"
    content = [text_item(header + ".")]
    if shown:
        content.append(untrusted_text_item("\n\n".join(entries[:shown]), source))
    return ToolResult(content=content, details=details)


def sort_key(item: AnnotationItem) -> tuple[int, float]:
    """Reading order: page, then the top of the first rectangle (a page note first)."""
    rects = item["rects"]
    return item["page"], (float(rects[0][1]) if rects else -1.0)


def _texts(item: AnnotationItem) -> list[str]:
    answer: Mapping[str, object] = item.get("answer") or {}
    return [item["quote"], item["note"], *item["tags"], str(answer.get("question", "")), str(answer.get("text", ""))]


def keep(item: AnnotationItem, wanted: dict[str, Any]) -> bool:
    """Whether an annotation passes `filter` ({text?, color?, tag?, status?, page?})."""
    text = wanted.get("text")
    if text and not any(text.casefold() in value.casefold() for value in _texts(item)):
        return False
    if wanted.get("color") and item["color"].lower() != check_color(wanted["color"]):
        return False
    tag = wanted.get("tag")
    if tag and tag.strip().casefold() not in {t.casefold() for t in item["tags"]}:
        return False
    if wanted.get("status") and item["status"] != wanted["status"]:
        return False
    return not (wanted.get("page") and item["page"] != wanted["page"])
