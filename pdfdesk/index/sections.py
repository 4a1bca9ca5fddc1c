"""Split a document into sections: by its outline when it has one, by detected headings otherwise.

Every outline entry (or heading) starts a section and the section runs until the next entry of
any level starts, so sections never overlap: a chapter owns only the text before its first
subsection, and each leaf owns its own text. Every outline entry becomes a section, even one
whose heading cannot be found on its page: its title alone is what a reader searches for.

Outline destinations are a poor guide to where a heading sits: pdfTeX writes named destinations,
often without a top coordinate, and many generators just point at the top of the page. So each
entry is placed by finding its title among its page's lines (compared by letters and digits only,
so spacing, case, hyphenation, ligatures and a printed number the outline lacks do not matter),
falling back on the destination's y, then on "right after the previous entry on that page".

Positions are line indices in MuPDF's reading order rather than y coordinates: page furniture
(running headers, page numbers) is often drawn before or after the body, and a y-ordered split
hands a whole page to whichever entry sits lowest on it.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import pymupdf

from pdfdesk.core.outline import read_outline
from pdfdesk.core.text import TEXT_FLAGS, text_page

MAX_HEADING_CHARS = 120
MAX_TITLE_LINES = 4      # a title is looked for over at most this many consecutive lines
MAX_ENTRIES_SEARCHED = 200  # on a page with more outline entries than this, titles are not looked for
SPAN_GAP = 0.05          # a gap wider than this many font sizes between two spans is a space
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.|Chapter\s+\d+|Section\s+\d+)\s+\S",
                       re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_NOT_WORD = re.compile(r"[\W_]+")
# A heading's label: "3", "3.2.", "A.1", "IV.", "Chapter 3", "Appendix B:", "Глава 2", "第3章".
_LABEL = re.compile(
    r"^\s*(?:(?i:chapter|section|part|appendix|annex|глава|раздел|часть|приложение)\s+[\w.]+[.:]?\s*"
    r"|第\s*[0-9一二三四五六七八九十百千]+\s*[章节節部篇]\s*"
    r"|\d+(?:\.\d+)*\.?\)?(?!\d)\s*"
    r"|[IVXLC]+\.\s+"
    r"|[A-Z](?:\.\d+)*\.?\s+)")
_DEPTH = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+\S")


@dataclass(frozen=True)
class Line:
    y0: float
    y1: float
    text: str
    size: float
    bold: bool


@dataclass(frozen=True)
class SectionStart:
    title: str
    level: int
    page: int      # 1-based
    y: float       # top of the heading on its page (0 = top, or not known)
    line: int | None = None  # index of the heading's first line in its page's lines, once placed


@dataclass
class Section:
    title: str
    level: int
    path: list[str]
    start_page: int
    end_page: int
    text_parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.text_parts)

    def as_record(self) -> dict:
        return {"title": self.title, "level": self.level, "path": " › ".join(self.path),
                "start_page": self.start_page, "end_page": self.end_page, "text": self.text}


def nfkc(text: str) -> str:
    """NFKC unless plain ASCII (the common case costs nothing)."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def _joined_spans(spans: list[dict]) -> str:
    """A line's text: spans in order, with a space where two spans are set apart on the line but
    neither carries one (MuPDF starts a new span at a font change and may leave the space out,
    which glued headings like "Boxed formulas" into "Boxedformulas")."""
    parts: list[str] = []
    previous: dict | None = None
    for span in spans:
        text = span["text"]
        if not text:
            continue
        if previous is not None and not parts[-1][-1:].isspace() and not text[:1].isspace():
            gap = span["bbox"][0] - previous["bbox"][2]
            if gap > SPAN_GAP * min(span["size"], previous["size"]):
                parts.append(" ")
        parts.append(text)
        previous = span
    return nfkc(_SPACES.sub(" ", "".join(parts)).strip())


def page_lines(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> list[Line]:
    """The page's text lines in MuPDF's reading order, with their font size and weight."""
    lines: list[Line] = []
    data = page.get_text("dict", flags=TEXT_FLAGS, textpage=textpage if textpage is not None else text_page(page))
    for block in data["blocks"]:
        for line in block.get("lines", []):
            inked = [s for s in line["spans"] if s["text"].strip()]
            if not inked:
                continue
            text = _joined_spans(line["spans"])
            bold = all(s["flags"] & 16 or "bold" in s["font"].lower() for s in inked)
            lines.append(Line(line["bbox"][1], line["bbox"][3], text, max(s["size"] for s in inked), bold))
    return lines


# -- outline entries -------------------------------------------------------------------------------

MAX_PLACED_OUTLINE = 3000  # beyond this, destinations are not resolved (20,000 take seconds)


def _clean_title(title: str) -> str:
    return nfkc(_SPACES.sub(" ", title).strip())


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
        title = _clean_title(item.title)
        if not title:
            continue
        page, y = item.page, item.y if placed and item.y is not None and math.isfinite(item.y) else 0.0
        if page is None or not 1 <= page <= doc.page_count:
            page, y = (starts[-1].page if starts else 1), 0.0
        starts.append(SectionStart(title, item.level, page, max(y - 2.0, 0.0)))
    return starts


# -- placing entries on their title lines ------------------------------------------------------------

def title_key(text: str) -> str:
    """A title reduced to its letters and digits, case-folded: how two titles are compared."""
    return _NOT_WORD.sub("", nfkc(text).casefold())


def _keys(text: str) -> tuple[str, str]:
    """The title's key with and without a leading label ("3.2", "Chapter 3")."""
    return title_key(text), title_key(_LABEL.sub("", text, count=1))


def _body_size_of(lines: list[Line]) -> float:
    counts: Counter[float] = Counter()
    for line in lines:
        counts[round(line.size, 1)] += len(line.text)
    return counts.most_common(1)[0][0] if counts else 0.0


DEST_WINDOW = 60.0  # a heading sits at most this far below its outline destination
FUZZY_WORDS = 0.6   # share of a title's words a bold or larger line must show to match loosely
_WORDS = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    """A title's words past its label, cut to five characters (so "encryption" meets
    "encrypting", and a short outline title meets its longer printed heading)."""
    return {w[:5] for w in _WORDS.findall(nfkc(_LABEL.sub("", text, count=1)).casefold()) if len(w) >= 2}


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
            found = self._keys[index] = _keys(self.lines[index].text)
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
        wanted = {k for k in _keys(title) if len(k) >= 2 or (k and not k.isascii())}
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
        key = title_key(_LABEL.sub("", title, count=1))
        words = _words(title)
        best: tuple[float, int] | None = None
        for index in range(lo + 1, hi):
            if not self.prominent[index] or not self.near(index, y):
                continue
            if len(key) >= 4 and key in self.keys(index)[1]:
                return index
            if len(words) >= 2:
                share = len(words & _words(self.lines[index].text)) / len(words)
                if share >= FUZZY_WORDS and (best is None or share > best[0]):
                    best = (share, index)
        return best[1] if best is not None else None


def _adjacent(first: Line, second: Line) -> bool:
    """Whether `second` can carry on a title begun on `first`: on the same row, or the next one
    down (not a page number at the foot followed by the first line at the top)."""
    height = max(first.y1 - first.y0, 1.0)
    return abs(second.y0 - first.y0) < height * 0.5 or -1.0 <= second.y0 - first.y1 < height


def _line_below(lines: list[Line], y: float) -> int:
    """The index of the line nearest below `y` (the end of the page when none is)."""
    candidates = [(line.y0, index) for index, line in enumerate(lines) if line.y1 + 2.0 >= y]
    return min(candidates)[1] if candidates else len(lines)


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
            spans[position] = page.find(start.title, cursor, count, start.y)
            cursor = spans[position][1] if spans[position] is not None else cursor
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
            index = min(max(_line_below(page.lines, start.y), lo + 1), next_first[position + 1])
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
        for position, start in zip(positions, _place_page([starts[p] for p in positions], page)):
            placed[position] = start
    return placed


def outline_starts(doc: pymupdf.Document, lines: dict[int, list[Line]] | None = None) -> list[SectionStart]:
    """Outline entries as section starts, placed on the lines that show their titles when given."""
    starts = outline_entries(doc)
    return place_on_lines(starts, lines) if lines is not None else starts


# -- headings found by typography ----------------------------------------------------------------------

def _body_size(lines: dict[int, list[Line]]) -> float:
    counts: Counter[float] = Counter()
    for page_lines_ in lines.values():
        for line in page_lines_:
            counts[round(line.size, 1)] += len(line.text)
    return counts.most_common(1)[0][0] if counts else 10.0


def _is_heading(line: Line, gap: float, body: float) -> bool:
    text = line.text
    if len(text) > MAX_HEADING_CHARS or len(text) < 2 or not any(c.isalpha() for c in text):
        return False
    if text.endswith((".", ",", ";", ":")) and not _NUMBERED.match(text):
        return False
    larger = line.size >= body * 1.18
    emphasised = line.bold and line.size >= body * 0.98 and (gap > line.size * 0.6 or bool(_NUMBERED.match(text)))
    return larger or emphasised


def _continues(first: Line, second: Line) -> bool:
    """Whether `second` carries on the heading line `first`: the same type, on the same baseline
    (a number set apart from its title) or right below it (a heading that wraps), and not the
    next numbered heading."""
    if abs(first.size - second.size) > 0.5 or first.bold != second.bold or _NUMBERED.match(second.text):
        return False
    same_row = abs(first.y0 - second.y0) < first.size * 0.3
    wrapped = 0 <= second.y0 - first.y1 < first.size * 0.6
    return same_row or wrapped


def _is_label(text: str) -> bool:
    return _LABEL.fullmatch(text + " ") is not None


def _heading_runs(lines: list[Line], body: float) -> Iterable[tuple[int, str, float]]:
    """(first line, text, size) of each heading on one page: a number set apart from its title
    and a title wrapped over several lines are joined into one heading."""
    index, previous_bottom = 0, 0.0
    while index < len(lines):
        line = lines[index]
        # space above; a line drawn before one below it (page furniture first) starts afresh
        gap = line.y0 - previous_bottom if previous_bottom <= line.y0 + 1.0 else math.inf
        last, text = index, line.text
        if _is_label(text) and index + 1 < len(lines) and _continues(line, lines[index + 1]):
            last, text = index + 1, f"{text} {lines[index + 1].text}"
        if not _is_heading(Line(line.y0, line.y1, text, line.size, line.bold), gap, body):
            previous_bottom = line.y1
            index += 1
            continue
        while last + 1 < len(lines) and len(text) < MAX_HEADING_CHARS and _continues(lines[last], lines[last + 1]):
            last += 1
            text = f"{text} {lines[last].text}"
        yield index, text, line.size
        previous_bottom = lines[last].y1
        index = last + 1


def heading_starts(lines: dict[int, list[Line]]) -> list[SectionStart]:
    """Headings found by typography: larger or bold short lines, numbering, space above. A
    numbered heading's level is its number's depth; others rank by size."""
    body = _body_size(lines)
    candidates: list[tuple[int, int, str, float]] = []
    for number in sorted(lines):
        for index, text, size in _heading_runs(lines[number], body):
            candidates.append((number, index, text, round(size, 1)))
    sizes = sorted({c[3] for c in candidates}, reverse=True)
    level_of = {size: min(i + 1, 4) for i, size in enumerate(sizes)}
    starts = []
    for number, index, text, size in candidates:
        depth = _DEPTH.match(text)
        level = min(depth.group(1).count(".") + 1, 4) if depth else level_of[size]
        starts.append(SectionStart(text, level, number, lines[number][index].y0, index))
    return starts


# -- splitting the text ---------------------------------------------------------------------------------

def _line_index(start: SectionStart, lines: list[Line]) -> int:
    if start.line is not None:
        return start.line
    return _line_below(lines, start.y) if start.y > 0 else 0


def _with_paths(starts: list[SectionStart]) -> list[Section]:
    """Sections with their breadcrumb paths, in outline order (the order the levels nest in)."""
    sections: list[Section] = []
    trail: list[tuple[int, str]] = []
    for start in starts:
        while trail and trail[-1][0] >= start.level:
            trail.pop()
        trail.append((start.level, start.title))
        sections.append(Section(start.title, start.level, [t for _, t in trail], start.page, start.page))
    return sections


def _continues_onto(line: Line, number: int, following: tuple[int, int] | None, page: list[Line]) -> bool:
    """Whether a line shows that the running section goes on to page `number`: not when the next
    section starts on that page and the line sits below its heading (a page number drawn first)."""
    if following is None or following[0] != number or following[1] >= len(page):
        return True
    return line.y0 < page[following[1]].y0 + 1.0


def split_sections(starts: list[SectionStart], lines: dict[int, list[Line]], doc_title: str) -> list[Section]:
    """Assign every line to the section that starts last before it; every start is a section
    (one without text keeps its title), and text before the first start is the front matter."""
    sections = _with_paths(starts)
    positions = [(start.page, _line_index(start, lines.get(start.page, []))) for start in starts]
    order = sorted(range(len(starts)), key=lambda i: positions[i])
    front = Section(doc_title or "Front matter", 1, [doc_title or "Front matter"], 1, 1)
    current = -1
    for number in sorted(lines):
        page = lines[number]
        for index, line in enumerate(page):
            while current + 1 < len(order) and positions[order[current + 1]] <= (number, index):
                current += 1
            target = sections[order[current]] if current >= 0 else front
            target.text_parts.append(line.text)
            following = positions[order[current + 1]] if current + 1 < len(order) else None
            if _continues_onto(line, number, following, page):
                target.end_page = max(target.end_page, number)
    ordered = [sections[i] for i in order]
    return [front, *ordered] if front.text_parts else ordered
