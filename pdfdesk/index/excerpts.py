"""Excerpts and hit rectangles for one result page, read from the PDF at answer time.

Paragraph excerpts are the text block holding the first hit (blocks under 80 characters, such as
running heads, are passed over; a block over 2,000 characters falls back to a snippet). Snippets
are `context_chars` either side of the first hit. Hit rectangles are the words that match the
query after stemming, so "agreed" highlights "agree" too. A page's layout (words with their index
terms, text blocks) is cached per document version, so paging through results or refining a
query does not re-read the PDF.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property

import pymupdf

from pdfdesk.core.lru import SharedLRU
from pdfdesk.core.text import passage_rects, text_page
from pdfdesk.index.analysis import analyze, fold, has_arabic, has_cjk, has_presentation_forms
from pdfdesk.index.page_text import (
    PageTextStore,
    Word,
    set_in_presentation_forms,
    shaped_text_page,
    stored_page,
)
from pdfdesk.index.query_terms import QueryTerms

MIN_PARAGRAPH_CHARS = 80
MAX_PARAGRAPH_CHARS = 2000
MAX_RECTS = 200
LAYOUT_CACHE_PAGES = 512
_STRIP = ".,;:!?()[]{}\"'“”‘’"


@dataclass
class PageHits:
    rects: list[list[float]]
    excerpt: str
    excerpt_style: str
    words: tuple[str, ...] = ()  # the page's words at the rectangles, as printed


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class PageLayout:
    words: list[tuple[Box, str, str, frozenset[str]]]  # rect, word, lowered, terms
    blocks: list[tuple[Box, str]]
    text: str  # the blocks joined, for snippets and CJK substring search

    @cached_property
    def by_term(self) -> dict[str, tuple[int, ...]]:
        """The positions in `words` of the words holding each index term: a page's hits are looked
        up, not found by testing each of its words against every query that shows the page."""
        found: dict[str, list[int]] = {}
        for at, (_rect, _word, _lowered, terms) in enumerate(self.words):
            for term in terms:
                found.setdefault(term, []).append(at)
        return _frozen_positions(found)

    @cached_property
    def by_lowered(self) -> dict[str, tuple[int, ...]]:
        """The positions in `words` of each word as folded (for prefixes and glued Arabic words)."""
        found: dict[str, list[int]] = {}
        for at, (_rect, _word, lowered, _terms) in enumerate(self.words):
            found.setdefault(lowered, []).append(at)
        return _frozen_positions(found)


def _frozen_positions(positions: dict[str, list[int]]) -> dict[str, tuple[int, ...]]:
    """Tuples of numbers, which the garbage collector stops tracking (lists it walks on every full
    collection, and hundreds of cached pages hold a few hundred each)."""
    return {key: tuple(found) for key, found in positions.items()}


_layouts: SharedLRU[tuple[str, int], PageLayout] = SharedLRU(LAYOUT_CACHE_PAGES)


def page_layout(page: pymupdf.Page, key: tuple[str, int] | None = None) -> PageLayout:
    """Words and blocks of a page; cached under `key` (fingerprint, page number) when given, and
    then taken from the page-text record when it holds the page's words (reading the text layer
    again costs a library search more than the whole ranking)."""
    if key is None:
        return _read_layout(page)
    return _layouts.get_or_make(key, lambda: _stored_layout(*key) or _read_layout(page))


def _stored_layout(fingerprint: str, number: int) -> PageLayout | None:
    record = stored_page(fingerprint, number)
    if record is None or not record.words:  # a text layer's words, or those recognised on a scan
        return None
    return layout_of_words(record.words)


def prime_layouts(fingerprint: str, numbers: list[int]) -> None:
    """Read the layouts of several result pages of one document from the record in one query."""
    wanted = [n for n in numbers if (fingerprint, n) not in _layouts]
    if len(wanted) < 2:
        return
    try:
        records = PageTextStore().pages(fingerprint, wanted)
    except OSError:
        return
    for number, record in records.items():
        if record.words:
            _layouts.put((fingerprint, number), layout_of_words(record.words))


def layout_of_words(found: tuple[Word, ...]) -> PageLayout:
    """A page's layout from its recorded words: each block's text is its lines, words spaced."""
    words = []
    lines: dict[tuple[int, int], list[str]] = {}
    boxes: dict[int, list[float]] = {}
    terms: dict[str, frozenset[str]] = {}  # a page says most of its words several times
    for word in found:
        x0, y0, x1, y1 = word.box
        shown = _shown(word.text)
        lowered = fold(word.text).strip(_STRIP)
        if lowered:
            if lowered not in terms:
                terms[lowered] = frozenset(analyze(lowered))
            words.append((word.box, shown, lowered, terms[lowered]))
        lines.setdefault((word.block, word.line), []).append(shown)
        box = boxes.setdefault(word.block, [x0, y0, x1, y1])
        box[:] = [min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)]
    texts: dict[int, list[str]] = {}
    for (block, _line), parts in lines.items():
        texts.setdefault(block, []).append(" ".join(parts))
    blocks = [((boxes[b][0], boxes[b][1], boxes[b][2], boxes[b][3]), "\n".join(texts[b])) for b in texts]
    return PageLayout(words, blocks, "\n".join(text for _, text in blocks))


def _read_layout(page: pymupdf.Page) -> PageLayout:
    """One pass over the page's text layer gives both the words (for hits) and the blocks (for
    excerpts); a page set in Arabic presentation forms is read with its forms kept, as the
    page-text record reads it, and shown in its letters."""
    textpage = text_page(page)
    found = page.get_text("blocks", textpage=textpage)
    if has_arabic("".join(b[4] for b in found)) and set_in_presentation_forms(page, textpage):
        textpage = shaped_text_page(page)
        found = page.get_text("blocks", textpage=textpage)
    words = []
    for x0, y0, x1, y1, word, *_ in page.get_text("words", textpage=textpage):
        lowered = fold(word).strip(_STRIP)
        if lowered:
            words.append(((x0, y0, x1, y1), _shown(word), lowered, frozenset(analyze(lowered))))
    blocks = [(tuple(b[:4]), _shown(b[4].strip())) for b in found if b[6] == 0 and b[4].strip()]
    return PageLayout(words, blocks, "\n".join(text for _, text in blocks))


def _shown(text: str) -> str:
    """Arabic read in its presentation forms, shown in its letters, as a reader copies it."""
    return unicodedata.normalize("NFKC", text) if has_presentation_forms(text) else text


def hit_rects(page: pymupdf.Page, layout: PageLayout, terms: QueryTerms) -> tuple[list[Box], list[str]]:
    """Rectangles of the words (and CJK strings) the query matches on this page, and those words."""
    stems = terms.stems
    rects: list[Box] = []
    words: list[str] = []
    for needle in terms.needles:
        if has_cjk(needle) and needle in layout.text:
            found = page.search_for(needle)[:MAX_RECTS]
            rects.extend((r.x0, r.y0, r.x1, r.y1) for r in found)
            words.extend([needle] * len(found))
    # Arabic words glued together on the page (no spaces in the text layer) hold the typed word inside
    arabic = [needle for needle in terms.needles if has_arabic(needle)]
    prefixes = terms.prefixes
    held: set[int] = set()
    for term in stems & layout.by_term.keys():
        held.update(layout.by_term[term])
    if prefixes or (arabic and stems):
        for lowered, positions in layout.by_lowered.items():
            if any(lowered.startswith(p) for p in prefixes) or any(needle in lowered for needle in arabic):
                held.update(positions)
    for at in sorted(held)[:max(0, MAX_RECTS - len(rects))]:
        rects.append(layout.words[at][0])
        words.append(layout.words[at][1])
    return rects, words


def _snippet(text: str, at: int, context: int) -> str:
    start, end = max(0, at - context), min(len(text), at + context)
    piece = re.sub(r"\s+", " ", text[start:end]).strip()
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")


def _first_hit_offset(text: str, terms: QueryTerms, hit_words: list[str]) -> int:
    lowered = text.lower()
    for needle in hit_words[:3] + terms.needles + terms.prefixes:
        at = lowered.find(needle.lower())
        if at >= 0:
            return at
    return 0


def page_hits(page: pymupdf.Page, terms: QueryTerms, style: str, context_chars: int,
              key: tuple[str, int] | None = None) -> PageHits:
    """Hit rectangles and an excerpt for one page."""
    layout = page_layout(page, key)
    rects, hit_words = hit_rects(page, layout, terms)
    if style == "paragraph":
        for box, text in layout.blocks:
            if len(text) < MIN_PARAGRAPH_CHARS:
                continue
            if any(_overlap(box, r) for r in rects):
                if len(text) <= MAX_PARAGRAPH_CHARS:
                    return PageHits(_as_lists(rects), re.sub(r"[ \t]*\n[ \t]*", " ", text), "paragraph",
                                    tuple(hit_words))
                return PageHits(_as_lists(rects), _snippet(text, _first_hit_offset(text, terms, hit_words),
                                                           context_chars), "snippet", tuple(hit_words))
    text = layout.text
    return PageHits(_as_lists(rects), _snippet(text, _first_hit_offset(text, terms, hit_words), context_chars),
                    "snippet", tuple(hit_words))


def _as_lists(rects: list[Box]) -> list[list[float]]:
    return [[round(x0, 1), round(y0, 1), round(x1, 1), round(y1, 1)] for x0, y0, x1, y1 in rects]


def _overlap(a: Box, b: Box) -> bool:
    """Whether two rectangles share an area (as `pymupdf.Rect.intersects`, without making Rects:
    a search shows hundreds of words)."""
    return (a[0] < a[2] and a[1] < a[3] and b[0] < b[2] and b[1] < b[3]
            and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


PASSAGE_HIGHLIGHT_WORDS = 25


def passage_hits(page: pymupdf.Page, passage: str, style: str, context_chars: int,
                 key: tuple[str, int] | None = None) -> PageHits:
    """A meaning-based match: highlight the passage's opening words; excerpt its paragraph."""
    layout = page_layout(page, key)
    wanted = [w.lower().strip(_STRIP) for w in passage.split()[:PASSAGE_HIGHLIGHT_WORDS]]
    wanted = [w for w in wanted if w]
    start = None
    if wanted:  # where the passage's first three words stand in a row, looked up by the first
        words = layout.words
        start = next((at for at in layout.by_lowered.get(wanted[0], ())
                      if [word[2] for word in words[at:at + 3]] == wanted[:3]), None)
    rects: list[Box] = []
    if start is not None:
        rects = [w[0] for w in layout.words[start:start + len(wanted)]]
    elif wanted:  # not at a word's start (Chinese or Japanese passages begin inside a line): MuPDF's search
        rects = passage_rects(page, passage)
    if style == "paragraph" and rects:
        for box, text in layout.blocks:
            if len(text) >= MIN_PARAGRAPH_CHARS and _overlap(box, rects[0]):
                if len(text) <= MAX_PARAGRAPH_CHARS:
                    return PageHits(_as_lists(rects), re.sub(r"[ \t]*\n[ \t]*", " ", text), "paragraph")
                break
    text = re.sub(r"\s+", " ", passage).strip()
    limit = max(2 * context_chars, 40)
    excerpt = text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
    return PageHits(_as_lists(rects), excerpt, "snippet")
