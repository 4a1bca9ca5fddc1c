"""A tab is titled with the document's display name, percent-escapes of a file:// URL decoded."""

from __future__ import annotations

import pytest

from pdfdesk.gui.document_tab import DocumentTab
from tests.gui.conftest import StandInView


@pytest.mark.parametrize(("reference", "title"), [
    ("file:///tmp/a%20b.pdf", "a b.pdf"),
    ("https://example.org/r%C3%A9sum%C3%A9.pdf?x=1", "résumé.pdf"),
    ("/tmp/plain.pdf", "plain.pdf"),
])
def test_the_tab_title_is_the_decoded_name(qtbot, reference, title):
    tab = DocumentTab(reference, view_factory=lambda parent: StandInView(parent))
    qtbot.addWidget(tab)
    assert tab.name == title and tab.title() == title
