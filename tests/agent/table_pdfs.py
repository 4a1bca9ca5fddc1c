"""Fee-schedule PDFs for the table lookups: ruled tables drawn with PyMuPDF, merged headings,
rows that differ by one digit ("Xray 5", "Xray 15"), a distractor table on another page, a table
continued over two pages, and schedules headed in German, French and Russian."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from tests.pdf_factory import DEJAVU

ROW_HEIGHT = 18.0


@dataclass
class Grid:
    """A table to draw: cell texts row by row (None where a merged cell covers the slot) and the
    merged cells' spans {(row, col): (rowspan, colspan)}."""

    widths: list[float]
    rows: list[list[str | None]]
    spans: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)


def font_for(texts: list[str]) -> dict[str, str]:
    if all(ord(ch) < 256 for text in texts for ch in text):
        return {}
    return {"fontname": "dejavu", "fontfile": DEJAVU}


def draw(page: pymupdf.Page, grid: Grid, x: float, y: float, fontsize: float = 9) -> float:
    """Draw `grid` ruled, top-left at (x, y); returns its bottom."""
    font = font_for([t for row in grid.rows for t in row if t])
    for r, row in enumerate(grid.rows):
        for c, text in enumerate(row):
            if text is None:
                continue
            rowspan, colspan = grid.spans.get((r, c), (1, 1))
            rect = pymupdf.Rect(x + sum(grid.widths[:c]), y + r * ROW_HEIGHT,
                                x + sum(grid.widths[:c + colspan]), y + (r + rowspan) * ROW_HEIGHT)
            page.draw_rect(rect, color=(0, 0, 0), width=0.6)
            if text:
                page.insert_text((rect.x0 + 4, rect.y0 + (rect.height + fontsize) / 2 - 1.5), text,
                                 fontsize=fontsize, **font)
    return y + len(grid.rows) * ROW_HEIGHT


def prose(page: pymupdf.Page, y: float, text: str, height: float = 60) -> None:
    page.insert_textbox(pymupdf.Rect(60, y, 535, y + height), text, fontsize=10, **font_for([text]))


# The fee schedule: radiology on page 1 (merged "Rates" over the status columns), a dental table
# with look-alike rows on page 2, physiotherapy continued from page 3 onto page 4, opening hours on
# page 5.
RADIOLOGY = Grid(
    [50, 150, 80, 80, 80],
    [["Code", "Service", "Rates", None, None],
     [None, None, "Status 1", "Status 4", "Status 9"],
     ["3010", "Xray 15", "11.10", "44.40", "99.90"],
     ["3011", "Xray 5", "12.10", "48.30", "101.70"],
     ["3012", "Xray 5 bilateral", "21.60", "77.20", "160.40"],
     ["3013", "Xray 50", "13.30", "51.90", "110.20"],
     ["3020", "CT 5", "80.00", "310.00", "640.00"]],
    {(0, 0): (2, 1), (0, 1): (2, 1), (0, 2): (1, 3)},
)
DENTAL = Grid(
    [50, 150, 80, 80, 80],
    [["Code", "Service", "Status 1", "Status 4", "Status 9"],
     ["5010", "Xray 15 dental", "9.10", "31.50", "70.00"],
     ["5011", "Xray 25 dental", "9.90", "33.00", "72.50"],
     ["5020", "Filling 5", "25.00", "60.00", "120.00"]],
)
PHYSIO_FIRST = [f"Exercise {n}" for n in range(1, 31)]
PHYSIO_SECOND = [f"Massage {n}" for n in range(1, 12)]


def physio_amounts(index: int) -> list[str]:
    """Status 1, 4 and 9 amounts of the index-th physiotherapy row: all different."""
    return [f"{20 + index}.{index % 10}5", f"{40 + 2 * index}.{index % 10}0", f"{90 + 3 * index}.{index % 10}5"]


def fee_schedule_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((60, 60), "Medical fee schedule 2024", fontsize=16)
    prose(page, 80, "This schedule lists the amounts per insurance status. Radiology: Xray 15 of the hand, "
                    "Xray 5 of the chest and Xray 50 of the spine are billed per image; the Status 4 amount "
                    "applies to Xray 15 and Xray 50 only when a referral is attached.")
    draw(page, RADIOLOGY, 60, 160)

    page = doc.new_page()
    page.insert_text((60, 60), "Dental services", fontsize=14)
    prose(page, 80, "Dental radiographs (Xray 15 dental, Xray 25 dental) are billed at the Status 4 amount "
                    "for every patient whose status is 4; the amount for Xray 5 of the jaw is in radiology.")
    draw(page, DENTAL, 60, 160)

    page = doc.new_page()
    page.insert_text((60, 60), "Physiotherapy", fontsize=14)
    header = ["Code", "Treatment", "Status 1", "Status 4", "Status 9"]
    rows = [[str(7000 + i), name, *physio_amounts(i)] for i, name in enumerate(PHYSIO_FIRST)]
    draw(page, Grid([50, 150, 80, 80, 80], [header, *rows]), 60, 90)
    page = doc.new_page()
    rows = [[str(7100 + i), name, *physio_amounts(100 + i)] for i, name in enumerate(PHYSIO_SECOND)]
    draw(page, Grid([50, 150, 80, 80, 80], rows), 60, 60)
    prose(page, 300, "End of the physiotherapy table. Massage sessions last thirty minutes.")

    page = doc.new_page()  # nothing a question about fees names: its table is never read for one
    page.insert_text((60, 60), "Opening hours", fontsize=14)
    draw(page, Grid([120, 80, 80], [["Day", "Opens", "Closes"], ["Monday", "08:00", "18:00"],
                                    ["Tuesday", "08:00", "18:00"], ["Saturday", "09:00", "12:00"]]), 60, 90)
    doc.save(path)
    doc.close()
    return path


def duplicate_rows_pdf(path: Path) -> Path:
    """One table with two "Xray 5" rows (adult and child): a question naming "Xray 5" is ambiguous."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((60, 60), "Radiology fees by age group", fontsize=14)
    draw(page, Grid([150, 70, 80, 80], [
        ["Service", "Group", "Status 1", "Status 4"],
        ["Xray 5", "adult", "12.10", "48.30"],
        ["Xray 5", "child", "8.20", "36.70"],
        ["Xray 15", "adult", "11.10", "44.40"]]), 60, 90)
    doc.save(path)
    doc.close()
    return path


SCHEDULES = {
    "de": ("Gebührenordnung", ["Nr.", "Leistung", "Satz 1", "Satz 4"],
           [["101", "Röntgen 15", "10,20", "40,80"], ["102", "Röntgen 5", "12,40", "49,60"],
            ["103", "Ultraschall 5", "30,00", "90,00"]]),
    "fr": ("Barème des honoraires", ["Code", "Acte", "Tarif 1", "Tarif 4"],
           [["201", "Radiographie 15", "10,50", "41,00"], ["202", "Radiographie 5", "12,70", "50,20"],
            ["203", "Échographie 5", "31,00", "92,00"]]),
    "ru": ("Тарифы на услуги", ["Код", "Услуга", "Ставка 1", "Ставка 4"],
           [["301", "Рентген 15", "10,90", "42,30"], ["302", "Рентген 5", "13,10", "51,40"],
            ["303", "Узи 5", "32,00", "93,00"]]),
}


def schedule_pdf(path: Path, language: str) -> Path:
    title, header, rows = SCHEDULES[language]
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((60, 60), title, fontsize=14, **font_for([title]))
    draw(page, Grid([50, 150, 80, 80], [header, *rows]), 60, 90)
    doc.save(path)
    doc.close()
    return path
