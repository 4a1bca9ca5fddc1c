"""Where a page's words of a question sit: one paragraph holding them, or apart."""

from __future__ import annotations

import math

import pytest

from pdfdesk.index.page_text import Word
from pdfdesk.index.paragraphs import (
    MAX_TERMS,
    best_paragraph_share,
    paragraphs_of_words,
    question_terms,
    term_weights,
)


def words(*blocks: str) -> list[Word]:
    return [Word(word, (0.0, 0.0, 1.0, 1.0), block) for block, text in enumerate(blocks) for word in text.split()]


def test_a_pages_paragraphs_are_its_blocks_terms_stemmed_as_the_index_stems_them():
    paragraphs = paragraphs_of_words(words("Restoring deleted files", "The Mail queue"))
    assert paragraphs == (frozenset({"restor", "delet", "file"}), frozenset({"the", "mail", "queue"}))


def test_the_best_paragraph_holds_the_largest_share_of_the_questions_weight():
    weights = {"restor": 2.0, "delet": 1.0, "mail": 1.0}
    apart = paragraphs_of_words(words("restore it", "deleted ones", "the mail"))
    together = paragraphs_of_words(words("restore the deleted mail", "nothing else"))
    assert best_paragraph_share(apart, weights) == pytest.approx(0.5)
    assert best_paragraph_share(together, weights) == pytest.approx(1.0)
    assert best_paragraph_share((), weights) == 0.0 and best_paragraph_share(together, {}) == 0.0


def test_rarer_words_weigh_more_and_words_on_no_page_weigh_nothing():
    weights = term_weights(100, {"rare": 2, "common": 90, "absent": 0, "#abc": 5})
    assert weights["rare"] > weights["common"] > 0 and "absent" not in weights and "#abc" not in weights
    assert weights["rare"] == pytest.approx(math.log((100 - 2 + 0.5) / (2 + 0.5) + 1))


def test_a_word_another_document_holds_counts_here_as_a_word_on_no_page():
    counted = term_weights(100, {"rare": 2, "absent": 0, "#abc": 0}, counted={"absent", "#abc"})
    assert counted["absent"] == pytest.approx(math.log(100.5 / 0.5 + 1))
    assert counted["absent"] > counted["rare"] and "#abc" not in counted
    together = paragraphs_of_words(words("the rare word", "nothing else"))
    assert best_paragraph_share(together, term_weights(100, {"rare": 2, "absent": 0})) == pytest.approx(1.0)
    assert best_paragraph_share(together, counted) < 0.5


def test_a_questions_terms_keep_their_order_and_a_pasted_passage_is_cut_short():
    assert question_terms("how do I restore deleted mail") == ["restor", "delet", "mail"]
    passage = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说"
    assert len(question_terms(passage)) == MAX_TERMS
    assert question_terms(passage)[:2] == ["的一", "一是"]
