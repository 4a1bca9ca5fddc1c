"""The cheap first check for hidden text: which hiding techniques a page's operators make possible.

Only pages whose content streams (and the form XObjects they draw) could hide text get the full
analysis in hidden_text: text render modes 3/7, light fill colours or a colour used for a filled
shape and then for text, font sizes or matrices that shrink text below TINY_PT, text origins far
outside the page, graphics states (gs) that make text (nearly) transparent, and shapes, images or
forms painted after text has been drawn (they may cover it). A page without those operators cannot
carry the flagged kinds.

The streams come from page_streams, which reads them within its limits: a page it refuses, whose
streams cannot be decoded, or that holds more than the full analysis may read within the per-page
budget (MAX_ANALYSED_TOKENS) gets a gate that says so (`unchecked`), and the page is reported as
not checked rather than passed as clean.

The check runs before MuPDF extracts the page's text and must cost a small fraction of it: the
stream is read the way content_scan describes, and each technique's sign is in hiding_signs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pymupdf
from pymupdf import mupdf

from pdfdesk.core.content_scan import DRAW_XOBJECT, FILL, FILL_TABLE, SKELETON, WHOLE, cut_to_skeleton, without_strings
from pdfdesk.core.gstate_opacity import Transparent, transparency, transparent_state
from pdfdesk.core.hiding_signs import (
    PageSize, big_shape_after, light_colour, off_page_text, render_mode_hides, same_colour_order, tiny_text,
)
from pdfdesk.core.page_streams import Form, page_streams, read_form

MAX_ANALYSED_TOKENS = 200_000  # operands and operators the full analysis may have MuPDF report


@dataclass
class Gate:
    """Which checks a page needs (all False: the page cannot hide text by the flagged means)."""

    spans: bool = False     # invisible, tiny, light or same-colour text: read the spans
    fills: bool = False     # compare text colour with the shapes behind it
    off_page: bool = False  # text placed far outside the page: trace it
    covers: bool = False    # something is painted after text: see whether it covers any
    unchecked: str | None = None  # why the page could not be checked (then nothing else counts)
    tokens: int = field(default=0, compare=False)  # how much the full analysis would read

    @property
    def any(self) -> bool:
        return self.spans or self.fills or self.off_page or self.covers

    def add(self, other: Gate, times: int = 1) -> None:
        self.spans |= other.spans
        self.fills |= other.fills
        self.off_page |= other.off_page
        self.covers |= other.covers
        self.unchecked = self.unchecked or other.unchecked
        self.tokens += other.tokens * times


def gate_stream(content: bytes, size: PageSize, transparent: Transparent | None = None) -> Gate:
    """Which checks the text drawn by one content stream needs; `transparent` looks up the
    graphics states it names (without it, any gs may hide text)."""
    return _gate_ops(content, size, transparent)[0]


def _gate_ops(content: bytes, size: PageSize, transparent: Transparent | None = None) -> tuple[Gate, bytes]:
    """The stream's gate, and the operators it searched."""
    gate = Gate()
    skeleton = cut_to_skeleton(content)
    ops, patterns = (content, WHOLE) if skeleton is None else (skeleton, SKELETON)
    rev = b" " + ops[::-1] + b" "
    # Each search scans for its operator's first letters itself, faster than a bytes "in" test
    # for two of them would (only single bytes are found with memchr).
    gate.spans = render_mode_hides(rev, patterns)
    matrices = patterns.text_matrix.findall(rev)
    gate.off_page = bool(matrices) and off_page_text(matrices, size)
    gate.spans |= tiny_text(rev, patterns, matrices, ops)
    states = patterns.ext_gstate.findall(rev)  # (a literal-prefix scan beats a two-byte "in")
    if states:
        gate.spans |= transparent_state(states, transparent)
    text_at = ops.find(b"BT")
    if text_at >= 0 and b"D" in ops and DRAW_XOBJECT.search(ops, text_at):
        gate.covers = True  # an image or form drawn after text
    elif text_at >= 0 and skeleton is None and b"BI" in ops[text_at:]:
        gate.covers = True  # an inline image
    # Where the first fill is, on a copy that makes fill operators easy to find (one pass finds
    # whether there is one at all, and most often whether there is one after text too).
    filled = (b" " + ops + b" ").translate(FILL_TABLE)
    first_fill = FILL.search(filled)
    if text_at >= 0 and first_fill is not None and not gate.covers:
        after = first_fill if first_fill.start() > text_at else FILL.search(filled, text_at + 1)
        gate.covers = after is not None and big_shape_after(ops, text_at, rev, patterns)
    if not (b"g" in ops or b"k" in ops or (b"s" in ops and b"sc" in ops)):
        # Nothing but the default black: not light, and black text on a black shape is left
        # alone (black rules and boxes are everywhere), as the colour order check always has.
        return gate, ops
    if light_colour(rev, patterns) or (first_fill is not None and same_colour_order(without_strings(content))):
        gate.spans = gate.fills = True
    return gate, ops


def _whitespace(ops: bytes) -> int:
    """An upper bound on a stream's operators and operands: its whitespace bytes."""
    return len(ops) - len(ops.translate(None, b"\0\t\n\x0b\x0c\r "))


def gate_page(page: pymupdf.Page, forms: dict[int, Gate] | None = None) -> Gate:
    """Which checks a page needs, from its contents and the form XObjects it draws (each form
    checked once per document when `forms` is kept between calls). A page that cannot be checked
    within the limits gets a gate saying why (`unchecked`)."""
    cache: list[float] = []

    def size() -> float:  # page.mediabox or page.bound() cost more than this whole check
        if not cache:
            rect = pymupdf.mupdf.fz_bound_page(page.this)
            cache.append(max(rect.x1 - rect.x0, rect.y1 - rect.y0))  # /Rotate may swap the sides
        return cache[0]

    streams = page_streams(page)
    if streams.refused:
        return Gate(unchecked=streams.refused)
    if not streams.complete:
        return Gate(unchecked="its content streams could not be decoded")
    def resources() -> mupdf.PdfObj:
        if streams.resources is None:
            streams.resources = mupdf.pdf_page_resources(mupdf.pdf_page_from_fz_page(page.this))
        return streams.resources

    gate, ops = _gate_ops(streams.content, size, transparency(resources))
    for form in streams.forms:
        gate.add(_form_gate(page.parent, form, size, forms), form.draws)
    if gate.any and not gate.unchecked:
        gate.tokens += _whitespace(ops)
        if gate.tokens > MAX_ANALYSED_TOKENS:
            gate.unchecked = (f"it draws too much for the check to analyse (some {gate.tokens:,} "
                              f"operators and operands, forms counted each time they are drawn)")
    return gate


def _form_gate(doc: pymupdf.Document, form: Form, size: PageSize, forms: dict[int, Gate] | None) -> Gate:
    """A form XObject's gate, from `forms` when an earlier page drew the same form. (The page's
    walk bounded what its forms hold, so reading one here is bounded too.)"""
    cached = forms.get(form.xref) if forms is not None else None
    if cached is not None:
        return cached
    data, complete = form.data, True
    if data is None:
        try:
            data, complete = read_form(form.xref, doc)
        except mupdf.FzErrorBase:
            data, complete = b"", False
    if not complete:
        return Gate(unchecked="a form it draws could not be decoded")
    gate, ops = _gate_ops(data, size, transparency(lambda: form.resources))
    gate.tokens = _whitespace(ops)
    if forms is not None:
        forms[form.xref] = gate
    return gate
