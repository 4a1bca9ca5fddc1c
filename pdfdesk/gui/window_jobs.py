"""Work the window hands to the worker pool: nothing here touches a widget.

Both run off the UI thread because they read files (a cited page's text; a dropped folder's tree).
"""

from __future__ import annotations

import os

Rect = tuple[float, float, float, float]


def passage_rects(reference: str, password: str | None, page: int, excerpt: str) -> list[Rect]:
    """Worker: rectangles of a cited passage on its page (for a citation that came without them)."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.core.text import passage_rects as rects_on_page

    with open_pdf(reference, password) as opened:
        if not excerpt.strip() or not 1 <= page <= opened.page_count:
            return []
        return rects_on_page(opened.load_page(page), excerpt)


def expand_drop(paths: list[str]) -> tuple[list[str], list[str]]:
    """Worker: (PDF files to open, folders given); folders are walked recursively."""
    from pdfdesk.index.library import expand_pdf_paths

    folders = [p for p in paths if os.path.isdir(p)]
    files = [str(p) for p in expand_pdf_paths(paths)]
    return files, folders

