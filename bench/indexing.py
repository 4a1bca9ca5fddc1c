"""Indexing documents the way the app does, for the benches that then ask questions of them."""

from __future__ import annotations

from pathlib import Path


def index(path: Path) -> None:
    """Both stages of one document's index, in this process: keyword, then vectors."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.builder import Target, build_index, build_vectors

    with open_pdf(str(path)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    build_index(target)
    build_vectors(target)


def add_to_library(folder: Path) -> None:
    """Add a folder's PDFs to the library and put them into the library index."""
    from pdfdesk.index.library import Library, build_library_index

    library = Library()
    library.add([str(folder)])
    build_library_index(library.register(), library)
