"""Lay recognised words over a scanned page as invisible text, where the scan shows them.

Each word is drawn in render mode 3 (neither filled nor stroked) in the glyphless font, on its
line's baseline and at its line's height, and stretched along the line (Tz) to exactly the
width of its box: selecting, searching and copying in any reader then find the word where the
page shows it. Words of a line share one size and baseline because a word's own box stops at its
ink (no descender in "cat"): per-word baselines would wander, and readers would split the line.
Between words a space is drawn that fills the gap, so readers need not guess where words end.

Boxes are in MuPDF's space of the unrotated page (as `page.get_text("words")` gives them), so
the words are drawn in the page's own coordinates and a /Rotate turns them with the scan. The
direction the text runs in (a sheet scanned sideways or upside down) is read from the order of
the words along their lines. Right-to-left words are drawn in visual order, as PDF writers set
Arabic and Hebrew, so that readers, which put such text back into reading order, read them right.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol

import pymupdf

from pdfdesk.core.glyphless_font import GLYPH_WIDTH, GlyphlessFont

RESOURCE_NAME = "PdfdeskOcr"
MIN_SPACE = 0.2            # points: the narrowest space drawn between two words that touch
# the direction a line's text runs in MuPDF's page space (y down), by degrees clockwise
DIRECTIONS: dict[int, tuple[int, int]] = {0: (1, 0), 90: (0, 1), 180: (-1, 0), 270: (0, -1)}
_RTL = frozenset({"R", "AL"})
_LTR = frozenset({"L", "EN", "AN"})


class PlacedWord(Protocol):
    """A recognised word: its text, its box in the unrotated page, its block and line."""

    @property
    def text(self) -> str: ...

    @property
    def box(self) -> tuple[float, float, float, float]: ...

    @property
    def block(self) -> int: ...

    @property
    def line(self) -> int: ...


# -- reading order ------------------------------------------------------------------------------
def right_to_left(text: str) -> bool:
    """Whether the word holds right-to-left letters (Arabic, Hebrew...)."""
    return any(unicodedata.bidirectional(char) in _RTL for char in text)


def visual_order(text: str) -> str:
    """A right-to-left word's characters in the order they stand on the page from left to right:
    right-to-left runs reversed, runs of digits or Latin letters inside kept as they read. A
    left-to-right word is returned as it is."""
    if not right_to_left(text):
        return text
    classes = [unicodedata.bidirectional(char) for char in text]
    strong = [cls in _LTR for cls in classes]
    for index, cls in enumerate(classes):  # a neutral between two left-to-right characters joins them
        if not strong[index] and cls not in _RTL:
            before = next((strong[i] for i in range(index - 1, -1, -1) if classes[i] in _RTL or strong[i]), False)
            after = next((strong[i] for i in range(index + 1, len(text)) if classes[i] in _RTL or strong[i]), False)
            strong[index] = before and after
    runs: list[tuple[bool, str]] = []
    for char, ltr in zip(text, strong, strict=True):
        if runs and runs[-1][0] == ltr:
            runs[-1] = (ltr, runs[-1][1] + char)
        else:
            runs.append((ltr, char))
    return "".join(run if ltr else run[::-1] for ltr, run in reversed(runs))


def _lines(words: Iterable[PlacedWord]) -> list[list[PlacedWord]]:
    """Words grouped by (block, line), in the order their first words come."""
    grouped: dict[tuple[int, int], list[PlacedWord]] = {}
    for word in words:
        if word.text.strip():
            grouped.setdefault((word.block, word.line), []).append(word)
    return list(grouped.values())


def _centre(word: PlacedWord) -> tuple[float, float]:
    x0, y0, x1, y1 = word.box
    return (x0 + x1) / 2, (y0 + y1) / 2


def text_direction(words: Sequence[PlacedWord], rotation: int = 0) -> int:
    """Which way the page's lines run (a key of DIRECTIONS): the most common step from one word to
    the next in reading order (turned round between right-to-left words). A page of one-word lines
    is told by the shape of its words; tall words on a page whose /Rotate turns it upright run
    against that turn."""
    votes: Counter[int] = Counter()
    for line in _lines(words):
        for first, second in itertools.pairwise(line):
            (ax, ay), (bx, by) = _centre(first), _centre(second)
            dx, dy = bx - ax, by - ay
            rtl = right_to_left(first.text), right_to_left(second.text)
            if rtl[0] != rtl[1]:
                continue
            if rtl[0]:
                dx, dy = -dx, -dy
            if dx == dy == 0:
                continue
            votes[(0 if dx > 0 else 180) if abs(dx) >= abs(dy) else (90 if dy > 0 else 270)] += 1
    if votes:
        return votes.most_common(1)[0][0]
    long_words = [w.box for w in words if len(w.text.strip()) >= 3]
    tall = sum(1 for x0, y0, x1, y1 in long_words if (y1 - y0) > 1.2 * (x1 - x0))
    if long_words and tall > len(long_words) / 2:
        return 270 if rotation % 360 == 90 else 90
    return 0


# -- drawing ------------------------------------------------------------------------------------
def _number(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _span(box: tuple[float, float, float, float], direction: int) -> tuple[float, float]:
    """Where a box starts and ends along a line running in `direction` (a coordinate that grows
    the way the text runs)."""
    x0, y0, x1, y1 = box
    return {0: (x0, x1), 90: (y0, y1), 180: (-x1, -x0), 270: (-y1, -y0)}[direction]


def unspaced(char: str) -> bool:
    """Chinese and Japanese, whose words are written without spaces between them."""
    if not char or "\u1100" <= char <= "\u11ff" or "\u3130" <= char <= "\u318f" or "\uac00" <= char <= "\ud7af":
        return False  # Hangul: Korean puts spaces between words
    return unicodedata.east_asian_width(char) in ("W", "F")


def _line_ops(line: list[PlacedWord], direction: int, font: GlyphlessFont, to_pdf: pymupdf.Matrix,
              resource: str) -> list[str]:
    """The operators drawing one line's words, in the order they stand along it, each stretched
    to its box, with a space filling each gap. A word whose box runs into the next one's stops
    where that one starts; between Chinese or Japanese words no space is drawn (their text has
    none), the first word reaching to the next instead."""
    bx, by = DIRECTIONS[direction]
    ux, uy = by, -bx  # the letters' upward direction
    along = 0 if direction in (0, 180) else 1  # the coordinate the line runs along
    low, high = min(w.box[1 - along] for w in line), max(w.box[3 - along] for w in line)
    size = high - low
    if size <= 0:
        return []
    # baseline: the line's edge the letters stand on (opposite to their upward direction)
    baseline = {0: high, 90: low, 180: low, 270: high}[direction]
    sign = 1 if direction in (0, 90) else -1
    placed = sorted(((*_span(w.box, direction), visual_order(w.text.strip())) for w in line if w.text.strip()),
                    key=lambda item: item[0])
    ops = [f"/{resource} {_number(size)} Tf"]
    em = GLYPH_WIDTH / 1000 * size  # a glyph's advance at 100% horizontal scaling
    for index, (start, end, text) in enumerate(placed):
        following = placed[index + 1] if index + 1 < len(placed) else None
        joined = following is not None and unspaced(text[-1]) and unspaced(following[2][0])
        if following is not None and (start < following[0] < end or (joined and following[0] > end)):
            end = following[0]
        if end <= start:
            continue
        origin = (sign * start, baseline) if along == 0 else (baseline, sign * start)
        matrix = pymupdf.Matrix(bx, by, ux, uy, origin[0], origin[1]) * to_pdf
        ops.append(f"{_number(100 * (end - start) / (len(text) * em))} Tz "
                   f"{' '.join(_number(v) for v in matrix)} Tm <{font.encode(text)}> Tj")
        if following is not None and not joined:
            gap = following[0] - end
            ops.append(f"{_number(100 * max(gap, MIN_SPACE) / em)} Tz <{font.encode(' ')}> Tj")
    return ops


def layer_operators(page: pymupdf.Page, words: Sequence[PlacedWord], font: GlyphlessFont,
                    resource: str = RESOURCE_NAME) -> bytes:
    """The content stream drawing `words` invisibly on `page` (empty when there is nothing to draw)."""
    direction = text_direction(words, page.rotation)
    to_pdf = ~page.transformation_matrix  # MuPDF's unrotated page space -> the page's PDF space
    ops: list[str] = []
    for line in _lines(words):
        ops += _line_ops(line, direction, font, to_pdf, resource)
    if len(ops) == 0:
        return b""
    return ("q BT 3 Tr\n" + "\n".join(ops) + "\nET Q\n").encode("ascii")


def _inherited_resources(doc: pymupdf.Document, xref: int) -> tuple[str, str]:
    """The page's /Resources, looked up the page tree when the page has none of its own."""
    seen: set[int] = set()
    while xref not in seen:
        seen.add(xref)
        kind, value = doc.xref_get_key(xref, "Resources")
        if kind != "null":
            return kind, value
        kind, parent = doc.xref_get_key(xref, "Parent")
        if kind != "xref":
            break
        xref = int(parent.split()[0])
    return "dict", "<<>>"


def _font_holder(doc: pymupdf.Document, page: pymupdf.Page) -> tuple[int, str]:
    """(object, key path) of the page's font dictionary, made its own when it was inherited."""
    kind, value = doc.xref_get_key(page.xref, "Resources")
    if kind == "null":  # inherited: the page gets a copy, so the other pages stay as they were
        kind, value = _inherited_resources(doc, page.xref)
        if kind == "xref":
            value = doc.xref_object(int(value.split()[0]), compressed=True)
        doc.xref_set_key(page.xref, "Resources", value)
        kind, value = doc.xref_get_key(page.xref, "Resources")
    holder, path = (int(value.split()[0]), "Font") if kind == "xref" else (page.xref, "Resources/Font")
    kind, value = doc.xref_get_key(holder, path)
    if kind == "xref":
        return int(value.split()[0]), ""
    return holder, path


def _resource_name(doc: pymupdf.Document, holder: int, path: str, font_xref: int) -> str:
    """A name for the font in the page's font dictionary that no other font uses there."""
    prefix = f"{path}/" if path else ""
    for number in range(1000):
        name = RESOURCE_NAME if number == 0 else f"{RESOURCE_NAME}{number}"
        kind, value = doc.xref_get_key(holder, prefix + name)
        if kind == "null" or value == f"{font_xref} 0 R":
            return name
    raise ValueError("the page's font dictionary is full of pdfdesk's names")


def _append_stream(doc: pymupdf.Document, page: pymupdf.Page, data: bytes) -> None:
    """Add `data` after the page's content, which is first closed in q/Q of its own so that
    whatever state it leaves (a scaled matrix, a clip) does not move the words."""
    page.wrap_contents()  # balance stray q/Q first, or an extra Q would pop ours
    kind, value = doc.xref_get_key(page.xref, "Contents")
    if kind == "xref" and not doc.xref_is_stream(int(value.split()[0])):
        kind, value = "array", doc.xref_object(int(value.split()[0]), compressed=True)
    existing = value.strip().strip("[]").strip() if kind in ("xref", "array") else ""

    def stream(content: bytes) -> str:
        xref = doc.get_new_xref()
        doc.update_object(xref, "<<>>")
        doc.update_stream(xref, content, compress=True)
        return f"{xref} 0 R"

    if existing:
        opening, closing = stream(b"q\n"), stream(b"Q\n" + data)
        contents = f"[{opening} {existing} {closing}]"
    else:
        contents = f"[{stream(data)}]"
    doc.xref_set_key(page.xref, "Contents", contents)


def lay_words(page: pymupdf.Page, words: Sequence[PlacedWord], font: GlyphlessFont) -> int:
    """Draw `words` invisibly over the page; returns how many words were laid."""
    doc = page.parent
    holder, path = _font_holder(doc, page)
    name = _resource_name(doc, holder, path, font.xref)
    data = layer_operators(page, words, font, name)
    if not data:
        return 0
    doc.xref_set_key(holder, f"{path}/{name}" if path else name, f"{font.xref} 0 R")
    _append_stream(doc, page, data)
    return sum(1 for word in words if word.text.strip())
