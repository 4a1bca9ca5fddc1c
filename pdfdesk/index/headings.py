"""Section starts where a document has no outline: headings found by their typography (a larger
or bold short line, a number, space above), a number set apart from its title or a title wrapped
over several lines joined into one heading.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

from pdfdesk.index.page_lines import Line
from pdfdesk.index.sections import SectionStart
from pdfdesk.index.titles import LABEL

MAX_HEADING_CHARS = 120
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.|Chapter\s+\d+|Section\s+\d+)\s+\S",
                       re.IGNORECASE)
_DEPTH = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+\S")


def _body_size(lines: dict[int, list[Line]]) -> float:
    counts: Counter[float] = Counter()
    for page_lines_ in lines.values():
        for line in page_lines_:
            counts[round(line.size, 1)] += len(line.text)
    return counts.most_common(1)[0][0] if counts else 10.0


def _is_heading(line: Line, gap: float, body: float) -> bool:
    text = line.text
    if len(text) > MAX_HEADING_CHARS or len(text) < 2 or not any(c.isalpha() for c in text):
        return False
    if text.endswith((".", ",", ";", ":")) and not _NUMBERED.match(text):
        return False
    larger = line.size >= body * 1.18
    emphasised = line.bold and line.size >= body * 0.98 and (gap > line.size * 0.6 or bool(_NUMBERED.match(text)))
    return larger or emphasised


def _continues(first: Line, second: Line) -> bool:
    """Whether `second` carries on the heading line `first`: the same type, on the same baseline
    (a number set apart from its title) or right below it (a heading that wraps), and not the
    next numbered heading."""
    if abs(first.size - second.size) > 0.5 or first.bold != second.bold or _NUMBERED.match(second.text):
        return False
    same_row = abs(first.y0 - second.y0) < first.size * 0.3
    wrapped = 0 <= second.y0 - first.y1 < first.size * 0.6
    return same_row or wrapped


def _is_label(text: str) -> bool:
    return LABEL.fullmatch(text + " ") is not None


def _heading_runs(lines: list[Line], body: float) -> Iterable[tuple[int, str, float]]:
    """(first line, text, size) of each heading on one page: a number set apart from its title
    and a title wrapped over several lines are joined into one heading."""
    index, previous_bottom = 0, 0.0
    while index < len(lines):
        line = lines[index]
        # space above; a line drawn before one below it (page furniture first) starts afresh
        gap = line.y0 - previous_bottom if previous_bottom <= line.y0 + 1.0 else math.inf
        last, text = index, line.text
        if _is_label(text) and index + 1 < len(lines) and _continues(line, lines[index + 1]):
            last, text = index + 1, f"{text} {lines[index + 1].text}"
        if not _is_heading(Line(line.y0, line.y1, text, line.size, line.bold), gap, body):
            previous_bottom = line.y1
            index += 1
            continue
        while last + 1 < len(lines) and len(text) < MAX_HEADING_CHARS and _continues(lines[last], lines[last + 1]):
            last += 1
            text = f"{text} {lines[last].text}"
        yield index, text, line.size
        previous_bottom = lines[last].y1
        index = last + 1


def heading_starts(lines: dict[int, list[Line]]) -> list[SectionStart]:
    """Headings found by typography: larger or bold short lines, numbering, space above. A
    numbered heading's level is its number's depth; others rank by size."""
    body = _body_size(lines)
    candidates: list[tuple[int, int, str, float]] = []
    for number in sorted(lines):
        for index, text, size in _heading_runs(lines[number], body):
            candidates.append((number, index, text, round(size, 1)))
    sizes = sorted({c[3] for c in candidates}, reverse=True)
    level_of = {size: min(i + 1, 4) for i, size in enumerate(sizes)}
    starts = []
    for number, index, text, size in candidates:
        depth = _DEPTH.match(text)
        level = min(depth.group(1).count(".") + 1, 4) if depth else level_of[size]
        starts.append(SectionStart(text, level, number, lines[number][index].y0, index))
    return starts
