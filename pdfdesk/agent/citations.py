"""Turn the model's page citations (`[p. N]`, `[file.pdf pp. N-M]`, … as `core.citations` reads
them) into citations a front end can open.

The tracker learns from tool results which pages of which documents the model has seen (each
tool's facts name them, with the excerpt and hit rectangles of a search hit), maps file names back
to the references the user attached, and drops citations of pages that do not exist. In a
library scope, a document a tool result named (a library search hit's `file`) that the scope
admits joins the documents its citations may name ("[contract-12.pdf p. 4]").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pdfdesk.agent.events import Citation
from pdfdesk.core.citations import expand, find_citations
from pdfdesk.core.fence import neutralise
from pdfdesk.core.references import display_name, normalise_reference
from pdfdesk.tools import get_tool

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

    def __init__(self, documents: Sequence[str], admit: Callable[[str], str | None] | None = None) -> None:
        self.documents = list(documents)
        self._by_key = {_normal(ref): ref for ref in self.documents}
        # The in-scope document a result's file stands for (library scopes); None: attached only.
        self._admit = admit
        self.shown: list[str] = []  # documents beyond the attached ones that tool results showed
        self._seen: dict[str, _Seen] = {}
        self._last_doc: str | None = None
        self._text = ""
        self._scan_from = 0
        self.citations: list[Citation] = []
        self._emitted: set[tuple[str, int]] = set()

    # -- what the tools showed -----------------------------------------------------------------
    def document_for(self, name_or_path: str) -> str | None:
        """The attached reference (or in-scope document a result showed) a tool path or a cited
        file name stands for."""
        if not name_or_path:
            return None
        key = _normal(name_or_path)
        if key in self._by_key:
            return self._by_key[key]
        return next((ref for ref in [*self.documents, *self.shown] if names_document(name_or_path, ref)), None)

    def admit(self, file: str) -> str | None:
        """The document `file` of a tool result stands for: an attached one, or one the scope admits
        (remembered, so citations may name it from then on); None when neither."""
        if not file or _normal(file) in self._by_key or self._admit is None:
            return self.document_for(file)
        admitted = self._admit(file)  # a path the scope resolves, never a name alone
        if admitted is None:
            return self.document_for(file)
        if _normal(admitted) not in self._by_key:
            self.shown.append(admitted)
            self._by_key[_normal(admitted)] = admitted
        self._by_key.setdefault(_normal(file), self._by_key[_normal(admitted)])
        return self._by_key[_normal(admitted)]

    def record(self, tool: str, args: dict[str, Any], details: Mapping[str, Any]) -> None:
        """Remember the pages a successful result of `tool` showed, as the tool's facts name them."""
        facts = get_tool(tool)
        doc = self.admit(str(details.get("file") or args.get("path") or ""))
        for shown in facts.pages_in(details) if facts is not None else ():
            shown_doc = (self.admit(shown.file) if shown.file else None) or doc
            if shown_doc is None:
                continue
            seen = self._seen.setdefault(shown_doc, _Seen())
            seen.pages.add(shown.page)
            if shown.page not in seen.excerpts and shown.excerpt:
                seen.excerpts[shown.page] = (shown.excerpt, shown.rects)
            self._last_doc = shown_doc
        if doc is None:
            return
        seen = self._seen.setdefault(doc, _Seen())
        if isinstance(details.get("pages_total"), int):
            seen.total = details["pages_total"]
        if facts is None or facts.about_document:
            self._last_doc = doc

    def point_at(self, document: str, page: int, excerpt: str,
                 rects: tuple[tuple[float, float, float, float], ...]) -> None:
        """Make a later citation of `page` highlight this excerpt and these boxes (a table cell an
        answer quotes) rather than what a search hit on that page showed."""
        seen = self._seen.setdefault(document, _Seen())
        seen.pages.add(page)
        seen.excerpts[page] = (excerpt, rects)

    # -- what the model wrote ------------------------------------------------------------------
    def _resolve(self, file: str | None, page: int) -> str | None:
        if file:
            return self.document_for(file.strip())
        if len(self.documents) == 1 and not self.shown:
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
