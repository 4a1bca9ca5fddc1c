"""Merging rankings whose scores are not comparable (BM25, cosine, a direct scan): reciprocal rank
fusion for lists of the same kind, keyword-first merging for keyword and meaning."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

RRF_K = 60
# Below the pages holding every word, each page weighs three pieces of evidence, each from 0 to 1
# or counted in the document's own units, never in raw cosine: its keyword score against the best
# page holding some of the words, the share of the question's weight that one paragraph of it holds,
# and how far its meaning stands out above the document's typical page. Chosen on the tune half of
# the hybrid bench (real-looking manuals, reports, regulations and theses in four scripts): weights
# of 0.4-0.6 for words (the rest to paragraphs) and 0.3-0.7 for meaning from 2-2.5 spreads up all
# rank the tune half's paraphrases within 0.005 of MRR@10 of these.
WORDS_WEIGHT = 0.6
TOGETHER_WEIGHT = 0.4
MEANING_WEIGHT = 0.7
# A page's meaning counts only from this many spreads above the typical page (about the best 1% of
# a document's pages): a static model puts a hundred pages of a manual near any question about it.
STANDS_OUT_FROM = 2.5
MEANING_CANDIDATES = 10  # pages found by meaning alone that may join the pages holding some words

Item = TypeVar("Item", bound=Hashable)  # a page or section key; what goes in comes out


def rrf(rankings: Sequence[Sequence[Item]], k: int = RRF_K) -> list[tuple[Item, float]]:
    """Fuse rankings: score(item) = sum over lists of 1 / (k + rank), rank from 1. Equal scores keep
    the order the items were first met in, lists taken in turn rank by rank (the first list's
    winner before the second's), never an order of their printed forms ("12" before "9")."""
    scores: dict[Item, float] = {}
    first_met: dict[Item, tuple[int, int]] = {}
    for which, ranking in enumerate(rankings):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            first_met[item] = min(first_met.get(item, (rank, which)), (rank, which))
    return sorted(scores.items(), key=lambda pair: (-pair[1], first_met[pair[0]]))


def keyword_first(strict: Sequence[Item], partial: Sequence[tuple[Item, float]], nearest: Sequence[Item],
                  limit: int, standout: Mapping[Item, float] | None = None,
                  together: Mapping[Item, float] | None = None,
                  meaning_weight: float = MEANING_WEIGHT) -> list[tuple[Item, str]]:
    """Keyword hits holding every word in their own order, then the rest by their evidence.

    Words typed from a page always rank as a keyword search ranks them: equal-weight fusion (RRF)
    and a fixed cosine scale both pushed the page a user remembered below pages merely related in
    meaning. Below them come the pages holding some of the words (`partial`, with keyword scores)
    and the pages nearest in meaning (`nearest`, best first), each scored by WORDS_WEIGHT × its
    words + TOGETHER_WEIGHT × `together` (the share of the question in its best paragraph) +
    MEANING_WEIGHT × the spreads its meaning stands out (`standout`) beyond STANDS_OUT_FROM. Where
    the model cannot tell the pages apart (a language it does not know) nothing stands out, and
    where the paragraphs say nothing either, the keyword order stays as it was. `meaning_weight`
    is MEANING_WEIGHT times the share of the question the model reads (`embedding.reads`): a model
    that spells a language letter by letter still singles pages out, at random; at 0 the pages
    found by meaning alone only fill places no page holding a word takes.
    Returns (item, found_by) with found_by "keyword", "both" or "semantic"."""
    standout = standout or {}
    together = together or {}

    def stands_out(item: Item) -> bool:
        return meaning_weight > 0.0 and standout.get(item, 0.0) >= STANDS_OUT_FROM

    fused: list[tuple[Item, str]] = [(item, "both" if stands_out(item) else "keyword") for item in strict[:limit]]
    held = set(strict)
    words: dict[Item, float] = {}
    for item, score in partial:
        if item not in held and item not in words:
            words[item] = score
    best = max(words.values(), default=0.0)
    candidates = list(words) + [item for item in nearest[:MEANING_CANDIDATES] if item not in held and item not in words]
    evidence = {item: WORDS_WEIGHT * (min(1.0, words.get(item, 0.0) / best) if best > 0 else 0.0)
                + TOGETHER_WEIGHT * together.get(item, 0.0)
                + meaning_weight * max(0.0, standout.get(item, 0.0) - STANDS_OUT_FROM) for item in candidates}
    for item in sorted(candidates, key=lambda item: -evidence[item]):  # stable: ties keep the keyword order
        if len(fused) >= limit:
            break
        fused.append((item, ("both" if stands_out(item) else "keyword") if item in words else "semantic"))
    return fused
