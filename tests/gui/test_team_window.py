"""Team mode in the window, against a real team database: a note another reviewer adds appears in
the open window within two seconds, two windows on one document see each other's notes, and the
status bar says when the server is away (with the notes waiting) and when it is back."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.team import matters
from tests.gui.test_app_window import WAIT_MS
from tests.gui.test_review_controller import ready_window, request, review_pdf, settle

LIVE_MS = 2_000  # the promise: another reviewer's note shows within this long
MATTER = "Smith v Jones"


@pytest.fixture
def team_workers(team_db: Any) -> Any:
    """Tool worker processes started for this test's team login, and gone after it."""
    from pdfdesk.gui.tool_calls import shutdown
    from pdfdesk.review.team_store import close_team_stores

    shutdown()
    yield team_db
    shutdown()
    close_team_stores()


def shared_document(team_db: Any, path: Path, *writers: str) -> None:
    """The document in a matter that `writers` may write in (set up by the database's owner)."""
    with open_pdf(str(path)) as opened:
        fingerprint, pages = opened.fingerprint, opened.page_count
    with team_db.admin() as admin:
        matters.create_matter(admin, MATTER)
        matters.add_document(admin, MATTER, fingerprint, path.name, pages)
        for writer in writers:
            matters.grant(admin, MATTER, writer, write=True)


def team_label(window: Any) -> str:
    return window.review.team.label.text()


def wait_online(qtbot: Any, window: Any) -> None:
    qtbot.waitUntil(lambda: team_label(window).startswith("Team: alice@localhost/"), timeout=WAIT_MS)


def notes(window: Any) -> list[str]:
    return [str(item.get("note") or "") for item in window.review.controller.items()]


def add_as(team_db: Any, user: str, path: Path, note: str, home: Path) -> None:
    """Another reviewer on another computer: `pdfdesk review add` in its own process and app folder."""
    env = {**os.environ, "PDFDESK_TEAM_DATABASE": team_db.conninfo(user), "PDFDESK_HOME": str(home),
           "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-m", "pdfdesk", "review", "add", str(path), "--page", "2",
                           "--rect", "72,90,300,110", "--note", note], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_note_another_reviewer_adds_appears_within_two_seconds(qtbot, make_window, team_workers, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    shared_document(team_workers, path, "alice", "bob")
    window = ready_window(qtbot, make_window, path)
    wait_online(qtbot, window)
    assert window.review.matters.isEnabled()
    dialog = window.review.open_matters()
    qtbot.waitUntil(lambda: dialog.table.rowCount() == 1 and dialog.busy == 0, timeout=WAIT_MS)
    assert [dialog.table.item(0, c).text() for c in range(3)] == [MATTER, "1", "read and write"]
    dialog.close()
    assert "from bob" not in notes(window)
    add_as(team_workers, "bob", path, "from bob", tmp_path / "bob-home")
    committed = time.monotonic()  # the command returns after the server took the note
    qtbot.waitUntil(lambda: "from bob" in notes(window), timeout=LIVE_MS)
    print(f"\nbob's note shown in alice's window {1000 * (time.monotonic() - committed):.0f} ms after commit")
    item = next(i for i in window.review.controller.items() if i.get("note") == "from bob")
    assert item["page"] == 2


def test_two_windows_on_one_document_see_each_others_notes(qtbot, make_window, team_workers, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    shared_document(team_workers, path, "alice")
    first = ready_window(qtbot, make_window, path)
    second = ready_window(qtbot, make_window, path)
    wait_online(qtbot, first)
    wait_online(qtbot, second)
    pending = request(first, path, 3, "indemnification clause survives")
    layer = first.current_view().model.annotations
    qtbot.waitUntil(lambda: layer.item(pending) is None and layer.count() == 1, timeout=WAIT_MS)
    settle(qtbot, first.review.controller)
    stored = time.monotonic()
    key = layer.items()[0]["id"]
    qtbot.waitUntil(lambda: any(i.get("id") == key for i in second.review.controller.items()), timeout=LIVE_MS)
    print(f"\nfirst window's highlight shown in the second {1000 * (time.monotonic() - stored):.0f} ms after commit")
    first.review.controller.update(key, note="edited in the first window")
    settle(qtbot, first.review.controller)
    qtbot.waitUntil(lambda: "edited in the first window" in notes(second), timeout=LIVE_MS)
    first.review.controller.delete([key])
    settle(qtbot, first.review.controller)
    qtbot.waitUntil(lambda: all(i.get("id") != key for i in second.review.controller.items()), timeout=LIVE_MS)


def test_the_status_bar_shows_offline_with_waiting_notes_and_online_again(
        qtbot, make_window, team_workers, pg_cluster, tmp_path):
    path = review_pdf(tmp_path / "contract.pdf")
    shared_document(team_workers, path, "alice")
    window = ready_window(qtbot, make_window, path)
    wait_online(qtbot, window)
    controller = window.review.controller
    pg_cluster.stop()
    try:
        qtbot.waitUntil(lambda: team_label(window).startswith("Team: offline"), timeout=WAIT_MS)
        assert team_label(window).startswith("Team: offline, cannot reach alice@localhost/")
        pending = request(window, path, 1, "ninety days written notice")
        layer = window.current_view().model.annotations
        qtbot.waitUntil(lambda: layer.item(pending) is None and layer.count() == 1, timeout=WAIT_MS)
        settle(qtbot, controller)
        qtbot.waitUntil(lambda: team_label(window) == "Team: offline — 1 note waiting to be sent", timeout=WAIT_MS)
    finally:
        pg_cluster.start()
    back = time.monotonic()
    qtbot.waitUntil(lambda: team_label(window).startswith("Team: alice@localhost/")
                    and "waiting" not in team_label(window), timeout=30_000)
    print(f"\nonline again and the queue sent {1000 * (time.monotonic() - back):.0f} ms after the server started")
    with team_workers.admin() as admin:
        rows = admin.execute("SELECT author, quote FROM pdfdesk.notes").fetchall()
    assert rows == [("alice", "ninety days written notice")]


def test_in_local_mode_there_is_no_team_status_and_no_matters(qtbot, make_window, monkeypatch):
    from pdfdesk.team.settings import ENV_VAR

    monkeypatch.delenv(ENV_VAR, raising=False)
    window = make_window([])
    assert not window.review.team.active and window.review.team.listener is None
    assert window.review.team.label.isHidden()
    assert not window.review.matters.isEnabled()
    assert window.review.open_matters() is None
    assert "team database" in window.statusBar().currentMessage()


def test_saving_a_team_database_in_settings_starts_team_mode_in_the_open_window(
        qtbot, make_window, team_workers, memory_keyring, tmp_path):
    from PySide6.QtWidgets import QDialogButtonBox

    from pdfdesk.team.settings import ENV_VAR

    path = review_pdf(tmp_path / "contract.pdf")
    shared_document(team_workers, path, "alice", "bob")
    team_workers.monkeypatch.delenv(ENV_VAR)
    window = ready_window(qtbot, make_window, path)
    assert not window.review.team.active and window.review.team.label.isHidden()
    dialog = window.open_settings()
    qtbot.waitUntil(lambda: dialog.key_fields["openai"].placeholderText() != "checking the keyring…", timeout=WAIT_MS)
    dialog.team_database.setText(team_workers.conninfo("alice"))
    with qtbot.waitSignal(dialog.saved, timeout=WAIT_MS):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    wait_online(qtbot, window)
    assert not window.review.team.label.isHidden()
    add_as(team_workers, "bob", path, "from bob after settings", tmp_path / "bob-home")
    qtbot.waitUntil(lambda: "from bob after settings" in notes(window), timeout=LIVE_MS)
