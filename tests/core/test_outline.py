"""The outline walker: what get_toc gave for ordinary outlines, and bounded work (no recursion,
no loop, a cap on depth and on entries) for hostile ones, in-process and through the CLI."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core import outline as walker
from pdfdesk.core.outline import MAX_DEPTH, read_outline
from tests.hardening.corpus import one_page


def deep_outline(path: Path, depth: int) -> Path:
    """An outline each of whose entries holds the next: `depth` levels."""
    more = [b"<</Type /Outlines /First 7 0 R /Count 1>>"]
    for level in range(depth):
        number = 7 + level
        child = b" /First %d 0 R" % (number + 1) if level < depth - 1 else b""
        more.append(b"<</Title (Level %d) /Parent %d 0 R%s /Dest [3 0 R /XYZ 0 700 0]>>"
                    % (level + 1, number - 1, child))
    path.write_bytes(one_page(catalog_extra=b"/Outlines 6 0 R", more=more))
    return path


def cyclic_outline(path: Path) -> Path:
    """A -> B -> A by /Next, and B's child is A again."""
    path.write_bytes(one_page(catalog_extra=b"/Outlines 6 0 R", more=[
        b"<</Type /Outlines /First 7 0 R /Last 8 0 R /Count 2>>",
        b"<</Title (A) /Parent 6 0 R /Next 8 0 R /Dest [3 0 R /XYZ 0 700 0]>>",
        b"<</Title (B) /Parent 6 0 R /Next 7 0 R /First 7 0 R /Dest [3 0 R /Fit]>>"]))
    return path


def destinations_pdf(path: Path) -> Path:
    """One entry for each way a destination can be written."""
    doc = pymupdf.open()
    for _ in range(4):
        doc.new_page()
    doc[2].set_rotation(90)
    doc.set_toc([[1, f"E{i}", 1] for i in range(11)])
    pages = [doc.page_xref(i) for i in range(4)]
    ways = [
        ("Dest", f"[{pages[1]} 0 R /XYZ 72 700 0]"),       # explicit, top 700 -> y 142
        ("Dest", f"[{pages[1]} 0 R /FitH 500]"),           # y 342
        ("Dest", f"[{pages[1]} 0 R /Fit]"),                # no top
        ("Dest", "[1 /XYZ 0 800 0]"),                      # a page index, as some producers write
        ("A", "<</S /URI /URI (https://example.com/x)>>"),
        ("A", "<</S /Named /N /LastPage>>"),
        ("Dest", "/old"),                                  # the catalog's /Dests dictionary
        ("Dest", "(tree)"),                                # the /Names /Dests tree, one level down
        ("Dest", "(missing)"),
        ("A", f"<</S /GoTo /D [{pages[0]} 0 R /XYZ 0 null 0]>>"),
        ("Dest", f"[{pages[2]} 0 R /XYZ 100 300 0]"),      # rotated page: through its transform
    ]
    for xref, (key, value) in zip(doc.get_outline_xrefs(), ways, strict=False):
        doc.xref_set_key(xref, "A", "null")
        doc.xref_set_key(xref, key, value)
    catalog = doc.pdf_catalog()
    doc.xref_set_key(catalog, "Dests", f"<</old <</D [{pages[3]} 0 R /XYZ 0 742 0]>>>>")
    tree = doc.get_new_xref()
    doc.update_object(tree, f"<</Kids [{tree + 1} 0 R]>>")
    doc.get_new_xref()
    doc.update_object(tree + 1, f"<</Limits [(tree) (tree)] /Names [(tree) [{pages[0]} 0 R /XYZ 0 442 0]]>>")
    doc.xref_set_key(catalog, "Names", f"<</Dests {tree} 0 R>>")
    doc.save(path)
    return path


def test_ordinary_outline_reads_as_get_toc_did(outline_pdf):
    doc = pymupdf.open(outline_pdf)
    outline = read_outline(doc)
    toc = doc.get_toc(simple=False)
    assert outline.cut is None and outline.total == len(toc) == 8
    for entry, (level, title, page, dest) in zip(outline.entries, toc, strict=False):
        assert (entry.level, entry.title, entry.page) == (level, title, page)
        assert entry.y is not None and math.isclose(entry.y, dest["to"].y, abs_tol=0.01)


def test_every_kind_of_destination(tmp_path):
    doc = pymupdf.open(destinations_pdf(tmp_path / "dests.pdf"))
    got = [(e.page, None if e.y is None else round(e.y), e.uri) for e in read_outline(doc).entries]
    assert got == [
        (2, 142, None), (2, 342, None), (2, None, None), (2, 42, None),
        (None, None, "https://example.com/x"), (4, None, None),
        (4, 100, None), (1, 400, None), (None, None, None), (1, None, None),
        (3, 100, None),
    ]


def test_a_limit_on_entries_listed_still_counts_them_all(outline_pdf):
    outline = read_outline(pymupdf.open(outline_pdf), limit=3)
    assert [e.title for e in outline.entries] == ["Introduction", "Background", "Scope"]
    assert outline.total == 8 and outline.cut is None


def test_a_hundred_thousand_levels_are_walked_in_bounded_time(tmp_path):
    path = deep_outline(tmp_path / "deep.pdf", 100_000)
    started = time.monotonic()
    doc = pymupdf.open(path)  # PyMuPDF's own outline load at open would overflow the C stack
    outline = read_outline(doc)
    assert time.monotonic() - started < 10
    assert [e.level for e in outline.entries] == list(range(1, MAX_DEPTH + 1))
    assert outline.entries[-1].title == f"Level {MAX_DEPTH}" and outline.entries[0].page == 1
    assert "levels deep" in outline.cut
    assert doc.get_toc() == []  # MuPDF is never handed an outline the walk could not read whole


def test_a_thousand_levels_no_longer_raise_recursion_errors(tmp_path):
    doc = pymupdf.open(deep_outline(tmp_path / "deep.pdf", 1000))
    outline = read_outline(doc)
    assert outline.total == MAX_DEPTH and outline.cut


def test_a_cyclic_outline_is_read_once(tmp_path):
    outline = read_outline(pymupdf.open(cyclic_outline(tmp_path / "loop.pdf")))
    assert [(e.level, e.title) for e in outline.entries] == [(1, "A"), (1, "B")]
    assert "loop" in outline.cut


def test_the_entry_cap_cuts_a_wide_outline(tmp_path, monkeypatch):
    doc = pymupdf.open()
    doc.new_page()
    doc.set_toc([[1, f"Entry {i}", 1] for i in range(50)])
    monkeypatch.setattr(walker, "MAX_ENTRIES", 20)
    outline = read_outline(doc)
    assert outline.total == 20 and len(outline.entries) == 20 and "more than 20 entries" in outline.cut


def test_a_deep_name_tree_does_not_recurse(tmp_path):
    """Named destinations behind 5,000 nested /Kids: the lookup gives up, the entry stays."""
    depth = 5000
    more = [b"<</Type /Outlines /First 7 0 R /Count 1>>", b"<</Title (Named) /Parent 6 0 R /Dest (deep)>>"]
    for level in range(depth):
        number = 8 + level
        more.append(b"<</Kids [%d 0 R]>>" % (number + 1) if level < depth - 1
                    else b"<</Names [(deep) [3 0 R /XYZ 0 700 0]]>>")
    path = tmp_path / "names.pdf"
    path.write_bytes(one_page(catalog_extra=b"/Outlines 6 0 R /Names <</Dests 8 0 R>>", more=more))
    outline = read_outline(pymupdf.open(path))
    assert [(e.title, e.page) for e in outline.entries] == [("Named", None)]
    assert "named-destination tree" in outline.cut


@pytest.mark.parametrize(("make", "cut"), [(lambda p: deep_outline(p, 100_000), "levels deep"),
                                          (cyclic_outline, "loop")])
def test_the_cli_lists_hostile_outlines_without_crashing(tmp_path, make, cut):
    path = make(tmp_path / "hostile.pdf")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pdfdesk", "tool", "pdf_outline", json.dumps({"path": str(path)})],
                          capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 30  # the limit is 10 s of work; the rest is interpreter start-up
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert not result["isError"] and cut in result["details"]["outline_cut"]
    assert result["details"]["count"] >= 2
