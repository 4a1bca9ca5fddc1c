"""Weighing a page before MuPDF runs it: its streams read a chunk at a time and never past the
limit, forms counted once for every time they are drawn, followed without recursion and each once,
and every refusal naming its reason."""

from __future__ import annotations

import resource
import time

import pymupdf
import pytest

from pdfdesk.core import page_streams
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.core.page_streams import MAX_FORM_DEPTH, check_page, page_streams as streams_of, string_bytes
from tests.hardening.page_bombs import bomb_pdf, cyclic_forms_pdf, form_tree_pdf


def forms_pdf(path, draws: bytes = b"/Fm#20A Do /Fm#20A Do /Fm#20A Do /B Do") -> pymupdf.Document:
    """A page drawing form "Fm A" (a name with an escaped space) three times and form B once;
    B draws A twice more."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Page text")
    form_a, form_b = doc.get_new_xref(), doc.get_new_xref()
    head = "<</Type /XObject /Subtype /Form /BBox [0 0 100 100] /Resources %s>>"
    doc.update_object(form_a, head % "<<>>")
    doc.update_stream(form_a, b"0 0 10 10 re f")
    doc.update_object(form_b, head % f"<</XObject <</A {form_a} 0 R>>>>")
    doc.update_stream(form_b, b"/A Do /A Do")
    resources = int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])
    doc.xref_set_key(resources, "XObject", f"<</Fm#20A {form_a} 0 R /B {form_b} 0 R>>")
    content = page.get_contents()[0]
    doc.update_stream(content, doc.xref_stream(content) + b"\n" + draws)
    doc.save(path)
    return pymupdf.open(path)


def test_an_ordinary_page_is_read_whole(text_pdf):
    doc = pymupdf.open(text_pdf)
    page = doc[0]
    check_page(page)
    found = streams_of(page)
    assert found.refused is None and found.complete and found.content.split() == page.read_contents().split()
    joins = len(page.get_contents()) - 1  # the streams are joined with a newline each
    assert found.forms == [] and found.interpreted == len(found.content) - joins


def test_forms_are_counted_each_time_they_are_drawn(tmp_path):
    doc = forms_pdf(tmp_path / "forms.pdf")
    found = streams_of(doc[0])
    draws = {form.xref: (form.draws, form.depth) for form in found.forms}
    form_a, form_b = sorted(draws)
    assert draws == {form_a: (3 + 2, 2), form_b: (1, 1)}
    assert found.interpreted == len(found.content) + 5 * len(b"0 0 10 10 re f") + len(b"/A Do /A Do")


def test_forms_that_draw_themselves_are_followed_once(tmp_path):
    doc = pymupdf.open(cyclic_forms_pdf(tmp_path / "cycle.pdf"))
    found = streams_of(doc[0])
    assert found.refused is None and len(found.forms) == 2
    assert all(form.draws >= 1 for form in found.forms)


@pytest.mark.parametrize(("depth", "fanout", "reason"), [
    (12, 10, "forms it draws, counted each time"),       # 10^11 drawings from a 3 KB file
    (MAX_FORM_DEPTH + 5, 1, "nests forms"),
])
def test_form_trees_past_a_limit_are_refused(tmp_path, depth, fanout, reason):
    doc = pymupdf.open(form_tree_pdf(tmp_path / "tree.pdf", depth, fanout))
    started = time.monotonic()
    with pytest.raises(PdfDeskError) as refused:
        check_page(doc[0])
    assert time.monotonic() - started < 1
    assert refused.value.code == "pdf_error" and reason in refused.value.message


def test_a_form_tree_within_the_limits_is_allowed(tmp_path):
    check_page(pymupdf.open(form_tree_pdf(tmp_path / "tree.pdf", MAX_FORM_DEPTH - 4, 1))[0])


@pytest.mark.parametrize(("unit", "where"), [(b" ", "content"), (b"q Q ", "content"), (b"q Q ", "form")])
def test_a_bomb_is_read_no_further_than_the_limit(tmp_path, unit, where):
    doc = pymupdf.open(bomb_pdf(tmp_path / "bomb.pdf", unit, 4096, where=where))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    with pytest.raises(PdfDeskError) as refused:
        check_page(doc[0])
    assert time.monotonic() - started < 2
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024 < 4 * (page_streams.PAGE_BYTES >> 20)
    assert "more than 32 MB of drawing instructions" in refused.value.message


def test_a_verdict_is_remembered(tmp_path, monkeypatch):
    doc = pymupdf.open(form_tree_pdf(tmp_path / "tree.pdf", 12, 10))
    reads = []
    real = page_streams._read
    monkeypatch.setattr(page_streams, "_read", lambda obj: reads.append(1) or real(obj))
    for _ in range(3):
        with pytest.raises(PdfDeskError):
            check_page(doc[0])
    assert 0 < len(reads) <= 13  # one walk: the page's content and each form once


@pytest.mark.parametrize(("data", "at_least"), [
    (b"BT (Hello) Tj ET", 7),
    (b"BT (a \\) b) Tj ET", 8),                      # an escaped parenthesis stays inside
    (b"BT (f(x) = 1) Tj ET", 10),                    # balanced parentheses nest
    (b"BT <48656c6c6f> Tj [<0041> 12 (b)] TJ ET", 5 + 2 + 3),
    (b"(" * 20 + b"deep" + b")" * 20, 44),          # deeper than unpicked: counted whole
    (b"BT (never closed Tj ET", 17),
])
def test_string_bytes_counts_at_least_the_strings(data, at_least):
    assert string_bytes(data) >= at_least
    assert string_bytes(data) <= len(data)


def test_a_page_full_of_strings_is_refused_cheaply(tmp_path):
    doc = pymupdf.open(bomb_pdf(tmp_path / "text.pdf", b"(a)'", 8))  # two million strings in 8 MB
    with pytest.raises(PdfDeskError) as refused:
        check_page(doc[0])
    assert "of text" in refused.value.message
