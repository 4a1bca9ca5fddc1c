"""What `pdfdesk team status` and Settings' Team page say: where pdfdesk is connected, as whom,
and how far the schema and the reviewer's access go."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from pdfdesk.team.connection import Where, connect, database_error
from pdfdesk.team.matters import Matter, list_matters
from pdfdesk.team.migrations import LATEST, schema_version
from pdfdesk.team.settings import TeamTarget


@dataclass(frozen=True)
class TeamStatus:
    """One look at the team database from this computer."""

    where: str                 # user@host:port/dbname, no password
    source: str                # where the connection string was configured
    role: str                  # the database role the server says we are
    server: str                # "PostgreSQL 15.18"
    tls: bool
    schema: int                # 0 = pdfdesk's tables are not there yet
    latest: int
    matters: tuple[Matter, ...]

    def lines(self) -> list[str]:
        writable = sum(1 for m in self.matters if m.can_write)
        schema = ("not set up (run `pdfdesk team init`)" if self.schema == 0 else
                  f"version {self.schema}" + ("" if self.schema == self.latest else
                                              f", this pdfdesk knows {self.latest}: run `pdfdesk team init`"))
        return [
            f"Connected to {self.where} ({self.server}, {'TLS' if self.tls else 'no TLS'}), set by {self.source}",
            f"As database role {self.role}",
            f"Schema: {schema}",
            f"Matters you can see: {len(self.matters)} ({writable} you can write in)"
            + "".join(f"\n  {m.name}: {m.documents} documents, {_access(m)}" for m in self.matters),
        ]


def _access(matter: Matter) -> str:
    return "manage" if matter.can_manage else "read and write" if matter.can_write else "read only"


def team_status(target: TeamTarget) -> TeamStatus:
    """Connect once and describe the connection; coded errors when the server cannot be reached."""
    with connect(target) as conn:
        try:
            role = str(conn.execute("SELECT current_user").fetchone()[0])  # type: ignore[index]
            version = schema_version(conn)
            found = tuple(list_matters(conn)) if version else ()
        except psycopg.Error as exc:
            raise database_error(exc, "read the team database's status") from None
        info = conn.info
        major, minor = divmod(info.server_version, 10000)
        tls = bool(info.pgconn.ssl_in_use)
        shown = str(Where(info.host, str(info.port), info.dbname, role))
    return TeamStatus(shown, target.source, role, f"PostgreSQL {major}.{minor}", tls, version, LATEST, found)
