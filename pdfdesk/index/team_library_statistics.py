"""What BM25 needs to know of the team library, read for the reviewer asking: the number of pages
she may see, their average length, and how many of them hold each word, phrase or prefix.

Sizes and a term's page count come from the schema's per-matter statistics (one index entry per
matter, kept by triggers; see pdfdesk/team/schema_statistics.py), summed over her matters. A phrase
is counted exactly with the GIN index when its rarest word is on few pages (the count then visits
few pages); when every word of it is common, the rarest word's count stands in for it, which is
what the phrase can at most be and only lowers its idf a little. A prefix is the sum of the terms
it starts. Every figure is reused for STATS_SECONDS.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from pdfdesk.index.team_library_query import Leaf

K1, B = 1.2, 0.75  # BM25's, as the embedded index ranks
STATS_SECONDS = 30.0  # how long the library's size and a part's page count are reused
EXACT_PHRASE_BELOW = 300  # a phrase whose rarest word is on fewer pages is counted exactly

Run = Callable[[str, str, Sequence[Any]], list[tuple[Any, ...]]]


class Statistics:
    """A team library's statistics for one login, cached for a while."""

    def __init__(self, run: Run) -> None:
        self._run = run
        self._size: tuple[float, int, float] | None = None  # (when, pages, average length)
        self._counts: dict[str, tuple[float, int]] = {}

    def forget(self) -> None:
        self._size, self._counts = None, {}

    def size(self) -> tuple[int, float]:
        """(visible pages, their average length in words, at least 1)."""
        now = time.monotonic()
        if self._size is None or now - self._size[0] > STATS_SECONDS:
            rows = self._run("read the team library", "SELECT pages, words FROM pdfdesk.visible_size()", ())
            pages, words = (int(rows[0][0]), int(rows[0][1])) if rows else (0, 0)
            self._size = (now, pages, words / pages if pages else 1.0)
        return self._size[1], max(self._size[2], 1.0)

    def idf(self, n: int) -> float:
        """FTS5's BM25 idf of a part on `n` of the library's pages (never 0 or below)."""
        total, _ = self.size()
        idf = math.log((total - n + 0.5) / (n + 0.5)) if total else 0.0
        return idf if idf > 0 else 1e-6

    def idfs(self, parts: Sequence[Leaf]) -> list[float]:
        return [self.idf(n) for n in self.page_counts(parts)]

    def page_counts(self, parts: Sequence[Leaf]) -> list[int]:
        """How many visible pages hold each part (see the module docstring for phrases)."""
        now = time.monotonic()
        fresh = {key: n for key, (when, n) in self._counts.items() if now - when <= STATS_SECONDS}
        wanted = [p for p in dict.fromkeys(parts) if p.tsquery not in fresh]
        terms = list(dict.fromkeys((t, p.prefix) for p in wanted for t in p.terms))
        if terms:
            rows = self._run("search the team library", "SELECT pdfdesk.term_pages(%s::text[], %s::boolean[])",
                             ([t for t, _ in terms], [prefix for _, prefix in terms]))
            found = list(rows[0][0]) if rows and rows[0][0] is not None else [0] * len(terms)
            by_term = {key: int(n) for key, n in zip(terms, found, strict=False)}
            total, _ = self.size()
            phrases = []
            for part in wanted:
                bound = min(by_term.get((t, part.prefix), 0) for t in part.terms)
                if len(part.terms) > 1 and 0 < bound < EXACT_PHRASE_BELOW:
                    phrases.append(part)
                fresh[part.tsquery] = min(bound, total)
            if phrases:
                rows = self._run("search the team library", "SELECT pdfdesk.count_each(%s::tsquery[])",
                                 ([p.tsquery for p in phrases],))
                exact = list(rows[0][0]) if rows and rows[0][0] is not None else []
                for part, n in zip(phrases, exact, strict=False):
                    fresh[part.tsquery] = int(n)
            for part in wanted:
                self._counts[part.tsquery] = (now, fresh[part.tsquery])
        return [fresh[p.tsquery] for p in parts]

    def word_counts(self, words: Sequence[Sequence[Leaf]]) -> list[int]:
        """An estimate of how many pages hold each word (any of its forms): the sum of its forms'
        counts, at most the library's size; what orders a relaxed query's words by rarity."""
        total, _ = self.size()
        every = [form for forms in words for form in forms]  # one look-up for all of them
        counts = dict(zip(every, self.page_counts(every), strict=True))
        return [min(total, sum(counts[f] for f in forms)) for forms in words]

    def section_counts(self, queries: list[str]) -> list[int]:
        """The number of sections matching each tsquery (sections are few; counted each time)."""
        now = time.monotonic()
        missing = [q for q in dict.fromkeys(queries)
                   if f"sections\n{q}" not in self._counts or now - self._counts[f"sections\n{q}"][0] > STATS_SECONDS]
        if missing:
            counts = ", ".join("(SELECT count(*) FROM pdfdesk.sections WHERE terms @@ %s::tsquery)" for _ in missing)
            rows = self._run("search the team library", f"SELECT {counts}", tuple(missing))
            found = list(rows[0]) if rows else [0] * len(missing)
            for query, count in zip(missing, found, strict=False):
                self._counts[f"sections\n{query}"] = (now, int(count))
        return [self._counts[f"sections\n{q}"][1] for q in queries]
