"""What the viewer reads from a page besides pixels: words, links and find hits, in display space.

These run in the viewer's worker thread under the MuPDF lock. Text positions come from MuPDF in
unrotated page space; everything here is mapped through the page's rotation so the UI only ever
deals with points on the page as it is shown. A scanned page's words may come from OCR instead
(`words_from`, `word_hits`): they are given in the same unrotated space and mapped alike.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import pymupdf

from pdfdesk.core.ocr import draws_images, usable_text

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


def words_from(words: Iterable[Sequence[Any]], matrix: pymupdf.Matrix | None) -> PageWords:
    """PageWords of words read elsewhere than the text layer (recognised on a scan): tuples
    (x0, y0, x1, y1, text, block, line) in unrotated page space, as get_text("words") gives."""
    result = PageWords()
    for word in words:
        x0, y0, x1, y1 = (float(v) for v in word[:4])
        rect = (x0, y0, x1, y1) if matrix is None else _mapped(pymupdf.Rect(x0, y0, x1, y1), matrix)
        result.append(rect, str(word[4]), int(word[5]), int(word[6]))
    return result


def looks_scanned(page: pymupdf.Page, words: PageWords) -> bool:
    """A page showing an image whose text layer says nothing usable: its words, if any, are the
    ones recognition read (the same test the indexing uses to send a page to OCR)."""
    return not usable_text(" ".join(words.texts)) and draws_images(page)


def word_hits(words: PageWords, needle: str, upright: bool = True) -> list[Rect]:
    """Where `needle` occurs among `words` (case-insensitive, any run of spaces matching any
    other, as MuPDF's search matches), one rect per line an occurrence covers. A match inside a
    word gets its share of the word's box when the page is `upright` (the word runs left to
    right on screen); otherwise the whole word is marked."""
    parts = needle.split()
    if not parts or not len(words):
        return []
    pattern = r"\s+".join(re.escape(part) for part in parts)
    if needle[:1].isspace():
        pattern = r"(?:^|(?<=\s))" + pattern
    if needle[-1:].isspace():
        pattern += r"(?=\s|$)"
    starts: list[int] = []
    offset = 0
    for text in words.texts:
        starts.append(offset)
        offset += len(text) + 1
    text = " ".join(words.texts)
    hits: list[Rect] = []
    for match in re.finditer(pattern, text, re.IGNORECASE):
        lines: dict[tuple[int, int], list[float]] = {}
        first = max(0, bisect.bisect_right(starts, match.start()) - 1)
        for index in range(first, len(words)):
            begin = starts[index]
            end = begin + len(words.text(index))
            if begin >= match.end():
                break
            low, high = max(begin, match.start()), min(end, match.end())
            if high <= low:
                continue
            x0, y0, x1, y1 = words.rect(index)
            if upright and end > begin and x1 - x0 >= y1 - y0:
                width = (x1 - x0) / (end - begin)
                x0, x1 = x0 + width * (low - begin), x0 + width * (high - begin)
            box = lines.get(words.line_key(index))
            if box is None:
                lines[words.line_key(index)] = [x0, y0, x1, y1]
            else:
                box[0], box[1], box[2], box[3] = min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)
        hits.extend((b[0], b[1], b[2], b[3]) for b in lines.values())
    return hits


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
