"""The catalogue: the documents the user added to the library, a row each in the collection database.

Every document is listed with its size, mtime, fingerprint and status (queued, indexing, indexed,
failed). A table rather than one JSON file rewritten whole on every change: a library of 100,000
documents changes one row at a time, and the window, the MCP server and `pdfdesk index` share it
through SQLite's own locking. A `library.json` written by an earlier version is taken over once.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path

from pdfdesk.core import paths
from pdfdesk.index.database import Database, collection_database, register_schema

LEGACY_FILE = "library.json"  # the catalogue before it moved into the collection database
QUEUED, INDEXING, INDEXED, FAILED = "queued", "indexing", "indexed", "failed"


@dataclass
class LibraryEntry:
    path: str
    name: str
    size: int = 0
    mtime_ns: int = 0
    fingerprint: str | None = None
    status: str = QUEUED
    error: str | None = None
    pages: int = 0
    added: float = field(default_factory=time.time)


COLUMNS = tuple(f.name for f in fields(LibraryEntry))


def _create(connection: sqlite3.Connection) -> None:
    connection.executescript("""
        CREATE TABLE IF NOT EXISTS catalogue (
            path TEXT PRIMARY KEY, name TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
            fingerprint TEXT, status TEXT NOT NULL, error TEXT, pages INTEGER NOT NULL, added REAL NOT NULL);
        CREATE INDEX IF NOT EXISTS catalogue_status ON catalogue (status);
        CREATE INDEX IF NOT EXISTS catalogue_fingerprint ON catalogue (fingerprint);
    """)


register_schema("catalogue", _create)


def expand_pdf_paths(items: list[str]) -> list[Path]:
    """Files as given; folders walked recursively for *.pdf (any case), sorted."""
    found: list[Path] = []
    for raw in items:
        path = Path(raw).expanduser()
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file()))
        else:
            found.append(path)
    return [Path(os.path.abspath(p)) for p in found]


def _row(entry: LibraryEntry) -> tuple[object, ...]:
    return tuple(getattr(entry, name) for name in COLUMNS)


_SELECT = f"SELECT {', '.join(COLUMNS)} FROM catalogue"
_UPSERT = f"INSERT OR REPLACE INTO catalogue ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"


class Catalogue:
    """The catalogue's rows, read and changed."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.database: Database = collection_database(
            (folder / "indices" / "collection.sqlite") if folder is not None else None)

    # -- storage -----------------------------------------------------------------------------
    def _adopt_legacy(self) -> None:
        """Bring a catalogue kept in library.json by an earlier version into the table, once."""
        legacy = (self.folder or paths.app_data_dir()) / LEGACY_FILE
        if not legacy.is_file():
            return
        try:
            data = json.loads(legacy.read_text(encoding="utf-8"))
            entries = [LibraryEntry(**item) for item in data.get("documents", [])]
        except (OSError, ValueError, TypeError, KeyError):
            entries = []
        for entry in entries:  # documents are added to the library index anew
            if entry.status in (INDEXED, "indexing"):
                entry.status = QUEUED
        with self.database.writing() as db:
            db.executemany(_UPSERT.replace("INSERT OR REPLACE", "INSERT OR IGNORE"), [_row(e) for e in entries])
        legacy.replace(legacy.with_name(f"{LEGACY_FILE}.adopted"))

    def _select(self, where: str = "", parameters: Iterable[object] = ()) -> list[LibraryEntry]:
        try:
            self._adopt_legacy()
        except OSError:  # a read-only data folder: what the table holds is still readable
            pass
        try:
            with self.database.reading() as db:
                rows = db.execute(f"{_SELECT} {where} ORDER BY added, path", tuple(parameters)).fetchall()
        except FileNotFoundError:
            return []
        return [LibraryEntry(*row) for row in rows]

    # -- queries -----------------------------------------------------------------------------
    def entries(self) -> list[LibraryEntry]:
        return self._select()

    def pending(self) -> list[LibraryEntry]:
        return self._select("WHERE status IN (?, ?)", (QUEUED, INDEXING))

    def indexed(self) -> list[LibraryEntry]:
        return self._select("WHERE status = ? AND fingerprint IS NOT NULL", (INDEXED,))

    def by_fingerprint(self, fingerprint: str) -> LibraryEntry | None:
        """An indexed document of this version (the first added, when the same file is listed twice)."""
        found = self._select("WHERE status = ? AND fingerprint = ?", (INDEXED, fingerprint))
        return found[0] if found else None

    def searchable_count(self) -> tuple[int, int]:
        """(indexed documents, those of them the library index holds)."""
        try:
            with self.database.reading() as db:
                rows = db.execute("SELECT COUNT(DISTINCT c.fingerprint), COUNT(DISTINCT l.fingerprint) "
                                  "FROM catalogue c LEFT JOIN lib_docs l ON l.fingerprint = c.fingerprint "
                                  "WHERE c.status = ? AND c.fingerprint IS NOT NULL", (INDEXED,)).fetchall()
        except FileNotFoundError:
            return 0, 0
        return int(rows[0][0]), int(rows[0][1])

    def count(self) -> int:
        try:
            with self.database.reading() as db:
                return int(db.execute("SELECT COUNT(*) FROM catalogue").fetchall()[0][0])
        except FileNotFoundError:
            return 0

    # -- changes -----------------------------------------------------------------------------
    def add(self, items: list[str]) -> list[LibraryEntry]:
        """Add files and folders; new or changed files are queued, unchanged ones left as they are."""
        found = expand_pdf_paths(items)
        added: list[LibraryEntry] = []
        changed: list[LibraryEntry] = []
        with self.database.writing() as db:
            known = {row[0]: LibraryEntry(*row) for row in db.execute(_SELECT).fetchall()}
            for path in found:
                key = str(path)
                entry = known.get(key)
                try:
                    info = path.stat()
                except OSError as exc:
                    entry = entry or LibraryEntry(key, path.name)
                    entry.status, entry.error = FAILED, f"file_not_found: {exc.strerror}"
                    changed.append(entry)
                else:
                    if entry is None or (entry.size, entry.mtime_ns) != (info.st_size, info.st_mtime_ns) \
                            or entry.status == FAILED:
                        entry = LibraryEntry(key, path.name, info.st_size, info.st_mtime_ns)
                        changed.append(entry)
                added.append(entry)
            db.executemany(_UPSERT, [_row(entry) for entry in changed])
        return added

    def remove(self, path: str) -> bool:
        key = str(Path(os.path.abspath(Path(path).expanduser())))
        with self.database.writing() as db:
            return db.execute("DELETE FROM catalogue WHERE path = ?", (key,)).rowcount > 0

    def _update(self, key: str, **changes: object) -> None:
        names = [name for name in changes if name in COLUMNS and name != "path"]
        if not names:
            return
        with self.database.writing() as db:
            db.execute(f"UPDATE catalogue SET {', '.join(f'{name} = ?' for name in names)} WHERE path = ?",
                       (*(changes[name] for name in names), key))

    def fail(self, path: str, error: str) -> None:
        self._update(path, status=FAILED, error=error)
