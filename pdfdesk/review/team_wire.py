"""The team store's statements: notes read from the server, and queued changes applied there.

A change and the record of its op id are one statement, so the server keeps both or neither: a
change sent again finds its op id and does nothing. An update sets only the fields the reviewer
changed, so two reviewers changing different fields of one note both keep their change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from pdfdesk.core.errors import PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.review.outbox import QueuedOp, from_json
from pdfdesk.review.records import Annotation, as_rect

# What an update may send (a note's place on this computer, `path`, is never sent).
SENDABLE = frozenset({"note", "color", "tags", "page", "rects", "quote", "prefix", "suffix", "start",
                      "status", "fingerprint", "deleted"})
_JSON = frozenset({"rects", "tags", "answer"})
_SELECT = ("SELECT n.id, n.fingerprint, n.path, n.page, n.rects, n.quote, n.prefix, n.suffix, n.start, n.note, "
           "n.color, n.tags, n.kind, n.status, n.source, n.answer, n.created, n.updated, n.deleted, n.author, "
           "n.revision, m.name FROM pdfdesk.notes n JOIN pdfdesk.matters m ON m.id = n.matter")


ADD_HINT = "Add the document to a matter first: pdfdesk team matter NAME --add FILE"
WRITE_HINT = "Ask whoever manages the matter for write access (pdfdesk team grant MATTER ROLE --write)."


def choose_matter(found: list[dict[str, Any]], configured: str) -> dict[str, Any]:
    """Of the matters holding a document ({id, name, write}), the one a new note goes to: the
    only writable one, or the configured one among several; else an error saying what to do."""
    writable = [m for m in found if m["write"]]
    if len(writable) == 1:
        return writable[0]
    if not writable:
        if found:
            names = ", ".join(repr(m["name"]) for m in found)
            raise PdfDeskError(PERMISSION_DENIED, f"You may only read the notes of {names}, not add to them.",
                               WRITE_HINT)
        raise PdfDeskError(VALIDATION_ERROR, "This document is in no matter you can write notes in.", ADD_HINT)
    for matter in writable:
        if matter["name"] == configured.strip():
            return matter
    names = ", ".join(repr(m["name"]) for m in writable)
    raise PdfDeskError(VALIDATION_ERROR, f"This document is in several matters you can write in: {names}.",
                       'Choose one with [team] matter = "NAME" in config.toml (Settings, Team).')


class Refused(Exception):
    """The server will not take this change, now or later."""

    def __init__(self, error: PdfDeskError) -> None:
        super().__init__(error.message)
        self.error = error


@dataclass(frozen=True)
class NoteRevision:
    """An earlier state of a note, kept by the server when someone changed it."""

    revision: int
    changed_by: str
    changed: str
    annotation: Annotation


def iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, str) and value:
        return iso(datetime.fromisoformat(value))
    return ""


def _annotation(row: tuple) -> Annotation:
    (id_, fingerprint, path, page, rects, quote, prefix, suffix, start, note, color, tags, kind, status,
     source, answer, created, updated, deleted, author, revision, matter) = row
    return Annotation(
        id=id_, fingerprint=fingerprint, path=path, page=int(page),
        rects=tuple(as_rect(r) for r in (rects or ())),
        quote=quote, prefix=prefix, suffix=suffix, start=start, note=note, color=color,
        tags=tuple(str(t) for t in (tags or ())), kind=kind, status=status, source=source, answer=answer,
        created=iso(created), updated=iso(updated), deleted=bool(deleted), author=str(author),
        revision=int(revision), matter=str(matter))


def fetch(conn: psycopg.Connection, where: str, params: tuple = ()) -> list[Annotation]:
    """Visible notes (row-level security decides which) matching `where`."""
    with conn.cursor() as cur:
        cur.execute(_SELECT + " WHERE " + where, params)  # where is ours, never input
        return [_annotation(row) for row in cur.fetchall()]


def documents(conn: psycopg.Connection) -> list[tuple[str, str, int]]:
    """(fingerprint, a path it was noted at, live notes) of every visible document with notes."""
    with conn.cursor() as cur:
        cur.execute("SELECT fingerprint, min(path), count(*) FROM pdfdesk.notes WHERE NOT deleted "
                    "GROUP BY fingerprint")
        return [(str(f), str(p), int(n)) for f, p, n in cur.fetchall()]


def history(conn: psycopg.Connection, note: str) -> list[NoteRevision]:
    with conn.cursor() as cur:
        cur.execute("SELECT h.revision, h.changed_by, h.changed, h.content, m.name FROM pdfdesk.note_history h "
                    "JOIN pdfdesk.matters m ON m.id = h.matter WHERE h.note = %s ORDER BY h.revision", (note,))
        found = []
        for revision, changed_by, changed, content, matter in cur.fetchall():
            data = dict(content)
            data.update(created=iso(data.get("created")), updated=iso(data.get("updated")),
                        revision=int(revision), matter=str(matter), author=str(data.get("author", "")))
            found.append(NoteRevision(int(revision), str(changed_by), iso(changed), from_json(data)))
        return found


def _value(field: str, value: Any) -> Any:
    if field in _JSON:
        return Jsonb([list(r) for r in value] if field == "rects" else list(value) if field == "tags" else value)
    return value


def apply(conn: psycopg.Connection, queued: QueuedOp) -> bool:
    """Apply one queued change inside the caller's transaction; False when the server had it
    already. Raises Refused when the note is not there or not this login's to change."""
    with conn.cursor() as cur:
        if queued.kind == "add":
            record, matter = queued.payload["record"], queued.payload.get("matter")
            if matter is None:
                raise Refused(PdfDeskError(VALIDATION_ERROR, "The note's document is in no matter you can write.",
                                           ADD_HINT))
            cur.execute(
                "WITH fresh AS (INSERT INTO pdfdesk.applied_ops (op) VALUES (%s) ON CONFLICT DO NOTHING RETURNING op) "
                "INSERT INTO pdfdesk.notes (id, matter, fingerprint, path, page, rects, quote, prefix, suffix, start, "
                "note, color, tags, kind, status, source, answer, created, deleted) "
                "SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s FROM fresh",
                (queued.op, record["id"], matter, record["fingerprint"], record["path"], record["page"],
                 _value("rects", record["rects"]), record["quote"], record["prefix"], record["suffix"],
                 record["start"], record["note"], record["color"], _value("tags", record["tags"]), record["kind"],
                 record["status"], record["source"],
                 Jsonb(record["answer"]) if record.get("answer") is not None else None,
                 record["created"], bool(record.get("deleted"))))
            return cur.rowcount == 1
        changed = {k: v for k, v in queued.payload.get("fields", {}).items() if k in SENDABLE}
        if not changed:
            return False
        sets = sql.SQL(", ").join(sql.SQL("{} = %s").format(sql.Identifier(k)) for k in changed)
        cur.execute(sql.SQL(
            "WITH fresh AS (INSERT INTO pdfdesk.applied_ops (op) VALUES (%s) ON CONFLICT DO NOTHING RETURNING op), "
            "changed AS (UPDATE pdfdesk.notes SET {} WHERE id = %s AND EXISTS (SELECT 1 FROM fresh) RETURNING id) "
            "SELECT (SELECT count(*) FROM fresh), (SELECT count(*) FROM changed)").format(sets),
            (queued.op, *(_value(k, v) for k, v in changed.items()), queued.note))
        row = cur.fetchone()
        fresh, done = (int(row[0]), int(row[1])) if row else (0, 0)
        if fresh and not done:
            cur.execute("SELECT m.name FROM pdfdesk.notes n JOIN pdfdesk.matters m ON m.id = n.matter "
                        "WHERE n.id = %s", (queued.note,))
            seen = cur.fetchone()
            if seen is not None:
                raise Refused(PdfDeskError(
                    PERMISSION_DENIED, f"You may only read the notes of the matter {seen[0]!r}, not change them.",
                    WRITE_HINT))
            raise Refused(PdfDeskError(VALIDATION_ERROR, f"There is no annotation with id {queued.note[:80]!r} "
                                       "in the team database you can see.",
                                       "List the document's annotations to get their ids."))
        return bool(fresh)


def is_refusal(exc: psycopg.Error) -> bool:
    """A statement error that will fail the same way however often it is sent."""
    return isinstance(exc, (psycopg.errors.InsufficientPrivilege, psycopg.errors.IntegrityError,
                            psycopg.errors.DataError, psycopg.errors.RaiseException,
                            psycopg.errors.UndefinedColumn))
