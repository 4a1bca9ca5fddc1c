"""The team library's searches for pages holding not every word of a query: those holding all
but one (a known passage with one word misremembered) and those holding some, without scoring
every page that holds a common word (scoring a page decompresses its tsvector).
"""

from __future__ import annotations

from collections.abc import Container
from itertools import combinations
from typing import TYPE_CHECKING

from whoosh.query import And, Not, Query

from pdfdesk.index.library_fts_query import Untranslatable
from pdfdesk.index.team_library_query import SCORED_PARTS, Leaf, disjoint_leaves, leaves, tsquery
from pdfdesk.index.team_library_statistics import K1

if TYPE_CHECKING:
    from pdfdesk.index.team_library import TeamLibrary

NEAR_CANDIDATES = 2000  # pages of a near search's rarest word checked one by one, at most
PARTIAL_SCAN = 5000  # pages a relaxed query's rarer words may bring in before its commonest are left out


def near_pages(library: TeamLibrary, near: list[Query], limit: int,
               within: Container[str] | None) -> list[tuple[str, int, float]]:
    """The best `limit` pages matching any of `near` (a query once per word left out), scored by
    every word: a page lacking the word its query leaves out scores as that query scores it.
    (One search per word left out was a search each; a Chinese or Japanese sentence is twenty
    words, one per character pair.)"""
    try:
        expressions = [tsquery(query) for query in near]
        parts = list({leaf.tsquery: leaf for query in near for leaf in leaves(query)}.values())
    except Untranslatable:
        return []
    if not expressions:
        return []
    content = {tsquery(sub): sub for query in near if isinstance(query, And)
               for sub in query.subqueries if not isinstance(sub, Not)}
    negative = {tsquery(sub.query) for query in near if isinstance(query, And)
                for sub in query.subqueries if isinstance(sub, Not)}
    words = list(content)
    counts = library.stats.word_counts([leaves(content[w]) for w in words])
    rarest = min(range(len(words)), key=lambda i: counts[i]) if words else 0
    without = next((e for q, e in zip(near, expressions, strict=True) if isinstance(q, And)
                    and words and words[rarest] not in {tsquery(sub) for sub in q.subqueries}), None)
    if len(words) == len(near) >= 3 and counts[rarest] <= NEAR_CANDIDATES and without is not None:
        # A page holding every word but one either holds the rarest word, and is among its few
        # pages that hold all but one of the next three rarest, or holds every other word (the
        # query leaving the rarest out). One search finds both kinds through the index, best
        # first; each page found is then checked for the other words, a few at a time, until
        # enough hold all but one. Far cheaper than a tsquery OR of twenty ANDs of nineteen words.
        others = sorted((i for i in range(len(words)) if i != rarest), key=lambda i: counts[i])[:3]
        with_rarest = f"({words[rarest]}) & (" + " | ".join(
            "(" + " & ".join(f"({words[i]})" for i in combo) + ")"
            for combo in combinations(others, len(others) - 1)) + ")"
        if negative:
            with_rarest += " & " + " & ".join(f"!({n})" for n in sorted(negative))
        found = library.ranked(f"({without}) | ({with_rarest})", parts, NEAR_CANDIDATES + limit, within)
        kept: list[tuple[str, int, float]] = []
        step = max(4 * limit, 40)
        for start in range(0, len(found), step):
            chunk = found[start:start + step]
            held = library.words_held(words, [(f, p) for f, p, _ in chunk])
            kept += [(f, p, s) for f, p, s in chunk if held.get((f, p), 0) >= len(words) - 1]
            if len(kept) >= limit:
                break
        return kept[:limit]
    expression = " | ".join(f"({e})" for e in expressions)
    return library.ranked(expression, parts, limit, within)


def partial_candidates(library: TeamLibrary, each: list[Query], negative: str | None, parts: list[Leaf],
                       wanted: int) -> list[tuple[str, int, float]]:
    """The best `wanted` pages by BM25 holding any of the words `each`, without scoring every
    page that holds a common one: pages holding one of the rarest words are scored first (by
    every part), and a page holding none of those scores at most the other parts' idf * (k1 + 1);
    once the `wanted`-th score reaches that, no other page can enter. When the bound is not
    reached before PARTIAL_SCAN pages are in play, the pages of the rarer words are kept (a page
    holding only the commonest words comes after them)."""
    words = [tsquery(word) for word in each]
    held_parts = [disjoint_leaves(word) for word in each]
    scored = parts[:SCORED_PARTS]
    idfs = library.idfs(scored)
    counts = library.stats.word_counts([leaves(word) for word in each])
    order = sorted(range(len(words)), key=lambda i: (counts[i], i))

    def pages(n: int) -> int:  # at most, holding one of the n rarest words
        return sum(counts[i] for i in order[:n])

    def bound(n: int) -> float:  # the best score of a page holding none of the n rarest words
        covered = set().union(*(held_parts[i] for i in order[:n]))
        return sum(idf * (K1 + 1) for part, idf in zip(scored, idfs, strict=False) if part.tsquery not in covered)

    # the fewest rarest words whose pages can fill the candidates, then, while a page holding
    # none of them could still enter, at once as many more as the candidates' scores ask for
    size = next((n for n in range(1, len(order)) if pages(n) >= wanted), len(order))
    found: list[tuple[str, int, float]] = []
    while True:
        expression = " | ".join(f"({words[i]})" for i in order[:size])
        if negative is not None:
            expression = f"({expression}) & !({negative})"
        found = library.ranked(expression, parts, wanted, None)
        if size >= len(order):
            break
        if len(found) < wanted:
            size += 1
            continue
        least = found[wanted - 1][2]
        if least >= bound(size):
            break
        needed = next((n for n in range(size + 1, len(order)) if bound(n) <= least), len(order))
        within_scan = max((n for n in range(size + 1, needed + 1) if pages(n) <= PARTIAL_SCAN), default=size)
        if within_scan == size:
            break  # the rarer words' pages are kept (a page of the commonest alone comes after them)
        size = within_scan
    return found
