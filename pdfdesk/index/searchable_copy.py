"""Save a searchable copy of a scanned PDF: every scanned page gets an invisible layer of the
words recognised on it, so any PDF reader (a browser, Acrobat, pdftotext) finds, selects and
copies them. The original is never written.

The words come from the page-text record, where the OCR stage keeps what it read; pages it has
not read yet are recognised first (and kept there, so the index gains them too). Pages with a
usable text layer of their own are copied as they are. A scanned page whose old text layer is
unreadable and invisible (a scanner's failed OCR) has that layer replaced, so the copy does not
answer searches with its garbage; a visible one is never touched.
"""

from __future__ import annotations

import threading
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from pymupdf import mupdf

from pdfdesk.core.documents import MUPDF_LOCK, open_pdf, open_source
from pdfdesk.core.glyphless_font import GlyphlessFont, glyphless_font_bytes
from pdfdesk.core.new_file import check_new_file, writing_beside
from pdfdesk.core.pages import format_page_set
from pdfdesk.core.text_layer import lay_words
from pdfdesk.index.builder import Target
from pdfdesk.index.page_text import OCR, SCANNED, PageText, PageTextStore, Word, extract_page
from pdfdesk.index.recognise_now import recognise_now

READING, RECOGNISING, WRITING = "reading", "recognising", "writing"
Progress = Callable[[str, int, int], None]  # (stage, done, total)
PAGE_SLICE = 25         # pages read per hold of MuPDF's lock, so the window keeps rendering
READS_BACK = 0.9        # share of a page's words its layer must give back when extracted
SUFFIX = "-searchable"
NOT_RECOGNISED = "recognition was stopped before this page"
NO_WORDS = "no words were recognised on this page"


@dataclass(frozen=True)
class CopyReport:
    """What a searchable copy holds, page by page, and where it went (None when cancelled)."""

    source: str
    output: str | None
    pages_total: int
    layered: tuple[int, ...] = ()          # pages given an invisible text layer
    recognised_now: tuple[int, ...] = ()   # of those, pages recognised for this copy
    kept: tuple[int, ...] = ()             # pages whose own text layer was left as it was
    left_out: dict[int, str] = field(default_factory=dict)  # scanned pages still without text, and why
    replaced_layers: tuple[int, ...] = ()  # pages whose unreadable invisible text was replaced
    unreadable: tuple[int, ...] = ()       # layered pages whose words did not all read back
    words: int = 0
    decrypted: bool = False                # the source was encrypted; the copy is not
    not_kept: str | None = None            # why recognised text could not be kept for the index
    cancelled: bool = False
    seconds: float = 0.0

    def summary(self) -> str:
        """A few lines for a person: where the copy went and what each kind of page got."""
        if self.cancelled:
            return "Stopped: no copy was written."
        lines = [f"Searchable copy written to {self.output} ({self.seconds:.1f} s)."]
        lines.append(f"{_pages(len(self.layered))} given a text layer ({self.words:,} words"
                     + (f"; {len(self.recognised_now)} recognised now" if self.recognised_now else "") + ").")
        if self.kept:
            one = len(self.kept) == 1
            lines.append(f"{_pages(len(self.kept))} copied as {'it was' if one else 'they were'} "
                         f"(text of {'its' if one else 'their'} own, or no scan to read).")
        if self.replaced_layers:
            lines.append(f"Unreadable hidden text replaced on page {format_page_set(self.replaced_layers)}.")
        for reason, pages in _by_reason(self.left_out).items():
            lines.append(f"Left without text: page {format_page_set(pages)} ({reason}).")
        if self.unreadable:
            lines.append(f"Some words may not copy out correctly on page {format_page_set(self.unreadable)}.")
        if self.decrypted:
            lines.append("The original is encrypted; this copy is not (keep it as safe as the original).")
        if self.not_kept:
            lines.append(f"The recognised text could not be kept for search ({self.not_kept}).")
        return "\n".join(lines)


def _pages(count: int) -> str:
    return f"{count} page{'s' * (count != 1)}"


def _by_reason(left_out: dict[int, str]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = {}
    for page, reason in sorted(left_out.items()):
        grouped.setdefault(reason, []).append(page)
    return grouped


def default_output(source: str | Path) -> Path:
    """`<folder>/<name>-searchable.pdf`, next to the document."""
    path = Path(source)
    return path.with_name(f"{path.stem}{SUFFIX}.pdf")


def _cancelled(cancel: threading.Event | None) -> bool:
    return cancel is not None and cancel.is_set()


def save_searchable_copy(source_path: str | Path, out_path: str | Path, password: str | None = None,
                         progress: Progress | None = None, cancel: threading.Event | None = None,
                         overwrite: bool = False) -> CopyReport:
    """Write a copy of the PDF at `source_path` to `out_path` with an invisible text layer over
    each scanned page. Refuses (PdfDeskError) an output that is the source under any name, an
    existing file unless `overwrite`, and a folder that cannot take the copy; a set `cancel`
    stops the work and writes nothing."""
    started = time.monotonic()
    source, output = Path(source_path), Path(out_path)
    with open_pdf(str(source_path), password) as opened:
        target = Target(opened.source, password, opened.fingerprint)
        pages_total, decrypted = opened.page_count, opened.encryption is not None
    check_new_file(source, output, overwrite, expected_bytes=target.source.size + target.source.size // 10)
    records, not_kept = _page_records(target, pages_total, progress, cancel)
    scanned = [number for number, record in sorted(records.items()) if record.source == SCANNED]
    left_out: dict[int, str] = {}
    recognised_now: list[int] = []
    if scanned and not _cancelled(cancel):
        found = recognise_now(target, scanned, pages_total, _stage(progress, RECOGNISING), cancel)
        records.update(found.records)
        recognised_now = sorted(found.records)
        left_out.update(found.failed)
        not_kept = not_kept or found.not_kept
    if _cancelled(cancel):
        return CopyReport(str(source_path), None, pages_total, cancelled=True, seconds=time.monotonic() - started)
    to_layer = [n for n, record in sorted(records.items()) if record.source == OCR and record.words]
    for number, record in records.items():
        if record.source == SCANNED:
            left_out.setdefault(number, NOT_RECOGNISED)
        elif record.source == OCR and not record.words:
            left_out[number] = NO_WORDS
    written = _write_copy(target, records, to_layer, source, output, progress, cancel)
    if written is None:
        return CopyReport(str(source_path), None, pages_total, cancelled=True, seconds=time.monotonic() - started)
    replaced, unreadable, words = written
    kept = tuple(n for n, record in sorted(records.items()) if record.source not in (OCR, SCANNED))
    return CopyReport(str(source_path), str(output), pages_total, tuple(to_layer),
                      tuple(n for n in recognised_now if n in to_layer), kept, dict(sorted(left_out.items())),
                      replaced, unreadable, words, decrypted, not_kept, False, time.monotonic() - started)


def _stage(progress: Progress | None, stage: str) -> Callable[[int, int], None] | None:
    if progress is None:
        return None
    return lambda done, total: progress(stage, done, total)


def _page_records(target: Target, pages_total: int, progress: Progress | None,
                  cancel: threading.Event | None) -> tuple[dict[int, PageText], str | None]:
    """Every page's record: stored ones, and the others read now as the keyword stage reads them
    (a scanned page is marked for recognition) and stored for it."""
    numbers = range(1, pages_total + 1)
    try:
        records = PageTextStore().pages(target.fingerprint, numbers)
    except OSError:
        records = {}
    missing = [number for number in numbers if number not in records]
    read: list[PageText] = []
    for start in range(0, len(missing), PAGE_SLICE):
        if _cancelled(cancel):
            break
        with open_source(target.source, target.password) as opened:
            for number in missing[start:start + PAGE_SLICE]:
                try:
                    read.append(extract_page(opened.doc.load_page(number - 1)))
                except Exception:  # a damaged page reads as empty, as in the keyword stage
                    read.append(PageText(number, ""))
        if progress is not None:
            progress(READING, min(start + PAGE_SLICE, len(missing)), len(missing))
    records.update((record.page, record) for record in read)
    if not read:
        return records, None
    try:
        PageTextStore().write(target.fingerprint, pages_total, read)
    except OSError as exc:
        return records, exc.strerror or str(exc)
    return records, None


def _write_copy(target: Target, records: dict[int, PageText], to_layer: list[int], source: Path, output: Path,
                progress: Progress | None, cancel: threading.Event | None
                ) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """Lay the words of `to_layer`'s pages into a copy of the document and write it; returns
    (pages whose old hidden text was replaced, pages that do not read back, words laid), or None
    when cancelled. The copy is a document of its own: the cached one others read stays as it is."""
    with open_source(target.source, target.password) as opened:
        data = opened.read_bytes()
    with MUPDF_LOCK:
        doc = pymupdf.open(stream=data, filetype="pdf")
        if doc.needs_pass:
            doc.authenticate(target.password or "")
        font = GlyphlessFont(doc, glyphless_font_bytes())
    del data
    replaced: list[int] = []
    words = 0
    try:
        for done, number in enumerate(to_layer, 1):
            if _cancelled(cancel):
                return None
            with MUPDF_LOCK:
                page = doc.load_page(number - 1)
                if drop_hidden_text(page):
                    replaced.append(number)
                words += lay_words(page, records[number].words, font)
            if progress is not None:
                progress(WRITING, done, len(to_layer))
        with MUPDF_LOCK:
            font.finish()
            unreadable = tuple(n for n in to_layer if not reads_back(doc.load_page(n - 1), records[n].words))
        if _cancelled(cancel):
            return None
        with writing_beside(output, source) as handle, MUPDF_LOCK:
            doc.save(handle, garbage=1, deflate=True, encryption=mupdf.PDF_ENCRYPT_NONE)
    finally:
        with MUPDF_LOCK:
            doc.close()
    return tuple(replaced), unreadable, words


def drop_hidden_text(page: pymupdf.Page) -> bool:
    """Remove the page's text when all of it is invisible (an unreadable OCR layer a scanner
    left); visible text is never removed. True when something was removed. MuPDF's redaction,
    which does the removing, also takes away every annotation and link under it, so a page that
    has any keeps its old layer."""
    if page.first_annot is not None or page.first_link is not None or page.first_widget is not None:
        return False
    spans = page.get_texttrace()
    if not spans or any(span.get("type") != 3 and (span.get("opacity") or 0) > 0 for span in spans):
        return False
    page.add_redact_annot(page.rect)  # no fill: the scan under it stays as it is
    page.apply_redactions(images=mupdf.PDF_REDACT_IMAGE_NONE, graphics=mupdf.PDF_REDACT_LINE_ART_NONE,
                          text=mupdf.PDF_REDACT_TEXT_REMOVE)
    return True


def _squeezed(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


def reads_back(page: pymupdf.Page, words: Sequence[Word]) -> bool:
    """Whether extracting the page's text gives back (nearly) every word laid on it."""
    text = _squeezed(page.get_text())
    wanted = [_squeezed(word.text) for word in words if word.text.strip()]
    return not wanted or sum(1 for word in wanted if word in text) >= READS_BACK * len(wanted)


def copy_in_child(send: Callable[[Any], None], source_path: str, out_path: str, password: str | None,
                  overwrite: bool) -> CopyReport:
    """`save_searchable_copy` as a child process's job (the window's), each (stage, done, total)
    sent as it goes; the parent stops it by killing it."""
    return save_searchable_copy(source_path, out_path, password, progress=lambda *step: send(step),
                                overwrite=overwrite)
