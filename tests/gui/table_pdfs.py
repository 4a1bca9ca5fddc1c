"""PDFs with tables drawn from known cells, for the viewer's table tests.

Each table is drawn from its grid of texts, so what the page shows and what a test expects cannot
drift apart. The cells hold what a clipboard must carry intact: a comma, a double quote, a word
outside ASCII, and a cell of two lines.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

FONT = 9.0
PAD = 3.0
LINE = FONT * 1.5

RULED_CELLS = [
    ["Name", "City", "Remark", "Amount"],
    ["Smith, John", "Zürich", 'He said "yes"', "1,250.00"],
    ["Brown, Anne", "Größe", "First line\nSecond line", "-12.50"],
    ["Müller", "Köln", "plain", "300.00"],
    ["Total", "Paris", "none", "1,537.50"],
]

BORDERLESS_CELLS = [
    ["Item", "Code", "Price", "Stock"],
    ["Widget, small", "A-100", "4.50", "120"],
    ["Gadget", "B-220", "12.00", "35"],
    ["Crème brûlée", "C-310", "7.25", "8"],
    ["Doohickey", "D-405", "19.99", "61"],
    ["Sprocket", "E-512", "2.10", "940"],
]


def cell_height(text: str) -> float:
    return (text.count("\n") + 1) * LINE + 2 * PAD + 2


def draw_grid(page: pymupdf.Page, grid: list[list[str]], x: float, y: float, widths: list[float],
              ruled: bool) -> tuple[float, float, float, float]:
    """Draw `grid` with its top-left at (x, y); returns the table's box (page points as drawn)."""
    top = y
    for row in grid:
        height = max(cell_height(text) for text in row) if ruled else LINE + 2 * PAD
        left = x
        for text, width in zip(row, widths, strict=True):
            box = pymupdf.Rect(left, top, left + width, top + height)
            inner = pymupdf.Rect(box.x0 + PAD, box.y0 + PAD, box.x1 - PAD, box.y1 - PAD + 2)
            if page.insert_textbox(inner, text, fontsize=FONT, fontname="helv") < 0:
                raise ValueError(f"cell text does not fit: {text!r}")
            if ruled:
                page.draw_rect(box, color=(0, 0, 0), width=0.6)
            left += width
        top += height
    return x, y, x + sum(widths), top


def ruled_pdf(path: Path, rotate: int = 0) -> Path:
    """One page: a heading, the ruled table, a paragraph below; turned by /Rotate `rotate`."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Quarterly statement", fontsize=14, fontname="helv")
    draw_grid(page, RULED_CELLS, 72, 110, [110, 90, 130, 80], ruled=True)
    page.insert_text((72, 400), "The figures above are provisional.", fontsize=10, fontname="helv")
    if rotate:
        page.set_rotation(rotate)
    doc.save(path)
    doc.close()
    return path


def borderless_pdf(path: Path) -> Path:
    """One page: a table whose columns are aligned by white space alone."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Price list", fontsize=14, fontname="helv")
    draw_grid(page, BORDERLESS_CELLS, 72, 110, [150, 90, 90, 80], ruled=False)
    doc.save(path)
    doc.close()
    return path


MISSED_CELLS = [["Alpha", "10", "Widgets"], ["Beta", "20", "Gizmos"]]


def missed_pdf(path: Path) -> tuple[Path, tuple[float, float, float, float]]:
    """Two rows of words in three columns between paragraphs: too few rows for detection to take
    them for a table. Returns the path and a box drawn around them (page points)."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 80), "Notes on the delivery of last week.", fontsize=11, fontname="helv")
    box = draw_grid(page, MISSED_CELLS, 72, 120, [120, 80, 120], ruled=False)
    page.insert_text((72, 220), "Everything else arrived on time and in good order.", fontsize=11, fontname="helv")
    doc.save(path)
    doc.close()
    return path, box


def continued_pdf(path: Path) -> Path:
    """A ruled table whose rows go on from the foot of page 1 to the top of page 2 (the header
    row repeated there, as report generators do)."""
    header = ["Service", "Code", "Fee"]
    rows = [[f"Service {n}", f"{100 + n}", f"{n * 7}.00"] for n in range(1, 41)]
    doc = pymupdf.open()
    first = doc.new_page(width=595, height=842)
    first.insert_text((72, 60), "Fee schedule", fontsize=14, fontname="helv")
    per_page = 34
    draw_grid(first, [header, *rows[:per_page]], 72, 80, [200, 100, 100], ruled=True)
    second = doc.new_page(width=595, height=842)
    draw_grid(second, [header, *rows[per_page:]], 72, 60, [200, 100, 100], ruled=True)
    doc.save(path)
    doc.close()
    return path


CONTINUED_CELLS = [["Service", "Code", "Fee"], *[[f"Service {n}", f"{100 + n}", f"{n * 7}.00"] for n in range(1, 41)]]


def scan_of(source: Path, path: Path, dpi: int = 200) -> Path:
    """`source` as a scanner would give it: each page an image, no text layer."""
    with pymupdf.open(source) as pages:
        scan = pymupdf.open()
        for page in pages:
            png = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY).tobytes("png")
            scan.new_page(width=page.rect.width, height=page.rect.height).insert_image(page.rect, stream=png)
        scan.save(path)
        scan.close()
    return path
