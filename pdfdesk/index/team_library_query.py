"""Pages and queries as the team library's PostgreSQL tables read them: a page's tsvector and a
Whoosh query's tsquery, both written from pdfdesk's own analysis.

PostgreSQL's text search configurations would parse and stem differently from the embedded index
(no CJK bigrams, no Arabic trigrams, other stemmers), so neither side uses them: a page's terms are
`analysis.tokens` (what the embedded FTS5 table stores, in library_fts_query.page_columns) written
as a tsvector literal, and a query is built as tsquery text from the parsed query tree, each
lexeme quoted. `::tsvector` and `::tsquery` casts only parse that syntax; they never normalise a
word, so the lexemes stored and asked for are exactly our terms.

Positions: a word (and a split word's joined form) sits at its word position + 1, an Arabic
trigram at its own position counted from 1 with a gap between two words' trigrams (as the FTS5
`grams` column has), so a phrase of trigrams never runs across words. tsvector keeps positions up
to 16,383 and 255 per lexeme; beyond that a phrase can miss, a word cannot.
"""

from __future__ import annotations

from dataclasses import dataclass

from whoosh.query import And, AndMaybe, AndNot, DisjunctionMax, Not, Or, Phrase, Prefix, Query, Term

from pdfdesk.index.analysis import GRAM_BASE, GRAM_MARK, tokens
from pdfdesk.index.library_fts_query import Untranslatable
from pdfdesk.index.relaxed_scoring import WordsOr

MAX_POSITION = 16383
MAX_POSITIONS = 255
SCORED_PARTS = 8  # the words, phrases and prefixes of a query a page is scored by (the schema's slots)


def lexeme(term: str) -> str:
    """A term quoted for tsvector/tsquery input: quotes doubled, backslashes escaped."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


@dataclass(frozen=True)
class PageTerms:
    """A page as the team library stores it: its tsvector literal and its length in words."""

    vector: str
    length: int


def page_terms(text: str) -> PageTerms:
    """The tsvector literal of a page's terms and its word count (see the module docstring)."""
    positions: dict[str, list[int]] = {}
    words = 0
    for term, position, _start, _end in tokens(text):
        if term.startswith(GRAM_MARK):
            at = position - GRAM_BASE + 1
        else:
            at = position + 1
            words = max(words, at)
        held = positions.setdefault(term, [])
        if len(held) < MAX_POSITIONS:
            at = min(at, MAX_POSITION)
            if not held or held[-1] != at:
                held.append(at)
    vector = " ".join(f"{lexeme(term)}:{','.join(map(str, places))}" for term, places in positions.items())
    return PageTerms(vector, words)


@dataclass(frozen=True)
class Leaf:
    """One scored part of a query: a term, a prefix or a phrase, as a tsquery of its own."""

    tsquery: str
    terms: tuple[str, ...]
    prefix: bool = False


def tsquery(query: Query) -> str:
    """The tsquery text of a parsed query; optional parts (AndMaybe's second) are left out, as the
    embedded index leaves them out: they only ever added to a score."""
    if isinstance(query, Term):
        if not isinstance(query.text, str) or not query.text:
            raise Untranslatable(repr(query))
        return lexeme(query.text)
    if isinstance(query, Prefix):
        if not query.text:
            raise Untranslatable(repr(query))
        return lexeme(query.text) + ":*"
    if isinstance(query, Phrase):
        words = [w for w in query.words if w]
        if not words:
            raise Untranslatable(repr(query))
        return "(" + " <-> ".join(lexeme(w) for w in words) + ")" if len(words) > 1 else lexeme(words[0])
    if isinstance(query, AndNot):
        return f"({tsquery(query.a)}) & !({tsquery(query.b)})"
    if isinstance(query, AndMaybe):
        return tsquery(query.a)
    if isinstance(query, And):
        positive = [sub for sub in query.subqueries if not isinstance(sub, Not)]
        negative = [sub.query for sub in query.subqueries if isinstance(sub, Not)]
        if not positive:
            raise Untranslatable("nothing but NOT")
        parts = [f"({tsquery(sub)})" for sub in positive] + [f"!({tsquery(sub)})" for sub in negative]
        return " & ".join(parts)
    if isinstance(query, (Or, DisjunctionMax)):
        parts = []
        for sub in query.subqueries:
            try:
                parts.append(f"({tsquery(sub)})")
            except Untranslatable:
                continue
        if not parts:
            raise Untranslatable(repr(query))
        return " | ".join(parts)
    raise Untranslatable(type(query).__name__)


def leaves(query: Query) -> list[Leaf]:
    """The positive terms, prefixes and phrases a page is scored by (each once)."""
    found: dict[str, Leaf] = {}

    def walk(node: Query) -> None:
        if isinstance(node, Term) and isinstance(node.text, str) and node.text:
            found.setdefault(lexeme(node.text), Leaf(lexeme(node.text), (node.text,)))
        elif isinstance(node, Prefix) and node.text:
            text = lexeme(node.text) + ":*"
            found.setdefault(text, Leaf(text, (node.text,), prefix=True))
        elif isinstance(node, Phrase):
            words = tuple(w for w in node.words if w)
            if words:
                text = tsquery(node)
                found.setdefault(text, Leaf(text, words))
        elif isinstance(node, (AndNot, AndMaybe)):
            walk(node.a)
        elif isinstance(node, Not):
            return
        elif isinstance(node, (And, Or, DisjunctionMax)):
            for sub in node.subqueries:
                walk(sub)

    walk(query)
    return list(found.values())


def words_of(relaxed: Query) -> list[Query]:
    """Each word of a relaxed query with its other forms (the parts a page may hold some of)."""
    if isinstance(relaxed, AndNot):
        relaxed = relaxed.a
    return list(relaxed.subqueries) if isinstance(relaxed, WordsOr) else [relaxed]


def disjoint_leaves(word: Query) -> set[str]:
    """The parts a page can hold only by holding `word` (its forms when it is nothing but an OR of
    them; none otherwise, which only makes the relaxed search's bound looser)."""
    found = leaves(word)
    text = tsquery(word)
    if text == " | ".join(f"({leaf.tsquery})" for leaf in found) or (len(found) == 1 and text == found[0].tsquery):
        return {leaf.tsquery for leaf in found}
    return set()
