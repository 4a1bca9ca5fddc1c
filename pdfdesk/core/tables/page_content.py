"""What table finding reads from a page: its words and its straight drawn lines, in a frame where
the text runs left to right.

A landscape table is often drawn turned on a portrait page (its words run up or down the page);
reading it in the unrotated page would take its columns for rows. So the frame follows the text,
not the page's /Rotate: when most words are taller than wide, everything is turned a quarter so they
read across, and `to_page` maps found boxes back to unrotated page points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pymupdf

from pdfdesk.core.text import text_page

# (x0, y0, x1, y1, text, block, line) in unrotated page points: get_text("words") without its
# word number, and what the OCR record gives for a scanned page
WordTuple = tuple[float, float, float, float, str, int, int]

MAX_WORDS = 30_000   # a page with more is not laid out as tables a reader checks cell by cell
MAX_PATHS = 40_000   # drawn paths read for ruling lines; a hostile page can hold millions
MAX_ITEMS = 40_000   # their lines, rectangles and curves (one path can hold them all)
LINE_THICKNESS = 3.0 # a filled rectangle thinner than this is a drawn line


@dataclass(frozen=True)
class Word:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def height(self) -> float:
        return self.y1 - self.y0


@dataclass(frozen=True)
class Rule:
    """A straight drawn line: horizontal at y=`at` from x=`start` to `end`, or vertical at x=`at`."""

    horizontal: bool
    at: float
    start: float
    end: float


@dataclass
class PageContent:
    words: list[Word]
    rules: list[Rule]
    to_page: pymupdf.Matrix = field(default_factory=lambda: pymupdf.Matrix(1, 0, 0, 1, 0, 0))  # frame -> page
    notes: list[str] = field(default_factory=list)
    crowded: bool = False  # too many words to look for tables drawn without lines
    height: float = 0.0    # the page's height as it reads

    def page_box(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        rect = pymupdf.Rect(box) * self.to_page
        return (rect.x0, rect.y0, rect.x1, rect.y1)


def _upright_frame(page: pymupdf.Page, words: Sequence[WordTuple]) -> pymupdf.Matrix:
    """Identity when the text reads across; else the quarter turn that makes it read across."""
    long_words = [w for w in words if len(w[4]) >= 4][:400]
    if not long_words:
        return pymupdf.Matrix(1, 0, 0, 1, 0, 0)
    tall = sum(1 for w in long_words if (w[3] - w[1]) > 1.5 * (w[2] - w[0]))
    if tall * 2 <= len(long_words):
        return pymupdf.Matrix(1, 0, 0, 1, 0, 0)
    # Which way: the direction of the text lines MuPDF saw (down the page: turn back a quarter)
    downward = 0
    for block in page.get_text("dict", flags=0)["blocks"][:50]:
        for line in block.get("lines", [])[:20]:
            downward += 1 if line["dir"][1] > 0 else -1 if line["dir"][1] < 0 else 0
    width, height = page.mediabox.width, page.mediabox.height
    if downward >= 0:  # text runs top to bottom: turn the page a quarter anticlockwise
        return pymupdf.Matrix(0, -1, 1, 0, 0, width)
    return pymupdf.Matrix(0, 1, -1, 0, height, 0)


def _framed_words(words: Sequence[WordTuple], frame: pymupdf.Matrix) -> list[Word]:
    framed = []
    for w in words:
        text = w[4].strip()
        if not text:
            continue
        rect = pymupdf.Rect(w[:4]) * frame
        framed.append(Word(rect.x0, rect.y0, rect.x1, rect.y1, text))
    return framed


def _rules(page: pymupdf.Page, frame: pymupdf.Matrix, notes: list[str]) -> list[Rule]:
    try:
        paths = page.get_cdrawings()
    except Exception as exc:  # a damaged drawing must not cost the words
        notes.append(f"the page's drawings could not be read ({type(exc).__name__})")
        return []
    items = sum(len(path.get("items", ())) for path in paths)
    if len(paths) > MAX_PATHS or items > MAX_ITEMS:
        notes.append(f"the page draws {len(paths):,} paths of {items:,} lines and shapes; ruling lines were not read")
        return []
    rules: list[Rule] = []
    for path in paths:
        stroked = "s" in path.get("type", "")
        for item in path.get("items", ()):
            kind = item[0]
            if kind == "l":
                _line(rules, pymupdf.Point(item[1]) * frame, pymupdf.Point(item[2]) * frame)
            elif kind in ("re", "qu"):
                rect = (pymupdf.Rect(item[1]) if kind == "re" else pymupdf.Quad(item[1]).rect) * frame
                _rectangle(rules, rect, stroked)
    return rules


def _line(rules: list[Rule], a: pymupdf.Point, b: pymupdf.Point) -> None:
    if abs(a.y - b.y) <= 1.0 and abs(a.x - b.x) > 1.0:
        rules.append(Rule(True, (a.y + b.y) / 2, min(a.x, b.x), max(a.x, b.x)))
    elif abs(a.x - b.x) <= 1.0 and abs(a.y - b.y) > 1.0:
        rules.append(Rule(False, (a.x + b.x) / 2, min(a.y, b.y), max(a.y, b.y)))


def _rectangle(rules: list[Rule], rect: pymupdf.Rect, stroked: bool) -> None:
    """A thin rectangle is a line; a stroked one gives its four edges; a filled area (a shaded row
    or cell) is no line at all."""
    if rect.height <= LINE_THICKNESS and rect.width > LINE_THICKNESS:
        rules.append(Rule(True, (rect.y0 + rect.y1) / 2, rect.x0, rect.x1))
    elif rect.width <= LINE_THICKNESS and rect.height > LINE_THICKNESS:
        rules.append(Rule(False, (rect.x0 + rect.x1) / 2, rect.y0, rect.y1))
    elif stroked:
        rules += [Rule(True, rect.y0, rect.x0, rect.x1), Rule(True, rect.y1, rect.x0, rect.x1),
                  Rule(False, rect.x0, rect.y0, rect.y1), Rule(False, rect.x1, rect.y0, rect.y1)]


def monospace_boxes(page: pymupdf.Page, frame: pymupdf.Matrix) -> list[tuple[float, float, float, float]]:
    """The boxes (in the reading frame) of text set in a fixed-width font: where code stands."""
    boxes = []
    for block in page.get_text("dict", flags=0)["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                if span["flags"] & pymupdf.TEXT_FONT_MONOSPACED or "mono" in span["font"].lower() \
                        or "courier" in span["font"].lower():
                    rect = pymupdf.Rect(span["bbox"]) * frame
                    boxes.append((rect.x0, rect.y0, rect.x1, rect.y1))
    return boxes


def read_content(page: pymupdf.Page, words: Sequence[WordTuple] | None = None) -> PageContent:
    """The page's words (its text layer, or `words` recognised on a scan) and ruling lines."""
    notes: list[str] = []
    if words is None:
        words = [w[:7] for w in page.get_text("words", textpage=text_page(page))]
    crowded = len(words) > MAX_WORDS
    if crowded:
        notes.append(f"the page holds {len(words):,} words; only ruled tables were looked for")
    frame = _upright_frame(page, words)
    rules = _rules(page, frame, notes)
    height = (page.rect * page.derotation_matrix * frame).height
    return PageContent(_framed_words(words, frame), rules, ~frame, notes, crowded, height)
