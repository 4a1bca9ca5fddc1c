"""A fresh team database per test, on the session's PostgreSQL cluster."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pdfdesk.index.team_library import TeamLibrary
from pdfdesk.team.migrations import migrate
from pdfdesk.team.settings import ENV_VAR, TeamTarget


class TeamDatabase:
    """One test's database: the schema set up by the superuser, pdfdesk logged in as alice."""

    def __init__(self, cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cluster = cluster
        self.monkeypatch = monkeypatch
        self.name = cluster.new_database()
        self._libraries: list[TeamLibrary] = []
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

    def library(self, user: str) -> TeamLibrary:
        """The team library as `user` sees it, closed with this database."""
        library = TeamLibrary(self.target(user))
        self._libraries.append(library)
        return library

    def close(self) -> None:
        while self._libraries:
            self._libraries.pop().close()
        self.cluster.drop_database(self.name)


def shared_pdf(team_db: TeamDatabase, path: Any, matter: str, writers: tuple[str, ...] = (),
               readers: tuple[str, ...] = (), text: str = "Page {n} says hello from pdfdesk.") -> str:
    """Make a PDF at `path`, put it in `matter` (created when new) with these grants, and return
    its fingerprint (what every reviewer's copy of it is known by). An existing file is kept, so
    one document can be put in several matters."""
    from pdfdesk.core.documents import close_all, open_pdf
    from pdfdesk.team import matters
    from tests.pdf_factory import text_pdf

    if not path.exists():
        text_pdf(path, pages=2, words=text)
    with open_pdf(str(path)) as opened:
        fingerprint, pages = opened.fingerprint, opened.page_count
    close_all()
    with psycopg.connect(team_db.conninfo("postgres")) as conn:
        matters.create_matter(conn, matter)
        matters.add_document(conn, matter, fingerprint, path.name, pages)
        for user in writers:
            matters.grant(conn, matter, user, write=True)
        for user in readers:
            matters.grant(conn, matter, user)
    return fingerprint


def make_logins(cluster: Any, names: list[str]) -> None:
    """Extra login roles (cluster-wide, made once) for tests that need many reviewers."""
    with cluster.connect() as conn:
        for name in names:
            conn.execute(f"DO $$ BEGIN CREATE ROLE {name} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
