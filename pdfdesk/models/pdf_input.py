"""What the `pdf` tool sends a model: native PDF bytes (or a PDF of just the chosen pages), or
extracted page text plus images of text-poor pages within a shared pixel budget.

The page text goes inside a fence; a document's name appears only neutralised (one line, no fence
markers, no quotes), so neither can pose as pdfdesk's own words to the model."""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from pdfdesk.core.config import Config
from pdfdesk.core.documents import OpenedPdf, open_pdf
from pdfdesk.core.fence import fence, neutralise
from pdfdesk.core.pages import format_page_set, pages_within
from pdfdesk.core.render import render_pixmap
from pdfdesk.core.ocr import usable_text
from pdfdesk.core.text import page_text
from pdfdesk.models.providers.base import ImagePart, Part, PdfPart, TextPart

PIXEL_BUDGET = 4_000_000       # all page images of one call together
LEGIBLE_PIXELS = 1_000_000     # a page image is not made smaller than this (~100 dpi on A4/Letter)
RENDER_DPI = 150               # and not larger than this resolution
MIN_PAGE_CHARS = 200           # pages with less text are sent as images
MAX_TEXT_CHARS = 400_000       # extracted text of one call


@dataclass
class LoadedPdf:
    reference: str
    name: str
    page_count: int
    pages: list[int]              # the selected pages this PDF has (all when no `pages` was given)
    selected: bool                # `pages` was given
    password: str | None = None
    max_bytes: int = 0
    data: bytes = b""             # what native mode sends (nothing when it has none of the pages)
    lacking: str = ""             # the requested pages past its end, as a spec


@dataclass
class Extraction:
    parts: list[Part]
    pages_sent: dict[str, str] = field(default_factory=dict)      # name -> page spec
    images: list[dict[str, Any]] = field(default_factory=list)    # {file, page, width, height}
    pixels_total: int = 0
    notes: list[str] = field(default_factory=list)
    has_content: bool = False
    recognised: dict[str, list[int]] = field(default_factory=dict)  # name -> pages whose text came from OCR


def load_pdfs(references: list[str], pages: str | int | None, max_bytes: int, password: str | None,
              config: Config) -> list[LoadedPdf]:
    """Open every PDF (policy, sandbox, byte cap, password) and prepare its native bytes. One `pages`
    spec applies to each PDF: a PDF keeps the pages it has and records the rest in `lacking`."""
    loaded = []
    for reference in references:
        with open_pdf(reference, password, max_bytes=max_bytes, config=config) as opened:
            selected, lacking = pages_within(pages, opened.page_count)
            doc = LoadedPdf(reference, opened.source.name, opened.page_count, selected, pages is not None,
                            password, max_bytes, lacking=lacking)
            whole = len(selected) == opened.page_count and not opened.doc.is_encrypted and not opened.encryption
            if whole:
                doc.data = opened.read_bytes()  # the bytes that were checked, not the name read again
            elif selected:  # a PDF of just the chosen pages, decrypted so the model can read it
                doc.data = _sub_pdf(opened.doc, selected)
        loaded.append(doc)
    return loaded


def _sub_pdf(source: pymupdf.Document, pages: list[int]) -> bytes:
    target = pymupdf.open()
    try:
        for number in pages:
            target.insert_pdf(source, from_page=number - 1, to_page=number - 1)
        return target.tobytes(garbage=3, deflate=True)
    finally:
        target.close()


def native_parts(docs: list[LoadedPdf], prompt: str, notes: list[str] | None = None) -> list[Part]:
    """The PDFs themselves, then `notes` (what was left out), then the prompt."""
    parts: list[Part] = [PdfPart(base64.b64encode(d.data).decode("ascii"), neutralise(d.name)) for d in docs]
    if notes:
        parts.append(TextPart("Notes: " + " ".join(notes)))
    return [*parts, TextPart(prompt)]


def _allotment(count: int) -> tuple[int, int]:
    """(pages that can be rendered legibly, pixels each) within the shared budget."""
    if count == 0:
        return 0, 0
    renderable = min(count, max(1, PIXEL_BUDGET // LEGIBLE_PIXELS))
    return renderable, PIXEL_BUDGET // renderable


Recognised = Callable[[str, list[int]], dict[int, tuple[str, float | None]]]  # (fingerprint, pages) -> OCR text


PageReader = Callable[[OpenedPdf, list[int]], tuple[dict[int, str], list[int]]]
"""(an open PDF, pages) -> each page's text, and the pages whose text OCR recognised."""


def plain_text(opened: OpenedPdf, pages: list[int]) -> tuple[dict[int, str], list[int]]:
    """Each page's text layer as it is."""
    return {number: page_text(opened.load_page(number)) for number in pages}, []


def extraction_parts(docs: list[LoadedPdf], prompt: str, max_pages: int, images: bool, config: Config,
                     notes: list[str] | None = None, recognised: Recognised | None = None,
                     reader: PageReader = plain_text) -> Extraction:
    """Text of the selected pages (at most `max_pages` in all); text-poor pages as PNGs when the model
    takes images, each at least legible, all within PIXEL_BUDGET. A scanned page's text is what the
    search index recognised on it (`recognised`, or what `reader` says OCR read), marked as OCR.
    `reader` reads the pages (the pdf tool's keeps tables as Markdown). `notes` (what the caller left
    out) go to the model with the extraction's own notes, which alone are kept in `Extraction.notes`."""
    result = Extraction(parts=[])
    budget_pages = max_pages
    texts: list[tuple[LoadedPdf, int, str]] = []
    for doc in docs:
        chosen = doc.pages[:budget_pages]
        budget_pages -= len(chosen)
        if len(chosen) < len(doc.pages):
            left = format_page_set(doc.pages[len(chosen):])
            result.notes.append(f"{neutralise(doc.name)}: pages {left} were not sent "
                                f"(at most {max_pages} pages per call); pass `pages` to choose others.")
        with open_pdf(doc.reference, doc.password, max_bytes=doc.max_bytes, config=config) as opened:
            read, ocred = reader(opened, chosen)
            fingerprint = opened.fingerprint
        if ocred:
            result.recognised.setdefault(doc.name, []).extend(ocred)
        thin = [number for number, text in read.items() if not usable_text(text) and number not in ocred]
        for number, (text, _confidence) in (recognised(fingerprint, thin) if recognised and thin else {}).items():
            read[number] = text
            result.recognised.setdefault(doc.name, []).append(number)
        texts.extend((doc, number, read[number]) for number in chosen)
        if chosen:
            result.pages_sent[doc.name] = format_page_set(chosen)
    poor = [(doc, number) for doc, number, text in texts if len("".join(text.split())) < MIN_PAGE_CHARS]
    rendered: dict[tuple[str, int], ImagePart] = {}
    if images and poor:
        renderable, each = _allotment(len(poor))
        for doc, number in poor[:renderable]:
            with open_pdf(doc.reference, doc.password, max_bytes=doc.max_bytes, config=config) as opened:
                page = opened.load_page(number)
                pixmap = render_pixmap(page, RENDER_DPI / 72.0, max_pixels=each)
                png = pixmap.tobytes("png")
            rendered[(doc.reference, number)] = ImagePart(base64.b64encode(png).decode("ascii"))
            result.images.append({"file": doc.name, "page": number, "width": pixmap.width, "height": pixmap.height})
            result.pixels_total += pixmap.width * pixmap.height
        if len(poor) > renderable:
            skipped = ", ".join(f"{neutralise(d.name)} p. {n}" for d, n in poor[renderable:])
            result.notes.append(f"Not rendered (image budget of {PIXEL_BUDGET:,} pixels used up): {skipped}.")
    used = 0
    for doc in docs:
        blocks = []
        for owner, number, text in texts:
            if owner is not doc:
                continue
            image = rendered.get((doc.reference, number))
            body = text.strip()
            if used + len(body) > MAX_TEXT_CHARS:
                body = body[: max(0, MAX_TEXT_CHARS - used)] + " [text cut: too long for one call]"
            used += len(body)
            label = f"--- Page {number} ---"
            if number in result.recognised.get(doc.name, ()):
                label += " (a scan; text recognised by OCR, may hold misread words)"
            if image is not None:
                label += " (sent as an image below; its text layer is thin or missing)"
            blocks.append(f"{label}\n{body}")
            result.has_content = result.has_content or bool(body.strip()) or image is not None
        if blocks:
            header = (f"Document {neutralise(doc.name)} ({doc.page_count} pages); "
                      f"extracted text of pages {result.pages_sent.get(doc.name, '')}:")
            result.parts.append(TextPart(header + "\n" + fence("\n".join(blocks), doc.name)))
        for (reference, number), image in rendered.items():
            if reference == doc.reference:
                result.parts.append(TextPart(f"Image of {neutralise(doc.name)} page {number}:"))
                result.parts.append(image)
    if notes or result.notes:
        result.parts.append(TextPart("Notes: " + " ".join([*(notes or []), *result.notes])))
    result.parts.append(TextPart(prompt))
    return result
