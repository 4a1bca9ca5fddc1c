"""What the search panel runs for a scope wider than one document, without Qt.

`pdf_search` takes one path (or the whole library) per call. "Open documents" is therefore one
call per open tab, each on the worker pool, and their answers merged here into one ranking by
score (scores of one query rank across documents as they are: the same scoring, the same words).
A library folder is the library searched `within` the fingerprints of the documents under it
(the library keeps files, not folders: a folder is where its files are).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pdfdesk.core.atomic import write_text_atomically
from pdfdesk.tools.contract import ToolResult

BOM = "\ufeff"  # Excel reads a .csv as UTF-8 only when it starts with one (see table_clipboard)
CSV_HEADER = ("document", "path", "pages matching", "best pages")
OpenDocument = tuple[str, "str | None"]  # (reference, password) of an open tab


def in_folder(path: str, folder: str) -> bool:
    """Whether `path` lies under `folder` (a whole path component: /a/b is not under /a/bc)."""
    folder = os.path.normpath(folder)
    path = os.path.normpath(path)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def library_folders() -> list[str]:
    """Worker: the folders holding the library's documents, each once, sorted (what a folder
    scope may be: the library keeps files, so a folder added is the folder its files are in)."""
    from pdfdesk.index.library import Library

    return sorted({str(Path(entry.path).parent) for entry in Library().entries()})


def folder_fingerprints(folder: str) -> list[str]:
    """The fingerprints of the library's documents under `folder` (what `within` restricts to)."""
    from pdfdesk.index.library import Library

    return sorted({e.fingerprint for e in Library().entries() if e.fingerprint and in_folder(e.path, folder)})


def merge_searches(answers: Sequence[tuple[str, ToolResult]], limit: int) -> ToolResult:
    """One answer from one `pdf_search` per open document: every match ranked by score (best
    first, at most `limit`), each naming its own document. A document that failed is listed in
    `documents_skipped`; when every one failed, the first failure is the answer."""
    failed = [(document, result) for document, result in answers if result.is_error]
    good = [(document, result) for document, result in answers if not result.is_error]
    if not good and failed:
        return failed[0][1]
    matches: list[dict[str, Any]] = []
    documents: list[dict[str, Any]] = []
    notes: list[str] = []
    for document, result in good:
        found = result.details
        matches.extend({**match, "file": match.get("file") or document} for match in found.get("matches") or [])
        documents.extend({**doc, "file": doc.get("file") or document} for doc in found.get("documents") or [])
        if found.get("note"):
            notes.append(f"{Path(document).name}: {found['note']}")
    matches.sort(key=lambda m: -float(m.get("score") or 0))
    documents.sort(key=lambda d: (-float(d.get("score") or 0), -int(d.get("pages_matching") or 0)))
    first = good[0][1].details if good else {}
    details: dict[str, Any] = {
        "open_documents": True, "documents_searched": len(good), "query": first.get("query", ""),
        "mode": first.get("mode", ""), "granularity": first.get("granularity", "page"),
        "matches": matches[:limit], "count": min(len(matches), limit),
        "matches_omitted": max(0, len(matches) - limit),
        "documents": documents, "documents_total": len(documents), "offset": 0, "next_offset": None}
    if notes:
        details["note"] = " · ".join(notes)
    if failed:
        details["documents_skipped"] = [{"file": document, "error": str(result.details.get("error", "error"))}
                                        for document, result in failed]
    return ToolResult(content=[], details=details)


def keep_folder(result: ToolResult, folder: str, limit: int) -> ToolResult:
    """A library answer kept to the documents under `folder` (matches and grouped documents)."""
    if result.is_error:
        return result
    details: dict[str, Any] = dict(result.details)
    matches = [m for m in details.get("matches") or [] if in_folder(str(m.get("file", "")), folder)]
    details["matches_omitted"] = max(0, len(matches) - limit)
    details["matches"] = matches[:limit]
    details["count"] = len(details["matches"])
    if "documents" in details:
        details["documents"] = [d for d in details["documents"] if in_folder(str(d.get("file", "")), folder)]
    details["folder"] = folder
    return ToolResult(content=result.content, details=details)


def csv_text(documents: Iterable[Mapping[str, Any]]) -> str:
    """The documents list as CSV: document, path, pages matching, best pages ("3 7 12")."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for doc in documents:
        path = str(doc.get("file", ""))
        writer.writerow([str(doc.get("name") or Path(path).name), path, int(doc.get("pages_matching") or 0),
                         " ".join(str(p) for p in doc.get("best_pages") or [])])
    return out.getvalue()


def export_documents(documents: Sequence[Mapping[str, Any]], path: Path) -> int:
    """Worker: write the list to `path` as CSV (UTF-8 with a byte order mark), atomically; returns
    how many documents were written."""
    write_text_atomically(path, BOM + csv_text(documents))
    return len(documents)
