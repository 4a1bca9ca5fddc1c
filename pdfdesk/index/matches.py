"""A search result as the index layer hands it on: typed, then decorated, then given to a tool.

Rankings create a `Match` for each page or section they find; merging them (keyword first,
meaning filling in) sets how it was found; decorating adds the excerpt and the rectangles to
highlight. The tools turn it into the JSON their `details` declare (`as_details`), so the shape a
front end reads is made in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PAGE, SECTION = "page", "section"


@dataclass
class Match:
    """One ranked page (or section) of one document."""

    granularity: str
    page: int
    score: float
    found_by: str                      # keyword, semantic, or both
    partial: bool = False              # holds only some of the query's words
    low_confidence: bool = False       # related in meaning only, and not strongly
    similarity: float | None = None    # the meaning score, where meaning found it
    passage: str | None = None         # the passage meaning found, to highlight it
    passage_page: int | None = None    # the page it is on (a section's may be any of its pages)
    related: frozenset[str] = frozenset()  # index terms of the question's synonyms that counted, shown as its words
    # a section's place in its document
    title: str | None = None
    path: str | None = None
    level: int | None = None
    start_page: int | None = None
    end_page: int | None = None
    # added when it is decorated
    excerpt: str | None = None
    excerpt_style: str | None = None
    rects: list[list[float]] = field(default_factory=list)
    page_width: float | None = None
    page_height: float | None = None
    section: str | None = None         # the outline entry a page hit falls under
    related_words: list[str] = field(default_factory=list)  # the page's words that stood for the question's
    file: str | None = None            # the document, in results that span several

    @classmethod
    def of_section(cls, title: str | None, path: str | None, level: int | None, start_page: int, end_page: int,
                   score: float, found_by: str) -> Match:
        return cls(SECTION, start_page, score, found_by, title=title, path=path, level=level,
                   start_page=start_page, end_page=end_page)

    def as_details(self) -> dict[str, Any]:
        """The match as a tool's `details` declare it (keys only where they apply)."""
        shown: dict[str, Any] = {"granularity": self.granularity}
        if self.granularity == SECTION:
            shown.update({"title": self.title, "path": self.path, "level": self.level,
                          "start_page": self.start_page, "end_page": self.end_page})
        shown.update({"page": self.page, "score": self.score, "found_by": self.found_by})
        if self.partial:
            shown["keyword_match"] = "partial"
        if self.similarity is not None:
            shown["similarity"] = self.similarity
        if self.low_confidence:
            shown["low_confidence"] = True
        if self.excerpt is not None:
            shown.update({"excerpt": self.excerpt, "excerpt_style": self.excerpt_style, "rects": self.rects,
                          "page_width": self.page_width, "page_height": self.page_height})
        if self.section:
            shown["section"] = self.section
        if self.related_words:
            shown["related_words"] = self.related_words
        if self.file is not None:
            shown["file"] = self.file
        return shown
