"""Hostile and damaged PDFs, generated: what users are sent and what fuzzers find.

`build_corpus(folder)` writes a few hundred files in families (truncations, byte flips, broken xref
tables, cyclic page trees, huge declared sizes, decompression bombs, deep nesting, bad fonts, invalid
encryption dictionaries) and returns their paths. Everything is deterministic (seeded), so a failure
names a file that can be rebuilt. `bench/robustness.py --generate` uses the same builders.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pymupdf

from tests.pdf_factory import assemble

FONT = b"<</Type /Font /Subtype /Type1 /BaseFont /Helvetica>>"
TEXT = b"BT /F1 12 Tf 72 720 Td (Hostile corpus page text) Tj ET"


def stream(data: bytes, extra: bytes = b"", compress: bool = False) -> bytes:
    if compress:
        data = zlib.compress(data, 9)
        extra += b" /Filter /FlateDecode"
    return b"<</Length %d%s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def one_page(page_extra: bytes = b"", content: bytes = TEXT, media: bytes = b"[0 0 612 792]",
             resources: bytes = b"<</Font <</F1 4 0 R>>>>", more: list[bytes] | None = None,
             trailer_extra: bytes = b"", catalog_extra: bytes = b"") -> bytes:
    """Catalog 1, Pages 2, Page 3, Font 4, Contents 5, then `more` objects from 6."""
    return assemble([
        b"<</Type /Catalog /Pages 2 0 R %s>>" % catalog_extra,
        b"<</Type /Pages /Kids [3 0 R] /Count 1>>",
        b"<</Type /Page /Parent 2 0 R /MediaBox %s /Resources %s /Contents 5 0 R %s>>" % (media, resources, page_extra),
        FONT,
        stream(content),
        *(more or []),
    ], trailer_extra)


def base_documents(folder: Path) -> list[Path]:
    """Valid documents the mutations start from: text with an outline, a form, an image, encrypted."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    doc = pymupdf.open()
    for n in range(1, 7):
        page = doc.new_page()
        page.insert_text((72, 72), f"Section {n} heading", fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 100, 520, 700), f"Body text of page {n}. " * 40, fontsize=10)
    doc.set_toc([[1, "One", 1], [2, "Two", 2], [1, "Three", 4]])
    doc.set_metadata({"title": "Base", "author": "Corpus"})
    made.append(_save(doc, folder / "base-text.pdf", garbage=3, deflate=True))
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Form")
    widget = pymupdf.Widget()
    widget.field_name, widget.field_type, widget.field_value = "name", pymupdf.PDF_WIDGET_TYPE_TEXT, "Ada"
    widget.rect = pymupdf.Rect(72, 80, 300, 100)
    page.add_widget(widget)
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 48), False)
    pix.clear_with(90)
    page.insert_image(pymupdf.Rect(72, 200, 272, 350), stream=pix.tobytes("png"))
    made.append(_save(doc, folder / "base-form-image.pdf"))
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Encrypted body")
    made.append(_save(doc, folder / "base-encrypted.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_128,
                      user_pw="", owner_pw="owner"))
    # object streams and an xref stream: a different parser path
    doc = pymupdf.open(made[0])
    made.append(_save(doc, folder / "base-objstm.pdf", use_objstms=1, garbage=1, deflate=True))
    return made


def _save(doc: pymupdf.Document, path: Path, **kwargs) -> Path:
    doc.save(path, **kwargs)
    doc.close()
    return path


# -- families -----------------------------------------------------------------------------------
def truncations(bases: list[Path], cuts: int) -> Iterator[tuple[str, bytes]]:
    for base in bases:
        data = base.read_bytes()
        for i in range(1, cuts + 1):
            keep = int(len(data) * i / (cuts + 1))
            yield f"trunc-{base.stem}-{i:02d}", data[:keep]
        yield f"trunc-{base.stem}-header-only", data[:9]
        yield f"trunc-{base.stem}-minus-eof", data[:-7]


def byte_flips(bases: list[Path], per_base: int, seed: int = 8) -> Iterator[tuple[str, bytes]]:
    rng = random.Random(seed)
    for base in bases:
        original = base.read_bytes()
        for i in range(per_base):
            data = bytearray(original)
            flips = rng.choice([1, 4, 32, 256])
            for _ in range(flips):
                at = rng.randrange(10, len(data))
                data[at] = rng.randrange(256) if rng.random() < 0.7 else data[at] ^ 0xFF
            if rng.random() < 0.2:  # a dropped or duplicated run of bytes shifts every offset after it
                at, size = rng.randrange(10, len(data)), rng.randrange(1, 400)
                data[at:at] = data[at:at + size] if rng.random() < 0.5 else b""
                if rng.random() < 0.5:
                    del data[at:at + size]
            yield f"flip-{base.stem}-{i:03d}", bytes(data)


def broken_xrefs() -> Iterator[tuple[str, bytes]]:
    good = one_page()
    start = good.rfind(b"startxref")
    xref = good.rfind(b"xref\n0 ")
    yield "xref-offset-past-end", good[:start] + b"startxref\n99999999\n%%EOF\n"
    yield "xref-offset-zero", good[:start] + b"startxref\n0\n%%EOF\n"
    yield "xref-offset-negative", good[:start] + b"startxref\n-500\n%%EOF\n"
    yield "xref-offset-huge", good[:start] + b"startxref\n999999999999999999999999\n%%EOF\n"
    yield "xref-points-at-itself", good[:start] + b"startxref\n%d\n%%%%EOF\n" % start
    yield "xref-missing", good[:xref] + b"startxref\n%d\n%%%%EOF\n" % xref
    yield "xref-garbage-entries", good[:xref] + b"xref\n0 6\n" + b"garbage!!garbage!! n \n" * 6 + good[good.find(b"trailer"):]
    yield "xref-huge-subsection", good[:xref] + b"xref\n0 2147483647\n" + good[xref + len(b"xref\n0 6\n"):]
    yield "xref-negative-subsection", good[:xref] + b"xref\n-5 6\n" + good[xref + len(b"xref\n0 6\n"):]
    yield "trailer-missing", good[:good.find(b"trailer")] + b"startxref\n%d\n%%%%EOF\n" % xref
    yield "trailer-root-missing", good.replace(b"/Root 1 0 R", b"/Info 1 0 R")
    yield "trailer-root-not-dict", good.replace(b"/Root 1 0 R", b"/Root 5 0 R")
    yield "trailer-root-points-nowhere", good.replace(b"/Root 1 0 R", b"/Root 999 0 R")
    loop_prev = good[:start].replace(b"/Root 1 0 R", b"/Root 1 0 R /Prev %d" % xref)
    yield "xref-prev-loop", loop_prev + b"startxref\n%d\n%%%%EOF\n" % xref
    yield "xref-stream-garbage", assemble([b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [] /Count 0>>",
                                           b"<</Type /XRef /Size 4 /W [1 4 2] /Length 20>>\nstream\n" + b"\xff" * 20
                                           + b"\nendstream"])
    yield "xref-stream-huge-w", assemble([b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [] /Count 0>>",
                                          (b"<</Type /XRef /Size 2147483647 /W [9 99 99] /Index [0 2147483647] "
                                           b"/Length 4>>\nstream\nABCD\nendstream")])
    yield "no-objects-at-all", b"%PDF-1.7\n%%EOF\n"
    yield "only-junk-after-header", b"%PDF-1.7\n" + bytes(random.Random(3).randrange(256) for _ in range(5000))


def cyclic_trees() -> Iterator[tuple[str, bytes]]:
    page = b"<</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources <</Font <</F1 4 0 R>>>> /Contents 5 0 R>>"
    yield "tree-kids-self", assemble([b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [2 0 R] /Count 1>>",
                                      page, FONT, stream(TEXT)])
    yield "tree-two-node-cycle", assemble([b"<</Type /Catalog /Pages 2 0 R>>",
                                           b"<</Type /Pages /Kids [6 0 R 3 0 R] /Count 2>>", page, FONT, stream(TEXT),
                                           b"<</Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1>>"])
    yield "tree-kid-is-catalog", assemble([b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [1 0 R 3 0 R] /Count 2>>",
                                           page, FONT, stream(TEXT)])
    yield "tree-count-huge", assemble([b"<</Type /Catalog /Pages 2 0 R>>",
                                       b"<</Type /Pages /Kids [3 0 R] /Count 2147483647>>", page, FONT, stream(TEXT)])
    yield "tree-count-negative", assemble([b"<</Type /Catalog /Pages 2 0 R>>",
                                           b"<</Type /Pages /Kids [3 0 R] /Count -7>>", page, FONT, stream(TEXT)])
    yield "tree-same-page-twice", assemble([b"<</Type /Catalog /Pages 2 0 R>>",
                                            b"<</Type /Pages /Kids [3 0 R 3 0 R 3 0 R] /Count 3>>", page, FONT, stream(TEXT)])
    yield "tree-kids-not-array", assemble([b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids 3 0 R /Count 1>>",
                                           page, FONT, stream(TEXT)])
    yield "tree-pages-is-page", assemble([b"<</Type /Catalog /Pages 3 0 R>>", b"null", page, FONT, stream(TEXT)])
    yield "tree-parent-cycle-inherit", assemble([
        b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [3 0 R] /Count 1 /Parent 6 0 R>>",
        b"<</Type /Page /Parent 2 0 R /Contents 5 0 R>>", FONT, stream(TEXT),
        b"<</Type /Pages /Kids [2 0 R] /Parent 2 0 R /Count 1>>"])
    yield "outline-next-cycle", one_page(catalog_extra=b"/Outlines 6 0 R", more=[
        b"<</Type /Outlines /First 7 0 R /Last 8 0 R /Count 2>>",
        b"<</Title (A) /Parent 6 0 R /Next 8 0 R /Dest [3 0 R /Fit]>>",
        b"<</Title (B) /Parent 6 0 R /Next 7 0 R /Prev 7 0 R /Dest [3 0 R /Fit]>>"])
    yield "outline-first-self", one_page(catalog_extra=b"/Outlines 6 0 R", more=[
        b"<</Type /Outlines /First 7 0 R /Count 1>>", b"<</Title (Loop) /Parent 6 0 R /First 7 0 R /Count 1>>"])


def huge_sizes() -> Iterator[tuple[str, bytes]]:
    for name, media in [("mediabox-1e9", b"[0 0 1000000000 1000000000]"), ("mediabox-14400", b"[0 0 14400 14400]"),
                        ("mediabox-negative", b"[0 0 -612 -792]"), ("mediabox-inverted", b"[612 792 0 0]"),
                        ("mediabox-zero", b"[0 0 0 0]"), ("mediabox-line", b"[0 0 1 1000000]"),
                        ("mediabox-nan", b"[0 0 1e400 nan]"), ("mediabox-short", b"[0 0 612]"),
                        ("mediabox-strings", b"[(a) (b) (c) (d)]"), ("mediabox-far-offset", b"[1e30 1e30 1.0000001e30 1.0000001e30]")]:
        yield f"size-{name}", one_page(media=media)
    yield "size-userunit-huge", one_page(page_extra=b"/UserUnit 75000", media=b"[0 0 14400 14400]")
    yield "size-userunit-negative", one_page(page_extra=b"/UserUnit -3")
    for rotate in (b"90", b"45", b"-270", b"1000000000", b"(x)"):
        yield f"size-rotate-{rotate.decode().strip('()')}", one_page(page_extra=b"/Rotate " + rotate,
                                                                    media=b"[0 0 14400 200]")
    yield "size-cropbox-outside", one_page(page_extra=b"/CropBox [5000 5000 6000 6000]")
    yield "size-stream-length-huge", one_page().replace(b"<</Length %d>>" % len(TEXT), b"<</Length 1099511627776>>")
    yield "size-stream-length-negative", one_page().replace(b"<</Length %d>>" % len(TEXT), b"<</Length -40>>")
    yield "size-trailer-size-huge", one_page().replace(b"/Size 6", b"/Size 2147483647")
    yield "size-image-declared-huge", one_page(
        content=b"q 500 0 0 500 50 50 cm /Im1 Do Q " + TEXT,
        resources=b"<</Font <</F1 4 0 R>> /XObject <</Im1 6 0 R>>>>",
        more=[stream(b"\x00" * 64, b" /Type /XObject /Subtype /Image /Width 2000000000 /Height 2000000000 "
                                   b"/ColorSpace /DeviceRGB /BitsPerComponent 8")])
    yield "size-font-size-huge", one_page(content=b"BT /F1 100000000 Tf 0 0 Td (Big) Tj ET " + TEXT)


def bombs(scale: float = 1.0) -> Iterator[tuple[str, bytes]]:
    """Small files that expand: `scale` 1.0 is the bench size, the test suite uses less."""
    spaces = zlib.compress(b" " * int(40_000_000 * scale), 9)  # 40 MB of whitespace in ~40 KB
    yield "bomb-content-whitespace", one_page(more=[]).replace(
        stream(TEXT), b"<</Length %d /Filter /FlateDecode>>\nstream\n" % len(spaces) + spaces + b"\nendstream")
    ops = zlib.compress(TEXT.replace(b"72 720", b"10 10") * int(200_000 * scale), 9)  # 200,000 text draws on one page
    yield "bomb-content-text-ops", one_page().replace(
        stream(TEXT), b"<</Length %d /Filter /FlateDecode>>\nstream\n" % len(ops) + ops + b"\nendstream")
    pixels = zlib.compress(b"\x00" * (8000 * 8000 * 3), 9)  # 192 MB of pixels in ~190 KB
    yield "bomb-image-8000", one_page(
        content=b"q 500 0 0 500 50 50 cm /Im1 Do Q " + TEXT,
        resources=b"<</Font <</F1 4 0 R>> /XObject <</Im1 6 0 R>>>>",
        more=[b"<</Type /XObject /Subtype /Image /Width 8000 /Height 8000 /ColorSpace /DeviceRGB "
              b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d>>\nstream\n" % len(pixels) + pixels + b"\nendstream"])
    twice = zlib.compress(zlib.compress(b"0 0 m 1 1 l S\n" * int(2_000_000 * scale), 9), 9)
    yield "bomb-double-flate", one_page().replace(
        stream(TEXT), b"<</Length %d /Filter [/FlateDecode /FlateDecode]>>\nstream\n" % len(twice) + twice
        + b"\nendstream")
    huge_text = zlib.compress(b"BT /F1 10 Tf 10 700 Td (" + b"A" * int(5_000_000 * scale) + b") Tj ET", 9)
    yield "bomb-one-huge-string", one_page().replace(
        stream(TEXT), b"<</Length %d /Filter /FlateDecode>>\nstream\n" % len(huge_text) + huge_text + b"\nendstream")
    yield "bomb-metadata-title", one_page(trailer_extra=b"/Info 6 0 R", more=[
        b"<</Title (" + b"T" * int(3_000_000 * scale) + b") /Author (" + b"A" * 500_000 + b")>>"])
    count = max(6000, int(20000 * scale))  # more than pdf_outline lists
    entries = [b"<</Type /Outlines /First 7 0 R /Last %d 0 R /Count %d>>" % (6 + count, count)]
    for i in range(count):
        number = 7 + i
        links = (b" /Prev %d 0 R" % (number - 1) if i else b"") + (b" /Next %d 0 R" % (number + 1) if i < count - 1 else b"")
        entries.append(b"<</Title (Entry %d %s) /Parent 6 0 R%s /Dest [3 0 R /Fit]>>" % (i, b"x" * 200, links))
    yield "bomb-outline", one_page(catalog_extra=b"/Outlines 6 0 R", more=entries)


def deep_nesting() -> Iterator[tuple[str, bytes]]:
    for depth in (1000, 100_000):
        yield f"nest-array-{depth}", one_page(page_extra=b"/Junk " + b"[" * depth + b"]" * depth)
        yield f"nest-dict-{depth}", one_page(page_extra=b"/Junk " + b"<</A " * depth + b"1" + b">>" * depth)
        yield f"nest-unclosed-{depth}", one_page(page_extra=b"/Junk " + b"[<<" * depth)
    yield "nest-q-100000", one_page(content=b"q " * 100_000 + TEXT + b" Q" * 100_000)
    yield "nest-form-self", one_page(content=b"/Fm1 Do " + TEXT, resources=b"<</Font <</F1 4 0 R>> /XObject <</Fm1 6 0 R>>>>",
                                     more=[stream(b"/Fm1 Do", b" /Type /XObject /Subtype /Form /BBox [0 0 10 10] "
                                                             b"/Resources <</XObject <</Fm1 6 0 R>>>>")])
    forms = []
    for i in range(200):  # a chain of 200 forms, each drawing the next twice: 2^200 draws if not limited
        nxt = b"/Resources <</XObject <</F 7 0 R>>>>" if i < 199 else b""
        forms.append(stream(b"/F Do /F Do" if i < 199 else TEXT, b" /Type /XObject /Subtype /Form /BBox [0 0 600 800] " + nxt))
    chained = [f.replace(b"7 0 R", b"%d 0 R" % (7 + i)) for i, f in enumerate(forms)]
    yield "nest-form-fanout", one_page(content=b"/F Do", resources=b"<</Font <</F1 4 0 R>> /XObject <</F 6 0 R>>>>",
                                       more=[c.replace(b"<</F1", b"<</F1") for c in chained])
    yield "nest-indirect-chain", one_page(page_extra=b"/Rotate 6 0 R", more=[b"%d 0 R" % n for n in range(7, 2007)] + [b"90"])
    yield "nest-ref-cycle", one_page(page_extra=b"/Rotate 6 0 R", more=[b"7 0 R", b"6 0 R"])


def bad_fonts() -> Iterator[tuple[str, bytes]]:
    rng = random.Random(5)
    junk = bytes(rng.randrange(256) for _ in range(4000))
    for kind, key in (("truetype", b"/FontFile2"), ("type1", b"/FontFile"), ("cff", b"/FontFile3 ")):
        subtype = b"/TrueType" if kind == "truetype" else b"/Type1"
        extra = b" /Subtype /Type1C" if kind == "cff" else b""
        yield f"font-garbage-{kind}", assemble([
            b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [3 0 R] /Count 1>>",
            b"<</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources <</Font <</F1 4 0 R>>>> /Contents 5 0 R>>",
            b"<</Type /Font /Subtype %s /BaseFont /Junk /FirstChar 0 /LastChar 255 /Widths [%s] /FontDescriptor 6 0 R>>"
            % (subtype, b" ".join([b"500"] * 256)),
            stream(TEXT),
            b"<</Type /FontDescriptor /FontName /Junk /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 "
            b"/Descent -200 /CapHeight 700 /StemV 80 %s 7 0 R>>" % key.strip(),
            stream(junk, extra),
        ])
    yield "font-missing-resource", one_page(resources=b"<<>>")
    yield "font-not-a-dict", one_page(resources=b"<</Font <</F1 5 0 R>>>>")
    yield "font-widths-huge", one_page().replace(FONT, b"<</Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 0 "
                                                       b"/LastChar 2147483647 /Widths [1 2 3]>>")
    yield "font-type3-recursive", one_page().replace(FONT, b"<</Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] "
                                                            b"/FontMatrix [0.001 0 0 0.001 0 0] /CharProcs <</a 6 0 R>> "
                                                            b"/Encoding <</Differences [0 /a 1 /a 2 /a]>> /FirstChar 0 "
                                                            b"/LastChar 255 /Widths [1000] /Resources <</Font <</F1 4 0 R>>>>>>",
                                                   ).replace(b"(Hostile corpus page text)", b"<000102>")
    yield "font-type3-proc-loop", assemble([
        b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [3 0 R] /Count 1>>",
        b"<</Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources <</Font <</F1 4 0 R>>>> /Contents 5 0 R>>",
        (b"<</Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
         b"/CharProcs <</a 6 0 R>> /Encoding <</Differences [65 /a]>> /FirstChar 65 /LastChar 65 /Widths [1000] "
         b"/Resources <</Font <</F1 4 0 R>>>>>>"),
        stream(b"BT /F1 12 Tf (AAAA) Tj ET"),
        stream(b"1000 0 d0 BT /F1 12 Tf (AA) Tj ET"),
    ])
    yield "font-cid-bad-cmap", one_page().replace(FONT, b"<</Type /Font /Subtype /Type0 /BaseFont /X /Encoding 6 0 R "
                                                        b"/DescendantFonts [7 0 R]>>")
    yield "font-cid-bad-cmap-objs", one_page(more=[
        stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap " + b"<00> " * 5000 + b"endcmap"),
        b"<</Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo <</Registry (A) /Ordering (B) /Supplement 0>> "
        b"/W [0 [" + b"9" * 400 + b"]]>>"]).replace(FONT, b"<</Type /Font /Subtype /Type0 /BaseFont /X /Encoding 6 0 R "
                                                        b"/DescendantFonts [7 0 R]>>")


def bad_encryption() -> Iterator[tuple[str, bytes]]:
    variants = {
        "enc-not-dict": b"/Encrypt 6 0 R",
        "enc-v99": b"/Encrypt <</Filter /Standard /V 99 /R 99 /O (x) /U (y) /P -4>>",
        "enc-unknown-filter": b"/Encrypt <</Filter /NoSuchHandler /V 2 /R 3 /Length 128>>",
        "enc-missing-o-u": b"/Encrypt <</Filter /Standard /V 2 /R 3 /Length 128 /P -4>>",
        "enc-short-o-u": b"/Encrypt <</Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O (ab) /U (cd)>>",
        "enc-length-odd": b"/Encrypt <</Filter /Standard /V 2 /R 3 /Length 7 /P -4 /O <%s> /U <%s>>>" % (b"00" * 32, b"00" * 32),
        "enc-length-huge": b"/Encrypt <</Filter /Standard /V 2 /R 3 /Length 99999999 /P -4 /O <%s> /U <%s>>>" % (b"00" * 32, b"00" * 32),
        "enc-v4-no-cf": b"/Encrypt <</Filter /Standard /V 4 /R 4 /StmF /StdCF /StrF /StdCF /P -4 /O <%s> /U <%s>>>" % (b"00" * 32, b"00" * 32),
        "enc-v4-bad-cfm": b"/Encrypt <</Filter /Standard /V 4 /R 4 /CF <</StdCF <</CFM /Rot13 /Length 16>>>> /StmF /StdCF "
                          b"/StrF /StdCF /P -4 /O <%s> /U <%s>>>" % (b"00" * 32, b"00" * 32),
        "enc-v5-short": b"/Encrypt <</Filter /Standard /V 5 /R 6 /Length 256 /CF <</StdCF <</CFM /AESV3 /Length 32>>>> "
                        b"/StmF /StdCF /StrF /StdCF /P -4 /O <00> /U <00> /OE <00> /UE <00> /Perms <00>>>",
        "enc-self-ref": b"/Encrypt 6 0 R",
        "enc-no-id": b"/Encrypt <</Filter /Standard /V 1 /R 2 /P -4 /O <%s> /U <%s>>>" % (b"11" * 32, b"22" * 32),
    }
    for name, extra in variants.items():
        more = [b"6 0 R"] if name == "enc-self-ref" else [b"(not a dictionary)"]
        yield name, one_page(trailer_extra=extra, more=more)


FAMILIES: dict[str, Callable[..., Iterator[tuple[str, bytes]]]] = {
    "broken_xref": broken_xrefs, "cyclic": cyclic_trees, "huge": huge_sizes, "bombs": bombs,
    "nesting": deep_nesting, "fonts": bad_fonts, "encryption": bad_encryption,
}


def build_corpus(folder: Path, cuts: int = 12, flips_per_base: int = 30, scale: float = 1.0) -> dict[str, list[Path]]:
    """Write every hostile file under `folder`, by family (a few hundred files with the defaults)."""
    folder.mkdir(parents=True, exist_ok=True)
    bases = base_documents(folder / "bases")
    sources: dict[str, Iterator[tuple[str, bytes]]] = {
        "truncated": truncations(bases, cuts), "byte_flips": byte_flips(bases, flips_per_base),
        **{name: (family(scale) if family is bombs else family()) for name, family in FAMILIES.items()},
    }
    made: dict[str, list[Path]] = {}
    for family, items in sources.items():
        for name, data in items:
            path = folder / f"{name}.pdf"
            path.write_bytes(data)
            made.setdefault(family, []).append(path)
    return made


def slow_render_page(lines: int = 1_500_000) -> bytes:
    """One page of `lines` line draws across it (1.5 million by default: 27 MB of drawing
    instructions, within the per-page content limit), which MuPDF takes minutes to render at 300
    dpi: for deadline and crash tests."""
    drawing = zlib.compress(b"0 0 m 600 800 l S\n" * lines, 9)
    return one_page().replace(stream(TEXT), b"<</Length %d /Filter /FlateDecode>>\nstream\n" % len(drawing)
                              + drawing + b"\nendstream")
