"""Library search under workspace roots: documents outside the roots are neither searched nor named.

The library may list files added before the roots were set (or by a front end without roots):
a search under roots counts them, and nothing else about them leaves the tool."""

from __future__ import annotations

import json

import pymupdf

from pdfdesk.core.config import Config, set_config
from pdfdesk.index.library import INDEXED, Library
from pdfdesk.tools import call_tool


def _doc(path, text):
    doc = pymupdf.open()
    doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 700), text, fontsize=11)
    doc.save(path)
    doc.close()
    return path


def test_library_search_under_roots_searches_and_names_only_documents_inside(tmp_path):
    root, outside = tmp_path / "cases", tmp_path / "private-folder"
    root.mkdir()
    outside.mkdir()
    inside = _doc(root / "lease.pdf", "The rent is paid monthly by bank transfer.")
    secret = _doc(outside / "salary-review-secret.pdf", "The rent allowance of the chief executive is secret.")
    link = root / "shortcut.pdf"
    link.symlink_to(_doc(outside / "linked-target-secret.pdf", "Rent clause of the linked document."))
    library = Library()
    library.add([str(inside), str(secret), str(link)])
    library.process()
    assert {e.status for e in library.entries()} == {INDEXED}
    assert len(call_tool("pdf_search", {"library": True, "query": "rent"}).details["matches"]) == 3  # all reachable

    set_config(Config(semantic=False, workspace_only=True, roots=(str(root),)))
    result = call_tool("pdf_search", {"library": True, "query": "rent"})

    assert not result.is_error, result.text
    assert [m["file"] for m in result.details["matches"]] == [str(inside)]
    assert result.details["documents_searched"] == 1
    assert result.details["documents_outside_roots"] == 2  # counted only
    assert "documents_skipped" not in result.details
    everything = json.dumps(result.to_dict(), ensure_ascii=False)
    for word in ("private-folder", "salary-review", "linked-target", "shortcut", "chief executive", "linked document"):
        assert word not in everything, word
    assert "2 library documents outside the allowed folders were not searched" in result.text


def test_without_roots_nothing_is_counted_as_outside(tmp_path):
    a = _doc(tmp_path / "a.pdf", "Rent is due.")
    Library().add([str(a)])
    Library().process()
    result = call_tool("pdf_search", {"library": True, "query": "rent"})
    assert result.details["documents_searched"] == 1 and "documents_outside_roots" not in result.details
