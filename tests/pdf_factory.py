"""Builders for the test PDFs: every kind of document pdfdesk must handle, made with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pymupdf

LOREM = (
    "The parties agree that the supplier shall deliver the goods described in schedule {n} "
    "within thirty days of the order date. Payment is due upon receipt of a valid invoice. "
)


def save(doc: pymupdf.Document, path: Path, **kwargs) -> Path:
    doc.save(path, **kwargs)
    doc.close()
    return path


def text_pdf(path: Path, pages: int = 3, words: str = "Page {n} says hello from pdfdesk.") -> Path:
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 72), words.format(n=n), fontsize=12)
        page.insert_textbox(pymupdf.Rect(72, 100, 520, 700), LOREM.format(n=n) * 3, fontsize=10)
    doc.set_metadata({"title": "Test Title", "author": "Ada Author", "subject": "Testing",
                      "creationDate": "D:20240131120000+01'00'", "modDate": "D:20250203040506Z"})
    return save(doc, path)


def outline_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for n in range(1, 11):
        doc.new_page().insert_text((72, 72), f"Chapter text on page {n}")
    doc.set_toc([
        [1, "Introduction", 1],
        [2, "Background", 2],
        [2, "Scope", 3],
        [1, "Methods", 4],
        [2, "Data", 5],
        [3, "Sources", 6],
        [1, "Results", 8],
        [1, "Appendix", 10],
    ])
    return save(doc, path)


def grey_image_png(width: int = 400, height: int = 300) -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, width, height), False)
    pix.clear_with(180)
    return pix.tobytes("png")


def image_only_pdf(path: Path) -> Path:
    """Page 1 has text; page 2 is a 'scan' (one image, no text); page 3 is blank."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "This page has a real text layer.")
    scan = doc.new_page()
    scan.insert_image(scan.rect, stream=grey_image_png())
    doc.new_page()
    return save(doc, path)


def encrypted_pdf(path: Path, method: int, user_pw: str = "user-secret", owner_pw: str = "owner-secret") -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Confidential: the secret word is marmalade.")
    return save(doc, path, encryption=method, user_pw=user_pw, owner_pw=owner_pw,
                permissions=pymupdf.PDF_PERM_PRINT)


def cjk_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "中文测试：合同条款与付款期限", fontname="china-s", fontsize=14)
    page.insert_text((72, 110), "日本語のテキスト：契約書", fontname="japan", fontsize=14)
    page.insert_text((72, 150), "한국어 텍스트 계약", fontname="korea", fontsize=14)
    return save(doc, path)


def rtl_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_htmlbox(pymupdf.Rect(50, 50, 545, 400),
                        "<p dir='rtl'>שלום עולם, זהו מסמך בדיקה</p><p dir='rtl'>مرحبا بالعالم</p>")
    return save(doc, path)


def form_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Application form")
    for i, (name, value) in enumerate([("full_name", "Grace Hopper"), ("city", "Arlington")]):
        widget = pymupdf.Widget()
        widget.field_name = name
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.field_value = value
        widget.rect = pymupdf.Rect(72, 80 + i * 30, 300, 100 + i * 30)
        page.add_widget(widget)
    box = pymupdf.Widget()
    box.field_name = "agree"
    box.field_type = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
    box.field_value = True
    box.rect = pymupdf.Rect(72, 150, 90, 168)
    page.add_widget(box)
    return save(doc, path)


def many_pages_pdf(path: Path, pages: int) -> Path:
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=400, height=500)
        page.insert_text((40, 50), f"Page {n} of the long document. Keyword{n % 97} appears here.", fontsize=9)
        page.insert_textbox(pymupdf.Rect(40, 70, 360, 460), LOREM.format(n=n) * 2, fontsize=8)
    return save(doc, path, garbage=1, deflate=True)


def assemble(objects: list[bytes], trailer_extra: bytes = b"", root: int = 1, header: bytes = b"%PDF-1.7\n") -> bytes:
    """A PDF with correct xref offsets from numbered object bodies (object n is objects[n-1])."""
    out = bytearray(header + b"%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<</Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, root, trailer_extra, xref)
    return bytes(out)


ZERO_PAGES = assemble([b"<</Type /Catalog /Pages 2 0 R>>", b"<</Type /Pages /Kids [] /Count 0>>"])


def zero_pages_pdf(path: Path) -> Path:
    path.write_bytes(ZERO_PAGES)
    return path


def truncated_pdf(source: Path, path: Path, keep: float = 0.5) -> Path:
    """A download cut off after the last whole object before `keep` of the file: no xref, no
    trailer, so MuPDF must repair it. (A cut inside a stream is repairable or not depending on the
    exact byte it lands on; the hardening corpus covers arbitrary cut points.)"""
    data = source.read_bytes()
    limit = int(len(data) * keep)
    cut = data.rfind(b"endobj", 0, limit)
    path.write_bytes(data[: cut + len(b"endobj\n")] if cut > 0 else data[:limit])
    return path


def garbled_pdf(source: Path, path: Path) -> Path:
    """Keeps the header but overwrites every 5th byte after it: xref and streams are wrecked."""
    data = bytearray(source.read_bytes())
    for i in range(16, len(data), 5):
        data[i] = 0x7E
    path.write_bytes(bytes(data))
    return path


def broken_xref_pdf(source: Path, path: Path) -> Path:
    """A valid PDF whose xref offsets are wrong: MuPDF repairs it silently."""
    data = source.read_bytes()
    start = data.rfind(b"startxref")
    path.write_bytes(data[:start] + b"startxref\n999999\n%%EOF\n")
    return path


DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def born_digital_page(doc: pymupdf.Document, text: str, title: str | None = None) -> pymupdf.Page:
    """A text page; Cyrillic and Greek are set in DejaVu Sans when the system has it."""
    page = doc.new_page()
    font = {"fontname": "dejavu", "fontfile": DEJAVU} if not text.isascii() and Path(DEJAVU).exists() else {}
    if title:
        page.insert_text((72, 80), title, fontsize=18, **font)
    page.insert_textbox(pymupdf.Rect(72, 110, 520, 780), text, fontsize=12, **font)
    return page


def scanned_pdf(path: Path, pages: list[str], dpi: int = 200, turn: dict[int, int] | None = None,
                rotate: dict[int, int] | None = None, titles: list[str] | None = None) -> Path:
    """A scan of born-digital pages: each page rendered grey at `dpi` and placed as the only image
    of a page with no text layer. `turn` {page: degrees} draws that page's image turned (a sheet
    fed sideways); `rotate` {page: degrees} sets the page's /Rotate (a viewer turns it back)."""
    source = pymupdf.open()
    for number, text in enumerate(pages, 1):
        born_digital_page(source, text, titles[number - 1] if titles else None)
    scan = pymupdf.open()
    for number, page in enumerate(source, 1):
        png = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY).tobytes("png")
        degrees = (turn or {}).get(number, 0)
        width, height = page.rect.width, page.rect.height
        if degrees in (90, 270):
            width, height = height, width
        target = scan.new_page(width=width, height=height)
        target.insert_image(target.rect, stream=png, rotate=degrees)
        if (rotate or {}).get(number):
            target.set_rotation(rotate[number])  # type: ignore[index]
    return save(scan, path)


# Pages of a field trial: each holds "plants" and "measure", most in different paragraphs, none
# about how dry the plants were; page 17 is, and holds both words once, in one paragraph.
TRIAL_PAGES = [
    ["Trial plot {n} was sown in spring; its plants were spaced thirty centimetres apart.",
     "Fertiliser was spread before sowing and weeds were removed by hand every second week.",
     "At harvest we measure the weight of the fruit from each row."],
    ["Plot {n} lies on the north slope, where the plants flowered a week later than elsewhere.",
     "Aphids were counted on ten leaves per row and sprayed with soap when numbers rose.",
     "We measure plant height with a ruler from the soil surface to the top of the stem."],
    ["The greenhouse seedlings for plot {n} were hardened off outside for ten days.",
     "Transplanting took place in the evening to spare the young plants the midday sun.",
     "Labels in each row name the variety, so the yields we measure are never mixed up."],
    ["Plot {n} was harvested by a team of four pickers, who picked the plants over three mornings.",
     "Fruit was graded by size and colour; cracked fruit went to the processing line.",
     "The prices we measure against are those paid by the regional market for ripe fruit."],
]
DROUGHT_PAGE = [
    "The crop was irrigated by drip lines laid along every row.",
    ("To measure how dry the plants were, we read leaf water potential with a pressure chamber at noon: "
     "the lower the reading, the more the plants suffered from drought and water stress."),
    "Soil moisture probes at two depths showed when the root zone was drying out. " * 3,
    ("The readings were taken on clear days only, since clouds change the leaves' temperature and "
     "opening of their pores within minutes, and a reading taken under cloud is not comparable."),
]


def field_trial_pdf(path: Path) -> Path:
    """24 pages of a field trial; page 17, alone, says how dry the plants were (see DROUGHT_PAGE)."""
    doc = pymupdf.open()
    for number in range(1, 25):
        page = doc.new_page()
        paragraphs = DROUGHT_PAGE if number == 17 else [text.format(n=number) for text in TRIAL_PAGES[number % 4]]
        for at, text in enumerate(paragraphs):
            page.insert_textbox(pymupdf.Rect(72, 72 + 130 * at, 520, 162 + 130 * at), text, fontsize=11)
    return save(doc, path)
