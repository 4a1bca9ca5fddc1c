"""What a drag-and-drop carries that pdfdesk can open: local PDF files and folders."""

from __future__ import annotations

import os

from PySide6.QtCore import QMimeData


def local_pdf_paths(mime: QMimeData | None) -> list[str]:
    """The dropped local files ending in .pdf (any case) and folders (walked for PDFs later)."""
    if mime is None or not mime.hasUrls():
        return []
    found = []
    for url in mime.urls():
        if url.isLocalFile():
            path = url.toLocalFile()
            if os.path.isdir(path) or path.lower().endswith(".pdf"):
                found.append(path)
    return found
