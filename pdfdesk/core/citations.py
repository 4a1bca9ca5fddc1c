"""The page-citation syntax answers use: `[p. 3]`, `[pp. 3, 5]`, `[report.pdf; p. 4]`, `[a.pdf p. 2; b.pdf p. 7]`.

The agent (which turns citations into events) and the chat pane (which turns them into links) read
answers with this one parser, so whatever the model may write is both recorded and clickable.
A bracket inside quoted material is left alone: an inline code span, a fenced code block, a
fenced document excerpt (`<<<PDF_CONTENT …>>>`), a Markdown blockquote line, or a passage in
quotation marks (“curly”, «guillemets» or "straight" ones opened after a space or punctuation, so
an inch mark such as 5" opens nothing). That is text quoted from a document, and a document must
not be able to plant citations. Whether a bracket counts depends only on the text before it, so a
streamed answer gives the same citations as the finished one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# One cited item: an optional file name (ending in .pdf), a page word, and page numbers or ranges.
_ITEM = re.compile(
    r"(?:(?P<file>[^\[\]\n]{1,200}?\.pdf)\s*[,:;]?\s*)?(?:pp?\.|pages?)\s*"
    r"(?P<pages>\d{1,6}(?:\s*(?:[-–—]|,|and|&)\s*\d{1,6}){0,20})",
    re.IGNORECASE,
)
_ITEM_SEPARATOR = re.compile(r"\s*(?:;|,|and|&)\s*", re.IGNORECASE)
_BRACKET = re.compile(r"\[\s*([^\[\]\n]{1,600}?)\s*\]")
_PAGE_TOKEN = re.compile(r"\d{1,6}(?:\s*[-–—]\s*\d{1,6})?")
_FENCE_LINE = re.compile(r"^\s*```")
_DOCUMENT_OPEN = re.compile(r"^\s*<<<PDF_CONTENT\b")
_DOCUMENT_CLOSE = re.compile(r"^\s*<<<END_PDF_CONTENT\b")
_BLOCKQUOTE = re.compile(r"^ {0,3}>")
_CLOSERS = {"`": "`", "“": "”", "«": "»", '"': '"'}
_QUOTE_SIGNS = frozenset("`“«\"")


@dataclass(frozen=True)
class CitedPages:
    """One page or range of one cited item; `start`/`end` locate its number(s) in the text."""

    file: str | None
    first: int
    last: int
    start: int
    end: int


@dataclass(frozen=True)
class CitationMark:
    """A whole bracket (`start`..`end` in the text) and what it cites, in reading order."""

    start: int
    end: int
    pages: tuple[CitedPages, ...]


def _parse_pages(spec: str, offset: int, file: str | None) -> list[CitedPages]:
    found = []
    for token in _PAGE_TOKEN.finditer(spec):
        bounds = [int(n) for n in re.split(r"\s*[-–—]\s*", token.group())]
        first, last = bounds[0], bounds[-1]
        if last < first:
            last = first
        found.append(CitedPages(file, first, last, offset + token.start(), offset + token.end()))
    return found


def parse_bracket(inner: str, offset: int = 0) -> tuple[CitedPages, ...]:
    """The pages cited by the inside of one bracket, or () when it is not a citation.

    A later item without a file name cites the same file as the item before it."""
    pages: list[CitedPages] = []
    position, file = 0, None
    while True:
        item = _ITEM.match(inner, position)
        if item is None:
            return ()
        if item.group("file"):
            file = item.group("file").strip()
        pages += _parse_pages(item.group("pages"), offset + item.start("pages"), file)
        position = item.end()
        if position == len(inner):
            return tuple(pages)
        separator = _ITEM_SEPARATOR.match(inner, position)
        if separator is None or separator.end() == len(inner):
            return ()
        position = separator.end()


def _opens_quote(line: str, index: int) -> bool:
    """Whether the mark at `index` opens a quotation: a straight quote only after a space, the line
    start or an opening punctuation mark (after a letter or digit it is an inch mark or a typo)."""
    if line[index] != '"':
        return line[index] in _CLOSERS
    return index == 0 or line[index - 1].isspace() or line[index - 1] in "([{—–-:/"


def _line_spans(line: str, offset: int) -> list[tuple[int, int]]:
    """Code spans and quotations on one line; one still open at the line's end covers the rest."""
    spans: list[tuple[int, int]] = []
    opened: tuple[str, int] | None = None
    for index, char in enumerate(line):
        if opened is None:
            if char in _CLOSERS and _opens_quote(line, index):
                opened = (char, offset + index)
        elif char == _CLOSERS[opened[0]]:
            spans.append((opened[1], offset + index + 1))
            opened = None
    if opened is not None:
        spans.append((opened[1], offset + len(line)))
    return spans


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    """Where quoted material sits (a quotation, code span or block still open at a position covers
    it, so the rule holds while text streams in)."""
    spans: list[tuple[int, int]] = []
    in_fence = in_document = False
    offset = 0
    for line in text.splitlines(keepends=True):
        end = offset + len(line)
        if not in_document and _FENCE_LINE.match(line):
            in_fence = not in_fence
            spans.append((offset, end))
        elif not in_fence and _DOCUMENT_OPEN.match(line):
            in_document = True
            spans.append((offset, end))
        elif in_document:
            in_document = not _DOCUMENT_CLOSE.match(line)
            spans.append((offset, end))
        elif in_fence or _BLOCKQUOTE.match(line):
            spans.append((offset, end))
        else:
            spans += _line_spans(line, offset)
        offset = end
    return spans


def find_citations(text: str) -> list[CitationMark]:
    """Every citation bracket in `text` outside quoted material, in order."""
    quoted = _quoted_spans(text) if (_QUOTE_SIGNS & set(text) or ">" in text or "<<<" in text) else []
    marks = []
    for bracket in _BRACKET.finditer(text):
        if any(start <= bracket.start() < end for start, end in quoted):
            continue
        pages = parse_bracket(bracket.group(1), bracket.start(1))
        if pages:
            marks.append(CitationMark(bracket.start(), bracket.end(), pages))
    return marks


def expand(cited: CitedPages, max_pages: int) -> list[int]:
    """The pages of one cited item; a long range gives its first `max_pages` pages only."""
    return list(range(cited.first, min(cited.last, cited.first + max_pages - 1) + 1))
