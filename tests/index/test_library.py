"""The library queue (restart-safe, skips unchanged files) and library-wide search."""

import os

import pymupdf

from pdfdesk.index.library import FAILED, INDEXED, QUEUED, Library
from pdfdesk.tools import call_tool
from tests.pdf_factory import text_pdf


def make_doc(path, words):
    doc = pymupdf.open()
    for text in words:
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 700), text, fontsize=11)
    doc.save(path)
    return path


def test_add_queue_process_and_skip_unchanged(tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    text_pdf(folder / "one.pdf")
    text_pdf(folder / "two.pdf", pages=2)
    library = Library()
    added = library.add([str(folder), str(tmp_path / "gone.pdf")])
    statuses = {e.name: e.status for e in library.entries()}
    assert statuses == {"one.pdf": QUEUED, "two.pdf": QUEUED, "gone.pdf": FAILED} and len(added) == 3
    library.process()
    assert {e.name: e.status for e in library.entries()} == {"one.pdf": INDEXED, "two.pdf": INDEXED,
                                                             "gone.pdf": FAILED}
    # adding again changes nothing, and processing does not open or hash unchanged files
    library.add([str(folder)])
    import pdfdesk.index.library as module

    def no_open(*args, **kwargs):
        raise AssertionError("an unchanged file was opened")

    monkeypatch.setattr(module, "open_pdf", no_open)
    library.process()
    monkeypatch.undo()
    # a changed file is queued again
    text_pdf(folder / "one.pdf", pages=4)
    library.add([str(folder)])
    assert {e.name: e.status for e in library.entries()}["one.pdf"] == QUEUED
    library.process()
    assert {e.name: (e.status, e.pages) for e in library.entries()}["one.pdf"] == (INDEXED, 4)


def test_library_search_spans_documents(tmp_path):
    a = make_doc(tmp_path / "alpha.pdf", ["The lease starts in May.", "Rent is paid monthly by transfer."])
    b = make_doc(tmp_path / "beta.pdf", ["An unrelated memo.", "Rent reviews happen every two years.", "Rent again."])
    Library().add([str(a), str(b)])
    Library().process()
    result = call_tool("pdf_search", {"library": True, "query": "rent"})
    assert not result.is_error, result.text
    found = {(os.path.basename(m["file"]), m["page"]) for m in result.details["matches"]}
    assert found == {("alpha.pdf", 2), ("beta.pdf", 2), ("beta.pdf", 3)}
    assert all(m["rects"] and m["excerpt"] for m in result.details["matches"])
    assert result.details["documents_searched"] == 2
    assert "alpha.pdf, page 2" in result.text


def test_library_or_path_is_required(tmp_path):
    result = call_tool("pdf_search", {"query": "x"})
    assert result.details["error"] == "validation_error" and "library=true" in result.details["message"]
    both = call_tool("pdf_search", {"query": "x", "library": True, "path": str(tmp_path / "a.pdf")})
    assert both.details["error"] == "validation_error"
