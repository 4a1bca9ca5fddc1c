"""pdf_render_page: one page as a PNG under the app data folder, and as an image for models."""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pdfdesk.core import paths
from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import INVALID_PAGE_RANGE, PdfDeskError
from pdfdesk.core.pages import parse_page_spec
from pdfdesk.core.render import DEFAULT_DPI, MAX_DPI, MIN_DPI, clamp_dpi, render_png
from pdfdesk.tools.common import document_details
from pdfdesk.tools.contract import (
    PASSWORD_PROPERTY,
    PATH_PROPERTY,
    ChatUse,
    McpText,
    PageShown,
    ToolResult,
    document_label,
    image_item,
    object_schema,
    register,
    text_item,
)
from pdfdesk.tools.details import RenderPageDetails

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def render_file_name(name: str, fingerprint: str, page: int, dpi: int) -> str:
    stem = _UNSAFE.sub("_", Path(name).stem)[:40] or "document"
    return f"{stem}-{fingerprint[-12:]}-p{page}-{dpi}dpi.png"


def _write_atomically(target: Path, data: bytes) -> None:
    temp = target.with_suffix(f".{id(data):x}.tmp")
    try:
        temp.write_bytes(data)
        temp.replace(target)
    except OSError:
        temp.unlink(missing_ok=True)  # a full disk keeps no half-written PNG
        raise


def _save(target: Path, data: bytes) -> str | None:
    """Write the PNG; why not, when the data folder cannot take it (read-only, full). The image is
    returned inline either way: a machine fault must not cost the caller the page."""
    try:
        _write_atomically(target, data)
    except OSError as exc:
        return paths.write_failure(exc, target.parent)
    return None


def _card(details: Mapping[str, Any]) -> str:
    return (f"Rendered page {details.get('page')} of {document_label(details)} "
            f"({details.get('width')}x{details.get('height')} px)")


def _pages_shown(details: Mapping[str, Any]) -> list[PageShown]:
    page = details.get("page")
    return [PageShown(page)] if isinstance(page, int) else []


@register(
    "pdf_render_page",
    f"Render one page of a PDF to a PNG image (dpi {MIN_DPI}-{MAX_DPI}, default {DEFAULT_DPI}). The PNG is "
    "saved under pdfdesk's data folder; the result gives its path, pixel size, dpi and bytes, and the image "
    "itself. Use it to look at scanned pages, figures, tables and layout.",
    object_schema(
        {
            "path": PATH_PROPERTY,
            "page": {"type": ["integer", "string"], "description": "Page number, 1-based."},
            "dpi": {"type": "number", "default": DEFAULT_DPI,
                    "description": f"Resolution; clamped to {MIN_DPI}..{MAX_DPI}."},
            "password": PASSWORD_PROPERTY,
        },
        ["path", "page"],
    ),
    details=RenderPageDetails,
    order=30,
    card=_card,
    pages_shown=_pages_shown,
    chat=ChatUse("pdf_render_page shows a page as an image (scans, figures, tables, signatures)", rank=50),
    mcp=McpText(reads="page images (pdf_render_page)"),
)
def pdf_render_page(args: dict[str, Any]) -> ToolResult:
    requested = args.get("dpi", DEFAULT_DPI)
    dpi = clamp_dpi(requested)
    with open_pdf(args["path"], args.get("password")) as opened:
        pages = parse_page_spec(args["page"], opened.page_count)
        if len(pages) != 1:
            raise PdfDeskError(INVALID_PAGE_RANGE,
                               f"pdf_render_page renders one page; {args['page']!r} names {len(pages)}.",
                               "Call it once per page.")
        number = pages[0]
        rendered = render_png(opened.load_page(number), dpi)
        target = paths.renders_dir() / render_file_name(opened.source.name, opened.fingerprint, number, dpi)
        document = document_details(opened)
    not_saved = _save(target, rendered.png)
    details: RenderPageDetails = {
        **document,
        "path": None if not_saved else str(target), "page": number, "width": rendered.width, "height": rendered.height,
        "dpi": dpi, "effective_dpi": rendered.dpi, "requested_dpi": requested, "dpi_clamped": dpi != requested,
        "bytes": len(rendered.png), "mime_type": "image/png",
    }
    where = f"saved to {target}"
    if not_saved:
        where = f"not saved: the data folder {target.parent} cannot be written ({not_saved}); the image is inline"
        details.update({"saved": False, "save_error": where})
    note = f" (dpi {requested} clamped to {dpi})" if dpi != requested else ""
    if rendered.dpi < dpi - 0.5:
        note += f" (reduced to {rendered.dpi:g} dpi to stay within the pixel budget)"
    summary = (f"Rendered page {number} of {details['pages_total']} at {dpi} dpi{note}: "
               f"{rendered.width}x{rendered.height} px, {len(rendered.png):,} bytes, {where}")
    return ToolResult(content=[text_item(summary), image_item(base64.b64encode(rendered.png).decode("ascii"))],
                      details=details)
