"""What a found table is: a grid of cells with spans, where it stands, and how it was found.

Coordinates are PDF points of the unrotated page with the origin top-left: the space of
`page.get_text("words")`, of search hits and of review notes, so a viewer outlines a table the way
it outlines a hit. Finding works in the page as shown (a turned page is read upright) and maps the
boxes back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Box = tuple[float, float, float, float]

RULED = "ruled"      # cells bounded by drawn lines
ALIGNED = "aligned"  # columns found from how words line up, no lines
AREA = "area"        # an area the user drew, read as a table


@dataclass(frozen=True)
class TableCell:
    """A cell at its top-left slot; a merged cell spans rows or columns."""

    row: int
    col: int
    text: str
    rowspan: int = 1
    colspan: int = 1
    bbox: Box | None = None


@dataclass(frozen=True)
class Reading:
    """Where a piece stands as it reads (turned upright when its text runs down the page): what
    joining a table continued over pages compares."""

    bbox: Box
    page_height: float
    columns: tuple[float, ...]   # each column's left edge


@dataclass(frozen=True)
class TablePart:
    """The piece of a table on one page (a table continued over pages has several)."""

    page: int        # 1-based
    bbox: Box
    first_row: int   # the table's row this piece starts at
    rows: int
    reading: Reading | None = None


@dataclass
class Table:
    """One table. `cells` holds every non-covered slot's cell, row by row; `parts` the pages it
    stands on (one part unless it was continued over pages and joined)."""

    rows: int
    cols: int
    cells: list[TableCell]
    parts: list[TablePart]
    header_rows: int = 0
    kind: str = RULED
    source: str = "text"       # "text" (the text layer) or "ocr" (words recognised on a scan)
    repeated_headers: int = 0  # header rows dropped where a continued part repeated them
    notes: list[str] = field(default_factory=list)

    @property
    def page(self) -> int:
        return self.parts[0].page

    @property
    def bbox(self) -> Box:
        return self.parts[0].bbox

    @property
    def pages(self) -> list[int]:
        return [part.page for part in self.parts]

    @property
    def continued(self) -> bool:
        return len(self.parts) > 1

    def grid(self) -> list[list[str]]:
        """Rows of cell texts; a merged cell's text in its top-left slot, "" in the slots it covers."""
        grid = [["" for _ in range(self.cols)] for _ in range(self.rows)]
        for cell in self.cells:
            grid[cell.row][cell.col] = cell.text
        return grid

    def covering(self) -> list[list[TableCell | None]]:
        """For each slot, the cell that covers it (a merged cell covers several slots)."""
        slots: list[list[TableCell | None]] = [[None] * self.cols for _ in range(self.rows)]
        for cell in self.cells:
            for row in range(cell.row, min(cell.row + cell.rowspan, self.rows)):
                for col in range(cell.col, min(cell.col + cell.colspan, self.cols)):
                    slots[row][col] = cell
        return slots

    def column_headings(self) -> list[str]:
        """Each column's heading: the texts of the header rows over it, top to bottom, a merged
        heading repeated over the columns it spans ("Rates Status 1", "Rates Status 4")."""
        slots = self.covering()
        headings = []
        for col in range(self.cols):
            texts: list[str] = []
            for row in range(min(self.header_rows, self.rows)):
                cell = slots[row][col]
                if cell is not None and cell.text and cell.text not in texts:
                    texts.append(cell.text)
            headings.append(" ".join(texts))
        return headings
