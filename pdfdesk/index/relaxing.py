"""Relaxing a query that asks for all of its words into one that takes pages with some of them.

People describe a passage in their own words, and few pages then hold every word they typed. A
relaxed query keeps what the user wrote as syntax (phrases, NOT, prefixes) and makes the plain
words optional: a page must hold at least one word that is not a stop word, and pages holding
more of the words score higher (Whoosh's coordination bonus). Stop words still add to a score
but never make a page a match on their own. Long words also match others sharing their first letters.
"""

from __future__ import annotations

from functools import lru_cache

from whoosh.lang.stopwords import stoplists
from whoosh.query import And, AndMaybe, AndNot, DisjunctionMax, Not, Or, Phrase, Prefix, Query, Term

from pdfdesk.index.analysis import GRAM_MARK, analyze

STOP_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "ru")
# Whoosh has no Arabic or Persian list: the commonest particles and prepositions, which Arabic
# script often writes joined to the next word, so a page rarely holds them as words of their own.
ARABIC_STOPS = ("و في من إلى الى على عن أن ان إن ما لا لم لن هذا هذه ذلك تلك التي الذي الذين ثم أو او قد كان "
                "كانت مع كل به بها له لها هو هي هم عند بين حتى إذا اذا")
PERSIAN_STOPS = "و از به در که این آن را با های ها می تا برای هم یا است بر نیز اگر پس"
COORDINATION = 0.9  # how much a page holding more of the words gains (Whoosh: 0 < scale < 1)
# In a relaxed query a word of TRUNCATE_FROM letters or more also matches the words sharing its
# first TRUNCATE_TO letters, at TRUNCATED_WEIGHT of its own weight (see `_truncated`).
TRUNCATE_FROM = 6
TRUNCATE_TO = 5
TRUNCATED_WEIGHT = 0.5


@lru_cache(maxsize=1)
def stop_terms() -> frozenset[str]:
    """Index terms of the common function words of the languages listed."""
    words = [word for language in STOP_LANGUAGES for word in stoplists[language]]
    words += ARABIC_STOPS.split() + PERSIAN_STOPS.split()
    return frozenset(term for word in words for term in analyze(word, query=True))


def is_stop(query: Query) -> bool:
    """A single word (in one field or several, with or without its letter trigrams) that is a
    stop word."""
    if isinstance(query, Term):
        return isinstance(query.text, str) and query.text in stop_terms()
    if isinstance(query, Or) and query.subqueries:
        words = [sub for sub in query.subqueries if not _grams(sub)]
        return bool(words) and all(is_stop(sub) for sub in words)
    return False


def _grams(query: Query) -> bool:
    """A phrase of letter trigrams (the parser's second way of asking for an Arabic word)."""
    return isinstance(query, Phrase) and all(word.startswith(GRAM_MARK) for word in query.words)


def strict_query(parsed: Query) -> Query:
    """`parsed` with its stop words made optional: they add to a page's score but a page without
    them still holds all the words that matter (Arabic script glues و and ب to the next word)."""
    if not isinstance(parsed, And) or isinstance(parsed, AndNot):
        return parsed
    stops = [sub for sub in parsed.subqueries if is_stop(sub)]
    rest = [sub for sub in parsed.subqueries if not is_stop(sub)]
    if not stops or not [sub for sub in rest if not isinstance(sub, Not)]:
        return parsed
    required: Query = And(rest) if len(rest) > 1 else rest[0]
    return AndMaybe(required, Or(stops))


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
    content = [sub.accept(_truncated) for sub in content]
    relaxed: Query = Or(content, scale=COORDINATION) if len(content) > 1 else content[0]
    if stops:
        relaxed = AndMaybe(relaxed, Or(stops))
    if negative:
        relaxed = AndNot(relaxed, Or(negative) if len(negative) > 1 else negative[0])
    return relaxed


def near_queries(parsed: Query) -> list[Query]:
    """Queries for pages holding every word that matters but one, one query per word left out
    (a known passage typed with one word misremembered); none for fewer than three such words."""
    if not isinstance(parsed, And) or isinstance(parsed, AndNot):
        return []
    negative = [sub for sub in parsed.subqueries if isinstance(sub, Not)]
    content = [sub for sub in parsed.subqueries if not isinstance(sub, Not) and not is_stop(sub)]
    if len(content) < 3:
        return []
    return [And(content[:left_out] + content[left_out + 1:] + negative) for left_out in range(len(content))]


def _truncated(node: Query) -> Query:
    """A long word also as its first letters: a question in one's own words rarely has the
    page's word forms ("συνθηματικό" for "συνθηματικού", "Gebühren" for "gebührenfrei"), and the
    stemmers know English, Russian and Arabic only (Greek is not stemmed, German is stemmed as if
    English). Truncating to five letters is a stemmer that knows no language, good enough where
    there is none; it is used only once the words as typed found too little, and weighs less."""
    if (isinstance(node, Term) and isinstance(node.text, str) and len(node.text) >= TRUNCATE_FROM
            and not node.text.startswith(GRAM_MARK)):
        # the better of the two, never their sum: a word as typed must not count twice
        truncated = Prefix(node.fieldname, node.text[:TRUNCATE_TO], boost=node.boost * TRUNCATED_WEIGHT)
        return DisjunctionMax([node, truncated])
    return node
