"""Creating and upgrading the team schema: numbered migrations, each applied once.

`migrate` may run any number of times and from several clients at once: it takes a
transaction-scoped advisory lock first, so one client applies what is missing while the others
wait and then find nothing left to do. A migration and the row recording it commit together, so
a client killed half-way leaves the schema as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from pdfdesk.core.errors import INTERNAL_ERROR, PdfDeskError
from pdfdesk.team import schema_library, schema_matters, schema_notes, schema_statistics
from pdfdesk.team.connection import database_error

_LOCK_KEY = 0x70646664657364  # "pdfdesk" as a number: the advisory lock every migrating client takes


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    sql: str


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "matters, access, documents, notes with history, shared page text",
              schema_matters.SQL + schema_notes.SQL + schema_library.SQL),
    Migration(2, "each term's page count per matter, kept by triggers; page terms stored in line",
              schema_statistics.PAGES_SQL + schema_statistics.SQL + schema_statistics.SEARCH_SQL),
)
LATEST = MIGRATIONS[-1].version

_VERSION_TABLE = """
CREATE SCHEMA IF NOT EXISTS pdfdesk;
CREATE TABLE IF NOT EXISTS pdfdesk.schema_version (
    version integer PRIMARY KEY,
    description text NOT NULL,
    applied timestamptz NOT NULL DEFAULT now(),
    applied_by name NOT NULL DEFAULT current_user);
"""


@dataclass(frozen=True)
class MigrationResult:
    before: int
    after: int
    applied: tuple[int, ...]


def schema_version(conn: psycopg.Connection) -> int:
    """The schema's version in this database, 0 when pdfdesk never set it up."""
    with conn.cursor() as cur:
        cur.execute("SELECT to_regclass('pdfdesk.schema_version') IS NOT NULL")
        row = cur.fetchone()
        if not row or not row[0]:
            return 0
        cur.execute("SELECT coalesce(max(version), 0) FROM pdfdesk.schema_version")
        found = cur.fetchone()
        return int(found[0]) if found else 0


def migrate(conn: psycopg.Connection) -> MigrationResult:
    """Bring the schema to the latest version; a no-op when it is there already."""
    try:
        with conn.transaction():
            with conn.cursor() as cur:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
                cur.execute(_VERSION_TABLE)
            before = schema_version(conn)
            if before > LATEST:
                raise PdfDeskError(INTERNAL_ERROR, f"The team database's schema is version {before}, newer than "
                                   f"this pdfdesk knows ({LATEST}).", "Update pdfdesk on this computer.")
            applied = []
            for migration in MIGRATIONS:
                if migration.version <= before:
                    continue
                with conn.cursor() as cur:
                    cur.execute(migration.sql)
                    cur.execute("INSERT INTO pdfdesk.schema_version (version, description) VALUES (%s, %s)",
                                (migration.version, migration.description))
                applied.append(migration.version)
    except psycopg.Error as exc:
        raise database_error(exc, "set up the team schema") from None
    return MigrationResult(before, max([before, *applied]), tuple(applied))
