"""Reciprocal rank fusion: merge ranked lists whose scores are not comparable (BM25, cosine, scan)."""

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
