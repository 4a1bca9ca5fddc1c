"""PDFs with tables drawn from known cells, for the table finding, format and tool tests.

Every table is drawn from the grid of texts a test expects back, so what the page shows and what a
test asserts cannot drift apart: a merged cell is one text over several slots (None in the slots it
covers), a cell of several lines is a text with line breaks, a column set right-aligned stands
flush right like amounts do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

FONT = 9.0
PAD = 3.0
LINE = FONT * 1.3

LOREM = (
    "The committee met on the third of March to review the accounts of the year. Members noted that "
    "costs had risen in every department, and asked the treasurer to prepare a plan that would bring "
    "spending back within the budget agreed at the last general meeting of the association."
)


@dataclass
class Grid:
    """A table to draw: texts row by row (None where a merged cell covers the slot), each column's
    width, the merged cells' spans {(row, col): (rowspan, colspan)}, and the columns set flush
    right."""

    rows: list[list[str | None]]
    widths: list[float]
    spans: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    right: frozenset[int] = frozenset()

    def expected(self) -> list[list[str]]:
        """What Table.grid() should give: each cell's lines joined by a space, "" where covered."""
        return [[" ".join((text or "").split()) for text in row] for row in self.rows]


def row_heights(grid: Grid, fontsize: float = FONT) -> list[float]:
    line = fontsize * 1.3
    heights = []
    for r, row in enumerate(grid.rows):
        lines = max((len(text.split("\n")) for c, text in enumerate(row)
                     if text and grid.spans.get((r, c), (1, 1))[0] == 1), default=1)
        heights.append(lines * line + 2 * PAD)
    return heights


def draw(page: pymupdf.Page, grid: Grid, x: float, y: float, *, ruled: bool = True, zebra: bool = False,
         fontsize: float = FONT, heights: Sequence[float] | None = None) -> pymupdf.Rect:
    """Draw `grid` with its top-left at (x, y) in unrotated page points; returns its box. `zebra`
    shades every other body row (a filled area, not a line); `ruled` strokes each cell's box;
    `heights` sets the rows' heights (else each fits its lines)."""
    heights = list(heights) if heights is not None else row_heights(grid, fontsize)
    tops = [y + sum(heights[:r]) for r in range(len(grid.rows))]
    bottom = tops[-1] + heights[-1]
    width = sum(grid.widths)
    if zebra:
        shading = page.new_shape()
        for r in range(1, len(grid.rows), 2):
            shading.draw_rect(pymupdf.Rect(x, tops[r], x + width, tops[r] + heights[r]))
        shading.finish(color=None, fill=(0.85, 0.85, 0.85))
        shading.commit()
    shape = page.new_shape()  # one shape for the whole grid: a page of cells is drawn in one go
    for r, row in enumerate(grid.rows):
        for c, text in enumerate(row):
            if text is None:
                continue
            rowspan, colspan = grid.spans.get((r, c), (1, 1))
            left = x + sum(grid.widths[:c])
            box = pymupdf.Rect(left, tops[r], left + sum(grid.widths[c:c + colspan]),
                               tops[r] + sum(heights[r:r + rowspan]))
            if ruled:
                shape.draw_rect(box)
            for n, line in enumerate(text.split("\n")):
                if not line:
                    continue
                at = box.x0 + PAD
                if c in grid.right:
                    at = box.x1 - PAD - pymupdf.get_text_length(line, "helv", fontsize)
                shape.insert_text((at, box.y0 + PAD + fontsize + n * fontsize * 1.3), line,
                                  fontsize=fontsize, fontname="helv")
    if ruled:
        shape.finish(color=(0, 0, 0), width=0.6)
    shape.commit()
    return pymupdf.Rect(x, y, x + width, bottom)


def prose(page: pymupdf.Page, rect: pymupdf.Rect, text: str = LOREM, fontsize: float = 10) -> None:
    if page.insert_textbox(rect, text, fontsize=fontsize, fontname="helv") < 0:
        raise ValueError("the paragraph does not fit its box")


def save(doc: pymupdf.Document, path: Path) -> Path:
    doc.save(path)
    doc.close()
    return path


def one_table_pdf(path: Path, grid: Grid, *, ruled: bool = True, zebra: bool = False, rotate: int = 0,
                  width: float = 595, height: float = 842) -> Path:
    """A heading, the table, and a closing sentence under it."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_text((60, 70), "Quarterly statement", fontsize=14, fontname="helv")
    box = draw(page, grid, 60, 100, ruled=ruled, zebra=zebra)
    page.insert_text((60, box.y1 + 40), "The figures above are provisional.", fontsize=10, fontname="helv")
    if rotate:
        page.set_rotation(rotate)
    return save(doc, path)


def turned_pdf(path: Path, grid: Grid, turn: int, *, ruled: bool = True) -> Path:
    """A portrait page showing a landscape page turned a quarter (its words run up or down the
    page): the way a wide table is often printed on a portrait report."""
    source = pymupdf.open()
    landscape = source.new_page(width=842, height=595)
    landscape.insert_text((60, 60), "Annex: landscape table", fontsize=14, fontname="helv")
    draw(landscape, grid, 60, 90, ruled=ruled)
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.show_pdf_page(page.rect, source, 0, rotate=turn)
    return save(doc, path)


def words_in(page: pymupdf.Page, box: Sequence[float]) -> str:
    """The words of `page` whose middle lies in `box` (unrotated page points), in reading order of
    the page as drawn: what a viewer outlining that box would show."""
    inside = [w for w in page.get_text("words")
              if box[0] <= (w[0] + w[2]) / 2 <= box[2] and box[1] <= (w[1] + w[3]) / 2 <= box[3]]
    return " ".join(sorted(w[4] for w in inside))
