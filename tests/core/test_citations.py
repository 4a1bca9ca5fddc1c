"""The one citation parser reads every form in the shared table, and nothing in quoted text."""

from __future__ import annotations

import pytest

from pdfdesk.core.citations import expand, find_citations, parse_bracket
from tests.citation_examples import EXAMPLES


@pytest.mark.parametrize(("text", "cited"), EXAMPLES)
def test_the_parser_reads_the_table(text, cited):
    found = [(c.file.lower() if c.file else None, c.first, c.last) for m in find_citations(text) for c in m.pages]
    assert found == cited


@pytest.mark.parametrize(("text", "cited"), [row for row in EXAMPLES if row[1]])
def test_positions_point_at_the_bracket_and_its_numbers(text, cited):
    for mark in find_citations(text):
        assert text[mark.start] == "[" and text[mark.end - 1] == "]"
        for page in mark.pages:
            assert text[page.start:page.end].split("-")[0].split("–")[0].strip() == str(page.first)


def test_a_decision_needs_only_the_text_before_it():
    text = "“quoted [p. 9]” then [p. 3] and `[p. 8]` and [p. 4]"
    whole = [(m.start, m.end) for m in find_citations(text)]
    for cut in range(len(text) + 1):
        prefix = [(m.start, m.end) for m in find_citations(text[:cut])]
        assert prefix == [span for span in whole if span[1] <= cut]


def test_long_ranges_expand_to_their_first_pages_only():
    (cited,) = parse_bracket("pp. 3-40")
    assert expand(cited, 10) == list(range(3, 13))
    (backwards,) = parse_bracket("pp. 9-2")
    assert expand(backwards, 10) == [9]
