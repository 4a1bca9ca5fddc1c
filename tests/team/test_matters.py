"""Matters and access, enforced by the database: what each login sees and may write."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from pdfdesk.core.errors import PERMISSION_DENIED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.team import matters


def _as(team_db: Any, user: str) -> psycopg.Connection:
    return psycopg.connect(team_db.conninfo(user))


def test_a_matter_is_seen_only_by_the_roles_granted_it(team_db: Any) -> None:
    with _as(team_db, "postgres") as admin:
        matters.create_matter(admin, "Smith v Jones")
        matters.add_document(admin, "Smith v Jones", "f" * 32, "contract.pdf", 3, content=b"%PDF-1.7 ...")
        matters.grant(admin, "Smith v Jones", "alice", write=True)
        matters.grant(admin, "Smith v Jones", "bob")
        matters.create_matter(admin, "Other")
        matters.grant(admin, "Other", "outsider", write=True)
    with _as(team_db, "alice") as alice:
        seen = matters.list_matters(alice)
        assert [(m.name, m.documents, m.can_write, m.can_manage) for m in seen] == [("Smith v Jones", 1, True, False)]
        assert [d.name for d in matters.documents(alice)] == ["contract.pdf"]
    with _as(team_db, "bob") as bob:
        assert [(m.name, m.can_write) for m in matters.list_matters(bob)] == [("Smith v Jones", False)]
        with pytest.raises(PdfDeskError) as refused:
            matters.add_document(bob, "Smith v Jones", "e" * 32, "mine.pdf", 1)
        assert refused.value.code == PERMISSION_DENIED
    with _as(team_db, "outsider") as outsider:
        assert [m.name for m in matters.list_matters(outsider)] == ["Other"]
        assert matters.documents(outsider) == []
        assert outsider.execute("SELECT count(*) FROM pdfdesk.files").fetchone() == (0,)
        with pytest.raises(PdfDeskError) as missing:
            matters.matter_id(outsider, "Smith v Jones")
        assert missing.value.code == VALIDATION_ERROR and "Other" in missing.value.hint


def test_a_role_granted_nothing_sees_nothing(team_db: Any) -> None:
    with _as(team_db, "postgres") as admin:
        matters.create_matter(admin, "Sealed")
        matters.grant(admin, "Sealed", "alice")
    with _as(team_db, "nobody") as nobody, pytest.raises(PdfDeskError) as refused:
        matters.list_matters(nobody)
    assert refused.value.code == PERMISSION_DENIED


def test_only_managers_grant_and_a_revoked_role_loses_the_matter(team_db: Any) -> None:
    with _as(team_db, "postgres") as admin:
        matters.create_matter(admin, "Audit 2026")
        matters.grant(admin, "Audit 2026", "alice", write=True)
    with _as(team_db, "alice") as alice, pytest.raises(PdfDeskError) as refused:
        matters.grant(alice, "Audit 2026", "bob")
    assert refused.value.code == PERMISSION_DENIED
    with _as(team_db, "alice") as alice:  # a reviewer may open a matter of her own and manage it
        matters.create_matter(alice, "Alice's own")
        matters.grant(alice, "Alice's own", "bob")
        assert [g.role for g in matters.grants(alice, "Alice's own")] == ["alice", "bob"]
    with _as(team_db, "postgres") as admin:
        assert matters.revoke(admin, "Audit 2026", "alice") is True
    with _as(team_db, "alice") as alice:
        assert [m.name for m in matters.list_matters(alice)] == ["Alice's own"]


def test_granting_to_a_role_that_does_not_exist_says_so(team_db: Any) -> None:
    with _as(team_db, "postgres") as admin:
        matters.create_matter(admin, "M")
        with pytest.raises(PdfDeskError) as refused:
            matters.grant(admin, "M", "no_such_role")
    assert refused.value.code == VALIDATION_ERROR and "no_such_role" in refused.value.message


def test_a_group_role_grants_its_members(team_db: Any) -> None:
    with team_db.admin() as admin:
        admin.execute("DO $$ BEGIN CREATE ROLE litigation NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        admin.execute("GRANT litigation TO carol")
    with _as(team_db, "postgres") as admin:
        matters.create_matter(admin, "Group matter")
        matters.grant(admin, "Group matter", "litigation", write=True)
    with _as(team_db, "carol") as carol:
        assert [(m.name, m.can_write) for m in matters.list_matters(carol)] == [("Group matter", True)]
