"""Tables in a real DocumentView, offscreen, with the real `pdf_tables` tool in its worker processes:
copied through the context menu and read back from the clipboard the way a spreadsheet reads a
paste, outlined on hover (also on a turned page), exported to CSV, read from a marked area where
detection missed them, and a tool failure said in place."""

from __future__ import annotations

import csv
import io
import os
from html.parser import HTMLParser
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pymupdf
import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF
from PySide6.QtGui import QColor, QGuiApplication, QImage
from PySide6.QtWidgets import QApplication

from pdfdesk.core.tables.formats import table_from_record as table_of
from pdfdesk.gui.table_clipboard import BOM
from pdfdesk.gui.viewer import DocumentView, tables
from pdfdesk.tools import call_tool
from tests.gui import table_pdfs
from tests.gui.test_viewer import WAIT_MS, grab, open_and_wait, wait_rendered
from tests.gui.test_viewer_annotations import actions_of, drag

Grid = list[list[str]]


# --- reading what was pasted, as a spreadsheet would ------------------------------------------------
def spreadsheet_grid(text: str) -> Grid:
    """Tab-separated clipboard text split into cells with a spreadsheet's quoting rules."""
    rows = list(csv.reader(io.StringIO(text, newline=""), dialect="excel-tab"))
    while rows and rows[-1] == []:
        rows.pop()
    return rows


class _HtmlCells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, int, int]]] = []
        self._cell: list[str] | None = None
        self._spans = (1, 1)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            found = dict(attrs)
            self._cell, self._spans = [], (int(found.get("rowspan") or 1), int(found.get("colspan") or 1))

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(("".join(self._cell), *self._spans))
            self._cell = None


def html_grid(html: str) -> Grid:
    """An HTML table's cells laid on a grid: a merged cell's text in its top-left slot."""
    parser = _HtmlCells()
    parser.feed(html)
    taken: set[tuple[int, int]] = set()
    placed: dict[tuple[int, int], str] = {}
    for r, row in enumerate(parser.rows):
        c = 0
        for text, rowspan, colspan in row:
            while (r, c) in taken:
                c += 1
            placed[(r, c)] = text
            taken |= {(r + dr, c + dc) for dr in range(rowspan) for dc in range(colspan)}
            c += colspan
    rows = 1 + max(r for r, _ in taken)
    cols = 1 + max(c for _, c in taken)
    return [[placed.get((r, c), "") for c in range(cols)] for r in range(rows)]


def collapsed(grid: Grid) -> Grid:
    return [[" ".join(text.split()) for text in row] for row in grid]


def tool_tables(path: Path, pages: str = "1") -> list[dict]:
    result = call_tool("pdf_tables", {"path": str(path), "pages": pages, "format": "json"})
    assert not result.is_error, result.text
    return list(result.details["tables"])


# --- driving the view ----------------------------------------------------------------------------
def open_tables(qtbot, view: DocumentView, path: Path, index: int = 0) -> list[dict]:
    open_and_wait(qtbot, view, path)
    wait_rendered(qtbot, view)
    qtbot.waitUntil(lambda: view.tables.known(index), timeout=WAIT_MS)
    return view.tables.on_page(index)


def menu_at(view: DocumentView, point: QPointF) -> dict:
    return actions_of(view.context_menu(point))


def clipboard_formats() -> tuple[str, str]:
    data = QGuiApplication.clipboard().mimeData()
    return data.text(), data.html()


def viewport_box(view: DocumentView, index: int, box) -> QRectF:
    x0, y0, x1, y1 = view.model.display_rects(index, [tuple(box)])[0]
    return QRectF(view.viewport_point(index + 1, x0, y0), view.viewport_point(index + 1, x1, y1))


def near(colour: QColor, expected: QColor, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in ((colour.red(), expected.red()), (colour.green(), expected.green()),
                                                    (colour.blue(), expected.blue())))


def accent_on_edges(image: QImage, rect: QRectF, accent: QColor) -> float:
    """The share of points along `rect`'s four edges where the accent colour is drawn (within 2 px)."""
    points = []
    for t in [i / 20 for i in range(1, 20)]:
        x, y = rect.left() + t * rect.width(), rect.top() + t * rect.height()
        points += [(x, rect.top()), (x, rect.bottom()), (rect.left(), y), (rect.right(), y)]
    hits = 0
    for x, y in points:
        hits += any(near(image.pixelColor(int(x) + dx, int(y) + dy), accent)
                    for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)
                    if 0 <= int(x) + dx < image.width() and 0 <= int(y) + dy < image.height())
    return hits / len(points)


# --- the acceptance test: copy, paste into a grid, same cells --------------------------------------------
@pytest.mark.parametrize(("make", "known"), [(table_pdfs.ruled_pdf, table_pdfs.RULED_CELLS),
                                          (table_pdfs.borderless_pdf, table_pdfs.BORDERLESS_CELLS)],
                         ids=["ruled", "borderless"])
def test_copy_table_pastes_the_cells_into_a_spreadsheet(qtbot, view, tmp_path, make, known):
    path = make(tmp_path / "table.pdf")
    (record,) = open_tables(qtbot, view, path)
    QGuiApplication.clipboard().clear()
    menu = menu_at(view, view.table_point(0, record))
    assert {"copyTableAction", "copyTableCsvAction", "copyTableMarkdownAction", "exportTableAction"} <= set(menu)
    menu["copyTableAction"].trigger()
    qtbot.waitUntil(lambda: bool(clipboard_formats()[0]), timeout=WAIT_MS)
    text, html = clipboard_formats()
    pasted = spreadsheet_grid(text)
    (from_tool,) = tool_tables(path)
    expected = table_of(from_tool).grid()
    assert pasted == expected, "the paste gives the tool's cells, one for one"
    assert collapsed(pasted) == collapsed(known), "and the cells the page was drawn from"
    assert any("," in cell for row in pasted for cell in row) and any(not cell.isascii() for row in pasted
                                                                        for cell in row)
    if make is table_pdfs.ruled_pdf:
        assert pasted[1][2] == 'He said "yes"' and pasted[2][2].split() == ["First", "line", "Second", "line"]
    assert html_grid(html) == expected, "the HTML rendering holds the same cells"
    assert "Copied the table" in (view.table_notice() or "")


def test_csv_and_markdown_copies(qtbot, view, tmp_path):
    path = table_pdfs.ruled_pdf(tmp_path / "table.pdf")
    (record,) = open_tables(qtbot, view, path)
    point = view.table_point(0, record)
    menu_at(view, point)["copyTableCsvAction"].trigger()
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text().startswith("Name,"), timeout=WAIT_MS)
    rows = list(csv.reader(io.StringIO(QGuiApplication.clipboard().text(), newline="")))
    assert rows == table_of(record).grid()
    menu_at(view, point)["copyTableMarkdownAction"].trigger()
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text().startswith("| Name |"), timeout=WAIT_MS)
    lines = QGuiApplication.clipboard().text().splitlines()
    assert lines[1].startswith("| --- |") and "| Smith, John | Zürich |" in lines[2]


def test_a_continued_table_is_copied_whole(qtbot, view, tmp_path):
    path = table_pdfs.continued_pdf(tmp_path / "continued.pdf")
    (record,) = open_tables(qtbot, view, path)
    assert record["pages"] == [1], "one page asked for: the part on it"
    QGuiApplication.clipboard().clear()
    menu_at(view, view.table_point(0, record))["copyTableAction"].trigger()
    qtbot.waitUntil(lambda: bool(QGuiApplication.clipboard().text()), timeout=WAIT_MS)
    pasted = spreadsheet_grid(QGuiApplication.clipboard().text())
    (whole,) = tool_tables(path, "1-2")
    assert whole["pages"] == [1, 2]
    assert pasted == table_of(whole).grid()
    assert pasted == table_pdfs.CONTINUED_CELLS, "every row of both pages, the repeated heading once"


# --- hovering -------------------------------------------------------------------------------------
def hover(qtbot, view: DocumentView, point: QPointF) -> None:
    qtbot.mouseMove(view.viewport(), point.toPoint())
    qtbot.waitUntil(lambda: True)


def test_hover_outlines_the_table_and_nothing_outside_it(qtbot, view, tmp_path):
    path = table_pdfs.borderless_pdf(tmp_path / "table.pdf")
    (record,) = open_tables(qtbot, view, path)
    box = viewport_box(view, 0, record["bbox"])
    accent = view.table_accent()
    before = grab(view)
    assert accent_on_edges(before, box, accent) < 0.1
    hover(qtbot, view, view.table_point(0, record))
    assert view.hovered_table() == (0, record)
    image = grab(view)
    assert accent_on_edges(image, box, accent) > 0.9, "the outline runs round the table's box"
    inside = QPoint(int(box.right() - 3), int(box.top() + 3))
    assert image.pixelColor(inside) != before.pixelColor(inside), "a light wash inside"
    assert image.pixelColor(inside).lightness() > 200, "light enough to read through"
    outside = QPoint(int(box.right() + 12), int(box.center().y()))
    assert image.pixelColor(outside) == before.pixelColor(outside), "nothing outside the table"
    hover(qtbot, view, view.viewport_point(1, 300, 600))
    assert view.hovered_table() is None
    assert accent_on_edges(grab(view), box, accent) < 0.1, "leaving the table takes the outline away"
    hover(qtbot, view, view.table_point(0, record))
    assert view.hovered_table() is not None
    QApplication.sendEvent(view.viewport(), _leave())
    assert view.hovered_table() is None, "leaving the view takes it away too"


def _leave():
    from PySide6.QtCore import QEvent

    return QEvent(QEvent.Type.Leave)


def test_outline_on_a_turned_page_lands_on_the_table(qtbot, view, tmp_path):
    path = table_pdfs.ruled_pdf(tmp_path / "turned.pdf", rotate=90)
    (record,) = open_tables(qtbot, view, path)
    qtbot.waitUntil(lambda: 0 in view.model.matrices, timeout=WAIT_MS)
    with pymupdf.open(path) as doc:
        page = doc[0]
        shown = pymupdf.Rect(record["bbox"]) * page.rotation_matrix
        word = next(w for w in page.get_text("words") if w[4] == "Zürich")
        word_shown = pymupdf.Rect(word[:4]) * page.rotation_matrix
    assert shown.height > shown.width, "a wide table stands upright on the turned page"
    # a point inside the table as the page is shown, but outside its unrotated box read as shown
    hover(qtbot, view, view.viewport_point(1, (word_shown.x0 + word_shown.x1) / 2, (word_shown.y0 + word_shown.y1) / 2))
    assert view.hovered_table() == (0, record)
    image = grab(view)
    box = QRectF(view.viewport_point(1, shown.x0, shown.y0), view.viewport_point(1, shown.x1, shown.y1))
    assert accent_on_edges(image, box, view.table_accent()) > 0.9
    x0, y0, x1, y1 = record["bbox"]
    unrotated_as_shown = QRectF(view.viewport_point(1, x0, y0), view.viewport_point(1, x1, y1))
    assert accent_on_edges(image, unrotated_as_shown, view.table_accent()) < 0.5
    hover(qtbot, view, view.viewport_point(1, shown.x1 + 30, (shown.y0 + shown.y1) / 2))
    assert view.hovered_table() is None


def test_a_scanned_table_is_found_once_recognised(qtbot, view, tmp_path):
    from pdfdesk.index.recognition import build_recognition
    from tests.review.scans import indexed

    scan = table_pdfs.scan_of(table_pdfs.borderless_pdf(tmp_path / "source.pdf"), tmp_path / "scan.pdf")
    target = indexed(scan)  # the keyword stage only: the page waits for OCR
    open_and_wait(qtbot, view, scan)
    wait_rendered(qtbot, view)
    view.show_recognition([1], target.fingerprint)
    qtbot.wait(tables.SETTLE_MS + 300)
    assert view.tables.on_page(0) == []
    build_recognition(target, wait=True)
    view.show_recognition([], target.fingerprint)
    qtbot.waitUntil(lambda: bool(view.tables.on_page(0)), timeout=WAIT_MS)
    (record,) = view.tables.on_page(0)
    assert record["source"] == "ocr"
    hover(qtbot, view, view.table_point(0, record))
    assert view.hovered_table() == (0, record)
    assert accent_on_edges(grab(view), viewport_box(view, 0, record["bbox"]), view.table_accent()) > 0.9
    QGuiApplication.clipboard().clear()
    menu_at(view, view.table_point(0, record))["copyTableAction"].trigger()
    qtbot.waitUntil(lambda: bool(QGuiApplication.clipboard().text()), timeout=WAIT_MS)
    (from_tool,) = tool_tables(scan)
    assert spreadsheet_grid(QGuiApplication.clipboard().text()) == table_of(from_tool).grid()


# --- export ---------------------------------------------------------------------------------------
def test_export_writes_a_csv_that_reads_back_to_the_same_cells(qtbot, view, tmp_path):
    path = table_pdfs.ruled_pdf(tmp_path / "table.pdf")
    (record,) = open_tables(qtbot, view, path)
    menu_at(view, view.table_point(0, record))["exportTableAction"].trigger()
    dialog = view.table_dialog
    assert dialog is not None and dialog.isVisible(), "shown with open(): the event loop goes on"
    assert dialog.selectedFiles()[0].endswith("table-p1-table.csv")
    target = tmp_path / "out" / "fees.csv"
    target.parent.mkdir()
    dialog.fileSelected.emit(str(target))
    dialog.close()
    qtbot.waitUntil(target.exists, timeout=WAIT_MS)
    raw = target.read_bytes()
    assert raw.startswith(BOM.encode("utf-8")), "Excel needs the mark to read UTF-8"
    with target.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows == table_of(tool_tables(path)[0]).grid()
    assert [p.name for p in target.parent.iterdir()] == ["fees.csv"], "no temporary left beside it"
    qtbot.waitUntil(lambda: "written to" in (view.table_notice() or ""), timeout=WAIT_MS)


# --- an area read as a table ----------------------------------------------------------------------
def test_read_area_as_table_where_detection_missed_it(qtbot, view, tmp_path):
    path, box = table_pdfs.missed_pdf(tmp_path / "missed.pdf")
    assert open_tables(qtbot, view, path) == [], "two rows are too few for detection"
    view.set_area_tool(True)
    with qtbot.waitSignal(view.annotateRequested, timeout=WAIT_MS):
        drag(qtbot, view, 1, (box[0] - 6, box[1] - 6), (box[2] + 6, box[3] + 6))
    view.set_area_tool(False)
    (area,) = view.model.annotations.painted_on(0)
    point = view.annotation_point(area["id"])
    menu = menu_at(view, point)
    assert "copyTableAction" not in menu, "no table there yet"
    menu["readAreaTableAction"].trigger()
    qtbot.waitUntil(lambda: bool(view.tables.on_page(0)), timeout=WAIT_MS)
    (record,) = view.tables.on_page(0)
    assert record["kind"] == "area"
    assert view.hovered_table() == (0, record), "the table read is outlined"
    assert "2 rows × 3 columns" in (view.table_notice() or "")
    QGuiApplication.clipboard().clear()
    menu_at(view, view.table_point(0, record))["copyTableAction"].trigger()
    qtbot.waitUntil(lambda: bool(QGuiApplication.clipboard().text()), timeout=WAIT_MS)
    assert spreadsheet_grid(QGuiApplication.clipboard().text()) == table_pdfs.MISSED_CELLS


def test_an_area_with_nothing_table_like_says_so_in_place(qtbot, view, tmp_path):
    path, _box = table_pdfs.missed_pdf(tmp_path / "missed.pdf")
    open_tables(qtbot, view, path)
    view.read_area_as_table(0, (300.0, 500.0, 500.0, 700.0))
    qtbot.waitUntil(lambda: (view.table_notice() or "").startswith("Nothing table-like"), timeout=WAIT_MS)
    assert QApplication.activeModalWidget() is None and view.tables.on_page(0) == []


# --- failures -------------------------------------------------------------------------------------
def test_a_tool_error_shows_in_place_and_the_view_goes_on(qtbot, view, tmp_path):
    path = table_pdfs.ruled_pdf(tmp_path / "gone.pdf")
    (record,) = open_tables(qtbot, view, path)
    path.unlink()
    view.read_area_as_table(0, (300.0, 500.0, 500.0, 700.0))
    qtbot.waitUntil(lambda: "No file at" in (view.table_notice() or ""), timeout=WAIT_MS)
    assert QApplication.activeModalWidget() is None
    # the table already read is still there to copy
    QGuiApplication.clipboard().clear()
    menu_at(view, view.table_point(0, record))["copyTableAction"].trigger()
    qtbot.waitUntil(lambda: bool(QGuiApplication.clipboard().text()), timeout=WAIT_MS)
    assert spreadsheet_grid(QGuiApplication.clipboard().text()) == table_of(record).grid()
    view.zoom_in()
    assert view.model.is_open


def test_a_deleted_file_stops_the_lookups_with_one_notice(qtbot, view, tmp_path):
    path = table_pdfs.continued_pdf(tmp_path / "gone.pdf")
    open_tables(qtbot, view, path)
    path.unlink()
    view.go_to_page(2)
    qtbot.waitUntil(lambda: view.tables.halted is not None, timeout=WAIT_MS)
    assert "No file at" in (view.table_notice() or "")
    assert view.tables.on_page(1) == [] and view.model.is_open
