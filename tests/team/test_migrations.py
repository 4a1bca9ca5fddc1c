"""The team schema: created once, safe to run again and from several clients at once."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest

from pdfdesk.team.migrations import LATEST, migrate, schema_version


def test_migrate_twice_changes_nothing_the_second_time(pg_cluster: Any) -> None:
    name = pg_cluster.new_database()
    try:
        with psycopg.connect(pg_cluster.conninfo(name)) as conn:
            first = migrate(conn)
            second = migrate(conn)
            assert (first.before, first.after) == (0, LATEST) and first.applied
            assert (second.before, second.after, second.applied) == (LATEST, LATEST, ())
            assert schema_version(conn) == LATEST
    finally:
        pg_cluster.drop_database(name)


def test_eight_clients_migrating_at_once_apply_each_migration_once(pg_cluster: Any) -> None:
    name = pg_cluster.new_database()
    results: list[Any] = []
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def client() -> None:
        try:
            with psycopg.connect(pg_cluster.conninfo(name)) as conn:
                start.wait()
                results.append(migrate(conn))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        assert not errors
        assert sorted(len(r.applied) for r in results) == [0] * 7 + [len(range(1, LATEST + 1))]
        with pg_cluster.connect(name) as conn:
            rows = conn.execute("SELECT version FROM pdfdesk.schema_version ORDER BY version").fetchall()
        assert [r[0] for r in rows] == list(range(1, LATEST + 1))
    finally:
        pg_cluster.drop_database(name)


def test_a_schema_newer_than_this_pdfdesk_is_refused(pg_cluster: Any) -> None:
    from pdfdesk.core.errors import PdfDeskError

    name = pg_cluster.new_database()
    try:
        with psycopg.connect(pg_cluster.conninfo(name)) as conn:
            migrate(conn)
            conn.execute("INSERT INTO pdfdesk.schema_version (version, description) VALUES (%s, 'future')",
                         (LATEST + 1,))
            conn.commit()
            with pytest.raises(PdfDeskError, match="newer"):
                migrate(conn)
    finally:
        pg_cluster.drop_database(name)


def test_a_library_written_under_version_1_is_counted_when_migrated(pg_cluster: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from pdfdesk.index.team_library import TeamLibrary
    from pdfdesk.index.team_library_query import Leaf, lexeme, page_terms
    from pdfdesk.team import matters, migrations
    from pdfdesk.team.settings import TeamTarget

    name = pg_cluster.new_database()
    try:
        with psycopg.connect(pg_cluster.conninfo(name)) as conn:
            monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:1])
            monkeypatch.setattr(migrations, "LATEST", 1)
            assert migrate(conn).after == 1
            matters.create_matter(conn, "Old")
            matters.add_document(conn, "Old", "fp", "old.pdf", 2)
            matters.grant(conn, "Old", "alice")
            conn.execute("INSERT INTO pdfdesk.library_documents (fingerprint, pages, words) VALUES ('fp', 2, 6)")
            for number, text in ((1, "escrow agent escrow"), (2, "the escrow ends")):
                terms = page_terms(text)
                conn.execute("INSERT INTO pdfdesk.pages (fingerprint, page, body, terms, length) "
                             "VALUES ('fp', %s, %s, %s::tsvector, %s)", (number, text, terms.vector, terms.length))
            conn.commit()
            monkeypatch.undo()
            assert migrate(conn).applied == tuple(range(2, LATEST + 1))
            storage = conn.execute("SELECT attstorage FROM pg_attribute WHERE attrelid = 'pdfdesk.pages'::regclass "
                                   "AND attname = 'terms'").fetchone()
            assert storage == ("m",)
        alice = TeamLibrary(TeamTarget(pg_cluster.conninfo(name, "alice"), "test"))
        try:
            assert alice.stats.size() == (2, 3.0)  # two pages of three words
            assert alice.stats.page_counts([Leaf(lexeme("escrow"), ("escrow",))]) == [2]
            assert alice.holds("escrow") and not alice.holds("zebra")
        finally:
            alice.close()
    finally:
        pg_cluster.drop_database(name)
