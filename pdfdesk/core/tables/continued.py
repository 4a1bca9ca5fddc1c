"""A table continued over pages joined into one: the last table of a page and the first of the
next, with as many columns standing at the same places, are one table. A heading the next page
repeats is dropped from the joined rows (and counted)."""

from __future__ import annotations

from pdfdesk.core.tables.model import Table, TableCell, TablePart

EDGE_TOLERANCE = 6.0   # points between the column edges of two parts of one table
LOW_ON_PAGE = 0.45     # the first part ends below this share of the page ... (its box bottom)
HIGH_ON_PAGE = 0.55    # ... and the next part starts above this share of its page


def _column_edges(table: Table, part: int = 0) -> list[float]:
    edges: dict[int, float] = {}
    for cell in table.cells:
        if cell.bbox is None or cell.colspan != 1:
            continue
        piece = table.parts[part]
        if not piece.first_row <= cell.row < piece.first_row + piece.rows:
            continue
        edges.setdefault(cell.col, cell.bbox[0])
    return [edges[c] for c in sorted(edges)]


def with_headings_of(first: Table, second: Table) -> Table:
    """`second`, a continued part read on its own, with the heading rows of `first` over it (unless
    it repeats them already) and a note of where it began: a page read alone still says what each
    column is."""
    grid_a, grid_b = first.grid(), second.grid()
    heading = first.header_rows
    if not heading or (second.rows >= heading and grid_b[:heading] == grid_a[:heading]):
        return second
    cells = [c for c in first.cells if c.row < heading] + \
        [TableCell(c.row + heading, c.col, c.text, c.rowspan, c.colspan, c.bbox) for c in second.cells]
    parts = [TablePart(p.page, p.bbox, p.first_row + heading, p.rows, p.reading) for p in second.parts]
    return Table(second.rows + heading, second.cols, cells, parts, heading, second.kind, second.source,
                 second.repeated_headers, [*second.notes, f"continued from page {first.parts[-1].page}"])


def continues(first: Table, second: Table, heights: dict[int, float] | None = None) -> bool:
    """Whether `second` (the first table of the next page) goes on with `first` (the last of its
    page): as many columns at the same places, the one low on its page and the other high, as the
    table reads. A table rebuilt from a record has no reading place: `heights` (page -> height in
    points) stands in for it there."""
    heights = heights or {}
    if first.cols != second.cols or second.page != first.parts[-1].page + 1 or first.kind != second.kind:
        return False
    last = first.parts[-1]
    here, there = last.reading, second.parts[0].reading
    if here is not None and there is not None:  # as the table reads, turned upright if need be
        return (here.bbox[3] >= LOW_ON_PAGE * here.page_height and there.bbox[1] <= HIGH_ON_PAGE * there.page_height
                and len(here.columns) == len(there.columns)
                and all(abs(x - y) <= EDGE_TOLERANCE for x, y in zip(here.columns, there.columns, strict=True)))
    height_a, height_b = heights.get(last.page), heights.get(second.page)
    if height_a and height_b and (last.bbox[3] < LOW_ON_PAGE * height_a or second.bbox[1] > HIGH_ON_PAGE * height_b):
        return False
    a, b = _column_edges(first, len(first.parts) - 1), _column_edges(second)
    return len(a) == len(b) and all(abs(x - y) <= EDGE_TOLERANCE for x, y in zip(a, b, strict=True))


def _joined(first: Table, second: Table) -> Table:
    grid_a, grid_b = first.grid(), second.grid()
    repeated = 0
    while (repeated < first.header_rows and repeated < second.rows
           and grid_b[repeated] == grid_a[repeated]):
        repeated += 1
    offset = first.rows - repeated
    cells = list(first.cells) + [TableCell(c.row + offset, c.col, c.text, c.rowspan, c.colspan, c.bbox)
                                 for c in second.cells if c.row >= repeated]
    rows = first.rows + second.rows - repeated
    part = TablePart(second.page, second.bbox, first.rows, second.rows - repeated, second.parts[0].reading)
    pages = f"{first.page}–{second.page}"
    notes = [n for n in first.notes if not n.startswith("continued")] + [f"continued over pages {pages}"]
    return Table(rows, first.cols, cells, [*first.parts, part], first.header_rows, first.kind, first.source,
                 first.repeated_headers + repeated, notes)


def join_continued(tables: list[Table], page_heights: dict[int, float] | None = None) -> list[Table]:
    """Tables in page order with each continued table joined (`page_heights` as in `continues`)."""
    heights = page_heights or {}
    result: list[Table] = []
    for table in tables:
        if result and continues(result[-1], table, heights) and _last_on_page(tables, result[-1]) \
                and _first_on_page(tables, table):
            result[-1] = _joined(result[-1], table)
        else:
            result.append(table)
    return result


def _last_on_page(tables: list[Table], table: Table) -> bool:
    page = table.parts[-1].page
    bottom = table.parts[-1].bbox[3]
    return not any(t.page == page and t.bbox[1] > bottom for t in tables)


def _first_on_page(tables: list[Table], table: Table) -> bool:
    return not any(t.page == table.page and t.bbox[3] < table.bbox[1] for t in tables)
