"""From slots on a page to a table: words placed in the cells whose box holds their middle, rows
and columns that hold nothing dropped, header rows recognised. Ruled and aligned finding both end
here, so a table reads the same whichever way it was found."""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pdfdesk.core.tables.model import Reading, Table, TableCell, TablePart
from pdfdesk.core.tables.page_content import PageContent, Word

Box = tuple[float, float, float, float]
_NUMBER = re.compile(r"^[(\-−+]?[$€£¥₽%]?\s?[\d.,'’ \u00a0\u202f]*\d[\d.,'’ \u00a0\u202f]*\)?\s?[%$€£¥₽]?$")


@dataclass
class Slot:
    """A cell being built: its place in the grid and its box in the reading frame."""

    row: int
    col: int
    box: Box
    rowspan: int = 1
    colspan: int = 1


_YEAR = re.compile(r"^(?:19|20)\d\d$")


def is_number(text: str) -> bool:
    return bool(_NUMBER.match(text.strip()))


def is_amount(text: str) -> bool:
    """A number that is not a year: a heading row names years ("2025", "2024") over amounts."""
    return is_number(text) and not _YEAR.match(text.strip())


class WordIndex:
    """Words sorted by their middle's height, so a cell finds its words without a full scan."""

    def __init__(self, words: Sequence[Word]) -> None:
        self.words = sorted(words, key=lambda w: w.cy)
        self.keys = [w.cy for w in self.words]

    def within(self, box: Box) -> list[Word]:
        start = bisect.bisect_left(self.keys, box[1])
        end = bisect.bisect_right(self.keys, box[3])
        return [w for w in self.words[start:end] if box[0] <= w.cx <= box[2]]


def text_of(words: Sequence[Word]) -> str:
    """Words in reading order: lines top to bottom (a word joins a line its middle falls in),
    each left to right, joined by single spaces."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.cy, w.x0)):
        if lines and abs(word.cy - lines[-1][0].cy) <= max(word.height, lines[-1][0].height) * 0.5:
            lines[-1].append(word)
        else:
            lines.append([word])
    return " ".join(" ".join(w.text for w in sorted(line, key=lambda w: w.x0)) for line in lines)


def header_rows(grid: list[list[str]], spans: Sequence[Slot]) -> int:
    """How many rows at the top are headings: the first row when it is all words (no amounts)
    over a body that has amounts or when its cells are all filled; one more when the first row
    holds a heading merged over several columns and the next row names those columns."""
    if len(grid) < 2:
        return 0
    first = [text for text in grid[0] if text]
    if len(first) < 2 and not any(s.row == 0 and s.colspan > 1 for s in spans):
        return 0
    if any(is_amount(text) for text in first):
        return 0
    body_numbers = any(is_amount(text) for row in grid[1:] for text in row if text)
    if not body_numbers and len(first) < len(grid[0]):
        return 0
    count = 1
    merged_top = any(s.row == 0 and s.colspan > 1 for s in spans)
    if merged_top and len(grid) > 2:
        second = [text for text in grid[1] if text]
        if second and not any(is_amount(text) for text in second):
            count = 2
    return count


def assemble(slots: list[Slot], rows: int, cols: int, content: PageContent, index: WordIndex,
             page: int, kind: str, source: str) -> Table | None:
    """The table these slots make with the page's words, or None when it holds fewer than two
    rows and two columns of text (a framed paragraph, a box around a figure)."""
    texts = {(s.row, s.col): text_of(index.within(s.box)) for s in slots}
    used_rows = sorted({s.row for s in slots if texts[(s.row, s.col)]} |
                       {s.row + s.rowspan - 1 for s in slots if texts[(s.row, s.col)]})
    used_cols = sorted({s.col for s in slots if texts[(s.row, s.col)]} |
                       {s.col + s.colspan - 1 for s in slots if texts[(s.row, s.col)]})
    filled_rows = {s.row for s in slots if texts[(s.row, s.col)]}
    if len(filled_rows) < 2 or len({s.col for s in slots if texts[(s.row, s.col)]}) < 2:
        return None
    # rows and columns no cell starts or ends in, and that hold no text, are dropped
    keep_rows = sorted(set(used_rows) | filled_rows)
    keep_cols = sorted(set(used_cols) | {s.col for s in slots if texts[(s.row, s.col)]})
    row_at = {r: i for i, r in enumerate(keep_rows)}
    col_at = {c: i for i, c in enumerate(keep_cols)}
    cells: list[TableCell] = []
    placed: list[Slot] = []
    for slot in sorted(slots, key=lambda s: (s.row, s.col)):
        text = texts[(slot.row, slot.col)]
        covered_rows = [r for r in range(slot.row, slot.row + slot.rowspan) if r in row_at]
        covered_cols = [c for c in range(slot.col, slot.col + slot.colspan) if c in col_at]
        if not covered_rows or not covered_cols:
            continue
        row, col = row_at[covered_rows[0]], col_at[covered_cols[0]]
        rowspan, colspan = len(covered_rows), len(covered_cols)
        cells.append(TableCell(row, col, text, rowspan, colspan, content.page_box(slot.box)))
        placed.append(Slot(row, col, slot.box, rowspan, colspan))
    table_rows, table_cols = len(keep_rows), len(keep_cols)
    grid = [["" for _ in range(table_cols)] for _ in range(table_rows)]
    for cell in cells:
        grid[cell.row][cell.col] = cell.text
    box = (min(s.box[0] for s in slots), min(s.box[1] for s in slots),
           max(s.box[2] for s in slots), max(s.box[3] for s in slots))
    lefts: dict[int, float] = {}
    for slot in placed:
        if slot.colspan == 1:
            lefts[slot.col] = min(lefts.get(slot.col, slot.box[0]), slot.box[0])
    reading = Reading(box, content.height, tuple(lefts[c] for c in sorted(lefts)))
    part = TablePart(page, content.page_box(box), 0, table_rows, reading)
    return Table(table_rows, table_cols, cells, [part],
                 header_rows=header_rows(grid, placed), kind=kind, source=source)
