"""The font of an invisible text layer: Tesseract's glyphless font, with a code for every character.

Invisible OCR text still needs a font, and the font decides whether other readers can copy the
words back out. A real font would have to cover Latin, Cyrillic, Greek, CJK and Arabic at once
(tens of megabytes, embedded in every copy); PyMuPDF's built-in fonts each cover a few scripts,
and a font that cannot show a character makes it unreadable. Tesseract solves this with
`pdf.ttf`, a 572-byte TrueType font whose one glyph is empty and half an em wide: every
character is drawn with that glyph, and the font's ToUnicode map says which character each code
stands for. Here each distinct character of the document gets its own code (so characters
beyond the Basic Multilingual Plane work too), and the map is written once all pages are done.

Without `pdf.ttf` (Tesseract installed elsewhere, or not at all) the font is declared without an
embedded file: readers substitute one, and as nothing is painted the text still reads the same.
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pymupdf

from pdfdesk.core.ocr_languages import tesseract_program

FONT_FILE = "pdf.ttf"
BASE_FONT = "GlyphLessFont"
GLYPH_WIDTH = 500          # the glyph's advance in thousandths of an em (pdf.ttf's own)
MAX_FONT_BYTES = 64 * 1024  # pdf.ttf is 572 bytes; anything large under that name is not it
MAX_CODES = 0xFFFF          # two-byte codes; the rare document using more shares the last one
_TRUETYPE_MAGIC = (b"\x00\x01\x00\x00", b"true")
# tessdata folders of common installations, for a `tesseract` that cannot say where its own is
_COMMON_TESSDATA = (
    "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata",
    "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata", "/opt/local/share/tessdata",
    r"C:\Program Files\Tesseract-OCR\tessdata", r"C:\Program Files (x86)\Tesseract-OCR\tessdata",
)


def _listed_tessdata(program: str) -> Path | None:
    """The tessdata folder `tesseract --list-langs` names in its first line."""
    try:
        listed = subprocess.run([program, "--list-langs"], capture_output=True, timeout=20, check=False,
                                stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (listed.stdout + listed.stderr).decode("utf-8", "replace")
    found = re.search(r'"([^"]+)"', text.splitlines()[0] if text else "")
    return Path(found.group(1)) if found else None


def _candidates() -> list[Path]:
    folders: list[Path] = []
    prefix = os.environ.get("TESSDATA_PREFIX")
    if prefix:  # Tesseract 4+ means the tessdata folder itself; 3.x its parent
        folders += [Path(prefix), Path(prefix) / "tessdata"]
    program = tesseract_program()
    if program:
        listed = _listed_tessdata(program)
        if listed is not None:
            folders.append(listed)
        home = Path(program).resolve().parent
        folders += [home / "tessdata", home.parent / "share" / "tessdata"]
        folders += sorted((home.parent / "share" / "tesseract-ocr").glob("*/tessdata"), reverse=True)
    folders += [Path(p) for p in _COMMON_TESSDATA]
    return [folder / FONT_FILE for folder in dict.fromkeys(folders)]


def _looks_like_truetype(path: Path) -> bool:
    try:
        if not path.is_file() or path.stat().st_size > MAX_FONT_BYTES:
            return False
        with open(path, "rb") as handle:
            return handle.read(4) in _TRUETYPE_MAGIC
    except OSError:
        return False


@lru_cache(maxsize=1)
def glyphless_font_file() -> Path | None:
    """Where Tesseract's `pdf.ttf` is on this machine: TESSDATA_PREFIX, the folder the installed
    `tesseract` reads its language data from, then the usual places; None when nowhere."""
    return next((path for path in _candidates() if _looks_like_truetype(path)), None)


def glyphless_font_bytes() -> bytes | None:
    path = glyphless_font_file()
    if path is None:
        return None
    try:
        return path.read_bytes()
    except OSError:
        return None


class GlyphlessFont:
    """One Type0 font for a whole document: codes are handed out as text is laid on its pages,
    and the font's objects (ToUnicode map included) are written by `finish`."""

    def __init__(self, doc: pymupdf.Document, font_file: bytes | None) -> None:
        self.doc = doc
        self.font_file = font_file
        self.xref: int = doc.get_new_xref()
        doc.update_object(self.xref, "<<>>")  # filled in by finish(); pages refer to it meanwhile
        self.codes: dict[str, int] = {}

    @property
    def embedded(self) -> bool:
        return self.font_file is not None

    def encode(self, text: str) -> str:
        """The hex string of `text` in this font's codes (one two-byte code per character)."""
        codes = []
        for char in text:
            code = self.codes.get(char)
            if code is None:
                code = min(len(self.codes) + 1, MAX_CODES)
                self.codes.setdefault(char, code)
            codes.append(f"{code:04X}")
        return "".join(codes)

    def finish(self) -> None:
        """Write the font's objects: the Type0 font, its CID font, descriptor, embedded file, the
        map from every code to the one glyph, and the ToUnicode map."""
        doc = self.doc
        descriptor = (f"<</Type/FontDescriptor/FontName/{BASE_FONT}/Flags 5/FontBBox[0 0 {GLYPH_WIDTH} 1000]"
                      "/ItalicAngle 0/Ascent 1000/Descent 0/CapHeight 1000/StemV 80")
        if self.font_file is not None:
            descriptor += f"/FontFile2 {self._stream(self.font_file, f'/Length1 {len(self.font_file)}')} 0 R"
        descriptor_xref = self._object(descriptor + ">>")
        count = max(self.codes.values(), default=0) + 1
        to_glyph = self._stream(b"\x00\x00" + b"\x00\x01" * (count - 1))  # code 0 -> .notdef, others -> glyph 1
        cid_font = self._object(
            f"<</Type/Font/Subtype/CIDFontType2/BaseFont/{BASE_FONT}"
            f"/CIDSystemInfo<</Registry(Adobe)/Ordering(Identity)/Supplement 0>>"
            f"/FontDescriptor {descriptor_xref} 0 R/DW {GLYPH_WIDTH}/CIDToGIDMap {to_glyph} 0 R>>")
        to_unicode = self._stream(to_unicode_cmap(self.codes))
        doc.update_object(self.xref, f"<</Type/Font/Subtype/Type0/BaseFont/{BASE_FONT}/Encoding/Identity-H"
                                     f"/DescendantFonts[{cid_font} 0 R]/ToUnicode {to_unicode} 0 R>>")

    def _object(self, source: str) -> int:
        xref: int = self.doc.get_new_xref()
        self.doc.update_object(xref, source)
        return xref

    def _stream(self, data: bytes, extra: str = "") -> int:
        xref = self._object(f"<<{extra}>>")
        self.doc.update_stream(xref, data, compress=True)
        return xref


def to_unicode_cmap(codes: dict[str, int]) -> bytes:
    """A ToUnicode CMap mapping each two-byte code to its character (UTF-16BE, so characters
    beyond U+FFFF are written as surrogate pairs, as the format wants)."""
    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
             "/CIDSystemInfo <</Registry (Adobe) /Ordering (UCS) /Supplement 0>> def",
             "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def",
             "1 begincodespacerange", "<0000> <FFFF>", "endcodespacerange"]
    pairs = sorted((code, char) for char, code in codes.items())
    pairs = [pair for index, pair in enumerate(pairs) if index == 0 or pair[0] != pairs[index - 1][0]]
    for start in range(0, len(pairs), 100):  # at most 100 entries per block
        chunk = pairs[start:start + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        lines += [f"<{code:04X}> <{char.encode('utf-16-be').hex().upper()}>" for code, char in chunk]
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines).encode("ascii")
