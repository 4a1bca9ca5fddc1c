"""Table finding on pages built to make it work too hard: graph paper of 200,000 line segments, a
page of 50,000 words, a ruled grid of 300 x 300 cells, a cell of 100,000 characters, boxes nested in
and laid over tables, pages 1 point wide. Each answers within the page budget with a result or a
note, and the worst one run in a tool worker shows the worker stays bounded."""

from __future__ import annotations

import time
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from pdfdesk.core.tables import finder
from pdfdesk.core.tables.model import Table
from pdfdesk.core.tables.page_content import MAX_PATHS, MAX_WORDS, PageContent, read_content
from pdfdesk.core.tables.ruled import MAX_SLOTS, merge_rules, ruled_grids
from pdfdesk.tools import ToolResult, call_tool
from pdfdesk.tools.isolated import call_tool_isolated, shutdown
from tests.core.table_pdfs import Grid, draw, row_heights, save
from tests.pdf_factory import assemble

# Any single page may cost 10 s in any tool; other test runs share this machine's two cores, so the
# bound here is twice that, and each test also checks that the limit meant for the page was taken.
PAGE_SECONDS = 20.0
STATEMENT = Grid([["Name", "City", "Amount"], ["Smith", "Zurich", "1,250.00"], ["Brown", "Paris", "-12.50"],
                  ["Total", "Bern", "1,237.50"]], [120, 90, 80], right=frozenset({2}))


def one_page_pdf(content: bytes, width: float = 595, height: float = 842) -> bytes:
    """A page drawing `content` (Flate-compressed), with Helvetica as /F1."""
    data = zlib.compress(content)
    return assemble([
        b"<</Type /Catalog /Pages 2 0 R>>",
        b"<</Type /Pages /Kids [3 0 R] /Count 1>>",
        b"<</Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>>>>"
        % (width, height),
        b"<</Length %d /Filter /FlateDecode>>stream\n" % len(data) + data + b"\nendstream",
        b"<</Type /Font /Subtype /Type1 /BaseFont /Helvetica>>",
    ])


def graph_paper(segments: int, one_path: bool) -> bytes:
    """Squares of 2 pt drawn as `segments` separate segments, each stroked on its own (as many
    producers write a grid) or all in one path stroked once."""
    per_row = 250
    end = b"" if one_path else b" S"
    rows = []
    for r in range(segments // (2 * per_row)):
        y = 800 - (r % 370) * 2.0
        rows.append(b"".join(b"%.1f %.1f m %.1f %.1f l %.1f %.1f m %.1f %.1f l%s\n"
                             % (x, y, x + 2, y, x, y, x, y - 2, end) for x in (40 + 2.0 * c for c in range(per_row))))
    return one_page_pdf(b"BT /F1 12 Tf 60 815 Td (Graph paper) Tj ET\n0.1 w 0 G\n" + b"".join(rows)
                        + (b"S\n" if one_path else b""))


def crowded_words(words: int, per_line: int = 100) -> bytes:
    """`words` distinct words in lines of 1 pt type filling the top of the page."""
    lines = [b"BT /F1 1 Tf 20 %.1f Td (%s) Tj ET" % (830 - n * 1.2, b" ".join(
        b"w%d" % (n * per_line + i) for i in range(per_line))) for n in range(words // per_line)]
    return one_page_pdf(b"\n".join(lines))


def timed(args: dict[str, Any], tool: str = "pdf_tables") -> tuple[ToolResult, float]:
    started = time.monotonic()
    result = call_tool(tool, args)
    return result, time.monotonic() - started


def grid_of(record: dict[str, Any]) -> list[list[str]]:
    grid = [[""] * record["cols"] for _ in range(record["rows"])]
    for cell in record["cells"]:
        grid[cell["row"]][cell["col"]] = cell["text"]
    return grid


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("table-bombs")


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> list[PageContent]:
    """Every page's content as the finder read it during the test (its notes say which limits hit)."""
    seen: list[PageContent] = []

    def reading(*args: Any, **kwargs: Any) -> PageContent:
        content = read_content(*args, **kwargs)
        seen.append(content)
        return content

    monkeypatch.setattr(finder, "read_content", reading)
    return seen


# -- many lines --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def graph_pdf(folder: Path) -> Path:
    path = folder / "graph-paper.pdf"
    path.write_bytes(graph_paper(200_000, one_path=False))
    return path


@pytest.fixture(scope="module")
def graph_answer(graph_pdf: Path) -> tuple[ToolResult, float, list[str]]:
    notes: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        def reading(*args: Any, **kwargs: Any) -> PageContent:
            content = read_content(*args, **kwargs)
            notes.extend(content.notes)
            return content

        patch.setattr(finder, "read_content", reading)
        result, elapsed = timed({"path": str(graph_pdf)})
    return result, elapsed, notes


def test_graph_paper_of_200000_segments_is_not_read_for_ruling_lines(graph_answer) -> None:
    result, elapsed, notes = graph_answer
    assert elapsed < PAGE_SECONDS, elapsed
    assert not result.is_error and result.details["count"] == 0 and result.details["pages_searched"] == "1"
    # each stroke draws two sides of a square: 100,000 paths, over the limit, so no line was read
    assert notes == [f"the page draws {100_000:,} paths of {200_000:,} lines and shapes; ruling lines were not read"]
    assert MAX_PATHS < 100_000


def test_the_answer_says_the_graph_papers_lines_were_not_read(graph_answer) -> None:
    result, _elapsed, _notes = graph_answer
    assert "ruling lines were not read" in result.text


def test_one_path_of_many_segments_is_held_to_the_same_limit(folder: Path) -> None:
    path = folder / "one-path.pdf"
    path.write_bytes(graph_paper(MAX_PATHS + 10_000, one_path=True))
    with pymupdf.open(path) as doc:
        content = read_content(doc[0])
    assert content.rules == [] and any("not read" in note for note in content.notes)


def test_the_worst_page_in_a_tool_worker_ends_within_its_deadline(folder: Path, text_pdf: Path) -> None:
    """200,000 segments in one path: the worker answers, or is stopped at the deadline and replaced."""
    path = folder / "one-path-200k.pdf"
    path.write_bytes(graph_paper(200_000, one_path=True))
    deadline = 4.0
    try:
        started = time.monotonic()
        result = call_tool_isolated("pdf_tables", {"path": str(path)}, timeout=deadline, overall=True)
        assert time.monotonic() - started < deadline + 3
        if result.is_error:
            assert result.details["error"] == "pdf_error"
            assert f"did not finish within {deadline:g} s" in result.details["message"], result.details
        else:
            assert result.details["count"] == 0
        after = call_tool_isolated("pdf_info", {"path": str(text_pdf)}, timeout=30)
        assert not after.is_error and after.details["pages_total"] == 3
    finally:
        shutdown()


def test_a_ruled_grid_of_300_by_300_cells_is_no_table(folder: Path, spied: list[PageContent]) -> None:
    lines = b"".join(b"20 %.1f m 920 %.1f l S %.1f 20 m %.1f 920 l S\n" % (y, y, x, x)
                     for x, y in ((20 + 3.0 * i, 920 - 3.0 * i) for i in range(301)))
    marks = b"".join(b"BT /F1 2 Tf %.1f %.1f Td (x%d) Tj ET\n" % (21 + 3.0 * i, 919 - 3.0 * i - 2, i)
                     for i in range(0, 300, 7))
    path = folder / "grid-300.pdf"
    path.write_bytes(one_page_pdf(b"0.2 w 0 G\n" + lines + marks, 1000, 1000))
    result, elapsed = timed({"path": str(path)})
    assert elapsed < PAGE_SECONDS and not result.is_error and result.details["count"] == 0
    (content,) = spied
    horizontal, vertical = merge_rules(content.rules, True), merge_rules(content.rules, False)
    assert len(horizontal) == len(vertical) == 301 and MAX_SLOTS < 300 * 300  # lines read, grid refused
    assert ruled_grids(content.rules) == ([], None)


# -- many words, long cells ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def crowded_pdf(folder: Path) -> Path:
    """50,000 words over the top of the page and a small ruled table below them."""
    doc = pymupdf.open(stream=crowded_words(50_000))
    draw(doc[0], STATEMENT, 60, 700)
    return save(doc, folder / "crowded.pdf")


def test_a_page_of_50000_words_is_read_for_ruled_tables_only(crowded_pdf: Path) -> None:
    result, elapsed = timed({"path": str(crowded_pdf)})
    assert elapsed < PAGE_SECONDS, elapsed
    (table,) = result.details["tables"]
    assert grid_of(table) == STATEMENT.expected() and table["kind"] == "ruled"
    words = 50_000 + 12  # and the table's
    assert table["notes"] == [f"the page holds {words:,} words; only ruled tables were looked for"]
    assert words > MAX_WORDS
    text, elapsed = timed({"path": str(crowded_pdf), "tables": True, "max_chars": 1_000_000}, "pdf_extract_text")
    assert elapsed < PAGE_SECONDS and not text.is_error and text.details["tables_given"] == 1
    assert "| Smith | Zurich | 1,250.00 |" in text.text


def test_a_crowded_page_without_a_table_says_what_was_not_looked_for(folder: Path) -> None:
    path = folder / "crowded-only.pdf"
    path.write_bytes(crowded_words(40_000))
    result, elapsed = timed({"path": str(path)})
    assert elapsed < PAGE_SECONDS and result.details["count"] == 0
    assert "only ruled tables were looked for" in result.text


def test_a_cell_of_100000_characters_is_kept_whole_in_the_details_and_cut_in_the_text(folder: Path) -> None:
    long_text = " ".join(f"w{i:05d}" for i in range(100_000 // 7))
    doc = pymupdf.open()
    page = doc.new_page()
    shape = page.new_shape()
    for x in (40, 110, 555):
        shape.draw_line((x, 60), (x, 820))
    for y in (60, 80, 820):
        shape.draw_line((40, y), (555, y))
    shape.finish(color=(0, 0, 0), width=0.5)
    shape.commit()
    page.insert_text((43, 74), "Key", fontsize=9)
    page.insert_text((113, 74), "Value", fontsize=9)
    page.insert_text((43, 94), "Notes", fontsize=9)
    assert page.insert_textbox(pymupdf.Rect(112, 82, 553, 818), long_text, fontsize=1.9) > 0
    path = save(doc, folder / "long-cell.pdf")
    for style in ("markdown", "json"):
        result, elapsed = timed({"path": str(path), "format": style})
        assert elapsed < PAGE_SECONDS and not result.is_error, result.text[:300]
        assert len(result.text.encode("utf-8")) <= 64_000
        (table,) = result.details["tables"]
        assert grid_of(table) == [["Key", "Value"], ["Notes", long_text]]
        assert "its text was cut" in result.text
    text, elapsed = timed({"path": str(path), "tables": True}, "pdf_extract_text")
    assert elapsed < PAGE_SECONDS and text.details["tables_given"] == 1 and text.details["truncated"] is True
    assert "| Notes | w00000 w00001 " in text.text


# -- boxes in and over tables --------------------------------------------------------------------
def tables_on(path: Path) -> list[Table]:
    with pymupdf.open(path) as doc:
        return finder.page_tables(doc[0], 1)


def test_a_table_nested_in_a_cell_of_another(folder: Path) -> None:
    outer = Grid([["Part", "Detail"], ["Frame", ""], ["Wheel", "Spoked"]], [80, 260])
    inner = Grid([["Size", "Weight"], ["M", "9.1"], ["L", "9.6"]], [80, 80], right=frozenset({1}))
    doc = pymupdf.open()
    page = doc.new_page()
    heights = row_heights(outer)
    draw(page, outer, 60, 100, heights=[heights[0], 75, heights[2]])
    draw(page, inner, 160, 100 + heights[0] + 10)
    found = tables_on(save(doc, folder / "nested.pdf"))
    assert found[0].grid() == [["Part", "Detail"], ["Frame", "Size Weight M 9.1 L 9.6"], ["Wheel", "Spoked"]]
    assert [t.grid() for t in found[1:]] in ([], [inner.expected()])


def test_frames_and_nested_squares_around_a_table_leave_it_as_it_is(folder: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    box = draw(page, STATEMENT, 60, 100)
    page.draw_rect(pymupdf.Rect(box.x0 - 10, box.y0 - 10, box.x1 + 10, box.y1 + 10), width=1)  # a frame around
    page.draw_rect(pymupdf.Rect(box.x0 - 1.5, box.y0 - 1.5, box.x1 + 1.5, box.y1 + 1.5), width=0.5)  # a double rule
    for i in range(40):  # squares inside squares, a drawing beside the table
        page.draw_rect(pymupdf.Rect(300 + i * 3, 400 + i * 3, 550 - i * 3, 700 - i * 3), width=0.5)
    (table,) = tables_on(save(doc, folder / "framed.pdf"))
    assert table.grid() == STATEMENT.expected()


def test_overlapping_boxes_lose_and_repeat_no_word(folder: Path) -> None:
    fruit = Grid([["Fruit", "Price"], ["Apple", "1.20"], ["Pear", "0.90"], ["Plum", "2.10"]], [100, 60],
                 right=frozenset({1}))
    cities = Grid([["City", "Country", "People"], ["Lyon", "France", "522"], ["Graz", "Austria", "291"],
                   ["Turin", "Italy", "848"]], [90, 90, 70], right=frozenset({2}))
    doc = pymupdf.open()
    page = doc.new_page()
    draw(page, fruit, 60, 100)
    draw(page, cities, 130, 140)  # laid over the first table's lower right
    page.draw_rect(pymupdf.Rect(65, 300, 500, 330), width=0.5)  # a box across a table below
    box = draw(page, STATEMENT, 60, 320)
    started = time.monotonic()
    found = tables_on(save(doc, folder / "overlapping.pdf"))
    assert time.monotonic() - started < PAGE_SECONDS
    words = Counter(w for t in found for c in t.cells for w in c.text.split())
    drawn = Counter(w for g in (fruit, cities, STATEMENT) for row in g.expected() for t in row for w in t.split())
    assert words == drawn
    below = [t for t in found if t.bbox[1] >= box.y0 - 20]
    assert [[cell for cell in row if cell] for t in below for row in t.grid()] == STATEMENT.expected()


# -- odd pages -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("width", "height"), [(1, 100_000), (100_000, 1)], ids=["tall", "wide"])
def test_a_page_one_point_thin_answers_quickly(folder: Path, width: float, height: float) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    long_side = max(width, height)
    for at in range(0, int(long_side), 500):
        start, end = ((0, at), (width, at)) if height > width else ((at, 0), (at, height))
        page.draw_line(start, end, width=0.1)
    page.insert_text((0, 0.9), "a b c", fontsize=0.5)
    path = save(doc, folder / f"thin-{width}x{height}.pdf")
    result, elapsed = timed({"path": str(path)})
    assert elapsed < PAGE_SECONDS and not result.is_error and result.details["count"] == 0
    area, elapsed = timed({"path": str(path), "pages": "1", "area": [0, 0, width, height]})
    assert elapsed < PAGE_SECONDS and not area.is_error and area.details["count"] == 0
    assert "Nothing in that area reads as a table" in area.text
