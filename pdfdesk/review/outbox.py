"""The team store's local side: a durable queue of changes not yet on the server, the last notes
seen per document (what an offline reviewer reads), and the changes the server refused.

A change is written here first, in one SQLite transaction together with the note's new local
view, so a change the caller was told about survives the process being killed and the server
being away. Each queued change carries an op id the server records with the change itself; a
change sent twice (the process died after the server committed, before the queue was cleared)
is then applied once. One file per team database and login, in the app data folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, TypeVar

from pdfdesk.core.errors import INTERNAL_ERROR, PdfDeskError
from pdfdesk.core.paths import app_data_dir, ensure_dir, storage_error
from pdfdesk.review.records import Annotation, now_iso

DB_NAME = "outbox.sqlite3"
BUSY_MS = 10_000
_SCHEMA = """
CREATE TABLE IF NOT EXISTS ops (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, op TEXT NOT NULL UNIQUE, note TEXT NOT NULL,
    kind TEXT NOT NULL, payload TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, queued TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rejected (
    op TEXT PRIMARY KEY, note TEXT NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,
    code TEXT NOT NULL, message TEXT NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS notes_fingerprint ON notes(fingerprint);
CREATE TABLE IF NOT EXISTS places (fingerprint TEXT PRIMARY KEY, path TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matters (fingerprint TEXT PRIMARY KEY, data TEXT NOT NULL)
"""
_FIELDS = tuple(f.name for f in fields(Annotation))
T = TypeVar("T")


@dataclass(frozen=True)
class QueuedOp:
    """One change waiting for the server: an add (the whole note and its matter) or an update
    (only the fields changed, and what they were before, to undo the local view if refused)."""

    seq: int
    op: str
    note: str
    kind: str  # "add" or "update"
    payload: dict[str, Any]
    attempts: int


@dataclass(frozen=True)
class Rejection:
    """A change the server refused for good: kept here so it is never silently lost."""

    op: str
    note: str
    kind: str
    payload: dict[str, Any]
    code: str
    message: str
    at: str


def folder_for(where: str) -> Path:
    """The folder of one team database and login's queue (readable name, hashed to be safe)."""
    digest = hashlib.sha256(where.encode("utf-8")).hexdigest()[:16]
    user = "".join(c for c in where.split("@", 1)[0] if c.isalnum() or c in "-_")[:40] or "team"
    return app_data_dir() / "team" / f"{user}-{digest}"


def to_json(ann: Annotation) -> dict[str, Any]:
    data = {name: getattr(ann, name) for name in _FIELDS}
    data["rects"] = [list(r) for r in ann.rects]
    data["tags"] = list(ann.tags)
    return data


def from_json(data: dict[str, Any]) -> Annotation:
    known = {k: v for k, v in data.items() if k in _FIELDS}
    known["rects"] = tuple(tuple(float(v) for v in r) for r in known.get("rects", ()))
    known["tags"] = tuple(known.get("tags", ()))
    return Annotation(**known)


def with_fields(ann: Annotation, changed: dict[str, Any]) -> Annotation:
    """`ann` with an update's fields (as stored in JSON) applied."""
    values = dict(changed)
    if "rects" in values:
        values["rects"] = tuple(tuple(float(v) for v in r) for r in values["rects"])
    if "tags" in values:
        values["tags"] = tuple(values["tags"])
    return replace(ann, **{k: v for k, v in values.items() if k in _FIELDS})


class Outbox:
    """The queue file of one team database and login; shared by threads and processes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / DB_NAME
        self._lock = threading.Lock()
        try:
            ensure_dir(folder)
            self._conn = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None,
                                         check_same_thread=False)
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            # as the local notes store: a commit survives the process being killed at any moment
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._write(lambda c: [c.execute(s) for s in _SCHEMA.split(";") if s.strip()])
        except (OSError, sqlite3.Error) as exc:
            raise storage_error(folder, str(exc), "keep team notes on this computer") from None

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """`work` in one IMMEDIATE transaction (retried while another process holds the file)."""
        deadline = time.monotonic() + BUSY_MS / 1000
        with self._lock:
            while True:
                try:
                    self._conn.execute("BEGIN IMMEDIATE")
                    try:
                        result = work(self._conn)
                        self._conn.execute("COMMIT")
                        return result
                    except BaseException:
                        if self._conn.in_transaction:
                            self._conn.execute("ROLLBACK")
                        raise
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise self._fault(exc) from None
                    time.sleep(0.01)
                except sqlite3.Error as exc:
                    raise self._fault(exc) from None

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise self._fault(exc) from None

    def _fault(self, exc: sqlite3.Error) -> PdfDeskError:
        if isinstance(exc, sqlite3.OperationalError) and ("disk" in str(exc) or "readonly" in str(exc)):
            return storage_error(self.folder, str(exc), "keep team notes on this computer")
        return PdfDeskError(INTERNAL_ERROR, f"pdfdesk cannot use its team queue {self.path}: {exc}.",
                            "Retry; if it keeps failing, report it with the crash log.")

    # -- the queue -----------------------------------------------------------------------------
    def enqueue(self, op: str, kind: str, view: Annotation, payload: dict[str, Any],
                place: str | None = None) -> None:
        """Queue a change and show it locally at once (both or neither)."""
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO ops (op, note, kind, payload, queued) VALUES (?, ?, ?, ?, ?)",
                         (op, view.id, kind, json.dumps(payload, ensure_ascii=False), now_iso()))
            self._put(conn, view)
            if place:
                conn.execute("REPLACE INTO places (fingerprint, path) VALUES (?, ?)", (view.fingerprint, place))
        self._write(work)

    def count(self) -> int:
        return int(self._read("SELECT count(*) FROM ops")[0][0])

    def head(self, limit: int) -> list[QueuedOp]:
        rows = self._read("SELECT seq, op, note, kind, payload, attempts FROM ops ORDER BY seq LIMIT ?", (limit,))
        return [QueuedOp(s, o, n, k, json.loads(p), a) for s, o, n, k, p, a in rows]

    def queued(self) -> list[QueuedOp]:
        return self.head(-1)

    def sent(self, ops: Iterable[QueuedOp]) -> None:
        """Forget ops the server has (called only after its commit)."""
        seqs = [(q.seq,) for q in ops]
        self._write(lambda conn: conn.executemany("DELETE FROM ops WHERE seq = ?", seqs))

    def set_payload(self, queued: QueuedOp, payload: dict[str, Any]) -> None:
        self._write(lambda conn: conn.execute("UPDATE ops SET payload = ? WHERE seq = ?",
                                              (json.dumps(payload, ensure_ascii=False), queued.seq)))

    def failed_once(self, queued: QueuedOp) -> int:
        """Count a failed attempt; returns how many there were."""
        self._write(lambda conn: conn.execute("UPDATE ops SET attempts = attempts + 1 WHERE seq = ?", (queued.seq,)))
        rows = self._read("SELECT attempts FROM ops WHERE seq = ?", (queued.seq,))
        return int(rows[0][0]) if rows else 0

    def reject(self, queued: QueuedOp, error: PdfDeskError) -> None:
        """Move a refused change out of the queue into the rejected list and undo its local view."""
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM ops WHERE seq = ?", (queued.seq,))
            conn.execute("REPLACE INTO rejected (op, note, kind, payload, code, message, at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (queued.op, queued.note, queued.kind, json.dumps(queued.payload, ensure_ascii=False),
                          error.code, error.message, now_iso()))
            if queued.kind == "add":
                conn.execute("DELETE FROM notes WHERE id = ?", (queued.note,))
                return
            row = conn.execute("SELECT data FROM notes WHERE id = ?", (queued.note,)).fetchone()
            if row is not None:
                self._put(conn, with_fields(from_json(json.loads(row[0])), queued.payload.get("before", {})))
        self._write(work)

    def rejected(self) -> list[Rejection]:
        rows = self._read("SELECT op, note, kind, payload, code, message, at FROM rejected ORDER BY at, rowid")
        return [Rejection(o, n, k, json.loads(p), c, m, a) for o, n, k, p, c, m, a in rows]

    # -- the notes last seen -------------------------------------------------------------------
    @staticmethod
    def _put(conn: sqlite3.Connection, ann: Annotation) -> None:
        conn.execute("REPLACE INTO notes (id, fingerprint, data) VALUES (?, ?, ?)",
                     (ann.id, ann.fingerprint, json.dumps(to_json(ann), ensure_ascii=False)))

    def remember(self, notes: Iterable[Annotation], fingerprint: str | None = None) -> None:
        """Keep the server's view (queued changes laid over); with `fingerprint`, it replaces
        every note kept for that document (notes deleted or hidden since are forgotten)."""
        listed = list(notes)

        def work(conn: sqlite3.Connection) -> None:
            if fingerprint is not None:
                conn.execute("DELETE FROM notes WHERE fingerprint = ?", (fingerprint,))
            for ann in listed:
                self._put(conn, ann)
        self._write(work)

    def forget_all(self) -> None:
        self._write(lambda conn: conn.execute("DELETE FROM notes"))

    def cached(self, fingerprint: str | None = None, note: str | None = None) -> list[Annotation]:
        if note is not None:
            rows = self._read("SELECT data FROM notes WHERE id = ?", (note,))
        elif fingerprint is not None:
            rows = self._read("SELECT data FROM notes WHERE fingerprint = ?", (fingerprint,))
        else:
            rows = self._read("SELECT data FROM notes")
        return [from_json(json.loads(r[0])) for r in rows]

    def place(self, fingerprint: str) -> str | None:
        rows = self._read("SELECT path FROM places WHERE fingerprint = ?", (fingerprint,))
        return str(rows[0][0]) if rows else None

    def set_place(self, fingerprint: str, path: str) -> None:
        self._write(lambda conn: conn.execute("REPLACE INTO places (fingerprint, path) VALUES (?, ?)",
                                              (fingerprint, path)))

    def matters(self, fingerprint: str) -> list[dict[str, Any]] | None:
        rows = self._read("SELECT data FROM matters WHERE fingerprint = ?", (fingerprint,))
        return json.loads(rows[0][0]) if rows else None

    def set_matters(self, fingerprint: str, found: list[dict[str, Any]]) -> None:
        self._write(lambda conn: conn.execute("REPLACE INTO matters (fingerprint, data) VALUES (?, ?)",
                                              (fingerprint, json.dumps(found))))


def overlay(notes: dict[str, Annotation], queued: Iterable[QueuedOp], fingerprint: str | None = None) -> None:
    """Lay queued changes over notes read from the server (in place, in queue order); queued
    adds join when they are of `fingerprint` (or of any document without one)."""
    for q in queued:
        if q.kind == "add":
            ann = from_json(q.payload["record"])
            if q.note not in notes and (fingerprint is None or ann.fingerprint == fingerprint):
                notes[q.note] = ann
        elif q.note in notes:
            notes[q.note] = with_fields(notes[q.note], q.payload.get("fields", {}))


def pid_guard(pid: int) -> None:
    if os.getpid() != pid:
        raise PdfDeskError(INTERNAL_ERROR, "A team notes store was carried into a child process.",
                           "Call open_store() in the child process.")
