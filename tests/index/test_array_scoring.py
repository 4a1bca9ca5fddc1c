"""Relaxed and near queries scored in arrays give Whoosh's own pages, scores and order: over
several segments with replaced (deleted) pages, in four scripts, with prefixes, compound parts,
hyphenated words, phrases, NOT and section titles weighed above their text."""

import random
from pathlib import Path

import pytest
from whoosh import index as whoosh_index
from whoosh.query import And, Or, Term
from whoosh.scoring import BM25F, TF_IDF

from pdfdesk.index import array_scoring
from pdfdesk.index.query_parsing import word_parser
from pdfdesk.index.relaxing import near_queries, relaxed_query
from pdfdesk.index.relaxed_scoring import WordsOr
from pdfdesk.index.store import PAGES, SECTIONS, build_schema

WORDS = ("supplier delivery payment invoice warranty liability indemnity termination notice schedule "
         "clause party obligation confidential breach remedy damages dispute arbitration arbitrators "
         "subcontracting subcontractor court jurisdiction insurance software service availability "
         "penalty audit record report quarter revenue budget forecast the of and to a is are when "
         "Haushaltsessig Kalkablagerungen Gebühren single-board colleague's "
         "договор поставщик оплата неустойка арбитраж расторжение уведомление "
         "العقد المورد الدفع التحكيم الإنهاء الإشعار "
         "契約 供給者 支払 仲裁 解除 通知").split()

QUESTIONS = [
    "who settles subcontracting disputes through arbitrators when deliveries are late",
    "confidential breach remedy",
    "payments of invoices to suppliers NOT revenue",
    "warrant* liability for software availability",
    '"breach remedy" damages insurance',
    "single-board colleague's schedule",
    "Haushalt Essig Kalk Gebühr",
    "неустойка при расторжении договора поставщиком",
    "التحكيم في العقد مع المورد",
    "仲裁 契約 解除 通知",
    "audit quarter forecast budget report record",
]


def _page_text(rng: random.Random) -> str:
    return " ".join(rng.choices(WORDS, k=rng.randint(5, 120)))


@pytest.fixture(scope="module")
def pages_index(tmp_path_factory) -> object:
    """Pages written in three commits without merging (three segments), a fifth of them then
    replaced (their first versions deleted)."""
    folder = Path(tmp_path_factory.mktemp("array-scoring"))
    index = whoosh_index.create_in(str(folder), build_schema(PAGES), PAGES)
    rng = random.Random(11)
    for first in (1, 121, 241):
        writer = index.writer()
        for number in range(first, first + 120):
            writer.update_document(key=f"p:{number}", page=number, text=_page_text(rng))
        writer.commit(merge=False)
    writer = index.writer()
    for number in rng.sample(range(1, 361), 70):
        writer.update_document(key=f"p:{number}", page=number, text=_page_text(rng))
    writer.commit(merge=False)
    return index


def _same_ranking(by_whoosh: list[tuple[int, float]], by_arrays: list[tuple[int, float]]) -> None:
    """The same pages with the same scores, in the same order (pages whose scores tie to the last
    digits may change places: sums are added in another order)."""
    assert len(by_arrays) == len(by_whoosh)
    assert dict(by_arrays).keys() == dict(by_whoosh).keys()
    for (number, score), (other, other_score) in zip(by_whoosh, by_arrays, strict=True):
        assert other_score == pytest.approx(score, rel=1e-9, abs=1e-12)
        if number != other:
            assert dict(by_whoosh)[other] == pytest.approx(score, rel=1e-9)


def _whoosh(searcher, query, limit: int) -> list[tuple[int, float]]:
    return [(hit.docnum, hit.score) for hit in searcher.search(query, limit=limit)]


@pytest.mark.parametrize("question", QUESTIONS)
def test_relaxed_and_near_queries_rank_as_whoosh_ranks_them(pages_index, question):
    with pages_index.searcher(weighting=BM25F()) as searcher:
        assert len(searcher.leaf_searchers()) >= 3 and searcher.reader().has_deletions()
        parsed = word_parser(["text"], build_schema(PAGES)).parse(question)
        relaxed = relaxed_query(parsed, lambda field, text: (field, text) in searcher.reader())
        assert relaxed is not None
        queries = [*near_queries(parsed), relaxed]
        ranked = array_scoring.ranked(searcher, queries, 400)
        assert ranked is not None and ranked[-1], question
        for query, by_arrays in zip(queries, ranked, strict=True):
            _same_ranking(_whoosh(searcher, query, 400), by_arrays)
        # and the best few only, as a search asks for them
        _same_ranking(_whoosh(searcher, relaxed, 7), array_scoring.ranked(searcher, [relaxed], 7)[0])


@pytest.mark.parametrize("question", QUESTIONS[:4] + QUESTIONS[7:9])
def test_chosen_pages_score_as_in_the_whole_ranking(pages_index, question):
    """Pages looked up by number (in every segment, some replaced) get the scores the ranking of
    every page gives them; pages the query does not match, and deleted versions, get none."""
    with pages_index.searcher(weighting=BM25F()) as searcher:
        parsed = word_parser(["text"], build_schema(PAGES)).parse(question)
        relaxed = relaxed_query(parsed, lambda field, text: (field, text) in searcher.reader())
        every = dict(array_scoring.ranked(searcher, [relaxed], 10_000)[0])
        reader = searcher.reader()
        chosen = list(range(0, reader.doc_count_all(), 7))
        scored = array_scoring.scored(searcher, relaxed, chosen)
        assert scored is not None and scored
        assert scored.keys() == {number for number in chosen if number in every}
        assert not any(reader.is_deleted(number) for number in scored)
        for number, score in scored.items():
            assert score == pytest.approx(every[number], rel=1e-12)
    with pages_index.searcher(weighting=BM25F()) as searcher:  # no ranking before it on this searcher
        assert array_scoring.scored(searcher, relaxed, chosen) == pytest.approx(scored, rel=1e-12)
    with pages_index.searcher(weighting=TF_IDF()) as searcher:
        assert array_scoring.scored(searcher, relaxed, chosen) is None


def test_deleted_pages_are_never_found(pages_index):
    with pages_index.searcher(weighting=BM25F()) as searcher:
        reader = searcher.reader()
        query = WordsOr([Term("text", "payment"), Term("text", "audit")])
        found = [number for number, _ in array_scoring.ranked(searcher, [query], 10_000)[0]]
        assert found and not any(reader.is_deleted(number) for number in found)
        assert len({searcher.stored_fields(number)["page"] for number in found}) == len(found)


def test_odd_trees_score_as_whoosh_scores_them(pages_index):
    """A compound of one part loses its boost in Whoosh; boosts elsewhere multiply; NOT inside an
    AND is Whoosh's to score."""
    with pages_index.searcher(weighting=BM25F()) as searcher:
        queries = [
            WordsOr([Or([Term("text", "payment")], boost=3.0), Term("text", "audit", boost=0.5)]),
            WordsOr([Or([Term("text", "payment"), Term("text", "invoic")], boost=2.0), Term("text", "nosuchword")]),
            And([Term("text", "payment"), Term("text", "audit")], boost=1.5),
        ]
        for query, by_arrays in zip(queries, array_scoring.ranked(searcher, queries, 400), strict=True):
            _same_ranking(_whoosh(searcher, query, 400), by_arrays)


def test_a_section_title_weighs_as_its_field_boost_says(tmp_path):
    index = whoosh_index.create_in(str(tmp_path), build_schema(SECTIONS), SECTIONS)
    writer = index.writer()
    rng = random.Random(5)
    for number in range(40):
        writer.add_document(key=f"s:{number}", page=number + 1, end_page=number + 1, level=1,
                            title=" ".join(rng.choices(WORDS, k=3)), path="", text=_page_text(rng))
    writer.commit()
    with index.searcher(weighting=BM25F()) as searcher:
        parser = word_parser(["title", "text"], build_schema(SECTIONS))
        parsed = parser.parse("confidential breach of the arbitration clause")
        relaxed = relaxed_query(parsed, lambda field, text: (field, text) in searcher.reader())
        _same_ranking(_whoosh(searcher, relaxed, 40), array_scoring.ranked(searcher, [relaxed], 40)[0])


def test_another_weighting_is_left_to_whoosh(pages_index):
    with pages_index.searcher(weighting=TF_IDF()) as searcher:
        assert array_scoring.ranked(searcher, [Term("text", "payment")], 10) is None


def test_a_question_whose_required_words_no_page_holds_is_known_to_match_nothing(pages_index):
    """Asked before Whoosh reads the postings of its optional stop words; a question whose words
    a page does hold still runs (and finds what Whoosh finds)."""
    from whoosh.query import AndMaybe

    from pdfdesk.index.store import _holds_nothing

    stops = Or([Term("text", "the"), Term("text", "of")])
    with pages_index.searcher(weighting=BM25F()) as searcher:
        absent = AndMaybe(And([Term("text", "payment"), Term("text", "nosuchword")]), stops)
        present = AndMaybe(And([Term("text", "payment"), Term("text", "audit")]), stops)
        assert _holds_nothing(searcher, absent) and not searcher.search(absent, limit=5)
        assert not _holds_nothing(searcher, present) and searcher.search(present, limit=5)
        assert not _holds_nothing(searcher, Term("text", "nosuchword"))


def test_a_prefix_standing_for_hundreds_of_words_scores_as_whoosh_scores_it(tmp_path):
    from whoosh.query import Prefix

    index = whoosh_index.create_in(str(tmp_path), build_schema(PAGES), PAGES)
    rng = random.Random(3)
    writer = index.writer()
    for number in range(1, 81):
        words = [f"pre{rng.randrange(400):03d}" for _ in range(rng.randint(1, 30))] + rng.choices(WORDS, k=20)
        writer.add_document(key=f"p:{number}", page=number, text=" ".join(words))
    writer.commit()
    with index.searcher(weighting=BM25F()) as searcher:
        query = WordsOr([Prefix("text", "pre", boost=0.5, constantscore=False), Term("text", "payment")])
        assert len(list(searcher.reader().expand_prefix("text", "pre"))) > 300
        _same_ranking(_whoosh(searcher, query, 80), array_scoring.ranked(searcher, [query], 80)[0])
