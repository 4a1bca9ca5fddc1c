"""Query strings into Whoosh queries, with the analyzer's idea of a word.

A word the analyzer splits (`major_diam`, `xOrig`, `www.uoregon.edu`) is asked for as its joined
form or a phrase of its parts (the analyzer gives the parts, then the joined form last), so it is
found whether the page writes it joined, in another case, or apart; a run of CJK (or another
unspaced script) keeps Whoosh's grouping of its bigrams.
"""

from __future__ import annotations

from typing import Any

from whoosh.qparser import QueryParser
from whoosh.qparser.plugins import MultifieldPlugin
from whoosh.query import Or, Query

from pdfdesk.index.analysis import has_cjk


class WordQueryParser(QueryParser):
    """QueryParser whose split words become phrases of their parts."""

    def multitoken_query(self, spec: str, texts: list[str], fieldname: str, termclass: Any, boost: float) -> Query:
        if any(has_cjk(text) for text in texts):
            return super().multitoken_query(spec, texts, fieldname, termclass, boost)
        *parts, joined = texts
        return Or([termclass(fieldname, joined, boost=boost), self.phraseclass(fieldname, parts, boost=boost)])


def word_parser(fields: list[str], schema: Any) -> WordQueryParser:
    """A parser over one field, or over several (each word asked of every field)."""
    if len(fields) == 1:
        return WordQueryParser(fields[0], schema)
    parser = WordQueryParser(None, schema)
    parser.add_plugin(MultifieldPlugin(fields))
    return parser
