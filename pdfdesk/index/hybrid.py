"""Merging rankings whose scores are not comparable (BM25, cosine, a direct scan): reciprocal rank
fusion for lists of the same kind, keyword-first merging for keyword and meaning."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60
# Below the pages holding every word, fusion favours the top of each list: partial keyword hits and
# meaning matches are both weak alone, and the relevance bench's paraphrases ranked best at k = 10
# (MRR@10 0.505 against 0.485 at 60).
BELOW_KEYWORD_K = 10


def rrf(rankings: Sequence[Sequence[Hashable]], k: int = RRF_K) -> list[tuple[Hashable, float]]:
    """Fuse rankings: score(item) = sum over lists of 1 / (k + rank), rank from 1. Equal scores keep
    the order the items were first met in, lists taken in turn rank by rank (the first list's
    winner before the second's), never an order of their printed forms ("12" before "9")."""
    scores: dict[Hashable, float] = {}
    first_met: dict[Hashable, tuple[int, int]] = {}
    for which, ranking in enumerate(rankings):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            first_met[item] = min(first_met.get(item, (rank, which)), (rank, which))
    return sorted(scores.items(), key=lambda pair: (-pair[1], first_met[pair[0]]))


def keyword_first(keyword: Sequence[Hashable], semantic: Sequence[Hashable], limit: int,
                  partial: Sequence[Hashable] = ()) -> list[tuple[Hashable, str]]:
    """Keyword hits in their own order, then the rest by meaning.

    Equal-weight fusion (RRF) pushed the page a user remembered the words of below pages that
    were merely related in meaning; here words typed from the page always rank as they do in a
    keyword search. Pages holding only some of the words (`partial`) are weak evidence, as weak
    as a meaning match: below the keyword hits the two are fused with equal weight, so a question
    in one's own words gets the pages both agree on first.
    Returns (item, found_by) with found_by "keyword", "both" or "semantic"."""
    related = set(semantic)
    fused: list[tuple[Hashable, str]] = [(item, "both" if item in related else "keyword") for item in keyword[:limit]]
    seen = set(keyword)
    rest = rrf([[item for item in partial if item not in seen], [item for item in semantic if item not in seen]], BELOW_KEYWORD_K)
    words = set(partial)
    for item, _score in rest:
        if len(fused) >= limit:
            break
        fused.append((item, ("both" if item in related else "keyword") if item in words else "semantic"))
    return fused
