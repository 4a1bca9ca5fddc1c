"""The Team matters dialog against a real team database: creating a matter, adding a document,
granting and revoking access, and the database's refusals shown in place."""

from __future__ import annotations

import psycopg

from pdfdesk.core.documents import open_pdf
from pdfdesk.gui.matters_dialog import MattersDialog
from pdfdesk.team import matters

WAIT_MS = 10_000


def make_reviewer(team_db, *names: str) -> None:
    with team_db.admin() as admin:
        for name in names:
            admin.execute(f"GRANT pdfdesk_reviewer TO {name}")


def open_dialog(qtbot) -> MattersDialog:
    dialog = MattersDialog()
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitUntil(lambda: dialog.busy == 0, timeout=WAIT_MS)
    return dialog


def idle(qtbot, dialog: MattersDialog) -> None:
    qtbot.waitUntil(lambda: dialog.busy == 0, timeout=WAIT_MS)


def rows(dialog: MattersDialog) -> list[tuple[str, ...]]:
    return [tuple(dialog.table.item(r, c).text() for c in range(dialog.table.columnCount()))
            for r in range(dialog.table.rowCount())]


def test_create_a_matter_add_a_document_grant_and_revoke(qtbot, team_db, text_pdf):
    make_reviewer(team_db, "alice")
    dialog = open_dialog(qtbot)
    assert rows(dialog) == [] and "no matter yet" in dialog.message.text()
    assert not dialog.add_button.isEnabled() and not dialog.grant_button.isEnabled()
    ask = dialog.ask_new()
    ask.name.setText("  Smith v Jones ")
    ask.accept()
    qtbot.waitUntil(lambda: rows(dialog) == [("Smith v Jones", "0", "manage")], timeout=WAIT_MS)
    idle(qtbot, dialog)
    assert dialog.add_button.isEnabled() and dialog.grant_button.isEnabled()
    assert [dialog.access.item(i).text().split(":")[0] for i in range(dialog.access.count())] == ["alice"]

    file_dialog = dialog.choose_documents()
    assert file_dialog is not None and file_dialog.isVisible()
    file_dialog.filesSelected.emit([str(text_pdf)])
    qtbot.waitUntil(lambda: rows(dialog) == [("Smith v Jones", "1", "manage")], timeout=WAIT_MS)
    with open_pdf(str(text_pdf)) as opened:
        fingerprint, pages = opened.fingerprint, opened.page_count
    with psycopg.connect(team_db.conninfo("alice")) as conn:
        held = matters.documents(conn, "Smith v Jones")
    assert [(d.fingerprint, d.pages, d.added_by) for d in held] == [(fingerprint, pages, "alice")]

    grant = dialog.ask_grant()
    grant.name.setText("bob")
    grant.write.setChecked(True)
    grant.accept()
    qtbot.waitUntil(lambda: "bob may now read and write" in dialog.message.text(), timeout=WAIT_MS)
    idle(qtbot, dialog)
    with psycopg.connect(team_db.conninfo("bob")) as conn:
        assert [(m.name, m.can_write) for m in matters.list_matters(conn)] == [("Smith v Jones", True)]
    listed = [dialog.access.item(i).text() for i in range(dialog.access.count())]
    assert any(text.startswith("bob: read and write") for text in listed), listed

    bob = next(i for i in range(dialog.access.count()) if dialog.access.item(i).text().startswith("bob"))
    dialog.access.setCurrentRow(bob)
    assert dialog.revoke_button.isEnabled()
    dialog.revoke_button.click()
    qtbot.waitUntil(lambda: "bob no longer has access" in dialog.message.text(), timeout=WAIT_MS)
    with psycopg.connect(team_db.conninfo("bob")) as conn:
        assert matters.list_matters(conn) == []


def test_refusals_are_shown_in_the_dialog(qtbot, team_db):
    make_reviewer(team_db, "alice")
    with team_db.admin() as admin:
        matters.create_matter(admin, "Sealed")
        matters.grant(admin, "Sealed", "alice")  # read only: may not add or grant
    dialog = open_dialog(qtbot)
    assert rows(dialog) == [("Sealed", "0", "read only")]
    assert not dialog.add_button.isEnabled() and not dialog.grant_button.isEnabled()
    dialog.grant("Sealed", "bob", True)  # the database refuses even when asked directly
    qtbot.waitUntil(lambda: dialog.message.text().startswith("permission_denied: "), timeout=WAIT_MS)
    assert "Sealed" in dialog.message.text()

    with team_db.admin() as admin:
        matters.grant(admin, "Sealed", "alice", write=True)
        admin.execute("UPDATE pdfdesk.access SET can_manage = true WHERE role = 'alice'")
    dialog.refresh()
    qtbot.waitUntil(lambda: rows(dialog) == [("Sealed", "0", "manage")], timeout=WAIT_MS)
    dialog.grant("Sealed", "no_such_role", False)
    qtbot.waitUntil(lambda: "no_such_role" in dialog.message.text(), timeout=WAIT_MS)
    assert dialog.message.text().startswith("validation_error: ")


def test_an_unreachable_server_is_a_coded_error_in_place(qtbot, team_db, pg_cluster):
    team_db.monkeypatch.setenv("PDFDESK_TEAM_DATABASE", pg_cluster.conninfo(team_db.name, "alice")
                               .replace(str(pg_cluster.socket_dir), str(pg_cluster.root / "nowhere")))
    dialog = open_dialog(qtbot)
    assert dialog.message.text().startswith("team_unavailable: "), dialog.message.text()
    assert rows(dialog) == []
