"""Pages built to exhaust a PDF reader, made with PyMuPDF: content that inflates to gigabytes (in
the page's own content or in a form it draws), forms that draw forms many times over or nest
deeper than any reader follows, forms that draw themselves; and the jobs that run tools on them in
a child process, so a test can bound the child's memory as well as its time."""

from __future__ import annotations

import resource
import struct
import time
import zlib
from pathlib import Path
from typing import Any

import pymupdf

VISIBLE = "Visible text before the bomb"


def flate_bomb(unit: bytes, mib: int) -> bytes:
    """Flate data that inflates to `unit` repeated over `mib` MiB (unit's length divides 1 MiB).
    After a full flush a deflate block refers only to the last 32 KB, which is the same for every
    MiB, so one compressed MiB serves for all; the trailer carries the true Adler-32."""
    chunk = unit * ((1 << 20) // len(unit))
    assert len(chunk) == 1 << 20
    compressor = zlib.compressobj(9)
    first = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    repeat = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    adler = 1
    for _ in range(mib):
        adler = zlib.adler32(chunk, adler)
    return first + repeat * (mib - 1) + b"\x03\x00" + struct.pack(">I", adler)  # an empty final block


def _stream(doc: pymupdf.Document, data: bytes, head: str = "<<>>", flate: bool = False) -> int:
    xref = doc.get_new_xref()
    doc.update_object(xref, head)
    doc.update_stream(xref, data, compress=False)
    if flate:
        doc.xref_set_key(xref, "Filter", "/FlateDecode")
    return xref


def _resources(doc: pymupdf.Document, page: pymupdf.Page) -> int:
    return int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])


def _draw(doc: pymupdf.Document, page: pymupdf.Page, forms: dict[str, int], after: bytes = b"") -> None:
    """Make the page draw each form once, after its own text."""
    doc.xref_set_key(_resources(doc, page), "XObject",
                     "<<" + " ".join(f"/{n} {x} 0 R" for n, x in forms.items()) + ">>")
    content = page.get_contents()[0]
    doc.update_stream(content, doc.xref_stream(content) + b"\n" + b" ".join(b"/%s Do" % n.encode() for n in forms)
                      + b"\n" + after)


def _form_head(resources: str = "<<>>") -> str:
    return f"<</Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources {resources}>>"


def bomb_pdf(path: Path, unit: bytes = b" ", mib: int = 2048, where: str = "content", pages: int = 1) -> Path:
    """Visible text, then `mib` MiB of `unit` in the page's content ("content") or in a form the
    page draws ("form"); with `pages` > 1 the other pages are ordinary."""
    doc = pymupdf.open()
    bomb = flate_bomb(unit, mib)
    for number in range(pages):
        page = doc.new_page()
        page.insert_text((72, 72), VISIBLE if number == 0 else f"Ordinary page {number + 1}")
        if number:
            continue
        if where == "content":
            xref = _stream(doc, bomb, flate=True)
            first = page.get_contents()[0]
            doc.xref_set_key(page.xref, "Contents", f"[{first} 0 R {xref} 0 R]")
        else:
            _draw(doc, page, {"Bomb": _stream(doc, bomb, _form_head(), flate=True)})
    doc.save(path)
    return path


def form_tree_pdf(path: Path, depth: int, fanout: int) -> Path:
    """A chain of `depth` forms, each drawing the next `fanout` times; the last shows text."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), VISIBLE)
    fonts = doc.xref_get_key(_resources(doc, page), "Font")[1]
    below = _stream(doc, b"BT /helv 12 Tf 72 600 Td (leaf) Tj ET", _form_head(f"<</Font {fonts}>>"))
    for _ in range(depth - 1):
        body = b" ".join([b"/X Do"] * fanout)
        below = _stream(doc, body, _form_head(f"<</XObject <</X {below} 0 R>>>>"))
    _draw(doc, page, {"X": below})
    doc.save(path)
    return path


def cyclic_forms_pdf(path: Path) -> Path:
    """Form A draws itself and form B, which draws A again."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), VISIBLE)
    first, second = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(first, _form_head(f"<</XObject <</A {first} 0 R /B {second} 0 R>>>>"))
    doc.update_stream(first, b"/A Do /B Do")
    doc.update_object(second, _form_head(f"<</XObject <</A {first} 0 R>>>>"))
    doc.update_stream(second, b"/A Do")
    _draw(doc, page, {"A": first})
    doc.save(path)
    return path


def run_tool_measured(send: Any, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """In a child: run a tool in-process; its result, how long it took and how much the process
    grew (peak resident set, MB)."""
    from pdfdesk.tools import call_tool, get_tool

    get_tool(name)  # imports every tool before the clock starts
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    result = call_tool(name, args)
    elapsed = time.monotonic() - started
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    return {"elapsed": elapsed, "grown_mb": grown, "is_error": result.is_error, "details": result.details,
            "text": result.text}
