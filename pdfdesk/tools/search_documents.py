"""pdf_search with group_by "document": each matching document once, its best pages and how many match.

The list is complete (every document with a page holding every word, paged with `offset`), so
"which documents mention X" is answered by the list, not by the best ten pages. Excerpts come
from the page-text record, so listing a thousand documents opens no PDF; only the first
`EXCERPTED` documents carry one, which keeps a long list within the response cap.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any, cast

from pdfdesk.core.config import get_config
from pdfdesk.core.documents import open_pdf
from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.fence import neutralise
from pdfdesk.core.policy import check_path_allowed
from pdfdesk.index import library_documents
from pdfdesk.index.backend import DocumentHit
from pdfdesk.index.builder import Target, page_texts
from pdfdesk.index.library import Library
from pdfdesk.index.library_backend import library_backend
from pdfdesk.index.team_library import TeamLibrary
from pdfdesk.index.owner import start_background_owner
from pdfdesk.index.search import search_document
from pdfdesk.tools.common import document_details
from pdfdesk.tools.contract import PageShown, ToolResult, document_label, text_item, untrusted_text_item
from pdfdesk.tools.details import SearchDetails, SearchDocument

MAX_RESPONSE_BYTES = 64_000
HEADER_RESERVE = 4_000
DEFAULT_DOCUMENTS = 100
EXCERPTED = 20          # documents listed with an excerpt of their best page
EXCERPT_CONTEXT = 80    # characters either side of the first hit
NAMED_PENDING = 20      # documents not indexed yet, named in details



def header_notes(details: MutableMapping[str, Any], notes: list[str]) -> str:
    """What a search answer's first line adds about itself: library documents outside the allowed
    folders, arguments brought within range (kept in details too), and the search's own note."""
    text = ""
    if details.get("documents_outside_roots"):
        text += (f" ({details['documents_outside_roots']} library documents outside the allowed folders "
                 "were not searched)")
    if notes:
        details["notes"] = notes
        text += "".join(f"\nNote: {note}" for note in notes)
    if details.get("note"):
        text += f"\nNote: {neutralise(details['note'], limit=None, quotes=False)}"
    return text

def _bounded(args: dict[str, Any]) -> tuple[int, int, list[str]]:
    """(offset, max_results, notes): numbers outside their range are brought within, with a note."""
    notes: list[str] = []
    limit = args.get("max_results", DEFAULT_DOCUMENTS)
    used = min(max(limit, 1), library_documents.MAX_DOCUMENTS)
    if used != limit:
        notes.append(f"max_results={limit} is outside 1-{library_documents.MAX_DOCUMENTS} for group_by document; "
                     f"{used} was used.")
    offset = args.get("offset", 0)
    if offset < 0:
        notes.append(f"offset={offset} is below 0; 0 was used.")
        offset = 0
    return offset, used, notes


def allowed(path: str) -> bool:
    try:
        check_path_allowed(Path(path), get_config())
    except PdfDeskError:
        return False
    return True


def _entry_of(hit: DocumentHit, name: str, path: str, excerpt: str) -> SearchDocument:
    return {"file": path, "name": name, "fingerprint": hit.fingerprint, "score": round(hit.score, 4),
            "pages_matching": hit.pages_matching, "best_pages": list(hit.best_pages), "excerpt": excerpt,
            "page": hit.best_pages[0]}


def _library(args: dict[str, Any], query: str, offset: int, limit: int,
             details: dict[str, Any]) -> list[SearchDocument]:
    """The library's matching documents `offset`.. (see `index.library_documents`); documents not
    yet in the library index, and those outside the workspace roots, are counted (and the
    former named) rather than searched."""
    library = Library()
    check_roots = get_config().workspace_only
    scope = None if args.get("within") is None else set(args["within"])  # a chat scoped to some documents
    backend = library_backend(library.database)
    page = library_documents.documents(query, offset, limit, scope, backend, allowed if check_roots else None)
    found = []
    for rank, hit in enumerate(page.documents):
        name, path = page.places[hit.fingerprint]
        body = backend.body(hit.fingerprint, hit.best_pages[0]) if isinstance(backend, TeamLibrary) and \
            rank < EXCERPTED else None
        text = library_documents.excerpt(hit.fingerprint, hit.best_pages[0], query, EXCERPT_CONTEXT, body or None) \
            if rank < EXCERPTED else ""
        found.append(_entry_of(hit, name, path, text))
    indexed, held = library.searchable_count()
    everything = library.indexed() if check_roots or scope is not None else []
    outside = sum(1 for e in everything if not allowed(e.path)) if check_roots else 0
    if scope is not None:
        held = len({e.fingerprint for e in everything if e.fingerprint in scope})
    if isinstance(backend, TeamLibrary):  # the team's documents are searched, whatever this computer holds
        indexed = held = backend.state().documents + outside
    details.update({"library": True, "documents_searched": held - outside, "documents_total": page.total})
    waiting = [e for e in library.pending() if not check_roots or allowed(e.path)]
    pending = indexed - held if scope is None else 0
    if pending or waiting:
        in_index = backend.fingerprints() if pending else set()
        missing = [e for e in library.indexed() if e.fingerprint not in in_index and
                   (not check_roots or allowed(e.path))] if pending else []
        details["documents_pending"] = pending + len(waiting)
        details["documents_not_indexed"] = [e.name for e in (waiting + missing)[:NAMED_PENDING]]
        details["note"] = (f"{pending + len(waiting)} library document(s) are still being indexed and were not "
                           "searched; ask again once indexing is done for the complete list")
        start_background_owner()
    if outside:
        details["documents_outside_roots"] = outside
    return found


def _one(args: dict[str, Any], query: str, details: dict[str, Any]) -> tuple[list[SearchDocument], str]:
    """The one document, when a page of it holds every word, with its page count and best pages."""
    with open_pdf(args["path"], args.get("password")) as opened:
        target = Target(opened.source, args.get("password"), opened.fingerprint)
        details.update(document_details(opened))
        page_count, name, path = opened.page_count, opened.source.name, opened.source.reference
    texts = dict(page_texts(target, 1, page_count)) if page_count else {}

    def order(pages: list[int]) -> list[tuple[int, float]]:
        found = search_document(target, page_count, query, "keyword", "page", max(len(pages), 10), "snippet",
                                EXCERPT_CONTEXT, decorate=False)
        return [(m.page, float(m.score)) for m in found.matches if not m.partial]

    hit = library_documents.document_hit(target.fingerprint, texts, query, order)
    details.update({"documents_searched": 1, "documents_total": 1 if hit else 0})
    if hit is None:
        return [], name
    text = library_documents.excerpt(hit.fingerprint, hit.best_pages[0], query, EXCERPT_CONTEXT,
                                     texts.get(hit.best_pages[0], ""))
    return [_entry_of(hit, name, path, text)], name


def _line(document: SearchDocument, rank: int) -> str:
    pages = document["pages_matching"]
    best = ", ".join(str(n) for n in document["best_pages"])
    line = f"[{rank}] {neutralise(document['name'])} — {pages} page{'s' * (pages != 1)} (best: p. {best})"
    return line + (f"\n    {document['excerpt']}" if document["excerpt"] else "")


def _fitting(documents: list[SearchDocument], first: int) -> tuple[list[SearchDocument], list[str]]:
    """The documents that fit, with their lines: lines in the text and entries in `details` each
    stay within the response cap, however many were asked for."""
    text_bytes = json_bytes = HEADER_RESERVE
    lines: list[str] = []
    for rank, document in enumerate(documents, first):
        line = _line(document, rank)
        text_bytes += len(line.encode()) + 1
        json_bytes += len(json.dumps(document, ensure_ascii=False).encode()) + 2
        if text_bytes > MAX_RESPONSE_BYTES or json_bytes > MAX_RESPONSE_BYTES:
            break
        lines.append(line)
    return documents[:len(lines)], lines


def search_documents(args: dict[str, Any], query: str, mode: str) -> ToolResult:
    """pdf_search with group_by "document" (library=true or a path)."""
    if args.get("granularity", "page") != "page":
        raise PdfDeskError(VALIDATION_ERROR, "group_by document lists documents by their pages; "
                           "granularity section cannot be combined with it.",
                           "Leave granularity out (or page) with group_by document.")
    offset, limit, notes = _bounded(args)
    details: dict[str, Any] = {"mode_requested": mode, "mode_used": "keyword", "group_by": "document"}
    if mode != "keyword":
        details["mode_reason"] = "documents are listed by the pages holding every word of the query (keywords)"
    if args.get("library"):
        if args.get("path"):
            raise PdfDeskError(VALIDATION_ERROR, "Give either path or library=true, not both.",
                               "Search one document with path, or every library document with library=true.")
        found, name = _library(args, query, offset, limit, details), "the library"
    elif args.get("path"):
        found, name = _one(args, query, details)
        found = found[offset:offset + limit]
    else:
        raise PdfDeskError(VALIDATION_ERROR, "Missing required parameter: 'path' (or library=true).",
                           "Name the PDF to search in path, or pass library=true to search the library.")
    found, lines = _fitting(found, offset + 1)
    total = details["documents_total"]
    end = offset + len(found)
    details.update({"query": query, "mode": "keyword", "granularity": "page", "matches": [], "count": len(found),
                    "matches_omitted": 0, "documents": found, "offset": offset,
                    "next_offset": end if end < total else None})
    shown = f"{offset + 1}-{end}" if found else "none"
    header = (f"{total} document{'s' * (total != 1)} in {neutralise(name)} hold{'s' * (total == 1)} every word of "
              f"\"{neutralise(query)}\" (listed {shown}, best first)")
    if details["next_offset"] is not None:
        header += f"; {total - end} more: ask again with offset={end}"
    header += header_notes(details, notes)
    if details.get("documents_not_indexed"):
        header += "\nNot indexed yet: " + ", ".join(neutralise(n) for n in details["documents_not_indexed"])
    content = [text_item(header + ".")]
    if lines:
        content.append(untrusted_text_item("\n".join(lines), name))
    return ToolResult(content=content, details=cast(SearchDetails, details))


def search_card(details: Mapping[str, Any]) -> str:
    count, file = details.get("count", 0), document_label(details)
    if details.get("group_by") == "document":
        total = details.get("documents_total", 0)
        return f"{total} document{'s' * (total != 1)} for {details.get('query', '')!r}" + \
            (f" in {file}" if file else "")
    return f"{count} match{'es' * (count != 1)} for {details.get('query', '')!r}" + (f" in {file}" if file else "")


def search_pages_shown(details: Mapping[str, Any]) -> list[PageShown]:
    """Each hit's page, with its excerpt and hit rectangles so a citation of it can be highlighted;
    a library hit names its own document."""
    shown = []
    for match in details.get("matches", []):
        rects = tuple(tuple(float(v) for v in r[:4]) for r in match.get("rects", []))
        excerpt = str(match["excerpt"]) if match.get("excerpt") else None
        shown.append(PageShown(int(match["page"]), str(match.get("file", "")) or None, excerpt,
                               rects))  # type: ignore[arg-type]
    shown.extend(PageShown(int(document["page"]), str(document["file"]), str(document["excerpt"]), ())
                 for document in details.get("documents", []) if document.get("excerpt"))  # best pages shown
    return shown
