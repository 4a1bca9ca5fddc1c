"""Page specs: "3", "1-5", "1,3,5-7" (spaces allowed) to a sorted, de-duplicated list of pages.

A spec is a set of pages, never a min..max span: "1,3,5-7" is pages 1, 3, 5, 6 and 7. A reversed
range ("7-5") means the same pages as "5-7". Pages are 1-based; 0 and pages past the end are
`invalid_page`, anything malformed is `invalid_page_range`. `pages_within` applies one spec to
documents of different lengths: it keeps the pages a document has and names the rest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from pdfdesk.core.errors import INVALID_PAGE, INVALID_PAGE_RANGE, PdfDeskError

_PART = re.compile(r"^(\d+)(?:\s*-\s*(\d+))?$")
_SPEC_HINT = 'Use page numbers from 1, e.g. "3", "1-5" or "1,3,5-7".'


def _bad_spec(spec: object, why: str) -> PdfDeskError:
    return PdfDeskError(INVALID_PAGE_RANGE, f"Page spec {spec!r} is not valid: {why}.", _SPEC_HINT)


def _pages(count: int) -> str:
    return f"{count} page" + ("s" if count != 1 else "")


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def _check_page(page: int, page_count: int) -> None:
    if page < 1:
        raise PdfDeskError(INVALID_PAGE, f"There is no page {page}: pages are numbered from 1.", _SPEC_HINT)
    if page > page_count:
        raise PdfDeskError(
            INVALID_PAGE,
            f"Page {page} is past the end: the document has {_pages(page_count)}.",
            f"Ask for pages 1-{page_count}." if page_count > 1 else "Ask for page 1.",
            page_count=page_count,
        )


def _ranges(spec: str) -> Iterator[tuple[str, int, int]]:
    """Each part of a string spec as (part, low, high); a malformed part raises when reached."""
    for raw in spec.split(","):
        part = raw.strip()
        if not part:
            raise _bad_spec(spec, "it has an empty part between commas")
        match = _PART.match(part)
        if not match:
            raise _bad_spec(spec, f"{part!r} is neither a page number nor a range like 5-7")
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        yield part, min(first, last), max(first, last)


def parse_page_spec(spec: str | int | Iterable[int] | None, page_count: int) -> list[int]:
    """The pages a spec names, sorted and de-duplicated; None or "" means every page."""
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        return list(range(1, page_count + 1))
    if isinstance(spec, bool):
        raise _bad_spec(spec, "expected page numbers, not true/false")
    if isinstance(spec, int):
        _check_page(spec, page_count)
        return [spec]
    if not isinstance(spec, str):
        try:
            items = list(spec)
        except TypeError:
            raise _bad_spec(spec, "expected a string like \"1,3,5-7\" or a list of page numbers") from None
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in items):
            raise _bad_spec(spec, "a list of pages must hold whole numbers only")
        for page in items:
            _check_page(page, page_count)
        return sorted(set(items))
    pages: set[int] = set()
    for part, low, high in _ranges(spec):
        _check_page(low, page_count)
        if high > page_count:
            raise PdfDeskError(
                INVALID_PAGE,
                f"Pages {_span(page_count + 1, high)} of {part!r} are past the end: the document has "
                f"{_pages(page_count)}.",
                f"Ask for pages 1-{page_count}." if page_count > 1 else "Ask for page 1.",
                page_count=page_count,
            )
        pages.update(range(low, high + 1))
    return sorted(pages)


def pages_within(spec: str | int | Iterable[int] | None, page_count: int) -> tuple[list[int], str]:
    """The pages of `spec` a document of `page_count` pages has, and the spec of the requested pages
    past its end ("" when none): how one spec applies to several documents of different lengths.
    A page below 1 or a malformed spec is an error as in `parse_page_spec`."""
    if spec is None or isinstance(spec, bool) or (isinstance(spec, str) and not spec.strip()):
        return parse_page_spec(spec, page_count), ""
    if not isinstance(spec, str):
        try:
            items = [spec] if isinstance(spec, int) else list(spec)
        except TypeError:  # neither a spec nor pages: parse_page_spec says why
            return parse_page_spec(spec, page_count), ""
        past = {p for p in items if isinstance(p, int) and not isinstance(p, bool) and p > page_count}
        return parse_page_spec([p for p in items if p not in past], page_count), format_page_set(past)
    kept: set[int] = set()
    past_spans: list[tuple[int, int]] = []
    for _part, low, high in _ranges(spec):
        if low < 1:
            _check_page(low, page_count)
        if high > page_count:
            past_spans.append((max(low, page_count + 1), high))
        kept.update(range(low, min(high, page_count) + 1))
    return sorted(kept), _format_spans(past_spans)


def _format_spans(spans: list[tuple[int, int]]) -> str:
    """Spans as a compact spec without listing their pages one by one (a span may be huge)."""
    merged: list[list[int]] = []
    for low, high in sorted(spans):
        if merged and low <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    return ",".join(_span(low, high) for low, high in merged)


def format_page_set(pages: Iterable[int]) -> str:
    """The compact spec for a set of pages: [1,2,3,5] -> "1-3,5" (parse_page_spec's inverse)."""
    ordered = sorted(set(pages))
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ",".join(parts)
