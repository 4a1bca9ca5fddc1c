"""Split a document into sections: every section start (an outline entry, or a heading found by its
typography when there is no outline) owns the text up to the next start.

A section runs until the next start of any level, so sections never overlap: a chapter owns only
the text before its first subsection, and each leaf owns its own text. The starts come from
outline_placing or headings.

Positions are line indices in MuPDF's reading order rather than y coordinates: page furniture
(running headers, page numbers) is often drawn before or after the body, and a y-ordered split
hands a whole page to whichever entry sits lowest on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pdfdesk.index.page_lines import Line, line_below


@dataclass(frozen=True)
class SectionStart:
    title: str
    level: int
    page: int      # 1-based
    y: float       # top of the heading on its page (0 = top, or not known)
    line: int | None = None  # index of the heading's first line in its page's lines, once placed


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

    def as_record(self) -> dict[str, Any]:
        return {"title": self.title, "level": self.level, "path": " › ".join(self.path),
                "start_page": self.start_page, "end_page": self.end_page, "text": self.text}


def _line_index(start: SectionStart, lines: list[Line]) -> int:
    if start.line is not None:
        return start.line
    return line_below(lines, start.y) if start.y > 0 else 0


def _with_paths(starts: list[SectionStart]) -> list[Section]:
    """Sections with their breadcrumb paths, in outline order (the order the levels nest in)."""
    sections: list[Section] = []
    trail: list[tuple[int, str]] = []
    for start in starts:
        while trail and trail[-1][0] >= start.level:
            trail.pop()
        trail.append((start.level, start.title))
        sections.append(Section(start.title, start.level, [t for _, t in trail], start.page, start.page))
    return sections


def _continues_onto(line: Line, number: int, following: tuple[int, int] | None, page: list[Line]) -> bool:
    """Whether a line shows that the running section goes on to page `number`: not when the next
    section starts on that page and the line sits below its heading (a page number drawn first)."""
    if following is None or following[0] != number or following[1] >= len(page):
        return True
    return line.y0 < page[following[1]].y0 + 1.0


def split_sections(starts: list[SectionStart], lines: dict[int, list[Line]], doc_title: str) -> list[Section]:
    """Assign every line to the section that starts last before it; every start is a section
    (one without text keeps its title), and text before the first start is the front matter."""
    sections = _with_paths(starts)
    positions = [(start.page, _line_index(start, lines.get(start.page, []))) for start in starts]
    order = sorted(range(len(starts)), key=lambda i: positions[i])
    front = Section(doc_title or "Front matter", 1, [doc_title or "Front matter"], 1, 1)
    current = -1
    for number in sorted(lines):
        page = lines[number]
        for index, line in enumerate(page):
            while current + 1 < len(order) and positions[order[current + 1]] <= (number, index):
                current += 1
            target = sections[order[current]] if current >= 0 else front
            target.text_parts.append(line.text)
            following = positions[order[current + 1]] if current + 1 < len(order) else None
            if _continues_onto(line, number, following, page):
                target.end_page = max(target.end_page, number)
    ordered = [sections[i] for i in order]
    return [front, *ordered] if front.text_parts else ordered
