"""Relaxing a query that asks for all of its words into one that takes pages with some of them.

People describe a passage in their own words, and few pages then hold every word they typed. A
relaxed query keeps what the user wrote as syntax (phrases, NOT, prefixes) and makes the plain
words optional: a page must hold at least one word that is not a stop word, and pages holding
more of the words score higher (Whoosh's coordination bonus). Stop words still add to a score
but never make a page a match on their own.
"""

from __future__ import annotations

from functools import lru_cache

from whoosh.lang.stopwords import stoplists
from whoosh.query import And, AndMaybe, AndNot, Not, Or, Query, Term

from pdfdesk.index.analysis import analyze

STOP_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "ru")
COORDINATION = 0.9  # how much a page holding more of the words gains (Whoosh: 0 < scale < 1)


@lru_cache(maxsize=1)
def stop_terms() -> frozenset[str]:
    """Index terms of the common function words of the languages listed."""
    return frozenset(term for language in STOP_LANGUAGES for word in stoplists[language]
                     for term in analyze(word, query=True))


def is_stop(query: Query) -> bool:
    """A single word (in one field or several) that is a stop word."""
    if isinstance(query, Term):
        return isinstance(query.text, str) and query.text in stop_terms()
    if isinstance(query, Or) and query.subqueries:
        return all(isinstance(sub, Term) and is_stop(sub) for sub in query.subqueries)
    return False


def relaxed_query(parsed: Query) -> Query | None:
    """`parsed` with its required parts made optional, or None when it asks for nothing to relax
    (one word, already OR, or nothing but stop words)."""
    if not isinstance(parsed, And) or isinstance(parsed, AndNot):
        return None
    positive = [sub for sub in parsed.subqueries if not isinstance(sub, Not)]
    negative = [sub.query for sub in parsed.subqueries if isinstance(sub, Not)]
    content = [sub for sub in positive if not is_stop(sub)]
    stops = [sub for sub in positive if is_stop(sub)]
    if len(positive) < 2 or not content:
        return None
    relaxed: Query = Or(content, scale=COORDINATION) if len(content) > 1 else content[0]
    if stops:
        relaxed = AndMaybe(relaxed, Or(stops))
    if negative:
        relaxed = AndNot(relaxed, Or(negative) if len(negative) > 1 else negative[0])
    return relaxed
