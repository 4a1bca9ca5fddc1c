"""The collection database: one SQLite file in the indices folder holding the page-text record,
the library catalogue and the library's full-text index.

SQLite, because a collection is many small documents written by several processes (the window,
`pdfdesk mcp`, `pdfdesk index`, the indexing children) and read while they write: WAL lets readers
carry on during a write, a transaction is all or nothing when a process is killed mid-write, and
the full-text index (FTS5) ranks 100,000 pages in C in milliseconds. Every table here is either
rebuilt from the PDFs (page text, the library index) or small (the catalogue), so a file that is
found damaged is set aside and started afresh rather than failing the user.

SQLite's errors become OSError where the disk is the cause (read-only, full), so callers report
them like any other write the data folder refused.
"""

from __future__ import annotations

import errno
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pdfdesk.core import paths

DATABASE_FILE = "collection.sqlite"
BUSY_TIMEOUT_MS = 30_000  # a writer waits this long for another process's transaction to end

# Each part of the schema is created by the module that owns it (page text, catalogue, library
# index); they register here so that a fresh or reset file gets every table.
Migration = Callable[[sqlite3.Connection], None]
_migrations: dict[str, Migration] = {}


def register_schema(name: str, create: Migration) -> None:
    """Have `create` run (idempotently) on every connection's first use of a database file, and on
    a connection's next use when it was opened before the owning module was imported."""
    _migrations[name] = create


def database_path() -> Path:
    return paths.indices_dir() / DATABASE_FILE


def first_row(cursor: sqlite3.Cursor) -> tuple[Any, ...] | None:
    """The first row of a query, with the statement finished: a statement left half-read keeps its
    read transaction open, and the connection then goes on seeing the database as it was, missing
    what other processes (the indexing children) have committed since."""
    try:
        rows = cursor.fetchmany(1)
    finally:
        cursor.close()
    return rows[0] if rows else None


def aggregate(cursor: sqlite3.Cursor) -> tuple[Any, ...]:
    """The one row of an aggregate query (COUNT, MAX, SUM always give one), statement finished."""
    row = first_row(cursor)
    if row is None:
        raise sqlite3.DatabaseError("an aggregate query gave no row")
    return row


def _as_os_error(exc: sqlite3.Error) -> OSError | None:
    """The disk's refusal hidden in a SQLite error, as the OSError a file write would have raised."""
    text = str(exc).lower()
    if "disk is full" in text or "database or disk is full" in text:
        return OSError(errno.ENOSPC, "No space left on device")
    if "readonly" in text or "read-only" in text:
        return OSError(errno.EROFS, "Read-only file system")
    if "unable to open" in text or "disk i/o error" in text:
        return OSError(errno.EACCES, "Permission denied")
    return None


def _damaged(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text)


class Database:
    """Connections to one database file: one per thread (SQLite connections are not shared
    between threads), schema made on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        self._generation = 0  # bumped when the file is set aside, so every thread reconnects

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                     check_same_thread=False)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses no committed transaction
        except BaseException:
            connection.close()
            raise
        return connection

    def connection(self) -> sqlite3.Connection:
        cached = getattr(self._local, "connection", None)
        if cached is not None and cached[1] == self._generation:
            current: sqlite3.Connection = cached[0]
            if not _migrations.keys() <= cached[2]:
                self._local.connection = (current, cached[1], self._migrate(current, cached[2]))
            return current
        if cached is not None:
            cached[0].close()
        connection = self._connect()
        try:
            applied = self._migrate(connection, frozenset())
        except BaseException:
            connection.close()
            raise
        self._local.connection = (connection, self._generation, applied)
        return connection

    @staticmethod
    def _migrate(connection: sqlite3.Connection, applied: frozenset[str]) -> frozenset[str]:
        """Create the tables of every schema registered since `applied` (a module imported after
        this connection opened brings its own)."""
        for name, create in list(_migrations.items()):
            if name not in applied:
                create(connection)
                applied |= {name}
        return applied

    def close(self) -> None:
        cached = getattr(self._local, "connection", None)
        if cached is not None:
            cached[0].close()
            self._local.connection = None

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A connection for reads. Raises OSError when the file cannot be opened or was damaged
        (set aside: the next use starts afresh). Reading never creates the file: asking whether
        something is stored must leave nothing behind."""
        if getattr(self._local, "connection", None) is None and not self.path.exists():
            raise FileNotFoundError(errno.ENOENT, "no collection database yet", str(self.path))
        try:
            yield self.connection()
        except sqlite3.Error as exc:
            raise self._translated(exc) from None

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE: the write lock is taken at once, so two
        processes never deadlock upgrading a read); committed on leaving, rolled back on error."""
        try:
            connection = self.connection()
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._translated(exc) from None
        try:
            yield connection
        except BaseException:
            try:
                connection.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise
        try:
            connection.execute("COMMIT")
        except sqlite3.Error as exc:
            try:
                connection.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise self._translated(exc) from None

    def _translated(self, exc: sqlite3.Error) -> OSError:
        if _damaged(exc):
            self._set_aside()
            return OSError(errno.EIO, f"the collection database was damaged and has been reset ({exc})")
        return _as_os_error(exc) or OSError(errno.EIO, f"the collection database failed: {exc}")

    def _set_aside(self) -> None:
        """Move a damaged file (and its WAL) out of the way; what it held is rebuilt from the PDFs."""
        self.close()
        self._generation += 1
        stamp = int(time.time())
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            try:
                source.replace(source.with_name(f"{source.name}.damaged-{stamp}"))
            except OSError:
                pass


_databases: dict[Path, Database] = {}
_databases_lock = threading.Lock()


def collection_database(path: Path | None = None) -> Database:
    """This process's handle on the collection database of the current data folder."""
    where = path or database_path()
    with _databases_lock:
        database = _databases.get(where)
        if database is None:
            database = _databases[where] = Database(where)
        return database
