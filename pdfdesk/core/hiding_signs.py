"""Signs in a content stream's operators that its text may be hidden, one check per technique:
render modes that draw nothing, text set too small to read, text placed off the page, light
colours or a shape's colour reused for text, and shapes painted after text that may cover it.

A sign only sends the page on to the full analysis in hidden_text, which decides what is hidden.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from operator import itemgetter

from pdfdesk.core.content_scan import FOLLOWS, PRECEDES, WS, Memo, Patterns, group_numbers, number, numbers

TINY_PT = 2.0               # text smaller than this is too small to read
LIGHT = 0.9                 # every colour channel at least this bright counts as white
OFF_PAGE_MARGIN = 50.0      # a text origin this far outside the MediaBox is off the page, not a bleed
COVER_MIN = 2.0             # a rectangle thinner than this (in points) covers no readable text
PageSize = Callable[[], float]   # the page's longest side, asked for only when needed
_SAFE_RENDER_MODES = {b"0", b"1", b"2", b"4", b"5", b"6"}  # filled and/or stroked
_COLOUR_COUNTS = {b"g": 1, b"rg": 3, b"k": 4}
# The colour order check works forwards on a stream without its strings.
_ORDER = re.compile(rb"(?<![^\s\]>)])(?:(rg|scn|sc|g|k)|(f\*?|F|B\*?|b\*?)|(BT))(?![^\s\[/(<%])")


def _is_tiny(key: tuple[frozenset[bytes], frozenset[bytes], frozenset[bytes]]) -> tuple[bool, bool]:
    """Whether text may be drawn under TINY_PT, given the Tf sizes' operands and the first four
    numbers of the Tm and cm matrices, captured backwards: (whatever the text matrix, if some text
    is shown before any Tm of its text object, at the identity matrix). A size is the smallest Tf
    size times the smallest Tm scale times the smallest cm scale under 1 (documents that set the
    size in the matrix, "1 Tf 12 0 0 12 x y Tm", are common: they pass unless some text goes out
    at 1 pt before its Tm)."""
    tokens, text_matrices, matrices = key
    sizes = [0.0] if b"" in tokens else list(map(abs, numbers(tokens)))
    if not sizes:
        return False, False
    base = min(sizes) * min([1.0, *_scales(matrices)])
    scales = _scales(text_matrices)
    return bool(scales) and base * min(scales) < TINY_PT, base * min([1.0, *scales]) < TINY_PT


_TINY = Memo(_is_tiny)
_TM = re.compile(rb"Tm(?<![^" + PRECEDES + rb"]Tm)(?![^" + FOLLOWS + rb"])")


def _text_before_matrix(ops: bytes) -> bool:
    """Whether some text object shows text before its first Tm (BT resets the text matrix)."""
    for block in ops.split(b"BT")[1:]:
        found = _TM.search(block)
        head = block[:found.start()] if found else block
        if b"Tj" in head or b"TJ" in head or b"'" in head or b'"' in head:
            return True
    return False


def render_mode_hides(rev: bytes, patterns: Patterns) -> bool:
    """Whether some Tr sets a mode that neither fills nor strokes (or one that cannot be read)."""
    return not set(patterns.render_mode.findall(rev)) <= _SAFE_RENDER_MODES


def _scale(group: bytes) -> float | None:
    """sqrt|ad - bc| of a matrix given its first four numbers captured backwards (None when
    they are not four numbers)."""
    values = group_numbers(group)
    return abs(values[0] * values[3] - values[1] * values[2]) ** 0.5 if len(values) == 4 else None


_SCALES = Memo(_scale)


def _scales(groups: Iterable[bytes]) -> list[float]:
    return [scale for scale in map(_SCALES.__getitem__, groups) if scale is not None]


def off_page_text(matrices: list[tuple[bytes, bytes, bytes]], size: PageSize) -> bool:
    """Whether some Tm places text beyond the MediaBox (by more than a bleed)."""
    coordinates = numbers({*map(itemgetter(0), matrices), *map(itemgetter(1), matrices)})
    return bool(coordinates) and (min(coordinates) < -OFF_PAGE_MARGIN or max(coordinates) > size() + 10)


def tiny_text(rev: bytes, patterns: Patterns, matrices: list[tuple[bytes, bytes, bytes]], ops: bytes) -> bool:
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
        value = number(token)
        if value is None:
            break
        values.insert(0, value)
    return values


def _light_op(found: tuple[bytes, ...]) -> bool:
    """Whether a colour operator (its name, or for g and rg the "r" alone; then its operands as
    captured) sets white or no ink."""
    op = {b"": b"g", b"r": b"rg"}.get(found[0], found[0])
    return _is_light(_colour_values(op, found[1:]), op)


_LIGHT = Memo(_light_op)


def light_colour(rev: bytes, patterns: Patterns) -> bool:
    """Whether some fill colour is white (or no ink at all)."""
    found = set(patterns.grey_rgb.findall(rev))
    if b"k" in rev:
        found.update((b"k", *tokens) for tokens in patterns.cmyk.findall(rev))
    if b"s" in rev:
        found.update((b"sc" + n, *tokens) for n, *tokens in patterns.scn.findall(rev))
    return any(map(_LIGHT.__getitem__, found))


def same_colour_order(ops: bytes) -> bool:
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


_RECT = re.compile(rb"([-+.0-9]+)[" + WS + rb"]+([-+.0-9]+)[" + WS + rb"]+re(?![^" + FOLLOWS + rb"])")
_MOVE = re.compile(rb"[" + WS + rb"]m(?![^" + FOLLOWS + rb"])")


def big_shape_after(ops: bytes, text_at: int, rev: bytes, patterns: Patterns) -> bool:
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
