"""Merging rankings whose scores are not comparable (BM25, cosine, a direct scan): reciprocal rank
fusion for lists of the same kind, keyword-first merging for keyword and meaning."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

RRF_K = 60


def rrf(rankings: Sequence[Sequence[Hashable]], k: int = RRF_K) -> list[tuple[Hashable, float]]:
    """Fuse rankings: score(item) = sum over lists of 1 / (k + rank), rank from 1."""
    scores: dict[Hashable, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda pair: (-pair[1], str(pair[0])))


def keyword_first(keyword: Sequence[Hashable], semantic: Sequence[Hashable],
                  limit: int) -> list[tuple[Hashable, str]]:
    """Keyword hits in their own order, then meaning-only hits filling the places keyword left.

    Equal-weight fusion (RRF) pushed the page a user remembered the words of below pages that
    were merely related in meaning; here words typed from the page always rank as they do in a
    keyword search, and meaning adds what keywords miss (a question in one's own words).
    Returns (item, found_by) with found_by "keyword", "both" or "semantic"."""
    related = set(semantic)
    fused: list[tuple[Hashable, str]] = [(item, "both" if item in related else "keyword") for item in keyword[:limit]]
    seen = set(keyword)
    for item in semantic:
        if len(fused) >= limit:
            break
        if item not in seen:
            fused.append((item, "semantic"))
            seen.add(item)
    return fused
