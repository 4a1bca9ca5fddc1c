"""In-document find: hits arrive page by page from the worker; this keeps them in document order
and knows which one is current, so "n of m" and next/previous (with wrap-around) are cheap even
with tens of thousands of hits."""

from __future__ import annotations

import bisect

from pdfdesk.gui.viewer.page_data import Rect


class FindResults:
    def __init__(self, needle: str = "", generation: int = 0) -> None:
        self.needle = needle
        self.generation = generation
        self._hits: dict[int, list[Rect]] = {}
        self._pages: list[int] = []  # pages with hits, sorted
        self.searched = 0
        self.total_pages = 0
        self.current: tuple[int, int] | None = None  # (page, index of hit on that page)

    @property
    def done(self) -> bool:
        return self.total_pages > 0 and self.searched >= self.total_pages

    def add(self, hits: dict[int, list[Rect]], searched: int, total_pages: int) -> None:
        for page, rects in hits.items():
            if page not in self._hits:
                bisect.insort(self._pages, page)
            self._hits[page] = list(rects)
        self.searched, self.total_pages = searched, total_pages

    def count(self) -> int:
        return sum(len(rects) for rects in self._hits.values())

    def hits_on(self, page: int) -> list[Rect]:
        return self._hits.get(page, [])

    def current_number(self) -> int:
        """1-based position of the current hit in document order; 0 when there is none."""
        if self.current is None:
            return 0
        page, index = self.current
        before = bisect.bisect_left(self._pages, page)
        return sum(len(self._hits[p]) for p in self._pages[:before]) + index + 1

    def current_rect(self) -> Rect | None:
        if self.current is None:
            return None
        page, index = self.current
        return self._hits[page][index]

    def first_from(self, page: int) -> tuple[int, int] | None:
        """The first hit on `page` or after it, wrapping to the document's start."""
        if not self._pages:
            return None
        at = bisect.bisect_left(self._pages, page)
        return (self._pages[at % len(self._pages)], 0)

    def step(self, direction: int, from_page: int) -> tuple[int, int] | None:
        """Make the next (direction > 0) or previous hit current, wrapping around; returns it."""
        if not self._pages:
            self.current = None
            return None
        if self.current is None or self.current[0] not in self._hits:
            if direction > 0:
                self.current = self.first_from(from_page)
            else:
                at = bisect.bisect_right(self._pages, from_page) - 1
                page = self._pages[at % len(self._pages)]
                self.current = (page, len(self._hits[page]) - 1)
            return self.current
        page, index = self.current
        if direction > 0:
            if index + 1 < len(self._hits[page]):
                self.current = (page, index + 1)
            else:
                at = bisect.bisect_right(self._pages, page)
                self.current = (self._pages[at % len(self._pages)], 0)
        else:
            if index > 0:
                self.current = (page, index - 1)
            else:
                at = bisect.bisect_left(self._pages, page) - 1
                previous = self._pages[at % len(self._pages)]
                self.current = (previous, len(self._hits[previous]) - 1)
        return self.current
