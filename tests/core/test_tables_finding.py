"""Finding a page's tables: ruled and borderless, shaded rows, merged cells, cells of several lines,
amounts set flush right, tables among prose (and no table where there is only prose), several tables
on a page, turned pages and turned content, and tables continued over pages. Every table is drawn
from the cells a test expects back, and each test checks the cells, not just how many there are."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.tables.finder import area_table, join_continued, page_tables
from pdfdesk.core.tables.model import ALIGNED, AREA, RULED, Table
from tests.core.table_pdfs import LOREM, Grid, draw, one_table_pdf, prose, save, turned_pdf, words_in

STATEMENT = Grid([["Name", "City", "Amount"],
                  ["Smith, John", "Zurich", "1,250.00"],
                  ["Brown", "Paris", "-12.50"],
                  ["Total", "", "1,237.50"]], [120, 90, 80], right=frozenset({2}))
MERGED = Grid([["Code", "Service", "Rates", None],
               [None, None, "Status 1", "Status 4"],
               ["3010", "Xray 15", "11.10", "44.40"],
               ["3011", "Xray 5", "12.10", "48.30"],
               ["3012", "CT 5", "80.00", "310.00"]],
              [50, 120, 80, 80], spans={(0, 0): (2, 1), (0, 1): (2, 1), (0, 2): (1, 2)}, right=frozenset({2, 3}))
GROUPS = Grid([["Region", "Office", "Staff"],
               ["North", "Leeds", "12"], [None, "York", "7"], [None, "Hull", "5"],
               ["South", "Bath", "9"], [None, "Exeter", "4"]],
              [90, 90, 60], spans={(1, 0): (3, 1), (4, 0): (2, 1)}, right=frozenset({2}))
PARTS = Grid([["Item", "Description", "Price"],
              ["A-1", "Steel bolt\nzinc plated", "0.40"],
              ["B-2", "Copper washer\nten per bag\nmetric thread", "1.20"],
              ["C-3", "Nut", "0.10"]], [60, 150, 60], right=frozenset({2}))


def tables_on(path: Path, number: int = 1) -> list[Table]:
    with pymupdf.open(path) as doc:
        return page_tables(doc[number - 1], number)


def only_table(path: Path) -> Table:
    tables = tables_on(path)
    assert len(tables) == 1, [t.grid() for t in tables]
    return tables[0]


def assert_cells_on_their_words(path: Path, table: Table, number: int = 1) -> None:
    """Each cell's box, in unrotated page points, holds exactly the words of that cell."""
    with pymupdf.open(path) as doc:
        page = doc[number - 1]
        for cell in table.cells:
            assert cell.bbox is not None
            assert words_in(page, cell.bbox) == " ".join(sorted(cell.text.split())), cell


def spans_of(table: Table) -> dict[tuple[int, int], tuple[int, int]]:
    return {(c.row, c.col): (c.rowspan, c.colspan) for c in table.cells if c.rowspan > 1 or c.colspan > 1}


# -- one table, drawn in different ways ----------------------------------------------------------
def test_a_ruled_table_gives_its_cells_header_and_boxes(tmp_path: Path) -> None:
    path = one_table_pdf(tmp_path / "ruled.pdf", STATEMENT)
    table = only_table(path)
    assert table.grid() == STATEMENT.expected()
    assert (table.kind, table.source, table.header_rows, table.page, table.pages) == (RULED, "text", 1, 1, [1])
    assert table.bbox == pytest.approx((60, 100, 350, 100 + 4 * 17.7), abs=1)
    assert not table.continued and spans_of(table) == {}
    assert_cells_on_their_words(path, table)


def test_a_borderless_table_is_found_from_how_its_columns_line_up(tmp_path: Path) -> None:
    path = one_table_pdf(tmp_path / "borderless.pdf", STATEMENT, ruled=False)
    table = only_table(path)
    assert table.grid() == STATEMENT.expected()
    assert table.kind == ALIGNED and table.header_rows == 1
    assert_cells_on_their_words(path, table)


@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "borderless"])
def test_shaded_zebra_rows_are_not_lines(tmp_path: Path, ruled: bool) -> None:
    grid = Grid([["Day", "Visitors", "Revenue"], ["Monday", "120", "1,480.00"], ["Tuesday", "95", "1,130.50"],
                 ["Wednesday", "143", "1,902.25"], ["Thursday", "88", "990.00"], ["Friday", "210", "2,615.75"]],
                [110, 70, 90], right=frozenset({1, 2}))
    table = only_table(one_table_pdf(tmp_path / "zebra.pdf", grid, ruled=ruled, zebra=True))
    assert table.grid() == grid.expected()
    assert table.kind == (RULED if ruled else ALIGNED) and table.header_rows == 1


def test_a_heading_merged_over_two_columns_heads_both(tmp_path: Path) -> None:
    table = only_table(one_table_pdf(tmp_path / "merged.pdf", MERGED))
    assert table.grid() == MERGED.expected()
    assert spans_of(table) == {(0, 0): (2, 1), (0, 1): (2, 1), (0, 2): (1, 2)}
    assert table.header_rows == 2
    assert table.column_headings() == ["Code", "Service", "Rates Status 1", "Rates Status 4"]
    covering = table.covering()
    assert covering[0][3] is covering[0][2] and covering[0][2] is not None and covering[0][2].text == "Rates"
    assert covering[1][0] is covering[0][0] and covering[1][0] is not None and covering[1][0].text == "Code"


def test_a_group_label_over_several_rows_spans_them(tmp_path: Path) -> None:
    table = only_table(one_table_pdf(tmp_path / "groups.pdf", GROUPS))
    assert table.grid() == GROUPS.expected()
    assert spans_of(table) == {(1, 0): (3, 1), (4, 0): (2, 1)}
    assert table.header_rows == 1
    north = next(c for c in table.cells if c.text == "North")
    assert north.bbox is not None and north.bbox[3] - north.bbox[1] == pytest.approx(3 * 17.7, abs=0.5)
    assert [row[0].text if row[0] else None for row in table.covering()[1:]] == ["North"] * 3 + ["South"] * 2


@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "borderless"])
def test_a_cell_of_several_lines_is_one_cell(tmp_path: Path, ruled: bool) -> None:
    path = one_table_pdf(tmp_path / "lines.pdf", PARTS, ruled=ruled)
    table = only_table(path)
    assert table.grid() == [["Item", "Description", "Price"], ["A-1", "Steel bolt zinc plated", "0.40"],
                            ["B-2", "Copper washer ten per bag metric thread", "1.20"], ["C-3", "Nut", "0.10"]]
    assert table.header_rows == 1
    assert_cells_on_their_words(path, table)


def test_amounts_set_flush_right_stay_in_their_column(tmp_path: Path) -> None:
    grid = Grid([["Account", "Debit", "Credit"], ["Cash", "3.50", "12,345,678.90"], ["Bank", "1,000,000.00", "7.00"],
                 ["Loans", "-250.75", "0.05"], ["Interest", "(42.00)", "19,999.99"]], [100, 90, 90],
                right=frozenset({1, 2}))
    table = only_table(one_table_pdf(tmp_path / "amounts.pdf", grid, ruled=False))
    assert table.grid() == grid.expected()
    assert table.header_rows == 1


# -- tables among other things -------------------------------------------------------------------
def test_a_table_among_paragraphs_leaves_the_prose_out(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((60, 60), "Statement of accounts", fontsize=14)
    prose(page, pymupdf.Rect(60, 80, 535, 180))
    box = draw(page, STATEMENT, 60, 200, ruled=False)
    prose(page, pymupdf.Rect(60, box.y1 + 20, 535, box.y1 + 140), LOREM.replace("committee", "auditor"))
    path = save(doc, tmp_path / "among.pdf")
    table = only_table(path)
    assert table.grid() == STATEMENT.expected()
    assert box.y0 - 2 <= table.bbox[1] and table.bbox[3] <= box.y1 + 2  # no paragraph line inside


def test_prose_alone_makes_no_table(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()  # 1: heading and paragraphs
    page.insert_text((60, 60), "Annual report", fontsize=16)
    prose(page, pymupdf.Rect(60, 80, 535, 200))
    prose(page, pymupdf.Rect(60, 210, 535, 330), LOREM.replace("committee", "board"))
    page = doc.new_page()  # 2: two columns of justified text
    for x in (50, 305):
        page.insert_textbox(pymupdf.Rect(x, 60, x + 240, 800), LOREM * 5, fontsize=9, align=pymupdf.TEXT_ALIGN_JUSTIFY)
    page = doc.new_page()  # 3: a bulleted list of items that wrap
    items = ["Bring the signed contract and a copy of your passport to the office before the first day.",
             "Pay the deposit of five hundred euros by bank transfer; the receipt is sent by email.",
             "Collect the keys at the office during opening hours, Monday to Friday, nine to five.",
             "Read the house rules, which are posted at the entrance, and keep the common areas clean."]
    top = 80.0
    for item in items:
        page.insert_text((72, top + 10), "\u2022", fontsize=10)
        top += 40 - page.insert_textbox(pymupdf.Rect(90, top, 500, top + 40), item, fontsize=10) + 6
    path = save(doc, tmp_path / "prose.pdf")
    assert [tables_on(path, n) for n in (1, 2, 3)] == [[], [], []]


@pytest.mark.parametrize(("marker", "indent"), [("\u2022", 24), ("{n}.", 36)], ids=["bullets", "numbers"])
def test_a_list_of_short_items_is_no_table(tmp_path: Path, marker: str, indent: float) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    items = ["Bring the signed contract", "Pay the deposit of 500 euros", "Collect the keys at the office",
             "Read the house rules"]
    for n, item in enumerate(items, 1):
        page.insert_text((72, 80 + 16 * n), marker.format(n=n), fontsize=11)
        page.insert_text((72 + indent, 80 + 16 * n), item, fontsize=11)
    assert tables_on(save(doc, tmp_path / "list.pdf")) == []


def test_two_tables_on_a_page_come_top_to_bottom(tmp_path: Path) -> None:
    fruit = Grid([["Fruit", "Price"], ["Apple", "1.20"], ["Pear", "0.90"], ["Plum", "2.10"]], [100, 60],
                 right=frozenset({1}))
    cities = Grid([["City", "Country", "People"], ["Lyon", "France", "522,000"], ["Graz", "Austria", "291,000"],
                   ["Turin", "Italy", "848,000"]], [90, 90, 70], right=frozenset({2}))
    doc = pymupdf.open()
    page = doc.new_page()
    draw(page, cities, 60, 300, ruled=False)  # drawn first, stands lower
    draw(page, fruit, 60, 100)
    page.insert_text((60, 250), "Between the tables a sentence is written in plain words.", fontsize=10)
    tables = tables_on(save(doc, tmp_path / "two.pdf"))
    assert [t.grid() for t in tables] == [fruit.expected(), cities.expected()]
    assert [t.kind for t in tables] == [RULED, ALIGNED]


# -- turned pages and turned content -------------------------------------------------------------
def test_a_page_turned_by_rotate_keeps_its_table_and_unrotated_boxes(tmp_path: Path) -> None:
    path = one_table_pdf(tmp_path / "rotate90.pdf", STATEMENT, rotate=90)
    table = only_table(path)
    assert table.grid() == STATEMENT.expected() and table.header_rows == 1
    # the boxes are where the table was drawn before the page was turned: unrotated page points
    assert table.bbox == pytest.approx((60, 100, 350, 100 + 4 * 17.7), abs=1)
    assert_cells_on_their_words(path, table)


@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "borderless"])
@pytest.mark.parametrize("turn", [90, -90], ids=["text-up", "text-down"])
def test_a_table_drawn_turned_on_the_page_is_read_upright(tmp_path: Path, turn: int, ruled: bool) -> None:
    path = turned_pdf(tmp_path / "turned.pdf", STATEMENT, turn, ruled=ruled)
    table = only_table(path)
    assert table.grid() == STATEMENT.expected() and table.header_rows == 1
    assert table.kind == (RULED if ruled else ALIGNED)
    assert_cells_on_their_words(path, table)
    with pymupdf.open(path) as doc:  # the table's box holds all of its words and not the heading beside it
        inside = words_in(doc[0], table.bbox).split()
    assert sorted(inside) == sorted(" ".join(t for row in STATEMENT.expected() for t in row).split())
    bbox = table.bbox
    assert bbox[3] - bbox[1] > bbox[2] - bbox[0]  # on the portrait page the table stands tall


# -- tables continued over pages -----------------------------------------------------------------
HEAD = ["Code", "Treatment", "Fee"]
FIRST = [[str(7000 + i), f"Exercise {i}", f"{20 + i}.50"] for i in range(30)]
SECOND = [[str(7100 + i), f"Massage {i}", f"{40 + i}.25"] for i in range(8)]


def continued_pdf(path: Path, repeat_heading: bool, second_widths: list[float] | None = None) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((60, 60), "Physiotherapy", fontsize=14)
    draw(page, Grid([HEAD, *FIRST], [60, 150, 70], right=frozenset({2})), 60, 90)
    page = doc.new_page()
    rows: list[list[str | None]] = [list(HEAD), *SECOND] if repeat_heading else [*SECOND]
    box = draw(page, Grid(rows, second_widths or [60, 150, 70], right=frozenset({2})), 60, 60)
    page.insert_text((60, box.y1 + 30), "End of the physiotherapy table.", fontsize=10)
    return save(doc, path)


def joined(path: Path) -> list[Table]:
    with pymupdf.open(path) as doc:
        found = [t for n, page in enumerate(doc, 1) for t in page_tables(page, n)]
        return join_continued(found, {n: page.rect.height for n, page in enumerate(doc, 1)})


@pytest.mark.parametrize("repeat_heading", [True, False], ids=["heading-repeated", "no-heading"])
def test_a_table_continued_on_the_next_page_is_joined(tmp_path: Path, repeat_heading: bool) -> None:
    (table,) = joined(continued_pdf(tmp_path / "continued.pdf", repeat_heading))
    assert table.grid() == [HEAD, *FIRST, *SECOND]  # the heading once, the rows of both pages in order
    assert table.pages == [1, 2] and table.continued and table.page == 1
    assert table.repeated_headers == (1 if repeat_heading else 0)
    assert table.header_rows == 1 and table.rows == 1 + 30 + 8
    assert [(p.page, p.first_row, p.rows) for p in table.parts] == [(1, 0, 31), (2, 31, 8)]
    assert table.notes == ["continued over pages 1–2"]
    second_part = table.parts[1].bbox
    assert second_part[1] == pytest.approx(60, abs=2)  # the second part's box is on its own page
    massage = next(c for c in table.cells if c.text == "Massage 0")
    assert massage.bbox is not None and massage.bbox[1] < 100  # a cell's box is on the page it stands on


def test_unrelated_tables_on_consecutive_pages_stay_apart(tmp_path: Path) -> None:
    path = continued_pdf(tmp_path / "unrelated.pdf", True, second_widths=[90, 60, 60])
    tables = joined(path)
    assert [t.pages for t in tables] == [[1], [2]] and not any(t.continued for t in tables)
    hours = Grid([["Day", "Opens", "Closes", "Note"], ["Monday", "08:00", "18:00", "late"],
                  ["Tuesday", "08:00", "18:00", "early"]], [90, 60, 60, 60])
    doc = pymupdf.open(path)
    doc.delete_page(1)
    draw(doc.new_page(), hours, 60, 60)  # four columns under a three-column table
    other = save(doc, tmp_path / "four-columns.pdf")
    tables = joined(other)
    assert [t.grid() for t in tables] == [[HEAD, *FIRST], hours.expected()]


@pytest.mark.parametrize("how", ["rotate", "turned"])
def test_a_landscape_table_continued_over_two_portrait_pages_is_joined(tmp_path: Path, how: str) -> None:
    doc = pymupdf.open()
    for rows, top in (([HEAD, *FIRST[:22]], 90.0), ([HEAD, *SECOND], 40.0)):
        grid = Grid(rows, [60, 150, 70], right=frozenset({2}))
        if how == "rotate":  # drawn upright on a landscape page that /Rotate shows as portrait
            page = doc.new_page(width=842, height=595)
            draw(page, grid, 60, top)
            page.set_rotation(90)
        else:  # drawn turned on a portrait page
            landscape = pymupdf.open()
            draw(landscape.new_page(width=842, height=595), grid, 60, top)
            doc.new_page(width=595, height=842).show_pdf_page(pymupdf.Rect(0, 0, 595, 842), landscape, 0, rotate=90)
    path = save(doc, tmp_path / f"{how}.pdf")
    with pymupdf.open(path) as opened:
        found = [t for n, page in enumerate(opened, 1) for t in page_tables(page, n)]
        heights = {n: page.mediabox.height for n, page in enumerate(opened, 1)}
    assert [t.grid() for t in found] == [[HEAD, *FIRST[:22]], [HEAD, *SECOND]]
    (table,) = join_continued(found, heights)
    assert table.pages == [1, 2] and table.grid() == [HEAD, *FIRST[:22], *SECOND] and table.repeated_headers == 1


# -- an area read as a table ---------------------------------------------------------------------
def test_an_area_reads_a_table_finding_passed_by(tmp_path: Path) -> None:
    small = Grid([["Name", "Region", "Total"], ["Ann Lee", "North", "12.00"]], [100, 80, 60], right=frozenset({2}))
    doc = pymupdf.open()
    page = doc.new_page()
    prose(page, pymupdf.Rect(60, 80, 535, 180))
    box = draw(page, small, 60, 200, ruled=False)
    prose(page, pymupdf.Rect(60, 260, 535, 380), LOREM.replace("committee", "auditor"))
    path = save(doc, tmp_path / "small.pdf")
    assert tables_on(path) == []  # two rows without lines: too little to take for a table unasked
    with pymupdf.open(path) as doc:
        table = area_table(doc[0], 1, (box.x0 - 5, box.y0 - 5, box.x1 + 10, box.y1 + 5))
        assert table is not None
        assert table.grid() == small.expected() and table.kind == AREA and table.header_rows == 1
        assert area_table(doc[0], 1, (400, 500, 500, 600)) is None  # nothing there


def test_a_continued_part_read_with_its_page_alone_gets_the_tables_headings(tmp_path: Path) -> None:
    """pdf_extract_text reads page by page: the second page's part, which does not repeat the
    heading, is given under the heading of the part before it, and says where the table began."""
    from pdfdesk.tools.registry import call_tool

    path = continued_pdf(tmp_path / "continued.pdf", repeat_heading=False)
    text = call_tool("pdf_extract_text", {"path": str(path), "tables": True}).text
    second = text[text.index("--- Page 2 ---"):]
    heading = text[text.index("--- Page 1 ---"):].split("\n| --- ")[0].splitlines()[-1]
    assert heading.startswith("| ") and heading.strip("| ")
    assert "(continued from page 1)\n" + heading + "\n| ---" in second
    alone = call_tool("pdf_extract_text", {"path": str(path), "pages": "2", "tables": True}).text
    assert "continued from" not in alone and heading not in alone  # page 1 not read: nothing to borrow
