"""The cheap gate in front of the hidden-text analysis: it may let through pages that hide nothing,
but never skip one that hides text by the means it covers.

The property test builds pages from operators that hide text or only look as if they could, runs
the full analysis with every check on, and requires the gate to ask for each check that found
something. The means the gate does not cover (positions moved by Td or cm, sizes shrunk by two
matrices that each look harmless, black text on a black shape when no colour is ever set) are left
out.
"""

from __future__ import annotations

import pymupdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdfdesk.core.hidden_gate import Gate, gate_page, gate_stream
from pdfdesk.core.hidden_text import find_hidden
from pdfdesk.core.text import text_page

# Graphics states the property test's pages define: fully transparent, half transparent.
STATES = "<</Clear <</Type /ExtGState /ca 0>> /Half <</Type /ExtGState /ca 0.5>>>>"

A4 = 842.0


def gate_of(content: bytes) -> Gate:
    return gate_stream(content, lambda: A4)


def page_with(content: bytes) -> tuple[pymupdf.Document, pymupdf.Page]:
    doc = pymupdf.open()
    page = doc.new_page()  # A4
    page.insert_font(fontname="helv", fontbuffer=pymupdf.Font("helv").buffer)
    xref = page.get_contents()[0] if page.get_contents() else None
    if xref is None:
        page.insert_text((0, 0), " ")
        xref = page.get_contents()[0]
    doc.update_stream(xref, content)
    resources = int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])
    doc.xref_set_key(resources, "ExtGState", STATES)
    return doc, doc.reload_page(page)


TEXT = b"BT /helv 12 Tf 1 0 0 1 72 700 Tm (Quarterly report) Tj ET"


@pytest.mark.parametrize("content", [
    TEXT,
    b"BT /F1 10.5 Tf 1 0 0 -1 72.5 71.45 Tm [<0102030405>]TJ 0 -12.6 Td [<0a0b>-250<0c>]TJ ET",
    b"0 0 0 rg BT /F1 10.5 Tf 72 700 Td [<0fb1 FB bf>-250<f>12<B 0>]TJ ET",  # fill letters as glyph ids
    b"q 1 0 0 -1 0 842 cm 62 62 471 718 re W n 0 0 0 rg BT /F0 10 Tf 0 Tr ET Q",
    b"BT /F1 12 Tf 72 700 Td (it costs 1 1 1 rg and 3 Tr and 0.5 Tf, 1 0 0 1 900 900 Tm) Tj ET",
    b"BT /F1 12 Tf 72 700 Td (a \\) 1 1 1 rg \\( b) Tj ET",
    b"BT /F1 1 Tf 12 0 0 12 72 700 Tm (scaled by the matrix) Tj ET",
    b"0.1 0 0 0.1 0 0 cm BT /F1 120 Tf 720 7000 Td (Ghostscript-style units) Tj ET",
    b"0 0 0 RG 0.5 w 72 700 m 500 700 l S BT /F1 12 Tf 72 680 Td (ruled) Tj ET",
])
def test_ordinary_pages_pass(content):
    assert not gate_of(content).any


@pytest.mark.parametrize(("content", "spans", "fills", "off_page"), [
    (b"BT /F1 12 Tf 3 Tr 72 700 Td (x) Tj ET", True, False, False),
    (b"BT /F1 12 Tf 7 Tr (x) Tj ET", True, False, False),
    (b"BT /F1 12 Tf 3<00>Tr (x) Tj ET", True, False, False),   # a string between operand and operator
    (b"BT /F1 12 Tf 3\0Tr (x) Tj ET", True, False, False),      # NUL is whitespace
    (b"BT /F1 12 Tf [ 0 Tr 3 Tr ] (x) Tj ET", True, False, False),  # MuPDF runs the "3 Tr" after the abort
    (b"BT /F1 0.5Tf (x) Tj ET", True, False, False),
    (b"BT /F1 12 Tf 0.01 0 0 0.01 72 700 Tm (x) Tj ET", True, False, False),
    (b"0.05 0 0 0.05 0 0 cm BT /F1 12 Tf (x) Tj ET", True, False, False),
    (b"BT /F1 12 Tf 1 1 1 1 72 700 Tm (x) Tj ET", True, False, False),  # singular: no size at all
    (b"BT /F1 12 Tf 1 0 0 1 900 1200 Tm (x) Tj ET", False, False, True),
    (b"BT /F1 12 Tf 1 0 0 1 72 -400 Tm (x) Tj ET", False, False, True),
    (b"BT /F1 12 Tf 1 0 0 1 72 -50 Tm (x) Tj ET 1 0 0 1 72 851 Tm", False, False, False),  # bleed
    (b"BT /F1 12 Tf 1 0 0 1 72 -50.5 Tm (x) Tj ET", False, False, True),
    (b"BT /F1 12 Tf 1 0 0 1 72 852.5 Tm (x) Tj ET", False, False, True),
    (b"1 1 1 rg BT /F1 12 Tf (x) Tj ET", True, True, False),
    (b".95 g BT /F1 12 Tf (x) Tj ET", True, True, False),
    (b"0 0 0 0 k BT /F1 12 Tf (x) Tj ET", True, True, False),
    (b"/CS0 cs 1 1 1 sc BT /F1 12 Tf (x) Tj ET", True, True, False),
    (b"0.1 0.4 0.2 rg 60 150 440 30 re f BT /F1 12 Tf 72 160 Td (x) Tj ET", True, True, False),
    # a fill among glyph runs: MuPDF abandons the array at the first "f" and runs the second
    (b"0.1 0.4 0.2 rg BT 60 150 440 30 re [<0041> f f] TJ ET BT /F1 12 Tf (x) Tj ET", True, True, False),
    (b"0.1 0.4 0.2 rg BT 60 150 440 30 re [<00>-250<41>1 B B] TJ ET BT /F1 12 Tf (x) Tj ET", True, True, False),
    (b"% a comment with a ( that could swallow operators\n3 Tr BT (x) Tj ET", True, False, False),
])
def test_each_hiding_operator_opens_its_check(content, spans, fills, off_page):
    covers = b"BT 60 150 440 30 re" in content  # that rectangle is filled after a text object began
    assert gate_of(content) == Gate(spans=spans, fills=fills, off_page=off_page, covers=covers)


def test_hidden_text_in_a_form_xobject_is_found_once_per_document():
    doc = pymupdf.open()
    inner = pymupdf.open()
    inner.new_page().insert_text((72, 72), "inside the form", render_mode=3)
    for _ in range(2):
        doc.new_page().show_pdf_page(pymupdf.Rect(0, 0, 595, 842), inner, 0)
    forms: dict[int, Gate] = {}
    assert gate_page(doc[0], forms).spans
    checked = dict(forms)
    assert gate_page(doc[1], forms).spans
    assert all(forms[xref] is gate for xref, gate in checked.items())  # the shared form is not read again


# --- the property: pages built from hiding (and harmless) operators ---------------------------

NUMBER = st.sampled_from(["0", "1", "2", "12", "0.5", ".5", "0.01", "-1", "0.9", "0.95", "1.0", "3", "7"])
SIZE = st.sampled_from(["0", "1", "12", "0.5", ".5", "0.01", "1.0", "7"])  # (a negative one mirrors text)
# Origins on the page, or beyond the 50 pt (10 pt past the far edge) the gate allows for bleed;
# the far edge is the page's longest side, whichever way the page is turned.
COORDINATE = st.sampled_from(["72", "300.5", "0", "-51", "-400", "853", "900", "1200"])
SEPARATOR = st.sampled_from([b" ", b"\n", b"\0", b" (s) ", b"<0a0b>", b"\r\n"])


@st.composite
def statement(draw: st.DrawFn) -> bytes:
    sep = draw(SEPARATOR)
    kind = draw(st.sampled_from(["size", "mode", "matrix", "colour", "fill", "text", "array", "cm", "state", "cover"]))
    if kind == "size":
        return b"/helv " + draw(SIZE).encode() + sep + b"Tf"
    if kind == "mode":
        return draw(st.sampled_from([b"0", b"1", b"2", b"3", b"7"])) + sep + b"Tr"
    if kind == "matrix":
        scale = draw(st.sampled_from(["1 0 0 1", "1 0 0 -1", "2 0 0 2", "0.05 0 0 0.05", "2 1 2 1"]))
        return (scale + " " + draw(COORDINATE) + " " + draw(COORDINATE)).encode() + sep + b"Tm"
    if kind == "colour":
        op = draw(st.sampled_from(["g", "rg", "k"]))
        count = {"g": 1, "rg": 3, "k": 4}[op]
        return " ".join(draw(NUMBER) for _ in range(count)).encode() + b" " + op.encode()
    if kind == "fill":
        colour = draw(st.sampled_from([b"0 0 0 rg", b"0.2 0.3 0.4 rg", b"1 g"]))
        return b"ET " + colour + b" 60 650 440 100 re f BT"
    if kind == "array":
        if draw(st.booleans()):  # a fill among the glyph runs: MuPDF runs the second "f"
            return b"0.2 0.3 0.4 rg 60 650 440 100 re [ <0a> f f ] TJ ET BT 1 0 0 1 72 700 Tm"
        return b"[ <0a> " + draw(st.sampled_from([b"0 Tr 3 Tr", b"-250", b"0 Tf 0.5 Tf"])) + b" ] TJ"
    if kind == "cm":
        return b"ET " + draw(st.sampled_from([b"1 0 0 1 0 0", b"0.05 0 0 0.05 0 0"])) + b" cm BT"
    if kind == "state":
        return draw(st.sampled_from([b"/Clear", b"/Half", b"/Missing"])) + sep + b"gs"
    if kind == "cover":  # a shape over the text so far: a rule, a box, a box of lines
        return b"ET q " + draw(st.sampled_from([b"1 g", b"0.2 0.3 0.4 rg"])) + b" " + draw(st.sampled_from([
            b"50 690 500 1 re f", b"50 600 500 200 re f", b"50 600 m 550 600 l 550 800 l 50 800 l h f"])) + b" Q BT"
    return b"(Hi) Tj"  # short: text running past the edge from an origin on the page is not looked for


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(statement(), min_size=1, max_size=8))
def test_the_gate_opens_every_check_that_finds_something(statements):
    content = b"BT /helv 12 Tf 1 0 0 1 72 700 Tm " + b"\n".join(statements) + b" (W) Tj ET"
    doc, page = page_with(content)
    found = find_hidden(page, text_page(page), Gate(spans=True, fills=True, off_page=True, covers=True)).spans
    # Text of no size has an empty box, which the trace counts as off the page; it is tiny text.
    kinds = {span.kind for span in found if span.kind != "off_page" or not pymupdf.Rect(span.bbox).is_empty}
    gate = gate_page(page, {})
    doc.close()
    if kinds & {"invisible", "tiny", "white_on_white", "same_colour"}:
        assert gate.spans, (content, kinds)
    if kinds & {"white_on_white", "same_colour"}:
        assert gate.fills, (content, kinds)
    if "off_page" in kinds:
        assert gate.off_page, (content, kinds)
    if "covered" in kinds:
        assert gate.covers, (content, kinds)
