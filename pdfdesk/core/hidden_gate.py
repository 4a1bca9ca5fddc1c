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

MuPDF extracts a CJK or Arabic page's text at some 20-30 KB of content a millisecond, and such a
page holds 8-50 KB, mostly glyph ids in hex strings. Every pass Python makes over the stream costs
about a percent of the extraction, so the check makes few. First it cuts the stream down to a
skeleton: strings and arrays of numbers and hex strings (TJ's glyph runs) become one space each, as
they are one operand each to MuPDF. Then it reads the skeleton backwards. Operands precede their
operator, so reversed, the operator comes first: a pattern can begin with its letters, which the
regex engine finds with a fast literal scan (a pattern beginning with a class or a lookbehind is
tried at every byte, ~10 ns each), and capture the operands that follow. Captured values are
deduplicated before Python looks at them, and what they mean (a size, a scale, a colour) is
remembered: a document repeats a few of each on every page. Operands are read the way MuPDF reads
them: NUL is whitespace, strings separate them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import pymupdf
from pymupdf import mupdf

from pdfdesk.core.page_streams import Form, page_streams, read_form

TINY_PT = 2.0               # text smaller than this is too small to read
LIGHT = 0.9                 # every colour channel at least this bright counts as white
INVISIBLE_ALPHA = 0.05      # a fill (or stroke) opacity under this leaves nothing a reader sees
OFF_PAGE_MARGIN = 50.0      # a text origin this far outside the MediaBox is off the page, not a bleed
COVER_MIN = 2.0             # a rectangle thinner than this (in points) covers no readable text
MAX_ANALYSED_TOKENS = 200_000  # operands and operators the full analysis may have MuPDF report
PageSize = Callable[[], float]   # the page's longest side, asked for only when needed
Transparent = Callable[[str], bool]  # whether a named graphics state makes drawing invisible


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


# Forward, an operator is preceded by whitespace or one of "]>)" and followed by whitespace or one
# of "[/(<%"; reversed, the other way round. Backwards a literal string reads ")...(" and a hex
# string ">...<".
_WS = rb"\0\t\n\x0b\x0c\r "
_FOLLOWS = rb"\0\s\[/(<%"
_PRECEDES = rb"\0\s\]>)"
_CHAR = rb"[^" + _WS + rb"()<>]"   # a byte of an operand
_SPACE = rb"[" + _WS + rb"]++"
_STRING_OR_SPACE = rb"(?:" + _SPACE + rb"|>[0-9A-Fa-f" + _WS + rb"]*<|\)(?:[^()\\]|(?s:.)\\)*\()"
_TOKEN = re.compile(_CHAR + rb"+")
_SAFE_RENDER_MODES = {b"0", b"1", b"2", b"4", b"5", b"6"}  # filled and/or stroked
_COLOUR_COUNTS = {b"g": 1, b"rg": 3, b"k": 4}


def _operator(name: bytes) -> bytes:
    """An operator standing alone, reversed; its first byte starts a fast literal scan."""
    op = re.escape(name[::-1])
    return op + rb"(?<![^" + _FOLLOWS + rb"]" + op + rb")(?![^" + _PRECEDES + rb"])"


class _Patterns:
    """The operator patterns for one way of separating operands: whitespace alone (a skeleton)
    or whitespace and strings (a stream searched whole)."""

    def __init__(self, gap: bytes) -> None:
        self.gap = gap
        self.font_size = re.compile(rb"fT" + self._args(1))  # anywhere: "0.5Tf" is a size to MuPDF
        self.render_mode = re.compile(rb"rT(?<!\wrT)" + self._args(1))
        self.text_matrix = re.compile(_operator(b"Tm") + self._args(2, grouped=4))
        self.ctm = re.compile(_operator(b"cm") + self._args(2, grouped=4))
        self.grey_rgb = re.compile(rb"g(?<![^" + _FOLLOWS + rb"]g)(r?)(?![^" + _PRECEDES + rb"])"
                                   + self._args(4, 1))
        self.cmyk = re.compile(_operator(b"k") + self._args(4, 1))
        self.scn = re.compile(rb"s(?:(?<=[" + _FOLLOWS + rb"]cs)|(?<=[" + _FOLLOWS + rb"](n)cs))(?![^"
                              + _PRECEDES + rb"])" + self._args(4, 1))
        self.ext_gstate = re.compile(_operator(b"gs") + self._args(1))

    def _args(self, count: int, required: int | None = None, grouped: int = 0) -> bytes:
        """Up to `count` operands after a reversed operator (at least `required`, default all),
        nearest first, each captured; then `grouped` more captured together (so that repeats
        deduplicate as a whole). A lookahead: operands stay in the text, which may hold the next
        operator when this one is short of operands."""
        required = count if required is None else required
        arg = rb"(" + _CHAR + rb"*)"
        more = self.gap + arg
        optional = b""
        for _ in range(count - required):
            optional = rb"(?:" + more + optional + rb")?"
        group = b""
        if grouped:
            group = self.gap + rb"(" + self.gap.join([_CHAR + rb"*"] * grouped) + rb")"
        return rb"(?=" + self.gap + rb"?" + arg + more * (required - 1) + optional + group + rb")"


_SKELETON = _Patterns(rb"(?:" + _SPACE + rb")")
_WHOLE = _Patterns(rb"(?:" + _STRING_OR_SPACE + rb"++)")

# Cutting a stream down to its skeleton. MuPDF never runs an operator from inside a string, and
# none of these patterns can swallow one, except a literal string opened by a "(" in a comment or
# inline image: such a stream is searched whole (more false alarms, never fewer). Arrays are split
# off with a fast pattern and checked afterwards, all at once: MuPDF abandons a TJ array at its
# first keyword and runs the keywords after it (a fill among the glyph runs fills the path), so
# the arrays stay unless they hold nothing but numbers and hex strings. The check reads a copy
# that keeps only what tells those apart from keywords: hex strings' brackets, the letters of the
# fill operators (f, F, b and B are also hex digits, so one inside a hex string is harmless), and
# an "x" for any other byte a keyword or name could be made of.
_LITERAL = re.compile(rb"\([^()\\]*(?:\\.[^()\\]*)*\)", re.DOTALL)
_ARRAY = re.compile(rb"(\[[^\]]*\])")


def _array_table() -> bytes:
    table = bytearray(b"x" * 256)
    table[ord("<")], table[ord(">")] = ord("<"), ord(">")
    table[ord("[")] = ord(">")  # an array opens outside any hex string, as a hex string's end is
    for letter in b"fFbB":
        table[letter] = ord("f")
    return bytes(table)


_ARRAY_TABLE = _array_table()
_ARRAY_DROPPED = b"0123456789.+-]aAcCdDeE" + b"\0\t\n\x0b\x0c\r "  # numbers, other hex digits
_LOOSE_FILL = re.compile(rb">f")  # a fill letter outside every hex string
_HEX = re.compile(rb"<[0-9A-Fa-f\s]*>")
# Fill operators (f, F, f*, B, B*, b, b*) standing alone, on a copy where every delimiter is a
# space and every fill letter an "f": a two-byte literal scan.
_FILL_TABLE = bytes(32 if chr(i) in "\0\t\n\x0b\x0c\r []<>()/%{}" else ord("f") if chr(i) in "fFBb"
                    else i if chr(i) == "*" else ord("x") for i in range(256))
_FILL = re.compile(rb" f\*?(?= )")
_DRAW_XOBJECT = re.compile(rb"Do(?![^" + _FOLLOWS + rb"])")
# The colour order check works forwards on a stream without its strings.
_STRINGS = re.compile(rb"\([^)]*\)|<[0-9A-Fa-f\s]*>")
_ORDER = re.compile(rb"(?<![^\s\]>)])(?:(rg|scn|sc|g|k)|(f\*?|F|B\*?|b\*?)|(BT))(?![^\s\[/(<%])")


def _skeleton(content: bytes) -> bytes | None:
    """The stream's operators and numeric operands, or None when it must be searched whole."""
    ops = _LITERAL.sub(b" ", content) if b"(" in content else content
    if b"%" in ops or (b"I" in ops and b"ID" in ops):
        return None
    if b"[" in ops:
        parts = _ARRAY.split(ops)
        if _numeric(b"".join(parts[1::2])):
            ops = b" ".join(parts[::2])
    return _HEX.sub(b" ", ops) if b"<" in ops else ops


def _numeric(arrays: bytes) -> bool:
    """Whether the arrays hold only numbers and hex strings (no keyword MuPDF would run)."""
    kept = arrays.translate(_ARRAY_TABLE, _ARRAY_DROPPED)
    return b"x" not in kept and not _LOOSE_FILL.search(kept)


def _numbers(tokens: Iterable[bytes]) -> list[float]:
    """The numbers among single operands captured backwards (one join, reversal and split)."""
    return _floats(b" ".join(tokens)[::-1].split())


def _group_numbers(group: bytes) -> list[float]:
    """The numbers in operands captured backwards together (strings may separate them)."""
    return _floats(_TOKEN.findall(group[::-1]))


def _floats(tokens: list[bytes]) -> list[float]:
    try:
        return list(map(float, tokens))
    except ValueError:
        return [value for value in map(_number, tokens) if value is not None]


def _number(token: bytes) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


class _Memo(dict[Any, Any]):
    """A bounded cache of what some operands mean; looking one up is a C-level dict access."""

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: Any) -> Any:
        if len(self) > 8192:
            self.clear()
        value = self[key] = self.compute(key)
        return value


def _is_tiny(key: tuple[frozenset[bytes], frozenset[bytes], frozenset[bytes]]) -> tuple[bool, bool]:
    """Whether text may be drawn under TINY_PT, given the Tf sizes' operands and the first four
    numbers of the Tm and cm matrices, captured backwards: (whatever the text matrix, if some text
    is shown before any Tm of its text object, at the identity matrix). A size is the smallest Tf
    size times the smallest Tm scale times the smallest cm scale under 1 (documents that set the
    size in the matrix, "1 Tf 12 0 0 12 x y Tm", are common: they pass unless some text goes out
    at 1 pt before its Tm)."""
    tokens, text_matrices, matrices = key
    sizes = [0.0] if b"" in tokens else list(map(abs, _numbers(tokens)))
    if not sizes:
        return False, False
    base = min(sizes) * min([1.0, *_scales(matrices)])
    scales = _scales(text_matrices)
    return bool(scales) and base * min(scales) < TINY_PT, base * min([1.0, *scales]) < TINY_PT


_TINY = _Memo(_is_tiny)
_TM = re.compile(rb"Tm(?<![^" + _PRECEDES + rb"]Tm)(?![^" + _FOLLOWS + rb"])")


def _text_before_matrix(ops: bytes) -> bool:
    """Whether some text object shows text before its first Tm (BT resets the text matrix)."""
    for block in ops.split(b"BT")[1:]:
        found = _TM.search(block)
        head = block[:found.start()] if found else block
        if b"Tj" in head or b"TJ" in head or b"'" in head or b'"' in head:
            return True
    return False


def _render_mode_hides(rev: bytes, patterns: _Patterns) -> bool:
    """Whether some Tr sets a mode that neither fills nor strokes (or one that cannot be read)."""
    return not set(patterns.render_mode.findall(rev)) <= _SAFE_RENDER_MODES


def _scale(group: bytes) -> float | None:
    """sqrt|ad - bc| of a matrix given its first four numbers captured backwards (None when
    they are not four numbers)."""
    values = _group_numbers(group)
    return abs(values[0] * values[3] - values[1] * values[2]) ** 0.5 if len(values) == 4 else None


_SCALES = _Memo(_scale)


def _scales(groups: Iterable[bytes]) -> list[float]:
    return [scale for scale in map(_SCALES.__getitem__, groups) if scale is not None]


def _off_page(matrices: list[tuple[bytes, bytes, bytes]], size: PageSize) -> bool:
    """Whether some Tm places text beyond the MediaBox (by more than a bleed)."""
    coordinates = _numbers({*map(itemgetter(0), matrices), *map(itemgetter(1), matrices)})
    return bool(coordinates) and (min(coordinates) < -OFF_PAGE_MARGIN or max(coordinates) > size() + 10)


def _tiny(rev: bytes, patterns: _Patterns, matrices: list[tuple[bytes, bytes, bytes]], ops: bytes) -> bool:
    """Whether some text may be drawn under TINY_PT (see _is_tiny)."""
    text_matrices = frozenset(map(itemgetter(2), matrices))
    others = frozenset(map(itemgetter(2), patterns.ctm.findall(rev)))
    whatever, at_identity = _TINY[frozenset(patterns.font_size.findall(rev)), text_matrices, others]
    return whatever or (at_identity and (not text_matrices or _text_before_matrix(ops)))


def _is_light(values: list[float], op: bytes) -> bool:
    """White (every channel at least LIGHT) or, in CMYK, no ink."""
    if op == b"k" or (op in (b"sc", b"scn") and len(values) == 4):
        return len(values) == 4 and max(values) <= 1 - LIGHT  # no ink at all
    return bool(values) and min(values) >= LIGHT


def _colour_values(op: bytes, tokens: Iterable[bytes]) -> list[float]:
    """A colour operator's operands in reading order: a fixed count for g, rg and k (none when
    one is not a number), the run of numbers next to sc and scn."""
    present = [token[::-1] for token in tokens if token]
    count = _COLOUR_COUNTS.get(op)
    if count is not None:
        try:
            return [float(token) for token in reversed(present[:count])]
        except ValueError:
            return []
    values: list[float] = []
    for token in present:
        value = _number(token)
        if value is None:
            break
        values.insert(0, value)
    return values


def _light_op(found: tuple[bytes, ...]) -> bool:
    """Whether a colour operator (its name, or for g and rg the "r" alone; then its operands as
    captured) sets white or no ink."""
    op = {b"": b"g", b"r": b"rg"}.get(found[0], found[0])
    return _is_light(_colour_values(op, found[1:]), op)


_LIGHT = _Memo(_light_op)


def _light_colour(rev: bytes, patterns: _Patterns) -> bool:
    """Whether some fill colour is white (or no ink at all)."""
    found = set(patterns.grey_rgb.findall(rev))
    if b"k" in rev:
        found.update((b"k", *tokens) for tokens in patterns.cmyk.findall(rev))
    if b"s" in rev:
        found.update((b"sc" + n, *tokens) for n, *tokens in patterns.scn.findall(rev))
    return any(map(_LIGHT.__getitem__, found))


def _operators(content: bytes) -> bytes:
    """The content without its strings (escaped parentheses and backslashes go first, so the
    simple pattern finds each string's real end)."""
    if b"\\" in content:
        content = content.replace(b"\\\\", b"").replace(b"\\)", b"").replace(b"\\(", b"")
    stripped = _STRINGS.sub(b" ", content)
    return content if b"%" in stripped or b"ID" in stripped else stripped


def _same_colour_order(ops: bytes) -> bool:
    """True when some colour fills a shape and is then used for text (a dark box with dark text)."""
    current = b"0 g"
    filled: set[bytes] = set()
    for match in _ORDER.finditer(ops):
        if match.group(1):
            current = b" ".join(ops[max(0, match.start() - 64):match.start()].split()[-4:]) + match.group(1)
        elif match.group(2):
            filled.add(current)
        elif current in filled:
            return True
    return False


def gate_stream(content: bytes, size: PageSize, transparent: Transparent | None = None) -> Gate:
    """Which checks the text drawn by one content stream needs; `transparent` looks up the
    graphics states it names (without it, any gs may hide text)."""
    return _gate_ops(content, size, transparent)[0]


def _gate_ops(content: bytes, size: PageSize, transparent: Transparent | None = None) -> tuple[Gate, bytes]:
    """The stream's gate, and the operators it searched."""
    gate = Gate()
    skeleton = _skeleton(content)
    ops, patterns = (content, _WHOLE) if skeleton is None else (skeleton, _SKELETON)
    rev = b" " + ops[::-1] + b" "
    # Each search scans for its operator's first letters itself, faster than a bytes "in" test
    # for two of them would (only single bytes are found with memchr).
    gate.spans = _render_mode_hides(rev, patterns)
    matrices = patterns.text_matrix.findall(rev)
    gate.off_page = bool(matrices) and _off_page(matrices, size)
    gate.spans |= _tiny(rev, patterns, matrices, ops)
    states = patterns.ext_gstate.findall(rev)  # (a literal-prefix scan beats a two-byte "in")
    if states:
        gate.spans |= _transparent_state(states, transparent)
    text_at = ops.find(b"BT")
    if text_at >= 0 and b"D" in ops and _DRAW_XOBJECT.search(ops, text_at):
        gate.covers = True  # an image or form drawn after text
    elif text_at >= 0 and skeleton is None and b"BI" in ops[text_at:]:
        gate.covers = True  # an inline image
    # Where the first fill is, on a copy that makes fill operators easy to find (one pass finds
    # whether there is one at all, and most often whether there is one after text too).
    filled = (b" " + ops + b" ").translate(_FILL_TABLE)
    first_fill = _FILL.search(filled)
    if text_at >= 0 and first_fill is not None and not gate.covers:
        after = first_fill if first_fill.start() > text_at else _FILL.search(filled, text_at + 1)
        gate.covers = after is not None and _big_shape_after(ops, text_at, rev, patterns)
    if not (b"g" in ops or b"k" in ops or (b"s" in ops and b"sc" in ops)):
        # Nothing but the default black: not light, and black text on a black shape is left
        # alone (black rules and boxes are everywhere), as the colour order check always has.
        return gate, ops
    if _light_colour(rev, patterns) or (first_fill is not None and _same_colour_order(_operators(content))):
        gate.spans = gate.fills = True
    return gate, ops


def _transparent_state(names: list[bytes], transparent: Transparent | None) -> bool:
    """Whether one of the graphics states a stream selects makes what it draws invisible."""
    if transparent is None:
        return bool(names)
    return any(transparent(_name(raw[::-1])) for raw in set(names))


def _name(token: bytes) -> str:
    """A name operand ("/GS#200") as the key a dictionary holds ("GS 0")."""
    token = token[1:] if token.startswith(b"/") else token
    if b"#" in token:
        token = re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), token)
    return token.decode("latin-1")


_RECT = re.compile(rb"([-+.0-9]+)[" + _WS + rb"]+([-+.0-9]+)[" + _WS + rb"]+re(?![^" + _FOLLOWS + rb"])")
_MOVE = re.compile(rb"[" + _WS + rb"]m(?![^" + _FOLLOWS + rb"])")


def _big_shape_after(ops: bytes, text_at: int, rev: bytes, patterns: _Patterns) -> bool:
    """Whether a path built after the first text object could cover text: a free-form outline,
    or a rectangle at least COVER_MIN wide and high (in points: the largest cm scale counts).
    Rules and underlines, the usual shapes after text, are thinner."""
    if _MOVE.search(ops, text_at):
        return True
    scale = max([1.0, *_scales(frozenset(map(itemgetter(2), patterns.ctm.findall(rev))))])
    for width, height in _RECT.findall(ops, text_at):
        try:
            if min(abs(float(width)), abs(float(height))) * scale >= COVER_MIN:
                return True
        except ValueError:
            return True
    return False


_EXT_GSTATE = mupdf.PDF_ENUM_NAME_ExtGState


def _transparency(resources: Callable[[], mupdf.PdfObj | None]) -> Transparent:
    """Looks up a named graphics state in the resources (fetched only when a stream selects one):
    does it set a fill or stroke opacity under INVISIBLE_ALPHA? (A name they do not define
    selects nothing: MuPDF ignores it.)"""
    def hides(name: str) -> bool:
        found = resources()
        states = mupdf.pdf_dict_get(found, _EXT_GSTATE) if found is not None else None
        if states is None or not mupdf.pdf_is_dict(states):
            return False
        state = mupdf.pdf_dict_gets(states, name)
        if not mupdf.pdf_is_dict(state):
            return False
        for key in ("ca", "CA"):
            value = mupdf.pdf_dict_gets(state, key)
            if mupdf.pdf_is_number(value) and mupdf.pdf_to_real(value) < INVISIBLE_ALPHA:
                return True
        return False

    return hides


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

    gate, ops = _gate_ops(streams.content, size, _transparency(resources))
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
    gate, ops = _gate_ops(data, size, _transparency(lambda: form.resources))
    gate.tokens = _whitespace(ops)
    if forms is not None:
        forms[form.xref] = gate
    return gate
