"""A found table on the clipboard and in a CSV file, the way spreadsheets take them.

"Copy table" puts two renderings into one QMimeData: tab-separated text (what every spreadsheet
splits into cells on paste, quoted as spreadsheets quote their own clipboard, so a cell holding a
tab, a quote or a line break stays one cell) and an HTML table with its row and column spans (what
LibreOffice, Excel and Google Sheets prefer when it is there: merged cells stay merged). CSV and
Markdown are plain text.

An exported CSV file starts with a UTF-8 byte order mark. Excel opens a double-clicked .csv in
the system's legacy code page unless the file starts with one, which turns "Ärzte" or "Услуга"
into mojibake; LibreOffice, Numbers, pandas (`utf-8-sig`) and Python's csv module with
`encoding="utf-8-sig"` read the mark as what it is. A program that reads the file as plain UTF-8
sees U+FEFF before the first cell, the smaller harm. The file is written beside its target and
renamed over it, so a crash leaves the old file or the new one, never half a table.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication

from pdfdesk.core.atomic import write_text_atomically
from pdfdesk.core.tables.formats import to_csv, to_html, to_markdown, to_tsv
from pdfdesk.core.tables.model import Table

BOM = "\ufeff"
TSV, CSV, MARKDOWN = "tsv", "csv", "markdown"
FORMATS = {TSV: "tab-separated text", CSV: "CSV", MARKDOWN: "Markdown"}


def html_document(table: Table) -> str:
    """The table as an HTML document whose charset is said: LibreOffice reads a bare fragment on
    the X11 clipboard as Latin-1."""
    return f'<html><head><meta charset="utf-8"></head><body>{to_html(table)}</body></html>'


def table_mime(table: Table) -> QMimeData:
    """Tab-separated text and HTML with spans in one QMimeData (a spreadsheet takes the HTML)."""
    data = QMimeData()
    data.setText(to_tsv(table))
    data.setHtml(html_document(table))
    return data


def copy_table(table: Table, fmt: str = TSV) -> str:
    """Put `table` on the clipboard as `fmt` (TSV also carries HTML); returns the text put there."""
    clipboard = QGuiApplication.clipboard()
    if fmt == TSV:
        data = table_mime(table)
        text = data.text()
        clipboard.setMimeData(data)
        return text
    text = to_csv(table) if fmt == CSV else to_markdown(table)
    clipboard.setText(text)
    return text


def export_csv(table: Table, path: Path) -> None:
    """Write `table` to `path` as CSV (UTF-8 with a byte order mark), atomically."""
    write_text_atomically(path, BOM + to_csv(table))


def suggested_name(document: str, table: Table) -> str:
    """A file name for the export: the document's stem, the page and "table"."""
    stem = Path(document).stem or "document"
    stem = re.sub(r"[^\w.-]+", "-", stem).strip("-") or "document"
    pages = table.pages
    where = f"p{pages[0]}" if len(pages) == 1 else f"p{pages[0]}-{pages[-1]}"
    return f"{stem}-{where}-table.csv"


def describe(table: Table) -> str:
    """"5 rows × 4 columns, pages 3–4" (what a notice says was copied)."""
    text = f"{table.rows} row{'s' if table.rows != 1 else ''} × {table.cols} column{'s' if table.cols != 1 else ''}"
    pages = table.pages
    if len(pages) > 1:
        text += f", pages {pages[0]}–{pages[-1]}"
    return text
