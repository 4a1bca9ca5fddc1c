"""Page specs: "3", "1-5", "1,3,5-7" (spaces allowed) to a sorted, de-duplicated list of pages.

A spec is a set of pages, never a min..max span: "1,3,5-7" is pages 1, 3, 5, 6 and 7. A reversed
range ("7-5") means the same pages as "5-7". Pages are 1-based; 0 and pages past the end are
`invalid_page`, anything malformed is `invalid_page_range`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

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
    for raw in spec.split(","):
        part = raw.strip()
        if not part:
            raise _bad_spec(spec, "it has an empty part between commas")
        match = _PART.match(part)
        if not match:
            raise _bad_spec(spec, f"{part!r} is neither a page number nor a range like 5-7")
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        low, high = min(first, last), max(first, last)
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
