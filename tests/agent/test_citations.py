"""The agent records every citation form of the shared table, streamed in any pieces."""

from __future__ import annotations

import pytest

from pdfdesk.agent.citations import CitationTracker
from tests.citation_examples import EXAMPLES, NAMES, OTHER, REPORT


def attached(cited) -> list[str]:
    """report.pdf, plus the other document when the row names it (an unnamed citation needs one)."""
    return [REPORT] + ([OTHER] if any(name == "other file.pdf" for name, _, _ in cited) else [])


def expected(cited) -> list[tuple[str, int]]:
    return [(NAMES[name] if name else REPORT, page) for name, first, last in cited for page in range(first, last + 1)]


@pytest.mark.parametrize(("text", "cited"), EXAMPLES)
def test_the_tracker_cites_the_table(text, cited):
    tracker = CitationTracker(attached(cited))
    assert [(c.document, c.page) for c in tracker.feed(text)] == expected(cited)


@pytest.mark.parametrize(("text", "cited"), EXAMPLES)
def test_streaming_character_by_character_cites_the_same(text, cited):
    tracker = CitationTracker(attached(cited))
    found = [c for char in text for c in tracker.feed(char)]
    assert [(c.document, c.page) for c in found] == expected(cited)


def test_a_file_url_is_cited_by_its_decoded_name():
    tracker = CitationTracker(["file:///tmp/a%20b.pdf", REPORT])
    (citation,) = tracker.feed("See [a b.pdf p. 2].")
    assert citation.document == "file:///tmp/a%20b.pdf" and citation.label == "a b.pdf p. 2"
