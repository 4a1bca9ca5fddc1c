"""`pdfdesk team matter NAME --add FILE...`: files (or every PDF under folders) put into a matter,
one outcome per file, so one unreadable file does not stop the others."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index.team_library import TeamLibrary
from pdfdesk.index.team_library_files import TeamIndexed, index_team_documents


@dataclass(frozen=True)
class Outcome:
    path: str
    done: TeamIndexed | None = None
    error: PdfDeskError | None = None

    def describe(self) -> str:
        if self.done is None:
            return f"{self.path}: not added"
        where = "added to the matter" if self.done.added_to_matter else "already in the matter"
        pages = (f"{self.done.pages_indexed} pages indexed" if self.done.pages_indexed else
                 "its pages were in the team library already")
        return f"{self.path}: {where}; {pages}"


def _files(paths: list[str]) -> Iterator[str]:
    for given in paths:
        path = Path(given)
        if path.is_dir():
            yield from (str(p) for p in sorted(path.rglob("*")) if p.suffix.lower() == ".pdf" and p.is_file())
        else:
            yield given


def add_to_matter(matter: str, paths: list[str]) -> Iterator[Outcome]:
    """Each file put into the matter with its bytes, and its pages into the team library."""
    library = TeamLibrary()
    try:
        for path in _files(paths):
            try:
                yield Outcome(path, index_team_documents([path], matter, library=library)[0])
            except PdfDeskError as exc:
                yield Outcome(path, error=exc)
    finally:
        library.close()
