"""The table benchmark's ground truth says what its pages show: every true cell's words, and no
others, stand inside the true table's box; pages meant to hold no table hold none in the truth;
key-value blocks are where the truth says; the halves and producers are what they claim."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pymupdf
import pytest

from bench.table_corpus import TableDoc, TableTruth, build_corpus
from bench.table_documents import build_documents, plan
from bench.table_documents_groff import available as groff_available
from bench.table_scoring import normalised


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[TableDoc]:
    folder = tmp_path_factory.mktemp("tables")
    made = [*build_corpus(folder), *build_documents(folder)]
    return [document for document in made if document.path.exists()]  # groff's only where groff is


def _words_in(page: pymupdf.Page, box: tuple[float, ...]) -> Counter[str]:
    """The words whose centre lies in `box` (unrotated page points), split as the truth splits them."""
    found: Counter[str] = Counter()
    for x0, y0, x1, y1, text, *_rest in page.get_text("words"):
        if box[0] <= (x0 + x1) / 2 <= box[2] and box[1] <= (y0 + y1) / 2 <= box[3]:
            found.update(normalised(text).split())
    return found


def _true_words(truth: TableTruth) -> Counter[str]:
    return Counter(word for cell in truth.cells for word in normalised(cell.text).split())


def test_each_true_table_box_holds_its_cells_words_and_nothing_else(corpus: list[TableDoc]) -> None:
    checked = 0
    for document in corpus:
        with pymupdf.open(document.path) as doc:
            for truth in document.tables:
                page = doc[truth.page - 1]
                if truth.style == "scanned":
                    assert page.get_text().strip() == ""  # an image and nothing else
                    continue
                assert _words_in(page, truth.bbox) == _true_words(truth), (document.path.name, truth.page)
                assert len(truth.grid()) == truth.rows and all(len(row) == truth.cols for row in truth.grid())
                checked += 1
    assert checked >= 60


def test_pages_made_without_a_table_have_prose_and_no_true_table(corpus: list[TableDoc]) -> None:
    kinds = set()
    for document in corpus:
        with pymupdf.open(document.path) as doc:
            for number, (kind, _producer) in document.empty_pages.items():
                assert not [t for t in document.tables if t.page == number]
                assert len(doc[number - 1].get_text("words")) > 60  # a full page of prose or lists
                kinds.add(kind)
    assert kinds == {"two-column prose", "lists and key-values"}


def test_key_value_blocks_are_where_the_truth_leaves_them_unscored(corpus: list[TableDoc]) -> None:
    regions = 0
    for document in corpus:
        with pymupdf.open(document.path) as doc:
            for number, box in document.ignore:
                words = _words_in(doc[number - 1], box)
                assert sum(words.values()) >= 8, (document.path.name, number)
                assert sum(count for word, count in words.items() if word.endswith(":")) >= 3  # "Label:" lines
                regions += 1
    assert regions >= 8  # an invoice's header and a contact block per producer and half


def test_the_halves_keep_their_languages_and_every_style_appears_in_both(corpus: list[TableDoc]) -> None:
    cyrillic, kana = re.compile("[\u0400-\u04ff]"), re.compile("[\u3040-\u30ff]")
    by_half: dict[str, set[tuple[str, str, str]]] = {"tune": set(), "report": set()}
    for document in corpus:
        with pymupdf.open(document.path) as doc:
            text = "".join(page.get_text() for page in doc)
        if document.half == "tune":
            assert not cyrillic.search(text) and not kana.search(text)
        else:
            assert cyrillic.search(text) or document.path.name.startswith("groff")
        by_half[document.half] |= {(t.style, t.document, t.producer) for t in document.tables}
    assert by_half["tune"] == by_half["report"]
    assert {producer for _style, _document, producer in by_half["tune"]} >= {"drawn", "html"}
    assert {style for style, _document, _producer in by_half["tune"]} >= {"ruled", "borderless", "booktabs"}
    assert [kind for kind, _language, producer in plan("tune") if producer == "html"] == \
        [kind for kind, _language, producer in plan("tune") if producer == "drawn"]


@pytest.mark.skipif(not groff_available(), reason="groff is not installed (scripts/test.sh installs it)")
def test_groff_sets_its_pages_with_tables_the_other_producers_do_not_make(corpus: list[TableDoc]) -> None:
    groff = [d for d in corpus if d.path.name.startswith("groff-")]
    assert len(groff) == 2 and all(not d.note for d in groff)
    for document in groff:
        assert {t.producer for t in document.tables} == {"groff"}
        assert len(document.tables) == 5 and len(document.empty_pages) == 2


def test_without_groff_its_pages_are_left_out_and_the_run_says_so(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from bench import table_documents_groff

    monkeypatch.setattr(table_documents_groff, "available", lambda: False)
    document = table_documents_groff.build_groff(tmp_path, "tune", random.Random(1))
    assert "groff" in document.note and not document.tables and not document.path.exists()
