"""pdf_search group_by "document": the complete list of matching documents, as the tool returns it."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from pdfdesk.index.catalogue import INDEXED, Catalogue
from pdfdesk.index.library import Library
from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.tools import call_tool
from pdfdesk.tools import search_documents as tool_module
from tests.index import documents_library as corpus
from tests.tools.test_details_schema import _closed_errors


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("which-documents-tool")
    corpus.write_library(folder / "pdfs")
    corpus.index_library(folder / "pdfs", folder / "home")
    return folder / "home", folder / "pdfs"


@pytest.fixture
def pdfs(built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PDFDESK_HOME", str(built[0]))
    monkeypatch.setenv("PDFDESK_BACKGROUND_INDEXING", "0")
    return built[1]


def search(**args: object) -> dict:
    result = call_tool("pdf_search", {"group_by": "document", **args})
    assert not result.is_error, result.text
    errors = _closed_errors("pdf_search", dict(result.details))
    assert not errors, f"details do not match SearchDetails: {errors}"
    return {"details": result.details, "text": result.text, "content": result.content}


def test_the_library_lists_every_matching_document_with_its_pages(pdfs):
    found = search(library=True, query="arbitration")
    details = found["details"]
    documents = details["documents"]
    assert {d["name"]: d["pages_matching"] for d in documents} == corpus.arbitration()
    assert details["documents_total"] == len(corpus.arbitration()) == details["count"]
    assert details["offset"] == 0 and details["next_offset"] is None and details["group_by"] == "document"
    first = documents[0]
    assert first["name"] == corpus.name(corpus.CROWDER) and first["file"] == str(pdfs / first["name"])
    assert first["page"] == first["best_pages"][0] == corpus.DENSE_PAGE and len(first["best_pages"]) == 5
    assert "arbitration" in first["excerpt"].lower() and len(first["fingerprint"]) > 10
    assert [d["score"] for d in documents] == sorted((d["score"] for d in documents), reverse=True)
    assert f"[1] {corpus.name(corpus.CROWDER)} — 30 pages (best: p. 7, " in found["text"]
    assert f"{len(corpus.arbitration())} documents in the library hold every word" in found["text"]


@pytest.mark.parametrize(("query", "expected"), [
    ('"arbitration tribunal"', corpus.tribunal),
    ("arbitration NOT tribunal", lambda: set(corpus.arbitration()) - corpus.tribunal()),
    ("inspect*", lambda: corpus.inspection() | corpus.inspector()),
    ("tribunal boiler", lambda: set()),
])
def test_phrases_not_and_prefixes(pdfs, query, expected):
    details = search(library=True, query=query)["details"]
    assert {d["name"] for d in details["documents"]} == expected() and details["documents_total"] == len(expected())


def test_paging_with_offset_covers_every_document_once(pdfs):
    whole = [d["name"] for d in search(library=True, query="arbitration", max_results=1000)["details"]["documents"]]
    seen: list[str] = []
    offset = 0
    while offset is not None:
        found = search(library=True, query="arbitration", max_results=4, offset=offset)
        details = found["details"]
        seen += [d["name"] for d in details["documents"]]
        if details["next_offset"] is not None:
            assert f"ask again with offset={details['next_offset']}" in found["text"]
        offset = details["next_offset"]
    assert seen == whole and len(set(seen)) == len(corpus.arbitration())


def test_excerpts_are_fenced(pdfs):
    found = search(library=True, query="arbitration")
    assert found["details"]["untrusted_content"] is True
    header, fenced = found["content"][0]["text"], found["content"][1]["text"]
    assert corpus.INJECTION not in header and "<<<PDF_CONTENT" in fenced
    inside = re.search(r"<<<PDF_CONTENT (\w+).*?>>>(.*)<<<END_PDF_CONTENT \1>>>", fenced, re.S)
    assert inside is not None and corpus.INJECTION in inside.group(2)
    assert any(corpus.INJECTION in d["excerpt"] for d in found["details"]["documents"])


def test_one_document_is_that_document_or_none(pdfs):
    crowder = pdfs / corpus.name(corpus.CROWDER)
    details = search(path=str(crowder), query="arbitration")["details"]
    assert details["documents_total"] == 1 and details["pages_total"] == corpus.CROWDER_PAGES
    (document,) = details["documents"]
    assert document["pages_matching"] == corpus.CROWDER_PAGES and document["best_pages"][0] == corpus.DENSE_PAGE
    assert document["file"] == str(crowder)
    none = search(path=str(pdfs / corpus.name(1)), query="arbitration")
    assert none["details"]["documents"] == [] and none["details"]["documents_total"] == 0
    assert "0 documents in doc-01.pdf" in none["text"]


def test_numbers_out_of_range_are_brought_within_with_a_note(pdfs):
    details = search(library=True, query="arbitration", max_results=5000)["details"]
    assert details["notes"] == ["max_results=5000 is outside 1-1000 for group_by document; 1000 was used."]
    assert len(search(library=True, query="arbitration", max_results=0)["details"]["documents"]) == 1


def test_meaning_and_sections_are_not_asked_of_a_document_list(pdfs):
    details = search(library=True, query="arbitration", mode="semantic")["details"]
    assert details["mode_used"] == "keyword" and "keywords" in details["mode_reason"]
    refused = call_tool("pdf_search", {"group_by": "document", "library": True, "query": "x", "granularity": "section"})
    assert refused.is_error


def test_documents_not_indexed_yet_are_named(pdfs, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("PDFDESK_HOME", str(home))
    library = Library()
    library.add([str(pdfs / corpus.name(0)), str(pdfs / corpus.name(3))])
    library.register()  # both indexing: the library index holds neither yet
    found = search(library=True, query="arbitration")
    details = found["details"]
    assert details["documents"] == [] and details["documents_pending"] == 2
    assert set(details["documents_not_indexed"]) == {corpus.name(0), corpus.name(3)}
    assert "still being indexed" in found["text"] and corpus.name(3) in found["text"]


def _huge_library(count: int) -> None:
    """`count` one-page documents with long names, all holding "arbitration", straight into the
    library index and the catalogue (no PDF is opened by a document list)."""
    backend = SqliteLibrary()
    backend.add_documents([(f"fp{i:05d}", [(1, f"Clause {i}: disputes go to arbitration.")]) for i in range(count)])
    with Catalogue().database.writing() as db:
        db.executemany("INSERT INTO catalogue (path, name, size, mtime_ns, fingerprint, status, error, pages, added) "
                       "VALUES (?, ?, 0, 0, ?, ?, NULL, 1, ?)",
                       [(f"/nowhere/{'long-name-' * 12}{i:05d}.pdf", f"{'long-name-' * 12}{i:05d}.pdf",
                         f"fp{i:05d}", INDEXED, time.time()) for i in range(count)])


def test_a_huge_list_stays_within_the_response_cap_and_pages_on():
    _huge_library(1500)
    seen: list[str] = []
    offset = 0
    calls = 0
    while offset is not None:
        result = call_tool("pdf_search", {"library": True, "group_by": "document", "query": "arbitration",
                                          "max_results": 1000, "offset": offset})
        assert not result.is_error, result.text
        details = result.details
        assert len(result.text.encode()) <= tool_module.MAX_RESPONSE_BYTES
        assert len(json.dumps(details["documents"]).encode()) <= tool_module.MAX_RESPONSE_BYTES
        assert details["documents_total"] == 1500 and 0 < details["count"] < 1000
        names = [d["name"] for d in details["documents"]]
        assert details["next_offset"] in (None, offset + len(names))
        seen += names
        offset = details["next_offset"]
        calls += 1
    assert len(seen) == len(set(seen)) == 1500 and calls > 2


def test_documents_outside_the_workspace_roots_are_counted_not_named(pdfs, tmp_path):
    from pdfdesk.core.config import Config, set_config

    set_config(Config(semantic=False, workspace_only=True, roots=(str(tmp_path),)))
    found = search(library=True, query="arbitration")
    assert found["details"]["documents"] == [] and found["details"]["documents_outside_roots"] == corpus.DOCUMENTS
    assert "doc-0" not in json.dumps(found["details"]) + found["text"]


def test_a_scope_keeps_the_list_within_it(pdfs):
    fingerprints = {e.name: e.fingerprint for e in Library().indexed()}
    scope = [fingerprints[corpus.name(0)], fingerprints[corpus.name(1)]]
    details = search(library=True, query="arbitration", within=scope)["details"]
    assert [d["name"] for d in details["documents"]] == [corpus.name(0)] and details["documents_searched"] == 2
