"""Tables with known cells, in the styles reviewers meet: the ground truth of bench/table_bench.py.

Each table is drawn from its cells, so what the page shows and what the bench expects cannot
drift apart. Styles: ruled (every cell boxed), borderless (columns aligned by space alone),
zebra-striped (alternate rows shaded, no lines), merged cells (a heading over two columns, a
group label over several rows), several-line cells, numbers aligned on the decimal point, a table
continued over two pages, a page turned by /Rotate, a scan of a ruled table (an image, no text),
and two producers: tables drawn line by line here (as report generators do) and HTML tables laid
out by MuPDF's Story (as HTML-to-PDF converters do). Texts are fee schedules, price lists,
invoices and test results in English, German, French and Russian.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
FONT_SIZE = 9.0
PADDING = 3.0
LINE = 1.5  # line height in font sizes: what insert_textbox needs to set a line


@dataclass(frozen=True)
class Cell:
    """One cell of the truth: where its top-left slot is, its text, and how far it spans."""

    row: int
    col: int
    text: str
    rowspan: int = 1
    colspan: int = 1


@dataclass
class TableTruth:
    """A table as it should come out: its page (1-based), style, cells and the header rows."""

    page: int
    style: str
    rows: int
    cols: int
    cells: list[Cell]
    header_rows: int = 1
    bbox: tuple[float, float, float, float] = (0, 0, 0, 0)
    continues: bool = False  # the rest of this table is on the next page
    document: str = "isolated"  # what page it stands on: "isolated" (a heading and the table) or a kind of document
    producer: str = "drawn"     # what set it: "drawn" (PyMuPDF), "html" (MuPDF's Story), "groff"

    def grid(self) -> list[list[str]]:
        """Rows of cell texts; a merged cell's text in its top-left slot, "" in the slots it covers."""
        grid = [["" for _ in range(self.cols)] for _ in range(self.rows)]
        for cell in self.cells:
            grid[cell.row][cell.col] = cell.text
        return grid


Box = tuple[float, float, float, float]


@dataclass
class TableDoc:
    """A PDF of the corpus with its truth. Every page is scored: a found table that is no true one is
    a false table, unless it lies in an `ignore` region (a key-value block: page, box)."""

    path: Path
    tables: list[TableTruth] = field(default_factory=list)
    half: str = ""
    ignore: list[tuple[int, Box]] = field(default_factory=list)
    empty_pages: dict[int, tuple[str, str]] = field(default_factory=dict)  # page -> (kind, producer) of pages with no table
    note: str = ""  # what the producer could not do here (a missing font, a missing program)


# -- contents ---------------------------------------------------------------------------------
LANGUAGE_ROWS = {
    "en": (["Service", "Code", "Status 1", "Status 4", "Total"],
           ["Consultation", "Xray {n}", "Blood test", "Ultrasound", "Physiotherapy", "Dressing change"]),
    "de": (["Leistung", "Ziffer", "Satz 1", "Satz 4", "Summe"],
           ["Beratung", "Röntgen {n}", "Blutbild", "Ultraschall", "Krankengymnastik", "Verbandwechsel"]),
    "fr": (["Prestation", "Code", "Tarif 1", "Tarif 4", "Total"],
           ["Consultation", "Radiographie {n}", "Analyse sanguine", "Échographie", "Kinésithérapie", "Pansement"]),
    "ru": (["Услуга", "Код", "Тариф 1", "Тариф 4", "Итого"],
           ["Консультация", "Рентген {n}", "Анализ крови", "УЗИ", "Физиотерапия", "Перевязка"]),
}


def _amount(rng: random.Random) -> str:
    value = rng.choice([rng.uniform(1, 99), rng.uniform(100, 9999)])
    return f"{value:,.2f}"


def fee_table(rng: random.Random, language: str, rows: int) -> list[list[str]]:
    header, services = LANGUAGE_ROWS[language]
    body = []
    for index in range(rows):
        name = services[index % len(services)].format(n=index + 1)
        code = f"{rng.randint(100, 9999)}"
        first, fourth = _amount(rng), _amount(rng)
        total = f"{float(first.replace(',', '')) + float(fourth.replace(',', '')):,.2f}"
        body.append([name, code, first, fourth, total])
    return [header, *body]


# -- drawing a grid of cells -------------------------------------------------------------------
@dataclass
class Layout:
    x: float
    y: float
    widths: list[float]
    ruled: bool = True
    zebra: bool = False
    decimal: bool = False     # numbers right-aligned (their decimal points line up)


def _font(text: str) -> dict[str, str]:
    if text.isascii() or not Path(DEJAVU).exists():
        return {"fontname": "helv"}
    return {"fontname": "dejavu", "fontfile": DEJAVU}


def _lines_needed(text: str, width: float) -> int:
    font = pymupdf.Font(fontfile=DEJAVU) if not text.isascii() and Path(DEJAVU).exists() else pymupdf.Font("helv")
    words, lines, current = text.split(), 1, 0.0
    for word in words:
        length = font.text_length(word + " ", fontsize=FONT_SIZE)
        if current + length > width - 2 * PADDING and current > 0:
            lines, current = lines + 1, 0.0
        current += length
    return lines


def draw_table(page: pymupdf.Page, cells: list[Cell], rows: int, cols: int, layout: Layout) -> tuple[float, ...]:
    """Draw the cells at `layout`; returns the table's box. A cell's height is its row's tallest."""
    heights = [LINE * FONT_SIZE + 2 * PADDING + 2] * rows
    for cell in cells:
        if cell.rowspan == 1:
            width = sum(layout.widths[cell.col:cell.col + cell.colspan])
            need = _lines_needed(cell.text, width) * LINE * FONT_SIZE + 2 * PADDING + 2
            heights[cell.row] = max(heights[cell.row], need)
    tops = [layout.y]
    for height in heights:
        tops.append(tops[-1] + height)
    lefts = [layout.x]
    for width in layout.widths:
        lefts.append(lefts[-1] + width)
    if layout.zebra:
        for row in range(1, rows, 2):
            page.draw_rect(pymupdf.Rect(lefts[0], tops[row], lefts[-1], tops[row + 1]), color=None,
                           fill=(0.9, 0.92, 0.95), width=0)
    for cell in cells:
        box = pymupdf.Rect(lefts[cell.col], tops[cell.row], lefts[cell.col + cell.colspan], tops[cell.row + cell.rowspan])
        numeric = layout.decimal and cell.row > 0 and cell.text.replace(",", "").replace(".", "").isdigit()
        inner = pymupdf.Rect(box.x0 + PADDING, box.y0 + PADDING, box.x1 - PADDING, box.y1 - PADDING)
        left = page.insert_textbox(inner, cell.text, fontsize=FONT_SIZE, align=2 if numeric else 0, **_font(cell.text))
        if left < 0:
            raise ValueError(f"cell text does not fit its box: {cell.text!r}")
        if layout.ruled:
            page.draw_rect(box, color=(0, 0, 0), width=0.6)
    return (lefts[0], tops[0], lefts[-1], tops[-1])


def cells_of(grid: list[list[str]]) -> list[Cell]:
    return [Cell(r, c, text) for r, row in enumerate(grid) for c, text in enumerate(row)]


# -- the documents ----------------------------------------------------------------------------
def _simple(doc: pymupdf.Document, rng: random.Random, style: str, language: str, **layout: bool) -> TableTruth:
    grid = fee_table(rng, language, rng.randint(4, 9))
    page = doc.new_page()
    page.insert_text((60, 60), f"Schedule {len(doc)}: {style}", fontsize=12)
    cells = cells_of(grid)
    box = draw_table(page, cells, len(grid), 5, Layout(60, 80, [150, 60, 80, 80, 90], **layout))
    return TableTruth(len(doc), style, len(grid), 5, cells, bbox=box)


def _merged(doc: pymupdf.Document, rng: random.Random, language: str) -> TableTruth:
    header, services = LANGUAGE_ROWS[language]
    groups = ["Outpatient", "Inpatient"]
    cells = [Cell(0, 0, "Group"), Cell(0, 1, header[0]), Cell(0, 2, "Rates", colspan=2), Cell(0, 4, header[4]),
             Cell(1, 2, header[2]), Cell(1, 3, header[3])]
    rows = 2
    for group in groups:
        count = rng.randint(2, 3)
        cells.append(Cell(rows, 0, group, rowspan=count))
        for offset in range(count):
            first, fourth = _amount(rng), _amount(rng)
            cells += [Cell(rows + offset, 1, services[(rows + offset) % len(services)].format(n=offset + 1)),
                      Cell(rows + offset, 2, first), Cell(rows + offset, 3, fourth), Cell(rows + offset, 4, _amount(rng))]
        rows += count
    # the slots under the two header cells that span rows are empty in row 1
    cells += [Cell(1, 0, ""), Cell(1, 1, ""), Cell(1, 4, "")]
    page = doc.new_page()
    page.insert_text((60, 60), "Merged cells", fontsize=12)
    box = draw_table(page, cells, rows, 5, Layout(60, 80, [90, 150, 70, 70, 80]))
    return TableTruth(len(doc), "merged", rows, 5, cells, header_rows=2, bbox=box)


def _multiline(doc: pymupdf.Document, rng: random.Random) -> TableTruth:
    grid = [["Test", "Method", "Result", "Remarks"]]
    remarks = ["Within the limits of the standard; repeat after twelve months.",
               "Sample taken at the inlet and the outlet of the heat exchanger.",
               "Deviation of the second reading explained by the ambient temperature.",
               "No anomaly found."]
    grid += [[f"T-{index + 1:02d}", rng.choice(["ISO 8573", "EN 1822", "ASTM D97"]), f"{rng.uniform(0, 50):.1f}",
              remarks[index % len(remarks)]] for index in range(5)]
    page = doc.new_page()
    page.insert_text((60, 60), "Test results", fontsize=12)
    cells = cells_of(grid)
    box = draw_table(page, cells, len(grid), 4, Layout(60, 80, [60, 80, 60, 260]))
    return TableTruth(len(doc), "multiline", len(grid), 4, cells, bbox=box)


def _continued(doc: pymupdf.Document, rng: random.Random) -> list[TableTruth]:
    grid = fee_table(rng, "en", 66)
    header, body = grid[0], grid[1:]
    truths = []
    for part, chunk in enumerate((body[:33], body[33:])):  # 34 rows of 21.5 pt fill a page
        page = doc.new_page()
        rows = [header, *chunk]
        cells = cells_of(rows)
        box = draw_table(page, cells, len(rows), 5, Layout(60, 50, [150, 60, 80, 80, 90]))
        if box[3] > page.rect.height - 20:
            raise ValueError("the continued table runs off its page")
        truths.append(TableTruth(len(doc), "continued", len(rows), 5, cells, bbox=box, continues=part == 0))
    return truths


def _rotated(doc: pymupdf.Document, rng: random.Random) -> TableTruth:
    truth = _simple(doc, rng, "rotated", "en")
    doc[-1].set_rotation(90)
    return truth


def _html(doc: pymupdf.Document, rng: random.Random, language: str) -> TableTruth:
    grid = fee_table(rng, language, rng.randint(4, 8))
    rows = "".join("<tr>" + "".join(f"<{'th' if r == 0 else 'td'}>{text}</{'th' if r == 0 else 'td'}>" for text in row)
                   + "</tr>" for r, row in enumerate(grid))
    css = "table {border-collapse: collapse;} td, th {border: 0.6px solid black; padding: 3px; font-size: 9px;}"
    page = doc.new_page()
    page.insert_htmlbox(pymupdf.Rect(60, 80, 540, 780), f"<table>{rows}</table>", css=css)
    words = [pymupdf.Rect(w[:4]) for w in page.get_text("words")]  # the page holds only the table
    box = words[0]
    for word in words[1:]:
        box |= word
    return TableTruth(len(doc), "html", len(grid), 5, cells_of(grid), bbox=tuple(box), producer="html")


def _scanned(doc: pymupdf.Document, rng: random.Random) -> TableTruth:
    source = pymupdf.open()
    truth = _simple(source, rng, "scanned", "en")
    pixmap = source[0].get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    page = doc.new_page()
    page.insert_image(page.rect, stream=pixmap.tobytes("jpeg", jpg_quality=70))
    truth.page = len(doc)
    return truth


def build_corpus(folder: Path, seed: int = 7) -> list[TableDoc]:
    """Write the corpus's PDFs into `folder` (again each run: it is cheap) with their truth."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    made = []
    for half, languages in (("tune", ("en", "de")), ("report", ("fr", "ru"))):
        doc = pymupdf.open()
        truths: list[TableTruth] = []
        for language in languages:
            truths.append(_simple(doc, rng, "ruled", language, ruled=True))
            truths.append(_simple(doc, rng, "borderless", language, ruled=False))
            truths.append(_simple(doc, rng, "zebra", language, ruled=False, zebra=True))
            truths.append(_simple(doc, rng, "decimal", language, ruled=True, decimal=True))
            truths.append(_merged(doc, rng, language))
            truths.append(_html(doc, rng, language))
        truths.append(_multiline(doc, rng))
        truths.extend(_continued(doc, rng))
        truths.append(_rotated(doc, rng))
        truths.append(_scanned(doc, rng))
        path = folder / f"tables-{half}.pdf"
        doc.save(path)
        made.append(TableDoc(path, truths, half))
    return made
