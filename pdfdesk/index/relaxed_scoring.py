"""How a relaxed query scores a page: by how many of the words it holds, each in its best form.

Whoosh's own coordination (`Or(scale=...)`) counts the index terms a page matches and the terms
that exist in the query's tree. A relaxed query asks for each word in several forms (as typed, by
its first letters, as compound parts), so those counts say little about how many of the user's
words a page holds: a word found in three forms counted three times, and when only one of the
words existed in the index at all, every page scored 0 and kept document order. `WordsOr`
multiplies a page's score by the share of the words it holds, asking each word's matcher whether
it is on the page.

Whoosh's DisjunctionMax matcher scores a page with the best of its children's current scores even
when a child sits on another page: a page matched only by a word's first letters was given the
score the whole word earned on a different page. `BestOf` scores only the children on the page.
"""

from __future__ import annotations

from typing import Any

from whoosh.matching import (
    DisjunctionMaxMatcher,
    NullMatcher,
    UnionMatcher,
    WrappingMatcher,
)
from whoosh.query import DisjunctionMax, Or
from whoosh.util import make_binary_tree


class WordsOr(Or):
    """Pages holding any of the subqueries (one per word), each page's summed score multiplied by
    the share of the words it holds."""

    def matcher(self, searcher: Any, context: Any = None) -> Any:
        words = [sub.matcher(searcher, context) for sub in self.subqueries]
        active = [word for word in words if word.is_active()]
        if not active:
            return NullMatcher()
        union = make_binary_tree(UnionMatcher, active) if len(active) > 1 else active[0]
        return WordCoordinationMatcher(union, active, len(self.subqueries), self.boost)


class WordCoordinationMatcher(WrappingMatcher):
    """Scores of `child` (the union of `words`' matchers) times (words on the page / words asked
    for). It keeps its matchers: Whoosh's quality shortcuts would swap them for others, so the
    words could no longer be told apart; pages are few enough to score every one."""

    def __init__(self, child: Any, words: list[Any], asked: int, boost: float = 1.0) -> None:
        super().__init__(child, boost=boost)
        self._words = words
        self._asked = max(1, asked)

    def _replacement(self, newchild: Any) -> WordCoordinationMatcher:
        return WordCoordinationMatcher(newchild, self._words, self._asked, self.boost)

    def replace(self, minquality: float = 0) -> Any:
        return self if self.is_active() else NullMatcher()

    def supports_block_quality(self) -> bool:
        return False

    def score(self) -> float:
        current = self.child.id()
        held = sum(1 for word in self._words if word.is_active() and word.id() == current)
        score: float = self.child.score() * self.boost * min(1.0, held / self._asked)
        return score


class BestOf(DisjunctionMax):
    """Pages matching any of the subqueries (forms of one word), scored by the best form on the page."""

    def _matcher(self, subs: list[Any], searcher: Any, context: Any) -> Any:
        reader = searcher.reader()
        return self._tree_matcher(subs, BestOfMatcher, searcher, context, lambda q: q.estimate_size(reader),
                                  tiebreak=self.tiebreak)


class BestOfMatcher(DisjunctionMaxMatcher):
    def score(self) -> float:
        current = self.id()
        best: float = max(child.score() for child in (self.a, self.b) if child.is_active() and child.id() == current)
        return best
