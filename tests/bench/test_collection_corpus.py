"""The collection benchmark's truth matches its pages: a known item's page holds what the question
names and no other page holds all of it; a which-documents answer is exactly the documents whose
text holds the term; the halves do not overlap."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench.collection_corpus import build, read_words, words

DOCUMENTS = 80


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list, list, dict]:
    folder = tmp_path_factory.mktemp("collection")
    known, which = build(folder, DOCUMENTS)
    names = sorted(p.name for p in folder.glob("*.pdf"))
    return folder, known, which, read_words(folder, names)


def test_the_library_has_the_documents_and_questions(library):
    folder, known, which, page_words = library
    assert len(list(folder.glob("*.pdf"))) == DOCUMENTS
    pages_per_doc = Counter(name for name, _page in page_words)
    assert min(pages_per_doc.values()) >= 2  # several pages each
    assert len(known) >= 25 and len(which) >= 20
    assert {q.kind for q in known} >= {"contract-en", "contract-de", "contract-ru", "invoice-en", "report-en",
                                       "manual-en"}


def test_known_items_are_on_their_page_and_only_there(library):
    _folder, known, _which, page_words = library
    for item in known:
        needed = {w for fact in item.facts for w in words(fact)}
        assert needed <= page_words[(item.file, item.page)], item
        holding = [where for where, found in page_words.items() if needed <= found]
        assert holding == [(item.file, item.page)], item
        assert item.question.strip() and item.question not in {" ".join(item.facts)}


def test_which_documents_answers_are_complete_and_exact(library):
    _folder, _known, which, page_words = library
    for question in which:
        term = set(words(question.term))
        holding = {name for (name, _page), found in page_words.items() if term <= found}
        assert holding == set(question.files), question.question
        assert len(question.files) >= 2


def test_halves_are_disjoint_and_both_used(library):
    _folder, known, which, _page_words = library
    tune = {q.file for q in known if q.half == "tune"}
    report = {q.file for q in known if q.half == "report"}
    assert tune and report and not tune & report
    assert {q.half for q in which} == {"tune", "report"}
    assert len({q.question for q in which}) == len(which)


def test_a_second_build_reuses_the_library(library):
    folder, known, which, _page_words = library
    stamp = {p.name: p.stat().st_mtime_ns for p in folder.glob("*.pdf")}
    assert build(folder, DOCUMENTS) == (known, which)
    assert {p.name: p.stat().st_mtime_ns for p in folder.glob("*.pdf")} == stamp
