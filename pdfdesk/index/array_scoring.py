"""Scoring a relaxed query (and a question's near queries) on every page at once, in arrays as
long as the document.

A relaxed query takes every page holding any of a question's words, often most of a document.
Whoosh scores such a query one page at a time, walking a tree of matchers in Python: on a
1,000-page document that cost a warm search more than everything else in it together. Here each
term's postings are read a block at a time, and the same tree is evaluated on whole arrays: the
same BM25F score for each term, and the same rules for combining them (a word's best form,
`relaxed_scoring`'s share of the words a page holds, sums for OR and AND), so pages come out in
the order, and with the scores, that Whoosh gives them. The near queries (every word but one)
are scored beside it, each word read once for all of them. A part of a query this does not know
(a phrase, which needs word positions) is scored by Whoosh's own matcher and joins the arrays;
a weighting other than BM25F leaves the whole query to Whoosh.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

import numpy as np
from whoosh.matching import FilterMatcher
from whoosh.query import And, AndNot, Not, Or, Prefix, Query, Term
from whoosh.scoring import BM25F

from pdfdesk.index.relaxed_scoring import BestOf, WordsOr

Scores = tuple[np.ndarray, np.ndarray]  # (score of each document of a segment, whether it matches)


def holds_relaxed(query: Query) -> bool:
    """Whether the query is a relaxed one (`WordsOr`, possibly with pages excluded): the kind
    whose pages are too many to score one at a time."""
    return isinstance(query, WordsOr) or (isinstance(query, AndNot) and isinstance(query.a, WordsOr))


def ranked(searcher: Any, queries: list[Query], limit: int) -> list[list[tuple[int, float]]] | None:
    """For each query, the `limit` best (document number, score) pairs, best first, ties in
    document order as Whoosh's collector breaks them; None when the searcher's weighting is not
    BM25F. A part the queries share (the same word in each of a question's near queries) is read
    and scored once."""
    weighting = searcher.weighting
    if type(weighting) is not BM25F:
        return None
    segments = _segments(searcher, weighting)
    _recent.segments = (searcher, segments)
    return [_best(segments, query, limit) for query in queries]


# The last ranking's segments on this thread, with every node it scored: a search that then asks
# for the scores of a few more pages under the same query reads them from those arrays instead of
# scoring every page again. One ranking's worth at a time, so the arrays never pile up.
_recent = threading.local()


def scored(searcher: Any, query: Query, numbers: list[int]) -> dict[int, float] | None:
    """The scores of these documents (by number) that match `query`, as `ranked` would give them;
    None when the searcher's weighting is not BM25F. The pages a search looks at beyond its best
    few (found by meaning, say) are weighed on the same scale as those."""
    weighting = searcher.weighting
    if type(weighting) is not BM25F:
        return None
    recent = getattr(_recent, "segments", None)
    segments = recent[1] if recent is not None and recent[0] is searcher else _segments(searcher, weighting)
    found: dict[int, float] = {}
    for segment, offset in segments:
        inside = [number - offset for number in numbers if offset <= number < offset + segment.size]
        if not inside:
            continue
        score, present = segment.evaluate(query)
        for at in inside:
            if present[at] and segment.live[at]:
                found[at + offset] = float(score[at])
    return found


def _segments(searcher: Any, weighting: BM25F) -> list[tuple[_Segment, int]]:
    return [(_Segment(leaf, searcher, weighting), offset) for leaf, offset in searcher.leaf_searchers()]


def _best(segments: list[tuple[_Segment, int]], query: Query, limit: int) -> list[tuple[int, float]]:
    numbers: list[np.ndarray] = []
    scores: list[np.ndarray] = []
    for segment, offset in segments:
        score, present = segment.evaluate(query)
        present = present & segment.live
        found = np.flatnonzero(present)
        numbers.append(found + offset)
        scores.append(score[found])
    if not numbers:
        return []
    every, score = np.concatenate(numbers), np.concatenate(scores)
    order = np.lexsort((every, -score))[:max(0, limit)]
    return [(int(every[at]), float(score[at])) for at in order]


class _Segment:
    """One segment's arrays: statistics (idf, average length) come from the whole index, as
    Whoosh's scorer takes them from the top searcher."""

    def __init__(self, leaf: Any, top: Any, weighting: BM25F) -> None:
        self.leaf = leaf
        self.reader = leaf.reader()
        self.top = top
        self.weighting = weighting
        self.size = self.reader.doc_count_all()
        self.live = np.ones(self.size, dtype=bool)
        if self.reader.has_deletions():
            # the set Whoosh's own postings filter with (read once per reader)
            deleted = np.fromiter(self.reader.deleted_docs_set, dtype=np.int64)
            self.live[deleted[deleted < self.size]] = False
        self._known: dict[int, tuple[Query, Scores]] = {}

    def empty(self) -> Scores:
        return np.zeros(self.size), np.zeros(self.size, dtype=bool)

    def evaluate(self, node: Query) -> Scores:
        """Scores of one node of the query tree, in the order Whoosh's matchers combine them (a
        node met before, in this query or another, is not scored again; the arrays are only read)."""
        known = self._known.get(id(node))
        if known is None or known[0] is not node:
            known = (node, self._evaluate(node))
            self._known[id(node)] = known
        return known[1]

    def _evaluate(self, node: Query) -> Scores:
        if type(node) is Term:
            return self._term(node.fieldname, node.text, node.boost)
        if type(node) is Prefix and not node.constantscore:
            return self._prefix(node)
        if isinstance(node, WordsOr):
            return self._words(node)
        if (type(node) in (Or, And) or isinstance(node, BestOf)) and len(node.subqueries) == 1:
            return self.evaluate(node.subqueries[0])  # a compound of one part is that part, its boost dropped
        if isinstance(node, BestOf):
            return self._best(node)
        if type(node) is Or and node.scale is None and not node.minmatch:
            return self._summed(node.subqueries, node.boost, every=False)
        if type(node) is And and not any(isinstance(part, Not) for part in node.subqueries):
            return self._summed(node.subqueries, node.boost, every=True)
        if type(node) is AndNot and node.boost == 1.0:
            score, present = self.evaluate(node.a)
            return score, present & ~self._matching(node.b)
        return self._by_whoosh(node)

    def _term(self, field: str, text: Any, boost: float) -> Scores:
        score, present = self.empty()
        numbers, scores = self._postings_scored(field, text)
        score[numbers] = scores * boost if boost != 1.0 else scores
        present[numbers] = True
        return score, present

    def _prefix(self, node: Prefix) -> Scores:
        """The words a prefix starts, summed where a page holds several (a prefix may stand for
        hundreds of words: each is added in place, none kept apart)."""
        words = [word for word in node._btexts(self.reader) if word]
        if len(words) == 1:  # Whoosh scores a lone expansion as that term, without the boost
            return self._term(node.fieldname, words[0], 1.0)
        score, present = self.empty()
        for word in words:
            numbers, scores = self._postings_scored(node.fieldname, word)
            score[numbers] += scores
            present[numbers] = True
        return (score * node.boost if node.boost != 1.0 else score), present

    def _postings_scored(self, field: str, text: Any) -> tuple[np.ndarray, np.ndarray]:
        """The documents holding a term, and its BM25F score in each, as Whoosh's scorer gives it."""
        nothing = (np.zeros(0, dtype=np.int64), np.zeros(0))
        if field not in self.top.schema:
            return nothing
        try:
            word = self.top.schema[field].to_bytes(text)
        except ValueError:
            return nothing
        if (field, word) not in self.reader:
            return nothing
        numbers, weights = _postings(self.reader, field, word)
        lengths = _lengths(self.reader, field)[numbers]
        idf = self.top.idf(field, word)
        average = self.top.avg_field_length(field) or 1
        b = self.weighting._field_B.get(field, self.weighting.B)
        k1 = self.weighting.K1
        return numbers, idf * ((weights * (k1 + 1)) / (weights + k1 * ((1 - b) + b * lengths / average)))

    def _summed(self, parts: list[Query], boost: float, every: bool) -> Scores:
        if not parts:
            return self.empty()
        score, present = self.empty()
        if every:
            present[:] = True
        for part in parts:
            part_score, part_present = self.evaluate(part)
            score += np.where(part_present, part_score, 0.0)
            present = present & part_present if every else present | part_present
        score = np.where(present, score, 0.0)
        return (score * boost if boost != 1.0 else score), present

    def _best(self, node: BestOf) -> Scores:
        """A word's forms: the best form on the page, never their sum (`relaxed_scoring.BestOf`)."""
        best = np.full(self.size, -np.inf)
        present = np.zeros(self.size, dtype=bool)
        for part in node.subqueries:
            part_score, part_present = self.evaluate(part)
            best = np.where(part_present, np.maximum(best, part_score), best)
            present |= part_present
        score = np.where(present, best, 0.0)
        return (score * node.boost if node.boost != 1.0 else score), present

    def _words(self, node: WordsOr) -> Scores:
        """The sum of the words a page holds, times the share of the question's words it holds."""
        score, present = self.empty()
        held = np.zeros(self.size)
        for part in node.subqueries:
            part_score, part_present = self.evaluate(part)
            score += np.where(part_present, part_score, 0.0)
            held += part_present
            present |= part_present
        share = np.minimum(1.0, held / max(1, len(node.subqueries)))
        return score * node.boost * share, present

    def _matching(self, node: Query) -> np.ndarray:
        """Which documents a query (an excluded part) matches, scores aside."""
        present = np.zeros(self.size, dtype=bool)
        matcher = node.matcher(self.leaf, self.leaf.boolean_context())
        while matcher.is_active():
            present[matcher.id()] = True
            matcher.next()
        return present

    def _by_whoosh(self, node: Query) -> Scores:
        """A part scored by Whoosh's matcher, page by page (phrases: few pages hold them)."""
        score, present = self.empty()
        matcher = node.matcher(self.leaf, self.leaf.context())
        while matcher.is_active():
            number = matcher.id()
            score[number] = matcher.score()
            present[number] = True
            matcher.next()
        return score, present


def _postings(reader: Any, field: str, word: bytes) -> tuple[np.ndarray, np.ndarray]:
    """A term's document numbers and weights (deleted documents included: the caller drops them)."""
    matcher = reader.postings(field, word)
    if isinstance(matcher, FilterMatcher):
        matcher = matcher.child
    numbers: list[int] = []
    weights: list[float] = []
    if hasattr(matcher, "_read_ids") and hasattr(matcher, "_next_block"):
        # Whoosh's on-disk postings, a block of up to 128 at a time rather than one by one
        while matcher.is_active():
            matcher._read_ids()
            matcher._read_weights()
            numbers.extend(matcher._ids[matcher._i:])
            weights.extend(matcher._weights[matcher._i:])
            matcher._next_block()
    else:
        while matcher.is_active():
            numbers.append(matcher.id())
            weights.append(matcher.weight())
            matcher.next()
    return np.asarray(numbers, dtype=np.int64), np.asarray(weights, dtype=np.float64)


# Each segment's field lengths, read once for as long as its reader lives (a segment's files
# never change; a commit makes new readers).
_segment_lengths: weakref.WeakKeyDictionary[Any, dict[str, np.ndarray]] = weakref.WeakKeyDictionary()
_lengths_lock = threading.Lock()  # searches of different documents run on several threads at once


def _lengths(reader: Any, field: str) -> np.ndarray:
    with _lengths_lock:
        known = _segment_lengths.setdefault(reader, {})
        found = known.get(field)
    if found is None:  # read outside the lock: the reader itself is its searcher's alone
        found = np.array([reader.doc_field_length(number, field) or 0 for number in range(reader.doc_count_all())],
                         dtype=np.float64)
        with _lengths_lock:
            known[field] = found
    return found
