"""Matters: named sets of documents and the notes on them, with who may read and who may write.

Every call here goes through the database's own checks (row-level security and the schema's
SECURITY DEFINER functions), so what one reviewer may do is the same whether they use pdfdesk,
psql or a script; these functions only put the questions in words.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from pdfdesk.core.errors import VALIDATION_ERROR, PdfDeskError
from pdfdesk.team.connection import database_error


@dataclass(frozen=True)
class Matter:
    """A matter the current login can see, and what it may do there."""

    id: int
    name: str
    documents: int
    can_write: bool
    can_manage: bool


@dataclass(frozen=True)
class Grant:
    role: str
    can_write: bool
    can_manage: bool
    granted_by: str


@dataclass(frozen=True)
class TeamDocument:
    matter: str
    fingerprint: str
    name: str
    pages: int
    added_by: str


def _run(conn: psycopg.Connection, doing: str, sql: str, params: tuple = ()) -> list[tuple]:
    try:
        with conn.transaction(), conn.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchall() if cur.description else []
    except psycopg.Error as exc:
        raise database_error(exc, doing) from None


def create_matter(conn: psycopg.Connection, name: str) -> int:
    """The id of the matter called `name`, created (and managed by this login) when new."""
    if not name.strip():
        raise PdfDeskError(VALIDATION_ERROR, "A matter needs a name.", "Give a name such as \"Smith v Jones\".")
    rows = _run(conn, f"create the matter {name.strip()!r}", "SELECT pdfdesk.create_matter(%s)", (name,))
    return int(rows[0][0])


def matter_id(conn: psycopg.Connection, name: str) -> int:
    """The id of a matter this login can see, or a validation error naming the ones it can."""
    rows = _run(conn, "read the matters", "SELECT id FROM pdfdesk.matters WHERE name = btrim(%s)", (name,))
    if not rows:
        seen = [m.name for m in list_matters(conn)]
        raise PdfDeskError(VALIDATION_ERROR, f"You have no matter called {name.strip()!r}.",
                           f"Your matters: {', '.join(seen)}." if seen else
                           "You have access to no matter yet: ask a manager to grant you one.")
    return int(rows[0][0])


def list_matters(conn: psycopg.Connection) -> list[Matter]:
    """Every matter this login can see, by name."""
    rows = _run(conn, "read the matters", """
        SELECT m.id, m.name, (SELECT count(*) FROM pdfdesk.documents d WHERE d.matter = m.id),
               m.id = ANY (pdfdesk.writable()), pdfdesk.may_manage(m.id)
        FROM pdfdesk.matters m ORDER BY m.name""")
    return [Matter(int(i), str(n), int(c), bool(w), bool(g)) for i, n, c, w, g in rows]


def add_document(conn: psycopg.Connection, matter: str, fingerprint: str, name: str, pages: int,
                 size: int | None = None, content: bytes | None = None) -> bool:
    """Put a document in a matter (and, with `content`, its file, for teammates without a copy).
    Returns False when the matter held it already."""
    ident = matter_id(conn, matter)
    try:
        with conn.transaction(), conn.cursor() as cur:
            cur.execute("INSERT INTO pdfdesk.documents (matter, fingerprint, name, pages, size) "
                        "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (matter, fingerprint) DO NOTHING",
                        (ident, fingerprint, name, pages, size))
            added = cur.rowcount == 1
            if content is not None:
                cur.execute("INSERT INTO pdfdesk.files (fingerprint, content) VALUES (%s, %s) "
                            "ON CONFLICT (fingerprint) DO NOTHING", (fingerprint, content))
    except psycopg.Error as exc:
        raise database_error(exc, f"add {name!r} to the matter {matter.strip()!r}") from None
    return added


def documents(conn: psycopg.Connection, matter: str | None = None) -> list[TeamDocument]:
    """The documents of one matter (or of every matter this login can see)."""
    sql = ("SELECT m.name, d.fingerprint, d.name, d.pages, d.added_by FROM pdfdesk.documents d "
           "JOIN pdfdesk.matters m ON m.id = d.matter")
    params: tuple = ()
    if matter is not None:
        sql += " WHERE d.matter = %s"
        params = (matter_id(conn, matter),)
    rows = _run(conn, "read the matter's documents", sql + " ORDER BY m.name, d.name", params)
    return [TeamDocument(str(m), str(f), str(n), int(p), str(a)) for m, f, n, p, a in rows]


def matters_holding(conn: psycopg.Connection, fingerprint: str, writing: bool = False) -> list[Matter]:
    """The matters this login can see (or write in) that hold a document with this fingerprint."""
    held = {int(r[0]) for r in _run(conn, "read the matters",
                                    "SELECT matter FROM pdfdesk.documents WHERE fingerprint = %s", (fingerprint,))}
    return [m for m in list_matters(conn) if m.id in held and (m.can_write or not writing)]


def grant(conn: psycopg.Connection, matter: str, role: str, write: bool = False) -> None:
    """Let a database role (a login or a group) read a matter, or read and write it."""
    _run(conn, f"grant {role!r} access to {matter.strip()!r}", "SELECT pdfdesk.grant_matter(%s, %s, %s)",
         (matter, role, write))


def revoke(conn: psycopg.Connection, matter: str, role: str) -> bool:
    """Take a role's access to a matter away; False when it had none."""
    rows = _run(conn, f"change {role!r}'s access to {matter.strip()!r}", "SELECT pdfdesk.revoke_matter(%s, %s)",
                (matter, role))
    return bool(rows and rows[0][0])


def grants(conn: psycopg.Connection, matter: str) -> list[Grant]:
    """Who has access to a matter (as far as this login may see it)."""
    rows = _run(conn, "read the matter's access", "SELECT role, can_write, can_manage, granted_by "
                "FROM pdfdesk.access WHERE matter = %s ORDER BY role", (matter_id(conn, matter),))
    return [Grant(str(r), bool(w), bool(m), str(g)) for r, w, m, g in rows]
