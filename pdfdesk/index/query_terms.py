"""What a query asks for, in the plain form used to scan unindexed pages and to place highlights.

Whoosh answers the query itself; this reads the same query string as positive words, phrases and
prefixes, and excluded words (after NOT or -).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pdfdesk.index.analysis import analyze, fold, has_cjk
from pdfdesk.index.relaxing import stop_terms

_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
_OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"}
# A question ends in "?" and lists words with commas: the word is the letters inside (a typed
# "file?" is shown bold where a page says "file"), its inner marks kept ("l'entreprise", "a,b").
_EDGE_PUNCTUATION = "?!.,;:\"'«»“”„‘’…¿¡؟،。、，！？"


@dataclass
class QueryTerms:
    words: list[str] = field(default_factory=list)      # plain words as typed (folded: NFKC, case)
    phrases: list[str] = field(default_factory=list)    # quoted phrases (folded)
    prefixes: list[str] = field(default_factory=list)   # words typed with a trailing *
    excluded: list[str] = field(default_factory=list)
    any_of: bool = False                                # the query used OR
    related: frozenset[str] = frozenset()               # index terms of words related to the query's that counted

    @property
    def deciding_words(self) -> list[str]:
        """The plain words that decide a match: stop words ("to", "a", "and") only ever add to a
        score, so they are left out, unless the query has nothing else."""
        content = [word for word in self.words if not is_stop_word(word)]
        return content if content or self.phrases or self.prefixes else self.words

    @property
    def stems(self) -> set[str]:
        """Index terms of the deciding words and of the phrases, the terms a hit is shown for
        (stemmed; CJK as bigrams; a joined word's parts, as the query asks for them), and of the
        `related` words that counted for them. A phrase's stop words are shown only where the
        phrase is nothing but stop words."""
        found = {t for text in self.deciding_words for t in analyze(text, query=True)} | self.related
        for phrase in self.phrases:
            terms = set(analyze(phrase, query=True))
            found |= (terms - stop_terms()) or terms
        return found

    @property
    def needles(self) -> list[str]:
        """Literal strings to look for on a page: phrases, CJK words, and the deciding words."""
        return self.phrases + self.deciding_words

    @property
    def empty(self) -> bool:
        return not (self.words or self.phrases or self.prefixes)


def is_stop_word(word: str) -> bool:
    """A typed word all of whose index terms are stop words (in any language listed)."""
    return set(analyze(word, query=True)) <= stop_terms()


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
        elif (bare := text.strip(_EDGE_PUNCTUATION)).endswith("*") and len(bare) > 1:
            terms.prefixes.append(bare.rstrip("*"))
        elif bare:
            terms.words.append(bare)
        negate = False
    return terms
