"""A table written out: Markdown for reading (and for a model), CSV for files, tab-separated text
and HTML for the clipboard (what spreadsheets paste), JSON for programs.

Cell text comes from the document, so what a spreadsheet would run is defused: a cell that starts
like a formula (=, @, or + and - not followed by a number) gets a leading apostrophe in CSV and
tab-separated text, the convention spreadsheets read as "this is text". Negative amounts stay
numbers.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Mapping
from typing import Any

from pdfdesk.core.tables.model import Box, Table, TableCell, TablePart

_FORMULA = re.compile(r"^(?:[=@\t\r]|[+-](?![\d.,\s]*$))")


def defused(text: str) -> str:
    """`text` as a spreadsheet should take it: never as a formula."""
    return "'" + text if _FORMULA.match(text) else text


def _one_line(text: str) -> str:
    return " ".join(text.split())


def to_markdown(table: Table) -> str:
    """A GitHub-style pipe table: the header rows folded into one heading row (a merged heading
    over each column it spans), body rows below; pipes escaped, each cell on one line."""
    def row_text(cells: list[str]) -> str:
        return "| " + " | ".join(_one_line(cell).replace("\\", "\\\\").replace("|", "\\|") for cell in cells) + " |"

    grid = table.grid()
    header = table.column_headings() if table.header_rows else [""] * table.cols
    body = grid[table.header_rows:] if table.header_rows else grid
    lines = [row_text(header), "| " + " | ".join("---" for _ in range(table.cols)) + " |"]
    lines.extend(row_text(row) for row in body)
    return "\n".join(lines)


def _delimited(table: Table, delimiter: str) -> str:
    out = io.StringIO()
    # rows end in CR LF (RFC 4180, and what spreadsheets put on the clipboard): the writer then
    # quotes a cell holding either, where a lone CR would otherwise end the row for some readers
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    for row in table.grid():
        writer.writerow([defused(cell) for cell in row])
    return out.getvalue()


def to_csv(table: Table) -> str:
    """RFC 4180 CSV (quotes where a cell holds a comma, quote or line break), one line per row."""
    return _delimited(table, ",")


def to_tsv(table: Table) -> str:
    """Tab-separated rows, quoted like a spreadsheet quotes its own clipboard."""
    return _delimited(table, "\t")


def to_html(table: Table) -> str:
    """An HTML table with the spans kept (spreadsheets paste this with merged cells)."""
    parts = ["<table>"]
    by_row: dict[int, list[str]] = {}
    for cell in table.cells:
        tag = "th" if cell.row < table.header_rows else "td"
        spans = (f' rowspan="{cell.rowspan}"' if cell.rowspan > 1 else "") + \
                (f' colspan="{cell.colspan}"' if cell.colspan > 1 else "")
        by_row.setdefault(cell.row, []).append(f"<{tag}{spans}>{html.escape(cell.text)}</{tag}>")
    parts.extend("<tr>" + "".join(by_row.get(row, [])) + "</tr>" for row in range(table.rows))
    parts.append("</table>")
    return "".join(parts)


def table_record(table: Table, cell_boxes: bool = True) -> dict[str, Any]:
    """The table as plain data (the tool's details and its JSON format)."""
    def box(value: tuple[float, ...] | None) -> list[float] | None:
        return [round(v, 1) for v in value] if value is not None else None

    cells = []
    for cell in table.cells:
        item: dict[str, Any] = {"row": cell.row, "col": cell.col, "text": cell.text}
        if cell.rowspan > 1:
            item["rowspan"] = cell.rowspan
        if cell.colspan > 1:
            item["colspan"] = cell.colspan
        if cell_boxes and cell.bbox is not None:
            item["bbox"] = box(cell.bbox)
        cells.append(item)
    record: dict[str, Any] = {
        "page": table.page, "pages": table.pages, "bbox": box(table.bbox),
        "rows": table.rows, "cols": table.cols, "header_rows": table.header_rows,
        "kind": table.kind, "source": table.source, "continued": table.continued,
        "cells": cells,
    }
    if table.continued:
        record["parts"] = [{"page": p.page, "bbox": box(p.bbox), "first_row": p.first_row, "rows": p.rows}
                           for p in table.parts]
    if table.repeated_headers:
        record["repeated_headers"] = table.repeated_headers
    if table.notes:
        record["notes"] = list(table.notes)
    return record


def _box(value: Any) -> Box | None:
    if not isinstance(value, list | tuple) or len(value) != 4:
        return None
    return float(value[0]), float(value[1]), float(value[2]), float(value[3])


def table_from_record(record: Mapping[str, Any]) -> Table:
    """The `Table` a record describes (what `table_record` wrote, as a tool's details carry it)."""
    cells = [TableCell(int(c["row"]), int(c["col"]), str(c.get("text", "")), int(c.get("rowspan", 1)),
                       int(c.get("colspan", 1)), _box(c.get("bbox"))) for c in record.get("cells", [])]
    rows, cols = int(record.get("rows", 0)), int(record.get("cols", 0))
    parts = [TablePart(int(p["page"]), _box(p["bbox"]) or (0, 0, 0, 0), int(p.get("first_row", 0)),
                       int(p.get("rows", rows))) for p in record.get("parts") or []]
    if not parts:
        parts = [TablePart(int(record.get("page", 1)), _box(record.get("bbox")) or (0, 0, 0, 0), 0, rows)]
    return Table(rows, cols, cells, parts, header_rows=int(record.get("header_rows", 0)),
                 kind=str(record.get("kind", "ruled")), source=str(record.get("source", "text")),
                 repeated_headers=int(record.get("repeated_headers", 0)),
                 notes=[str(n) for n in record.get("notes") or []])


def to_json(table: Table) -> str:
    return json.dumps(table_record(table, cell_boxes=False), ensure_ascii=False)


RENDERERS = {"markdown": to_markdown, "csv": to_csv, "tsv": to_tsv, "html": to_html, "json": to_json}
