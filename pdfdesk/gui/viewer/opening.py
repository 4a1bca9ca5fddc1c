"""Open a document for the viewer through the core, in the viewer's worker thread.

The core decides everything about a reference (policy, sandbox, size cap, repair, passwords), so
the viewer reports exactly the errors the tools would. A downloaded PDF is spooled to a private
temporary file: the core re-parses in-memory documents on every use, which a scrolling viewer
would pay for on every page.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import INTERNAL_ERROR, PdfDeskError
from pdfdesk.core.localfile import FileIdentity
from pdfdesk.core.references import PdfSource

FALLBACK_SIZE = (612.0, 792.0)


@dataclass
class OpenedDocument:
    """What the UI learns at open time (sizes of other pages follow in the background)."""

    source: PdfSource
    password: str | None
    page_count: int
    first_size: tuple[float, float]
    title: str
    repaired: bool
    warnings: list[str] = field(default_factory=list)
    spool: Path | None = None  # the temporary copy of a downloaded PDF, removed on close


def open_document(reference: str, password: str | None) -> OpenedDocument:
    """Resolve, open and check `reference`; raises PdfDeskError with the tools' codes."""
    with open_pdf(reference, password) as opened:
        source = opened.source
        count = opened.page_count
        try:
            rect = opened.doc.load_page(0).rect
            first = (float(rect.width), float(rect.height))
        except Exception:  # page 1 damaged: the document still opens, the page shows an error
            first = FALLBACK_SIZE
        metadata = opened.doc.metadata or {}
        title = (metadata.get("title") or "").strip() or source.name
        repaired, warnings = opened.repaired, list(opened.warnings)
        data = source.data
    spool = None
    if data is not None:
        source, spool = _spool(source, data)
    return OpenedDocument(source, password, count, first, title, repaired, warnings, spool)


def _spool(source: PdfSource, data: bytes) -> tuple[PdfSource, Path]:
    handle, name = tempfile.mkstemp(prefix="pdfdesk-view-", suffix=".pdf")
    path = Path(name)
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    info = path.stat()
    spooled = PdfSource(reference=source.reference, name=source.name, size=len(data), path=path,
                        url=source.url, identity=FileIdentity.of(info))
    return spooled, path


def remove_spool(path: Path | None) -> None:
    if path is not None:
        try:
            path.unlink()
        except OSError:
            pass


def unexpected_error(exc: BaseException, what: str) -> dict:
    """Details for a failure the core did not classify (never shown as a traceback)."""
    return PdfDeskError(
        INTERNAL_ERROR, f"{what} failed unexpectedly ({type(exc).__name__}: {exc}).",
        "Try again; if it keeps failing, report the file and this message.",
    ).to_details()
