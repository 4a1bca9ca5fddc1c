"""The library index in SQLite FTS5: the same words, phrases and scripts as a document's index."""

from __future__ import annotations

import pytest

from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.index.library_fts_query import page_columns, token
from pdfdesk.index.library_search import parse, rank


@pytest.fixture
def library() -> SqliteLibrary:
    backend = SqliteLibrary()
    backend.add_documents([
        ("doc-a", [(1, "The major_diam of the bolt is 12 mm. Keyword42 appears here."),
                   (2, "E-mail the landlord about the heating."),
                   (3, "والكتاب في المكتبة الكبيرة")]),
        ("doc-b", [(1, "Configuring the printer driver on Linux."),
                   (2, "中文分词测试 and the printer queue"),
                   (3, "Nothing of interest, only the weather.")]),
    ])
    return backend


def found(backend: SqliteLibrary, query: str) -> list[tuple[str, int]]:
    """The pages holding every word (those holding some follow them in a ranking, marked so)."""
    return [(hit.fingerprint, hit.page) for hit in rank(query, 10, backend=backend).hits if hit.match == "all"]


def test_words_stems_and_scripts_are_found_as_in_a_documents_index(library):
    assert found(library, "configure printers") == [("doc-b", 1)]  # stemmed, all words
    assert found(library, "major_diam")[0] == ("doc-a", 1) and found(library, "major diam")[0] == ("doc-a", 1)
    assert found(library, "keyword42") == [("doc-a", 1)]
    assert found(library, "e-mail landlord") == [("doc-a", 2)]  # a phrase of the parts
    assert found(library, "分词") == [("doc-b", 2)]
    assert found(library, "الكتاب")[0] == ("doc-a", 3)  # glued to its article, found by its trigrams


def test_phrases_prefixes_not_and_or(library):
    assert found(library, '"printer driver"') == [("doc-b", 1)]
    assert found(library, '"driver printer"') == []
    assert set(found(library, "print*")) == {("doc-b", 1), ("doc-b", 2)}
    assert found(library, "printer NOT queue") == [("doc-b", 1)]
    assert set(found(library, "weather OR landlord")) == {("doc-b", 3), ("doc-a", 2)}


def test_pages_holding_some_words_follow_and_say_how_many(library):
    hits = rank("printer weather umbrella", 10, backend=library).hits
    assert hits and all(hit.match == "partial" for hit in hits)
    assert {(hit.fingerprint, hit.page) for hit in hits} == {("doc-b", 1), ("doc-b", 2), ("doc-b", 3)}
    assert all(hit.words_held == pytest.approx(1 / 3, abs=0.01) for hit in hits)


def test_within_keeps_only_the_documents_allowed(library):
    hits = rank("printer OR landlord", 10, within={"doc-a"}, backend=library).hits
    assert {hit.fingerprint for hit in hits} == {"doc-a"}


def test_a_document_added_again_replaces_its_pages_and_removal_leaves_nothing(library):
    library.add_documents([("doc-b", [(1, "Only a new page about tulips.")])])
    assert found(library, "printer") == [] and found(library, "tulips") == [("doc-b", 1)]
    library.remove_documents(["doc-a", "doc-b"])
    assert library.state().documents == 0 and found(library, "tulips") == [] and found(library, "landlord") == []
    assert not library.holds("tulip")


def test_columns_keep_a_split_words_parts_in_a_row_and_trigrams_apart():
    words, joined, grams = page_columns("Keyword42 next")
    assert words.split() == [token("keyword"), token("42"), token("next")]
    assert joined.split() == [token("keyword42")]
    words, joined, grams = page_columns("والكتاب المكتبة")
    assert "z" in grams.split()  # the two words' trigrams never form one run


def test_a_query_the_index_cannot_express_matches_nothing(library):
    assert found(library, "NOT printer") == []
    assert parse("") is not None


def _record(fingerprint: str, pages: dict[int, list[str]]) -> list[tuple[int, str]]:
    """Store each page's paragraphs as the page-text record would (one block each) and return the
    pages' texts for the library index."""
    from pdfdesk.index.page_text import PageText, PageTextStore, Word

    records = []
    for number, paragraphs in pages.items():
        words = tuple(Word(word, (0.0, 0.0, 1.0, 1.0), block) for block, text in enumerate(paragraphs)
                      for word in text.split())
        records.append(PageText(number, "\n".join(paragraphs), words=words))
    PageTextStore().write(fingerprint, len(pages), records)
    return [(number, "\n".join(paragraphs)) for number, paragraphs in pages.items()]


def test_auto_orders_pages_holding_some_words_by_the_paragraph_that_holds_them_together():
    # page 1 says each word twice, each in a paragraph of its own; page 2 says three of them once,
    # in one paragraph: BM25 prefers page 1, a reader asking the question wants page 2
    pages = {1: ["Restore jobs run at night. Restore logs are kept.",
                 "Deleted items stay in the bin. Deleted items are purged weekly.",
                 "The mail server is monitored. Mail queues are drained."],
             2: ["To restore a deleted mail message open the archive and choose it.",
                 "The archive keeps every message for a year and lists them by date and sender."],
             **{n: [f"Page {n} is about printers, toner and paper trays."] for n in range(3, 9)}}
    backend = SqliteLibrary()
    backend.add_documents([("doc-m", _record("doc-m", pages))])
    query = "restore deleted mail folders quickly"
    keyword = [hit.page for hit in rank(query, 5, backend=backend).hits]
    auto = rank(query, 5, backend=backend, by_evidence=True)
    assert keyword[:2] == [1, 2]
    assert [hit.page for hit in auto.hits][:2] == [2, 1] and all(hit.match == "partial" for hit in auto.hits)
    assert auto.meaning == set()  # no vectors were asked about: meaning said nothing


def test_auto_counts_a_page_whose_meaning_stands_out_in_its_own_document():
    # pages 1 and 2 hold two of the four words each, page 1 twice as often
    pages = {1: ["Restore jobs run tonight. Restore again tonight."], 2: ["Mail is restored from the archive."],
             **{n: [f"Page {n} is about printers and toner."] for n in range(3, 6)}}
    backend = SqliteLibrary()
    backend.add_documents([("doc-s", _record("doc-s", pages))])
    asked: list[tuple[str, str, list[int]]] = []

    def standouts(fingerprint: str, query: str, numbers: list[int]) -> dict[int, float]:
        asked.append((fingerprint, query, sorted(numbers)))
        return {2: 6.0, 1: 0.0}

    query = "restore mail tonight quickly"
    assert [hit.page for hit in rank(query, 5, backend=backend).hits] == [1, 2]
    auto = rank(query, 5, backend=backend, standouts=standouts, by_evidence=True)
    assert asked == [("doc-s", query, [1, 2])]
    assert [hit.page for hit in auto.hits] == [2, 1] and auto.meaning == {("doc-s", 2)}
