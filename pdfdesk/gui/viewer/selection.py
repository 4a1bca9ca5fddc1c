"""Text selection by dragging, in whole words, across pages.

A drag has two ends, each a point on a page. Each end becomes a *caret* among the page's words in
reading order: inside word i it sits at i + 0.5, so dragging from the middle of one word to the
middle of another selects both; in the gaps it sits between words. Words come from
`page.get_text("words")` (fetched by the worker); a page whose words are not loaded yet selects
nothing until they arrive.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pdfdesk.gui.viewer.page_data import PageWords, Rect

WordsOf = Callable[[int], "PageWords | None"]


@dataclass(frozen=True)
class SelectionEnd:
    page: int  # 0-based
    x: float  # PDF points on that page
    y: float


@dataclass(frozen=True)
class _Line:
    first: int
    last: int  # inclusive word indices
    x0: float
    y0: float
    x1: float
    y1: float


def _lines(words: PageWords) -> list[_Line]:
    lines: list[_Line] = []
    start = 0
    count = len(words)
    for index in range(1, count + 1):
        if index == count or words.line_key(index) != words.line_key(start):
            rects = [words.rect(i) for i in range(start, index)]
            lines.append(_Line(start, index - 1, min(r[0] for r in rects), min(r[1] for r in rects),
                               max(r[2] for r in rects), max(r[3] for r in rects)))
            start = index
    return lines


def caret_at(words: PageWords, x: float, y: float) -> float:
    """The caret position for point (x, y): i + 0.5 inside word i, an integer between words."""
    inside = words.index_at(x, y)
    if inside is not None:
        return inside + 0.5
    lines = _lines(words)
    if not lines:
        return 0.0
    in_band = [line for line in lines if line.y0 <= y <= line.y1]
    if in_band:
        line = min(in_band, key=lambda item: 0.0 if item.x0 <= x <= item.x1
                   else min(abs(x - item.x0), abs(x - item.x1)))
        if x < line.x0:
            return float(line.first)
        for index in range(line.first, line.last + 1):
            if x < words.rect(index)[0]:
                return float(index)
        return float(line.last + 1)
    below = [line for line in lines if line.y0 > y]
    if below:  # above some text: the caret goes before the first line under the point
        return float(min(below, key=lambda item: (item.y0, item.x0)).first)
    return float(len(words))


@dataclass
class TextSelection:
    anchor: SelectionEnd | None = None
    focus: SelectionEnd | None = None
    word_mode: bool = False  # a double-click selection: ends snap outwards to whole words

    def start(self, end: SelectionEnd, word_mode: bool = False) -> None:
        self.anchor, self.focus, self.word_mode = end, end, word_mode

    def extend(self, end: SelectionEnd) -> None:
        if self.anchor is not None:
            self.focus = end

    def clear(self) -> None:
        self.anchor = self.focus = None
        self.word_mode = False

    @property
    def active(self) -> bool:
        return self.anchor is not None and self.focus is not None

    def pages(self) -> range:
        if not self.active:
            return range(0)
        assert self.anchor is not None and self.focus is not None
        return range(min(self.anchor.page, self.focus.page), max(self.anchor.page, self.focus.page) + 1)

    def _ordered(self, words_of: WordsOf) -> tuple[tuple[int, float], tuple[int, float]] | None:
        if not self.active:
            return None
        assert self.anchor is not None and self.focus is not None
        ends = []
        for end in (self.anchor, self.focus):
            words = words_of(end.page)
            ends.append((end.page, caret_at(words, end.x, end.y) if words else 0.0))
        first, last = sorted(ends)
        if self.word_mode:
            first = (first[0], float(int(first[1])))
            last = (last[0], float(int(last[1])) + (1.0 if last[1] % 1 else 0.0))
        return first, last

    def ranges(self, words_of: WordsOf) -> dict[int, tuple[int, int]]:
        """Selected words per page as half-open index ranges; pages without words are left out."""
        ordered = self._ordered(words_of)
        if ordered is None:
            return {}
        (first_page, first_caret), (last_page, last_caret) = ordered
        result: dict[int, tuple[int, int]] = {}
        for page in range(first_page, last_page + 1):
            words = words_of(page)
            if not words:
                continue
            low = first_caret if page == first_page else 0.0
            high = last_caret if page == last_page else float(len(words))
            # word i is selected when its middle (i + 0.5) lies within [low, high]
            start = max(0, int(-(-(low - 0.5) // 1)))
            stop = min(len(words), int((high - 0.5) // 1) + 1)
            if stop > start:
                result[page] = (start, stop)
        return result

    def text(self, words_of: WordsOf) -> str:
        """The selected words, spaces within a line, line breaks between lines and pages."""
        return "\n".join(self.page_texts(words_of).values())

    def page_texts(self, words_of: WordsOf) -> dict[int, str]:
        """The selected words of each page (in page order), as `text` joins them."""
        texts: dict[int, str] = {}
        for page, (start, stop) in sorted(self.ranges(words_of).items()):
            words = words_of(page)
            if words is None:
                continue
            parts: list[str] = []
            for index in range(start, stop):
                if index > start:
                    parts.append(" " if words.line_key(index) == words.line_key(index - 1) else "\n")
                parts.append(words.text(index))
            texts[page] = "".join(parts)
        return texts

    def rects(self, page: int, words_of: WordsOf) -> list[Rect]:
        """Highlight boxes on `page`: selected words merged per line."""
        span = self.ranges(words_of).get(page)
        words = words_of(page)
        if span is None or not words:
            return []
        boxes: list[Rect] = []
        for index in range(span[0], span[1]):
            rect = words.rect(index)
            if index > span[0] and words.line_key(index) == words.line_key(index - 1):
                x0, y0, x1, y1 = boxes[-1]
                boxes[-1] = (min(x0, rect[0]), min(y0, rect[1]), max(x1, rect[2]), max(y1, rect[3]))
            else:
                boxes.append(rect)
        return boxes


def word_at(words: PageWords, x: float, y: float) -> int | None:
    """Index of the word under (x, y), if any."""
    return words.index_at(x, y)
