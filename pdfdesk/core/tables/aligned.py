"""Tables drawn without lines: columns found as the white gaps ("rivers") that run down a run of
lines whose words stand apart.

A line is a row candidate when it breaks into two or more phrases at gaps wider than a word's
height (wider than any space a justified paragraph stretches to). A run of such lines, with the
short lines between them that wrap a cell, is a block; the x ranges no word of the candidate lines
covers are its column gaps. Prose cannot pass: its lines have no wide gaps, and a block whose
cells hold sentences (many words each) is two columns of text, not a table. A heading merged over
several columns is found by taking the gaps from the body alone and letting the top rows span.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from pdfdesk.core.tables.cells import Slot, is_amount
from pdfdesk.core.tables.page_content import Word

PHRASE_GAP = 1.0     # in word heights: a wider gap ends a phrase
COLUMN_GAP = 0.45    # in word heights: the narrowest gap between two columns
ROW_GAP = 2.2        # in word heights: a wider vertical gap ends a block
MIN_ROWS = 3         # candidate lines a block needs to be taken for a table without being asked
MAX_WORDS_PER_CELL = 5.5
PROSE_WORDS = 4      # phrases with more words than this, on average, are sentences
Box = tuple[float, float, float, float]


@dataclass
class Line:
    words: list[Word]
    phrases: list[list[Word]]

    @property
    def top(self) -> float:
        return min(w.y0 for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.y1 for w in self.words)

    @property
    def worded(self) -> bool:
        """Mostly words of two letters or more without digits: running text, not a row of headings
        like "Q1 2023  Q2 2023" set close in small type."""
        words = sum(1 for w in self.words
                    if sum(c.isalpha() for c in w.text) >= 2 and not any(c.isdigit() for c in w.text))
        return 2 * words >= len(self.words)

    @property
    def candidate(self) -> bool:
        """Two or more phrases set apart, and not two columns of running text (phrases of sentences)."""
        return len(self.phrases) >= 2 and not (len(self.words) / len(self.phrases) > PROSE_WORDS and self.worded)

    @property
    def prose(self) -> bool:
        """A line of running text: a caption, a sentence, a paragraph's line (no cell wraps this long)."""
        long = len(self.words) >= 2 * PROSE_WORDS or len(self.words) / len(self.phrases) > PROSE_WORDS
        return not self.candidate and long and self.worded

    @property
    def total(self) -> bool:
        """A short line ending in an amount with decimals or grouped thousands: a table's total."""
        last = self.words[-1].text
        return len(self.words) <= 4 and is_amount(last) and any(c in last for c in ".,\u202f\u00a0")


@dataclass
class Found:
    """An aligned table's slots in the reading frame."""

    slots: list[Slot]
    rows: int
    cols: int


def _height(words: Sequence[Word]) -> float:
    return statistics.median(w.height for w in words) if words else 10.0


def lines_of(words: Sequence[Word]) -> list[Line]:
    """Words grouped into lines (their middles at one height), top to bottom, split into phrases."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.cy, w.x0)):
        if lines and abs(word.cy - statistics.fmean(w.cy for w in lines[-1][:3])) <= 0.35 * max(word.height, 1.0):
            lines[-1].append(word)
        else:
            lines.append([word])
    result = []
    for line in lines:
        line.sort(key=lambda w: w.x0)
        gap = PHRASE_GAP * _height(line)
        phrases = [[line[0]]]
        for previous, word in itertools.pairwise(line):
            if word.x0 - previous.x1 > gap:
                phrases.append([word])
            else:
                phrases[-1].append(word)
        result.append(Line(line, phrases))
    return result


def blocks_of(lines: list[Line], min_rows: int) -> list[list[Line]]:
    """Runs of candidate lines, with short single-phrase lines between them kept (a wrapped cell);
    a line of running text, or a heading in another size, ends a run."""
    blocks: list[list[Line]] = []
    current: list[Line] = []
    for line in lines:
        if current:
            gap = line.top - current[-1].bottom
            height = _height(current[0].words)  # the run's type size, as its first line sets it
            if gap > ROW_GAP * _height(line.words) or line.prose or \
                    (not line.candidate and abs(_height(line.words) - height) > 0.35 * height) or \
                    (not line.candidate and not current[-1].candidate and len(current) >= 2
                     and not current[-2].candidate):
                blocks.append(current)
                current = []
        if line.candidate or (current and not line.prose):
            current.append(line)
    blocks.append(current)
    trimmed = []
    for block in blocks:
        while block and not block[-1].candidate and not (block[-1].total and len(block) > 1 and block[-2].candidate):
            block.pop()
        if sum(line.candidate for line in block) >= min_rows:
            trimmed.append(block)
    return trimmed


def rivers(lines: Sequence[Line], left: float, right: float, min_gap: float) -> list[tuple[float, float]]:
    """The x ranges inside left..right that no word of these lines covers, at least min_gap wide."""
    spans = sorted((w.x0, w.x1) for line in lines for w in line.words)
    gaps, reach = [], left
    for x0, x1 in spans:
        if x0 - reach >= min_gap and reach > left:
            gaps.append((reach, x0))
        reach = max(reach, x1)
    return [g for g in gaps if g[1] < right]


def _column(x: float, bounds: list[float]) -> int:
    for index, edge in enumerate(bounds[1:-1]):
        if x < edge:
            return index
    return len(bounds) - 2


def _crosses(line: Line, gaps: list[tuple[float, float]]) -> bool:
    return any(w.x0 < a and w.x1 > b for w in line.words for a, b in gaps)


def _columns(block: list[Line]) -> tuple[list[tuple[float, float]], int]:
    """The column gaps of a block, and how many top rows (headings) were left out to find them."""
    left, right = min(w.x0 for line in block for w in line.words), max(w.x1 for line in block for w in line.words)
    min_gap = COLUMN_GAP * _height([w for line in block for w in line.words])
    candidates = [line for line in block if line.candidate]
    best = rivers(candidates, left, right, min_gap), 0
    for skip in (1, 2):
        body = candidates[skip:]
        if len(body) < 2:
            break
        gaps = rivers(body, left, right, min_gap)
        if len(gaps) > len(best[0]):
            best = gaps, skip
    return best


def _lonely_gaps_closed(block: list[Line], gaps: list[tuple[float, float]],
                        left: float, right: float) -> list[tuple[float, float]]:
    """Gaps with a column beside them that holds words on one line only are closed (the narrower
    side first): a heading's last word set apart ("Status" and "1" read from a scan) is no column."""
    gaps = list(gaps)
    while gaps:
        bounds = [left, *((a + b) / 2 for a, b in gaps), right]
        counts = [0] * (len(bounds) - 1)
        for line in block:
            for col in {_column(w.cx, bounds) for w in line.words}:
                counts[col] += 1
        lonely = [c for c, count in enumerate(counts) if count <= 1]
        if not lonely or sum(line.candidate for line in block) < 3:
            return gaps
        col = lonely[0]
        beside = [g for g in (col - 1, col) if 0 <= g < len(gaps)]
        gaps.pop(min(beside, key=lambda g: gaps[g][1] - gaps[g][0]))
    return gaps


def _rows(block: list[Line], bounds: list[float]) -> list[list[Line]]:
    """Lines grouped into rows: a line that adds words only where the row holds words already, none
    of them amounts, continues the row's cells (a wrapped cell) when it sits closer under the row
    than rows sit to each other (word boxes of one cell's lines may even overlap), or is a lone
    phrase under an empty first column."""
    pairs = [(a, b) for a, b in itertools.pairwise(block) if a.candidate and b.candidate]
    spacing = statistics.median(b.top - a.bottom for a, b in pairs) if pairs else None
    margin = 0.15 * _height([w for line in block for w in line.words])
    rows: list[list[Line]] = []
    for line in block:
        if rows:
            last = rows[-1]
            filled = {_column(w.cx, bounds) for row_line in last for w in row_line.words}
            mine = {_column(w.cx, bounds) for w in line.words}
            tight = spacing is not None and line.top - last[-1].bottom < spacing - margin
            words_only = not any(is_amount(w.text) for w in line.words)
            first_empty = 0 not in mine
            if words_only and mine <= filled and (tight or (first_empty and not line.candidate)):
                last.append(line)
                continue
        rows.append([line])
    return rows


_MARKER = re.compile(r"^(?:[•·▪◦‣∙○●■□➢►✓✔*\-–—]|\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})[.)])$")


def _is_list(rows: list[list[Line]], bounds: list[float]) -> bool:
    """A bulleted or numbered list whose markers stand apart from the items (a tab stop) lines up
    in two columns; it is a list when every row's first column is a marker alone."""
    firsts = [" ".join(w.text for line in row for w in line.words if _column(w.cx, bounds) == 0) for row in rows]
    return all(_MARKER.match(text) for text in firsts if text) and any(firsts)


def table_slots(block: list[Line]) -> Found | None:
    """The slots of the table a block makes, or None when it is no table (one column, sentences)."""
    gaps, heading_rows = _columns(block)
    left = min(w.x0 for line in block for w in line.words) - 1
    right = max(w.x1 for line in block for w in line.words) + 1
    gaps = _lonely_gaps_closed(block, gaps, left, right)
    if not gaps:
        return None
    bounds = [left, *((a + b) / 2 for a, b in gaps), right]
    cols = len(bounds) - 1
    # lines after the headings that cross a column gap are prose: the block ends before them
    body_start = next((i for i, line in enumerate(block) if line.candidate), 0)
    seen = 0
    for index, line in enumerate(block):
        if line.candidate:
            seen += 1
        if index > body_start and seen > heading_rows and _crosses(line, gaps):
            block = block[:index]
            break
    rows = _rows(block, bounds)
    if len(rows) < 2:
        return None
    if cols == 2 and _is_list(rows, bounds):
        return None
    words = [w for row in rows for line in row for w in line.words]
    filled = len({(r, _column(w.cx, bounds)) for r, row in enumerate(rows) for line in row for w in line.words})
    if len(words) / max(filled, 1) > MAX_WORDS_PER_CELL:
        return None
    edges = [rows[0][0].top - 1]
    for above, below in itertools.pairwise(rows):
        edges.append((above[-1].bottom + below[0].top) / 2)
    edges.append(rows[-1][-1].bottom + 1)
    slots: list[Slot] = []
    for r, row in enumerate(rows):
        spans = _spans(row, gaps, bounds) if r < heading_rows else []
        covered: set[int] = set()
        for start, end in spans:
            if covered & set(range(start, end + 1)):
                continue
            covered |= set(range(start, end + 1))
            slots.append(Slot(r, start, (bounds[start], edges[r], bounds[end + 1], edges[r + 1]), 1, end - start + 1))
        slots += [Slot(r, c, (bounds[c], edges[r], bounds[c + 1], edges[r + 1]))
                  for c in range(cols) if c not in covered]
    return Found(slots, len(rows), cols)


def _spans(row: list[Line], gaps: list[tuple[float, float]], bounds: list[float]) -> list[tuple[int, int]]:
    """Heading phrases with a word that runs over a column gap (a heading centred over the columns
    it names): the columns each covers. A phrase whose gap falls between two of its words is two
    headings that stand close, not one over both."""
    return [(_column(phrase[0].x0 + 0.5, bounds), _column(phrase[-1].x1 - 0.5, bounds))
            for line in row for phrase in line.phrases
            if any(w.x0 < a and w.x1 > b for w in phrase for a, b in gaps)]


def aligned_tables(words: Sequence[Word], min_rows: int = MIN_ROWS) -> list[Found]:
    """Every table drawn without lines among these words."""
    found = []
    for block in blocks_of(lines_of(words), min_rows):
        table = table_slots(block)
        if table is not None:
            found.append(table)
    return found
