"""Open a PDF once, check it thoroughly, and keep it open for the next call.

MuPDF is not thread-safe, so every use of a document happens inside `open_pdf`, which holds one
process-wide lock. Opened documents are cached (keyed by path, size, mtime and password), so a
GUI scrolling through pages or an agent calling several tools does not re-parse the file.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

from pdfdesk.core.config import Config, get_config
from pdfdesk.core.errors import (
    NO_PAGES, NOT_A_PDF, PASSWORD_REQUIRED, PDF_ERROR, PERMISSION_DENIED, WRONG_PASSWORD,
    FILE_NOT_FOUND, PdfDeskError,
)
from pdfdesk.core.references import PdfSource, resolve_reference
from pdfdesk.core.remote import PDF_MAGIC_WINDOW, looks_like_pdf

# MuPDF prints warnings and errors to stderr by default; we collect them and report them instead.
pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)

MUPDF_LOCK = threading.RLock()
# What MuPDF raises on damaged input: PyMuPDF's RuntimeError/ValueError, and the FzError* classes
# the mupdf bindings raise from deeper calls ("cycle in page tree", "too many nested graphics states").
MUPDF_ERRORS: tuple[type[BaseException], ...] = (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase)
_CACHE_SIZE = 8
_HASH_CHUNK = 1 << 20


@dataclass
class OpenedPdf:
    """An open, authenticated document with what we learned while opening it."""

    doc: pymupdf.Document
    source: PdfSource
    repaired: bool = False
    warnings: list[str] = field(default_factory=list)
    encryption: str | None = None  # e.g. "Standard V5 R6 256-bit AES"; None when not encrypted
    analyses: dict[str, Any] = field(default_factory=dict)  # per-document results tools derive (hidden text)
    _fingerprint: str | None = None

    @property
    def page_count(self) -> int:
        return self.doc.page_count

    @property
    def fingerprint(self) -> str:
        """Content identity: byte size + BLAKE2b of the bytes (independent of path and mtime)."""
        if self._fingerprint is None:
            digest = hashlib.blake2b(digest_size=16)
            if self.source.data is not None:
                digest.update(self.source.data)
            else:
                assert self.source.path is not None
                with open(self.source.path, "rb") as handle:
                    while chunk := handle.read(_HASH_CHUNK):
                        digest.update(chunk)
            self._fingerprint = f"{self.source.size:x}-{digest.hexdigest()}"
        return self._fingerprint

    def drain_warnings(self) -> list[str]:
        """MuPDF's complaints since the last call (damaged streams, fonts...), for `details`."""
        return _mupdf_messages()

    def load_page(self, number: int) -> pymupdf.Page:
        """Page `number` (1-based); damage inside the page becomes pdf_error."""
        try:
            return self.doc.load_page(number - 1)
        except Exception as exc:  # MuPDF raises plain RuntimeError/ValueError on broken pages
            raise PdfDeskError(
                PDF_ERROR, f"Page {number} of {self.source.name} cannot be read: {mupdf_message(exc)}.",
                "The page is damaged; other pages may still open.",
            ) from None


_cache: OrderedDict[tuple, OpenedPdf] = OrderedDict()


def mupdf_message(exc: BaseException, limit: int = 300) -> str:
    """MuPDF's complaint in words: without the bindings' "code=7: " prefix, capped (it may quote the file)."""
    text = str(exc).strip()
    if text.startswith("code=") and ": " in text:
        text = text.split(": ", 1)[1]
    return text if len(text) <= limit else text[:limit] + "…"


def _mupdf_messages() -> list[str]:
    text = pymupdf.TOOLS.mupdf_warnings(reset=True) or ""
    return [line.strip() for line in text.splitlines() if line.strip()]


_GENERIC = ("repairing PDF document", "trying to repair broken xref", "... repeated")


def _cause(messages: list[str]) -> str | None:
    """The most telling MuPDF message: the last one that is not a generic repair notice."""
    telling = [m for m in messages if not m.startswith(_GENERIC)]
    return (telling or messages or [None])[-1]


def _check_magic(source: PdfSource) -> None:
    if source.data is not None:
        head = source.data[:PDF_MAGIC_WINDOW]
    else:
        assert source.path is not None
        try:
            with open(source.path, "rb") as handle:
                head = handle.read(PDF_MAGIC_WINDOW)
        except PermissionError:
            raise PdfDeskError(
                PERMISSION_DENIED, f"pdfdesk may not read {source.path}.", "Check the file's permissions.",
            ) from None
        except FileNotFoundError:
            raise PdfDeskError(FILE_NOT_FOUND, f"No file at {source.path}.", "Check the path.") from None
    if not looks_like_pdf(head):
        raise PdfDeskError(
            NOT_A_PDF, f"{source.name} is not a PDF (it does not start with %PDF).",
            "Check that this is the PDF you meant; a renamed Word or HTML file will not open.",
        )


def _parse(source: PdfSource) -> OpenedPdf:
    _mupdf_messages()  # drop anything left over from earlier calls
    try:
        if source.data is not None:
            doc = pymupdf.open(stream=source.data, filetype="pdf")
        else:
            doc = pymupdf.open(str(source.path), filetype="pdf")
    except Exception as exc:
        messages = _mupdf_messages()
        cause = _cause(messages) or str(exc)
        raise PdfDeskError(
            PDF_ERROR, f"{source.name} is damaged beyond repair ({cause}).",
            "Get a fresh copy of the file; if another viewer opens it, save a repaired copy from there.",
            mupdf_messages=messages[-10:],
        ) from None
    opened = OpenedPdf(doc=doc, source=source, repaired=bool(doc.is_repaired), warnings=_mupdf_messages()[-20:])
    return opened


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


def _cache_key(source: PdfSource, password: str | None) -> tuple | None:
    """Path, size, mtime and inode as resolve_reference saw them: a changed file is a new entry."""
    if source.path is None or source.identity is None:
        return None
    return (str(source.path), source.size, *source.identity, password or "")


def _load(source: PdfSource, password: str | None) -> OpenedPdf:
    key = _cache_key(source, password)
    if key is not None and key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    opened = _open_checked(source, password)
    if key is not None:
        _cache[key] = opened
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)[1].doc.close()
    return opened


def _open_checked(source: PdfSource, password: str | None) -> OpenedPdf:
    _check_magic(source)
    opened = _parse(source)
    try:
        _authenticate(opened, password)
        _check_pages(opened)
    except PdfDeskError:
        opened.doc.close()
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
    source = resolve_reference(reference, config, max_bytes)
    with open_source(source, password) as opened:
        yield opened


@contextmanager
def open_source(source: PdfSource, password: str | None = None) -> Iterator[OpenedPdf]:
    """Open an already resolved source (background work re-opens what a tool call resolved)."""
    with MUPDF_LOCK:
        opened = _load(source, password)
        try:
            yield opened
        except MUPDF_ERRORS:
            # MuPDF failed inside the document; its repairs may have left the handle in a state
            # the next call should not inherit (a page tree that lost its pages), so reopen next time.
            _evict(opened)
            raise
        finally:
            _mupdf_messages()
            if opened.source.path is None:
                opened.doc.close()


def _evict(opened: OpenedPdf) -> None:
    """Drop a handle from the cache; it closes when the last user lets go (a caller up the stack
    may still hold it inside a nested open_source)."""
    for key in [k for k, v in _cache.items() if v is opened]:
        _cache.pop(key)


def close_all() -> None:
    """Close every cached document (tests, and before a file is replaced on Windows)."""
    with MUPDF_LOCK:
        while _cache:
            _cache.popitem()[1].doc.close()


def forget(path: Path) -> None:
    """Drop cached handles of one file (after it changed on disk)."""
    target = str(path)
    with MUPDF_LOCK:
        for key in [k for k in _cache if k[0] == target]:
            _cache.pop(key).doc.close()
