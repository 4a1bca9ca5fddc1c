"""Where a note sits: by the words it quotes, not by coordinates alone.

A note remembers its quote, up to 32 characters either side and the offset in the page's
normalised text (the W3C Web Annotation selectors), so when the file changes (a page inserted,
text reflowed, a sentence cut) the note is found again by its words, or honestly reported as
orphaned instead of being drawn over the wrong text. Text is compared NFKC-normalised with
whitespace collapsed: PDF ligatures ("ﬁ"), Arabic presentation forms and line breaks must not
decide whether a quote matches what the page says.

A scanned page has no text layer to read; once recognised, its words (with their boxes in
unrotated page points, as `get_text("words")` gives them) are kept by the index, which this layer
may not import. So every entry point takes an optional `words_of(page)` from the caller that can
read them: a page it answers for is read from those words, every other page from the PDF.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pymupdf

from pdfdesk.core.documents import PAGE_ERRORS, OpenedPdf
from pdfdesk.core.errors import INVALID_PAGE, VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.lru import LRU
from pdfdesk.core.text import page_text, text_page
from pdfdesk.review.records import CONTEXT_CHARS, Annotation, Rect
from pdfdesk.review.store import AnnotationStore

MAX_QUOTE_CHARS = 20_000
MAPPED_PAGES = 32  # per document: a page's character boxes take ~100 bytes a character
_SPACE = re.compile(r"\s+")
_HINT = "Give the text exactly as it appears on that page (or select it in the viewer), or give a rect."
# A page's words from elsewhere than its text layer (recognised by OCR): (x0, y0, x1, y1, text,
# block, line, ...) in unrotated page points, in reading order; None: read the page's text layer.
WordsOf = Callable[[int], "Sequence[Sequence[Any]] | None"]


def normalise(text: str) -> str:
    """NFKC with every run of whitespace one space: the form quotes are compared in."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def _loose(text: str) -> tuple[str, list[int]]:
    """`text` without spaces and lower-cased character by character, with each character's
    offset in `text`: the last resort for quotes whose spacing or case differs (CJK lines that
    extraction joins with a space, a quote retyped in other case)."""
    chars: list[str] = []
    where: list[int] = []
    for index, char in enumerate(text):
        if char == " ":
            continue
        lower = char.lower()
        chars.append(lower if len(lower) == 1 else char)
        where.append(index)
    return "".join(chars), where


@dataclass(frozen=True)
class Anchor:
    """Where a quote (or area) was found: what a note stores to be found again."""

    page: int
    rects: tuple[Rect, ...]
    quote: str
    prefix: str
    suffix: str
    start: int | None


@dataclass
class PageMap:
    """A page's normalised text with, for each character, its box and line (None/-1 for the
    spaces normalising put between words and lines)."""

    text: str
    boxes: list[Rect | None]
    lines: list[int]

    def rects(self, start: int, end: int) -> tuple[Rect, ...]:
        """One rectangle per line the span [start, end) covers, in reading order."""
        order: list[int] = []
        spans: dict[int, list[float]] = {}
        for index in range(start, end):
            box, line = self.boxes[index], self.lines[index]
            if box is None:
                continue
            if line not in spans:
                order.append(line)
                spans[line] = list(box)
            else:
                span = spans[line]
                span[0], span[1] = min(span[0], box[0]), min(span[1], box[1])
                span[2], span[3] = max(span[2], box[2]), max(span[3], box[3])
        return tuple((s[0], s[1], s[2], s[3]) for s in (spans[line] for line in order))


def _words_map(words: Sequence[Sequence[Any]]) -> PageMap:
    """The map of a page known by its words only: each character gets its share of its word's
    box (along the line when the word runs across the page; the whole box when it runs down), so
    a quote's rects cover its words as a text layer's characters would."""
    chars: list[str] = []
    boxes: list[Rect | None] = []
    lines: list[int] = []
    line_no = 0
    previous: tuple[Any, Any] | None = None
    for word in words:
        x0, y0, x1, y1 = (float(v) for v in word[:4])
        pieces = [c for c in unicodedata.normalize("NFKC", str(word[4])) if not c.isspace()]
        if not pieces:
            continue
        key = (word[5], word[6]) if len(word) > 6 else (0, 0)
        if key != previous:
            line_no += 1
            previous = key
        if chars:
            chars.append(" ")
            boxes.append(None)
            lines.append(-1)
        across = x1 - x0 >= y1 - y0
        step = (x1 - x0) / len(pieces)
        for index, piece in enumerate(pieces):
            chars.append(piece)
            boxes.append((x0 + index * step, y0, x0 + (index + 1) * step, y1) if across else (x0, y0, x1, y1))
            lines.append(line_no)
    return PageMap("".join(chars), boxes, lines)


def _build_map(page: pymupdf.Page) -> PageMap:
    chars: list[str] = []
    boxes: list[Rect | None] = []
    lines: list[int] = []
    line_no = 0
    pending = False
    raw = page.get_text("rawdict", textpage=text_page(page))
    for block in raw.get("blocks", ()):
        for line in block.get("lines", ()):
            line_no += 1
            pending = bool(chars)
            for span in line.get("spans", ()):
                for char in span.get("chars", ()):
                    box = tuple(char["bbox"])
                    for piece in unicodedata.normalize("NFKC", char["c"]):
                        if piece.isspace():
                            pending = bool(chars)
                            continue
                        if pending:
                            chars.append(" ")
                            boxes.append(None)
                            lines.append(-1)
                            pending = False
                        chars.append(piece)
                        boxes.append(box)
                        lines.append(line_no)
    return PageMap("".join(chars), boxes, lines)


class PageTexts:
    """The normalised text of an open document's pages, built lazily and kept while it is open:
    a cheap plain text to rule pages out, and a character map for pages that may hold a quote.
    Pages `words_of` answers for (recognised scans) are read from those words instead."""

    def __init__(self, doc: pymupdf.Document, words_of: WordsOf | None = None) -> None:
        self.doc = doc
        self.words_of = words_of
        self._loose: dict[int, str] = {}
        self._maps: LRU[int, PageMap] = LRU(MAPPED_PAGES)

    @property
    def page_count(self) -> int:
        return self.doc.page_count

    def words(self, page: int) -> Sequence[Sequence[Any]] | None:
        """The page's words from `words_of`, or None when it is read from its text layer."""
        return self.words_of(page) if self.words_of is not None else None

    def loose_text(self, page: int) -> str:
        """Page text without spaces, lower-cased: a quote not in here is not on the page."""
        if page not in self._loose:
            words = self.words(page)
            text = " ".join(str(w[4]) for w in words) if words is not None \
                else page_text(self.doc.load_page(page - 1))
            self._loose[page] = _loose(normalise(text))[0]
        return self._loose[page]

    def page_map(self, page: int) -> PageMap:
        return self._maps.get_or_make(page, lambda: self._make_map(page))

    def _make_map(self, page: int) -> PageMap:
        words = self.words(page)
        return _words_map(words) if words is not None else _build_map(self.doc.load_page(page - 1))

    def words_in(self, page: int, area: Rect) -> list[str]:
        """The words lying (mostly) inside `area`, in reading order."""
        box = pymupdf.Rect(area)
        words = self.words(page)
        if words is None:
            pdf_page = self.doc.load_page(page - 1)
            words = pdf_page.get_text("words", textpage=text_page(pdf_page))
        return [str(w[4]) for w in words if _mostly_inside(pymupdf.Rect(*(float(v) for v in w[:4])), box)]

    def text(self, page: int) -> str:
        """The page's normalised text (what `start` offsets count in)."""
        return self.page_map(page).text


_TEXTS_KEPT = 4  # documents; PyMuPDF's documents take no weak references, so a few are held
_texts: LRU[int, PageTexts] = LRU(_TEXTS_KEPT)


def page_texts(doc: pymupdf.Document | PageTexts, words_of: WordsOf | None = None) -> PageTexts:
    """The document's PageTexts, reused while the same (cached) document stays open; callers
    hold the MuPDF lock, which also guards this cache. With `words_of` a fresh one: recognised
    words change while the document stays open (a page recognised, or recognised again)."""
    if isinstance(doc, PageTexts):
        return doc
    if words_of is not None:
        return PageTexts(doc, words_of)
    texts = _texts.get(id(doc))
    if texts is None or texts.doc is not doc or doc.is_closed:
        texts = PageTexts(doc)
        _texts.put(id(doc), texts)
    return texts


def occurrences(page_map: PageMap, quote: str) -> tuple[int, list[tuple[int, int]]]:
    """(how loose the match had to be: 0 exact, 1 any case, 2 any spacing, and every (start,
    end) in the page's normalised text); (3, []) when the quote is not there."""
    text = page_map.text
    spans = [(m.start(), m.start() + len(quote)) for m in re.finditer(re.escape(quote), text)]
    if spans:
        return 0, spans
    spans = [(m.start(), m.end()) for m in re.finditer(re.escape(quote), text, re.IGNORECASE)]
    if spans:
        return 1, spans
    loose_text, where = _loose(text)
    needle = _loose(quote)[0]
    if needle:
        spans = [(where[m.start()], where[m.start() + len(needle) - 1] + 1)
                 for m in re.finditer(re.escape(needle), loose_text)]
    return (2, spans) if spans else (3, [])


def _anchor(page: int, page_map: PageMap, start: int, end: int) -> Anchor:
    text = page_map.text
    return Anchor(page, page_map.rects(start, end), text[start:end],
                  text[max(0, start - CONTEXT_CHARS):start], text[end:end + CONTEXT_CHARS], start)


def _centre(rect: Rect) -> tuple[float, float]:
    return (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2


def _distance(rects: Sequence[Rect], near: Sequence[Rect]) -> tuple[float, float]:
    """How far an occurrence is from the selection: overlap first (more is nearer), then the
    distance between the closest centres, a line apart counting more than a word apart."""
    overlap = 0.0
    best = float("inf")
    for rect in rects:
        x, y = _centre(rect)
        for other in near:
            width = min(rect[2], other[2]) - max(rect[0], other[0])
            height = min(rect[3], other[3]) - max(rect[1], other[1])
            if width > 0 and height > 0:
                overlap += width * height
            ox, oy = _centre(other)
            best = min(best, (x - ox) ** 2 + 100 * (y - oy) ** 2)
    return -overlap, best


def _check_page(texts: PageTexts, page: int) -> None:
    if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= texts.page_count:
        raise PdfDeskError(INVALID_PAGE, f"Page {page} does not exist; the document has "
                           f"{texts.page_count} page(s).", f"Give a page from 1 to {texts.page_count}.")


def _quote_of(quote: str) -> str:
    wanted = normalise(str(quote))
    if not wanted:
        raise PdfDeskError(VALIDATION_ERROR, "The quote is empty.", _HINT)
    if len(wanted) > MAX_QUOTE_CHARS:
        raise PdfDeskError(VALIDATION_ERROR, f"The quote is longer than {MAX_QUOTE_CHARS:,} characters.",
                           "Quote a shorter passage; a note can cover a page with a rect instead.")
    return wanted


def anchor_quote(doc: pymupdf.Document | PageTexts, page: int, quote: str, near: Sequence[Rect] = (),
                 words_of: WordsOf | None = None) -> Anchor:
    """Anchor `quote` on `page` (1-based): the occurrence nearest `near` (the selection's rects)
    when it occurs more than once, else the first."""
    texts = page_texts(doc, words_of)
    _check_page(texts, page)
    wanted = _quote_of(quote)
    page_map = texts.page_map(page)
    _, spans = occurrences(page_map, wanted)
    if not spans:
        shown = wanted if len(wanted) <= 80 else wanted[:80] + "…"
        raise PdfDeskError(VALIDATION_ERROR, f"The quote {shown!r} is not on page {page}.", _HINT)
    if near and len(spans) > 1:
        spans.sort(key=lambda span: _distance(page_map.rects(*span), near))
    return _anchor(page, page_map, *spans[0])


def _mostly_inside(word: pymupdf.Rect, area: pymupdf.Rect) -> bool:
    """A word belongs to an area when at least half of it lies inside."""
    return (word & area).get_area() >= 0.5 * max(word.get_area(), 1e-9)


def anchor_area(doc: pymupdf.Document | PageTexts, page: int, rect: Rect,
                words_of: WordsOf | None = None) -> Anchor:
    """Anchor a rectangle (a figure, a table, a scanned passage); its quote is the words inside,
    so it can follow them to another page later, and may be empty."""
    texts = page_texts(doc, words_of)
    _check_page(texts, page)
    quote = normalise(" ".join(texts.words_in(page, rect)))
    box: Rect = (rect[0], rect[1], rect[2], rect[3])
    if quote:
        page_map = texts.page_map(page)
        _, spans = occurrences(page_map, quote)
        if spans:
            spans.sort(key=lambda span: _distance(page_map.rects(*span), (box,)))
            found = _anchor(page, page_map, *spans[0])
            return Anchor(page, (box,), found.quote, found.prefix, found.suffix, found.start)
    return Anchor(page, (box,), quote, "", "", None)


def _context_score(ann: Annotation, text: str, start: int, end: int) -> float:
    """How much of the note's remembered prefix and suffix surround this occurrence (0..1)."""
    prefix, suffix = normalise(ann.prefix), normalise(ann.suffix)
    if not prefix and not suffix:
        return 1.0
    before, after = text[max(0, start - len(prefix) - 1):start].rstrip(), text[end:end + len(suffix) + 1].lstrip()
    prefix = prefix.rstrip()
    suffix = suffix.lstrip()
    same_before = 0
    while same_before < min(len(prefix), len(before)) and prefix[-1 - same_before] == before[-1 - same_before]:
        same_before += 1
    same_after = 0
    while same_after < min(len(suffix), len(after)) and suffix[same_after] == after[same_after]:
        same_after += 1
    return (same_before + same_after) / max(1, len(prefix) + len(suffix))


def reanchor(doc: pymupdf.Document | PageTexts, ann: Annotation, words_of: WordsOf | None = None) -> Anchor | None:
    """Find the note again in a changed version: exact text first, then the occurrence whose
    prefix/suffix fit best, then the one nearest its old page. None: the quote is gone."""
    texts = page_texts(doc, words_of)
    count = texts.page_count
    if not ann.quote.strip():
        if 1 <= ann.page <= count:
            return Anchor(ann.page, ann.rects, ann.quote, ann.prefix, ann.suffix, ann.start)
        return None
    wanted = normalise(ann.quote)
    needle = _loose(wanted)[0]
    old = min(max(ann.page, 1), count)
    best: tuple[tuple, Anchor] | None = None
    for page in sorted(range(1, count + 1), key=lambda p: (abs(p - old), p)):
        distance = abs(page - old)
        if best is not None and best[0][:2] == (0, -1.0) and distance > best[0][2]:
            break  # a perfect match nearer the old page than anything left to look at
        try:
            if needle not in texts.loose_text(page):
                continue
            page_map = texts.page_map(page)
        except PAGE_ERRORS:  # a damaged or hostile page cannot hold the note
            continue
        level, spans = occurrences(page_map, wanted)
        for start, end in spans:
            shift = abs(start - ann.start) if (ann.start is not None and page == ann.page) else 0
            key = (level, -_context_score(ann, page_map.text, start, end), distance, shift)
            if best is None or key < best[0]:
                best = (key, _anchor(page, page_map, start, end))
    if best is None:
        return None
    found = best[1]
    if ann.kind == "area" and found.rects:
        box = pymupdf.Rect(found.rects[0])
        for rect in found.rects[1:]:
            box |= pymupdf.Rect(rect)
        return Anchor(found.page, ((box.x0, box.y0, box.x1, box.y1),), found.quote, found.prefix,
                      found.suffix, found.start)
    return found


def document_path(opened: OpenedPdf) -> str:
    """The path a note remembers: the file as it was opened (absolute), or the URL it came from."""
    source = opened.source
    return str(source.path.absolute()) if source.path is not None else source.display


def sync(store: AnnotationStore, opened: OpenedPdf, words_of: WordsOf | None = None,
         unread: Collection[int] = ()) -> list[Annotation]:
    """The notes of an opened document, each re-anchored when it was made on another version
    (moved, anchored or orphaned) and the result stored; orphaned notes keep everything.
    `words_of` gives this version's recognised pages (its scans' words); while some pages are
    `unread` (scans waiting for recognition) a note not found yet is left as it was, not orphaned:
    its words may be on one of them."""
    fingerprint, path = opened.fingerprint, document_path(opened)
    texts = page_texts(opened.doc, words_of)
    result: list[Annotation] = []

    def save(ann: Annotation, **fields: Any) -> Annotation:
        # on a disk that cannot be written the new places are shown, and found again next time
        return replace(ann, **fields) if store.read_only else store.update(ann.id, **fields)

    for ann in store.for_document(fingerprint, path):
        if ann.source != "pdfdesk" or (ann.fingerprint == fingerprint and ann.status != "orphaned"):
            if ann.source == "pdfdesk" and ann.path != path:
                ann = save(ann, path=path)
            result.append(ann)
            continue
        anchor = reanchor(texts, ann)
        if anchor is None and unread:
            pass  # looked for again once those pages are read
        elif anchor is None:
            if ann.status != "orphaned":
                ann = save(ann, status="orphaned")
        else:
            status = "moved" if anchor.page != ann.page else "anchored"
            ann = save(ann, page=anchor.page, rects=tuple(anchor.rects), quote=anchor.quote,
                       prefix=anchor.prefix, suffix=anchor.suffix, start=anchor.start,
                       status=status, fingerprint=fingerprint, path=path)
        result.append(ann)
    result.sort(key=lambda a: (a.page, a.top, a.created))
    return result

