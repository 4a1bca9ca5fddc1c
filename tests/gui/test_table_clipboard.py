"""The table clipboard and the viewer's table cache without a window: what goes on the clipboard
(quoting a spreadsheet undoes, spans kept in the HTML), the export file, hit-testing, following a
continued table over pages, and the cache's limits (never more than a few pages asked for at once,
late answers for a closed document dropped, one notice when the file is gone)."""

from __future__ import annotations

import csv
import io
import os
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QGuiApplication

from pdfdesk.core.tables.formats import table_from_record
from pdfdesk.core.errors import FILE_NOT_FOUND, PDF_ERROR
from pdfdesk.core.pages import format_page_set, parse_page_spec
from pdfdesk.core.tables.formats import table_record
from pdfdesk.gui import table_clipboard as clip
from pdfdesk.gui import workers
from pdfdesk.gui.viewer import tables
from pdfdesk.tools.contract import ToolResult
from tests.gui.test_viewer_tables import html_grid, spreadsheet_grid

WAIT_MS = 10_000


def record(page: int = 1, bbox=(10, 10, 200, 100), cells=None, **extra: Any) -> dict:
    cells = cells if cells is not None else [
        {"row": 0, "col": 0, "text": "Rates", "colspan": 2}, {"row": 0, "col": 2, "text": "Note"},
        {"row": 1, "col": 0, "text": "a\tb"}, {"row": 1, "col": 1, "text": 'say "x"'},
        {"row": 1, "col": 2, "text": "two\nlines", "rowspan": 2},
        {"row": 2, "col": 0, "text": "=SUM(A1)"}, {"row": 2, "col": 1, "text": "-3.5"},
    ]
    rows = 1 + max(c["row"] + c.get("rowspan", 1) - 1 for c in cells)
    cols = 1 + max(c["col"] + c.get("colspan", 1) - 1 for c in cells)
    return {"page": page, "pages": [page], "bbox": list(bbox), "rows": rows, "cols": cols, "header_rows": 1,
            "kind": "ruled", "source": "text", "continued": False, "cells": cells, **extra}


def test_the_clipboard_holds_cells_a_spreadsheet_splits_back(qapp):
    table = table_from_record(record())
    clip.copy_table(table)
    data = QGuiApplication.clipboard().mimeData()
    grid = spreadsheet_grid(data.text())
    assert grid == [["Rates", "", "Note"], ["a\tb", 'say "x"', "two\nlines"], ["'=SUM(A1)", "-3.5", ""]], \
        "a tab, a quote and a line break stay in their cell; a formula is defused, a negative number kept"
    assert html_grid(data.html()) == table.grid()
    assert 'colspan="2"' in data.html() and 'rowspan="2"' in data.html() and 'charset="utf-8"' in data.html()
    clip.copy_table(table, clip.CSV)
    assert list(csv.reader(io.StringIO(QGuiApplication.clipboard().text(), newline="")))[1] == \
        ["a\tb", 'say "x"', "two\nlines"]
    clip.copy_table(table, clip.MARKDOWN)
    assert QGuiApplication.clipboard().text().splitlines()[0] == "| Rates | Rates | Note |"


def test_a_record_comes_back_as_the_table_it_was_made_from():
    table = table_from_record(record(parts=[{"page": 3, "bbox": [1, 2, 3, 4], "first_row": 0, "rows": 2},
                                        {"page": 4, "bbox": [5, 6, 7, 8], "first_row": 2, "rows": 1}]))
    again = table_record(table)
    assert [c["text"] for c in again["cells"]] == [c["text"] for c in record()["cells"]]
    assert again["pages"] == [3, 4] and table.continued
    assert clip.describe(table) == "3 rows × 3 columns, pages 3–4"
    assert clip.suggested_name("/x/Q3 report (final).pdf", table) == "Q3-report-final-p3-4-table.csv"


def test_export_is_utf8_with_a_mark_and_atomic(tmp_path: Path):
    cells = [{"row": 0, "col": 0, "text": "Услуга"}, {"row": 0, "col": 1, "text": "Zürich"}]
    table = table_from_record(record(cells=cells))
    target = tmp_path / "t.csv"
    target.write_text("old", encoding="utf-8")
    clip.export_csv(table, target)
    assert target.read_bytes().startswith(b"\xef\xbb\xbf")
    with target.open(encoding="utf-8-sig", newline="") as handle:
        assert list(csv.reader(handle)) == [["Услуга", "Zürich"]]
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]


def test_hit_testing_prefers_the_innermost_box_and_the_page_of_each_part():
    outer = record(bbox=(0, 0, 500, 500))
    inner = record(bbox=(100, 100, 200, 200))
    split = record(page=2, bbox=(0, 600, 500, 800),
                   parts=[{"page": 2, "bbox": [0, 600, 500, 800]}, {"page": 3, "bbox": [0, 40, 500, 300]}])
    assert tables.table_at([outer, inner], 1, 150, 150) is inner
    assert tables.table_at([outer, inner], 1, 50, 50) is outer
    assert tables.table_at([outer, inner], 2, 150, 150) is None, "boxes are per page"
    assert tables.table_at([split], 3, 10, 50) is split and tables.table_at([split], 3, 10, 700) is None
    assert tables.best_match([outer, inner], 1, (90, 90, 210, 210)) is inner


def fake_tool(spans: dict[int, list[int]], calls: list[str]):
    """A pdf_tables stand-in: page p has one table, joined over spans[p] when all its pages are asked."""
    def run(name: str, args: dict) -> ToolResult:
        calls.append(args["pages"])
        asked = parse_page_spec(args["pages"], 100)
        found = []
        for first in sorted({pages[0] for pages in spans.values()}):
            pages = [p for p in spans[first] if p in asked]
            if pages:
                found.append(record(page=pages[0], pages=pages, parts=[{"page": p, "bbox": [10, 10, 200, 100],
                                                                        "first_row": 0, "rows": 1} for p in pages]))
        return ToolResult(details={"tables": found, "count": len(found), "pages_requested": format_page_set(asked)})
    return run


def test_a_continued_table_is_followed_until_it_ends():
    long = list(range(3, 12))  # pages 3..11
    spans = dict.fromkeys(long, long) | {1: [1], 2: [2], 12: [12]}
    calls: list[str] = []
    whole = tables.whole_table(fake_tool(spans, calls), {"path": "x"}, 5, (10, 10, 200, 100), 40)
    assert whole is not None and whole["pages"] == long
    assert calls[0] == "4-6" and len(calls) <= 4, calls
    calls.clear()
    single = tables.whole_table(fake_tool(spans, calls), {"path": "x"}, 1, (10, 10, 200, 100), 40)
    assert single is not None and single["pages"] == [1] and calls == ["1-2"]


class SlowTool:
    """Answers after `release` is set, counting how many calls run at once."""

    def __init__(self, error: str | None = None) -> None:
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.running = self.most = 0
        self.pages: list[str] = []
        self.error = error

    def __call__(self, name: str, args: dict) -> ToolResult:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.pages.append(args["pages"])
        self.release.wait(10)
        with self.lock:
            self.running -= 1
        if self.error:
            return ToolResult(details={"error": self.error, "message": f"{self.error} happened."}, is_error=True)
        return ToolResult(details={"tables": [record(page=int(args["pages"]))], "count": 1})


def test_few_pages_in_flight_and_the_ui_never_waits(qtbot, tmp_path):
    tool = SlowTool()
    cache = tables.PageTables(tool)
    cache.reset(str(tmp_path / "a.pdf"), None, ("id", 1), 10)
    started = time.perf_counter()
    cache.want(range(6))
    qtbot.waitUntil(lambda: tool.running == tables.MAX_IN_FLIGHT, timeout=WAIT_MS)
    assert time.perf_counter() - started < 5
    qtbot.wait(100)
    assert tool.running == tables.MAX_IN_FLIGHT and tool.most == tables.MAX_IN_FLIGHT
    cache.want([4, 5])  # scrolled on: pages 2 and 3 are no longer wanted
    tool.release.set()
    qtbot.waitUntil(lambda: all(cache.known(i) for i in (0, 1, 4, 5)), timeout=WAIT_MS)
    assert sorted(tool.pages) == ["1", "2", "5", "6"] and not cache.known(2)
    assert cache.on_page(4)[0]["page"] == 5
    other = tables.PageTables(SlowTool())
    other.reset(str(tmp_path / "a.pdf"), None, ("id", 1), 10)
    assert other.known(4), "answers are shared by every view of the same document version"
    other.reset(str(tmp_path / "a.pdf"), None, ("id", 2), 10)
    assert not other.known(4), "a changed file is another version"
    workers.wait_idle()


def test_late_answers_for_a_closed_document_are_dropped(qtbot, tmp_path):
    tool = SlowTool()
    cache = tables.PageTables(tool)
    cache.reset(str(tmp_path / "old.pdf"), None, ("id", 1), 3)
    cache.want([0])
    qtbot.waitUntil(lambda: tool.running == 1, timeout=WAIT_MS)
    cache.reset(str(tmp_path / "new.pdf"), None, ("id", 2), 3)
    arrived: list[int] = []
    cache.changed.connect(arrived.append)
    tool.release.set()
    workers.wait_idle()
    qtbot.wait(50)
    assert arrived == [] and not cache.known(0)


def test_a_missing_file_stops_asking_with_one_notice_a_damaged_page_does_not(qtbot, tmp_path):
    for code, halts in ((FILE_NOT_FOUND, True), (PDF_ERROR, False)):
        tool = SlowTool(error=code)
        tool.release.set()
        cache = tables.PageTables(tool)
        cache.reset(str(tmp_path / f"{code}.pdf"), None, ("id", code), 10)
        notices: list[str] = []
        cache.failed.connect(lambda _index, text, notices=notices: notices.append(text))
        cache.want(range(4))
        qtbot.waitUntil(lambda notices=notices: bool(notices), timeout=WAIT_MS)
        workers.wait_idle()
        qtbot.wait(300)
        cache.want(range(4, 8))
        workers.wait_idle()
        qtbot.wait(300)
        if halts:
            assert len(notices) == 1 and cache.halted and len(tool.pages) <= tables.MAX_IN_FLIGHT
        else:
            assert cache.halted is None and len(tool.pages) == 8


def test_a_scan_waiting_for_recognition_is_asked_again_after_news(qtbot, tmp_path):
    recognised = threading.Event()
    calls: list[str] = []

    def tool(name: str, args: dict) -> ToolResult:
        calls.append(args["pages"])
        if not recognised.is_set():
            return ToolResult(details={"tables": [], "count": 0, "pages_awaiting_ocr": args["pages"]})
        return ToolResult(details={"tables": [record(source="ocr")], "count": 1})

    cache = tables.PageTables(tool)
    cache.reset(str(tmp_path / "scan.pdf"), None, ("id", "scan"), 1)
    cache.want([0])
    qtbot.waitUntil(lambda: cache.known(0), timeout=WAIT_MS)
    assert cache.on_page(0) == []
    cache.want([0])
    workers.wait_idle()
    qtbot.wait(SETTLE_WAIT_MS)
    assert calls == ["1"], "no news from indexing: not asked again on every scroll"
    cache.want([0], frozenset({0}))  # indexing: page 1 waits for OCR
    recognised.set()
    cache.want([0], frozenset())  # indexing: it has been read
    qtbot.waitUntil(lambda: bool(cache.on_page(0)), timeout=WAIT_MS)
    assert cache.on_page(0)[0]["source"] == "ocr" and calls == ["1", "1"]
    other = tables.PageTables(tool)
    other.reset(str(tmp_path / "scan.pdf"), None, ("id", "scan"), 1)
    assert other.known(0), "kept for other views once read"


SETTLE_WAIT_MS = tables.SETTLE_MS + 200
