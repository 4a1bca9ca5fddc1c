"""Which documents hold a query: the complete set, counted and ranked, paged without gaps or repeats."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdfdesk.index import library_documents
from pdfdesk.index.backend import DocumentHit
from pdfdesk.index.library import Library
from pdfdesk.index.library_fts import SqliteLibrary
from tests.index import documents_library as corpus


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("which-documents")
    home = folder / "home"
    corpus.write_library(folder / "pdfs")
    corpus.index_library(folder / "pdfs", home)
    return home


@pytest.fixture
def library(built: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The generated library as this test's data folder; fingerprint -> name."""
    monkeypatch.setenv("PDFDESK_HOME", str(built))
    return {e.fingerprint: e.name for e in Library().indexed() if e.fingerprint}


def _names(page: library_documents.DocumentPage, names: dict[str, str]) -> list[str]:
    return [names[hit.fingerprint] for hit in page.documents]


def test_every_matching_document_is_listed_once_with_its_matching_pages(library):
    page = library_documents.documents("arbitration", 0, 1000)
    assert len(library) == corpus.DOCUMENTS
    assert page.total == len(page.documents) == len(corpus.arbitration()) and page.next_offset is None
    counts = {library[hit.fingerprint]: hit.pages_matching for hit in page.documents}
    assert counts == corpus.arbitration()


def test_a_document_matching_on_many_pages_does_not_crowd_the_others_out(library):
    first = library_documents.documents("arbitration", 0, 5)
    named = _names(first, library)
    assert named[0] == corpus.name(corpus.CROWDER) and len(set(named)) == 5
    crowder = first.documents[0]
    assert crowder.pages_matching == corpus.CROWDER_PAGES
    assert crowder.best_pages[0] == corpus.DENSE_PAGE and len(crowder.best_pages) == 5
    assert len(set(crowder.best_pages)) == 5


def test_best_pages_are_the_matching_pages_best_first(library):
    page = library_documents.documents("arbitration", 0, 1000)
    by_name = {library[hit.fingerprint]: hit for hit in page.documents}
    assert set(by_name[corpus.name(0)].best_pages) == {1, 3}  # the two pages that hold it
    assert by_name[corpus.name(9)].best_pages == (1,)


def test_ranked_by_best_page_then_pages_matching_then_name(library):
    hits = library_documents.documents("arbitration", 0, 1000).documents
    keys = [(-round(h.score, 9), -h.pages_matching, library[h.fingerprint]) for h in hits]
    assert keys == sorted(keys)
    made = [DocumentHit("b", 1.0, 1, (1,)), DocumentHit("a", 1.0, 1, (2,)), DocumentHit("c", 1.0, 3, (1,)),
            DocumentHit("d", 2.0, 1, (1,))]
    assert [h.fingerprint for h in library_documents.ranked(made, {"a": "z.pdf", "b": "y.pdf"})] == \
        ["d", "c", "b", "a"]


@pytest.mark.parametrize(("query", "expected"), [
    ("arbitrations", lambda: set(corpus.arbitration())),                         # stemmed
    ('"arbitration tribunal"', corpus.tribunal),                                 # a phrase
    ("arbitration NOT tribunal", lambda: set(corpus.arbitration()) - corpus.tribunal()),
    ("inspection", corpus.inspection),
    ("inspect*", lambda: corpus.inspection() | corpus.inspector()),              # a prefix of two stems
    ("inspection OR inspector", lambda: corpus.inspection() | corpus.inspector()),
    ("tribunal arbitration boiler", lambda: set()),                              # every word, on one page
])
def test_the_strict_keyword_match_decides(library, query, expected):
    page = library_documents.documents(query, 0, 1000)
    assert set(_names(page, library)) == expected()
    assert page.total == len(expected())


def test_paging_covers_every_document_once_in_the_same_order(library):
    whole = _names(library_documents.documents("arbitration", 0, 1000), library)
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page = library_documents.documents("arbitration", offset, 3)
        assert page.offset == offset and len(page.documents) <= 3
        seen += _names(page, library)
        offset = page.next_offset
    assert seen == whole and len(set(seen)) == len(whole)
    assert library_documents.documents("arbitration", 500, 3).documents == []


def test_within_keeps_only_those_documents(library):
    wanted = {fp for fp, name in library.items() if name in (corpus.name(0), corpus.name(1), corpus.name(3))}
    page = library_documents.documents("arbitration", 0, 100, within=wanted)
    assert set(_names(page, library)) == {corpus.name(0), corpus.name(3)}
    assert {name for name, _path in page.places.values()} == {corpus.name(0), corpus.name(3)}


def test_admit_keeps_documents_out_by_their_path(library):
    backend = SqliteLibrary()
    everything = library_documents.documents("arbitration", 0, 100, backend=backend)
    page = library_documents.documents("arbitration", 0, 100, backend=backend,
                                       admit=lambda path: not path.endswith(corpus.name(0)))
    assert page.total == everything.total - 1 and corpus.name(0) not in _names(page, library)


def test_documents_the_catalogue_does_not_list_as_indexed_are_left_out(library):
    backend = SqliteLibrary()
    with backend.database.writing() as db:
        db.execute("UPDATE catalogue SET status = 'queued' WHERE name = ?", (corpus.name(3),))
    try:
        page = library_documents.documents("arbitration", 0, 100, backend=backend)
        assert corpus.name(3) not in _names(page, library) and page.total == len(corpus.arbitration()) - 1
    finally:
        with backend.database.writing() as db:
            db.execute("UPDATE catalogue SET status = 'indexed' WHERE name = ?", (corpus.name(3),))


def test_one_document_from_its_page_texts():
    texts = {1: "The arbitration clause.", 2: "Nothing here.", 3: "Arbitration again, arbitration tribunal."}
    hit = library_documents.document_hit("f", texts, "arbitration")
    assert hit is not None and hit.pages_matching == 2 and hit.best_pages == (1, 3)
    ordered = library_documents.document_hit("f", texts, "arbitration", lambda pages: [(3, 2.5), (2, 9.0), (1, 1.0)])
    assert ordered is not None and ordered.best_pages == (3, 1) and ordered.score == 2.5
    assert library_documents.document_hit("f", texts, "arbitration NOT tribunal").best_pages == (1,)
    assert library_documents.document_hit("f", texts, "mediation") is None


def test_an_excerpt_shows_the_first_hit():
    text = "Lorem ipsum. " * 30 + "Disputes go to arbitration in Geneva." + " Dolor sit." * 30
    shown = library_documents.excerpt("f", 1, "arbitration", 20, text)
    assert "arbitration" in shown and shown.startswith("…") and shown.endswith("…") and len(shown) < 50
    assert library_documents.excerpt("missing", 1, "arbitration") == ""


def test_a_change_by_another_connection_is_seen_at_once(library):
    import sqlite3

    backend = SqliteLibrary()
    before = library_documents.documents("arbitration", 0, 100, backend=backend)
    assert corpus.name(0) in _names(before, library)
    other = sqlite3.connect(backend.database.path)  # as another process would
    try:
        with other:
            other.execute("UPDATE catalogue SET status = 'queued' WHERE name = ?", (corpus.name(0),))
        after = library_documents.documents("arbitration", 0, 100, backend=backend)
        assert corpus.name(0) not in _names(after, library) and after.total == before.total - 1
    finally:
        with other:
            other.execute("UPDATE catalogue SET status = 'indexed' WHERE name = ?", (corpus.name(0),))
        other.close()
    assert library_documents.documents("arbitration", 0, 100, backend=backend).total == before.total
