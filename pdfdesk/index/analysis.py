"""The analyzer shared by indexing, querying, scanning and highlighting: words as people type them.

A page's runs of letters and digits become index terms the way a reader later looks for them:
- runs joined by `.`, `,` or `_` (`orange,teal,red`, `major_diam`, `www.uoregon.edu`), letter/digit
  runs (`l3kernel`, `ARMv6`) and camelCase (`xOrig`) are split into their parts, each a term at
  its own position, and the joined form is kept too, at the first part's position, so a phrase of
  the parts and the whole both match;
- terms are NFKC-folded (ligatures, full-width forms, Arabic presentation forms), case-folded (not
  lowercased: `Buße` matches `busse`, a Greek final sigma matches σ), stripped of Arabic vowel
  marks with the Arabic and Persian letter variants made one, and stemmed for their script;
- scripts written without spaces (CJK, Thai, Lao, Khmer, Myanmar) become overlapping character
  bigrams, and Arabic text set in presentation forms without spaces (what XeTeX-made PDFs give) is
  cut into words where a letter's shape says its word ends.
Each piece between joiners that splits further is kept joined as well (`yOrig` of `xOrig,yOrig`).
A query gets a split word's parts and its joined form last: the parser asks for the joined form
or the phrase of the parts, which is why `analyze` takes `query`.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any
from functools import lru_cache

import snowballstemmer
from whoosh.analysis import Analyzer, Token
from whoosh.lang import stemmer_for_language
from whoosh.lang.porter import stem as porter_stem

# Scripts written without spaces between words: Han, kana, Hangul, Thai, Lao, Myanmar, Khmer.
_UNSPACED = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u1100-\u11ff\u3040-\u30ff\u3130-\u318f"
             "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff")
_CJK_CHAR = re.compile(f"[{_UNSPACED}]")
_UNSPACED_RUNS = re.compile(f"[{_UNSPACED}]+|[^{_UNSPACED}]+")
# A run: word characters, possibly joined by `.` or `,` ("4.2", "1,000", "a.b.c"); a trailing * stays
# on the word so the query parser can see prefix queries.
WORD_PATTERN = re.compile(r"[\w*]+(?:[.,][\w*]+)*")
_SEGMENTS = re.compile(r"[^.,_]+")  # the pieces of a run between its joiners
_ASCII_PARTS = re.compile(r"\d+|[A-Z]+(?=[A-Z][a-z]{2})|[A-Z]?[a-z]+|[A-Z]+")
_PARTS = re.compile(r"\d+|[^\W\d_]+")
_PRESENTATION = re.compile("[\ufb50-\ufdff\ufe70-\ufeff]")
_ARABIC_MARKS = re.compile("[\u064b-\u065f\u0670\u0640]")  # vowel marks and the tatweel
_ARABIC_VARIANTS = str.maketrans({"\u06cc": "\u064a", "\u0649": "\u064a", "\u06a9": "\u0643",
                                  "\u0623": "\u0627", "\u0625": "\u0627", "\u0622": "\u0627",
                                  "\u0671": "\u0627", "\u0629": "\u0647"})


def has_cjk(text: str) -> bool:
    """Whether `text` holds characters of a script written without spaces (CJK, Thai...)."""
    return _CJK_CHAR.search(text) is not None


@lru_cache(maxsize=4)
def _word_pattern(unspaced: int) -> re.Pattern[str]:
    return re.compile(f"[{_UNSPACED}]{{1,{unspaced}}}|[^\\s{_UNSPACED}]+")


def word_spans(text: str, unspaced: int) -> list[tuple[int, int]]:
    """(start, end) of each word of `text`: runs between spaces, except that a run of a script
    written without spaces, which has no spaces to count its words by (a Chinese line is one run),
    is cut into pieces of `unspaced` characters."""
    return [match.span() for match in _word_pattern(unspaced).finditer(text)]


def _word_end_letters() -> frozenset[str]:
    """Arabic presentation forms that end a word: the final or isolated shape of a letter that
    joins on both sides (a letter that would have joined the next one had it been in the word)."""
    joins_both: set[str] = set()
    shapes: list[tuple[str, str, str]] = []
    for code in list(range(0xFB50, 0xFE00)) + list(range(0xFE70, 0xFF00)):
        char = chr(code)
        parts = unicodedata.decomposition(char).split()
        if len(parts) == 2 and parts[0].startswith("<"):
            shapes.append((char, parts[0], chr(int(parts[1], 16))))
            if parts[0] in ("<initial>", "<medial>"):
                joins_both.add(chr(int(parts[1], 16)))
    return frozenset(char for char, shape, base in shapes if shape in ("<final>", "<isolated>") and base in joins_both)


_WORD_ENDS = _word_end_letters()
# A letter before a hamza takes its final shape inside the word too (the hamza joins nothing), as
# in "الدفء": a word end is a final or isolated shape followed by a letter other than a hamza.
_HAMZA = "\u0621\ufe80"
_WORD_END_FOLLOWED = re.compile("[" + "".join(sorted(_WORD_ENDS)) + f"](?=[^\\W\\d_])(?![{_HAMZA}])")


def fold(text: str) -> str:
    """`text` as terms compare it: NFKC, case-folded, Arabic marks dropped and variants made one."""
    if text.isascii():
        return text.lower()
    folded = unicodedata.normalize("NFKC", text).casefold()
    if max(folded) >= "\u0600" and has_arabic(folded):
        folded = _ARABIC_MARKS.sub("", folded).translate(_ARABIC_VARIANTS)
    return folded


_ARABIC = re.compile("[\u0600-\u06ff]")


def has_arabic(text: str) -> bool:
    return _ARABIC.search(text) is not None


def has_presentation_forms(text: str) -> bool:
    """Whether `text` holds Arabic presentation forms (the shapes letters take inside a word)."""
    return _PRESENTATION.search(text) is not None


def space_presentation_words(text: str) -> str:
    """`text` with a space after each presentation form that ends a word and is followed by a
    letter: the word breaks a typesetter left out, recovered from the letters' shapes."""
    return _WORD_END_FOLLOWED.sub(lambda match: match.group() + " ", text)


def _presentation_words(run: str) -> list[tuple[int, int]]:
    """Spans of `run` cut where an Arabic presentation form ends a word."""
    spans, start = [], 0
    for index, char in enumerate(run):
        if char in _WORD_ENDS and index + 1 < len(run) and run[index + 1] not in _HAMZA:
            spans.append((start, index + 1))
            start = index + 1
    spans.append((start, len(run)))
    return spans


def _split(run: str) -> list[tuple[int, int]]:
    """Spans of the parts of one run: joiners and `_` dropped, letters apart from digits, camelCase
    apart in ASCII, presentation-form Arabic cut into words."""
    pattern = _ASCII_PARTS if run.isascii() else _PARTS
    spans: list[tuple[int, int]] = []
    for match in pattern.finditer(run):
        start, end = match.span()
        if _PRESENTATION.search(match.group()):
            spans.extend((start + a, start + b) for a, b in _presentation_words(match.group()))
        else:
            spans.append((start, end))
    if run.endswith("*") and spans:  # a prefix query's star stays on its last part
        spans[-1] = (spans[-1][0], len(run))
    return spans


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    stem: str = porter_stem(word)
    return stem


@lru_cache(maxsize=200_000)
def stem_lowered(word: str) -> str:
    """The index term of one part as typed: folded, then stemmed for its script (Porter for Latin
    letters, Snowball's Russian for Cyrillic and Greek, a light prefix and suffix stripper for
    Arabic)."""
    folded = fold(word)
    if folded.isascii():
        return _stem(folded)
    if _CYRILLIC.search(folded):
        return _russian_stem(folded)
    if _GREEK.search(folded):
        return _greek_stem(folded)
    if has_arabic(folded):
        return arabic_light_stem(folded)
    return _stem(folded)


_CYRILLIC = re.compile("[\u0400-\u04ff]")
_russian_stem: Callable[[str], str] = stemmer_for_language("ru")
_GREEK = re.compile("[\u0370-\u03ff\u1f00-\u1fff]")
_GREEK_STEMMER = snowballstemmer.stemmer("greek")
_GREEK_STEMMER_LOCK = threading.Lock()  # a Snowball stemmer keeps the word it works on in itself


def _greek_stem(word: str) -> str:
    """Greek moves its accent and changes its ending from one form of a word to the next
    ("ξέχασα", "ξεχάσετε"); Snowball's Greek stemmer drops both, so the forms meet."""
    with _GREEK_STEMMER_LOCK:
        stem = _GREEK_STEMMER.stemWord(word)
    # it strips a few short words ("όταν", "έως") to nothing: those stay whole, without accents
    return stem or "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


# Arabic attaches the article, conjunctions and prepositions to the word, and marks plural, dual,
# feminine and possessive with endings: "والملفات" is "and the files". Stripping the commonest of
# them (a light stemmer, not a root finder) lets "ملف" find it; a stem keeps at least three letters.
_ARABIC_PREFIXES = ("وال", "بال", "كال", "فال", "لل", "ال", "و")
_ARABIC_SUFFIXES = ("ها", "ان", "ات", "ون", "ين", "يه", "ه", "ي")
_CONJUNCTION = "و"


def arabic_light_stem(word: str) -> str:
    """`word` (folded) without its commonest attached prefix and ending.

    A word's own first letter may be the conjunction's "و" ("وظيفة", a job), which a light stemmer
    cannot tell apart: the bare word loses it ("ظيف"). After the article, the same letter is
    dropped the same way, so "الوظيفة" and "للوثيقة" meet "وظيفة" and "وثيقة" on one term instead
    of a term of their own that a question typed without the article never finds."""
    for prefix in _ARABIC_PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 3:
            word = word[len(prefix):]
            if prefix != _CONJUNCTION and word.startswith(_CONJUNCTION) and len(word) > 3:
                word = word[1:]
            break
    for suffix in _ARABIC_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[:-len(suffix)]
    return word


# (term, position offset within the run, start, end) of each token of a run; the joined forms of a
# split run come next, each at its first part's offset, and an Arabic run's letter trigrams last,
# with offsets -1, -2, ... in a position stream of their own (GRAM_BASE and up), so a phrase of
# trigrams matches only trigrams in a row. Runs repeat on every page, so their tokens are remembered.
RunTokens = tuple[tuple[str, int, int, int], ...]


@lru_cache(maxsize=200_000)
def _run_tokens(run: str, query: bool) -> RunTokens:
    if has_cjk(run):
        return _unspaced_tokens(run)
    if run.isalpha() and (run.islower() or run[1:].islower()) and not _PRESENTATION.search(run):
        return ((stem_lowered(run), 0, 0, len(run)),)  # the common word: one part, nothing to split
    parts: list[tuple[str, int, int, int]] = []
    joined: list[tuple[str, int, int, int]] = []
    for segment in _SEGMENTS.finditer(run):
        first = len(parts)
        for a, b in _split(segment.group()):
            term = stem_lowered(segment.group()[a:b])
            if term:
                parts.append((term, len(parts), segment.start() + a, segment.start() + b))
        if len(parts) - first > 1 and not query:
            joined.append((fold(segment.group()), first, segment.start(), segment.end()))
    if len(parts) > 1 and (query or len(joined) != 1 or joined[0][2:] != (0, len(run))):
        joined.append((fold(run), 0, 0, len(run)))
    if query or not (has_arabic(run) or has_presentation_forms(run)):
        return tuple(parts + joined)
    grams = [(gram, -1 - k, 0, len(run)) for k, gram in enumerate(arabic_grams(run))]
    return tuple(parts + joined + grams)


GRAM_MARK = "#"        # starts every character n-gram term: no word term can be mistaken for one
GRAM_SIZE = 3
GRAM_MIN_LETTERS = 4   # shorter Arabic words are matched as words only
GRAM_BASE = 1 << 28    # n-grams have positions of their own, far above any word's
_ARABIC_LETTERS = re.compile("[\u0620-\u064a\u066e-\u06d3\u06d5\u06fa-\u06ff]+")


def arabic_grams(run: str) -> list[str]:
    """Overlapping letter trigrams of a run's Arabic-script words (folded). Text set without
    spaces, and words with a clitic attached ("وخرطوشة"), hold a typed word only inside a longer
    run; its trigrams in a row find it there."""
    grams: list[str] = []
    for letters in _ARABIC_LETTERS.findall(fold(run)):
        if len(letters) >= GRAM_MIN_LETTERS:
            grams.extend(GRAM_MARK + letters[i:i + GRAM_SIZE] for i in range(len(letters) - GRAM_SIZE + 1))
    return grams


QueryRun = tuple[tuple[str, ...], str | None, bool, tuple[str, ...]]


def query_runs(text: str) -> list[QueryRun]:
    """Each run of a typed word as (its parts' terms, its joined form or None, unspaced, its
    Arabic letter trigrams): what the query parser needs to ask for the word joined, as a phrase
    of its parts, or inside a longer run of Arabic letters."""
    runs: list[QueryRun] = []
    for match in WORD_PATTERN.finditer(text):
        run = match.group()
        found = _run_tokens(run, True)
        if not found:
            continue
        if has_cjk(run):
            runs.append((tuple(term for term, *_ in found), None, True, ()))
            continue
        joined = fold(run) if len(found) > 1 else None
        parts = tuple(term for term, *_ in (found[:-1] if joined is not None else found))
        shaped = has_arabic(run) or has_presentation_forms(run)
        runs.append((parts, joined, False, tuple(arabic_grams(run)) if shaped else ()))
    return runs


def _unspaced_tokens(run: str) -> RunTokens:
    """CJK (and the other unspaced scripts') characters as overlapping bigrams, a lone one as
    itself; the run's other pieces as words."""
    tokens: list[tuple[str, int, int, int]] = []
    for piece in _UNSPACED_RUNS.finditer(run):
        text, base = piece.group(), piece.start()
        if _CJK_CHAR.match(text):
            grams = [(0, len(text))] if len(text) == 1 else [(i, i + 2) for i in range(len(text) - 1)]
            tokens.extend((fold(text[a:b]), len(tokens), base + a, base + b) for a, b in grams)
        else:
            for a, b in _split(text):
                term = stem_lowered(text[a:b])
                if term:
                    tokens.append((term, len(tokens), base + a, base + b))
    return tuple(tokens)


def tokens(text: str, query: bool = False) -> Iterator[tuple[str, int, int, int]]:
    """(term, position, start char, end char) of every token of `text`, in order."""
    position, gram_position = 0, GRAM_BASE
    for match in WORD_PATTERN.finditer(text):
        found = _run_tokens(match.group(), query)
        start = match.start()
        if len(found) == 1:  # most runs are one word
            term, _, a, b = found[0]
            yield term, position, start + a, start + b
            position += 1
            continue
        width = grams = 0
        for term, offset, a, b in found:
            if offset < 0:
                yield term, gram_position - 1 - offset, start + a, start + b
                grams += 1
            else:
                yield term, position + offset, start + a, start + b
                width = max(width, offset + 1)
        position += width
        gram_position += grams + 1 if grams else 0


def term_positions(text: str) -> dict[str, list[int]]:
    """The positions of each index term of `text` (what `tokens` gives, without the characters):
    the indexing loop, which is pure Python and runs over every word of every page."""
    positions: dict[str, list[int]] = {}
    position, gram_position = 0, GRAM_BASE
    for run in WORD_PATTERN.findall(text):
        found = _run_tokens(run, False)
        if len(found) == 1:
            term = found[0][0]
            if term in positions:
                positions[term].append(position)
            else:
                positions[term] = [position]
            position += 1
            continue
        width = grams = 0
        for term, offset, _a, _b in found:
            if offset < 0:
                positions.setdefault(term, []).append(gram_position - 1 - offset)
                grams += 1
            else:
                positions.setdefault(term, []).append(position + offset)
                width = max(width, offset + 1)
        position += width
        gram_position += grams + 1 if grams else 0
    return positions


class PageAnalyzer(Analyzer):
    """The analyzer of every text field: `tokens` in Whoosh's Token form (queries get the parts)."""

    def __call__(self, value: str, positions: bool = False, chars: bool = False, keeporiginal: bool = False,
                 removestops: bool = True, start_pos: int = 0, start_char: int = 0, tokenize: bool = True,
                 mode: str = "", **kwargs: Any) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        query = mode == "query"
        found = tokens(value, query) if tokenize else [(fold(value), 0, 0, len(value))]
        for term, position, start, end in found:
            if keeporiginal:
                token.original = value[start:end]
            token.text = term
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = start_pos + position
            if chars:
                token.startchar = start_char + start
                token.endchar = start_char + end
            yield token

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PageAnalyzer)

    def __hash__(self) -> int:
        return hash(PageAnalyzer)


def page_analyzer() -> Analyzer:
    return PageAnalyzer()


@lru_cache(maxsize=65536)
def _analyze_cached(text: str, query: bool) -> tuple[str, ...]:
    return tuple(term for term, *_ in tokens(text, query))


def analyze(text: str, query: bool = False) -> list[str]:
    """The index terms of `text` (`query`: as a typed query reads: a split word's parts, then the
    word joined)."""
    if len(text) > 64:
        return [term for term, *_ in tokens(text, query)]
    return list(_analyze_cached(text, query))
