"""Opening a connection to the team database, and its failures as coded errors.

Every connection gets a short connect timeout and TCP keepalives, so an unreachable server or a
dropped network is noticed in seconds instead of hanging a write, and a statement timeout, so a
lock held by a stuck client cannot hold up a reviewer forever.
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import conninfo as libpq_conninfo

from pdfdesk.core.errors import INTERNAL_ERROR, PERMISSION_DENIED, TEAM_UNAVAILABLE, VALIDATION_ERROR, PdfDeskError
from pdfdesk.team.settings import ENV_VAR, TeamTarget, keyring_password, team_target

CONNECT_SECONDS = 5
STATEMENT_SECONDS = 30
_KEEPALIVES = {"keepalives": "1", "keepalives_idle": "10", "keepalives_interval": "5", "keepalives_count": "3"}


@dataclass(frozen=True)
class Where:
    """Where a connection goes and as whom, without the password: what status lines show."""

    host: str
    port: str
    dbname: str
    user: str

    def __str__(self) -> str:
        host = self.host if not self.host.startswith("/") else f"socket {self.host}"
        return f"{self.user}@{host}:{self.port}/{self.dbname}"


def required_target() -> TeamTarget:
    target = team_target()
    if target is None:
        raise PdfDeskError(VALIDATION_ERROR, "No team database is set up.",
                           f'Set [team] database = "postgresql://you@server/review" in config.toml '
                           f"(Settings, Team) or the {ENV_VAR} environment variable.")
    return target


def parameters(conninfo: str) -> dict[str, Any]:
    """The connection string's parameters with pdfdesk's timeouts, keepalives and, when the
    string has none, the keyring's password."""
    try:
        params: dict[str, Any] = libpq_conninfo.conninfo_to_dict(conninfo)
    except psycopg.ProgrammingError as exc:
        raise PdfDeskError(VALIDATION_ERROR, f"The team database's connection string is not valid: {exc}",
                           'Write it as libpq does, e.g. "postgresql://alice@server/review" or '
                           '"host=server dbname=review user=alice".') from None
    params.setdefault("connect_timeout", str(CONNECT_SECONDS))
    params.setdefault("application_name", "pdfdesk")
    for key, value in _KEEPALIVES.items():
        params.setdefault(key, value)
    if "password" not in params and not os.environ.get("PGPASSWORD"):
        where = where_of(params)
        secret = keyring_password(where.user, where.host, where.port, where.dbname)
        if secret:
            params["password"] = secret
    return params


def where_of(params: dict[str, Any]) -> Where:
    """Where libpq will connect for these parameters, defaults filled in as libpq fills them."""
    user = str(params.get("user") or os.environ.get("PGUSER") or _login_name())
    host = str(params.get("host") or os.environ.get("PGHOST") or "localhost")
    port = str(params.get("port") or os.environ.get("PGPORT") or "5432")
    dbname = str(params.get("dbname") or os.environ.get("PGDATABASE") or user)
    return Where(host, port, dbname, user)


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "postgres"


def connect(target: TeamTarget | None = None, *, autocommit: bool = False) -> psycopg.Connection:
    """A new connection to the team database (the configured one when `target` is None)."""
    target = target or required_target()
    params = parameters(target.conninfo)
    try:
        conn = psycopg.connect(autocommit=autocommit, **params)
    except psycopg.Error as exc:
        raise unavailable(exc, where_of(params), "connect to the team database") from None
    try:
        with conn.cursor() as cur:
            cur.execute(f"SET statement_timeout = '{STATEMENT_SECONDS}s'")
        if not autocommit:
            conn.commit()
    except psycopg.Error as exc:
        conn.close()
        raise unavailable(exc, where_of(params), "connect to the team database") from None
    return conn


def close_quietly(conn: psycopg.Connection | None) -> None:
    """Close a connection that may already be broken: closing is tidying up, never a new failure."""
    if conn is None:
        return
    try:
        conn.close()
    except psycopg.Error:
        pass


def unavailable(exc: BaseException, where: Where | str, doing: str) -> PdfDeskError:
    """A failure to reach or log in to the server, in words a reviewer can act on."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return PdfDeskError(TEAM_UNAVAILABLE, f"pdfdesk cannot {doing} ({where}): {first}",
                        "Check the network and that the server runs; notes you add meanwhile wait on this "
                        "computer and are sent when it answers again. A refused login: check the user "
                        "and the password in the system keyring or ~/.pgpass.")


def is_connection_failure(exc: BaseException) -> bool:
    """Whether `exc` means the link to the server is gone (retry later), not that a statement
    was refused (retrying would fail the same way)."""
    if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
        sqlstate = getattr(exc, "sqlstate", None)
        # 57014 is a statement timeout and 55P03 a lock timeout: the server is there.
        return sqlstate not in ("57014", "55P03")
    return False


def database_error(exc: psycopg.Error, doing: str, where: Where | str = "the team database") -> PdfDeskError:
    """Any psycopg error as the coded error a user sees."""
    if is_connection_failure(exc):
        return unavailable(exc, where, doing)
    message = getattr(getattr(exc, "diag", None), "message_primary", None) or str(exc).strip()
    if isinstance(exc, psycopg.errors.InsufficientPrivilege):
        return PdfDeskError(PERMISSION_DENIED, f"The team database does not let you {doing}: {message}.",
                            "Ask whoever manages the matter to grant you access "
                            "(pdfdesk team grant MATTER ROLE [--write]).")
    if isinstance(exc, psycopg.errors.RaiseException):
        return PdfDeskError(VALIDATION_ERROR, f"pdfdesk cannot {doing}: {message}.",
                            getattr(exc.diag, "message_hint", None) or "Check the names you gave.")
    if isinstance(exc, (psycopg.errors.UndefinedTable, psycopg.errors.InvalidSchemaName)):
        return PdfDeskError(TEAM_UNAVAILABLE, f"The team database has no pdfdesk tables yet ({message}).",
                            "Run `pdfdesk team init` once (as the database's owner).")
    return PdfDeskError(INTERNAL_ERROR, f"pdfdesk cannot {doing}: {message}.",
                        "Retry; if it keeps failing, report it with the crash log.")
