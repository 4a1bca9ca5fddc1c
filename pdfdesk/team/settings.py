"""Where the team database is: the environment variable, else config.toml's [team] database.

The connection string is libpq's own (a URI or key=value pairs), so everything libpq understands
works as it does for psql: TLS (`sslmode`, `sslrootcert`), service files, ~/.pgpass. A password is
never read from config.toml; when the string names none, the system keyring is asked, and libpq's
own files (PGPASSFILE, ~/.pgpass) are used after that.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pdfdesk.core.config import get_config

ENV_VAR = "PDFDESK_TEAM_DATABASE"
KEYRING_SERVICE = "pdfdesk-team"


@dataclass(frozen=True)
class TeamTarget:
    """A configured team database: the connection string and where it was configured."""

    conninfo: str
    source: str  # "PDFDESK_TEAM_DATABASE" or "config.toml"


def team_target() -> TeamTarget | None:
    """The team database in force, or None when notes and the library stay on this computer."""
    from_env = os.environ.get(ENV_VAR, "").strip()
    if from_env:
        return TeamTarget(from_env, ENV_VAR)
    configured = get_config().team_database.strip()
    return TeamTarget(configured, "config.toml") if configured else None


def keyring_account(user: str, host: str, port: str, dbname: str) -> str:
    """The keyring entry a team password is stored under: one per login and server."""
    return f"{user}@{host}:{port}/{dbname}"


def keyring_password(user: str, host: str, port: str, dbname: str) -> str | None:
    """The password kept in the system keyring for this login, if the keyring has one.

    A keyring that is missing or locked is not an error: libpq then tries its own files."""
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, keyring_account(user, host, port, dbname))
    except Exception:
        return None


def store_password(user: str, host: str, port: str, dbname: str, password: str) -> None:
    """Keep a team password in the system keyring (Settings' Team page calls this)."""
    import keyring

    keyring.set_password(KEYRING_SERVICE, keyring_account(user, host, port, dbname), password)
