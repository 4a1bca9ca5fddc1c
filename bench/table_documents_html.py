"""The table bench's real-looking pages laid out from HTML by MuPDF's Story, as HTML-to-PDF
converters make them: the browser-like table layout chooses the column widths, CSS borders draw
the rules, and each table's box is where Story says it put the element (its id)."""

from __future__ import annotations

import html
import io
from collections.abc import Callable

import pymupdf

from bench.table_corpus import Box, TableTruth, cells_of
from bench.table_documents import BOTTOM, LEFT, RIGHT, TOP
from bench.table_pages import Block, Bullets, Columns, Heading, KeyValues, Notes, PageSpec, Para, TableSpec

CSS = """
body {margin: 0; padding: 0;}
h1 {font-weight: bold; margin: 2px 0 5px 0;}
p {margin: 0 0 6px 0;}
ul, ol {margin: 0 0 6px 0;}
table {border-collapse: collapse; margin: 2px 0 10px 0;}
td, th {padding: 2px 5px; vertical-align: top; text-align: left;}
th {font-weight: bold;}
td.r, th.r {text-align: right;}
table.grid td, table.grid th {border: 0.6px solid black;}
table.booktabs th {border-bottom: 0.6px solid black;}
table.booktabs tr.total td {border-top: 0.6px solid black;}
table.three th {border-top: 1px solid black; border-bottom: 0.6px solid black;}
table.three tr.last td {border-bottom: 1px solid black;}
table.shade th {background-color: #dbe3ed;}
div.kv p {margin: 0;}
div.notes {border-top: 0.4px solid black; margin-top: 4px;}
"""


def _table(spec: TableSpec, ident: str) -> str:
    classes = {"grid": "grid", "booktabs": "booktabs", "three": "three"}.get(spec.rules, "plain")
    if spec.shade_header:
        classes += " shade"
    rows = []
    levels = spec.levels or [0] * len(spec.grid)
    first_total = len(spec.grid) - spec.total_rows
    for r, row in enumerate(spec.grid):
        tag = "th" if r == 0 else "td"
        cells = []
        for c, text in enumerate(row):
            align = ' class="r"' if spec.align[c] == "r" else ""
            indent = f' style="padding-left: {5 + 12 * levels[r]}px"' if c == 0 and levels[r] else ""
            cells.append(f"<{tag}{align}{indent}>{html.escape(text)}</{tag}>")
        kind = ' class="total"' if r == first_total and r > 0 else ' class="last"' if r == len(spec.grid) - 1 else ""
        rows.append(f"<tr{kind}>{''.join(cells)}</tr>")
    caption = f'<p style="font-size: {spec.size}px">{html.escape(spec.caption)}</p>' if spec.caption else ""
    align = ' align="center"' if spec.rules == "three" else ""
    return (f'{caption}<table id="{ident}" class="{classes}"{align} style="font-size: {spec.size}px">'
            f'{"".join(rows)}</table>')


def _block(block: Block, ident: str) -> str:
    if isinstance(block, Heading):
        return f'<h1 style="font-size: {block.size}px">{html.escape(block.text)}</h1>'
    if isinstance(block, Para):
        return f'<p style="font-size: {block.size}px">{html.escape(block.text)}</p>'
    if isinstance(block, Bullets):
        tag = "ol" if block.numbered else "ul"
        items = "".join(f"<li>{html.escape(item)}</li>" for item in block.items)
        return f'<{tag} style="font-size: {block.size}px">{items}</{tag}>'
    if isinstance(block, KeyValues):
        lines = "".join(f"<p><b>{html.escape(k)}:</b> {html.escape(v)}</p>" for k, v in block.pairs)
        return f'<div id="{ident}" class="kv" style="font-size: {block.size}px">{lines}</div><p></p>'
    if isinstance(block, Notes):
        lines = "".join(f"<p>{html.escape(text)}</p>" for text in block.texts)
        return f'<div class="notes" style="font-size: {block.size}px">{lines}</div>'
    if isinstance(block, TableSpec):
        return _table(block, ident)
    raise TypeError(block)


Positions = dict[str, pymupdf.Rect]


def _place(html_text: str, rects: list[pymupdf.Rect], device: pymupdf.Device | None,
           positions: Positions) -> float | None:
    """Lay `html_text` out into `rects` in turn; the bottom of what was filled, or None if it did not fit."""
    story = pymupdf.Story(html_text, user_css=CSS)
    bottom, more = rects[0].y0, True
    for rect in rects:
        more, filled = story.place(rect)
        story.element_positions(_recorder(positions))
        if device is not None:
            story.draw(device)
        bottom = max(bottom, pymupdf.Rect(filled).y1)
        if not more:
            return bottom
    return None


def _recorder(positions: Positions) -> Callable[[pymupdf.ElementPosition], None]:
    def record(position: pymupdf.ElementPosition) -> None:
        if position.id:
            positions[position.id] = pymupdf.Rect(position.rect)
    return record


def html_page(doc: pymupdf.Document, spec: PageSpec) -> tuple[list[TableTruth], list[Box]]:
    """Lay one page of `spec` out with Story and append it to `doc`: its tables' truth and key-value boxes."""
    buffer = io.BytesIO()
    writer = pymupdf.DocumentWriter(buffer)
    device = writer.begin_page(pymupdf.paper_rect("a4"))
    positions: Positions = {}
    y = TOP
    run: list[str] = []

    def flush(y: float) -> float:
        if not run:
            return y
        bottom = _place("".join(run), [pymupdf.Rect(LEFT, y, RIGHT, BOTTOM)], device, positions)
        if bottom is None:
            raise ValueError(f"{spec.kind} ({spec.language}) does not fit its page")
        run.clear()
        return bottom + 2

    for index, block in enumerate(spec.blocks):
        if not isinstance(block, Columns):
            run.append(_block(block, f"b{index}"))
            continue
        y = flush(y)
        text = "".join(f'<p style="font-size: {block.size}px">{html.escape(p)}</p>' for p in block.paras)
        middle = (LEFT + RIGHT) / 2
        height = 40.0
        while True:  # the shortest pair of columns that holds the text
            columns = [pymupdf.Rect(LEFT, y, middle - 9, y + height), pymupdf.Rect(middle + 9, y, RIGHT, y + height)]
            if _place(text, columns, None, {}) is not None or y + height > BOTTOM:
                break
            height += 6
        bottom = _place(text, columns, device, positions)
        if bottom is None:
            raise ValueError(f"{spec.kind} ({spec.language}): the columns do not fit the page")
        y = bottom + 4
    flush(y)
    writer.end_page()
    writer.close()
    with pymupdf.open("pdf", buffer.getvalue()) as laid_out:
        doc.insert_pdf(laid_out)
    page = len(doc)
    truths, ignore = [], []
    for index, block in enumerate(spec.blocks):
        where = positions.get(f"b{index}")
        if isinstance(block, TableSpec) and where is not None:
            truths.append(TableTruth(page, block.style, len(block.grid), len(block.grid[0]), cells_of(block.grid),
                                     bbox=tuple(where), document=spec.kind, producer="html"))
        elif isinstance(block, KeyValues) and where is not None:
            ignore.append(tuple(where))
    if len(truths) != len(spec.tables()):
        raise ValueError(f"{spec.kind}: Story did not say where every table went")
    return truths, ignore
