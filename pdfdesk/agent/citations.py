"""Turn the model's page citations (`[p. N]`, `[file.pdf pp. N-M]`, … as `core.citations` reads
them) into citations a front end can open.

The tracker learns from tool results which pages of which documents the model has seen (and the
best excerpt and hit rectangles from pdf_search), maps file names back to the references the user
attached, and drops citations of pages that do not exist.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pdfdesk.agent.events import Citation
from pdfdesk.core.citations import expand, find_citations
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.core.fence import neutralise
from pdfdesk.core.pages import parse_page_spec
from pdfdesk.core.references import display_name, normalise_reference

MAX_RANGE = 10  # a cited range "[pp. 3-40]" links its first pages only


@dataclass
class _Seen:
    total: int | None = None
    excerpts: dict[int, tuple[str, tuple[tuple[float, float, float, float], ...]]] = field(default_factory=dict)
    pages: set[int] = field(default_factory=set)


def _normal(reference: str) -> str:
    return os.path.normcase(normalise_reference(reference))


def names_document(name: str, reference: str) -> bool:
    """Whether a file name the model wrote means `reference`: the same display name (any case),
    or the same name after neutralising (the model only ever saw names neutralised)."""
    if display_name(name).lower() == display_name(reference).lower():
        return True
    shown = neutralise(name, limit=None)
    return shown in (neutralise(reference, limit=None), neutralise(display_name(reference), limit=None))


class CitationTracker:
    """Feed it the answer text as it streams; it returns each new citation once."""

    def __init__(self, documents: Sequence[str]) -> None:
        self.documents = list(documents)
        self._by_key = {_normal(ref): ref for ref in self.documents}
        self._seen: dict[str, _Seen] = {}
        self._last_doc: str | None = None
        self._text = ""
        self._scan_from = 0
        self.citations: list[Citation] = []
        self._emitted: set[tuple[str, int]] = set()

    # -- what the tools showed -----------------------------------------------------------------
    def document_for(self, name_or_path: str) -> str | None:
        """The attached reference a tool path or a cited file name stands for."""
        if not name_or_path:
            return None
        key = _normal(name_or_path)
        if key in self._by_key:
            return self._by_key[key]
        return next((ref for ref in self.documents if names_document(name_or_path, ref)), None)

    def record(self, tool: str, args: dict[str, Any], details: dict[str, Any]) -> None:
        """Remember the pages a successful tool result showed."""
        doc = self.document_for(str(details.get("file") or args.get("path") or ""))
        if tool == "pdf_search":
            for match in details.get("matches", []):
                match_doc = self.document_for(str(match.get("file", ""))) or doc
                if match_doc is None:
                    continue
                seen = self._seen.setdefault(match_doc, _Seen())
                page = int(match["page"])
                seen.pages.add(page)
                if page not in seen.excerpts and match.get("excerpt"):
                    rects = tuple(tuple(float(v) for v in r[:4]) for r in match.get("rects", []))
                    seen.excerpts[page] = (str(match["excerpt"]), rects)  # type: ignore[arg-type]
                self._last_doc = match_doc
        if doc is None:
            return
        seen = self._seen.setdefault(doc, _Seen())
        if isinstance(details.get("pages_total"), int):
            seen.total = details["pages_total"]
        if tool == "pdf_extract_text" and details.get("pages_returned") and seen.total:
            try:
                seen.pages.update(parse_page_spec(details["pages_returned"], seen.total))
            except PdfDeskError:
                pass
        if tool == "pdf_render_page" and isinstance(details.get("page"), int):
            seen.pages.add(details["page"])
        if tool != "pdf_search":
            self._last_doc = doc

    # -- what the model wrote ------------------------------------------------------------------
    def _resolve(self, file: str | None, page: int) -> str | None:
        if file:
            return self.document_for(file.strip())
        if len(self.documents) == 1:
            return self.documents[0]
        having = [doc for doc, seen in self._seen.items() if page in seen.pages]
        if self._last_doc in having:
            return self._last_doc
        if having:
            return having[0]
        return self._last_doc or (self.documents[0] if self.documents else None)

    def cite(self, document: str, page: int) -> Citation | None:
        """A citation of `page` of `document`, once; None when repeated or past the last page."""
        seen = self._seen.get(document)
        if page < 1 or (seen and seen.total and page > seen.total) or (document, page) in self._emitted:
            return None
        excerpt, rects = seen.excerpts.get(page, (None, ())) if seen else (None, ())
        citation = Citation(document=document, page=page, label=f"{neutralise(display_name(document))} p. {page}",
                            excerpt=excerpt, rects=rects)
        self._emitted.add((document, page))
        self.citations.append(citation)
        return citation

    def feed(self, text: str) -> list[Citation]:
        """Add streamed text; returns the citations completed by it."""
        self._text += text
        found: list[Citation] = []
        if "]" not in text:  # a citation is complete only once its bracket closes
            return found
        for mark in find_citations(self._text):
            if mark.start < self._scan_from:
                continue
            self._scan_from = mark.end
            for cited in mark.pages:
                for page in expand(cited, MAX_RANGE):
                    document = self._resolve(cited.file, page)
                    citation = self.cite(document, page) if document else None
                    if citation:
                        found.append(citation)
        return found
