"""Split a document into sections: by its outline when it has one, by detected headings otherwise.

Every outline entry (or heading) starts a section at its (page, y) and the section runs until the
next entry of any level starts. So sections never overlap: a chapter owns only the text before its
first subsection, and each leaf owns its own text. Text is assigned line by line; an outline entry
whose target is vague (the top of the page) is placed at the line that shows its title.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import pymupdf

from pdfdesk.core.text import TEXT_FLAGS

MAX_HEADING_CHARS = 120
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.|Chapter\s+\d+|Section\s+\d+)\s+\S", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Line:
    y0: float
    y1: float
    text: str
    size: float
    bold: bool


@dataclass(frozen=True)
class SectionStart:
    title: str
    level: int
    page: int      # 1-based
    y: float       # top of the heading on its page (0 = top)


@dataclass
class Section:
    title: str
    level: int
    path: list[str]
    start_page: int
    end_page: int
    text_parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.text_parts)

    def as_record(self) -> dict:
        return {"title": self.title, "level": self.level, "path": " › ".join(self.path),
                "start_page": self.start_page, "end_page": self.end_page, "text": self.text}


def page_lines(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> list[Line]:
    """The page's text lines, top to bottom as MuPDF found them, with their font size and weight."""
    lines: list[Line] = []
    data = page.get_text("dict", flags=TEXT_FLAGS, textpage=textpage)
    for block in data["blocks"]:
        for line in block.get("lines", []):
            spans = [s for s in line["spans"] if s["text"].strip()]
            if not spans:
                continue
            text = _SPACES.sub(" ", "".join(s["text"] for s in spans)).strip()
            bold = all(s["flags"] & 16 or "bold" in s["font"].lower() for s in spans)
            lines.append(Line(line["bbox"][1], line["bbox"][3], text, max(s["size"] for s in spans), bold))
    return lines


def _normal(text: str) -> str:
    return _SPACES.sub(" ", text).strip().lower()


MAX_PLACED_OUTLINE = 3000  # beyond this, destinations are not resolved (20,000 take seconds)


def outline_entries(doc: pymupdf.Document) -> list[SectionStart]:
    """Outline entries as section starts at their destinations (reading a large outline with its
    destinations takes a while; callers cache the result per document). A huge outline (hostile,
    or a generated index) is read without destinations: each entry starts at the top of its page."""
    starts = []
    simple = doc.get_toc(simple=True)
    for item in simple if len(simple) > MAX_PLACED_OUTLINE else doc.get_toc(simple=False):
        level, title, page = item[0], item[1].strip(), item[2]
        if not title or not 1 <= page <= doc.page_count:
            continue
        dest = item[3] if len(item) > 3 and isinstance(item[3], dict) else {}
        point = dest.get("to")
        y = float(point.y) if point is not None and dest.get("kind") == pymupdf.LINK_GOTO else 0.0
        starts.append(SectionStart(title, level, page, max(y - 2.0, 0.0)))
    return starts


def place_on_lines(starts: list[SectionStart], lines: dict[int, list[Line]]) -> list[SectionStart]:
    """Move each start whose page's lines are known to the first line at or below it that shows
    its title (outline targets are often just "the top of the page")."""
    placed: list[SectionStart] = []
    taken: set[tuple[int, float]] = set()
    for start in starts:
        y = start.y
        if start.page in lines:
            wanted = _normal(start.title)[:60]
            for line in lines[start.page]:
                if line.y1 >= start.y and (start.page, line.y0) not in taken and _normal(line.text).startswith(wanted):
                    y = line.y0
                    break
        taken.add((start.page, y))
        placed.append(SectionStart(start.title, start.level, start.page, y))
    return placed


def outline_starts(doc: pymupdf.Document, lines: dict[int, list[Line]] | None = None) -> list[SectionStart]:
    """Outline entries as section starts, placed on the lines that show their titles when given."""
    starts = outline_entries(doc)
    return place_on_lines(starts, lines) if lines is not None else starts


def _body_size(lines: dict[int, list[Line]]) -> float:
    counts: Counter[float] = Counter()
    for page_lines_ in lines.values():
        for line in page_lines_:
            counts[round(line.size, 1)] += len(line.text)
    return counts.most_common(1)[0][0] if counts else 10.0


def heading_starts(lines: dict[int, list[Line]]) -> list[SectionStart]:
    """Headings found by typography: larger or bold short lines, numbering, space above."""
    body = _body_size(lines)
    candidates: list[tuple[int, float, str, float]] = []
    for number in sorted(lines):
        previous_bottom = 0.0
        for line in lines[number]:
            gap = line.y0 - previous_bottom
            previous_bottom = line.y1
            text = line.text
            if len(text) > MAX_HEADING_CHARS or len(text) < 2 or not any(c.isalpha() for c in text):
                continue
            if text.endswith((".", ",", ";", ":")) and not _NUMBERED.match(text):
                continue
            larger = line.size >= body * 1.18
            emphasised = line.bold and line.size >= body * 0.98 and (gap > line.size * 0.6 or _NUMBERED.match(text))
            if larger or emphasised:
                candidates.append((number, line.y0, text, round(line.size, 1)))
    sizes = sorted({c[3] for c in candidates}, reverse=True)
    level_of = {size: min(i + 1, 4) for i, size in enumerate(sizes)}
    return [SectionStart(text, level_of[size], number, y) for number, y, text, size in candidates]


def split_sections(starts: list[SectionStart], lines: dict[int, list[Line]], doc_title: str) -> list[Section]:
    """Assign every line to the last section start at or above it; sections without text are dropped."""
    ordered = sorted(starts, key=lambda s: (s.page, s.y))
    sections: list[Section] = []
    trail: list[tuple[int, str]] = []
    for start in ordered:
        while trail and trail[-1][0] >= start.level:
            trail.pop()
        trail.append((start.level, start.title))
        sections.append(Section(start.title, start.level, [t for _, t in trail], start.page, start.page))
    front = Section(doc_title or "Front matter", 1, [doc_title or "Front matter"], 1, 1)
    current = -1
    for number in sorted(lines):
        for line in lines[number]:
            while current + 1 < len(ordered) and (ordered[current + 1].page, ordered[current + 1].y) <= (number, line.y0 + 1.0):
                current += 1
            target = sections[current] if current >= 0 else front
            target.text_parts.append(line.text)
            target.end_page = max(target.end_page, number)
    result = [s for s in sections if s.text_parts]
    if front.text_parts:
        result.insert(0, front)
    return result
