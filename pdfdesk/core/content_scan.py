"""Finding operators and their operands in a content stream with as few passes as Python can make.

MuPDF extracts a CJK or Arabic page's text at some 20-30 KB of content a millisecond, and such a
page holds 8-50 KB, mostly glyph ids in hex strings. Every pass Python makes over the stream costs
about a percent of the extraction, so a check that reads streams before extraction makes few.
First it cuts the stream down to a skeleton: strings and arrays of numbers and hex strings (TJ's
glyph runs) become one space each, as they are one operand each to MuPDF. Then it reads the
skeleton backwards. Operands precede their operator, so reversed, the operator comes first: a
pattern can begin with its letters, which the regex engine finds with a fast literal scan (a
pattern beginning with a class or a lookbehind is tried at every byte, ~10 ns each), and capture
the operands that follow. Captured values are deduplicated before Python looks at them, and what
they mean (a size, a scale, a colour) is remembered (`Memo`): a document repeats a few of each on
every page. Operands are read the way MuPDF reads them: NUL is whitespace, strings separate them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

# Forward, an operator is preceded by whitespace or one of "]>)" and followed by whitespace or one
# of "[/(<%"; reversed, the other way round. Backwards a literal string reads ")...(" and a hex
# string ">...<".
WS = rb"\0\t\n\x0b\x0c\r "
FOLLOWS = rb"\0\s\[/(<%"
PRECEDES = rb"\0\s\]>)"
_CHAR = rb"[^" + WS + rb"()<>]"   # a byte of an operand
_SPACE = rb"[" + WS + rb"]++"
_STRING_OR_SPACE = rb"(?:" + _SPACE + rb"|>[0-9A-Fa-f" + WS + rb"]*<|\)(?:[^()\\]|(?s:.)\\)*\()"
_TOKEN = re.compile(_CHAR + rb"+")


def _operator(name: bytes) -> bytes:
    """An operator standing alone, reversed; its first byte starts a fast literal scan."""
    op = re.escape(name[::-1])
    return op + rb"(?<![^" + FOLLOWS + rb"]" + op + rb")(?![^" + PRECEDES + rb"])"


class Patterns:
    """The operator patterns for one way of separating operands: whitespace alone (a skeleton)
    or whitespace and strings (a stream searched whole)."""

    def __init__(self, gap: bytes) -> None:
        self.gap = gap
        self.font_size = re.compile(rb"fT" + self._args(1))  # anywhere: "0.5Tf" is a size to MuPDF
        self.render_mode = re.compile(rb"rT(?<!\wrT)" + self._args(1))
        self.text_matrix = re.compile(_operator(b"Tm") + self._args(2, grouped=4))
        self.ctm = re.compile(_operator(b"cm") + self._args(2, grouped=4))
        self.grey_rgb = re.compile(rb"g(?<![^" + FOLLOWS + rb"]g)(r?)(?![^" + PRECEDES + rb"])"
                                   + self._args(4, 1))
        self.cmyk = re.compile(_operator(b"k") + self._args(4, 1))
        self.scn = re.compile(rb"s(?:(?<=[" + FOLLOWS + rb"]cs)|(?<=[" + FOLLOWS + rb"](n)cs))(?![^"
                              + PRECEDES + rb"])" + self._args(4, 1))
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


SKELETON = Patterns(rb"(?:" + _SPACE + rb")")
WHOLE = Patterns(rb"(?:" + _STRING_OR_SPACE + rb"++)")

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
FILL_TABLE = bytes(32 if chr(i) in "\0\t\n\x0b\x0c\r []<>()/%{}" else ord("f") if chr(i) in "fFBb"
                   else i if chr(i) == "*" else ord("x") for i in range(256))
FILL = re.compile(rb" f\*?(?= )")
DRAW_XOBJECT = re.compile(rb"Do(?![^" + FOLLOWS + rb"])")
# Strings, for a copy of a stream read forwards without them.
_STRINGS = re.compile(rb"\([^)]*\)|<[0-9A-Fa-f\s]*>")


def cut_to_skeleton(content: bytes) -> bytes | None:
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


def numbers(tokens: Iterable[bytes]) -> list[float]:
    """The numbers among single operands captured backwards (one join, reversal and split)."""
    return _floats(b" ".join(tokens)[::-1].split())


def group_numbers(group: bytes) -> list[float]:
    """The numbers in operands captured backwards together (strings may separate them)."""
    return _floats(_TOKEN.findall(group[::-1]))


def _floats(tokens: list[bytes]) -> list[float]:
    try:
        return list(map(float, tokens))
    except ValueError:
        return [value for value in map(number, tokens) if value is not None]


def number(token: bytes) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


class Memo(dict[Any, Any]):
    """A bounded cache of what some operands mean; looking one up is a C-level dict access."""

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: Any) -> Any:
        if len(self) > 8192:
            self.clear()
        value = self[key] = self.compute(key)
        return value


def without_strings(content: bytes) -> bytes:
    """The content without its strings (escaped parentheses and backslashes go first, so the
    simple pattern finds each string's real end)."""
    if b"\\" in content:
        content = content.replace(b"\\\\", b"").replace(b"\\)", b"").replace(b"\\(", b"")
    stripped = _STRINGS.sub(b" ", content)
    return content if b"%" in stripped or b"ID" in stripped else stripped
