"""What a query asks for, in the plain form used to scan unindexed pages and to place highlights.

Whoosh answers the query itself; this reads the same query string as positive words, phrases and
prefixes, and excluded words (after NOT or -).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pdfdesk.index.analysis import analyze, fold, has_cjk

_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
_OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"}


@dataclass
class QueryTerms:
    words: list[str] = field(default_factory=list)      # plain words as typed (folded: NFKC, case)
    phrases: list[str] = field(default_factory=list)    # quoted phrases (folded)
    prefixes: list[str] = field(default_factory=list)   # words typed with a trailing *
    excluded: list[str] = field(default_factory=list)
    any_of: bool = False                                # the query used OR

    @property
    def stems(self) -> set[str]:
        """Index terms of the positive words and phrases (stemmed; CJK as bigrams; a joined word's
        parts, as the query asks for them)."""
        return {t for text in self.words + self.phrases for t in analyze(text, query=True)}

    @property
    def needles(self) -> list[str]:
        """Literal strings to look for on a page: phrases, CJK words, and plain words."""
        return self.phrases + self.words

    @property
    def empty(self) -> bool:
        return not (self.words or self.phrases or self.prefixes)


def parse_terms(query: str) -> QueryTerms:
    terms = QueryTerms()
    negate = False
    for match in _TOKEN.finditer(query):
        phrase, word = match.group(1), match.group(2)
        if word is not None and word in _OPERATORS:
            terms.any_of |= word == "OR"
            negate = word in ("NOT", "ANDNOT")
            continue
        if word is not None and word.startswith("-") and len(word) > 1:
            negate, word = True, word[1:]
        if word is not None and ":" in word and not has_cjk(word):
            word = word.split(":", 1)[1]  # field:value -> value
        text = (phrase if phrase is not None else word or "").strip().strip("()")
        text = fold(text)
        if not text:
            negate = False
            continue
        if negate:
            terms.excluded.append(text.rstrip("*"))
        elif phrase is not None:
            terms.phrases.append(text)
        elif text.endswith("*") and len(text) > 1:
            terms.prefixes.append(text.rstrip("*"))
        else:
            terms.words.append(text)
        negate = False
    return terms
