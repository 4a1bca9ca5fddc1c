"""Open a PDF once, check it thoroughly, and keep it open for the next call.

MuPDF is not thread-safe, so every use of a document happens inside `open_pdf`, which holds one
process-wide lock. Opened documents are cached by the identity of the file that was checked
(device, inode, size, mtime) and the password — never by the name asked for, which may point
elsewhere by now — so a GUI scrolling through pages or an agent calling several tools does not
re-parse the file. MuPDF, the fingerprint and the header check all read the descriptor the
file was checked through (see core/localfile.py); it stays open as long as the document does.

Whether a file is a PDF is MuPDF's call: what it opens as a PDF with pages is accepted (a file
with other bytes before its header is flagged as repaired); what it cannot open and that holds
no `%PDF` anywhere is not_a_pdf, with a guess at what it is instead.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

from pdfdesk.core import outline as _outline  # noqa: F401  (before any open: defers PyMuPDF's outline load)
from pdfdesk.core.config import Config, get_config
from pdfdesk.core.errors import (
    NO_PAGES, NOT_A_PDF, PASSWORD_REQUIRED, PDF_ERROR, WRONG_PASSWORD, PdfDeskError,
)
from pdfdesk.core.localfile import HeldFile
from pdfdesk.core.lru import LRU
from pdfdesk.core.mupdf_errors import is_mupdf_error
from pdfdesk.core.references import PdfSource, locate, reopen
from pdfdesk.core.sniff import describe_format

# MuPDF prints warnings and errors to stderr by default; we collect them and report them instead.
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

MUPDF_LOCK = threading.RLock()
# What MuPDF raises on damaged input: PyMuPDF's RuntimeError/ValueError, and the FzError* classes
# the mupdf bindings raise from deeper calls ("cycle in page tree", "too many nested graphics states").
MUPDF_ERRORS: tuple[type[BaseException], ...] = (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase)
# ... and what a page refused as hostile raises as well (checkers name it as a tuple, not a starred one).
PAGE_ERRORS: tuple[type[BaseException], ...] = (PdfDeskError, *MUPDF_ERRORS)
_CACHE_SIZE = 8
_HASH_CHUNK = 1 << 20
_HEAD = 4096  # enough to tell what a file looks like



def content_fingerprint(content: bytes | Iterable[bytes]) -> str:
    """A document's identity from its bytes alone: byte size + BLAKE2b (what notes, indices and the
    team database key documents by, wherever the file lies)."""
    digest = hashlib.blake2b(digest_size=16)
    size = 0
    for chunk in ([content] if isinstance(content, bytes) else content):
        digest.update(chunk)
        size += len(chunk)
    return f"{size:x}-{digest.hexdigest()}"


@dataclass
class OpenedPdf:
    """An open, authenticated document with what we learned while opening it."""

    doc: pymupdf.Document
    source: PdfSource
    repaired: bool = False
    warnings: list[str] = field(default_factory=list)
    encryption: str | None = None  # e.g. "Standard V5 R6 256-bit AES"; None when not encrypted
    analyses: dict[str, Any] = field(default_factory=dict)  # per-document results tools derive (hidden text)
    held: HeldFile | None = field(default=None, repr=False)  # the descriptor a local file was checked through
    _fingerprint: str | None = None

    @property
    def page_count(self) -> int:
        count: int = self.doc.page_count
        return count

    @property
    def fingerprint(self) -> str:
        """Content identity: byte size + BLAKE2b of the bytes (independent of path and mtime)."""
        if self._fingerprint is None:
            self._fingerprint = content_fingerprint(self._chunks())
        return self._fingerprint

    def read_bytes(self) -> bytes:
        """The bytes MuPDF opened (a local file's through its descriptor, never by name again)."""
        return b"".join(self._chunks())

    def _chunks(self) -> Iterator[bytes]:
        if self.source.data is not None:
            yield self.source.data
        else:
            assert self.held is not None
            yield from self.held.chunks(_HASH_CHUNK)

    def close(self) -> None:
        self.doc.close()
        if self.held is not None:
            self.held.close()

    def drain_warnings(self) -> list[str]:
        """MuPDF's complaints since the last call (damaged streams, fonts...), for `details`."""
        return _mupdf_messages()

    def load_page(self, number: int) -> pymupdf.Page:
        """Page `number` (1-based); damage inside the page becomes pdf_error."""
        try:
            page: pymupdf.Page = self.doc.load_page(number - 1)
        except Exception as exc:  # MuPDF raises plain RuntimeError/ValueError on broken pages
            raise PdfDeskError(
                PDF_ERROR, f"Page {number} of {self.source.name} cannot be read: {mupdf_message(exc)}.",
                "The page is damaged; other pages may still open.",
            ) from None
        return page


_cache: LRU[tuple[Any, ...], OpenedPdf] = LRU(_CACHE_SIZE, on_evict=OpenedPdf.close)  # guarded by MUPDF_LOCK


def mupdf_message(exc: BaseException, limit: int = 300) -> str:
    """MuPDF's complaint in words: without the bindings' "code=7: " prefix, capped (it may quote the file)."""
    text = str(exc).strip()
    if text.startswith("code=") and ": " in text:
        text = text.split(": ", 1)[1]
    return text if len(text) <= limit else text[:limit] + "…"


def page_damage(exc: BaseException) -> str:
    """Why a page could not be read, for a tool that goes on with the other pages; an exception
    that is no damage in the page (a bug of pdfdesk's own) is raised again, for the registry to
    report as such."""
    if isinstance(exc, PdfDeskError):
        return exc.message
    if is_mupdf_error(exc):
        return mupdf_message(exc)
    raise exc


def _mupdf_messages() -> list[str]:
    text = pymupdf.TOOLS.mupdf_warnings(reset=True) or ""
    return [line.strip() for line in text.splitlines() if line.strip()]


_GENERIC = ("repairing PDF document", "trying to repair broken xref", "... repeated")


def _cause(messages: list[str]) -> str | None:
    """The most telling MuPDF message: the last one that is not a generic repair notice."""
    telling = [m for m in messages if not m.startswith(_GENERIC)]
    candidates = telling or messages
    return candidates[-1] if candidates else None


def _head(source: PdfSource, held: HeldFile | None) -> bytes:
    if source.data is not None:
        return source.data[:_HEAD]
    assert held is not None
    return held.read_at(0, _HEAD)


def _holds_pdf_marker(source: PdfSource, held: HeldFile | None) -> bool:
    if source.data is not None:
        return b"%PDF" in source.data
    assert held is not None
    return held.contains(b"%PDF")


def _not_a_pdf(source: PdfSource, head: bytes, mupdf_format: str | None = None) -> PdfDeskError:
    kind = describe_format(head) or (f"a {mupdf_format} document" if mupdf_format else None)
    why = f"it looks like {kind}" if kind else "PDF readers cannot open it and it has no %PDF header"
    return PdfDeskError(
        NOT_A_PDF, f"{source.name} is not a PDF ({why}).",
        "Check that this is the PDF you meant; a renamed Word or HTML file will not open.",
    )


def _mupdf_open(source: PdfSource, held: HeldFile | None) -> pymupdf.Document:
    """MuPDF reads the checked file through its descriptor's name, or else its bytes."""
    if source.data is not None:
        return pymupdf.open(stream=source.data, filetype="pdf")
    assert held is not None
    name = held.mupdf_name()
    if name is None:
        return pymupdf.open(stream=held.read_all(), filetype="pdf")
    return pymupdf.open(name, filetype="pdf")


def _parse(source: PdfSource, held: HeldFile | None) -> OpenedPdf:
    _mupdf_messages()  # drop anything left over from earlier calls
    try:
        doc = _mupdf_open(source, held)
    except Exception as exc:
        messages = _mupdf_messages()
        if not _holds_pdf_marker(source, held):
            raise _not_a_pdf(source, _head(source, held)) from None
        name = held.mupdf_name() if held is not None else None
        if name:  # MuPDF quotes the name it was given: show the file's own
            messages = [m.replace(name, source.name) for m in messages]
        cause = _cause(messages) or mupdf_message(exc).replace(name or source.name, source.name)
        raise PdfDeskError(
            PDF_ERROR, f"{source.name} is damaged beyond repair ({cause}).",
            "Get a fresh copy of the file; if another viewer opens it, save a repaired copy from there.",
            mupdf_messages=messages[-10:],
        ) from None
    head = _head(source, held)
    if not doc.is_pdf:  # MuPDF recognised another format (HTML, an image, SVG...) by its content
        mupdf_format = (doc.metadata or {}).get("format") or None
        doc.close()
        raise _not_a_pdf(source, head, mupdf_format)
    warnings = _mupdf_messages()[-20:]
    repaired = bool(doc.is_repaired)
    if not head.startswith(b"%PDF"):
        # MuPDF found the document behind other bytes (or without a header): readable, but not
        # the file a PDF writer produced, so say so as for any other repair.
        repaired = True
        offset = head.find(b"%PDF")
        warnings.append(f"{offset} bytes of other data before the %PDF header" if offset > 0
                        else f"no %PDF header in the first {_HEAD} bytes")
    return OpenedPdf(doc=doc, source=source, repaired=repaired, warnings=warnings, held=held)


def _authenticate(opened: OpenedPdf, password: str | None) -> None:
    doc = opened.doc
    if doc.needs_pass:
        if not password:
            raise PdfDeskError(
                PASSWORD_REQUIRED, f"{opened.source.name} is encrypted and needs a password.",
                "Pass the document's password in the `password` parameter.",
            )
        if not doc.authenticate(password):
            raise PdfDeskError(
                WRONG_PASSWORD, f"The password for {opened.source.name} is not correct.",
                "Check the password (it is case-sensitive) and try again.",
            )
    # A file that opens without a password is left alone even when one is given: MuPDF's
    # authenticate() with a wrong password on such a file breaks its decryption.
    opened.encryption = (doc.metadata or {}).get("encryption") or None


def _page_tree_error(opened: OpenedPdf, cause: object) -> PdfDeskError:
    return PdfDeskError(
        PDF_ERROR, f"{opened.source.name}'s page tree is damaged ({cause}).",
        "Get a fresh copy of the file; if another viewer opens it, save a repaired copy from there.",
    )


def _check_pages(opened: OpenedPdf) -> None:
    try:
        count = opened.doc.page_count
    except Exception as exc:
        raise _page_tree_error(opened, exc) from None
    if count > 0:
        # A page tree can claim pages it cannot deliver (Kids that is not an array, cycles): MuPDF
        # then fails on the first load and drops the count to 0. Find that out now, not in a tool.
        try:
            opened.doc.load_page(0)
        except Exception as exc:
            recount = opened.doc.page_count if not opened.doc.is_closed else 0
            if recount == 0 or recount != count:
                raise _page_tree_error(opened, _cause(_mupdf_messages()) or exc) from None
    if count == 0 and opened.repaired and not _holds_pdf_marker(opened.source, opened.held):
        raise _not_a_pdf(opened.source, _head(opened.source, opened.held))
    if count == 0 and opened.repaired:
        raise PdfDeskError(
            PDF_ERROR, f"{opened.source.name} is damaged beyond repair (no page could be recovered).",
            "The file is probably truncated or corrupted; get a fresh copy.",
            mupdf_messages=opened.warnings[-10:],
        )
    if count == 0:
        raise PdfDeskError(
            NO_PAGES, f"{opened.source.name} opens but has no pages.",
            "The file may be a broken export; get the original again.",
        )


def _cache_key(source: PdfSource, password: str | None) -> tuple[Any, ...] | None:
    """The checked file's identity (device, inode, size, mtime) and the password: the same file
    under another name is the same entry, a changed or replaced file a new one."""
    if source.data is not None or source.identity is None:
        return None
    return (*source.identity, password or "")


def _load(source: PdfSource, password: str | None, held: HeldFile | None) -> OpenedPdf:
    """The cached document of `source`'s file, or a new one read through `held` (re-opened and
    checked against the source's identity when the caller has no descriptor)."""
    key = _cache_key(source, password)
    cached = _cache.get(key) if key is not None else None
    if cached is not None:
        if held is not None:
            held.close()
        return cached
    if held is None and source.data is None:
        held = reopen(source)
    opened = _open_checked(source, password, held)
    if key is not None:
        _cache.put(key, opened)
    return opened


def _open_checked(source: PdfSource, password: str | None, held: HeldFile | None) -> OpenedPdf:
    try:
        opened = _parse(source, held)
    except BaseException:
        if held is not None:
            held.close()
        raise
    try:
        _authenticate(opened, password)
        _check_pages(opened)
    except BaseException:
        opened.close()
        raise
    return opened


@contextmanager
def open_pdf(
    reference: object,
    password: str | None = None,
    max_bytes: int | None = None,
    config: Config | None = None,
) -> Iterator[OpenedPdf]:
    """Resolve, open, authenticate and check a PDF; hold the MuPDF lock while the caller uses it."""
    config = config or get_config()
    located = locate(reference, config, max_bytes)
    with _using(located.source, password, located.held) as opened:
        yield opened


@contextmanager
def open_source(source: PdfSource, password: str | None = None) -> Iterator[OpenedPdf]:
    """Open an already resolved source (background work re-opens what a tool call resolved);
    a local file must still be the one that was checked, or this raises file_not_found."""
    with _using(source, password, None) as opened:
        yield opened


@contextmanager
def _using(source: PdfSource, password: str | None, held: HeldFile | None) -> Iterator[OpenedPdf]:
    with MUPDF_LOCK:
        opened = _load(source, password, held)
        cached = _cache_key(source, password) is not None
        previous, opened.source = opened.source, source  # messages name the file as this caller did
        try:
            yield opened
        except MUPDF_ERRORS:
            # MuPDF failed inside the document; its repairs may have left the handle in a state
            # the next call should not inherit (a page tree that lost its pages), so reopen next time.
            _evict(opened)
            raise
        finally:
            opened.source = previous
            _mupdf_messages()
            if not cached:
                opened.close()


def _evict(opened: OpenedPdf) -> None:
    """Drop a handle from the cache; it closes when the last user lets go (a caller up the stack
    may still hold it inside a nested open_source)."""
    for key in [k for k, v in _cache.items() if v is opened]:
        _cache.pop(key)


def close_all() -> None:
    """Close every cached document (tests, and before a file is replaced on Windows)."""
    with MUPDF_LOCK:
        for opened in _cache.clear():
            opened.close()


def forget(path: Path) -> None:
    """Drop cached handles of one file (after it changed on disk), whichever name opened it."""
    names = {str(path), os.path.realpath(path)}
    try:
        info = os.stat(path)
        file_id: tuple[int, int] | None = (info.st_dev, info.st_ino)
    except OSError:
        file_id = None
    with MUPDF_LOCK:
        for key, opened in _cache.items():
            source = opened.source
            if str(source.path) in names or str(source.resolved) in names or key[:2] == file_id:
                _cache.pop(key)
                opened.close()
