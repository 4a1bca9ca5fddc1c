"""The analyzer shared by indexing and querying: words stemmed, short words and numbers kept,
CJK text split into overlapping character bigrams (CJK has no spaces between words).
"""

from __future__ import annotations

import re
from functools import lru_cache
from collections.abc import Iterator

from whoosh.analysis import Analyzer, Filter, LowercaseFilter, RegexTokenizer, StemFilter, Token
from whoosh.lang.porter import stem as porter_stem

# Han, Hiragana, Katakana, Hangul syllables and jamo, CJK punctuation-free ranges.
_CJK = "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_RUNS = re.compile(f"[{_CJK}]+|[^{_CJK}]+")
# Words with inner dots/commas kept together so "4.2", "1,000" and "a.b.c" stay one token; a
# trailing * stays on the word so the query parser can see prefix queries.
WORD_PATTERN = re.compile(r"[\w*]+(?:[.,][\w*]+)*")


def has_cjk(text: str) -> bool:
    return _CJK_CHAR.search(text) is not None


class CjkBigramFilter(Filter):
    """Replace each run of CJK characters by its overlapping bigrams (a lone character stays)."""

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        shift = 0
        for token in tokens:
            text = token.text
            if not _CJK_CHAR.search(text):
                if token.positions:
                    token.pos += shift
                yield token
                continue
            base_pos = token.pos if token.positions else 0
            base_char = token.startchar if token.chars else 0
            emitted = 0
            for run in _RUNS.finditer(text):
                piece = run.group()
                if _CJK_CHAR.match(piece):
                    grams = [piece] if len(piece) == 1 else [piece[i:i + 2] for i in range(len(piece) - 1)]
                    offsets = range(len(grams))
                else:
                    grams, offsets = [piece], range(1)
                for gram, offset in zip(grams, offsets):
                    token.text = gram
                    if token.positions:
                        token.pos = base_pos + shift + emitted
                    if token.chars:
                        token.startchar = base_char + run.start() + offset
                        token.endchar = token.startchar + len(gram)
                    emitted += 1
                    yield token
            shift += max(emitted - 1, 0)


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return porter_stem(word)


@lru_cache(maxsize=200_000)
def stem_lowered(word: str) -> str:
    """The index term of one word as typed (lowercased, then stemmed)."""
    return _stem(word.lower())


class FastWordAnalyzer(Analyzer):
    """RegexTokenizer | LowercaseFilter | StemFilter fused into one loop over regex matches.

    Indexing is pure Python; one generator stage per filter per token was most of its cost.
    """

    def __call__(self, value: str, positions: bool = False, chars: bool = False, keeporiginal: bool = False,
                 removestops: bool = True, start_pos: int = 0, start_char: int = 0, tokenize: bool = True,
                 mode: str = "", **kwargs):  # type: ignore[override]
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            matches = [(value, 0, len(value))]
        else:
            matches = ((m.group(), m.start(), m.end()) for m in WORD_PATTERN.finditer(value))
        for pos, (text, start, end) in enumerate(matches):
            lowered = text.lower()
            if keeporiginal:
                token.original = lowered
            token.text = _stem(lowered)
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = start_pos + pos
            if chars:
                token.startchar = start_char + start
                token.endchar = start_char + end
            yield token

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FastWordAnalyzer)

    def __hash__(self) -> int:
        return hash(FastWordAnalyzer)


class PageAnalyzer(Analyzer):
    """Tokenise, lowercase, split CJK into bigrams, stem (no stop words, no minimum length).

    Text without CJK skips the bigram filter entirely: indexing is pure Python, and a filter
    stage per token costs a fifth of the time.
    """

    def __init__(self) -> None:
        self.plain = FastWordAnalyzer()
        self.cjk = RegexTokenizer(WORD_PATTERN) | LowercaseFilter() | CjkBigramFilter() | StemFilter(cachesize=100000)

    def __call__(self, value: str, **kwargs):  # type: ignore[override]
        pipeline = self.cjk if has_cjk(value) else self.plain
        return pipeline(value, **kwargs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PageAnalyzer)

    def __hash__(self) -> int:
        return hash(PageAnalyzer)


def page_analyzer() -> Analyzer:
    return PageAnalyzer()


_SHARED = page_analyzer()


@lru_cache(maxsize=65536)
def _analyze_cached(text: str) -> tuple[str, ...]:
    return tuple(token.text for token in _SHARED(text))


def analyze(text: str) -> list[str]:
    """The index terms of `text` (for highlighting words and scanning pages the index lacks)."""
    if len(text) > 64:
        return [token.text for token in _SHARED(text)]
    return list(_analyze_cached(text))
