"""A page's text lines as the section index reads them: in MuPDF's reading order, each with its
font size and weight, its spans joined with the spaces MuPDF left out.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import pymupdf

from pdfdesk.core.text import TEXT_FLAGS, text_page

SPAN_GAP = 0.05          # a gap wider than this many font sizes between two spans is a space
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Line:
    y0: float
    y1: float
    text: str
    size: float
    bold: bool


def nfkc(text: str) -> str:
    """NFKC unless plain ASCII (the common case costs nothing)."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def one_line(text: str) -> str:
    """`text` on one line: each run of whitespace one space, trimmed, NFKC."""
    return nfkc(_SPACES.sub(" ", text).strip())


def _joined_spans(spans: list[dict[str, Any]]) -> str:
    """A line's text: spans in order, with a space where two spans are set apart on the line but
    neither carries one (MuPDF starts a new span at a font change and may leave the space out,
    which glued headings like "Boxed formulas" into "Boxedformulas")."""
    parts: list[str] = []
    previous: dict[str, Any] | None = None
    for span in spans:
        text = span["text"]
        if not text:
            continue
        if previous is not None and not parts[-1][-1:].isspace() and not text[:1].isspace():
            gap = span["bbox"][0] - previous["bbox"][2]
            if gap > SPAN_GAP * min(span["size"], previous["size"]):
                parts.append(" ")
        parts.append(text)
        previous = span
    return one_line("".join(parts))


def page_lines(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> list[Line]:
    """The page's text lines in MuPDF's reading order, with their font size and weight."""
    lines: list[Line] = []
    data = page.get_text("dict", flags=TEXT_FLAGS, textpage=textpage if textpage is not None else text_page(page))
    for block in data["blocks"]:
        for line in block.get("lines", []):
            inked = [s for s in line["spans"] if s["text"].strip()]
            if not inked:
                continue
            text = _joined_spans(line["spans"])
            bold = all(s["flags"] & 16 or "bold" in s["font"].lower() for s in inked)
            lines.append(Line(line["bbox"][1], line["bbox"][3], text, max(s["size"] for s in inked), bold))
    return lines


def line_below(lines: list[Line], y: float) -> int:
    """The index of the line nearest below `y` (the end of the page when none is)."""
    candidates = [(line.y0, index) for index, line in enumerate(lines) if line.y1 + 2.0 >= y]
    return min(candidates)[1] if candidates else len(lines)
