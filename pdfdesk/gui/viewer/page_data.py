"""What the viewer reads from a page besides pixels: words, links and find hits, in display space.

These run in the viewer's worker thread under the MuPDF lock. Text positions come from MuPDF in
unrotated page space; everything here is mapped through the page's rotation so the UI only ever
deals with points on the page as it is shown.
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

import pymupdf

Rect = tuple[float, float, float, float]


class PageWords:
    """A page's words in reading (extraction) order, stored compactly.

    A page has hundreds of words and the view keeps many pages: one object per word would put
    hundreds of thousands of objects under Python's cyclic GC, whose full passes then stall the UI
    for tens of milliseconds. Here a page is three objects: the texts, and flat arrays of boxes
    (x0, y0, x1, y1 per word, in displayed page points) and of (block, line) numbers.
    """

    __slots__ = ("boxes", "lines", "texts")

    def __init__(self, texts: list[str] | None = None, boxes: array | None = None,
                 lines: array | None = None) -> None:
        self.texts: list[str] = texts if texts is not None else []
        self.boxes = boxes if boxes is not None else array("d")
        self.lines = lines if lines is not None else array("l")

    @classmethod
    def from_tuples(cls, words: list[tuple[Rect, str, int, int]]) -> PageWords:
        """From (rect, text, block, line) tuples (tests and callers that build words by hand)."""
        result = cls()
        for rect, text, block, line in words:
            result.append(rect, text, block, line)
        return result

    def append(self, rect: Rect, text: str, block: int, line: int) -> None:
        self.texts.append(text)
        self.boxes.extend(rect)
        self.lines.extend((block, line))

    def __len__(self) -> int:
        return len(self.texts)

    def rect(self, index: int) -> Rect:
        j = 4 * index
        boxes = self.boxes
        return boxes[j], boxes[j + 1], boxes[j + 2], boxes[j + 3]

    def text(self, index: int) -> str:
        return self.texts[index]

    def line_key(self, index: int) -> tuple[int, int]:
        return self.lines[2 * index], self.lines[2 * index + 1]

    def index_at(self, x: float, y: float) -> int | None:
        """The word under (x, y), if any."""
        boxes = self.boxes
        for index in range(len(self.texts)):
            j = 4 * index
            if boxes[j] <= x <= boxes[j + 2] and boxes[j + 1] <= y <= boxes[j + 3]:
                return index
        return None


class Link(NamedTuple):
    """A clickable area: an internal target (page, 0-based, and y in points) or an external URI."""

    rect: Rect
    page: int | None = None
    y_pt: float | None = None
    uri: str | None = None


def _mapped(rect: pymupdf.Rect, matrix: pymupdf.Matrix | None) -> Rect:
    if matrix is not None:
        rect = rect * matrix
    rect = pymupdf.Rect(rect).normalize()
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def display_matrix(page: pymupdf.Page) -> pymupdf.Matrix | None:
    """Unrotated page space -> displayed page space; None when the page is not rotated."""
    return page.rotation_matrix if page.rotation % 360 else None


def page_words(page: pymupdf.Page) -> PageWords:
    """Words in reading (extraction) order, as selection walks them."""
    matrix = display_matrix(page)
    words = PageWords()
    for x0, y0, x1, y1, text, block, line, _ in page.get_text("words", sort=False):
        rect = (x0, y0, x1, y1) if matrix is None else _mapped(pymupdf.Rect(x0, y0, x1, y1), matrix)
        words.append(rect, text, block, line)
    return words


def page_links(page: pymupdf.Page, doc: pymupdf.Document) -> list[Link]:
    """Internal jumps and external URIs; `from` rects are already in display space."""
    links: list[Link] = []
    for item in page.get_links():
        area = pymupdf.Rect(item.get("from") or (0, 0, 0, 0)).normalize()
        if area.is_empty:
            continue
        rect = (area.x0, area.y0, area.x1, area.y1)
        kind = item.get("kind")
        if kind in (pymupdf.LINK_GOTO, pymupdf.LINK_NAMED) and isinstance(item.get("page"), int) \
                and 0 <= item["page"] < doc.page_count:
            links.append(Link(rect, page=item["page"], y_pt=_target_y(doc, item)))
        elif kind == pymupdf.LINK_URI and item.get("uri"):
            links.append(Link(rect, uri=str(item["uri"])))
    return links


def _target_y(doc: pymupdf.Document, item: dict) -> float | None:
    point = item.get("to")
    if not isinstance(point, pymupdf.Point):
        return None
    try:
        target = doc.load_page(item["page"])
        matrix = display_matrix(target)
        if matrix is not None:
            point = point * matrix
        return max(0.0, float(point.y))
    except Exception:  # a damaged target page: jump to its top
        return None


def find_hits(page: pymupdf.Page, needle: str) -> list[Rect]:
    """Where `needle` occurs on the page (case-insensitive, as MuPDF matches), in display space."""
    matrix = display_matrix(page)
    return [_mapped(pymupdf.Rect(rect), matrix) for rect in page.search_for(needle)]
