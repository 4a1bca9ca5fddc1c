"""A fresh team database per test, on the session's PostgreSQL cluster."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pdfdesk.team.migrations import migrate
from pdfdesk.team.settings import ENV_VAR, TeamTarget


class TeamDatabase:
    """One test's database: the schema set up by the superuser, pdfdesk logged in as alice."""

    def __init__(self, cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cluster = cluster
        self.monkeypatch = monkeypatch
        self.name = cluster.new_database()
        with psycopg.connect(self.conninfo("postgres")) as conn:
            migrate(conn)
        self.login("alice")

    def conninfo(self, user: str) -> str:
        return self.cluster.conninfo(self.name, user)

    def target(self, user: str) -> TeamTarget:
        return TeamTarget(self.conninfo(user), ENV_VAR)

    def login(self, user: str) -> None:
        """Make pdfdesk in this process connect as `user` from now on."""
        self.monkeypatch.setenv(ENV_VAR, self.conninfo(user))

    def admin(self) -> psycopg.Connection:
        """A superuser connection to this database (autocommit)."""
        return psycopg.connect(self.conninfo("postgres"), autocommit=True)

    def close(self) -> None:
        self.cluster.drop_database(self.name)
