"""Which library index a search asks: the team database's in team mode, else the embedded one.

The local catalogue (files on this computer, their statuses) stays local in both modes; only the
searchable pages move. While the library builder adds pages locally, `to_team` hands the same
pages to the team library too, which keeps those of documents in the reviewer's matters that are
not in yet and ignores the rest, so a file indexed (or recognised) on one computer is searchable
for the whole team without being read again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence

from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index.backend import LibraryBackend
from pdfdesk.index.database import Database
from pdfdesk.index.library_fts import SqliteLibrary
from pdfdesk.index.page_text import SectionText
from pdfdesk.index.team_library import TeamLibrary
from pdfdesk.team.settings import team_target

_log = logging.getLogger(__name__)
_team: dict[str, TeamLibrary] = {}
_team_lock = threading.Lock()


def team_library() -> TeamLibrary | None:
    """The team library of the configured team database (one per connection string and process,
    so its connection is reused), or None in local mode."""
    target = team_target()
    if target is None:
        return None
    with _team_lock:
        if target.conninfo not in _team:
            _team[target.conninfo] = TeamLibrary(target)
        return _team[target.conninfo]


def close_team_libraries() -> None:
    """Close the team libraries' connections (a test's end, a change of team database)."""
    with _team_lock:
        for library in _team.values():
            library.close()
        _team.clear()


def library_backend(database: Database | None = None) -> LibraryBackend:
    """The library index searches ask: the team library in team mode, else the embedded index."""
    return team_library() or SqliteLibrary(database)


def to_team(documents: Iterable[tuple[str, Sequence[tuple[int, str]]]]) -> int:
    """Offer pages the local library just added to the team library (team mode only); pages added
    there. A team database that cannot be reached does not stop local indexing."""
    team = team_library()
    if team is None:
        return 0
    try:
        return team.add_documents(documents)
    except PdfDeskError as exc:
        _log.warning("team library: %s", exc.message)
        return 0


def page_to_team(fingerprint: str, number: int, text: str) -> None:
    """A page just recognised, given to the team library too (team mode only)."""
    team = team_library()
    if team is None:
        return
    try:
        team.replace_page(fingerprint, number, text)
    except PdfDeskError as exc:
        _log.warning("team library: %s", exc.message)


def sections_to_team(fingerprint: str, sections: list[SectionText]) -> None:
    """A document's sections, given to the team library too (team mode only)."""
    team = team_library()
    if team is None:
        return
    try:
        team.replace_sections(fingerprint, sections)
    except PdfDeskError as exc:
        _log.warning("team library: %s", exc.message)
