"""Find the tables of a page (ruled first, then aligned among the words left over), read a drawn
area as a table, and join a table continued over pages.

This is the one entry the tools use; the page's content, the two ways of finding and the building
of cells are modules of their own.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from pdfdesk.core.tables.aligned import aligned_tables
from pdfdesk.core.tables.cells import Slot, WordIndex, assemble
from pdfdesk.core.tables.continued import join_continued
from pdfdesk.core.tables.model import ALIGNED, AREA, RULED, Box, Table
from pdfdesk.core.tables.page_content import PageContent, Word, WordTuple, monospace_boxes, read_content
from pdfdesk.core.tables.ruled import ruled_grids

__all__ = ["area_table", "join_continued", "page_tables"]


def _inside(word: Word, box: Box) -> bool:
    return box[0] <= word.cx <= box[2] and box[1] <= word.cy <= box[3]


def _frame_box(slots: list[Slot]) -> Box:
    return (min(s.box[0] for s in slots), min(s.box[1] for s in slots),
            max(s.box[2] for s in slots), max(s.box[3] for s in slots))


def _ruled(content: PageContent, number: int, source: str, kind: str = RULED) -> tuple[list[Table], list[Box]]:
    grids, note = ruled_grids(content.rules)
    if note:
        content.notes.append(note)
    index = WordIndex(content.words)
    tables, taken = [], []
    for xs, ys, slots in grids:
        table = assemble(slots, len(ys) - 1, len(xs) - 1, content, index, number, kind, source)
        if table is not None:
            tables.append(table)
            taken.append(_frame_box(slots))
    return tables, taken


def _aligned(content: PageContent, words: Sequence[Word], number: int, source: str, kind: str,
             min_rows: int) -> list[tuple[Table, Box]]:
    """Tables drawn without lines, each with its box in the reading frame."""
    index = WordIndex(words)
    tables = []
    for found in aligned_tables(words, min_rows):
        table = assemble(found.slots, found.rows, found.cols, content, index, number, kind, source)
        if table is not None:
            tables.append((table, _frame_box(found.slots)))
    return tables


_CODE_MARKS = ("{", "}", ";", "::=", "==", "->", "=>")


def _is_code(table: Table, box: Box, words: Sequence[Word], monospace: list[Box]) -> bool:
    """A block of program code in a fixed-width font lines up like a table ("value1  INTEGER,");
    it is code when nearly all its words are fixed-width and its rows end or hold code marks."""
    inside = [w for w in words if _inside(w, box)]
    if not inside:
        return False
    fixed = sum(1 for w in inside if any(_inside(w, box) for box in monospace))
    if fixed < 0.8 * len(inside):
        return False
    marked = sum(1 for row in table.grid()
                 if any(text.rstrip().endswith((",", "(")) or any(m in text for m in _CODE_MARKS) for text in row))
    return marked >= 0.25 * table.rows


def page_tables(page: pymupdf.Page, number: int, words: Sequence[WordTuple] | None = None,
                source: str = "text", notes: list[str] | None = None) -> list[Table]:
    """The tables on a page, top to bottom. `words` stands in for the text layer on a scanned page
    (the words OCR recognised, in unrotated page points), with `source` "ocr". What could not be
    looked at on a hostile page is added to `notes` (and to each table's notes)."""
    content = read_content(page, words)
    tables, taken = _ruled(content, number, source)
    if not content.crowded:
        free = [w for w in content.words if not any(_inside(w, box) for box in taken)]
        aligned = _aligned(content, free, number, source, ALIGNED, min_rows=3)
        if aligned and source == "text":
            monospace = monospace_boxes(page, ~content.to_page)
            aligned = [(t, box) for t, box in aligned if not monospace or not _is_code(t, box, free, monospace)]
        tables += [t for t, _box in aligned]
    for table in tables:
        table.notes.extend(content.notes)
    if notes is not None:
        notes.extend(content.notes)
    return sorted(tables, key=lambda t: (t.bbox[1], t.bbox[0]))


def area_table(page: pymupdf.Page, number: int, area: Box, words: Sequence[WordTuple] | None = None,
               source: str = "text") -> Table | None:
    """What lies in `area` (unrotated page points) read as one table, even where finding the page's
    tables passed it by: a ruled grid inside it if there is one, else its words' columns, from a
    single row up."""
    content = read_content(page, words)
    frame = pymupdf.Rect(area) * ~content.to_page
    box = (frame.x0, frame.y0, frame.x1, frame.y1)
    content.words = [w for w in content.words if _inside(w, box)]
    content.rules = [r for r in content.rules
                     if (box[1] - 3 <= r.at <= box[3] + 3 if r.horizontal else box[0] - 3 <= r.at <= box[2] + 3)]
    ruled, _taken = _ruled(content, number, source, AREA)
    if ruled:
        return max(ruled, key=lambda t: t.rows * t.cols)
    tables = [t for t, _box in _aligned(content, content.words, number, source, AREA, min_rows=1)]
    return max(tables, key=lambda t: t.rows * t.cols) if tables else None
