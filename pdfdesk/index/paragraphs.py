"""Whether a page's words of a question sit together in one paragraph.

A question in one's own words shares only some words with the page that answers it, and those
words are common in the document: a manual about backups says "backup" and "disk" on most pages.
Page scores (BM25) count the words wherever they are. The answering page usually has them in one
paragraph, while other pages scatter them over unrelated ones. The paragraphs are the text blocks
of the page-text record, so this costs no extraction, and it holds for every script, since the
words are the index's own terms (stems, CJK bigrams).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from pdfdesk.core.lru import SharedLRU
from pdfdesk.index import embedding
from pdfdesk.index.analysis import GRAM_MARK, analyze
from pdfdesk.index.page_text import PageTextStore, Word
from pdfdesk.index.query_terms import parse_terms
from pdfdesk.index.thesaurus import prepared, related_terms, script_of, scripts_of

Paragraphs = tuple[frozenset[str], ...]  # the index terms of each text block of a page
Credit = dict[str, dict[str, float]]     # a question's term -> {a synonym's term: what it counts for}
# A question has a few words; a pasted passage of 1,000 Chinese characters has a thousand bigrams,
# and each term's rarity is one look-up per document: the first MAX_TERMS terms stand for it.
MAX_TERMS = 32

# Searches run on several threads at once; a page's paragraphs are the same for every query. A
# page's sets take about 36 KB (the hybrid bench's pages): 512 pages hold about 18 MB, the pages
# of a dozen questions; 4,096 took the 10,000-document library's search process from 274 to 387 MB.
_paragraphs: SharedLRU[tuple[str, int], Paragraphs] = SharedLRU(512)


def paragraphs_of_words(words: Iterable[Word]) -> Paragraphs:
    """The index terms of each block of recorded words, in block order (letter trigrams left out:
    they stand for an Arabic word already counted as itself)."""
    blocks: dict[int, set[str]] = {}
    for word in words:
        terms = blocks.setdefault(word.block, set())
        terms.update(term for term in analyze(word.text) if not term.startswith(GRAM_MARK))
    return tuple(frozenset(blocks[block]) for block in sorted(blocks))


def page_paragraphs(fingerprint: str, numbers: Iterable[int]) -> dict[int, Paragraphs]:
    """Paragraphs of the given pages whose record is stored (one database read for those not
    cached); a page without a record is left out, and counts as having its words apart."""
    found: dict[int, Paragraphs] = {}
    missing = []
    for number in dict.fromkeys(numbers):
        cached = _paragraphs.get((fingerprint, number))
        if cached is None:
            missing.append(number)
        else:
            found[number] = cached
    if missing:
        try:
            records = PageTextStore().pages(fingerprint, missing)
        except OSError:
            records = {}
        for number, record in records.items():
            found[number] = paragraphs_of_words(record.words)
            _paragraphs.put((fingerprint, number), found[number])
    return found


def question_terms(query: str) -> list[str]:
    """The terms that decide a query's match, in the order typed, at most MAX_TERMS of them."""
    deciding = parse_terms(query).stems
    ordered = [term for term in dict.fromkeys(analyze(query, query=True)) if term in deciding]
    ordered += sorted(deciding - set(ordered))  # a phrase's terms, or a part the query analyses apart
    return [term for term in ordered if not term.startswith(GRAM_MARK)][:MAX_TERMS]


# Where the model reads less than half of a question (Russian and Arabic, which the built-in model
# spells letter by letter), meaning cannot find the page that says it in other words, and a
# thesaurus can: a synonym in a paragraph counts for the question's word at RELATED_WEIGHT of the
# synonym's own weight (a common synonym, "для" for "чтобы", counts for next to nothing), scaled by
# the share of the question the model does not read, and never for more than the word itself.
# Chosen on the tune half of the hybrid bench: from 0.3 to 1.0 its Russian paraphrases rise from
# 0.335 to 0.387-0.412 (0.408 here) and no other question moves.
RELATED_WEIGHT = 0.5
THESAURUS_BELOW_READS = 0.5


def question_synonyms(query: str, terms: list[str], reads: float) -> dict[str, frozenset[str]]:
    """Synonyms of the question's `terms` worth crediting: none where the model reads at least
    THESAURUS_BELOW_READS of the question (`reads`, from `embedding.reads`)."""
    if reads >= THESAURUS_BELOW_READS:
        return {}
    script = script_of(query)
    return related_terms(terms, script, _unread) if script else {}


def prepare_synonyms(text: str) -> None:
    """Compile (or read) the thesauri a question about a document of `text` would consult, for
    each script that holds a good share of it. The indexer calls it once a document's words are
    in, so that the first question never waits the seconds a thesaurus takes to compile."""
    for script, alone in scripts_of(text).items():
        if not prepared(script) and embedding.reads(alone) < THESAURUS_BELOW_READS:
            related_terms([], script, _unread)


def _unread(sample: str) -> bool:
    """Whether the model reads less than THESAURUS_BELOW_READS of a thesaurus's words."""
    return embedding.reads(sample) < THESAURUS_BELOW_READS


def with_synonyms(terms: list[str], synonyms: Mapping[str, frozenset[str]]) -> list[str]:
    """The question's terms and then their synonyms: the terms whose page counts are looked up."""
    return terms + sorted(set().union(*synonyms.values()))


def credited(credit: Credit) -> frozenset[str]:
    """The synonyms that can count on a page, to be shown there as the question's words are."""
    return frozenset(synonym for found in credit.values() for synonym in found)


def weights_and_credit(pages: int, frequencies: Mapping[str, int], terms: list[str],
                       synonyms: Mapping[str, frozenset[str]], reads: float,
                       counted: Collection[str] = ()) -> tuple[dict[str, float], Credit]:
    """The question's term weights (`term_weights`) and what each synonym of a term counts for
    in a paragraph lacking the term. `frequencies` holds the terms' and the synonyms' page counts;
    `counted` (terms or synonyms another document holds) count here as on none of the pages."""
    weights = term_weights(pages, {term: frequencies.get(term, 0) for term in terms}, counted)
    scale = RELATED_WEIGHT * (1.0 - reads)
    credit: Credit = {}
    for term, related in synonyms.items():
        own = term_weights(pages, {synonym: frequencies.get(synonym, 0) for synonym in related}, counted)
        if scale <= 0.0 or not own:
            continue
        if term not in weights:  # a word the document never uses stands for its synonyms that it does
            weights[term] = scale * max(own.values())
        credit[term] = {synonym: min(weights[term], scale * weight) for synonym, weight in own.items()}
    return weights, credit


@dataclass(frozen=True)
class Question:
    """A question's terms and the synonyms that may count for them, worked out once; then, for
    each document, the paragraph shares of its pages. One document's search and the library's
    both ask it, the library once per document holding candidate pages."""

    terms: list[str]
    synonyms: dict[str, frozenset[str]]
    reads: float
    looked_up: list[str]  # the terms and synonyms whose page counts a document is asked for

    def shares(self, fingerprint: str, pages: Iterable[int], counts: tuple[int, Mapping[str, int]],
               counted: Collection[str] = ()) -> tuple[dict[int, float], frozenset[str]]:
        """Each page's best paragraph share, from the document's (pages, page counts of
        `looked_up`); and the synonyms that can count, to be shown on its pages as words are."""
        weights, credit = weights_and_credit(*counts, self.terms, self.synonyms, self.reads, counted)
        return paragraph_shares(fingerprint, pages, weights, credit), credited(credit)


def question(query: str, reads: float) -> Question:
    """`query`'s deciding terms and, where the model reads less than half of it (`reads`, from
    `embedding.reads`), their synonyms."""
    terms = question_terms(query)
    synonyms = question_synonyms(query, terms, reads)
    return Question(terms, synonyms, reads, with_synonyms(terms, synonyms))


def term_weights(pages: int, frequencies: Mapping[str, int], counted: Collection[str] = ()) -> dict[str, float]:
    """Each term's weight as BM25 gives it (rarer in the document, heavier). Terms on no page are
    left out, since no paragraph can hold them, unless they are `counted`: shares of pages in
    different documents are compared with each other only when each document's share is of the
    same question, so a word that another of the documents holds weighs here as a word on no page,
    and a document lacking it answers less of the question. Letter trigrams are always left out."""
    return {term: math.log((pages - held + 0.5) / (held + 0.5) + 1.0) for term, held in frequencies.items()
            if (held > 0 or term in counted) and not term.startswith(GRAM_MARK)}


def best_paragraph_share(paragraphs: Paragraphs, weights: Mapping[str, float],
                         credit: Mapping[str, Mapping[str, float]] | None = None) -> float:
    """The largest share of the question's weight that one paragraph of the page holds (0 to 1);
    a term the paragraph lacks counts for its best synonym there (`credit`), if any."""
    total = sum(weights.values())
    if total <= 0.0:
        return 0.0
    credit = credit or {}

    def held(terms: frozenset[str]) -> float:
        score = 0.0
        for term, weight in weights.items():
            if term in terms:
                score += weight
            elif term in credit:
                score += max((value for synonym, value in credit[term].items() if synonym in terms), default=0.0)
        return score

    return max((held(terms) for terms in paragraphs), default=0.0) / total


def paragraph_shares(fingerprint: str, pages: Iterable[int], weights: Mapping[str, float],
                     credit: Mapping[str, Mapping[str, float]] | None = None) -> dict[int, float]:
    """Each page's best paragraph share of a question weighed by `weights`, synonyms credited by
    `credit` (pages without a record are left out)."""
    if not weights:
        return {}
    return {number: best_paragraph_share(paragraphs, weights, credit)
            for number, paragraphs in page_paragraphs(fingerprint, pages).items()}
