"""What a conversation may read: one document, the open tabs, the attached files, the whole
library, or the library's documents under a folder.

The scope is the chat's trust boundary. A tool call's path is in scope when it *resolves* to a
document of the collection (the same absolute path, or the same file once symlinks and `..` are
followed), never because its file name looks like one: a document that tells the model to open
`/elsewhere/contract.pdf` gets a refusal even when the library holds a `contract.pdf`. Only a bare
file name (what the tools show the model) is looked up by name, and it can only ever name a
document already in scope. Front ends build a `Scope` with `make_scope(kind, documents, folder)`
and hand it to the `ChatSession`; the loop resolves it once per answer (`Scope.collection()`), so
documents added to the library meanwhile join at the next question.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.fence import neutralise
from pdfdesk.core.references import display_name, is_url, normalise_reference
from pdfdesk.index.catalogue import Catalogue, LibraryEntry

DOCUMENT, OPEN, ATTACHED, LIBRARY, FOLDER = "document", "open", "attached", "library", "folder"
KINDS = (DOCUMENT, OPEN, ATTACHED, LIBRARY, FOLDER)
LIBRARY_KINDS = (LIBRARY, FOLDER)


def _key(path: str) -> str:
    return os.path.normcase(path)


def _real(path: str) -> str:
    """The file a local path ends at (symlinks and `..` followed), for comparing two spellings."""
    try:
        return _key(os.path.realpath(path))
    except (OSError, ValueError):
        return _key(path)


def is_bare_name(reference: str) -> bool:
    """A file name with no folder and no scheme ("contract-12.pdf"): what search results show the
    model, and the only spelling looked up by name."""
    text = reference.strip()
    return bool(text) and "/" not in text and "\\" not in text and ":" not in text and not text.startswith("~")


def _under(path: str, folders: Sequence[str]) -> bool:
    for folder in folders:
        try:
            if os.path.commonpath([_key(path), folder]) == folder:
                return True
        except ValueError:  # another drive
            continue
    return False


@dataclass(frozen=True)
class Scope:
    """The documents a conversation may read. `documents` are the ones named: the document, the
    open tabs', the attached ones (with a library scope: attached in addition to the library)."""

    kind: str = ATTACHED
    documents: tuple[str, ...] = ()
    folder: str | None = None  # FOLDER: an absolute folder

    @property
    def library(self) -> bool:
        """Whether the model may search the library (`pdf_search` with library=true)."""
        return self.kind in LIBRARY_KINDS

    def with_documents(self, documents: Sequence[str]) -> Scope:
        return replace(self, documents=tuple(dict.fromkeys(d for d in documents if d)))

    def describe(self, count: int | None = None) -> str:
        """One line for the system prompt and a front end's label."""
        n = len(self.documents) if count is None else count
        docs = f"{n} document{'s' * (n != 1)}"
        if self.kind == DOCUMENT:
            return f"this document ({neutralise(display_name(self.documents[0]))})" if self.documents else \
                "this document (none is open)"
        if self.kind == OPEN:
            return f"the open documents ({docs})"
        if self.kind == LIBRARY:
            return f"the whole library ({docs})"
        if self.kind == FOLDER:
            return f"the library's documents under {neutralise(self.folder or '', limit=None)} ({docs})"
        return f"the attached documents ({docs})"

    def collection(self, catalogue: Catalogue | None = None) -> Collection:
        """The documents in scope now (the library's as its catalogue lists them at this moment)."""
        entries: list[LibraryEntry] = []
        if self.library:
            entries = (catalogue or Catalogue()).entries()
            if self.kind == FOLDER and self.folder:
                folders = list(dict.fromkeys([_key(self.folder), _real(self.folder)]))
                entries = [e for e in entries if _under(e.path, folders)]
        return Collection(self, list(self.documents), entries)


def make_scope(kind: str, documents: Sequence[str] = (), folder: str | None = None) -> Scope:
    """A scope from what a front end offers: its kind, the documents it names (the current tab's
    for "document", every tab's for "open", the attached ones otherwise) and, for "folder", the
    folder. A validation_error when they do not fit together."""
    if kind not in KINDS:
        raise PdfDeskError(VALIDATION_ERROR, f"Unknown scope {kind!r}.", f"Use one of: {', '.join(KINDS)}.")
    if kind == DOCUMENT and len([d for d in documents if d]) > 1:
        raise PdfDeskError(VALIDATION_ERROR, "The scope 'document' holds one document.",
                           "Use the scope 'open' for several documents.")
    where: str | None = None
    if kind == FOLDER:
        if not folder:
            raise PdfDeskError(VALIDATION_ERROR, "The scope 'folder' needs a folder.",
                               "Name a folder that holds library documents.")
        where = os.path.abspath(os.path.expanduser(folder)).rstrip("/\\") or os.sep
    return Scope(kind, (), where).with_documents(documents)


@dataclass
class Collection:
    """A scope resolved: the documents named, and the library documents in it at this moment."""

    scope: Scope
    documents: list[str]
    entries: list[LibraryEntry]
    _by_path: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _by_real: dict[str, str] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        for path in [*(e.path for e in self.entries), *self.documents]:
            if not is_url(path):
                self._by_path[_key(normalise_reference(path))] = path

    @property
    def fingerprints(self) -> list[str]:
        """The library documents in scope that a library search can return."""
        return sorted({e.fingerprint for e in self.entries if e.fingerprint})

    @property
    def library_count(self) -> int:
        return len(self.entries)

    def describe(self) -> str:
        return self.scope.describe(self.library_count if self.scope.library else None)

    def require_documents(self) -> None:
        """A validation_error when a library scope holds no document (nothing to ask about)."""
        if self.scope.kind == LIBRARY and not self.entries:
            raise PdfDeskError(VALIDATION_ERROR, "The library is empty.",
                               "Add documents first: pdfdesk index FOLDER (or drop them on the Library panel).")
        if self.scope.kind == FOLDER and not self.entries:
            raise PdfDeskError(VALIDATION_ERROR, f"No library document is under {self.scope.folder}.",
                               "Add that folder to the library first (pdfdesk index FOLDER), or name another.")

    def admit(self, reference: str) -> str | None:
        """The in-scope document `reference` (a path or URL, not a bare name) resolves to: a URL
        only when that very URL was named; a local path when it is the same file as a named or
        library document. None when it is outside."""
        text = reference.strip()
        if not text:
            return None
        if is_url(text):
            return next((d for d in self.documents if is_url(d) and d.strip() == text), None)
        try:
            local = normalise_reference(text)
        except (OSError, ValueError):
            return None
        if is_url(local) or not os.path.isabs(local):
            return None
        found = self._by_path.get(_key(local))
        if found is not None:
            return found
        if self._by_real is None:  # followed once, on the first spelling that is not a recorded path
            self._by_real = {}
            for key, path in self._by_path.items():
                self._by_real.setdefault(_real(key), path)
        return self._by_real.get(_real(local))

    def named(self, name: str) -> list[str]:
        """The library documents in scope whose file name is `name` (any case)."""
        wanted = name.strip().lower()
        return [e.path for e in self.entries if os.path.basename(e.path).lower() == wanted]


__all__ = ["ATTACHED", "DOCUMENT", "FOLDER", "KINDS", "LIBRARY", "OPEN", "Collection", "Scope", "is_bare_name",
           "make_scope"]
