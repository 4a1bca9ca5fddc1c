"""Indexing documents the way the app does, and asking them questions, for the relevance benches."""

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


def answer_rank(path: Path, query: str, page: int, mode: str, library: bool = False) -> int | None:
    """Where `pdf_search` puts `page` of `path` among its first 10 results (asked of that document,
    or of the whole library), or None."""
    from pdfdesk.tools import call_tool

    where = {"library": True} if library else {"path": str(path)}
    result = call_tool("pdf_search", {**where, "query": query, "mode": mode, "max_results": 10})
    if result.is_error:
        return None
    return next((i for i, m in enumerate(result.details["matches"], 1)
                 if m["page"] == page and (not library or Path(m["file"]).name == path.name)), None)


def mrr(ranks: list[int | None]) -> float:
    """Mean reciprocal rank; a question not answered in the first 10 counts 0."""
    return sum(1.0 / r for r in ranks if r) / max(len(ranks), 1)
