"""A team's copy of a document is checked against its fingerprint before this computer uses it:
the bytes are stored by whichever client added them, so a teammate's copy is not trusted blindly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest

from pdfdesk.core.documents import content_fingerprint, open_pdf
from pdfdesk.core.errors import PDF_ERROR, PdfDeskError
from pdfdesk.index.team_library_files import fetch_team_file
from pdfdesk.team import matters
from tests.pdf_factory import text_pdf


def test_content_fingerprint_is_the_opened_documents_fingerprint(tmp_path: Path) -> None:
    path = text_pdf(tmp_path / "a.pdf", pages=2)
    with open_pdf(str(path)) as opened:
        assert content_fingerprint(path.read_bytes()) == opened.fingerprint
    data = path.read_bytes()
    assert content_fingerprint([data[:100], data[100:]]) == content_fingerprint(data)


def test_a_copy_whose_bytes_are_not_the_document_is_refused_and_not_written(team_db: Any, tmp_path: Path) -> None:
    real = text_pdf(tmp_path / "real.pdf", pages=1, words="Page {n}: the real contract.")
    forged = text_pdf(tmp_path / "forged.pdf", pages=1, words="Page {n}: pay the other account.")
    fingerprint = content_fingerprint(real.read_bytes())
    with psycopg.connect(team_db.conninfo("postgres")) as admin:
        matters.create_matter(admin, "Case")
        matters.grant(admin, "Case", "alice", write=True)
    with psycopg.connect(team_db.conninfo("alice")) as alice:  # a writer stores other bytes under its name
        matters.add_document(alice, "Case", fingerprint, "real.pdf", 1, content=forged.read_bytes())
    with pytest.raises(PdfDeskError) as refused:
        fetch_team_file(fingerprint)
    assert refused.value.code == PDF_ERROR and "do not match" in refused.value.message
    assert not list((tmp_path.parent).rglob(f"{fingerprint}.pdf"))
