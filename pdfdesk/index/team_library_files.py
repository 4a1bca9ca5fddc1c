"""Team documents as files: putting a reviewer's files into a matter (and their pages into the team
library), naming a search hit on a document this computer has no copy of, and fetching that
document's PDF from the team database into the app data folder so it can be opened.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import psycopg

from pdfdesk.core.documents import content_fingerprint, open_pdf
from pdfdesk.core.errors import FILE_NOT_FOUND, PDF_ERROR, PdfDeskError
from pdfdesk.core.paths import app_data_dir, ensure_dir
from pdfdesk.index.builder import Target, page_texts
from pdfdesk.index.catalogue import INDEXED, LibraryEntry
from pdfdesk.index.library_backend import team_library
from pdfdesk.index.library_documents import excerpt
from pdfdesk.index.matches import Match
from pdfdesk.index.team_library import TeamLibrary
from pdfdesk.team import matters
from pdfdesk.team.connection import connect, database_error
from pdfdesk.team.settings import TeamTarget


@dataclass(frozen=True)
class TeamIndexed:
    """One file put into a matter: whether the matter was given it, and pages newly indexed."""

    path: str
    fingerprint: str
    added_to_matter: bool
    pages_indexed: int


def index_team_documents(paths: list[str], matter: str, target: TeamTarget | None = None,
                         library: TeamLibrary | None = None) -> list[TeamIndexed]:
    """Put each file into the matter (with its bytes, for teammates without a copy) and its pages
    into the team library unless they are in already, read as the library reads them (the
    page-text record, a recognised scan's text included)."""
    library = library or TeamLibrary(target)
    done: list[TeamIndexed] = []
    with connect(target) as conn:
        for path in paths:
            with open_pdf(path) as opened:
                fingerprint, total, content = opened.fingerprint, opened.page_count, opened.read_bytes()
                name = opened.source.name
                source = opened.source
            added = matters.add_document(conn, matter, fingerprint, name, total, len(content), content)
            texts = page_texts(Target(source, None, fingerprint), 1, total) if total else []
            pages = library.add_documents([(fingerprint, texts)])
            done.append(TeamIndexed(str(path), fingerprint, added, pages))
    return done


_fetch_lock = threading.Lock()


def team_cache_dir() -> Path:
    return ensure_dir(app_data_dir() / "team-files")


def fetch_team_file(fingerprint: str, target: TeamTarget | None = None) -> Path:
    """The team's copy of a document, written into the app data folder (once; atomically, so a
    reader never sees half a file); file_not_found when no matter of the reviewer holds its bytes."""
    if not fingerprint.replace("-", "").isalnum():
        raise PdfDeskError(FILE_NOT_FOUND, "That is not a document fingerprint.", "Search the library again.")
    path = team_cache_dir() / f"{fingerprint}.pdf"
    with _fetch_lock:
        if path.exists():
            return path
        try:
            with connect(target) as conn:
                row = conn.execute("SELECT f.content, (SELECT d.name FROM pdfdesk.documents d "
                                   "WHERE d.fingerprint = f.fingerprint LIMIT 1) FROM pdfdesk.files f "
                                   "WHERE f.fingerprint = %s", (fingerprint,)).fetchone()
        except psycopg.Error as exc:
            raise database_error(exc, "fetch a document from the team database") from None
        if row is None:
            raise PdfDeskError(FILE_NOT_FOUND, "The team database holds no copy of this document.",
                               "Ask the teammate who added it to add it again with its file.")
        if content_fingerprint(bytes(row[0])) != fingerprint:  # stored by a client, so checked before use
            raise PdfDeskError(PDF_ERROR, "The team database's copy of this document is not the document it "
                               "claims to be (its bytes do not match its fingerprint).",
                               "Ask the teammate who added it to add the file again; it was not opened.")
        temp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            with open(temp, "wb") as handle:
                handle.write(bytes(row[0]))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, path)
        finally:
            temp.unlink(missing_ok=True)
    return path


def team_hit(fingerprint: str, match: Match, query: str, bare: list[Match]) -> LibraryEntry | None:
    """A hit on a teammate's document this computer has no copy of: the team's copy, fetched into
    the app data folder, as a library entry to open; when the team has no copy either, the match
    is given the page's text as its excerpt and the document's name and goes to `bare`."""
    library = team_library()
    names = library.names([fingerprint]) if library is not None else {}
    if library is None or fingerprint not in names:
        return None
    try:
        path = fetch_team_file(fingerprint)
    except PdfDeskError as exc:
        if exc.code != FILE_NOT_FOUND:
            raise
        body = library.body(fingerprint, match.page)
        match.excerpt, match.excerpt_style = excerpt(fingerprint, match.page, query, text=body), "snippet"
        match.section = match.section or names[fingerprint]
        match.file = f"{names[fingerprint]} (team document, no copy on this computer)"
        bare.append(match)
        return None
    return LibraryEntry(str(path), names[fingerprint], fingerprint=fingerprint, status=INDEXED)
