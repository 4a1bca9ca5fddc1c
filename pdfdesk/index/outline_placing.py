"""Section starts from a document's outline, each placed on the line that shows its title.

Every outline entry becomes a section, even one whose heading cannot be found on its page: its
title alone is what a reader searches for.

Outline destinations are a poor guide to where a heading sits: pdfTeX writes named destinations,
often without a top coordinate, and many generators just point at the top of the page. So each
entry is placed by finding its title among its page's lines (compared by letters and digits only,
so spacing, case, hyphenation, ligatures and a printed number the outline lacks do not matter),
falling back on the destination's y, then on "right after the previous entry on that page".
"""

from __future__ import annotations

import math
from collections import Counter

import pymupdf

from pdfdesk.core.outline import read_outline
from pdfdesk.index.page_lines import Line, line_below, one_line
from pdfdesk.index.sections import SectionStart
from pdfdesk.index.titles import LABEL, title_key, title_keys, title_words

MAX_TITLE_LINES = 4      # a title is looked for over at most this many consecutive lines
MAX_ENTRIES_SEARCHED = 200  # on a page with more outline entries than this, titles are not looked for
MAX_PLACED_OUTLINE = 3000  # beyond this, destinations are not resolved (20,000 take seconds)
DEST_WINDOW = 60.0  # a heading sits at most this far below its outline destination
FUZZY_WORDS = 0.6   # share of a title's words a bold or larger line must show to match loosely


def outline_entries(doc: pymupdf.Document) -> list[SectionStart]:
    """Outline entries as section starts at their destinations (reading a large outline with its
    destinations takes a while; callers cache the result per document). In a huge outline (hostile,
    or a generated index) destinations are not used. An entry whose destination lies outside the
    document is kept on the previous entry's page, so its title stays searchable.

    A destination's top arrives in page coordinates; 0 (the top of the page) stands for a missing
    one, as pdfTeX's named destinations often leave it out."""
    starts: list[SectionStart] = []
    outline = read_outline(doc)
    placed = outline.total <= MAX_PLACED_OUTLINE
    for item in outline.entries:
        title = one_line(item.title)
        if not title:
            continue
        page, y = item.page, item.y if placed and item.y is not None and math.isfinite(item.y) else 0.0
        if page is None or not 1 <= page <= doc.page_count:
            page, y = (starts[-1].page if starts else 1), 0.0
        starts.append(SectionStart(title, item.level, page, max(y - 2.0, 0.0)))
    return starts


def _body_size_of(lines: list[Line]) -> float:
    counts: Counter[float] = Counter()
    for line in lines:
        counts[round(line.size, 1)] += len(line.text)
    return counts.most_common(1)[0][0] if counts else 0.0


class _PageLines:
    """One page's lines with their title keys, each computed once for all entries on the page
    and only when a title is compared with it."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = lines
        self._keys: list[tuple[str, str] | None] = [None] * len(lines)
        body = _body_size_of(lines)
        self.prominent = [line.bold or (body > 0 and line.size >= body * 1.1) for line in lines]

    def keys(self, index: int) -> tuple[str, str]:
        """Line `index`'s key with and without its label."""
        found = self._keys[index]
        if found is None:
            found = self._keys[index] = title_keys(self.lines[index].text)
        return found

    def near(self, index: int, y: float) -> bool:
        """Whether line `index` is where a destination at `y` points (any line when y is unknown)."""
        line = self.lines[index]
        return y <= 0 or (line.y1 + 2.0 >= y and line.y0 <= y + DEST_WINDOW)

    def match(self, index: int, wanted: set[str]) -> tuple[int, int] | None:
        """How well the lines from `index` on show one of the wanted keys: (quality, last line)
        with quality 2 when the title fills whole lines, 1 when a line goes on after it."""
        full, core = "", ""
        for last in range(index, min(index + MAX_TITLE_LINES, len(self.lines))):
            if last > index and not _adjacent(self.lines[last - 1], self.lines[last]):
                return None
            line_full, line_core = self.keys(last)
            core = line_core if last == index else core + line_full
            full += line_full
            if not full:
                continue
            if full in wanted or core in wanted:
                return 2, last
            if any(k.startswith(w) for k in (full, core) if k for w in wanted):
                return 1, last
            if core and not any(w.startswith(k) for k in (full, core) for w in wanted):
                return None  # neither the title nor its beginning ("Chapter 3" alone goes on)
        return None

    def find(self, title: str, lo: int, hi: int, y: float) -> tuple[int, int] | None:
        """The lines between `lo` and `hi` (exclusive) that show `title`: (first, last) of the
        best match. A bold or larger line comes first, then one the title fills; a plain line that
        merely begins with the title is body text, unless the destination points right at it."""
        wanted = {k for k in title_keys(title) if len(k) >= 2 or (k and not k.isascii())}
        if not wanted:
            return None
        longest = 2 * max(len(k) for k in wanted) + 8
        best: tuple[tuple[int, int], int, int] | None = None
        for index in range(lo + 1, hi):
            if not self.near(index, y):
                continue
            if y <= 0 and not self.prominent[index] and len(self.lines[index].text) > longest:
                continue  # a plain line must be the title itself, and this one is far longer
            found = self.match(index, wanted)
            if found is None or not (self.prominent[index] or found[0] == 2 or y > 0):
                continue
            rank = (int(self.prominent[index]), found[0])
            if best is None or rank > best[0]:
                best = (rank, index, found[1])
                if rank == (1, 2):
                    break
        return (best[1], best[2]) if best is not None else None

    def find_loosely(self, title: str, lo: int, hi: int, y: float) -> int | None:
        """A bold or larger line between `lo` and `hi` that contains the title, or most of its
        words: an outline's short title for a longer printed heading."""
        key = title_key(LABEL.sub("", title, count=1))
        words = title_words(title)
        best: tuple[float, int] | None = None
        for index in range(lo + 1, hi):
            if not self.prominent[index] or not self.near(index, y):
                continue
            if len(key) >= 4 and key in self.keys(index)[1]:
                return index
            if len(words) >= 2:
                share = len(words & title_words(self.lines[index].text)) / len(words)
                if share >= FUZZY_WORDS and (best is None or share > best[0]):
                    best = (share, index)
        return best[1] if best is not None else None


def _adjacent(first: Line, second: Line) -> bool:
    """Whether `second` can carry on a title begun on `first`: on the same row, or the next one
    down (not a page number at the foot followed by the first line at the top)."""
    height = max(first.y1 - first.y0, 1.0)
    return abs(second.y0 - first.y0) < height * 0.5 or -1.0 <= second.y0 - first.y1 < height


def _place_page(starts: list[SectionStart], page: _PageLines) -> list[SectionStart]:
    """Place one page's entries (in outline order, each after the one before it): first every
    entry whose title shows exactly, then loosely between those, then by destination or right
    after the previous entry. A page with a flood of entries (a hostile or generated outline) is
    not searched: each entry goes by its destination alone."""
    count = len(page.lines)
    spans: list[tuple[int, int] | None] = [None] * len(starts)
    if len(starts) <= MAX_ENTRIES_SEARCHED:
        cursor = -1
        for position, start in enumerate(starts):
            span = spans[position] = page.find(start.title, cursor, count, start.y)
            cursor = span[1] if span is not None else cursor
    next_first = [count] * (len(starts) + 1)  # first line of the next entry found, from each position on
    for position in range(len(starts) - 1, -1, -1):
        span = spans[position]
        next_first[position] = span[0] if span is not None else next_first[position + 1]
    placed: list[SectionStart] = []
    lo = -1  # last line of the previous entry's title
    for position, start in enumerate(starts):
        span = spans[position]
        if span is None and len(starts) <= MAX_ENTRIES_SEARCHED:
            index = page.find_loosely(start.title, lo, next_first[position + 1], start.y)
            span = (index, index) if index is not None else None
        if span is not None:
            index, lo = span[0], span[1]
        elif start.y > 0:
            index = min(max(line_below(page.lines, start.y), lo + 1), next_first[position + 1])
        else:
            index = lo + 1
        y = page.lines[index].y0 if index < count else max(start.y, 0.0)
        placed.append(SectionStart(start.title, start.level, start.page, y, index))
    return placed


def place_on_lines(starts: list[SectionStart], lines: dict[int, list[Line]]) -> list[SectionStart]:
    """Each start whose page's lines are known, placed on the line that shows its title (or, when
    no line does, at its destination or right after the previous entry on that page); the
    others are returned as they are. The order of `starts` is kept."""
    by_page: dict[int, list[int]] = {}
    for position, start in enumerate(starts):
        if start.page in lines:
            by_page.setdefault(start.page, []).append(position)
    placed = list(starts)
    for number, positions in by_page.items():
        page = _PageLines(lines[number])
        for position, start in zip(positions, _place_page([starts[p] for p in positions], page), strict=False):
            placed[position] = start
    return placed


def outline_starts(doc: pymupdf.Document, lines: dict[int, list[Line]] | None = None) -> list[SectionStart]:
    """Outline entries as section starts, placed on the lines that show their titles when given."""
    starts = outline_entries(doc)
    return place_on_lines(starts, lines) if lines is not None else starts
