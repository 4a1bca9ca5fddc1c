"""Review annotations in one SQLite file in the app data folder.

SQLite in WAL mode lets the window, the MCP server and the CLI write the same notes at once:
every edit is its own IMMEDIATE transaction (writers queue on the busy timeout instead of failing
half-way), and a process killed mid-burst loses at most the edit it was making. Each thread gets
its own connection because a sqlite3 connection must not be shared between threads mid-query.
Failures come back as coded PdfDeskErrors: a read-only or full disk is a storage error naming
the folder, an unknown id a validation error; callers never see sqlite3's exceptions.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import sys
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, TypeVar

from pdfdesk.core.errors import INTERNAL_ERROR, VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.paths import (
    app_data_dir,
    ensure_dir,
    storage_error,
    unwritable_reason,
    write_failure,
)
from pdfdesk.review.records import (
    KINDS,
    STATUSES,
    Annotation,
    NewAnnotation,
    as_rect,
    now_iso,
    resolve_color,
)
from pdfdesk.review.recovery import Recovery, is_damage, recover_if_damaged

SCHEMA_VERSION = 1
DB_NAME = "annotations.sqlite3"
BUSY_MS = 10_000
MAX_NOTE_CHARS = 100_000
MAX_TAGS = 50
MAX_TAG_CHARS = 100
COLUMNS = ("id, fingerprint, path, page, rects, quote, prefix, suffix, start, note, color, tags, kind, "
           "status, source, answer, created, updated, deleted")
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS annotations (
    id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, path TEXT NOT NULL, page INTEGER NOT NULL,
    rects TEXT NOT NULL, quote TEXT NOT NULL, prefix TEXT NOT NULL, suffix TEXT NOT NULL,
    start INTEGER, note TEXT NOT NULL, color TEXT NOT NULL, tags TEXT NOT NULL, kind TEXT NOT NULL,
    status TEXT NOT NULL, source TEXT NOT NULL, answer TEXT, created TEXT NOT NULL,
    updated TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, top REAL NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS annotations_fingerprint ON annotations(fingerprint);
CREATE INDEX IF NOT EXISTS annotations_path ON annotations(path);
PRAGMA user_version = {SCHEMA_VERSION};
"""
_ORDER = "ORDER BY page, top, created, rowid"
_UPDATABLE = frozenset({"note", "color", "tags", "page", "rects", "quote", "prefix", "suffix", "start",
                        "status", "fingerprint", "path"})
# SQLite's primary result codes that mean the disk or folder will not take the write.
_STORAGE_CODES = {sqlite3.SQLITE_FULL: "the disk is full", sqlite3.SQLITE_READONLY: None,
                  sqlite3.SQLITE_CANTOPEN: None, sqlite3.SQLITE_PERM: None, sqlite3.SQLITE_IOERR: None}
T = TypeVar("T")


def default_path() -> Path:
    return app_data_dir() / "review" / DB_NAME


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _haystack(quote: str, note: str, tags: str, answer: str | None) -> str:
    """What `search` looks through: the visible words only, never JSON keys."""
    parts = [quote, note, " ".join(json.loads(tags))]
    if answer:
        data = json.loads(answer)
        parts += [str(data.get("question", "")), str(data.get("text", ""))]
    return _fold("\n".join(parts))


def _matches(needle: str, quote: str, note: str, tags: str, answer: str | None) -> int:
    return int(needle in _haystack(quote, note, tags, answer))


_FIELDS = tuple(f.name for f in fields(Annotation))
_new = object.__new__


def _row_to_annotation(row: tuple) -> Annotation:
    """A row as an Annotation. Lists load thousands of rows, and a frozen dataclass's __init__
    sets each field through object.__setattr__, which costs more than the query: the fields are
    filled in directly instead (what __init__ would store, in the order it would)."""
    (id_, fingerprint, path, page, rects, quote, prefix, suffix, start, note, color, tags, kind,
     status, source, answer, created, updated, deleted) = row
    ann = _new(Annotation)
    ann.__dict__.update(zip(_FIELDS, (
        id_, fingerprint, path, page, tuple(map(tuple, json.loads(rects))) if rects != "[]" else (),
        quote, prefix, suffix, start, note, color, tuple(json.loads(tags)) if tags != "[]" else (), kind,
        status, source, json.loads(answer) if answer else None, created, updated, bool(deleted)), strict=False))
    return ann


def _row_of(ann: Annotation) -> tuple:
    return (ann.id, ann.fingerprint, ann.path, ann.page, json.dumps([list(r) for r in ann.rects]),
            ann.quote, ann.prefix, ann.suffix, ann.start, ann.note, ann.color,
            json.dumps(list(ann.tags), ensure_ascii=False), ann.kind, ann.status, ann.source,
            json.dumps(ann.answer, ensure_ascii=False) if ann.answer is not None else None,
            ann.created, ann.updated, int(ann.deleted), ann.top)


def _top_of(rects: str) -> float:
    """The sort key of a salvaged row's rects (0 when they cannot be read)."""
    try:
        return float(json.loads(rects)[0][1])
    except (ValueError, TypeError, IndexError, KeyError):
        return 0.0


def _invalid(message: str, hint: str) -> PdfDeskError:
    return PdfDeskError(VALIDATION_ERROR, message, hint)


def _clean_tags(tags: Any) -> tuple[str, ...]:
    if isinstance(tags, str) or not isinstance(tags, (list, tuple)):
        raise _invalid("Tags must be a list of strings.", 'Give tags as a list, for example ["todo", "legal"].')
    cleaned: list[str] = []
    for tag in tags:
        text = " ".join(str(tag).split())[:MAX_TAG_CHARS]
        if text and text not in cleaned:
            cleaned.append(text)
    if len(cleaned) > MAX_TAGS:
        raise _invalid(f"An annotation can have at most {MAX_TAGS} tags.", "Use fewer, broader tags.")
    return tuple(cleaned)


def _clean(field: str, value: Any) -> Any:
    """One field checked and normalised the same way for add and update."""
    if field in ("note", "quote", "prefix", "suffix", "fingerprint", "path"):
        if not isinstance(value, str):
            raise _invalid(f"`{field}` must be text.", f"Give `{field}` as a string.")
        if field == "note" and len(value) > MAX_NOTE_CHARS:
            raise _invalid(f"The note is longer than {MAX_NOTE_CHARS:,} characters.", "Shorten the note.")
        return value
    if field == "color":
        return resolve_color(value)
    if field == "tags":
        return _clean_tags(value)
    if field == "page":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise _invalid("`page` must be a page number (1 or more).", "Pages are counted from 1.")
        return value
    if field == "rects":
        return tuple(as_rect(r) for r in value)
    if field == "start":
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise _invalid("`start` must be a character offset or null.", "Leave `start` out.")
        return value
    if field == "status":
        if value not in STATUSES:
            raise _invalid(f"Unknown status {str(value)[:40]!r}.", f"Use one of {', '.join(STATUSES)}.")
        return value
    raise _invalid(f"`{field}` cannot be changed.", f"Change only {', '.join(sorted(_UPDATABLE))}.")


class AnnotationStore:
    """The notes database at one path; safe to share between threads of one process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.folder = path.parent
        self.recovery: Recovery | None = None  # set when a damaged file was moved aside at open
        self._pid = os.getpid()
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        ensure_dir(self.folder)
        # A folder that cannot be written (read-only or full disk) still shows the notes it holds:
        # the file is read as it is, and every edit reports why it cannot be stored.
        self.read_only: str | None = unwritable_reason(self.folder)
        if self.read_only:
            return
        try:
            self.recovery, salvaged = recover_if_damaged(path, COLUMNS)
        except OSError as exc:
            raise storage_error(self.folder, self._why(exc), "check its notes database") from None
        except sqlite3.Error as exc:
            raise self._fault(exc, "open its notes database") from None
        self._write("create its notes database", self._create_schema)
        if salvaged:
            self._write("restore notes from the damaged database", lambda conn: conn.executemany(
                f"INSERT OR IGNORE INTO annotations ({COLUMNS}, top) VALUES ({', '.join('?' * 20)})",
                [(*row, _top_of(row[4])) for row in salvaged]))

    # -- connections and transactions ----------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        if os.getpid() != self._pid:
            raise PdfDeskError(INTERNAL_ERROR, "A notes store was carried into a child process.",
                               "Call open_store() in the child process.")
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._open_read_only() if self.read_only else sqlite3.connect(
                self.path, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
            try:
                if not self.read_only:
                    conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
                    conn.execute("PRAGMA journal_mode = WAL")
                    conn.execute("PRAGMA synchronous = NORMAL")
                conn.create_function("pd_match", 5, _matches, deterministic=True)
            except BaseException:
                conn.close()
                raise
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    def _open_read_only(self) -> sqlite3.Connection:
        """The database as it lies on an unwritable disk (WAL cannot run there, and nothing else
        can be changing it), or an empty one when there is none yet."""
        if not self.path.exists():
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            self._create_schema(conn)
            return conn
        return sqlite3.connect(self.path.as_uri() + "?immutable=1", uri=True, isolation_level=None,
                               check_same_thread=False)

    def _why(self, exc: BaseException) -> str:
        code = getattr(exc, "sqlite_errorcode", None)
        named = _STORAGE_CODES.get(code & 0xFF) if code is not None else None
        if named is None and isinstance(exc, OSError):
            return write_failure(exc, self.folder)
        return named or unwritable_reason(self.folder) or str(exc)

    def _fault(self, exc: sqlite3.Error, doing: str) -> PdfDeskError:
        """sqlite3's exception as the coded error a user can act on."""
        code = getattr(exc, "sqlite_errorcode", None)
        primary = code & 0xFF if code is not None else None
        if primary in _STORAGE_CODES:
            return storage_error(self.folder, self._why(exc), doing)
        if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return PdfDeskError(INTERNAL_ERROR, f"pdfdesk cannot {doing}: the notes database {self.path} "
                                "stayed locked by another program for 10 seconds.",
                                "Close other programs using it (another pdfdesk, a database browser) and retry.")
        if is_damage(exc):
            return PdfDeskError(INTERNAL_ERROR, f"pdfdesk cannot {doing}: the notes database {self.path} "
                                f"is damaged ({exc}).", "Restart pdfdesk: it moves a damaged database aside "
                                "and keeps every note it can still read.")
        return PdfDeskError(INTERNAL_ERROR, f"pdfdesk cannot {doing}: {exc}.",
                            "Retry; if it keeps failing, report it with the crash log.")

    def _write(self, doing: str, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run `work` in its own IMMEDIATE transaction: all of it is stored, or none of it.

        SQLite answers "busy" at once, without waiting on the busy timeout, when it sees waiting
        cannot help: two processes switching a brand-new file to WAL at the same moment, for one.
        Nothing was written then, so the whole transaction is tried again until the timeout."""
        if self.read_only:
            raise storage_error(self.folder, self.read_only, doing)
        deadline = time.monotonic() + BUSY_MS / 1000
        while True:
            try:
                return self._transaction(work)
            except sqlite3.Error as exc:
                code = getattr(exc, "sqlite_errorcode", None)
                busy = code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
                if not busy or time.monotonic() >= deadline:
                    raise self._fault(exc, doing) from None
                time.sleep(random.uniform(0.005, 0.05))

    def _transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = work(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise
        return result

    def _read(self, doing: str, sql: str, params: tuple = ()) -> list[tuple]:
        try:
            return self._connection().execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._fault(exc, doing) from None

    @staticmethod
    def _create_schema(conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise PdfDeskError(INTERNAL_ERROR, "The notes database was written by a newer pdfdesk.",
                               "Update pdfdesk, or set PDFDESK_HOME to another folder.")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)

    def close(self) -> None:
        """Close every thread's connection (tests, and before the folder is moved)."""
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()

    # -- edits -----------------------------------------------------------------------------------
    def add(self, ann: NewAnnotation) -> Annotation:
        """Store a new note; it starts anchored in the version it was made on."""
        if ann.kind not in KINDS:
            raise _invalid(f"Unknown kind {str(ann.kind)[:40]!r}.", f"Use one of {', '.join(KINDS)}.")
        if ann.answer is not None and not isinstance(ann.answer, dict):
            raise _invalid("`answer` must be an object with question, text and citations.",
                           'Give {"question": ..., "text": ..., "citations": [{"file": ..., "page": N}]}.')
        stamp = now_iso()
        record = Annotation(
            id="a-" + uuid.uuid4().hex, fingerprint=_clean("fingerprint", ann.fingerprint),
            path=_clean("path", ann.path), page=_clean("page", ann.page), rects=_clean("rects", ann.rects),
            quote=_clean("quote", ann.quote), prefix=_clean("prefix", ann.prefix),
            suffix=_clean("suffix", ann.suffix), start=_clean("start", ann.start),
            note=_clean("note", ann.note), color=_clean("color", ann.color), tags=_clean("tags", ann.tags),
            kind=ann.kind, status="anchored", source="pdfdesk", answer=ann.answer,
            created=stamp, updated=stamp,
        )
        self._write("save a note", lambda conn: conn.execute(
            f"INSERT INTO annotations ({COLUMNS}, top) VALUES ({', '.join('?' * 20)})", _row_of(record)))
        return record

    def _change(self, id: str, doing: str, change: Callable[[Annotation], Annotation]) -> Annotation:
        def work(conn: sqlite3.Connection) -> Annotation:
            row = conn.execute(f"SELECT {COLUMNS} FROM annotations WHERE id = ?", (id,)).fetchone()
            if row is None:
                raise _invalid(f"There is no annotation with id {str(id)[:80]!r}.",
                               "List the document's annotations to get their ids.")
            record = replace(change(_row_to_annotation(row)), updated=now_iso())
            conn.execute(f"REPLACE INTO annotations ({COLUMNS}, top) VALUES ({', '.join('?' * 20)})",
                         _row_of(record))
            return record
        return self._write(doing, work)

    def get(self, id: str) -> Annotation:
        rows = self._read("read a note", f"SELECT {COLUMNS} FROM annotations WHERE id = ?", (id,))
        if not rows:
            raise _invalid(f"There is no annotation with id {str(id)[:80]!r}.",
                           "List the document's annotations to get their ids.")
        return _row_to_annotation(rows[0])

    def update(self, id: str, **fields: Any) -> Annotation:
        """Change the note's own fields, or store where re-anchoring found it."""
        cleaned = {name: _clean(name, value) for name, value in fields.items()}
        return self._change(id, "save a note", lambda ann: replace(ann, **cleaned))

    def delete(self, id: str) -> Annotation:
        """Hide a note from every list but keep it, so the delete can be undone."""
        return self._change(id, "delete a note", lambda ann: replace(ann, deleted=True))

    def restore(self, id: str) -> Annotation:
        return self._change(id, "restore a note", lambda ann: replace(ann, deleted=False))

    # -- lists -----------------------------------------------------------------------------------
    def for_document(self, fingerprint: str, path: str | None = None) -> list[Annotation]:
        """Notes of this version plus those remembered at `path` under another version (the
        caller re-anchors those), in reading order."""
        if path is None:
            rows = self._read("read notes", f"SELECT {COLUMNS} FROM annotations WHERE deleted = 0 "
                              f"AND fingerprint = ? {_ORDER}", (fingerprint,))
        else:
            rows = self._read("read notes", f"SELECT {COLUMNS} FROM annotations WHERE deleted = 0 "
                              f"AND (fingerprint = ? OR path = ?) {_ORDER}", (fingerprint, path))
        return [_row_to_annotation(row) for row in rows]

    def all_documents(self) -> list[tuple[str, str, int]]:
        """(fingerprint, path, count) of every document with notes, for an "all notes" view."""
        rows = self._read("read notes", "SELECT fingerprint, path, COUNT(*) FROM annotations WHERE deleted = 0 "
                          "GROUP BY fingerprint, path ORDER BY path, fingerprint")
        return [(str(f), str(p), int(n)) for f, p, n in rows]

    def search(self, text: str, limit: int = 50) -> list[Annotation]:
        """Notes whose quote, note, tags or pinned answer contain `text` (any case), newest first."""
        needle = _fold(" ".join(str(text).split()))
        if not needle:
            raise _invalid("Give some text to search the notes for.", "Type a word from the note or quote.")
        limit = max(1, min(int(limit), 1000))
        rows = self._read("search notes", f"SELECT {COLUMNS} FROM annotations WHERE deleted = 0 AND "
                          "pd_match(?, quote, note, tags, answer) ORDER BY updated DESC, rowid DESC LIMIT ?",
                          (needle, limit))
        return [_row_to_annotation(row) for row in rows]


_stores: dict[tuple[int, str], AnnotationStore] = {}
_stores_lock = threading.Lock()


def open_store(path: Path | None = None) -> AnnotationStore:
    """The process's store for `path` (default: the app data folder's), opened once and shared.
    With a team database set up (and no `path`), the team's shared notes instead."""
    if path is None:
        from pdfdesk.team.settings import team_target

        target = team_target()
        if target is not None:
            from pdfdesk.review.team_store import open_team_store

            return open_team_store(target)
    path = Path(path) if path is not None else default_path()
    key = (os.getpid(), os.path.abspath(path))
    with _stores_lock:
        store = _stores.get(key)
        if store is None:
            store = _stores[key] = AnnotationStore(path)
        return store


def close_stores() -> None:
    """Forget every cached store (tests switch PDFDESK_HOME between them)."""
    with _stores_lock:
        for store in _stores.values():
            store.close()
        _stores.clear()
    team = sys.modules.get("pdfdesk.review.team_store")
    if team is not None:
        team.close_team_stores()


__all__ = ["AnnotationStore", "close_stores", "default_path", "open_store"]
