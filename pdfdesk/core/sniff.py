"""Say what a file that is not a PDF looks like, from its first bytes.

A user who hands over a renamed Word file or a saved web page learns more from "it looks like an
HTML page" than from "not a PDF". Only signatures that are cheap and unambiguous are named.
"""

from __future__ import annotations

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old-style Office file (Word .doc, Excel .xls or PowerPoint .ppt)"),
    (b"{\\rtf", "an RTF document"),
    (b"%!PS", "a PostScript file"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x7fELF", "a program (ELF executable)"),
    (b"MZ", "a Windows program"),
)
# Inside a ZIP, the first entries' names tell the Office and e-book formats apart.
_ZIP_MEMBERS: tuple[tuple[bytes, str], ...] = (
    (b"mimetypeapplication/epub+zip", "an EPUB e-book"),
    (b"mimetypeapplication/vnd.oasis.opendocument", "an OpenDocument file (LibreOffice)"),
    (b"word/", "a Word document (.docx)"),
    (b"xl/", "an Excel workbook (.xlsx)"),
    (b"ppt/", "a PowerPoint presentation (.pptx)"),
)
_MARKUP: tuple[tuple[bytes, str], ...] = (
    (b"<!doctype html", "an HTML page"),
    (b"<html", "an HTML page"),
    (b"<svg", "an SVG image"),
    (b"<?xml", "an XML file"),
)


def describe_format(head: bytes) -> str | None:
    """What the file starting with `head` looks like ("an HTML page"), or None when unsure."""
    for signature, kind in _SIGNATURES:
        if head.startswith(signature):
            return kind
    if head.startswith(b"PK\x03\x04"):
        for member, kind in _ZIP_MEMBERS:
            if member in head:
                return kind
        return "a ZIP archive"
    if head[4:8] == b"ftyp":
        return "a video or audio file (MP4/MOV)"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    for opening, kind in _MARKUP:
        if text.startswith(opening):
            return "an SVG image" if kind == "an XML file" and b"<svg" in text else kind
    if head and b"\x00" not in head:
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.start < len(head) - 4:  # not just a character cut off at the end of the window
                return None
        return "a plain text file"
    return None
