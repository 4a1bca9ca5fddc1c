"""Review notes kept in the team database, shared by every reviewer of a matter.

Notes are keyed by the document's content fingerprint, so every reviewer's copy shows the same
notes wherever it lies on disk; where this computer keeps the file stays here (never sent). Every
change is queued on this computer first and then sent, so a change made while the server is
away still succeeds and is sent, in order and once, when it answers again. Reads come from the
server when it answers (its row-level security decides what each login sees), else from the
notes last seen here, with queued changes laid over either.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg import conninfo as libpq_conninfo

from pdfdesk.core.config import get_config
from pdfdesk.core.errors import PERMISSION_DENIED, TEAM_UNAVAILABLE, VALIDATION_ERROR, PdfDeskError
from pdfdesk.core.locks import file_lock
from pdfdesk.core.paths import app_data_dir
from pdfdesk.review import team_wire
from pdfdesk.review.outbox import Outbox, QueuedOp, Rejection, folder_for, overlay, pid_guard, to_json
from pdfdesk.review.records import KINDS, Annotation, NewAnnotation, now_iso
from pdfdesk.review.store import AnnotationStore, _clean, _fold, _invalid
from pdfdesk.review.team_wire import NoteRevision, Refused
from pdfdesk.team import matters as team_matters
from pdfdesk.team.connection import close_quietly, connect, database_error, is_connection_failure, where_of
from pdfdesk.team.settings import TeamTarget

BATCH = 200          # changes sent in one server transaction
RETRY_S = 3.0        # after a failed contact, ordinary calls read the local copy this long
MATTERS_TTL_S = 30.0  # how long which matters hold a document is trusted before asking again
MAX_ATTEMPTS = 5     # a change failing this often (not for a lost connection) is set aside
T = TypeVar("T")


def _order(ann: Annotation) -> tuple:
    return ann.page, ann.top, ann.created, ann.id


def _haystack(ann: Annotation) -> str:
    parts = [ann.quote, ann.note, " ".join(ann.tags)]
    if ann.answer:
        parts += [str(ann.answer.get("question", "")), str(ann.answer.get("text", ""))]
    return _fold("\n".join(parts))


class TeamAnnotationStore(AnnotationStore):
    """The notes of one team database as this login sees them.

    It is an AnnotationStore to every caller (the tools, re-anchoring, exports take either), but
    keeps nothing in the local notes file: its own state is the queue file and the server."""

    def __init__(self, target: TeamTarget, folder: Path | None = None) -> None:
        try:
            params = libpq_conninfo.conninfo_to_dict(target.conninfo)
        except psycopg.ProgrammingError as exc:
            raise PdfDeskError(VALIDATION_ERROR, f"The team database's connection string is not valid: {exc}",
                               'Write it as libpq does, e.g. "postgresql://alice@server/review".') from None
        self.target = target
        self.where = where_of(params)
        self.user = self.where.user
        self.folder = folder or folder_for(str(self.where))
        self.outbox = Outbox(self.folder)
        self.path = self.outbox.path
        self.read_only: str | None = None   # writes are judged by the server, note by note
        self.recovery = None
        self.online = False
        self.state = "unknown"              # "online", "offline", or "unknown" before the first contact
        self.last_error: str | None = None
        self._pid = os.getpid()
        self._server_lock = threading.RLock()
        self._conn: psycopg.Connection | None = None
        self._retry_at = 0.0
        self._matters: dict[str, tuple[float, list[dict[str, Any]]]] = {}
        self._refused: dict[str, PdfDeskError] = {}

    # -- the server --------------------------------------------------------------------------------
    def _went_offline(self, why: BaseException | str, backoff: bool = False) -> None:
        """Note the lost contact; after a failed connect (not a dropped connection) ordinary
        calls stop trying for a while, so a server that is away does not slow every call."""
        first = str(why).strip().splitlines()[0] if str(why).strip() else type(why).__name__
        self.online, self.state, self.last_error = False, "offline", first
        if backoff:
            self._retry_at = time.monotonic() + RETRY_S
        close_quietly(self._conn)
        self._conn = None

    def _server(self, explicit: bool) -> psycopg.Connection | None:
        """The open connection, a new one, or None while the server cannot be reached."""
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        self._conn = None
        if not explicit and time.monotonic() < self._retry_at:
            return None
        try:
            self._conn = connect(self.target, autocommit=True)
        except PdfDeskError as exc:
            if exc.code != TEAM_UNAVAILABLE:
                raise
            self._went_offline(exc.message, backoff=True)
            return None
        self.online, self.state, self.last_error = True, "online", None
        return self._conn

    def _ask(self, doing: str, work: Callable[[psycopg.Connection], T], explicit: bool = False) -> T | None:
        """`work` on the server, or None when it cannot be reached. A connection that died while
        idle (a server restart, a dropped link) is replaced once before giving up."""
        pid_guard(self._pid)
        with self._server_lock:
            for attempt in (1, 2):
                fresh = self._conn is None
                conn = self._server(explicit)
                if conn is None:
                    return None
                try:
                    return work(conn)
                except psycopg.Error as exc:
                    if not is_connection_failure(exc):
                        raise database_error(exc, doing, self.where) from None
                    self._went_offline(exc)
                    if fresh or attempt == 2:
                        return None
                except PdfDeskError as exc:  # from the matters module, already in words
                    if exc.code != TEAM_UNAVAILABLE:
                        raise
                    self._went_offline(exc.message)
                    if fresh or attempt == 2:
                        return None
        return None

    # -- sending the queue -------------------------------------------------------------------------
    def pending(self) -> int:
        """How many changes wait to be sent."""
        return self.outbox.count()

    def rejected(self) -> list[Rejection]:
        """Changes the server refused for good, kept so none is lost without a word."""
        return self.outbox.rejected()

    def flush(self, explicit: bool = True) -> int:
        """Send the queued changes in order; returns how many the server took. Processes sharing
        this queue take turns (a file lock), so changes leave in the order they were made."""
        pid_guard(self._pid)
        if not self.outbox.count():
            return 0
        sent = 0
        with self._server_lock, file_lock(self.folder / "flush.lock", wait=True) as held:
            if not held:
                return 0
            while True:
                batch = self.outbox.head(BATCH)
                if not batch:
                    break
                result = self._ask("send notes", self._sender(batch), explicit)
                if result is None:
                    break
                sent += result[0]
                if not result[1]:  # stopped early: a change failed for a reason that may pass
                    break
        return sent

    def _sender(self, batch: list[QueuedOp]) -> Callable[[psycopg.Connection], tuple[int, bool]]:
        return lambda conn: self._send(conn, batch)

    def _send(self, conn: psycopg.Connection, batch: list[QueuedOp]) -> tuple[int, bool]:
        """(how many were applied, whether the whole batch was dealt with)."""
        batch = [q for q in (self._with_matter(conn, q) for q in batch) if q is not None]
        try:
            with conn.transaction():
                applied = sum(team_wire.apply(conn, q) for q in batch)
            self.outbox.sent(batch)
            return applied, True
        except (Refused, psycopg.Error) as exc:
            if isinstance(exc, psycopg.Error) and is_connection_failure(exc):
                raise
        applied = 0
        for queued in batch:  # one at a time, to find the change the server will not take
            try:
                with conn.transaction():
                    applied += team_wire.apply(conn, queued)
                self.outbox.sent([queued])
            except Refused as exc:
                self._reject(queued, exc.error)
            except psycopg.Error as exc:
                if is_connection_failure(exc):
                    raise
                error = database_error(exc, "send a note", self.where)
                if team_wire.is_refusal(exc) or self.outbox.failed_once(queued) >= MAX_ATTEMPTS:
                    self._reject(queued, error)
                else:
                    self.last_error = error.message
                    return applied, False
        return applied, True

    def _with_matter(self, conn: psycopg.Connection, queued: QueuedOp) -> QueuedOp | None:
        """An add queued before its matter was known, with the matter now chosen (None: refused)."""
        if queued.kind != "add" or queued.payload.get("matter") is not None:
            return queued
        try:
            matter = self._choose(conn, queued.payload["record"]["fingerprint"])
        except PdfDeskError as exc:
            if exc.code == TEAM_UNAVAILABLE:
                raise
            self._reject(queued, exc)
            return None
        payload = {**queued.payload, "matter": matter["id"]}
        payload["record"] = {**payload["record"], "matter": matter["name"]}
        self.outbox.set_payload(queued, payload)
        return replace(queued, payload=payload)

    def _reject(self, queued: QueuedOp, error: PdfDeskError) -> None:
        self.outbox.reject(queued, error)
        if len(self._refused) > 1000:  # refusals nobody waited for (queued offline, or by another process)
            self._refused.clear()
        self._refused[queued.op] = error

    def _flush_quietly(self) -> None:
        if self.outbox.count():
            self.flush(explicit=False)

    # -- matters -----------------------------------------------------------------------------------
    def _holding(self, conn: psycopg.Connection, fingerprint: str) -> list[dict[str, Any]]:
        known = self._matters.get(fingerprint)
        if known and time.monotonic() - known[0] < MATTERS_TTL_S:
            return known[1]
        found = [{"id": m.id, "name": m.name, "write": m.can_write}
                 for m in team_matters.matters_holding(conn, fingerprint)]
        self._matters[fingerprint] = (time.monotonic(), found)
        self.outbox.set_matters(fingerprint, found)
        return found

    def _choose(self, conn: psycopg.Connection | None, fingerprint: str) -> dict[str, Any]:
        """The matter a new note on this document goes to; raises when there is none to write in."""
        found = self._holding(conn, fingerprint) if conn is not None else self.outbox.matters(fingerprint) or []
        return team_wire.choose_matter(found, get_config().team_matter)

    def _matter_for(self, fingerprint: str) -> dict[str, Any] | None:
        """The chosen matter; from the last answer when offline, None when never asked."""
        chosen = self._ask("read the matters", lambda conn: self._choose(conn, fingerprint))
        if chosen is not None:
            return chosen
        if self.outbox.matters(fingerprint) is None:
            return None
        return self._choose(None, fingerprint)

    # -- edits -------------------------------------------------------------------------------------
    def _settle(self, op: str) -> None:
        """Send the queue; raise the server's refusal when it refused this very change."""
        self._flush_quietly()
        refused = self._refused.pop(op, None)
        if refused is not None:
            raise refused

    def add(self, ann: NewAnnotation) -> Annotation:
        """Queue a new note in the document's matter and send it; it stands locally either way."""
        if ann.kind not in KINDS:
            raise _invalid(f"Unknown kind {str(ann.kind)[:40]!r}.", f"Use one of {', '.join(KINDS)}.")
        if ann.answer is not None and not isinstance(ann.answer, dict):
            raise _invalid("`answer` must be an object with question, text and citations.",
                           'Give {"question": ..., "text": ..., "citations": [{"file": ..., "page": N}]}.')
        fingerprint = _clean("fingerprint", ann.fingerprint)
        matter = self._matter_for(fingerprint)
        stamp = now_iso()
        record = Annotation(
            id="a-" + uuid.uuid4().hex, fingerprint=fingerprint, path=_clean("path", ann.path),
            page=_clean("page", ann.page), rects=_clean("rects", ann.rects), quote=_clean("quote", ann.quote),
            prefix=_clean("prefix", ann.prefix), suffix=_clean("suffix", ann.suffix),
            start=_clean("start", ann.start), note=_clean("note", ann.note), color=_clean("color", ann.color),
            tags=_clean("tags", ann.tags), kind=ann.kind, status="anchored", source="pdfdesk", answer=ann.answer,
            created=stamp, updated=stamp, author=self.user, matter=matter["name"] if matter else "")
        op = "op-" + uuid.uuid4().hex
        self.outbox.enqueue(op, "add", record, {"record": to_json(record), "matter": matter["id"] if matter else None},
                            place=record.path or None)
        self._settle(op)
        return record

    def get(self, id: str) -> Annotation:
        self._flush_quietly()
        found = self._visible("read a note", "n.id = %s", (id,))
        if found is not None:
            notes = {a.id: a for a in found}
            overlay(notes, [q for q in self.outbox.queued() if q.note == id])
            if notes:
                self.outbox.remember(notes.values())
        else:
            notes = {a.id: a for a in self.outbox.cached(note=id)}
        if id not in notes:
            raise _invalid(f"There is no annotation with id {str(id)[:80]!r}.",
                           "List the document's annotations to get their ids.")
        return self._placed(notes[id])

    def update(self, id: str, **fields: Any) -> Annotation:
        """Change only the fields given; where the file lies on this computer stays here."""
        cleaned = {name: _clean(name, value) for name, value in fields.items()}
        path = cleaned.pop("path", None)
        known = self.outbox.cached(note=id) if not cleaned else []  # a new place alone: no need to ask
        current = self._placed(known[0]) if known else self.get(id)
        if path is not None:
            self.outbox.set_place(current.fingerprint, path)
            current = replace(current, path=path)
        return self._queue_change(current, cleaned) if cleaned else current

    def delete(self, id: str) -> Annotation:
        """Hide a note from every list but keep it, so the delete can be undone."""
        return self._queue_change(self.get(id), {"deleted": True})

    def restore(self, id: str) -> Annotation:
        return self._queue_change(self.get(id), {"deleted": False})

    def _queue_change(self, current: Annotation, changed: dict[str, Any]) -> Annotation:
        view = replace(current, **changed, updated=now_iso())
        as_json = to_json(view)
        before = to_json(current)
        payload = {"fields": {k: as_json[k] for k in changed}, "before": {k: before[k] for k in changed}}
        op = "op-" + uuid.uuid4().hex
        self.outbox.enqueue(op, "update", view, payload)
        self._settle(op)
        if self.online and not self.outbox.count():
            try:
                return self.get(current.id)  # the server's view: its revision and who changed it
            except PdfDeskError:
                return view
        return view

    def history(self, id: str) -> list[NoteRevision]:
        """The note's earlier revisions, oldest first (the server keeps them; needs a connection)."""
        found = self._ask("read a note's history", lambda conn: team_wire.history(conn, id), explicit=True)
        if found is None:
            raise PdfDeskError(TEAM_UNAVAILABLE, f"pdfdesk cannot read the note's history ({self.where}): "
                               f"{self.last_error or 'the server does not answer'}.",
                               "Check the network and that the server runs, then retry.")
        return found

    # -- lists -------------------------------------------------------------------------------------
    def _placed(self, ann: Annotation) -> Annotation:
        place = self.outbox.place(ann.fingerprint)
        return replace(ann, path=place) if place and place != ann.path else ann

    def _visible(self, doing: str, where: str, params: tuple = ()) -> list[Annotation] | None:
        """Notes from the server, or None offline; a login the schema does not know sees none."""
        try:
            return self._ask(doing, lambda conn: team_wire.fetch(conn, where, params))
        except PdfDeskError as exc:
            if exc.code != PERMISSION_DENIED:
                raise
            self.last_error = exc.message
            return []

    def for_document(self, fingerprint: str, path: str | None = None) -> list[Annotation]:
        """The document's notes, from every reviewer who may be seen (`path` is not needed:
        notes follow the document's content, not its place)."""
        self._flush_quietly()
        found = self._visible("read notes", "n.fingerprint = %s", (fingerprint,))
        if found is not None:
            notes = {a.id: a for a in found}
            overlay(notes, self.outbox.queued(), fingerprint)
            self.outbox.remember(notes.values(), fingerprint)
            listed = list(notes.values())
        else:
            listed = self.outbox.cached(fingerprint)
        return sorted((self._placed(a) for a in listed if not a.deleted), key=_order)

    def all_documents(self) -> list[tuple[str, str, int]]:
        self._flush_quietly()
        try:
            found = self._ask("read notes", team_wire.documents)
        except PdfDeskError as exc:
            if exc.code != PERMISSION_DENIED:
                raise
            found = []
        counts: dict[str, tuple[str, int]] = {}
        if found is not None:
            counts = {f: (p, n) for f, p, n in found}
            for queued in self.outbox.queued():
                if queued.kind == "add":
                    record = queued.payload["record"]
                    path, n = counts.get(record["fingerprint"], (record["path"], 0))
                    counts[record["fingerprint"]] = (path, n + 1)
        else:
            for ann in self.outbox.cached():
                if not ann.deleted:
                    path, n = counts.get(ann.fingerprint, (ann.path, 0))
                    counts[ann.fingerprint] = (path, n + 1)
        rows = [(f, self.outbox.place(f) or p, n) for f, (p, n) in counts.items()]
        return sorted(rows, key=lambda r: (r[1], r[0]))

    def search(self, text: str, limit: int = 50) -> list[Annotation]:
        """Notes whose quote, note, tags or pinned answer contain `text` (any case), newest first."""
        needle = _fold(" ".join(str(text).split()))
        if not needle:
            raise _invalid("Give some text to search the notes for.", "Type a word from the note or quote.")
        limit = max(1, min(int(limit), 1000))
        self._flush_quietly()
        found = self._visible("search notes", "NOT n.deleted")
        if found is not None:
            notes = {a.id: a for a in found}
            overlay(notes, self.outbox.queued())
            listed = list(notes.values())
        else:
            listed = self.outbox.cached()
        hits = [a for a in listed if not a.deleted and needle in _haystack(a)]
        hits.sort(key=lambda a: (a.updated, a.id), reverse=True)
        return [self._placed(a) for a in hits[:limit]]

    def close(self) -> None:
        with self._server_lock:
            close_quietly(self._conn)
            self._conn = None
            self.outbox.close()


_stores: dict[tuple[int, str, str], TeamAnnotationStore] = {}
_stores_lock = threading.Lock()


def open_team_store(target: TeamTarget) -> TeamAnnotationStore:
    """The process's store for this team database and login, opened once and shared."""
    key = (os.getpid(), target.conninfo, str(app_data_dir()))
    with _stores_lock:
        store = _stores.get(key)
        if store is None:
            store = _stores[key] = TeamAnnotationStore(target)
        return store


def close_team_stores() -> None:
    with _stores_lock:
        for store in _stores.values():
            store.close()
        _stores.clear()


__all__ = ["NoteRevision", "TeamAnnotationStore", "close_team_stores", "open_team_store"]
