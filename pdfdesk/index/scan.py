"""Answer from pages that are not indexed yet by reading them directly, within a time budget.

This is what makes the first search of a fresh 1,000-page document come back in under a second:
the index is built in the background while this scan covers the pages it has not reached.
"""

from __future__ import annotations

import math
import os
import re
import time
from dataclasses import dataclass, field

from pdfdesk.core.documents import open_source
from pdfdesk.index.analysis import analyze, fold, has_cjk
from pdfdesk.index.builder import Target
from pdfdesk.index.page_text import searchable_text, stored_texts
from pdfdesk.index.query_terms import QueryTerms, is_stop_word

SCAN_SLICE = 25  # pages read per MuPDF lock hold, so a background build can interleave


@dataclass
class ScanResult:
    hits: list[tuple[int, float]] = field(default_factory=list)  # (page, score), best first
    partial: list[tuple[int, float]] = field(default_factory=list)  # pages with only some of the words
    scanned: list[int] = field(default_factory=list)
    not_reached: list[int] = field(default_factory=list)


def _needles(terms: QueryTerms) -> tuple[list[re.Pattern[str]], list[str]]:
    """What must (or must not) occur on a page: word stems, CJK words, phrases, prefixes. A word
    the analyzer splits (`major_diam`, `Keyword42`) needs its parts in a row, with nothing but
    punctuation or spaces between them, as the index's phrase of parts does."""
    required: list[str | re.Pattern[str]] = []
    content = [word for word in terms.words if not is_stop_word(word)]
    # stop words add nothing a page must hold, as in the index's query (unless they are all there is)
    words = content if content or terms.phrases or terms.prefixes else terms.words
    for word in words:
        parts = WORD_PARTS.findall(word)
        if has_cjk(word):
            required.append(word)
        elif len(parts) > 1:
            edge = r"(?!\d)" if parts[-1].isdigit() else ""  # "Keyword42" is not in "Keyword420"
            required.append(re.compile(r"[\W_]*".join(re.escape(part) for part in parts) + edge))
        else:
            required.extend([_stem_needle(stem, word) for stem in analyze(word, query=True)] or [word])
    required.extend(re.sub(r"\s+", " ", p) for p in terms.phrases)
    required.extend(terms.prefixes)
    return [n if isinstance(n, re.Pattern) else re.compile(re.escape(n)) for n in required if n], terms.excluded


# The parts of a typed word as they appear on a page (folded: letters, digits, camelCase apart).
WORD_PARTS = re.compile(r"\d+|[^\W\d_]+")


def _stem_needle(stem: str, word: str) -> str:
    """What a page containing `word` in any form must contain. Stems are mostly prefixes ("agre" of
    "agreed"), but the stemmer turns y into i ("compani" of "company" and "companies"), so a final
    i is dropped and only the part shared with the typed word is kept ("compan")."""
    if stem.endswith("i") and len(stem) > 3:
        stem = stem[:-1]
    shared = os.path.commonprefix([stem, word.lower()])  # noqa: RUF071 - two words, compared by character
    return shared if len(shared) >= 3 else stem


def score_text(text: str, required: list[re.Pattern[str]], excluded: list[str], any_of: bool) -> float:
    """A tf score when the page satisfies the query, else 0."""
    lowered = re.sub(r"\s+", " ", fold(text))
    if any(x in lowered for x in excluded):
        return 0.0
    counts = [len(n.findall(lowered)) for n in required]
    if not counts or (any_of and not any(counts)) or (not any_of and not all(counts)):
        return 0.0
    return sum(1.0 + math.log(c) for c in counts if c) / math.log(len(lowered) + 10)


def _relaxed_needles(terms: QueryTerms) -> list[re.Pattern[str]] | None:
    """The needles of the query's words that are not stop words, any of which makes a partial
    match (as `relaxing.relaxed_query` asks the index); None when there is nothing to relax."""
    if terms.any_of or len(terms.words) + len(terms.phrases) + len(terms.prefixes) < 2:
        return None
    content = [word for word in terms.words if not is_stop_word(word)]
    if not (content or terms.phrases or terms.prefixes):
        return None
    needles, _ = _needles(QueryTerms(words=content, phrases=terms.phrases, prefixes=terms.prefixes))
    return needles


def scan_pages(target: Target, pages: list[int], terms: QueryTerms, budget_s: float) -> ScanResult:
    """Pages holding the query's words (and, in `partial`, those holding only some of them), read
    directly until `budget_s` runs out."""
    result = ScanResult()
    required, excluded = _needles(terms)
    relaxed = _relaxed_needles(terms)
    if not required:
        result.not_reached = list(pages)
        return result
    deadline = time.monotonic() + budget_s
    # pages whose text the indexing child has already read are not read from the PDF again
    stored = stored_texts(target.fingerprint, pages[0], pages[-1]) if pages else {}
    position = 0
    while position < len(pages) and time.monotonic() < deadline:
        chunk = pages[position:position + SCAN_SLICE]
        texts = {number: stored[number] for number in chunk if number in stored}
        unread = [number for number in chunk if number not in texts]
        if unread:
            with open_source(target.source, target.password) as opened:
                for number in unread:
                    try:
                        texts[number] = searchable_text(opened.doc.load_page(number - 1))
                    except Exception:
                        texts[number] = ""
        for number in chunk:
            text = texts[number]
            score = score_text(text, required, excluded, terms.any_of)
            if score > 0:
                result.hits.append((number, score))
            elif relaxed:
                partial = score_text(text, relaxed, excluded, True)
                if partial > 0:
                    result.partial.append((number, partial))
            result.scanned.append(number)
        position += len(chunk)
    result.not_reached = pages[position:]
    result.hits.sort(key=lambda hit: -hit[1])
    result.partial.sort(key=lambda hit: -hit[1])
    return result
