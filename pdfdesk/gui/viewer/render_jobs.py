"""How each piece of MuPDF work for one open document runs (in the document's worker thread).

Pixels come from the render helper process (`render_process`, a `core.childproc` worker), because
PyMuPDF keeps the GIL while it renders; the very first cheap page is rendered in-thread, where the
document is already open. Sizes and find run in slices so a render never waits long behind them.
The worker (`render_queue`) decides when each job runs; this module only knows how. A scanned
page's words, for selection and find, are those recognition read (`recognised`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pymupdf
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from pdfdesk.core.documents import open_source
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.core.ocr import draws_images, usable_text
from pdfdesk.core.render import render_pixmap
from pdfdesk.gui.viewer import page_data, render_process
from pdfdesk.gui.viewer.opening import OpenedDocument
from pdfdesk.gui.viewer.recognised import RecognisedPages

CHEAP_CONTENT_BYTES = 64 * 1024  # compressed content stream of a typical text page: 2-20 KB
FIND_SLICE_SECONDS = 0.012
PREVIEW_MAX_WIDTH = 160


@dataclass(frozen=True)
class PageGeometry:
    """A page's displayed size in points and, for rotated pages, unrotated -> displayed matrix."""

    width: float
    height: float
    matrix: tuple[float, float, float, float, float, float] | None = None


@dataclass
class FindTask:
    """One search over the pages in `order`; `position` is how far it got."""

    generation: int
    needle: str
    order: list[int]
    position: int = 0
    # recognised text of the document's scanned pages (1-based), read once a scan is met
    recognised: dict[int, str] | None = None
    wants_record: bool = False

    @property
    def finished(self) -> bool:
        return self.position >= len(self.order)


def to_qimage(pixmap: pymupdf.Pixmap, device_pixel_ratio: float) -> QImage:
    """An owned QImage of an RGB pixmap (one copy; painting RGB888 needs no conversion pass)."""
    image = QImage(pixmap.samples_mv, pixmap.width, pixmap.height, pixmap.stride,
                   QImage.Format.Format_RGB888).copy()
    image.setDevicePixelRatio(device_pixel_ratio)
    return image


def preview_of(image: QImage) -> QImage:
    """A copy at most PREVIEW_MAX_WIDTH wide. Qt's scaler (PyMuPDF's scaling Pixmap constructor
    leaks the new pixmap, ~100 KB a page); it keeps the GIL, so a fast pass to twice the size
    comes first and the smooth pass only works on that (~0.3 ms instead of ~3 ms a page)."""
    if image.width() <= PREVIEW_MAX_WIDTH:
        small = image.copy()
    else:
        if image.width() > 4 * PREVIEW_MAX_WIDTH:
            image = image.scaledToWidth(2 * PREVIEW_MAX_WIDTH, Qt.TransformationMode.FastTransformation)
        small = image.scaledToWidth(PREVIEW_MAX_WIDTH, Qt.TransformationMode.SmoothTransformation)
    small.setDevicePixelRatio(1.0)
    return small


def page_error(page_index: int, exc: Exception) -> str:
    """The message a page that cannot be rendered shows in place."""
    if isinstance(exc, PdfDeskError):
        return exc.message
    if isinstance(exc, render_process.RenderFailed):
        return str(exc)
    return f"Page {page_index + 1} cannot be displayed: {exc}."


class PageJobs:
    """The jobs of one opened document. Not thread-safe: one worker thread calls them."""

    def __init__(self, document: OpenedDocument, fingerprint: str | None = None) -> None:
        self.document = document
        self.helper_renders = 0  # renders done by the helper process (the rest ran in-thread)
        self._rendered_once = False
        self.recognised = RecognisedPages(document.source, document.password)
        self.recognised.given = fingerprint

    def sizes(self, first: int, end: int) -> list[PageGeometry]:
        """Geometry of pages first..end-1; a damaged page keeps the stand-in size."""
        document = self.document
        geometries: list[PageGeometry] = []
        with open_source(document.source, document.password) as opened:
            for index in range(first, end):
                try:
                    page = opened.doc.load_page(index)
                    rect = page.rect
                    matrix = page_data.display_matrix(page)
                    geometries.append(PageGeometry(rect.width, rect.height,
                                                   (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)
                                                   if matrix is not None else None))
                except Exception:  # the page shows its error when it is rendered
                    geometries.append(PageGeometry(*document.first_size))
        return geometries

    def render(self, page_index: int, scale: float, clip: tuple[float, float, float, float] | None,
               device_pixel_ratio: float) -> QImage:
        """Pixels from the render helper process, or from this thread while it is not available."""
        document = self.document
        try:
            if not self._rendered_once and self._cheap_to_render(page_index):
                # The document is already open here, while the helper would parse it first: the
                # first page on screen is rendered in this thread when it is plain text and
                # vectors (milliseconds of GIL); scans and heavy drawings go to the helper.
                raise render_process.HelperUnavailable()
            self._rendered_once = True
            image = render_process.HELPER.render(document.source, document.password, page_index, scale, clip)
        except render_process.HelperUnavailable:
            self._rendered_once = True
            with open_source(document.source, document.password) as opened:
                page = opened.doc.load_page(page_index)
                pixmap = render_pixmap(page, scale, clip=pymupdf.Rect(clip) if clip is not None else None)
            return to_qimage(pixmap, device_pixel_ratio)
        self.helper_renders += 1
        image.setDevicePixelRatio(device_pixel_ratio)
        return image

    def _cheap_to_render(self, page_index: int) -> bool:
        """No images and a short content stream: rendering it here holds the GIL only briefly."""
        try:
            with open_source(self.document.source, self.document.password) as opened:
                page = opened.doc.load_page(page_index)
                if page.get_images(full=False):
                    return False
                size = sum(len(opened.doc.xref_stream_raw(xref) or b"") for xref in page.get_contents())
                return size <= CHEAP_CONTENT_BYTES
        except Exception:  # a damaged page: let the helper (and its crash isolation) deal with it
            return False

    def page_info(self, page_index: int) -> tuple[page_data.PageWords, list[page_data.Link]]:
        """Words and links of a page (a scan's recognised words); none for a damaged page."""
        try:
            with open_source(self.document.source, self.document.password) as opened:
                page = opened.doc.load_page(page_index)
                words, links = page_data.page_words(page), page_data.page_links(page, opened.doc)
                matrix = page_data.display_matrix(page)
                scanned = page_data.looks_scanned(page, words)
            if scanned:  # read outside the MuPDF lock: the record is SQLite, the fingerprint a hash
                recognised = self.recognised.words(page_index + 1)
                if recognised:
                    words = page_data.words_from(recognised, matrix)
            return words, links
        except Exception:
            return page_data.PageWords(), []

    def find_slice(self, task: FindTask) -> dict[int, list[page_data.Rect]]:
        """Search on from `task.position` for about FIND_SLICE_SECONDS; hits by page. The first
        scanned page met ends its slice early: the recognised texts are read (outside the MuPDF
        lock) before the next one, and searched from then on as the pages' text."""
        hits: dict[int, list[page_data.Rect]] = {}
        deadline = time.perf_counter() + FIND_SLICE_SECONDS
        if task.recognised is None and (task.wants_record or self.recognised.given):
            task.recognised = self.recognised.texts()
        try:
            with open_source(self.document.source, self.document.password) as opened:
                while not task.finished:
                    index = task.order[task.position]
                    try:
                        page = opened.doc.load_page(index)
                        found = page_data.find_hits(page, task.needle)
                        if not found and task.recognised is None and _scanned(page):
                            task.wants_record = True
                            break  # this page again, once the record is read
                        if not found and task.recognised:
                            found = self._recognised_hits(page, task.recognised, task.needle)
                    except Exception:  # a damaged page has no hits; the others still count
                        found = []
                    task.position += 1
                    if found:
                        hits[index] = found
                    if time.perf_counter() > deadline:
                        break
        except PdfDeskError:  # the file vanished or changed under us: end the search
            task.position = len(task.order)
        return hits

    def _recognised_hits(self, page: pymupdf.Page, texts: dict[int, str], needle: str) -> list[page_data.Rect]:
        """Hits among a recognised page's words (the page's own text gave none)."""
        text = texts.get(page.number + 1)
        if text is None or " ".join(needle.split()).lower() not in " ".join(text.split()).lower():
            return []
        words = self.recognised.words(page.number + 1)
        if not words:
            return []
        matrix = page_data.display_matrix(page)
        return page_data.word_hits(page_data.words_from(words, matrix), needle, upright=matrix is None)


def _scanned(page: pymupdf.Page) -> bool:
    """A page showing an image whose text layer is not usable (images first: that test is cheap)."""
    return draws_images(page) and not usable_text(page.get_text())
