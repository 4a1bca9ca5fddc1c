"""Tables among running prose, headings, lists and footnotes: the real-looking half of the table
bench's corpus (bench/table_corpus.py holds the isolated tables).

Each kind of page (bench/table_pages.py) is set by three producers: drawn line by line here with
PyMuPDF's TextWriter (as report generators do), laid out from HTML by MuPDF's Story
(bench/table_documents_html.py, as HTML-to-PDF converters do) and set by groff's tbl and ms through
gropdf (bench/table_documents_groff.py: Latin scripts only, and only where groff is installed).
English and German pages (and a Chinese one) form the "tune" half, French and Russian pages (and a
Japanese one) the "report" half. Pages of two-column prose and of lists hold no table: whatever is
found on them is a false table; key-value blocks are neither scored nor counted as false.

Fonts: DejaVu Sans (Debian's fonts-dejavu-core, on every machine this project runs on) for Latin
and Cyrillic; where it is missing, MuPDF's built-in Nimbus Roman ("tiro", with Cyrillic) and the
bench says so. CJK: MuPDF's built-in Droid Sans Fallback, always there. Arabic is left out: MuPDF's
Story shapes it with glyphs whose text comes back as other letters, and TextWriter does not shape
it at all, so the page would not say what the truth says.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from bench.table_corpus import Box, TableDoc, TableTruth, cells_of
from bench.table_pages import (
    KINDS,
    Bullets,
    Columns,
    Heading,
    KeyValues,
    Notes,
    PageSpec,
    Para,
    TableSpec,
)

DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
LEFT, RIGHT, TOP, BOTTOM = 56.0, 539.0, 56.0, 800.0
LEADING = 1.3    # line height in font sizes
CELL_PAD = (4.0, 2.5)  # horizontal and vertical padding inside a cell
INDENT = 12.0    # one level of a statement's sub-row
HALVES = {"tune": ("en", "de", "zh"), "report": ("fr", "ru", "ja")}


@dataclass(frozen=True)
class Fonts:
    regular: pymupdf.Font
    bold: pymupdf.Font
    cjk: pymupdf.Font
    note: str = ""


@functools.cache
def load_fonts() -> Fonts:
    """DejaVu Sans where it is installed; MuPDF's own Nimbus Roman (Latin and Cyrillic) where not."""
    regular, bold = DEJAVU_DIR / "DejaVuSans.ttf", DEJAVU_DIR / "DejaVuSans-Bold.ttf"
    cjk = pymupdf.Font("cjk")
    if regular.exists() and bold.exists():
        return Fonts(pymupdf.Font(fontfile=str(regular)), pymupdf.Font(fontfile=str(bold)), cjk)
    return Fonts(pymupdf.Font("tiro"), pymupdf.Font("tibo"), cjk,
                 f"no DejaVu Sans in {DEJAVU_DIR}: drawn pages use MuPDF's built-in Nimbus Roman")


_ADVANCES: dict[int, dict[tuple[str, bool], float]] = {}


def is_cjk(text: str) -> bool:
    return any(0x3000 <= ord(char) <= 0x9FFF or 0xFF00 <= ord(char) <= 0xFFEF for char in text)


class Sheet:
    """One page being drawn from the top down: text through a TextWriter, rules and bands as drawings."""

    def __init__(self, page: pymupdf.Page, fonts: Fonts) -> None:
        self.page, self.fonts = page, fonts
        self.writer = pymupdf.TextWriter(page.rect)
        self.y = TOP
        self.advances = _ADVANCES.setdefault(id(fonts), {})

    def font(self, text: str, bold: bool = False) -> pymupdf.Font:
        if is_cjk(text):
            return self.fonts.cjk
        return self.fonts.bold if bold else self.fonts.regular

    def width(self, text: str, size: float, bold: bool = False) -> float:
        key = (text, bold)
        if key not in self.advances:  # measuring through MuPDF costs ~30 us a character; texts repeat
            self.advances[key] = float(self.font(text, bold).text_length(text, fontsize=1.0))
        return self.advances[key] * size

    def put(self, x: float, top: float, text: str, size: float, bold: bool = False) -> None:
        if text:
            font = self.font(text, bold)
            self.writer.append((x, top + font.ascender * size), text, font=font, fontsize=size)

    def wrap(self, text: str, width: float, size: float, bold: bool = False) -> list[str]:
        """Lines of at most `width`: at spaces (a no-break space keeps "12 345" together), CJK at any character."""
        pieces = list(text) if is_cjk(text) else re.split(r" +", text)
        joiner = "" if is_cjk(text) else " "
        gap = self.width(joiner, size, bold) if joiner else 0.0
        lines: list[str] = []
        current, used = "", 0.0
        for piece in pieces:  # advances add up: TextWriter sets no kerning
            length = self.width(piece, size, bold)
            if current and used + gap + length > width:
                lines.append(current)
                current, used = piece, length
            else:
                current, used = (current + joiner + piece, used + gap + length) if current else (piece, length)
        return [*lines, current] if current else lines or [""]

    def lines(self, text: str, x0: float, x1: float, size: float, bold: bool = False,
              top: float | None = None) -> float:
        """Set `text` wrapped between x0 and x1 from `top` (default: the cursor); returns the bottom."""
        y = self.y if top is None else top
        for line in self.wrap(text, x1 - x0, size, bold):
            self.put(x0, y, line, size, bold)
            y += size * LEADING
        return y

    def advance(self, bottom: float, gap: float) -> None:
        self.y = bottom + gap
        if self.y > BOTTOM:
            raise ValueError(f"page content runs past the bottom margin ({self.y:.0f} pt)")

    def heading(self, block: Heading) -> None:
        self.advance(self.lines(block.text, LEFT, RIGHT, block.size, bold=True, top=self.y + 0.3 * block.size), 4)

    def para(self, block: Para) -> None:
        self.advance(self.lines(block.text, LEFT, RIGHT, block.size), 0.6 * block.size)

    def columns(self, block: Columns, gutter: float = 18.0) -> None:
        width = (RIGHT - LEFT - gutter) / 2
        wrapped = [self.wrap(text, width, block.size) for text in block.paras]
        step, gap = block.size * LEADING, block.size * 0.6
        total = sum(len(lines) * step + gap for lines in wrapped)
        x, y, bottom = LEFT, self.y, self.y
        for lines in wrapped:
            if x == LEFT and y - self.y + len(lines) * step / 2 > total / 2:
                x, y = LEFT + width + gutter, self.y
            for line in lines:
                self.put(x, y, line, block.size)
                y += step
            y += gap
            bottom = max(bottom, y)
        self.advance(bottom, 2)

    def bullets(self, block: Bullets) -> None:
        for index, item in enumerate(block.items):
            self.put(LEFT + 6, self.y, f"{index + 1}." if block.numbered else "•", block.size)
            self.advance(self.lines(item, LEFT + 22, RIGHT, block.size), 1.5)
        self.advance(self.y, 0.4 * block.size)

    def key_values(self, block: KeyValues) -> Box:
        top, right = self.y, LEFT
        for label, value in block.pairs:
            self.put(LEFT, self.y, f"{label}:", block.size, bold=True)
            self.put(LEFT + 110, self.y, value, block.size)
            right = max(right, LEFT + 110 + self.width(value, block.size))
            self.y += block.size * LEADING
        box = (LEFT, top, right, self.y)
        self.advance(self.y, 0.8 * block.size)
        return box

    def notes(self, block: Notes) -> None:
        self.page.draw_line((LEFT, self.y), (LEFT + 80, self.y), color=(0, 0, 0), width=0.4)
        self.y += 3
        for text in block.texts:
            self.advance(self.lines(text, LEFT, RIGHT, block.size), 1)
        self.advance(self.y, 6)

    def table(self, spec: TableSpec) -> Box:
        """Set the grid as `spec` says; returns the table's box (its cells' outer edges)."""
        if spec.caption:
            self.advance(self.lines(spec.caption, LEFT, RIGHT, spec.size), 3)
        pad_x, pad_y = CELL_PAD
        step = spec.size * LEADING
        left = LEFT + (RIGHT - LEFT - sum(spec.widths)) / 2 if spec.rules == "three" else LEFT
        lefts = [left]
        for width in spec.widths:
            lefts.append(lefts[-1] + width)
        levels = spec.levels or [0] * len(spec.grid)
        room = [[spec.widths[c] - 2 * pad_x - (levels[r] * INDENT if c == 0 else 0) for c in range(len(row))]
                for r, row in enumerate(spec.grid)]
        wrapped = [[self.wrap(text, room[r][c], spec.size, r == 0) for c, text in enumerate(row)]
                   for r, row in enumerate(spec.grid)]
        tops = [self.y]
        for row in wrapped:
            tops.append(tops[-1] + max(len(lines) for lines in row) * step + 2 * pad_y)
        if spec.shade_header:
            self.page.draw_rect(pymupdf.Rect(lefts[0], tops[0], lefts[-1], tops[1]), color=None,
                                fill=(0.86, 0.89, 0.93), width=0)
        for r, row in enumerate(wrapped):
            for c, lines in enumerate(row):
                y = tops[r] + pad_y
                for line in lines:
                    if spec.align[c] == "r":
                        x = lefts[c + 1] - pad_x - self.width(line, spec.size, r == 0)
                    else:
                        x = lefts[c] + pad_x + (levels[r] * INDENT if c == 0 else 0)
                    self.put(x, y, line, spec.size, bold=r == 0)
                    y += step
                if spec.rules == "grid":
                    self.page.draw_rect(pymupdf.Rect(lefts[c], tops[r], lefts[c + 1], tops[r + 1]),
                                        color=(0, 0, 0), width=0.6)
        rules = {"booktabs": [(1, 0.6), (len(tops) - 1 - spec.total_rows, 0.6)],
                 "three": [(0, 1.0), (1, 0.6), (len(tops) - 1, 1.0)]}.get(spec.rules, [])
        for index, width in rules:
            self.page.draw_line((lefts[0], tops[index]), (lefts[-1], tops[index]), color=(0, 0, 0), width=width)
        self.advance(tops[-1], 10)
        return (lefts[0], tops[0], lefts[-1], tops[-1])

    def finish(self) -> None:
        self.writer.write_text(self.page)


def draw_page(doc: pymupdf.Document, spec: PageSpec, fonts: Fonts) -> tuple[list[TableTruth], list[Box]]:
    """Draw one page of `spec` at the end of `doc`: its tables' truth and its key-value boxes."""
    sheet = Sheet(doc.new_page(), fonts)
    truths, ignore = [], []
    for block in spec.blocks:
        if isinstance(block, Heading):
            sheet.heading(block)
        elif isinstance(block, Para):
            sheet.para(block)
        elif isinstance(block, Columns):
            sheet.columns(block)
        elif isinstance(block, Bullets):
            sheet.bullets(block)
        elif isinstance(block, KeyValues):
            ignore.append(sheet.key_values(block))
        elif isinstance(block, Notes):
            sheet.notes(block)
        else:
            box = sheet.table(block)
            truths.append(truth_of(block, len(doc), box, spec.kind))
    sheet.finish()
    return truths, ignore


def truth_of(spec: TableSpec, page: int, box: Box, kind: str) -> TableTruth:
    rows, cols = len(spec.grid), len(spec.grid[0])
    return TableTruth(page, spec.style, rows, cols, cells_of(spec.grid), bbox=box, document=kind)


def plan(half: str) -> list[tuple[str, str, str]]:
    """(kind, language, producer) for every page of the half's drawn-and-HTML document: each kind
    once from each producer, the two Latin/Cyrillic languages of the half taking turns."""
    first, second, cjk = HALVES[half]
    pages = []
    for index, kind in enumerate(KINDS):
        drawn, html = (first, second) if index % 2 == 0 else (second, first)
        if kind == "cjk":
            drawn = html = cjk
        pages += [(kind, drawn, "drawn"), (kind, html, "html")]
    return pages


def build_documents(folder: Path, seed: int = 11, groff: bool = True) -> list[TableDoc]:
    """Write the real-looking documents of both halves into `folder` with their truth: one PDF of
    drawn and HTML pages per half, and one set by groff per half where groff is installed."""
    from bench.table_documents_groff import build_groff
    from bench.table_documents_html import html_page

    folder.mkdir(parents=True, exist_ok=True)
    fonts = load_fonts()
    made = []
    for half in HALVES:
        rng = random.Random(f"{seed}-{half}")
        doc = pymupdf.open()
        document = TableDoc(folder / f"documents-{half}.pdf", half=half, note=fonts.note)
        for kind, language, producer in plan(half):
            spec = KINDS[kind](rng, language)
            truths, ignore = draw_page(doc, spec, fonts) if producer == "drawn" else html_page(doc, spec)
            for truth in truths:
                truth.producer = producer
            document.tables += truths
            document.ignore += [(len(doc), box) for box in ignore]
            if not spec.tables():
                document.empty_pages[len(doc)] = (kind, producer)
        doc.save(document.path)
        made.append(document)
        if groff:
            made.append(build_groff(folder, half, random.Random(f"{seed}-{half}-groff")))
    return made
