"""Query strings into Whoosh queries, with the analyzer's idea of a word.

A word the analyzer splits (`major_diam`, `xOrig`, `www.uoregon.edu`) is asked for as its joined
form or a phrase of its parts, so it is found whether the page writes it joined, in another case,
or apart. A typed word made of several runs (`e-mail`, a Persian word with a zero-width non-joiner)
is a phrase of all their parts. An Arabic-script word is also asked for as a phrase of its letter
trigrams, which finds it glued to other words or to a clitic. A run of CJK (or another unspaced
script) keeps Whoosh's grouping of its bigrams.
"""

from __future__ import annotations

import re
from typing import Any

from whoosh.qparser import QueryParser
from whoosh.qparser.plugins import MultifieldPlugin
from whoosh.query import And, Or, Phrase, Query

from pdfdesk.index.analysis import query_runs


class WordPhrase(Phrase):
    """The parts of one typed word ("single-board", "colleague's"), asked for in a row: a phrase
    the analyzer made, not one the user quoted, so a relaxed query may also take the parts apart."""


# A question mark ending a word ends a question ("can a command return?"); Whoosh reads it as a
# wildcard for one more letter, and the question's last word then matched no page.
_QUESTION_MARK = re.compile(r"\?+(?=[\s\")]|$)")


class WordQueryParser(QueryParser):
    """QueryParser whose typed words are read run by run (see the module docstring)."""

    word_phrase = WordPhrase

    def parse(self, text: str, normalize: bool = True, debug: bool = False) -> Query:
        return super().parse(_QUESTION_MARK.sub(" ", text), normalize, debug)

    def term_query(self, fieldname: str, text: str, termclass: Any, boost: float = 1.0, tokenize: bool = True,
                   removestops: bool = True) -> Query | None:
        if not tokenize or self.schema is None or fieldname not in self.schema:
            return super().term_query(fieldname, text, termclass, boost, tokenize, removestops)
        runs = query_runs(text)
        if not runs:
            return None
        if len(runs) == 1:
            parts, joined, unspaced, grams = runs[0]
            if unspaced:
                return self.group.qclass([termclass(fieldname, part, boost=boost) for part in parts])
            if len(parts) == 1 and joined is None:
                word: Query = termclass(fieldname, parts[0], boost=boost)
            else:
                phrase = self.word_phrase(fieldname, list(parts), boost=boost)
                word = Or([termclass(fieldname, joined, boost=boost), phrase]) if joined is not None else phrase
            if len(grams) > 1:  # an Arabic word may be glued to its neighbours or to a clitic
                return Or([word, self.phraseclass(fieldname, list(grams), boost=boost)])
            return word
        if any(unspaced for _, _, unspaced, _ in runs):
            return self.group.qclass([termclass(fieldname, part, boost=boost) for parts, _, _, _ in runs
                                      for part in parts])
        phrase = self.word_phrase(fieldname, [part for parts, _, _, _ in runs for part in parts], boost=boost)
        if not any(grams for _, _, _, grams in runs):
            return phrase
        # a Persian word written with a zero-width non-joiner: its pieces may sit in longer runs
        pieces = [self.term_query(fieldname, "".join(parts), termclass, boost) for parts, _, _, _ in runs]
        return Or([phrase, And([piece for piece in pieces if piece is not None])])


def word_parser(fields: list[str], schema: Any) -> WordQueryParser:
    """A parser over one field, or over several (each word asked of every field)."""
    if len(fields) == 1:
        return WordQueryParser(fields[0], schema)
    parser = WordQueryParser(None, schema)
    parser.add_plugin(MultifieldPlugin(fields))
    return parser
