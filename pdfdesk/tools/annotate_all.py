"""pdf_annotate list without a path: the notes of every annotated document, from the store alone.

No document is opened (some may be gone or on a drive that is not mounted), so nothing is
re-anchored here; listing one document does that. Under workspace-only, documents remembered
outside the allowed folders are counted, never named.
"""

from __future__ import annotations

from typing import Any, cast

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.core.fence import neutralise
from pdfdesk.review.store import open_store
from pdfdesk.tools.contract import ToolResult
from pdfdesk.tools.details import AnnotatedDocument, AnnotateDetails, AnnotationItem
from pdfdesk.tools.review_args import check_local_allowed
from pdfdesk.tools.review_listing import describe, keep, listing_result, sort_key

SOURCE = "pdfdesk review notes"


def _allowed(path: str) -> bool:
    try:
        check_local_allowed(path)
    except PdfDeskError:
        return False
    return True


def list_every_document(wanted: dict[str, Any]) -> ToolResult:
    store = open_store()
    documents: list[AnnotatedDocument] = []
    items: list[AnnotationItem] = []
    outside = 0
    for fingerprint, path, _count in store.all_documents():
        if not _allowed(path):
            outside += 1
            continue
        mine = [cast(AnnotationItem, {**a.to_details(), "path": a.path}) for a in store.for_document(fingerprint)]
        mine = sorted((item for item in mine if keep(item, wanted)), key=sort_key)
        if mine:
            documents.append({"file": mine[0]["file"], "path": path, "count": len(mine)})
            items += mine
    entries = [describe(item, with_file=True) for item in items]
    details: AnnotateDetails = {"action": "list", "annotations": items, "count": len(items), "documents": documents}
    header = (f"{len(items)} annotation{'s' * (len(items) != 1)} in {len(documents)} "
              f"document{'s' * (len(documents) != 1)}" + (" matching the filter" if wanted else ""))
    if documents:
        header += ": " + "; ".join(f"{neutralise(d['file'], limit=100)} ({d['count']})" for d in documents[:20])
    if outside:
        details["documents_outside_roots"] = outside
        header += f" ({outside} documents outside the allowed folders are not listed)"
    return listing_result(header, entries, details, SOURCE, "list one document at a time")
