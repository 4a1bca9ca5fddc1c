"""Pages and queries as the library's FTS5 table reads them: a page's three columns of ASCII
tokens, a Whoosh query as an FTS5 expression, and the check that a page holds a query's words.

FTS5 does not know pdfdesk's analyzer, so pages are analysed here (`analysis.tokens`, the same
terms the per-document index holds) and each term is written as an ASCII token: "x" and the hex
of its UTF-8 bytes, which keeps a prefix of a term a prefix of its token. The store itself is
library_fts.py.
"""

from __future__ import annotations

from whoosh.query import (
    And,
    AndMaybe,
    AndNot,
    DisjunctionMax,
    Not,
    NullQuery,
    Or,
    Phrase,
    Prefix,
    Query,
    Term,
)

from pdfdesk.index.analysis import GRAM_MARK, tokens

GRAM_GAP = "z"  # between two words' trigrams, so a phrase of trigrams never runs across words


def token(term: str) -> str:
    return "x" + term.encode("utf-8").hex()


def page_columns(text: str) -> tuple[str, str, str]:
    """A page's three columns of tokens (see the module docstring)."""
    words: list[str] = []
    joined: list[str] = []
    grams: list[str] = []
    last_position = -1
    last_gram = None
    for term, position, _start, _end in tokens(text):
        if term.startswith(GRAM_MARK):
            if last_gram is not None and position != last_gram + 1:
                grams.append(GRAM_GAP)
            grams.append(token(term))
            last_gram = position
        elif position > last_position:
            words.append(token(term))
            last_position = position
        else:
            joined.append(token(term))
    return " ".join(words), " ".join(joined), " ".join(grams)


class Untranslatable(Exception):
    """A query node FTS5 cannot express (it then matches nothing rather than everything)."""


def fts_expression(query: Query) -> str:
    """The FTS5 MATCH expression of a parsed query. Optional parts (AndMaybe's second) cannot be
    said in FTS5 and are left out: they only ever added to a score."""
    if isinstance(query, Term):
        if not isinstance(query.text, str) or not query.text:
            raise Untranslatable(repr(query))
        return token(query.text)
    if isinstance(query, Prefix):
        return token(query.text) + "*"
    if isinstance(query, Phrase):
        words = [w for w in query.words if w]
        if not words:
            raise Untranslatable(repr(query))
        return '"' + " ".join(token(w) for w in words) + '"' if len(words) > 1 else token(words[0])
    if isinstance(query, AndNot):
        return f"({fts_expression(query.a)}) NOT ({fts_expression(query.b)})"
    if isinstance(query, AndMaybe):
        return fts_expression(query.a)
    if isinstance(query, And):
        positive = [sub for sub in query.subqueries if not isinstance(sub, Not)]
        negative = [sub.query for sub in query.subqueries if isinstance(sub, Not)]
        if not positive:
            raise Untranslatable("nothing but NOT")
        expression = " AND ".join(f"({fts_expression(sub)})" for sub in positive)
        for sub in negative:
            expression = f"({expression}) NOT ({fts_expression(sub)})"
        return expression
    if isinstance(query, (Or, DisjunctionMax)):
        parts = []
        for sub in query.subqueries:
            try:
                parts.append(f"({fts_expression(sub)})")
            except Untranslatable:
                continue
        if not parts:
            raise Untranslatable(repr(query))
        return " OR ".join(parts)
    if isinstance(query, Not):
        raise Untranslatable("a lone NOT")
    if isinstance(query, NullQuery.__class__) or query is NullQuery:
        raise Untranslatable("empty")
    raise Untranslatable(type(query).__name__)


class PageTokens:
    """A page's tokens, to tell which of a query's words it holds."""

    def __init__(self, words: list[str], joined: list[str], grams: list[str]) -> None:
        self.runs = (words, grams)
        self.every = set(words) | set(joined) | set(grams)
        self._joined: str | None = None

    def starts(self, start: str) -> bool:
        """Whether any token starts with `start` (a prefix query): one substring search of the
        tokens joined, each after a space."""
        if self._joined is None:
            self._joined = " " + " ".join(self.every)
        return " " + start in self._joined

    def in_a_row(self, wanted: list[str]) -> bool:
        """Whether the tokens stand one after another in the words or in the trigrams."""
        if not wanted or any(w not in self.every for w in wanted):
            return False
        width = len(wanted)
        for run in self.runs:
            at = -1
            while True:
                try:
                    at = run.index(wanted[0], at + 1)
                except ValueError:
                    break
                if run[at:at + width] == wanted:
                    return True
        return False

    def holds(self, query: Query) -> bool:
        if isinstance(query, Term):
            return isinstance(query.text, str) and token(query.text) in self.every
        if isinstance(query, Prefix):
            return self.starts(token(query.text))
        if isinstance(query, Phrase):
            return self.in_a_row([token(w) for w in query.words if w])
        if isinstance(query, AndNot):
            return self.holds(query.a) and not self.holds(query.b)
        if isinstance(query, AndMaybe):
            return self.holds(query.a)
        if isinstance(query, And):
            return all((not self.holds(sub.query)) if isinstance(sub, Not) else self.holds(sub)
                       for sub in query.subqueries)
        if isinstance(query, (Or, DisjunctionMax)):
            return any(self.holds(sub) for sub in query.subqueries)
        return False
